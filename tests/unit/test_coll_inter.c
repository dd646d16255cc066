/* Collectives on intercommunicators (model/coll_inter.c): every round of a member of a
 * 2+3 intercommunicator, low group L = {L0, L1} and high group H = {H0, H1, H2},
 * written as "round:>peer:bytes" (send), "round:<peer:bytes" (receive) and
 * "round:reduce:bytes", compared with the messages of MPICH 4's algorithms worked out
 * by hand in the comments.  The local parts are MPICH 4's choice on a group of 2 or 3
 * (binomial trees at these sizes).  Then every instance is checked to be balanced: what
 * each member sends to another, in order, is what that one receives from it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "coll.h"

#define NL 2
#define NH 3

static struct pz_coll member(enum pz_coll_op op, int low, int me, int root, double bytes)
{
    return (struct pz_coll){ .op = op, .size = low ? NL : NH, .me = me, .root = root,
                             .bytes = bytes, .remote_size = low ? NH : NL, .low = low };
}

struct rounds {
    const struct pz_coll *c;
    int round;
    char text[1024];
};

/* "L1", "H0": the member peer names, as member c sees its peers. */
static void name_peer(const struct pz_coll *c, int peer, char *out, size_t n)
{
    int local = peer < c->size;
    char group = (local == c->low) ? 'L' : 'H';

    snprintf(out, n, "%c%d", group, local ? peer : peer - c->size);
}

static void collect(void *ud, int peer, int is_send, double bytes)
{
    struct rounds *r = ud;
    char name[16];
    size_t used = strlen(r->text);

    cr_assert(peer >= 0 && peer < r->c->size + r->c->remote_size, "bad peer %d", peer);
    name_peer(r->c, peer, name, sizeof(name));
    snprintf(r->text + used, sizeof(r->text) - used, "%s%d:%c%s:%g", used ? " " : "",
             r->round, is_send ? '>' : '<', name, bytes);
}

/* Every round of member c under MPICH 4's algorithm, as text. */
static const char *rounds_of(struct pz_coll c)
{
    static struct rounds r;
    const struct pz_coll_algo *a = pz_coll_choose("mpich4", &c);

    cr_assert_not_null(a, "no algorithm for operation %d", c.op);
    r.c = &c;
    r.text[0] = '\0';
    for (r.round = 0;; r.round++) {
        struct pz_coll_round out = { collect, &r, -1, NULL };
        size_t used;

        if (!a->round(&c, r.round, &out))
            break;
        cr_assert_geq(out.reduce_bytes, 0, "reduce_bytes not set");
        used = strlen(r.text);
        if (out.reduce_bytes > 0)
            snprintf(r.text + used, sizeof(r.text) - used, "%s%d:reduce:%g", used ? " " : "",
                     r.round, out.reduce_bytes);
    }
    return r.text;
}

static void expect(struct pz_coll c, const char *want)
{
    const char *got = rounds_of(c);

    cr_assert_str_eq(got, want, "%c%d: got \"%s\", expected \"%s\"", c.low ? 'L' : 'H', c.me,
                     got, want);
}

/* --- balance: the sends of each ordered pair equal its receives, in order */

#define NP (NL + NH)
#define MAXM 32

struct pair_log {
    double sent[NP][NP][MAXM], received[NP][NP][MAXM];
    int nsent[NP][NP], nreceived[NP][NP];
};

static struct pair_log P;

struct logging {
    const struct pz_coll *c;
    int global;              /* L0, L1, H0, H1, H2 = 0 .. 4 */
};

static int global_of(const struct pz_coll *c, int peer)
{
    int local = peer < c->size, in_low = local == c->low;
    int rank = local ? peer : peer - c->size;

    return in_low ? rank : NL + rank;
}

static void log_message(void *ud, int peer, int is_send, double bytes)
{
    const struct logging *l = ud;
    int other = global_of(l->c, peer);

    if (is_send) {
        cr_assert_lt(P.nsent[l->global][other], MAXM);
        P.sent[l->global][other][P.nsent[l->global][other]++] = bytes;
    } else {
        cr_assert_lt(P.nreceived[other][l->global], MAXM);
        P.received[other][l->global][P.nreceived[other][l->global]++] = bytes;
    }
}

/* Checks the instance whose members are cs[0 .. NP-1] (L0, L1, H0, H1, H2). */
static void balanced(const struct pz_coll cs[NP])
{
    memset(&P, 0, sizeof(P));
    for (int g = 0; g < NP; g++) {
        const struct pz_coll_algo *a = pz_coll_choose("mpich4", &cs[g]);
        struct logging l = { &cs[g], g };

        for (int r = 0;; r++) {
            struct pz_coll_round out = { log_message, &l, 0, NULL };

            if (!a->round(&cs[g], r, &out))
                break;
        }
    }
    for (int s = 0; s < NP; s++)
        for (int d = 0; d < NP; d++) {
            cr_assert_eq(P.nsent[s][d], P.nreceived[s][d], "%d -> %d: %d sent, %d received",
                         s, d, P.nsent[s][d], P.nreceived[s][d]);
            for (int i = 0; i < P.nsent[s][d]; i++)
                cr_assert_eq(P.sent[s][d][i], P.received[s][d][i], "%d -> %d: message %d", s,
                             d, i);
        }
}

/* The members of an instance of op, block n_low in L and n_high in H; rooted ones with
 * the root at rank root_rank of group L (root_low) or H. */
static void instance(struct pz_coll cs[NP], enum pz_coll_op op, double n_low, double n_high,
                     int root_low, int root_rank)
{
    for (int g = 0; g < NP; g++) {
        int low = g < NL, me = low ? g : g - NL, root = 0;

        if (low == root_low)
            root = me == root_rank ? PZ_COLL_ROOT : PZ_COLL_PROC_NULL;
        else
            root = root_rank;
        cs[g] = member(op, low, me, root, low ? n_low : n_high);
    }
}

static void instance_balanced(enum pz_coll_op op, double n_low, double n_high, int root_low,
                              int root_rank)
{
    struct pz_coll cs[NP];

    instance(cs, op, n_low, n_high, root_low, root_rank);
    balanced(cs);
}

/* Bcast of 100 B from L1 (MPIR_Bcast_inter_remote_send_local_bcast): L1 sends to H0,
 * L0 (MPI_PROC_NULL) does nothing; H0 receives from L1, then the binomial Bcast on 3
 * from H0: mask 2 then 1, so H0 sends to H2, then to H1, one round each. */
Test(coll_inter, bcast_root_sends_to_rank_0_of_the_other_group)
{
    expect(member(PZ_COLL_BCAST, 1, 1, PZ_COLL_ROOT, 100), "0:>H0:100");
    expect(member(PZ_COLL_BCAST, 1, 0, PZ_COLL_PROC_NULL, 100), "");
    expect(member(PZ_COLL_BCAST, 0, 0, 1, 100), "0:<L1:100 1:>H2:100 2:>H1:100");
    expect(member(PZ_COLL_BCAST, 0, 1, 1, 100), "0:<H0:100");
    expect(member(PZ_COLL_BCAST, 0, 2, 1, 100), "0:<H0:100");
    instance_balanced(PZ_COLL_BCAST, 100, 100, 1, 1);
}

/* Reduce of 8 B to H0 (MPIR_Reduce_inter_local_reduce_remote_send): L reduces to L0 by
 * the binomial tree (L0 receives and combines L1's 8 B), L0 sends the result to H0,
 * which only receives it. */
Test(coll_inter, reduce_local_reduce_then_rank_0_sends_to_the_root)
{
    expect(member(PZ_COLL_REDUCE, 0, 0, PZ_COLL_ROOT, 8), "0:<L0:8");
    expect(member(PZ_COLL_REDUCE, 0, 1, PZ_COLL_PROC_NULL, 8), "");
    expect(member(PZ_COLL_REDUCE, 1, 0, 0, 8), "0:<L1:8 0:reduce:8 1:>H0:8");
    expect(member(PZ_COLL_REDUCE, 1, 1, 0, 8), "0:>L0:8");
    instance_balanced(PZ_COLL_REDUCE, 8, 8, 0, 0);
}

/* Allreduce of 8 B (MPIR_Allreduce_inter_reduce_exchange_bcast): binomial Reduce to rank
 * 0 in each group (H0 combines H1's, mask 1, then H2's, mask 2; H2 sends at mask 2),
 * the rank 0s exchange in one Sendrecv round, binomial Bcast from rank 0 in each group
 * (H0 sends to H2, then H1). */
Test(coll_inter, allreduce_reduce_exchange_bcast)
{
    expect(member(PZ_COLL_ALLREDUCE, 1, 0, 0, 8),
           "0:<L1:8 0:reduce:8 1:>H0:8 1:<H0:8 2:>L1:8");
    expect(member(PZ_COLL_ALLREDUCE, 1, 1, 0, 8), "0:>L0:8 1:<L0:8");
    expect(member(PZ_COLL_ALLREDUCE, 0, 0, 0, 8),
           "0:<H1:8 0:reduce:8 1:<H2:8 1:reduce:8 2:>L0:8 2:<L0:8 3:>H2:8 4:>H1:8");
    expect(member(PZ_COLL_ALLREDUCE, 0, 1, 0, 8), "0:>H0:8 1:<H0:8");
    expect(member(PZ_COLL_ALLREDUCE, 0, 2, 0, 8), "0:>H0:8 1:<H0:8");
    instance_balanced(PZ_COLL_ALLREDUCE, 8, 8, 0, 0);
}

/* Gather to L0.  Blocks of 1000 B: H's 3000 B are not below 2048, so
 * MPIR_Gather_inter_linear: L0 receives from H0, H1, H2 in turn, one blocking receive
 * (one round) each.  Blocks of 100 B: 300 B, MPIR_Gather_inter_local_gather_remote_send:
 * binomial Gather to H0 on 3 (H0 receives H1's 100 B at mask 1 and H2's 100 B at mask
 * 2), then H0 sends the 300 B to L0. */
Test(coll_inter, gather_linear_above_2048_bytes_else_through_rank_0)
{
    struct pz_coll root = member(PZ_COLL_GATHER, 1, 0, PZ_COLL_ROOT, 1000);

    cr_assert_str_eq(pz_coll_choose("mpich4", &root)->name, "linear");
    expect(root, "0:<H0:1000 1:<H1:1000 2:<H2:1000");
    expect(member(PZ_COLL_GATHER, 0, 2, 0, 1000), "0:>L0:1000");
    instance_balanced(PZ_COLL_GATHER, 1000, 1000, 1, 0);

    root.bytes = 100;
    cr_assert_str_eq(pz_coll_choose("mpich4", &root)->name, "local_gather_remote_send");
    expect(root, "0:<H0:300");
    expect(member(PZ_COLL_GATHER, 0, 0, 0, 100), "0:<H1:100 1:<H2:100 2:>L0:300");
    expect(member(PZ_COLL_GATHER, 0, 1, 0, 100), "0:>H0:100");
    instance_balanced(PZ_COLL_GATHER, 100, 100, 1, 0);
}

/* Allgather of 10 B (MPIR_Allgather_inter_local_gather_remote_bcast): binomial Gather to
 * rank 0 in each group; then the low group's 20 B go to H by an intercommunicator Bcast
 * from L0 (L0 sends to H0, which broadcasts them in H: to H2, then H1), then H's 30 B
 * to L from H0 (L0 receives them and sends them to L1). */
Test(coll_inter, allgather_local_gather_then_bcast_each_way)
{
    expect(member(PZ_COLL_ALLGATHER, 1, 0, 0, 10), "0:<L1:10 1:>H0:20 2:<H0:30 3:>L1:30");
    expect(member(PZ_COLL_ALLGATHER, 1, 1, 0, 10), "0:>L0:10 1:<L0:30");
    expect(member(PZ_COLL_ALLGATHER, 0, 0, 0, 10),
           "0:<H1:10 1:<H2:10 2:<L0:20 3:>H2:20 4:>H1:20 5:>L0:30");
    expect(member(PZ_COLL_ALLGATHER, 0, 2, 0, 10), "0:>H0:10 1:<H0:20");
    instance_balanced(PZ_COLL_ALLGATHER, 10, 10, 0, 0);
}

/* Alltoall of 4 B (MPIR_Alltoall_inter_pairwise_exchange): max(2, 3) = 3 Sendrecv steps;
 * at step i a member sends to remote rank (me + i) mod 3 and receives from remote rank
 * (me - i) mod 3 where those exist.  L0: steps 0, 1, 2 send to H0, H1, H2 and receive
 * from H0, H2, H1.  H2: step 0 has no peer (L2 does not exist), step 1 sends to L0
 * and receives from L1, step 2 sends to L1 and receives from L0. */
Test(coll_inter, alltoall_pairwise_exchange_over_the_larger_group)
{
    expect(member(PZ_COLL_ALLTOALL, 1, 0, 0, 4),
           "0:>H0:4 0:<H0:4 1:>H1:4 1:<H2:4 2:>H2:4 2:<H1:4");
    expect(member(PZ_COLL_ALLTOALL, 0, 2, 0, 4), "1:>L0:4 1:<L1:4 2:>L1:4 2:<L0:4");
    instance_balanced(PZ_COLL_ALLTOALL, 4, 4, 0, 0);
}

/* Reduce_scatter_block, 12 B per member of L and 8 B per member of H, so 24 B in all on
 * each side (MPIR_Reduce_scatter_block_inter_remote_reduce_local_scatter): an
 * intercommunicator Reduce of 24 B to L0 (H reduces to H0 by the binomial tree, H0 sends
 * to L0), then one to H0 (L reduces to L0, L0 sends to H0), then a linear Scatterv from
 * rank 0 in each group (H0 sends H1 and H2 their 8 B in one round). */
Test(coll_inter, reduce_scatter_remote_reduce_local_scatter)
{
    expect(member(PZ_COLL_REDUCE_SCATTER_BLOCK, 1, 0, 0, 12),
           "0:<H0:24 1:<L1:24 1:reduce:24 2:>H0:24 3:>L1:12");
    expect(member(PZ_COLL_REDUCE_SCATTER_BLOCK, 1, 1, 0, 12), "0:>L0:24 1:<L0:12");
    expect(member(PZ_COLL_REDUCE_SCATTER_BLOCK, 0, 0, 0, 8),
           "0:<H1:24 0:reduce:24 1:<H2:24 1:reduce:24 2:>L0:24 3:<L0:24 4:>H1:8 4:>H2:8");
    instance_balanced(PZ_COLL_REDUCE_SCATTER_BLOCK, 12, 8, 0, 0);
}

/* The others, balanced: Barrier, Scatter both ways, the v-variants, Allgatherv. */
Test(coll_inter, every_operation_is_balanced)
{
    instance_balanced(PZ_COLL_BARRIER, 0, 0, 0, 0);
    instance_balanced(PZ_COLL_SCATTER, 100, 100, 0, 1);
    instance_balanced(PZ_COLL_SCATTER, 1000, 1000, 0, 1);
    instance_balanced(PZ_COLL_GATHERV, 16, 16, 1, 1);
    instance_balanced(PZ_COLL_SCATTERV, 16, 16, 0, 2);
    instance_balanced(PZ_COLL_ALLGATHERV, 16, 16, 0, 0);
    instance_balanced(PZ_COLL_ALLTOALLV, 16, 16, 0, 0);
    instance_balanced(PZ_COLL_REDUCE_SCATTER, 12, 8, 0, 0);
}

/* Every set takes MPICH 4's algorithms on an intercommunicator; Scan is not defined
 * there, and an unknown set has none. */
Test(coll_inter, choice_by_set)
{
    struct pz_coll c = member(PZ_COLL_BARRIER, 1, 0, 0, 0);

    cr_assert_str_eq(pz_coll_choose("mpich1", &c)->name, "bcast");
    cr_assert_str_eq(pz_coll_choose("mpich-1.2.5", &c)->name, "bcast");
    cr_assert_null(pz_coll_choose("openmpi", &c));
    c.op = PZ_COLL_SCAN;
    cr_assert_null(pz_coll_choose("mpich4", &c));
}

/* The block from recorded bytes, P = 3 in the remote group: a Bcast root sent 3 x 100,
 * a receiver got 100; a Gather root received 3 x 100; MPI_PROC_NULL moved nothing; an
 * Allgather member sent its 10 B to each of 3. */
Test(coll_inter, block_from_recorded_bytes)
{
    cr_assert_float_eq(pz_coll_inter_block(PZ_COLL_BCAST, 3, PZ_COLL_ROOT, 300, 0), 100, 1e-12);
    cr_assert_float_eq(pz_coll_inter_block(PZ_COLL_BCAST, 3, 0, 0, 100), 100, 1e-12);
    cr_assert_float_eq(pz_coll_inter_block(PZ_COLL_GATHER, 3, PZ_COLL_ROOT, 0, 300), 100, 1e-12);
    cr_assert_float_eq(pz_coll_inter_block(PZ_COLL_REDUCE, 3, PZ_COLL_PROC_NULL, 0, 0), 0, 1e-12);
    cr_assert_float_eq(pz_coll_inter_block(PZ_COLL_ALLGATHER, 3, 0, 30, 20), 10, 1e-12);
}
