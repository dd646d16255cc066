/* The set openmpi4 (model/coll_ompi*.c): Open MPI 4.1's fixed decision rules at their
 * switch points, and its algorithms, each member's rounds worked out by hand from the
 * algorithms of ompi/mca/coll/base in the comments.  Every algorithm is also replayed
 * with all members against each other (messages between two members matched in the
 * order each posts them, a member's next round begun once its round is complete): no
 * deadlock, every send met by a receive of the same bytes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll.h"
#include "machine.h"

#define MAXP 24
#define MAXMSG 64
#define MAXROUNDS 64

/* One round of one member as the algorithm gives it. */
struct round {
    int n, copied;
    int peer[MAXMSG], is_send[MAXMSG];
    double bytes[MAXMSG], copy, reduce;
};

static void collect(void *ud, int peer, int is_send, double bytes)
{
    struct round *r = ud;

    cr_assert_lt(r->n, MAXMSG);
    r->peer[r->n] = peer, r->is_send[r->n] = is_send, r->bytes[r->n] = bytes;
    r->n++;
}

static void copied(void *ud, double bytes)
{
    struct round *r = ud;

    r->copied = 1, r->copy = bytes;
}

static const struct pz_coll_algo *algo(enum pz_coll_op op, const char *name)
{
    const struct pz_coll_algo *a = pz_coll_named(op, name);

    cr_assert(a, "no algorithm '%s' for op %d", name, op);
    return a;
}

/* The rounds of member c->me into rs; returns how many. */
static int rounds(const struct pz_coll_algo *a, const struct pz_coll *c, struct round *rs)
{
    int k = 0;

    for (;;) {
        struct pz_coll_round out = { collect, &rs[k], 0, copied };

        cr_assert_lt(k, MAXROUNDS);
        memset(&rs[k], 0, sizeof rs[k]);
        out.ud = &rs[k];
        if (!a->round(c, k, &out))
            return k;
        rs[k].reduce = out.reduce_bytes;
        k++;
    }
}

static struct round R[MAXP][MAXROUNDS];
static int NR[MAXP];

static struct pz_coll member(enum pz_coll_op op, int p, int me, int root, double n,
                             const double *blocks)
{
    return (struct pz_coll){ op, p, me, root, n, NULL, blocks, 0, 0 };
}

/* Messages of member me with q in its rounds 0 .. upto-1: sends to q (is_send) or
 * receives from q; into bytes when not NULL. */
static int posted(int me, int upto, int q, int is_send, double *bytes)
{
    int n = 0;

    for (int k = 0; k < upto && k < NR[me]; k++)
        for (int i = 0; i < R[me][k].n; i++)
            if (R[me][k].peer[i] == q && R[me][k].is_send[i] == is_send) {
                if (bytes)
                    bytes[n] = R[me][k].bytes[i];
                n++;
            }
    return n;
}

/* Messages from f to t matched while f has posted its rounds up to cur[f] and t up to
 * cur[t] (FIFO per ordered pair). */
static int matched(const int *cur, int f, int t)
{
    int s = posted(f, cur[f] + 1, t, 1, NULL), r = posted(t, cur[t] + 1, f, 0, NULL);

    return s < r ? s : r;
}

/* Whether every message of member me's current round is matched. */
static int complete(const int *cur, int p, int me)
{
    for (int q = 0; q < p; q++)
        if (posted(me, cur[me] + 1, q, 1, NULL) > matched(cur, me, q) ||
            posted(me, cur[me] + 1, q, 0, NULL) > matched(cur, q, me))
            return 0;
    return 1;
}

/* All members' rounds, then the replay: a member begins its next round once every
 * message of its round is matched; at the end every member is done and between every
 * two members the sends and the receives are the same sequence of bytes. */
static void run(enum pz_coll_op op, const char *name, int p, int root, double n,
                const double *blocks)
{
    const struct pz_coll_algo *a = algo(op, name);
    int cur[MAXP] = { 0 }, progress = 1;
    static double sb[MAXMSG * MAXROUNDS], rb[MAXMSG * MAXROUNDS];

    for (int me = 0; me < p; me++) {
        struct pz_coll c = member(op, p, me, root, n, blocks);

        NR[me] = rounds(a, &c, R[me]);
    }
    while (progress) {
        progress = 0;
        for (int me = 0; me < p; me++)
            if (cur[me] < NR[me] && complete(cur, p, me))
                cur[me]++, progress = 1;
    }
    for (int me = 0; me < p; me++)
        cr_assert_eq(cur[me], NR[me], "%s: deadlock, member %d of %d stuck in round %d", name,
                     me, p, cur[me]);
    for (int f = 0; f < p; f++)
        for (int t = 0; t < p; t++) {
            int ns = posted(f, NR[f], t, 1, sb), nr = posted(t, NR[t], f, 0, rb);

            cr_assert_eq(ns, nr, "%s P=%d: %d sends %d to %d, who receives %d", name, p, f, ns,
                         t, nr);
            for (int k = 0; k < ns; k++)
                cr_assert_eq(sb[k], rb[k], "%s P=%d: %d -> %d message %d: %g sent, %g received",
                             name, p, f, t, k, sb[k], rb[k]);
        }
}

static double sent_by(int me)
{
    double s = 0;

    for (int k = 0; k < NR[me]; k++)
        for (int i = 0; i < R[me][k].n; i++)
            s += R[me][k].is_send[i] ? R[me][k].bytes[i] : 0;
    return s;
}

static double reduced_by(int me)
{
    double s = 0;

    for (int k = 0; k < NR[me]; k++)
        s += R[me][k].reduce;
    return s;
}

static int messages(int p)
{
    int n = 0;

    for (int me = 0; me < p; me++)
        for (int k = 0; k < NR[me]; k++)
            for (int i = 0; i < R[me][k].n; i++)
                n += R[me][k].is_send[i];
    return n;
}

/* Message i of round k of member me is (send?, peer, bytes). */
static void expect_msg(int me, int k, int i, int is_send, int peer, double bytes)
{
    cr_assert_lt(k, NR[me], "member %d has %d rounds, not %d", me, NR[me], k + 1);
    cr_assert_lt(i, R[me][k].n, "member %d round %d has %d messages", me, k, R[me][k].n);
    cr_expect_eq(R[me][k].is_send[i], is_send, "member %d round %d message %d", me, k, i);
    cr_expect_eq(R[me][k].peer[i], peer, "member %d round %d message %d: peer", me, k, i);
    cr_expect_eq(R[me][k].bytes[i], bytes, "member %d round %d message %d: bytes", me, k, i);
}

/* Round k of member me is one Sendrecv: to `to` sent bytes, from `from` got bytes. */
static void expect_sendrecv(int me, int k, int to, double sent, int from, double got)
{
    cr_assert_eq(R[me][k].n, 2, "member %d round %d: %d messages", me, k, R[me][k].n);
    expect_msg(me, k, 0, 1, to, sent);
    expect_msg(me, k, 1, 0, from, got);
}

static const struct {
    enum pz_coll_op op;
    const char *name;
} added[] = {
    { PZ_COLL_ALLREDUCE, "ring" }, { PZ_COLL_ALLREDUCE, "segmented_ring" },
    { PZ_COLL_ALLREDUCE, "ompi_rabenseifner" }, { PZ_COLL_ALLREDUCE, "basic_linear" },
    { PZ_COLL_REDUCE_SCATTER, "ring" }, { PZ_COLL_REDUCE_SCATTER_BLOCK, "ring" },
    { PZ_COLL_BCAST, "linear" }, { PZ_COLL_BCAST, "pipeline" },
    { PZ_COLL_REDUCE, "linear" }, { PZ_COLL_REDUCE, "pipeline" },
    { PZ_COLL_ALLGATHER, "gather_bcast" }, { PZ_COLL_ALLGATHERV, "gather_bcast" },
    { PZ_COLL_BARRIER, "linear" }, { PZ_COLL_BARRIER, "tree" },
    { PZ_COLL_BARRIER, "double_ring" }, { PZ_COLL_ALLTOALL, "ompi_linear" },
    { PZ_COLL_ALLTOALL, "ompi_pairwise" }, { PZ_COLL_ALLGATHER, "neighbor_exchange" },
    { PZ_COLL_ALLGATHERV, "neighbor_exchange" }, { PZ_COLL_BCAST, "ompi_binomial" },
    { PZ_COLL_BCAST, "binary_tree" }, { PZ_COLL_BCAST, "knomial" },
    { PZ_COLL_REDUCE, "binary" }, { PZ_COLL_REDUCE, "in_order_binary" },
    { PZ_COLL_ALLREDUCE, "nonoverlapping" }, { PZ_COLL_REDUCE_SCATTER, "nonoverlapping" },
    { PZ_COLL_REDUCE_SCATTER_BLOCK, "basic_linear" }, { PZ_COLL_GATHER, "ompi_linear" },
    { PZ_COLL_GATHERV, "ompi_linear" }, { PZ_COLL_SCATTER, "ompi_linear" },
    { PZ_COLL_SCATTERV, "ompi_linear" }, { PZ_COLL_GATHER, "linear_sync" },
    { PZ_COLL_REDUCE_SCATTER, "butterfly" }, { PZ_COLL_REDUCE_SCATTER_BLOCK, "butterfly" },
    { PZ_COLL_BCAST, "scatter_allgather" }, { PZ_COLL_BCAST, "scatter_allgather_ring" },
    { PZ_COLL_REDUCE, "ompi_rabenseifner" }, { PZ_COLL_BCAST, "split_binary_tree" },
};

/* Sizes 1 .. 17, roots 0 and P - 1, vectors of 1, 3 and 100 elements and of 12 bytes
 * (3 elements of 4): no deadlock, sends matched; nothing with one member. */
Test(coll_ompi, every_added_algorithm_completes_with_matched_messages)
{
    static const double sizes[] = { 8, 24, 800, 12 };
    static const double blocks[MAXP] = { 0, 200, 400, 100, 300, 0, 200, 400, 100, 300,
                                         0, 200, 400, 100, 300, 0, 200, 400 };

    for (size_t a = 0; a < sizeof added / sizeof *added; a++)
        for (int p = 1; p <= 17; p++)
            for (int s = 0; s < 4; s++) {
                enum pz_coll_op op = added[a].op;
                int v = op == PZ_COLL_ALLGATHERV || op == PZ_COLL_REDUCE_SCATTER;

                run(op, added[a].name, p, s % 2 ? p - 1 : 0, sizes[s], v ? blocks : NULL);
                if (p == 1)
                    cr_assert_eq(NR[0], 0, "%s: work with one member", added[a].name);
            }
}

/* Ring Allreduce, P = 3, n = 40: 5 elements of 8 in blocks of 2, 2, 1 (the first
 * 5 mod 3 = 2 one larger): 16, 16, 8 bytes.  Member 0: reduce-scatter step i sends
 * block -i and receives block -i-1 (mod 3): step 0 sends block 0 (16) to 1, receives
 * block 2 (8) from 2; step 1 sends block 2 (8), receives block 1 (16); allgather step
 * k sends block 1-k, receives block -k: block 1 (16) / block 0 (16), then block 0 (16)
 * / block 2 (8).  It combines 8 + 16 bytes. */
Test(coll_ompi, ring_allreduce_blocks)
{
    run(PZ_COLL_ALLREDUCE, "ring", 3, 0, 40, NULL);
    cr_assert_eq(NR[0], 4);
    expect_sendrecv(0, 0, 1, 16, 2, 8);
    expect_sendrecv(0, 1, 1, 8, 2, 16);
    expect_sendrecv(0, 2, 1, 16, 2, 16);
    expect_sendrecv(0, 3, 1, 16, 2, 8);
    cr_expect_eq(reduced_by(0), 24);
    cr_expect_eq(R[0][0].reduce, 8);
    cr_expect_eq(messages(3), 12);   /* 2 (P - 1) = 4 per member */
}

/* Fewer elements than members (n = 16: 2 elements, P = 3): Open MPI's ring runs
 * recursive doubling: rank 0 hands its vector to 1, 1 and 2 exchange, 1 returns the
 * result to 0: 4 messages of 16. */
Test(coll_ompi, ring_allreduce_short_vector_is_recursive_doubling)
{
    run(PZ_COLL_ALLREDUCE, "ring", 3, 0, 16, NULL);
    cr_assert_eq(messages(3), 4);
    cr_assert_eq(NR[0], 2);
    expect_msg(0, 0, 0, 1, 1, 16);
    expect_msg(0, 1, 0, 0, 1, 16);
    expect_sendrecv(2, 0, 1, 16, 1, 16);
}

/* Rabenseifner, P = 3, n = 64 (8 elements): rem = 1, pof2 = 2.  Rank 0 (even) swaps
 * halves with 1 (sends the high 4 elements, 32 B, receives the low 32 B, combines
 * them), then receives 1's combined high half (32).  New ranks: 0 -> 0, 2 -> 1;
 * Open MPI's unfold puts new rank 1 at 1 + rem = 2.  Halving at distance 1: rank 0 <
 * 2 keeps the low 4 elements: sends 32, receives 32; allgather back: sends its 32,
 * receives 32; last it sends the whole 64 to rank 1.  Rank 1: Sendrecv with 0 (its
 * low 32 out, high 32 in), its high half to 0, then the result from 0. */
Test(coll_ompi, rabenseifner_allreduce_three)
{
    run(PZ_COLL_ALLREDUCE, "ompi_rabenseifner", 3, 0, 64, NULL);
    cr_assert_eq(NR[0], 5);
    expect_sendrecv(0, 0, 1, 32, 1, 32);
    expect_msg(0, 1, 0, 0, 1, 32);
    expect_sendrecv(0, 2, 2, 32, 2, 32);
    expect_sendrecv(0, 3, 2, 32, 2, 32);
    expect_msg(0, 4, 0, 1, 1, 64);
    cr_assert_eq(NR[1], 3);
    expect_sendrecv(1, 0, 0, 32, 0, 32);
    expect_msg(1, 1, 0, 1, 0, 32);
    expect_msg(1, 2, 0, 0, 0, 64);
    cr_assert_eq(NR[2], 2);
    cr_expect_eq(reduced_by(0), 64);   /* 32 in the fold, 32 in the halving */
}

/* P = 2, n = 24 (3 elements): the lower rank keeps the window's first 3 / 2 = 1
 * element: rank 0 sends 2 elements (16), receives 1 (8), and in the allgather sends its
 * 8 and receives 16; rank 1 the other way round. */
Test(coll_ompi, rabenseifner_allreduce_odd_count)
{
    run(PZ_COLL_ALLREDUCE, "ompi_rabenseifner", 2, 0, 24, NULL);
    cr_assert_eq(NR[0], 2);
    expect_sendrecv(0, 0, 1, 16, 1, 8);
    expect_sendrecv(0, 1, 1, 8, 1, 16);
    expect_sendrecv(1, 0, 0, 8, 0, 16);
    expect_sendrecv(1, 1, 0, 16, 0, 8);
}

/* count < pof2 (P = 4, n = 16: 2 elements): basic_linear.  Linear Reduce to 0: ranks
 * 1, 2, 3 send 16; rank 0 receives from 3 (into its result), 2 and 1 (combining each,
 * and its own vector): 3 rounds, 48 B combined; then one round of sends to 1, 2, 3. */
Test(coll_ompi, rabenseifner_short_vector_is_basic_linear)
{
    run(PZ_COLL_ALLREDUCE, "ompi_rabenseifner", 4, 0, 16, NULL);
    cr_assert_eq(messages(4), 6);
    cr_assert_eq(NR[0], 4);
    expect_msg(0, 0, 0, 0, 3, 16);
    expect_msg(0, 1, 0, 0, 2, 16);
    expect_msg(0, 2, 0, 0, 1, 16);
    cr_expect_eq(R[0][3].n, 3);
    expect_msg(0, 3, 0, 1, 1, 16);
    expect_msg(0, 3, 2, 1, 3, 16);
    cr_expect_eq(reduced_by(0), 48);
    cr_assert_eq(NR[2], 2);
    expect_msg(2, 0, 0, 1, 0, 16);
    expect_msg(2, 1, 0, 0, 0, 16);
}

/* Tree barrier, P = 5 (depth 8).  Up: at distance 1, 1 -> 0 and 3 -> 2; at 2, 2 -> 0
 * (3's partner 1 has bit 0 set); at 4, 4 -> 0.  Down the same pairs the other way,
 * distances 4, 2, 1.  Rank 0: receives from 1, 2, 4, sends to 4, 2, 1: 6 rounds; 8
 * messages in all. */
Test(coll_ompi, tree_barrier)
{
    run(PZ_COLL_BARRIER, "tree", 5, 0, 0, NULL);
    cr_assert_eq(messages(5), 8);
    cr_assert_eq(NR[0], 6);
    expect_msg(0, 0, 0, 0, 1, 0);
    expect_msg(0, 1, 0, 0, 2, 0);
    expect_msg(0, 2, 0, 0, 4, 0);
    expect_msg(0, 3, 0, 1, 4, 0);
    expect_msg(0, 4, 0, 1, 2, 0);
    expect_msg(0, 5, 0, 1, 1, 0);
    cr_assert_eq(NR[2], 4);   /* from 3, to 0, from 0, to 3 */
    expect_msg(2, 0, 0, 0, 3, 0);
    expect_msg(2, 1, 0, 1, 0, 0);
    cr_assert_eq(NR[3], 2);
}

/* Linear barrier, P = 5: ranks 1 .. 4 send to 0 and wait; 0 receives all in one round,
 * then answers 1, 2, 3, 4 in four rounds.  Double ring, P = 4: two laps of 4. */
Test(coll_ompi, linear_and_double_ring_barriers)
{
    run(PZ_COLL_BARRIER, "linear", 5, 0, 0, NULL);
    cr_assert_eq(messages(5), 8);
    cr_assert_eq(NR[0], 5);
    cr_assert_eq(R[0][0].n, 4);
    expect_msg(0, 4, 0, 1, 4, 0);
    cr_assert_eq(NR[3], 2);
    run(PZ_COLL_BARRIER, "double_ring", 4, 0, 0, NULL);
    cr_assert_eq(messages(4), 8);
    expect_msg(0, 0, 0, 1, 1, 0);
    expect_msg(0, 1, 0, 0, 3, 0);
    expect_msg(2, 0, 0, 0, 1, 0);
    expect_msg(2, 1, 0, 1, 3, 0);
}

/* Linear Alltoall, P = 4, n = 10, member 1: its own block copied, then one round:
 * receives from 2, 3, 0, sends to 0, 3, 2 (reverse order, as Open MPI posts them). */
Test(coll_ompi, linear_alltoall_order)
{
    run(PZ_COLL_ALLTOALL, "ompi_linear", 4, 0, 10, NULL);
    cr_assert_eq(NR[1], 1);
    cr_assert(R[1][0].copied);
    cr_expect_eq(R[1][0].copy, 10);
    expect_msg(1, 0, 0, 0, 2, 10);
    expect_msg(1, 0, 1, 0, 3, 10);
    expect_msg(1, 0, 2, 0, 0, 10);
    expect_msg(1, 0, 3, 1, 0, 10);
    expect_msg(1, 0, 4, 1, 3, 10);
    expect_msg(1, 0, 5, 1, 2, 10);
}

/* Pairwise Alltoall, P = 3, member 0: step 1 to 1 from 2, step 2 to 2 from 1, then
 * step 3 is itself: a round with only the copy of its block. */
Test(coll_ompi, pairwise_alltoall_copies_last)
{
    run(PZ_COLL_ALLTOALL, "ompi_pairwise", 3, 0, 10, NULL);
    cr_assert_eq(NR[0], 3);
    expect_sendrecv(0, 0, 1, 10, 2, 10);
    expect_sendrecv(0, 1, 2, 10, 1, 10);
    cr_assert(!R[0][0].copied && !R[0][1].copied && R[0][2].copied);
    cr_expect_eq(R[0][2].n, 0);
}

/* Neighbour exchange, P = 6 (Open MPI's example): rank 0 swaps its block with 1,
 * then sends 0, 1 to 5 and gets 4, 5, then sends 4, 5 to 1 and gets 2, 3.  Rank 1:
 * with 0, then 2 (gets 2, 3, sends 0, 1), then 0 (gets 4, 5).  With blocks 0, 200,
 * 400, 100, 300, 0: rank 0 gets 200, 300 (4 + 5), 500 (2 + 3). */
Test(coll_ompi, neighbor_exchange_allgather)
{
    static const double blocks[MAXP] = { 0, 200, 400, 100, 300, 0 };

    run(PZ_COLL_ALLGATHER, "neighbor_exchange", 6, 0, 10, NULL);
    cr_assert_eq(NR[0], 3);
    expect_sendrecv(0, 0, 1, 10, 1, 10);
    expect_sendrecv(0, 1, 5, 20, 5, 20);
    expect_sendrecv(0, 2, 1, 20, 1, 20);
    expect_sendrecv(1, 1, 2, 20, 2, 20);
    run(PZ_COLL_ALLGATHERV, "neighbor_exchange", 6, 0, 0, blocks);
    expect_sendrecv(0, 0, 1, 0, 1, 200);
    expect_sendrecv(0, 1, 5, 200, 5, 300);
    expect_sendrecv(0, 2, 1, 300, 1, 500);
    expect_sendrecv(1, 1, 2, 200, 2, 500);
    expect_sendrecv(1, 2, 0, 500, 0, 300);
}

/* Ring Reduce_scatter, P = 4, blocks 100, 200, 300, 400: block b starts at b + 1, so
 * member 0 sends block 3 (400), 2 (300), 1 (200) to 1 and receives and combines block
 * 2 (300), 1 (200), 0 (100) from 3. */
Test(coll_ompi, ring_reduce_scatter)
{
    static const double blocks[MAXP] = { 100, 200, 300, 400 };

    run(PZ_COLL_REDUCE_SCATTER, "ring", 4, 0, 0, blocks);
    cr_assert_eq(NR[0], 3);
    expect_sendrecv(0, 0, 1, 400, 3, 300);
    expect_sendrecv(0, 1, 1, 300, 3, 200);
    expect_sendrecv(0, 2, 1, 200, 3, 100);
    cr_expect_eq(reduced_by(0), 600);
}

/* Pipelines from root 2 of 4: the chain 2 -> 3 -> 0 -> 1 (Bcast), the reverse for
 * Reduce; linear Reduce to root 2: receives from 3 (into the result), 1 and 0
 * (combined, and its own): 3 n combined. */
Test(coll_ompi, pipelines_and_linear_reduce)
{
    run(PZ_COLL_BCAST, "pipeline", 4, 2, 8, NULL);
    cr_assert_eq(NR[2], 1);
    expect_msg(2, 0, 0, 1, 3, 8);
    expect_msg(0, 0, 0, 0, 3, 8);
    expect_msg(0, 1, 0, 1, 1, 8);
    cr_assert_eq(NR[1], 1);
    run(PZ_COLL_REDUCE, "pipeline", 4, 2, 8, NULL);
    expect_msg(1, 0, 0, 1, 0, 8);
    expect_msg(0, 0, 0, 0, 1, 8);
    expect_msg(0, 1, 0, 1, 3, 8);
    expect_msg(2, 0, 0, 0, 3, 8);
    cr_expect_eq(reduced_by(2), 8);
    run(PZ_COLL_REDUCE, "linear", 4, 2, 8, NULL);
    cr_assert_eq(NR[2], 3);
    expect_msg(2, 0, 0, 0, 3, 8);
    expect_msg(2, 1, 0, 0, 1, 8);
    expect_msg(2, 2, 0, 0, 0, 8);
    cr_expect_eq(reduced_by(2), 24);
}

/* ---- the choice, at the switch points of coll_tuned_decision_fixed.c ---- */

static const char *chosen(enum pz_coll_op op, int p, double n)
{
    struct pz_coll c = { op, p, 0, 0, n, NULL, NULL, 0, 0 };
    const struct pz_coll_algo *a = pz_coll_choose("openmpi4", &c);

    cr_assert(a, "openmpi4 chooses nothing for op %d, P = %d", op, p);
    cr_assert_eq(a->op, op);
    return a->name;
}

#define CHOICE(op, p, n, want) \
    cr_expect_str_eq(chosen(op, p, n), want, "op %d P = %d n = %g", op, p, (double)(n))

Test(coll_ompi, chooses_for_every_op)
{
    for (int op = 0; op < PZ_COLL_NOPS; op++)
        for (int p = 1; p <= 5000; p = p < 20 ? p + 1 : p * 3)
            for (double n = 1; n <= 1 << 23; n *= 4)
                chosen(op, p, n);
}

/* P < 4: ring below 8 B, recursive doubling below 4096, ring below 8192, recursive
 * doubling below 16384, ring below 65536, segmented ring below 262144, then
 * Rabenseifner.  P 4..7: ring below 16, recursive doubling below 8192.  P >= 4096:
 * ring from 32768. */
Test(coll_ompi, allreduce_switch_points)
{
    CHOICE(PZ_COLL_ALLREDUCE, 2, 7, "ring");
    CHOICE(PZ_COLL_ALLREDUCE, 2, 8, "recursive_doubling");
    CHOICE(PZ_COLL_ALLREDUCE, 2, 1024, "recursive_doubling");
    CHOICE(PZ_COLL_ALLREDUCE, 2, 4095, "recursive_doubling");
    CHOICE(PZ_COLL_ALLREDUCE, 2, 4096, "ring");
    CHOICE(PZ_COLL_ALLREDUCE, 3, 8192, "recursive_doubling");
    CHOICE(PZ_COLL_ALLREDUCE, 3, 16384, "ring");
    CHOICE(PZ_COLL_ALLREDUCE, 3, 65536, "segmented_ring");
    CHOICE(PZ_COLL_ALLREDUCE, 3, 262144, "ompi_rabenseifner");
    CHOICE(PZ_COLL_ALLREDUCE, 4, 15, "ring");
    CHOICE(PZ_COLL_ALLREDUCE, 4, 16, "recursive_doubling");
    CHOICE(PZ_COLL_ALLREDUCE, 7, 8192, "ompi_rabenseifner");
    CHOICE(PZ_COLL_ALLREDUCE, 200, 1000, "nonoverlapping");
    CHOICE(PZ_COLL_ALLREDUCE, 5000, 32768, "ring");
}

/* Barrier by P only: recursive doubling (= hypercube) below 4, linear below 8,
 * recursive doubling below 64, Bruck (= dissemination) below 256, tree below 512, Bruck
 * below 1024, tree below 4096, Bruck. */
Test(coll_ompi, barrier_switch_points)
{
    CHOICE(PZ_COLL_BARRIER, 2, 0, "hypercube");
    CHOICE(PZ_COLL_BARRIER, 3, 0, "hypercube");
    CHOICE(PZ_COLL_BARRIER, 4, 0, "linear");
    CHOICE(PZ_COLL_BARRIER, 7, 0, "linear");
    CHOICE(PZ_COLL_BARRIER, 8, 0, "hypercube");
    CHOICE(PZ_COLL_BARRIER, 64, 0, "dissemination");
    CHOICE(PZ_COLL_BARRIER, 256, 0, "tree");
    CHOICE(PZ_COLL_BARRIER, 512, 0, "dissemination");
    CHOICE(PZ_COLL_BARRIER, 1024, 0, "tree");
    CHOICE(PZ_COLL_BARRIER, 4096, 0, "dissemination");
}

/* Alltoall, P = 2: pairwise below 2, two_proc below 4 (both ompi_pairwise), linear_sync
 * from 32768 below 262144; P 20: linear_sync below 4, modified Bruck below 512. */
Test(coll_ompi, alltoall_and_allgather_switch_points)
{
    CHOICE(PZ_COLL_ALLTOALL, 2, 1, "ompi_pairwise");
    CHOICE(PZ_COLL_ALLTOALL, 2, 2, "ompi_pairwise");
    CHOICE(PZ_COLL_ALLTOALL, 2, 32767, "ompi_pairwise");
    CHOICE(PZ_COLL_ALLTOALL, 2, 32768, "ompi_linear");
    CHOICE(PZ_COLL_ALLTOALL, 20, 3, "ompi_linear");
    CHOICE(PZ_COLL_ALLTOALL, 20, 4, "bruck");
    CHOICE(PZ_COLL_ALLTOALL, 20, 512, "ompi_linear");
    CHOICE(PZ_COLL_ALLTOALLV, 3, 8, "ompi_pairwise");
    CHOICE(PZ_COLL_ALLTOALLV, 4, 8, "ompi_linear");
    CHOICE(PZ_COLL_ALLGATHER, 2, 8, "recursive_doubling");
    CHOICE(PZ_COLL_ALLGATHER, 6, 8, "bruck");        /* recursive doubling, not pof2 */
    CHOICE(PZ_COLL_ALLGATHER, 8, 8, "recursive_doubling");
    CHOICE(PZ_COLL_ALLGATHER, 40, 1023, "bruck");
    CHOICE(PZ_COLL_ALLGATHER, 40, 1024, "neighbor_exchange");
    CHOICE(PZ_COLL_ALLGATHER, 40, 65536, "ring");
    CHOICE(PZ_COLL_ALLGATHERV, 2, 2047, "ring");
    CHOICE(PZ_COLL_ALLGATHERV, 2, 2048, "recursive_doubling");   /* two_proc */
    CHOICE(PZ_COLL_ALLGATHERV, 4, 255, "gather_bcast");
    CHOICE(PZ_COLL_ALLGATHERV, 4, 256, "neighbor_exchange");
    CHOICE(PZ_COLL_REDUCE_SCATTER, 2, 32767, "ring");          /* total 65534 */
    CHOICE(PZ_COLL_REDUCE_SCATTER, 2, 32768, "butterfly");           /* total 65536 */
    CHOICE(PZ_COLL_REDUCE_SCATTER, 2, 65536, "ring");                /* total 131072 */
    CHOICE(PZ_COLL_REDUCE_SCATTER, 5, 100, "recursive_halving");
    CHOICE(PZ_COLL_REDUCE_SCATTER_BLOCK, 2, 4, "butterfly");
    CHOICE(PZ_COLL_REDUCE_SCATTER_BLOCK, 2, 3, "recursive_doubling");
    CHOICE(PZ_COLL_REDUCE_SCATTER_BLOCK, 2, 131072, "basic_linear");
}

/* Rooted ones, P = 2: Bcast pipeline below 32, binary tree below 256, knomial below
 * 1024, linear below 32768; Reduce Rabenseifner below 8 (fewer elements than pof2:
 * linear), binary below 16, pipeline below 32, linear below 262144; Gather linear_sync
 * below 2, basic_linear below 4, binomial from 4; P = 6: Scatter binomial below 2048,
 * then basic_linear; Gatherv, Scan: coll/basic's linear.  P 4..7: Bcast binomial from
 * 64 B below 128, P 8..15: knomial at 100 B; Reduce in-order binary at P 300, 10000 B,
 * binomial at P 100; Scatter linear_nb at P 2 from 131072 B. */
Test(coll_ompi, rooted_switch_points)
{
    CHOICE(PZ_COLL_BCAST, 2, 31, "pipeline");
    CHOICE(PZ_COLL_BCAST, 2, 32, "binary_tree");
    CHOICE(PZ_COLL_BCAST, 2, 1023, "knomial");
    CHOICE(PZ_COLL_BCAST, 2, 1024, "linear");
    CHOICE(PZ_COLL_BCAST, 20, 1 << 20, "scatter_allgather");
    CHOICE(PZ_COLL_REDUCE, 2, 4, "ompi_rabenseifner");   /* whose walk is linear here */
    CHOICE(PZ_COLL_REDUCE, 2, 8, "binary");
    CHOICE(PZ_COLL_REDUCE, 2, 16, "pipeline");
    CHOICE(PZ_COLL_REDUCE, 2, 32, "linear");
    CHOICE(PZ_COLL_GATHER, 2, 1, "linear_sync");
    CHOICE(PZ_COLL_GATHER, 2, 2, "ompi_linear");
    CHOICE(PZ_COLL_GATHER, 2, 4, "binomial");
    CHOICE(PZ_COLL_SCATTER, 6, 2048, "ompi_linear");
    CHOICE(PZ_COLL_SCATTER, 6, 2047, "binomial");
    CHOICE(PZ_COLL_GATHERV, 6, 8, "ompi_linear");
    CHOICE(PZ_COLL_SCAN, 6, 8, "linear");
    CHOICE(PZ_COLL_BCAST, 5, 100, "ompi_binomial");
    CHOICE(PZ_COLL_BCAST, 8, 100, "knomial");
    CHOICE(PZ_COLL_REDUCE, 300, 10000, "in_order_binary");
    CHOICE(PZ_COLL_REDUCE, 100, 10000, "binomial");
    CHOICE(PZ_COLL_SCATTER, 2, 131072, "linear");   /* linear_nb */
}

/* Open MPI's binomial tree (bmtree), P = 8: 0 sends to 1, 2, 4 in one round (nearest
 * first), 1 to 3 and 5, 2 to 6, 3 to 7.  From root 2, relative ranks: rank 3 (1)
 * receives from 2 and sends to 5 (3) and 7 (5). */
Test(coll_ompi, binomial_bcast_tree)
{
    run(PZ_COLL_BCAST, "ompi_binomial", 8, 0, 8, NULL);
    cr_assert_eq(NR[0], 1);
    cr_assert_eq(R[0][0].n, 3);
    expect_msg(0, 0, 0, 1, 1, 8);
    expect_msg(0, 0, 1, 1, 2, 8);
    expect_msg(0, 0, 2, 1, 4, 8);
    expect_msg(1, 1, 0, 1, 3, 8);
    expect_msg(1, 1, 1, 1, 5, 8);
    expect_msg(2, 1, 0, 1, 6, 8);
    expect_msg(7, 0, 0, 0, 3, 8);
    run(PZ_COLL_BCAST, "ompi_binomial", 8, 2, 8, NULL);
    expect_msg(3, 0, 0, 0, 2, 8);
    expect_msg(3, 1, 0, 1, 5, 8);
    expect_msg(3, 1, 1, 1, 7, 8);
}

/* Binary tree (fan-out 2, level by level), P = 6: 0 -> 1, 2; 1 -> 3, 5; 2 -> 4.
 * Radix-4 tree, P = 10 (coll_base_topo.c's example): 0 -> 4, 8, 1, 2, 3; 4 -> 5, 6, 7;
 * 8 -> 9. */
Test(coll_ompi, binary_and_knomial_bcast_trees)
{
    run(PZ_COLL_BCAST, "binary_tree", 6, 0, 8, NULL);
    cr_assert_eq(messages(6), 5);
    expect_msg(1, 1, 0, 1, 3, 8);
    expect_msg(1, 1, 1, 1, 5, 8);
    cr_assert_eq(R[2][1].n, 1);
    expect_msg(2, 1, 0, 1, 4, 8);
    expect_msg(5, 0, 0, 0, 1, 8);
    run(PZ_COLL_BCAST, "knomial", 10, 0, 8, NULL);
    cr_assert_eq(R[0][0].n, 5);
    expect_msg(0, 0, 0, 1, 4, 8);
    expect_msg(0, 0, 1, 1, 8, 8);
    expect_msg(0, 0, 2, 1, 1, 8);
    expect_msg(0, 0, 4, 1, 3, 8);
    expect_msg(4, 1, 2, 1, 7, 8);
    expect_msg(9, 0, 0, 0, 8, 8);
    cr_assert_eq(NR[3], 1);
    expect_msg(3, 0, 0, 0, 0, 8);
}

/* Binary Reduce, P = 7 to 0: 1 receives and combines 3's then 5's vector, sends to 0.
 * In-order binary tree, P = 4 (rooted at 3: 3 -> 2, 1; 1 -> 0), to root 0: 0 sends to
 * 1, 1 receives it and sends to 3, 2 sends to 3, 3 receives from 2 then 1 and sends the
 * result to the root 0, which receives it last. */
Test(coll_ompi, binary_and_in_order_reduce_trees)
{
    run(PZ_COLL_REDUCE, "binary", 7, 0, 8, NULL);
    cr_assert_eq(NR[1], 3);
    expect_msg(1, 0, 0, 0, 3, 8);
    expect_msg(1, 1, 0, 0, 5, 8);
    expect_msg(1, 2, 0, 1, 0, 8);
    cr_expect_eq(reduced_by(1), 16);
    run(PZ_COLL_REDUCE, "in_order_binary", 4, 0, 8, NULL);
    cr_assert_eq(messages(4), 4);
    cr_assert_eq(NR[0], 2);
    expect_msg(0, 0, 0, 1, 1, 8);
    expect_msg(0, 1, 0, 0, 3, 8);
    cr_assert_eq(NR[3], 3);
    expect_msg(3, 0, 0, 0, 2, 8);
    expect_msg(3, 1, 0, 0, 1, 8);
    expect_msg(3, 2, 0, 1, 0, 8);
    expect_msg(1, 1, 0, 1, 3, 8);
}

/* Compositions, P = 5, n = 8.  nonoverlapping Allreduce: Reduce to 0 as the rules
 * choose for P 4..7, 8 B (binary; tree 0 -> 1, 2; 1 -> 3; 2 -> 4), then Bcast likewise
 * (binary tree): 8 messages; rank 1 receives from 3, sends to 0, receives from 0, sends
 * to 3.  Reduce_scatter_block basic_linear, P = 4, n = 10: Reduce of the 40-byte vector
 * (binary: 1 -> 0, 2 -> 0, 3 -> 1), then Scatter of 10 B (binomial, MPICH's: 0 -> 2
 * blocks 2 and 3, 0 -> 1, 2 -> 3): 6 messages, 3 x 40 + 20 + 10 + 10 bytes. */
Test(coll_ompi, compositions)
{
    run(PZ_COLL_ALLREDUCE, "nonoverlapping", 5, 0, 8, NULL);
    cr_assert_eq(messages(5), 8);
    cr_assert_eq(NR[1], 4);
    expect_msg(1, 0, 0, 0, 3, 8);
    expect_msg(1, 1, 0, 1, 0, 8);
    expect_msg(1, 2, 0, 0, 0, 8);
    expect_msg(1, 3, 0, 1, 3, 8);
    run(PZ_COLL_REDUCE_SCATTER_BLOCK, "basic_linear", 4, 0, 10, NULL);
    cr_assert_eq(messages(4), 6);
    cr_expect_eq(sent_by(0) + sent_by(1) + sent_by(2) + sent_by(3), 160);
}

/* Linear Gather to root 1 of 4: the root receives from 0, 2, 3, a round each.
 * Allgatherv by Gatherv + Bcast, P = 4, blocks 100, 0, 300, 200: rank 0 receives 300
 * from 2 and 200 from 3 (1 has nothing), then Bcasts the 600 bytes as the rules choose
 * for P 4..7, 600 B (binary tree: 0 -> 1, 2; 1 -> 3).  Allgather, P = 4, n = 10: the
 * rules' Gather for 10 B on 4 (binomial: 0 receives 10 from its nearest child 1, then
 * 20 from 2, which holds 3's block too), then the Bcast of 40 B (binary tree). */
Test(coll_ompi, linear_gather_and_gather_bcast)
{
    static const double blocks[MAXP] = { 100, 0, 300, 200 };

    run(PZ_COLL_GATHER, "ompi_linear", 4, 1, 10, NULL);
    cr_assert_eq(NR[1], 3);
    expect_msg(1, 0, 0, 0, 0, 10);
    expect_msg(1, 1, 0, 0, 2, 10);
    expect_msg(1, 2, 0, 0, 3, 10);
    run(PZ_COLL_ALLGATHERV, "gather_bcast", 4, 0, 0, blocks);
    cr_assert_eq(NR[0], 3);
    expect_msg(0, 0, 0, 0, 2, 300);
    expect_msg(0, 1, 0, 0, 3, 200);
    expect_msg(0, 2, 0, 1, 1, 600);
    expect_msg(0, 2, 1, 1, 2, 600);
    cr_assert_eq(NR[1], 2);      /* nothing to send, then the Bcast */
    expect_msg(1, 0, 0, 0, 0, 600);
    expect_msg(3, 1, 0, 0, 1, 600);
    run(PZ_COLL_ALLGATHER, "gather_bcast", 4, 0, 10, NULL);
    cr_assert_eq(NR[0], 3);
    expect_msg(0, 0, 0, 0, 1, 10);
    expect_msg(0, 1, 0, 0, 2, 20);
    expect_msg(0, 2, 1, 1, 2, 40);
}

/* Gather linear_sync, P = 3, root 0, n = 10: the root sends 1 an empty message and
 * receives its 10 bytes, the same with 2, then receives the empty second parts of 1
 * and 2; rank 2 receives the go-ahead, sends 10, sends the empty part. */
Test(coll_ompi, linear_sync_gather)
{
    run(PZ_COLL_GATHER, "linear_sync", 3, 0, 10, NULL);
    cr_assert_eq(NR[0], 3);
    expect_sendrecv(0, 0, 1, 0, 1, 10);
    expect_sendrecv(0, 1, 2, 0, 2, 10);
    cr_assert_eq(R[0][2].n, 2);
    expect_msg(0, 2, 1, 0, 2, 0);
    cr_assert_eq(NR[2], 3);
    expect_msg(2, 0, 0, 0, 0, 0);
    expect_msg(2, 1, 0, 1, 0, 10);
    expect_msg(2, 2, 0, 1, 0, 0);
}

/* Butterfly Reduce_scatter, P = 4, blocks 100, 200, 300, 400 (no fold).  Rank 1 (bit 0
 * set) sends blocks 0, 1 (300) to 0 and gets 2, 3 (700); at distance 2 (bit clear) it
 * sends block 3 (400) to 3 and gets block 2 (300); it holds block 2, whose owner is its
 * mirror 2 (01 reversed is 10): it sends it 300 and gets its own 200.  Reduce_scatter
 * _block on 4 (n = 10) has no last swap: 20/20, then 10/10. */
Test(coll_ompi, butterfly_power_of_two)
{
    static const double blocks[MAXP] = { 100, 200, 300, 400 };

    run(PZ_COLL_REDUCE_SCATTER, "butterfly", 4, 0, 0, blocks);
    cr_assert_eq(NR[1], 3);
    expect_sendrecv(1, 0, 0, 300, 0, 700);
    expect_sendrecv(1, 1, 3, 400, 3, 300);
    expect_sendrecv(1, 2, 2, 300, 2, 200);
    cr_expect_eq(reduced_by(1), 1000);
    cr_assert_eq(NR[0], 2);      /* its mirror is itself */
    run(PZ_COLL_REDUCE_SCATTER_BLOCK, "butterfly", 4, 0, 10, NULL);
    cr_assert_eq(NR[1], 2);
    expect_sendrecv(1, 0, 0, 20, 0, 20);
    expect_sendrecv(1, 1, 3, 10, 3, 10);
}

/* P = 6, n = 10 (Open MPI's example): rem 2.  Rank 0 sends its 60 bytes to 1 and gets
 * its block from 1; rank 2 likewise to 3, gets it from 4.  Rank 4 (new rank 2) sends
 * new blocks 2, 3 (ranks 4, 5: 20) to 5, gets 0, 1 (ranks 0-3: 40), then sends new block
 * 0 (20) to 1 and gets new block 1 (20); its mirror is new rank 1 (rank 3, folded with
 * 2): it sends rank 2's block to 2, then swaps rank 3's block for its own with 3. */
Test(coll_ompi, butterfly_with_fold)
{
    run(PZ_COLL_REDUCE_SCATTER_BLOCK, "butterfly", 6, 0, 10, NULL);
    cr_assert_eq(NR[0], 2);
    expect_msg(0, 0, 0, 1, 1, 60);
    expect_msg(0, 1, 0, 0, 1, 10);
    expect_msg(2, 1, 0, 0, 4, 10);
    cr_assert_eq(NR[4], 4);
    expect_sendrecv(4, 0, 5, 20, 5, 40);
    expect_sendrecv(4, 1, 1, 20, 1, 20);
    expect_msg(4, 2, 0, 1, 2, 10);
    expect_sendrecv(4, 3, 3, 10, 3, 10);
    cr_assert_eq(NR[1], 4);
    expect_msg(1, 3, 0, 1, 0, 10);
}

/* Alltoallv, member 1 of 3 sending 0, 10, 30 and receiving 5, 10, 0 (its own 10 it
 * copies).  basic_linear: the copy, then receives from 0 (2 sends it nothing) and
 * sends to 2 (0 gets nothing) in one round.  pairwise: the copy, then to 2 (30) from
 * 0 (5), then to 0 (0 bytes) from 2 (0 bytes): empty ones still sent. */
Test(coll_ompi, alltoallv_linear_and_pairwise)
{
    static const double send[3] = { 0, 10, 30 }, recv[3] = { 5, 10, 0 };
    struct pz_coll c = { PZ_COLL_ALLTOALLV, 3, 1, 0, 0, send, recv, 0, 0 };

    NR[1] = rounds(algo(PZ_COLL_ALLTOALLV, "ompi_linear"), &c, R[1]);
    cr_assert_eq(NR[1], 1);
    cr_assert(R[1][0].copied);
    cr_expect_eq(R[1][0].copy, 10);
    cr_assert_eq(R[1][0].n, 2);
    expect_msg(1, 0, 0, 0, 0, 5);
    expect_msg(1, 0, 1, 1, 2, 30);
    NR[1] = rounds(algo(PZ_COLL_ALLTOALLV, "ompi_pairwise"), &c, R[1]);
    cr_assert_eq(NR[1], 2);
    cr_assert(R[1][0].copied && !R[1][1].copied);
    expect_sendrecv(1, 0, 2, 30, 0, 5);
    expect_sendrecv(1, 1, 0, 0, 2, 0);
}

/* Bcast by scatter and allgather, P = 4, root 0, n = 32 (4 elements, one a piece of
 * 8 B): 0 sends pieces 2, 3 (16) to 2, piece 1 to 1; 2 sends piece 3 to 3; recursive
 * doubling: 0 and 1 swap 8, then 0 and 2 swap 16.  The ring instead: 0 sends its piece
 * to 1 and gets piece 3 from 3, then piece 3 on and piece 2 in, then 2 on and 1 in.
 * n = 16 on 3 (2 elements, fewer than P): the linear Bcast. */
Test(coll_ompi, scatter_allgather_bcasts)
{
    run(PZ_COLL_BCAST, "scatter_allgather", 4, 0, 32, NULL);
    cr_assert_eq(NR[0], 4);
    expect_msg(0, 0, 0, 1, 2, 16);
    expect_msg(0, 1, 0, 1, 1, 8);
    expect_sendrecv(0, 2, 1, 8, 1, 8);
    expect_sendrecv(0, 3, 2, 16, 2, 16);
    expect_msg(2, 1, 0, 1, 3, 8);
    run(PZ_COLL_BCAST, "scatter_allgather_ring", 4, 0, 32, NULL);
    cr_assert_eq(NR[0], 5);
    expect_sendrecv(0, 2, 1, 8, 3, 8);
    expect_sendrecv(0, 4, 1, 8, 3, 8);
    run(PZ_COLL_BCAST, "scatter_allgather", 3, 0, 16, NULL);
    cr_assert_eq(NR[0], 1);
    cr_assert_eq(R[0][0].n, 2);
    cr_assert_eq(messages(3), 2);
}

/* Rabenseifner Reduce, P = 4, root 0, n = 64 (8 elements): halving as the Allreduce's
 * (rank 0 keeps 4 then 2 elements); the gather to new rank 0: at distance 2, 2 sends
 * its 16 bytes to 0 and 3 its 16 to 1; at distance 1, 1 sends its 32 to 0.  Rank 0:
 * two Sendrecv of 32 and 16, then receives 16 from 2 and 32 from 1.  P = 4 with 4 bytes
 * (one element, fewer than pof2): the linear Reduce. */
Test(coll_ompi, rabenseifner_reduce)
{
    run(PZ_COLL_REDUCE, "ompi_rabenseifner", 4, 0, 64, NULL);
    cr_assert_eq(NR[0], 4);
    expect_sendrecv(0, 0, 1, 32, 1, 32);
    expect_sendrecv(0, 1, 2, 16, 2, 16);
    expect_msg(0, 2, 0, 0, 2, 16);
    expect_msg(0, 3, 0, 0, 1, 32);
    cr_assert_eq(NR[3], 3);
    expect_msg(3, 2, 0, 1, 1, 16);
    cr_assert_eq(NR[1], 4);
    expect_msg(1, 3, 0, 1, 0, 32);
    run(PZ_COLL_REDUCE, "ompi_rabenseifner", 4, 0, 4, NULL);
    cr_assert_eq(messages(4), 3);
    cr_assert_eq(NR[0], 3);
}

/* P = 3, root 1, n = 64: rank 1 (odd, below 2 rem = 2) is folded away: it swaps halves
 * with 0 (sends the low 32, gets the high 32) and sends 0 its combined high half.  Rank
 * 0 (new rank 0) halves with rank 2 (new rank 1): each sends 32 and keeps 32; then 0
 * sends its 32 to the root and leaves, and 2, whose partner is new rank 0 now played by
 * the root, sends its 32 to 1.  The root: two fold rounds, then receives from 0 and
 * from 2. */
Test(coll_ompi, rabenseifner_reduce_odd_root)
{
    run(PZ_COLL_REDUCE, "ompi_rabenseifner", 3, 1, 64, NULL);
    cr_assert_eq(NR[1], 4);
    expect_sendrecv(1, 0, 0, 32, 0, 32);
    expect_msg(1, 1, 0, 1, 0, 32);
    expect_msg(1, 2, 0, 0, 0, 32);
    expect_msg(1, 3, 0, 0, 2, 32);
    cr_assert_eq(NR[0], 4);
    expect_sendrecv(0, 2, 2, 32, 2, 32);
    expect_msg(0, 3, 0, 1, 1, 32);
    cr_assert_eq(NR[2], 2);
    expect_msg(2, 1, 0, 1, 1, 32);
}

/* Split binary tree, P = 5, root 0, n = 80 (10 elements, halves of 40 B): 0 sends the
 * first half to 1 and the second to 2 (a round each), 1 passes the first on to 3, 2 the
 * second to 4; then 1 swaps with 2 and 3 with 4: 8 messages.  P = 4, n = 24 (3
 * elements: halves 16 and 8): 0 sends 16 to 1, 8 to 2, 1 passes 16 to 3, 1 and 2 swap
 * 16 for 8, and 3, whose pair would be the root, gets the second half (8) from 0. */
Test(coll_ompi, split_binary_tree_bcast)
{
    run(PZ_COLL_BCAST, "split_binary_tree", 5, 0, 80, NULL);
    cr_assert_eq(messages(5), 8);
    cr_assert_eq(NR[0], 2);
    expect_msg(0, 0, 0, 1, 1, 40);
    expect_msg(0, 1, 0, 1, 2, 40);
    expect_sendrecv(1, 2, 2, 40, 2, 40);
    expect_sendrecv(4, 1, 3, 40, 3, 40);
    run(PZ_COLL_BCAST, "split_binary_tree", 4, 0, 24, NULL);
    cr_assert_eq(NR[0], 3);
    expect_msg(0, 0, 0, 1, 1, 16);
    expect_msg(0, 1, 0, 1, 2, 8);
    expect_msg(0, 2, 0, 1, 3, 8);
    expect_sendrecv(1, 2, 2, 16, 2, 8);
    cr_assert_eq(NR[3], 2);
    expect_msg(3, 1, 0, 0, 0, 8);
}

/* The machine key mpi takes openmpi4 (what calibrate under Open MPI writes), from a
 * file and from --mpi; a word that names no set is refused, m unchanged. */
Test(coll_ompi, machine_key_takes_openmpi4)
{
    char path[] = "/tmp/pz_coll_ompi_XXXXXX", err[256];
    struct pz_machine m;
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");

    cr_assert(f);
    fputs("mpi = openmpi4\n", f);
    fclose(f);
    pz_machine_defaults(&m);
    cr_assert_str_eq(m.mpi, "mpich4");
    cr_assert_eq(pz_machine_load(path, &m, err, sizeof(err)), 0, "%s", err);
    unlink(path);
    cr_assert_str_eq(m.mpi, "openmpi4");
    pz_machine_release(&m);
    pz_machine_defaults(&m);
    cr_assert_eq(pz_machine_set_mpi(&m, "openmpi4"), 0);
    cr_assert_str_eq(m.mpi, "openmpi4");
    cr_assert_eq(pz_machine_set_mpi(&m, "openmpi5"), -1);
    cr_assert_str_eq(m.mpi, "openmpi4");
}
