/* Collective algorithms: all members' rounds replayed against each other by a tiny
 * matcher (FIFO per ordered pair, a send matched only by a posted receive, a member's
 * next round only once every message of its round is matched), then the messages
 * compared with what the algorithms' definitions give, worked out by hand in the
 * comments.  Also the choice of each set at its cut-offs, names and pz_coll_block. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "coll.h"

#define MAXP 48
#define MAXMSG (2 * MAXP)
#define MAXT 4000
#define QCAP 8

struct xfer {
    int from, to, send_round, recv_round;
    double bytes;
};

struct member {
    struct pz_coll c;
    int round, done, pending, nmsg;
    int peer[MAXMSG], is_send[MAXMSG];
    double bytes[MAXMSG];
    double sent, received, reduced;
};

struct queue {
    int head, tail, who[QCAP], idx[QCAP];
};

/* One simulated instance: filled by run(), read by the tests. */
struct sim {
    int p;
    struct member m[MAXP];
    struct queue sends[MAXP][MAXP], recvs[MAXP][MAXP];  /* [from][to] */
    struct xfer t[MAXT];
    int nt;
    int count[MAXP][MAXP];
    double total;
};

static struct sim S;

static void collect(void *ud, int peer, int is_send, double bytes)
{
    struct member *m = ud;

    cr_assert_lt(m->nmsg, MAXMSG, "too many messages in one round");
    /* only the scattered Alltoall(v) sends a member its own block, as MPICH's does */
    cr_assert(peer >= 0 && peer < m->c.size &&
                  (peer != m->c.me || m->c.op == PZ_COLL_ALLTOALL ||
                   m->c.op == PZ_COLL_ALLTOALLV),
              "member %d: bad peer %d", m->c.me, peer);
    m->peer[m->nmsg] = peer, m->is_send[m->nmsg] = is_send, m->bytes[m->nmsg] = bytes;
    m->nmsg++;
}

static void push(struct queue *q, int who, int idx)
{
    cr_assert_lt(q->tail - q->head, QCAP, "queue overflow");
    q->who[q->tail % QCAP] = who, q->idx[q->tail % QCAP] = idx;
    q->tail++;
}

/* Posts round m->round of member me, or marks it done. */
static void post(const struct pz_coll_algo *a, int me)
{
    struct member *m = &S.m[me];
    struct pz_coll_round out = { collect, m, -1, NULL };

    m->nmsg = 0;
    if (!a->round(&m->c, m->round, &out)) {
        m->done = 1;
        return;
    }
    cr_assert_geq(out.reduce_bytes, 0, "reduce_bytes not set");
    m->reduced += out.reduce_bytes;
    m->pending = m->nmsg;
    for (int i = 0; i < m->nmsg; i++) {
        if (m->is_send[i])
            push(&S.sends[me][m->peer[i]], me, i);
        else
            push(&S.recvs[m->peer[i]][me], me, i);
    }
}

static void match_pair(int from, int to)
{
    struct queue *s = &S.sends[from][to], *r = &S.recvs[from][to];

    while (s->head < s->tail && r->head < r->tail) {
        struct member *ms = &S.m[from], *mr = &S.m[to];
        double bs = ms->bytes[s->idx[s->head % QCAP]], br = mr->bytes[r->idx[r->head % QCAP]];

        cr_assert_eq(bs, br, "%d -> %d: sends %g bytes, receive posted for %g", from, to, bs, br);
        cr_assert_lt(S.nt, MAXT);
        S.t[S.nt++] = (struct xfer){ from, to, ms->round, mr->round, bs };
        S.count[from][to]++;
        ms->sent += bs, mr->received += bs, S.total += bs;
        ms->pending--, mr->pending--;
        s->head++, r->head++;
    }
}

/* Clears what a run of p members uses (all of S would cost more than the runs). */
static void reset(int p)
{
    S.p = p, S.nt = 0, S.total = 0;
    memset(S.m, 0, p * sizeof *S.m);
    for (int f = 0; f < p; f++) {
        memset(S.sends[f], 0, p * sizeof **S.sends);
        memset(S.recvs[f], 0, p * sizeof **S.recvs);
        memset(S.count[f], 0, p * sizeof **S.count);
    }
}

/* Replays every member of the instance *c (c->me ignored) to the end. */
static void run_members(const struct pz_coll_algo *a, const struct pz_coll *members)
{
    int progress = 1;

    reset(members[0].size);
    for (int me = 0; me < S.p; me++) {
        S.m[me].c = members[me];
        post(a, me);
    }
    while (progress) {
        progress = 0;
        for (int f = 0; f < S.p; f++)
            for (int t = 0; t < S.p; t++)
                match_pair(f, t);
        for (int me = 0; me < S.p; me++)
            if (!S.m[me].done && S.m[me].pending == 0) {
                S.m[me].round++;
                post(a, me);
                progress = 1;
            }
    }
    for (int me = 0; me < S.p; me++)
        cr_assert(S.m[me].done, "%s: deadlock, member %d of %d stuck in round %d", a->name, me,
                  S.p, S.m[me].round);
}

/* Per-member bytes of the v-variants (NULL: n everywhere): own[r] is rank r's block,
 * mat[i][j] what i sends j in Alltoallv. */
struct vdata {
    double own[MAXP];
    double mat[MAXP][MAXP];
    double col[MAXP][MAXP];
};

static struct vdata V;

static void describe(struct pz_coll *c, int me, const struct vdata *v)
{
    c->me = me;
    if (!v)
        return;
    switch (c->op) {
    case PZ_COLL_ALLTOALLV:
        c->send_counts = v->mat[me], c->recv_counts = v->col[me];
        break;
    case PZ_COLL_GATHERV:
        c->bytes = v->own[me];
        c->recv_counts = me == c->root ? v->own : NULL;
        break;
    case PZ_COLL_SCATTERV:
        c->bytes = v->own[me];
        c->send_counts = me == c->root ? v->own : NULL;
        break;
    default:                     /* Allgatherv, Reduce_scatter */
        c->bytes = v->own[me], c->recv_counts = v->own;
    }
}

static const struct pz_coll_algo *algo(enum pz_coll_op op, const char *name)
{
    const struct pz_coll_algo *a = pz_coll_named(op, name);

    cr_assert(a, "no algorithm '%s' for op %d", name, op);
    cr_assert_eq(a->op, op);
    return a;
}

static void run_v(enum pz_coll_op op, const char *name, int p, int root, double n,
                  const struct vdata *v)
{
    struct pz_coll members[MAXP];

    for (int me = 0; me < p; me++) {
        members[me] = (struct pz_coll){ op, p, 0, root, n, NULL, NULL, 0, 0 };
        describe(&members[me], me, v);
    }
    run_members(algo(op, name), members);
}

static void run(enum pz_coll_op op, const char *name, int p, int root, double n)
{
    run_v(op, name, p, root, n, NULL);
}

static int rounds_of(int me)
{
    return S.m[me].round;
}

static int ilog2(int p)
{
    int k = 0;

    while ((1 << k) < p)
        k++;
    return k;
}

static int floor_pof2(int p)
{
    int q = 1;

    while (2 * q <= p)
        q *= 2;
    return q;
}

static int lowbit(int r)
{
    return r & -r;
}

static void fill_vdata(int p)
{
    for (int i = 0; i < p; i++) {
        V.own[i] = (i * 7) % 5 * 100;   /* 0, 200, 400, 100, 300, 0 ... zeros included */
        for (int j = 0; j < p; j++)
            V.mat[i][j] = (i + 2 * j) % 4 * 10;
    }
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++)
            V.col[i][j] = V.mat[j][i];
}

/* Every algorithm, sizes 1 .. 17, several roots and sizes (pieces of a broadcast
 * empty when n < P): no deadlock, every send matched by an equal receive, nothing at
 * all with one member. */
static const struct {
    enum pz_coll_op op;
    const char *name;
} all[] = {
    { PZ_COLL_BARRIER, "dissemination" }, { PZ_COLL_BARRIER, "hypercube" },
    { PZ_COLL_BCAST, "binomial" }, { PZ_COLL_BCAST, "scatter_recursive_doubling_allgather" },
    { PZ_COLL_BCAST, "scatter_ring_allgather" }, { PZ_COLL_GATHER, "binomial" },
    { PZ_COLL_GATHER, "linear" }, { PZ_COLL_GATHERV, "linear" },
    { PZ_COLL_SCATTER, "binomial" }, { PZ_COLL_SCATTER, "linear" },
    { PZ_COLL_SCATTERV, "linear" }, { PZ_COLL_ALLGATHER, "recursive_doubling" },
    { PZ_COLL_ALLGATHER, "ring" }, { PZ_COLL_ALLGATHER, "bruck" },
    { PZ_COLL_ALLGATHERV, "recursive_doubling" }, { PZ_COLL_ALLGATHERV, "ring" },
    { PZ_COLL_ALLGATHERV, "bruck" }, { PZ_COLL_ALLTOALL, "bruck" },
    { PZ_COLL_ALLTOALL, "scattered" }, { PZ_COLL_ALLTOALL, "pairwise" },
    { PZ_COLL_ALLTOALL, "pairwise_shift" }, { PZ_COLL_ALLTOALL, "recursive_doubling" },
    { PZ_COLL_ALLTOALL, "linear" }, { PZ_COLL_ALLTOALLV, "scattered" },
    { PZ_COLL_ALLTOALLV, "pairwise" }, { PZ_COLL_ALLTOALLV, "linear" },
    { PZ_COLL_REDUCE, "binomial" }, { PZ_COLL_REDUCE, "reduce_scatter_gather" },
    { PZ_COLL_REDUCE, "rabenseifner" }, { PZ_COLL_ALLREDUCE, "recursive_doubling" },
    { PZ_COLL_ALLREDUCE, "recursive_doubling_fixup" }, { PZ_COLL_ALLREDUCE, "rabenseifner" },
    { PZ_COLL_ALLREDUCE, "reduce_scatter_allgather" }, { PZ_COLL_ALLREDUCE, "reduce_bcast" },
    { PZ_COLL_REDUCE_SCATTER, "recursive_halving" }, { PZ_COLL_REDUCE_SCATTER, "pairwise" },
    { PZ_COLL_REDUCE_SCATTER, "recursive_doubling" },
    { PZ_COLL_REDUCE_SCATTER, "reduce_scatterv" },
    { PZ_COLL_REDUCE_SCATTER_BLOCK, "recursive_halving" },
    { PZ_COLL_REDUCE_SCATTER_BLOCK, "pairwise" },
    { PZ_COLL_REDUCE_SCATTER_BLOCK, "recursive_doubling" },
    { PZ_COLL_REDUCE_SCATTER_BLOCK, "reduce_scatterv" },
    { PZ_COLL_SCAN, "recursive_doubling" }, { PZ_COLL_SCAN, "linear" },
    { PZ_COLL_EXSCAN, "recursive_doubling" }, { PZ_COLL_EXSCAN, "linear" },
};

static int is_v(enum pz_coll_op op)
{
    return op == PZ_COLL_GATHERV || op == PZ_COLL_SCATTERV || op == PZ_COLL_ALLGATHERV ||
           op == PZ_COLL_ALLTOALLV || op == PZ_COLL_REDUCE_SCATTER;
}

Test(coll, every_algorithm_completes_with_matched_messages)
{
    static const double sizes[] = { 1000, 5, 720720 };

    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        for (int p = 1; p <= 17; p++) {
            int roots[] = { 0, p / 2, p - 1 };

            fill_vdata(p);
            for (int r = 0; r < 3; r++)
                for (int s = 0; s < 3; s++) {
                    run_v(all[k].op, all[k].name, p, roots[r], sizes[s],
                          is_v(all[k].op) && s == 0 ? &V : NULL);
                    if (p == 1)
                        cr_assert_eq(S.nt + rounds_of(0), 0, "%s: work with one member",
                                     all[k].name);
                }
        }
}

/* Ring allgather: P - 1 rounds, in each every member passes one block of n to its
 * right neighbour, P (P - 1) transfers in all (000_*.txt). */
Test(coll, ring_allgather_moves_p_times_p_minus_1_blocks)
{
    for (int p = 1; p <= 17; p++) {
        run(PZ_COLL_ALLGATHER, "ring", p, 0, 64);
        cr_assert_eq(S.nt, p * (p - 1), "P = %d", p);
        for (int i = 0; i < S.nt; i++) {
            cr_assert_eq(S.t[i].to, (S.t[i].from + 1) % p);
            cr_assert_eq(S.t[i].bytes, 64);
        }
        for (int me = 0; me < p; me++)
            cr_assert_eq(rounds_of(me), p - 1);
    }
}

/* MPICH 1's barrier, P = 10: N2 = 8; 8 and 9 check in with 0 and 1 (2 messages), the
 * 8 ranks below N2 exchange over the 3 dimensions of the cube (8 x 3 messages), then 0
 * and 1 release 8 and 9 (2 messages). */
Test(coll, hypercube_barrier_of_10)
{
    run(PZ_COLL_BARRIER, "hypercube", 10, 0, 0);
    cr_assert_eq(S.nt, 2 + 8 * 3 + 2);
    cr_assert_eq(S.count[8][0], 1);
    cr_assert_eq(S.count[9][1], 1);
    cr_assert_eq(S.count[0][8], 1);
    cr_assert_eq(S.count[1][9], 1);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int x = i ^ j, edge = x && (x & (x - 1)) == 0;

            cr_assert_eq(S.count[i][j], edge, "%d -> %d", i, j);
        }
    /* 0 waits for 8 before its first exchange: the check-in is its round 0. */
    for (int i = 0; i < S.nt; i++)
        if (S.t[i].from == 8)
            cr_assert_eq(S.t[i].recv_round, 0);
}

/* The same count for every size: 2 (P - N2) + N2 log2 N2; dissemination P ceil(log2 P),
 * each member ceil(log2 P) rounds; all messages empty. */
Test(coll, barrier_message_counts)
{
    for (int p = 1; p <= 17; p++) {
        int n2 = floor_pof2(p);

        run(PZ_COLL_BARRIER, "hypercube", p, 0, 0);
        cr_assert_eq(S.nt, 2 * (p - n2) + n2 * ilog2(n2), "P = %d", p);
        cr_assert_eq(S.total, 0);
        run(PZ_COLL_BARRIER, "dissemination", p, 0, 0);
        cr_assert_eq(S.nt, p * ilog2(p), "P = %d", p);
        for (int me = 0; me < p; me++)
            cr_assert_eq(rounds_of(me), ilog2(p));
    }
}

/* Binomial broadcast: P - 1 messages of n; relative rank r gets it from r - lowbit(r). */
Test(coll, binomial_bcast_parents)
{
    for (int p = 1; p <= 17; p++)
        for (int root = 0; root < p; root++) {
            run(PZ_COLL_BCAST, "binomial", p, root, 100);
            cr_assert_eq(S.nt, p - 1);
            for (int i = 0; i < S.nt; i++) {
                int rel = (S.t[i].to - root + p) % p;

                cr_assert_neq(rel, 0, "the root receives");
                cr_assert_eq(S.t[i].from, (rel - lowbit(rel) + root) % p);
                cr_assert_eq(S.t[i].bytes, 100);
            }
        }
}

/* Binomial reduce: the tree reversed; members combine n per child, (P - 1) n in all;
 * the root has a child at each distance 1, 2, 4 ... < P. */
Test(coll, binomial_reduce_children)
{
    for (int p = 1; p <= 17; p++)
        for (int root = 0; root < p; root++) {
            double reduced = 0;

            run(PZ_COLL_REDUCE, "binomial", p, root, 100);
            cr_assert_eq(S.nt, p - 1);
            for (int i = 0; i < S.nt; i++) {
                int rel = (S.t[i].from - root + p) % p;

                cr_assert_eq(S.t[i].to, (rel - lowbit(rel) + root) % p);
            }
            for (int me = 0; me < p; me++)
                reduced += S.m[me].reduced;
            cr_assert_eq(reduced, (p - 1) * 100.0);
            cr_assert_eq(S.m[root].received, ilog2(p) * 100.0);
        }
}

/* Binomial gather and scatter: r's subtree holds min(lowbit(r), P - r) blocks; the
 * root gets or gives (P - 1) n, P = 8 moves 1+2+1+4+1+2+1 = 12 blocks. */
Test(coll, binomial_gather_scatter_subtrees)
{
    for (int p = 1; p <= 17; p++) {
        double blocks = 0;

        for (int r = 1; r < p; r++)
            blocks += lowbit(r) < p - r ? lowbit(r) : p - r;
        run(PZ_COLL_GATHER, "binomial", p, p / 2, 10);
        cr_assert_eq(S.total, 10 * blocks);
        cr_assert_eq(S.m[p / 2].received, 10.0 * (p - 1));
        cr_assert_eq(S.nt, p - 1);
        run(PZ_COLL_SCATTER, "binomial", p, p / 2, 10);
        cr_assert_eq(S.total, 10 * blocks);
        cr_assert_eq(S.m[p / 2].sent, 10.0 * (p - 1));
    }
    run(PZ_COLL_GATHER, "binomial", 8, 0, 1);
    cr_assert_eq(S.total, 12);
}

/* Linear gather and scatter: P - 1 messages to or from the root, one round there. */
Test(coll, linear_gather_scatter)
{
    for (int p = 2; p <= 17; p++) {
        run(PZ_COLL_GATHER, "linear", p, 1 % p, 10);
        cr_assert_eq(S.nt, p - 1);
        cr_assert_eq(S.m[1 % p].received, 10.0 * (p - 1));
        cr_assert_eq(rounds_of(1 % p), 1);
        run(PZ_COLL_SCATTER, "linear", p, 0, 10);
        cr_assert_eq(S.nt, p - 1);
        cr_assert_eq(S.m[0].sent, 10.0 * (p - 1));
    }
}

/* Allgather, any algorithm: each member receives every other block exactly once,
 * (P - 1) n, or the sum of the others' counts for Allgatherv. */
Test(coll, allgathers_deliver_every_block_once)
{
    static const char *const names[] = { "recursive_doubling", "ring", "bruck" };

    for (int k = 0; k < 3; k++)
        for (int p = 1; p <= 17; p++) {
            double total = 0;

            run(PZ_COLL_ALLGATHER, names[k], p, 0, 30);
            for (int me = 0; me < p; me++)
                cr_assert_eq(S.m[me].received, 30.0 * (p - 1), "%s P = %d", names[k], p);
            fill_vdata(p);
            for (int r = 0; r < p; r++)
                total += V.own[r];
            run_v(PZ_COLL_ALLGATHERV, names[k], p, 0, 0, &V);
            for (int me = 0; me < p; me++)
                cr_assert_eq(S.m[me].received, total - V.own[me], "%s P = %d", names[k], p);
        }
}

/* Bruck: ceil(log2 P) rounds, each member sends and receives (P - 1) n (001_*.txt).
 * Recursive doubling on a power of two: log2 P rounds, P log2 P messages. */
Test(coll, bruck_and_recursive_doubling_rounds)
{
    for (int p = 1; p <= 17; p++) {
        run(PZ_COLL_ALLGATHER, "bruck", p, 0, 8);
        for (int me = 0; me < p; me++) {
            cr_assert_eq(rounds_of(me), ilog2(p), "P = %d", p);
            cr_assert_eq(S.m[me].sent, 8.0 * (p - 1));
        }
    }
    for (int p = 1; p <= 16; p *= 2) {
        run(PZ_COLL_ALLGATHER, "recursive_doubling", p, 0, 8);
        cr_assert_eq(S.nt, p * ilog2(p));
        for (int me = 0; me < p; me++)
            cr_assert_eq(rounds_of(me), ilog2(p));
    }
    /* P = 6, step 1 of Bruck: 2 sends its block and 3's to 0. */
    run(PZ_COLL_ALLGATHER, "bruck", 6, 0, 8);
    for (int i = 0; i < S.nt; i++)
        if (S.t[i].from == 2 && S.t[i].send_round == 1)
            cr_assert(S.t[i].to == 0 && S.t[i].bytes == 16);
}

/* Scatter + allgather broadcasts: the buffer in P pieces of ceil(n/P); a member gets
 * its subtree's pieces in the scatter and every piece but its own in the allgather. */
static double piece(double n, int p, int lo, int hi)
{
    double size = ceil(n / p), b;

    hi = hi < p ? hi : p;
    b = fmin(n, hi * size) - lo * size;
    return b > 0 ? b : 0;
}

Test(coll, scatter_allgather_bcasts)
{
    static const char *const names[] = { "scatter_recursive_doubling_allgather",
                                         "scatter_ring_allgather" };
    static const double sizes[] = { 1000, 13, 4096 };

    for (int k = 0; k < 2; k++)
        for (int s = 0; s < 3; s++)
            for (int p = 1; p <= 17; p++)
                for (int root = 0; root < p; root += 3) {
                    double n = sizes[s];

                    run(PZ_COLL_BCAST, names[k], p, root, n);
                    for (int me = 0; me < p; me++) {
                        int rel = (me - root + p) % p;
                        double sub = rel ? piece(n, p, rel, rel + lowbit(rel)) : 0;

                        cr_assert_eq(S.m[me].received, sub + n - piece(n, p, rel, rel + 1),
                                     "%s P = %d root %d member %d", names[k], p, root, me);
                    }
                }
}

/* Recursive-doubling Allreduce (MPICH 2+): 2 rem fold messages and pof2 log2 pof2
 * exchange messages, all of n.  P = 6: 0 -> 1 and 2 -> 3 fold in, 1 -> 0 and 3 -> 2
 * give the result back. */
Test(coll, recursive_doubling_allreduce_non_power_of_two)
{
    for (int p = 1; p <= 17; p++) {
        int pof2 = floor_pof2(p);

        run(PZ_COLL_ALLREDUCE, "recursive_doubling", p, 0, 8);
        cr_assert_eq(S.nt, 2 * (p - pof2) + pof2 * ilog2(pof2), "P = %d", p);
        cr_assert_eq(S.total, 8.0 * S.nt);
    }
    run(PZ_COLL_ALLREDUCE, "recursive_doubling", 6, 0, 8);
    cr_assert_eq(S.count[0][1] + S.count[2][3] + S.count[1][0] + S.count[3][2], 4);
    cr_assert_eq(S.count[0][2] + S.count[2][0] + S.count[0][4] + S.count[4][0], 0);
    cr_assert_eq(rounds_of(0), 2);
    cr_assert_eq(rounds_of(1), 4);
}

/* MPICH 1.2.5's recursive doubling, P = 3: 0 <-> 1 at distance 1, 0 <-> 2 at distance
 * 2, then 1 (whose partner 3 does not exist) gets the result from 0: 5 messages. */
Test(coll, recursive_doubling_fixup_allreduce)
{
    run(PZ_COLL_ALLREDUCE, "recursive_doubling_fixup", 3, 0, 8);
    cr_assert_eq(S.nt, 5);
    cr_assert_eq(S.count[0][1], 2);
    cr_assert_eq(S.count[1][0], 1);
    cr_assert_eq(S.count[0][2], 1);
    cr_assert_eq(S.count[2][0], 1);
    for (int p = 1; p <= 16; p *= 2) {
        run(PZ_COLL_ALLREDUCE, "recursive_doubling_fixup", p, 0, 8);
        cr_assert_eq(S.nt, p * ilog2(p));
    }
}

/* Rabenseifner on a power of two with n a multiple of P: reduce-scatter and allgather
 * each move n (P - 1) / P per member in log2 P rounds. */
Test(coll, rabenseifner_allreduce)
{
    for (int p = 1; p <= 16; p *= 2) {
        run(PZ_COLL_ALLREDUCE, "rabenseifner", p, 0, 1600);
        for (int me = 0; me < p; me++) {
            cr_assert_eq(S.m[me].sent, 2 * 1600.0 * (p - 1) / p);
            cr_assert_eq(S.m[me].reduced, 1600.0 * (p - 1) / p);
            cr_assert_eq(rounds_of(me), 2 * ilog2(p));
        }
    }
    /* P = 6: fold 2, 4 members x 2 halving x 2 ways, 4 x 2 doubling, unfold 2. */
    run(PZ_COLL_ALLREDUCE, "rabenseifner", 6, 0, 1600);
    cr_assert_eq(S.nt, 2 + 8 + 8 + 2);
}

/* Rabenseifner's Reduce, P = 8, root 0, n = 8 blocks: the reduce-scatter moves
 * 7 blocks per member (56), the gather to the root 4 + 2 x 2 + 4 = 12 blocks, of which
 * the root receives 1 + 2 + 4 = 7. */
Test(coll, reduce_scatter_gather_reduce)
{
    double gathered = 0;

    run(PZ_COLL_REDUCE, "reduce_scatter_gather", 8, 0, 8);
    cr_assert_eq(S.total, 56 + 12);
    for (int i = 0; i < S.nt; i++)
        if (S.t[i].to == 0 && S.t[i].recv_round >= 3)
            gathered += S.t[i].bytes;
    cr_assert_eq(gathered, 7);
    /* Whatever the size and root, the root ends up receiving at least n - own block:
     * everything it does not hold itself passes through its gather. */
    for (int p = 2; p <= 17; p++)
        for (int root = 0; root < p; root++) {
            run(PZ_COLL_REDUCE, "reduce_scatter_gather", p, root, 1024);
            cr_assert_geq(S.m[root].received, 1024 - ceil(1024.0 / floor_pof2(p)));
        }
}

/* Alltoall: pairwise moves P (P - 1) blocks of n (in P - 1 rounds, with me ^ i in
 * round i - 1 on powers of two), scattered P^2: each member's own block too, a message
 * to itself as MPICH sends it (none when P = 1: no round); Bruck sends in round k the
 * blocks whose index has bit k set; 1.2.5's recursive doubling hands every member all
 * P - 1 other send buffers of P n. */
Test(coll, alltoall_message_sets)
{
    for (int p = 1; p <= 17; p++) {
        double bruck = 0;

        run(PZ_COLL_ALLTOALL, "pairwise", p, 0, 4);
        cr_assert_eq(S.nt, p * (p - 1));
        for (int me = 0; me < p; me++)
            cr_assert_eq(rounds_of(me), p > 1 ? p - 1 : 0);
        if ((p & (p - 1)) == 0)
            for (int i = 0; i < S.nt; i++)
                cr_assert_eq(S.t[i].from ^ S.t[i].to, S.t[i].send_round + 1);
        run(PZ_COLL_ALLTOALL, "scattered", p, 0, 4);
        cr_assert_eq(S.nt, p > 1 ? p * p : 0);
        run(PZ_COLL_ALLTOALL, "linear", p, 0, 4);
        cr_assert_eq(S.nt, p * (p - 1));
        for (int bit = 1; bit < p; bit *= 2)
            for (int i = 0; i < p; i++)
                bruck += (i & bit) ? 4 : 0;
        run(PZ_COLL_ALLTOALL, "bruck", p, 0, 4);
        for (int me = 0; me < p; me++) {
            cr_assert_eq(S.m[me].sent, bruck);
            cr_assert_eq(rounds_of(me), ilog2(p));
        }
        run(PZ_COLL_ALLTOALL, "recursive_doubling", p, 0, 4);
        for (int me = 0; me < p; me++)
            cr_assert_eq(S.m[me].received, 4.0 * p * (p - 1));
    }
    /* Bruck, P = 8: 4 blocks in each of 3 rounds. */
    run(PZ_COLL_ALLTOALL, "bruck", 8, 0, 1);
    cr_assert_eq(S.m[5].sent, 12);
}

/* Scattered in batches of 32: P = 40 takes 2 rounds, the message to oneself (i = 0) in
 * the first; Alltoallv skips empty blocks, its own among them, and sends itself the
 * others. */
Test(coll, scattered_batches)
{
    run(PZ_COLL_ALLTOALL, "scattered", 40, 0, 4);
    cr_assert_eq(S.nt, 40 * 40);
    for (int me = 0; me < 40; me++)
        cr_assert_eq(rounds_of(me), 2);
    for (int i = 0; i < S.nt; i++)
        if (S.t[i].from == S.t[i].to)
            cr_assert_eq(S.t[i].send_round, 0, "the message to oneself in the first batch");
    fill_vdata(9);
    run_v(PZ_COLL_ALLTOALLV, "scattered", 9, 0, 0, &V);
    for (int i = 0; i < S.nt; i++)
        cr_assert_gt(S.t[i].bytes, 0);
    for (int me = 0; me < 9; me++) {
        double want = 0;

        for (int j = 0; j < 9; j++)
            want += V.mat[j][me];
        cr_assert_eq(S.m[me].received, want);
    }
}

/* Reduce_scatter: pairwise, each member receives its block from each of P - 1 others;
 * recursive halving on a power of two sends (P/2 + P/4 + ... + 1) n = (P - 1) n;
 * 1.2.5's recursive doubling exchanges all but the subtree's blocks, sum over masks of
 * (P - mask) n; MPICH 1 reduces P n to rank 0 and scatters. */
Test(coll, reduce_scatter_message_sets)
{
    for (int p = 1; p <= 17; p++) {
        run(PZ_COLL_REDUCE_SCATTER_BLOCK, "pairwise", p, 0, 10);
        for (int me = 0; me < p; me++)
            cr_assert_eq(S.m[me].received, 10.0 * (p - 1));
        run(PZ_COLL_REDUCE_SCATTER_BLOCK, "reduce_scatterv", p, 0, 10);
        cr_assert_eq(S.nt, 2 * (p - 1));
        cr_assert_eq(S.total, (p - 1) * 10.0 * p + (p - 1) * 10.0);
        fill_vdata(p);
        run_v(PZ_COLL_REDUCE_SCATTER, "pairwise", p, 0, 0, &V);
        for (int me = 0; me < p; me++)
            cr_assert_eq(S.m[me].received, V.own[me] * (p - 1));
    }
    for (int p = 1; p <= 16; p *= 2) {
        double rd = 0;

        run(PZ_COLL_REDUCE_SCATTER_BLOCK, "recursive_halving", p, 0, 10);
        for (int me = 0; me < p; me++)
            cr_assert_eq(S.m[me].sent, 10.0 * (p - 1));
        for (int mask = 1; mask < p; mask *= 2)
            rd += 10.0 * (p - mask);
        run(PZ_COLL_REDUCE_SCATTER_BLOCK, "recursive_doubling", p, 0, 10);
        for (int me = 0; me < p; me++)
            cr_assert_eq(S.m[me].sent, rd);
    }
}

/* Scan: the chain has P - 1 messages; recursive doubling one exchange per pair
 * (me, me ^ 2^k) inside the communicator, P log2 P messages on a power of two. */
Test(coll, scans)
{
    for (int p = 1; p <= 17; p++) {
        int pairs = 0;

        for (int me = 0; me < p; me++)
            for (int mask = 1; mask < p; mask *= 2)
                pairs += (me ^ mask) < p;
        run(PZ_COLL_SCAN, "linear", p, 0, 8);
        cr_assert_eq(S.nt, p - 1);
        run(PZ_COLL_SCAN, "recursive_doubling", p, 0, 8);
        cr_assert_eq(S.nt, pairs);
        run(PZ_COLL_EXSCAN, "recursive_doubling", p, 0, 8);
        cr_assert_eq(S.nt, pairs);
    }
    run(PZ_COLL_SCAN, "recursive_doubling", 16, 0, 8);
    cr_assert_eq(S.nt, 16 * 4);
}

/* MPICH 1's Allreduce: binomial reduce to 0 then broadcast, 2 (P - 1) messages. */
Test(coll, reduce_bcast_allreduce)
{
    for (int p = 1; p <= 17; p++) {
        run(PZ_COLL_ALLREDUCE, "reduce_bcast", p, 0, 8);
        cr_assert_eq(S.nt, 2 * (p - 1));
    }
}

/* ---- the choice of each set ---- */

static const char *chosen(const char *mpi, enum pz_coll_op op, int p, double n)
{
    struct pz_coll c = { op, p, 0, 0, n, NULL, NULL, 0, 0 };
    const struct pz_coll_algo *a = pz_coll_choose(mpi, &c);

    cr_assert(a, "%s chooses nothing for op %d", mpi, op);
    cr_assert_eq(a->op, op);
    return a->name;
}

#define CHOICE(mpi, op, p, n, want) \
    cr_expect_str_eq(chosen(mpi, op, p, n), want, "%s op %d P = %d n = %g", mpi, op, p, (double)(n))

Test(coll, every_set_chooses_for_every_op)
{
    static const char *const sets[] = { "mpich1", "mpich-1.2.5", "mpich4" };

    for (int s = 0; s < 3; s++)
        for (int op = 0; op < PZ_COLL_NOPS; op++)
            for (int p = 1; p <= 17; p++)
                chosen(sets[s], op, p, 100);
    cr_assert_null(pz_coll_choose("openmpi", &(struct pz_coll){ PZ_COLL_BCAST, 4, 0, 0, 8,
                                                                 NULL, NULL, 0, 0 }));
}

Test(coll, mpich1_choices)
{
    CHOICE("mpich1", PZ_COLL_BARRIER, 10, 0, "hypercube");
    CHOICE("mpich1", PZ_COLL_BCAST, 16, 1 << 20, "binomial");
    CHOICE("mpich1", PZ_COLL_GATHER, 16, 1 << 20, "linear");
    CHOICE("mpich1", PZ_COLL_SCATTERV, 16, 8, "linear");
    CHOICE("mpich1", PZ_COLL_ALLGATHER, 16, 8, "ring");
    CHOICE("mpich1", PZ_COLL_ALLGATHERV, 16, 8, "ring");
    CHOICE("mpich1", PZ_COLL_ALLTOALL, 16, 8, "linear");
    CHOICE("mpich1", PZ_COLL_REDUCE, 16, 8, "binomial");
    CHOICE("mpich1", PZ_COLL_ALLREDUCE, 16, 8, "reduce_bcast");
    CHOICE("mpich1", PZ_COLL_REDUCE_SCATTER, 16, 8, "reduce_scatterv");
    CHOICE("mpich1", PZ_COLL_SCAN, 16, 8, "linear");
}

/* intra_fns_new.c: MPIR_BCAST_SHORT_MSG 12288 (<), MPIR_BCAST_MIN_PROCS 8 (<=),
 * MPIR_ALLTOALL_SHORT_MSG 128 and MEDIUM 262144 on P n, MPIR_ALLGATHERV_MEDIUM_MSG
 * 262144 and MPIR_REDUCE_SCATTER_SHORT_MSG 512 on the total. */
Test(coll, mpich125_cutoffs)
{
    const char *m = "mpich-1.2.5";

    CHOICE(m, PZ_COLL_BARRIER, 10, 0, "hypercube");
    CHOICE(m, PZ_COLL_BCAST, 8, 12287, "binomial");
    CHOICE(m, PZ_COLL_BCAST, 8, 12288, "scatter_recursive_doubling_allgather");
    CHOICE(m, PZ_COLL_BCAST, 9, 4, "scatter_recursive_doubling_allgather");
    CHOICE(m, PZ_COLL_GATHER, 9, 4, "binomial");
    CHOICE(m, PZ_COLL_SCATTER, 9, 4, "binomial");
    CHOICE(m, PZ_COLL_ALLGATHER, 9, 1 << 20, "recursive_doubling");
    CHOICE(m, PZ_COLL_ALLGATHERV, 8, 32768, "recursive_doubling");   /* total 262144 */
    CHOICE(m, PZ_COLL_ALLGATHERV, 8, 32769, "ring");
    CHOICE(m, PZ_COLL_ALLTOALL, 8, 16, "recursive_doubling");        /* 128 */
    CHOICE(m, PZ_COLL_ALLTOALL, 8, 17, "linear");
    CHOICE(m, PZ_COLL_ALLTOALL, 8, 32767, "linear");
    CHOICE(m, PZ_COLL_ALLTOALL, 8, 32768, "pairwise_shift");         /* 262144 */
    CHOICE(m, PZ_COLL_ALLTOALLV, 8, 1, "linear");
    CHOICE(m, PZ_COLL_ALLREDUCE, 8, 1 << 20, "recursive_doubling_fixup");
    CHOICE(m, PZ_COLL_REDUCE_SCATTER, 8, 64, "recursive_doubling");  /* 512 */
    CHOICE(m, PZ_COLL_REDUCE_SCATTER, 8, 65, "pairwise");
    CHOICE(m, PZ_COLL_SCAN, 8, 1 << 20, "recursive_doubling");
}

/* MPICH 4.x generic.json (the MPIR_CVAR_* defaults): bcast 12288 / 524288 / 8 procs,
 * allgather 524288 / 81920 on the total, alltoall 256 / 32768 per block and 8 procs,
 * reduce 2048, allreduce 8 (and count < pof2), reduce_scatter 524288 on the total. */
Test(coll, mpich4_cutoffs)
{
    const char *m = "mpich4";

    CHOICE(m, PZ_COLL_BARRIER, 10, 0, "dissemination");
    CHOICE(m, PZ_COLL_BCAST, 7, 1 << 24, "binomial");
    CHOICE(m, PZ_COLL_BCAST, 8, 12288, "binomial");
    CHOICE(m, PZ_COLL_BCAST, 8, 12289, "scatter_recursive_doubling_allgather");
    CHOICE(m, PZ_COLL_BCAST, 8, 524288, "scatter_recursive_doubling_allgather");
    CHOICE(m, PZ_COLL_BCAST, 8, 524289, "scatter_ring_allgather");
    CHOICE(m, PZ_COLL_BCAST, 12, 12289, "scatter_ring_allgather");
    CHOICE(m, PZ_COLL_ALLGATHER, 8, 65535, "recursive_doubling");    /* 524280 */
    CHOICE(m, PZ_COLL_ALLGATHER, 8, 65536, "ring");                  /* 524288 */
    CHOICE(m, PZ_COLL_ALLGATHER, 10, 8191, "bruck");                 /* 81910 */
    CHOICE(m, PZ_COLL_ALLGATHER, 10, 8192, "ring");                  /* 81920 */
    CHOICE(m, PZ_COLL_ALLGATHERV, 10, 8, "bruck");
    CHOICE(m, PZ_COLL_ALLTOALL, 8, 256, "bruck");
    CHOICE(m, PZ_COLL_ALLTOALL, 8, 257, "scattered");
    CHOICE(m, PZ_COLL_ALLTOALL, 7, 1, "scattered");
    CHOICE(m, PZ_COLL_ALLTOALL, 16, 32768, "scattered");
    CHOICE(m, PZ_COLL_ALLTOALL, 16, 32769, "pairwise");
    CHOICE(m, PZ_COLL_ALLTOALLV, 16, 1, "scattered");
    CHOICE(m, PZ_COLL_GATHER, 16, 1, "binomial");
    CHOICE(m, PZ_COLL_GATHERV, 16, 1, "linear");
    CHOICE(m, PZ_COLL_SCATTER, 16, 1, "binomial");
    CHOICE(m, PZ_COLL_REDUCE, 16, 2048, "binomial");
    CHOICE(m, PZ_COLL_REDUCE, 16, 2049, "reduce_scatter_gather");
    CHOICE(m, PZ_COLL_ALLREDUCE, 4, 8, "recursive_doubling");
    CHOICE(m, PZ_COLL_ALLREDUCE, 4, 16, "recursive_doubling");       /* 2 doubles < 4 */
    CHOICE(m, PZ_COLL_ALLREDUCE, 4, 32, "rabenseifner");
    CHOICE(m, PZ_COLL_REDUCE_SCATTER_BLOCK, 8, 65535, "recursive_halving");
    CHOICE(m, PZ_COLL_REDUCE_SCATTER_BLOCK, 8, 65536, "pairwise");
    CHOICE(m, PZ_COLL_SCAN, 8, 1, "recursive_doubling");
    CHOICE(m, PZ_COLL_EXSCAN, 8, 1, "recursive_doubling");
}

Test(coll, names)
{
    cr_assert_eq(pz_coll_op_named("allgather"), PZ_COLL_ALLGATHER);
    cr_assert_eq(pz_coll_op_named("reduce_scatter_block"), PZ_COLL_REDUCE_SCATTER_BLOCK);
    cr_assert_eq(pz_coll_op_named("alltoallw"), PZ_COLL_ALLTOALLV);
    cr_assert_eq(pz_coll_op_named("allgatherw"), -1);
    cr_assert_null(pz_coll_named(PZ_COLL_BCAST, "bruck"));
    cr_assert_null(pz_coll_named(PZ_COLL_ALLGATHER, "Bruck"));
    cr_assert_str_eq(pz_coll_named(PZ_COLL_ALLGATHER, "bruck")->name, "bruck");
}

/* docs/collectives.md: MPICH's Allgather is Bruck's, recursive doubling or the ring,
 * Open MPI's also the neighbour exchange or Gather + Bcast; the enumeration gives
 * those five (in any order) and then NULL. */
Test(coll, algorithms_of_an_operation)
{
    int bruck = 0, doubling = 0, ring = 0, neighbor = 0, gather_bcast = 0;
    const struct pz_coll_algo *a;

    for (size_t i = 0; i < 5; i++) {
        cr_assert_not_null(a = pz_coll_algorithm(PZ_COLL_ALLGATHER, i));
        cr_assert_eq(a->op, PZ_COLL_ALLGATHER);
        bruck += !strcmp(a->name, "bruck");
        doubling += !strcmp(a->name, "recursive_doubling");
        ring += !strcmp(a->name, "ring");
        neighbor += !strcmp(a->name, "neighbor_exchange");
        gather_bcast += !strcmp(a->name, "gather_bcast");
    }
    cr_assert(bruck == 1 && doubling == 1 && ring == 1 && neighbor == 1 && gather_bcast == 1);
    cr_assert_null(pz_coll_algorithm(PZ_COLL_ALLGATHER, 5));
    cr_assert_null(pz_coll_algorithm(PZ_COLL_ALLTOALLW, 0));
}

/* Alltoallw follows the PZ_COLL_NOPS operations the model takes: no set chooses for it
 * (a trace's Alltoallw reaches the model as Alltoallv). */
Test(coll, alltoallw_is_no_operation_of_the_model)
{
    struct pz_coll c = { .op = PZ_COLL_ALLTOALLW, .size = 4, .bytes = 8 };

    cr_assert_eq(PZ_COLL_ALLTOALLW, PZ_COLL_NOPS);
    cr_assert_null(pz_coll_choose("mpich4", &c));
    c.op = PZ_COLL_ALLTOALLV;
    cr_assert_not_null(pz_coll_choose("mpich4", &c));
}

/* The table of docs/trace-format.md read backwards, n = 100, P = 5, root 2. */
Test(coll, block_from_bytes)
{
    cr_assert_eq(pz_coll_block(PZ_COLL_BCAST, 5, 2, 2, 400, 0), 100);
    cr_assert_eq(pz_coll_block(PZ_COLL_BCAST, 5, 2, 3, 0, 100), 100);
    cr_assert_eq(pz_coll_block(PZ_COLL_GATHER, 5, 2, 2, 0, 400), 100);
    cr_assert_eq(pz_coll_block(PZ_COLL_REDUCE, 5, 2, 0, 100, 0), 100);
    cr_assert_eq(pz_coll_block(PZ_COLL_ALLGATHER, 5, 0, 0, 400, 400), 100);
    cr_assert_eq(pz_coll_block(PZ_COLL_ALLREDUCE, 5, 0, 0, 100, 100), 100);
    cr_assert_eq(pz_coll_block(PZ_COLL_REDUCE_SCATTER, 5, 0, 0, 1234, 400), 100);
    cr_assert_eq(pz_coll_block(PZ_COLL_SCAN, 5, 0, 4, 0, 100), 100);
    cr_assert_eq(pz_coll_block(PZ_COLL_SCAN, 5, 0, 0, 100, 0), 100);
    cr_assert_eq(pz_coll_block(PZ_COLL_BARRIER, 5, 0, 0, 0, 0), 0);
    cr_assert_eq(pz_coll_block(PZ_COLL_ALLGATHER, 1, 0, 0, 0, 0), 0);
}
