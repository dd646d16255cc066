/* Schedules of collectives (model/coll_schedule.h): two members' parts worked out by
 * hand from the algorithms' definitions, members with equal schedules, the parts that
 * have no schedule, and for every built-in algorithm, size up to 40, member, root and
 * block (v-counts too) the schedule compared with the rounds the algorithm's round
 * function makes one at a time. */
#include <criterion/criterion.h>
#include <string.h>

#include "coll_schedule.h"

#define MAXMSG 256

/* One round as the round function makes it. */
struct round {
    int n;
    struct pz_coll_message m[MAXMSG];
};

static void collect(void *ud, int peer, int is_send, double bytes)
{
    struct round *r = ud;

    cr_assert_lt(r->n, MAXMSG);
    r->m[r->n++] = (struct pz_coll_message){ peer, is_send, bytes };
}

static const struct pz_coll_algo *algo(enum pz_coll_op op, const char *name)
{
    const struct pz_coll_algo *a = pz_coll_named(op, name);

    cr_assert(a, "no algorithm '%s' for op %d", name, op);
    return a;
}

/* The rounds of s: the number, and of round r where its head is. */
static int rounds_of(const struct pz_coll_schedule *s)
{
    int n = 0;

    for (int at = 0; at < s->nsteps; at += 1 + s->steps[at].head.nmsgs)
        n++;
    return n;
}

static const union pz_coll_step *head_of(const struct pz_coll_schedule *s, int round)
{
    int at = 0;

    while (round-- > 0)
        at += 1 + s->steps[at].head.nmsgs;
    cr_assert_lt(at, s->nsteps);
    return &s->steps[at];
}

static void expect_round(const struct pz_coll_schedule *s, int round, int nmsgs,
                         double reduce_bytes)
{
    cr_assert_eq(head_of(s, round)->head.nmsgs, nmsgs, "round %d", round);
    cr_assert_eq(head_of(s, round)->head.reduce_bytes, reduce_bytes, "round %d", round);
}

/* Message i of round of member me's schedule s. */
static void expect_message(const struct pz_coll_schedule *s, int me, int round, int i,
                           int peer, int is_send, double bytes)
{
    const struct pz_coll_message *m = &head_of(s, round)[1 + i].msg;

    cr_assert_eq(m->peer ^ me, peer, "round %d message %d", round, i);
    cr_assert_eq(m->is_send, is_send, "round %d message %d", round, i);
    cr_assert_eq(m->bytes, bytes, "round %d message %d", round, i);
}

/* Allreduce by recursive doubling on P = 5 (pof2 4, rem 1): member 0 (even, below
 * 2 rem) hands its 8 bytes to 1 and waits; 1 combines them, exchanges with the real
 * ranks of new ranks 1 and 2 (unfold: 2 and 3), combining each time, and gives 0 the
 * result. */
Test(coll_schedule, allreduce_recursive_doubling_by_hand)
{
    struct pz_coll c = { PZ_COLL_ALLREDUCE, 5, 0, 0, 8, NULL, NULL, 0, 0 };
    const struct pz_coll_algo *a = algo(PZ_COLL_ALLREDUCE, "recursive_doubling");
    struct pz_coll_schedule *s = pz_coll_schedule_new(a, &c);

    cr_assert(s);
    cr_assert_eq(rounds_of(s), 2);
    expect_round(s, 0, 1, 0);
    expect_message(s, c.me, 0, 0, 1, 1, 8);
    expect_round(s, 1, 1, 0);
    expect_message(s, c.me, 1, 0, 1, 0, 8);
    pz_coll_schedule_release(s);

    c.me = 1;
    cr_assert(s = pz_coll_schedule_new(a, &c));
    cr_assert_eq(rounds_of(s), 4);
    cr_assert_eq(s->nsteps, 4 + 6);
    expect_round(s, 0, 1, 8);
    expect_message(s, c.me, 0, 0, 0, 0, 8);
    expect_round(s, 1, 2, 8);
    expect_message(s, c.me, 1, 0, 2, 1, 8);
    expect_message(s, c.me, 1, 1, 2, 0, 8);
    expect_round(s, 2, 2, 8);
    expect_message(s, c.me, 2, 0, 3, 1, 8);
    expect_message(s, c.me, 2, 1, 3, 0, 8);
    expect_round(s, 3, 1, 0);
    expect_message(s, c.me, 3, 0, 0, 1, 8);
    pz_coll_schedule_release(s);
}

/* Recursive doubling on a power of two: every member's rounds have one shape, so one
 * schedule; on 5 members, member 0 (handing its data over) and 1 (taking it) differ. */
Test(coll_schedule, equal_shapes_equal_schedules)
{
    struct pz_coll c = { PZ_COLL_ALLREDUCE, 8, 0, 0, 8, NULL, NULL, 0, 0 };
    const struct pz_coll_algo *a = algo(PZ_COLL_ALLREDUCE, "recursive_doubling");
    struct pz_coll_schedule *first = pz_coll_schedule_new(a, &c), *s;

    cr_assert(first);
    for (c.me = 1; c.me < c.size; c.me++) {
        cr_assert(s = pz_coll_schedule_new(a, &c));
        cr_assert(pz_coll_schedule_same(first, s), "member %d", c.me);
        pz_coll_schedule_release(s);
    }
    pz_coll_schedule_release(first);
    c = (struct pz_coll){ PZ_COLL_ALLREDUCE, 5, 0, 0, 8, NULL, NULL, 0, 0 };
    cr_assert(first = pz_coll_schedule_new(a, &c));
    c.me = 1;
    cr_assert(s = pz_coll_schedule_new(a, &c));
    cr_assert_not(pz_coll_schedule_same(first, s));
    pz_coll_schedule_release(s);
    pz_coll_schedule_release(first);
}

/* A lone member has no rounds; the ring's P - 1 rounds of one shape, a linear part of
 * more than PZ_COLL_SCHEDULE_MAX messages and an algorithm that is not built in have
 * no schedule. */
Test(coll_schedule, what_has_no_schedule)
{
    struct pz_coll c = { PZ_COLL_ALLGATHER, 1, 0, 0, 8, NULL, NULL, 0, 0 };
    struct pz_coll_schedule *s = pz_coll_schedule_new(algo(PZ_COLL_ALLGATHER, "ring"), &c);
    struct pz_coll_algo mine = *algo(PZ_COLL_BARRIER, "dissemination");

    cr_assert(s);
    cr_assert_eq(s->nsteps, 0);
    pz_coll_schedule_release(s);
    c.size = 4;
    cr_assert_null(pz_coll_schedule_new(algo(PZ_COLL_ALLGATHER, "ring"), &c));
    c = (struct pz_coll){ PZ_COLL_ALLTOALL, PZ_COLL_SCHEDULE_MAX / 2 + 2, 0, 0, 8, NULL, NULL, 0, 0 };
    cr_assert_null(pz_coll_schedule_new(algo(PZ_COLL_ALLTOALL, "linear"), &c));
    c.size--;
    cr_assert(s = pz_coll_schedule_new(algo(PZ_COLL_ALLTOALL, "linear"), &c));
    cr_assert_eq(s->nsteps, 1 + PZ_COLL_SCHEDULE_MAX, "2 (P - 1) messages in one round");
    pz_coll_schedule_release(s);
    c = (struct pz_coll){ PZ_COLL_BARRIER, 4, 0, 0, 0, NULL, NULL, 0, 0 };
    cr_assert_null(pz_coll_schedule_new(&mine, &c));
}

/* The schedule of c, if it has one, against round by round. */
static int same_as_rounds(const struct pz_coll_algo *a, const struct pz_coll *c)
{
    struct pz_coll_schedule *s = pz_coll_schedule_new(a, c);
    static struct round r;
    struct pz_coll_round out = { collect, &r, 0, NULL };
    int round, at = 0;

    if (!s)
        return 0;
    for (round = 0; r.n = 0, a->round(c, round, &out); round++) {
        const union pz_coll_step *head = &s->steps[at];

        cr_assert_lt(at, s->nsteps, "%s P %d me %d: more rounds", a->name, c->size, c->me);
        cr_assert_eq(head->head.nmsgs, r.n, "%s P %d me %d round %d", a->name, c->size, c->me,
                     round);
        cr_assert_eq(head->head.reduce_bytes, out.reduce_bytes, "%s P %d me %d round %d",
                     a->name, c->size, c->me, round);
        for (int i = 0; i < r.n; i++) {
            struct pz_coll_message m = head[1 + i].msg;

            m.peer ^= c->me;
            cr_assert(memcmp(&m, &r.m[i], sizeof(r.m[i])) == 0,
                      "%s P %d me %d round %d message %d", a->name, c->size, c->me, round, i);
        }
        at += 1 + r.n;
    }
    cr_assert_eq(at, s->nsteps, "%s P %d me %d: fewer rounds", a->name, c->size, c->me);
    pz_coll_schedule_release(s);
    return 1;
}

/* Every algorithm of every op (the names of docs/collectives.md). */
static const char *const names[] = {
    "dissemination", "hypercube", "binomial", "scatter_recursive_doubling_allgather",
    "scatter_ring_allgather", "linear", "ring", "recursive_doubling", "bruck", "scattered",
    "pairwise", "pairwise_shift", "reduce_scatter_gather", "rabenseifner",
    "reduce_scatter_allgather", "reduce_bcast", "recursive_doubling_fixup",
    "recursive_halving", "reduce_scatterv",
};

static double counts[2][64];

/* Per-rank bytes that differ from rank to rank, some of them 0. */
static void vary(struct pz_coll *c)
{
    for (int r = 0; r < c->size; r++) {
        counts[0][r] = (r * 7 + c->me * 3) % 5 * 1000.0;
        counts[1][r] = (r * 5 + 1) % 4 * 24.0;
    }
    c->send_counts = counts[0];
    c->recv_counts = counts[1];
}

Test(coll_schedule, every_algorithm_as_round_by_round)
{
    static const double blocks[] = { 0, 8, 1000, 1 << 20 };
    int made = 0, compared = 0;

    for (int op = 0; op < PZ_COLL_NOPS; op++)
        for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
            const struct pz_coll_algo *a = pz_coll_named(op, names[k]);

            for (int p = 1; a && p <= 40; p++)
                for (int me = 0; me < p; me++)
                    for (int root = 0; root < p; root += p / 3 + 1)
                        for (int b = 0; b < 8; b++) {
                            struct pz_coll c = { op, p, me, root, blocks[b % 4], NULL, NULL, 0, 0 };

                            if (b >= 4)
                                vary(&c);
                            made += same_as_rounds(a, &c);
                            compared++;
                        }
        }
    cr_assert_gt(made, compared / 2, "%d schedules of %d parts", made, compared);
}
