/* Collectives on intercommunicators as MPICH 4 runs them (src/mpi/coll/OP/OP_inter_*.c,
 * and gatherv/scatterv_allcomm_linear.c): messages between the two groups and
 * collectives on the member's own group (MPICH's comm_ptr->local_comm), walked one after
 * the other.  The local collectives are MPICH 4's choice for an intracommunicator of the
 * group's size (coll.c), rooted at rank 0.  A peer in the remote group is c->size + its
 * rank (coll.h); docs/collectives.md gives the MPICH source of each algorithm. */
#include "coll_algos.h"

/* Below this many bytes in the group that is not the root's, MPICH 4 gathers and
 * scatters through rank 0 of that group (maint/tuning/coll/mpir/generic.json). */
#define INTER_SHORT_MSG 2048.0

static int remote(const struct pz_coll *c, int rank)
{
    return c->size + rank;
}

/* What me sends to / receives from rank r of the remote group. */
static double remote_send(const struct pz_coll *c, int r)
{
    return c->send_counts ? c->send_counts[r] : c->bytes;
}

static double remote_recv(const struct pz_coll *c, int r)
{
    return c->recv_counts ? c->recv_counts[r] : c->bytes;
}

/* The root of a rooted step that member 0 of its group leads: MPI_ROOT there,
 * MPI_PROC_NULL at the others. */
static int led_by_rank0(const struct pz_coll *c)
{
    return c->me == 0 ? PZ_COLL_ROOT : PZ_COLL_PROC_NULL;
}

/* MPICH 4's algorithm for op on the local group, rooted at its rank 0, block n. */
static void local_walk(const struct pz_coll *c, struct pz_walk *w, enum pz_coll_op op,
                       double n)
{
    struct pz_coll local = { .op = op, .size = c->size, .me = c->me, .root = 0, .bytes = n };

    if (c->size > 1)
        pz_internal_walk_of(pz_coll_choose("mpich4", &local))(&local, w);
}

/* MPIR_Bcast_inter_remote_send_local_bcast, root as in struct pz_coll: the root sends
 * to rank 0 of the other group, which broadcasts in its group.  A Bcast of 0 bytes
 * does nothing. */
static void inter_bcast(const struct pz_coll *c, struct pz_walk *w, int root, double n)
{
    if (n <= 0 || root == PZ_COLL_PROC_NULL)
        return;
    if (root == PZ_COLL_ROOT) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, remote(c, 0), n);
        return;
    }
    if (c->me == 0 && pz_internal_walk_round(w))
        pz_internal_walk_recv(w, remote(c, root), n);
    local_walk(c, w, PZ_COLL_BCAST, n);
}

/* MPIR_Reduce_inter_local_reduce_remote_send: the other group reduces to its rank 0,
 * which sends the result to the root. */
static void inter_reduce(const struct pz_coll *c, struct pz_walk *w, int root, double n)
{
    if (root == PZ_COLL_PROC_NULL)
        return;
    if (root == PZ_COLL_ROOT) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, remote(c, 0), n);
        return;
    }
    local_walk(c, w, PZ_COLL_REDUCE, n);
    if (c->me == 0 && pz_internal_walk_round(w))
        pz_internal_walk_send(w, remote(c, root), n);
}

/* MPIR_Gatherv_allcomm_linear: the root posts a receive from every member of the other
 * group with a block, they send theirs (blocks of 0 bytes are not sent). */
static void inter_gatherv(const struct pz_coll *c, struct pz_walk *w, int root)
{
    if (root == PZ_COLL_PROC_NULL)
        return;
    if (root != PZ_COLL_ROOT) {
        if (c->bytes > 0 && pz_internal_walk_round(w))
            pz_internal_walk_send(w, remote(c, root), c->bytes);
        return;
    }
    if (!pz_internal_walk_round(w))
        return;
    for (int r = 0; r < c->remote_size; r++)
        if (remote_recv(c, r) > 0)
            pz_internal_walk_recv(w, remote(c, r), remote_recv(c, r));
}

/* The bytes of a Gather or Scatter that MPICH 4 compares with INTER_SHORT_MSG: the
 * blocks of the group that is not the root's. */
static double rooted_total(const struct pz_coll *c)
{
    return c->bytes * (c->root == PZ_COLL_ROOT ? c->remote_size : c->size);
}

static void barrier_bcast(const struct pz_coll *c, struct pz_walk *w)
{
    local_walk(c, w, PZ_COLL_BARRIER, 0);
    if (c->low) {
        inter_bcast(c, w, led_by_rank0(c), 1);
        inter_bcast(c, w, 0, 1);
    } else {
        inter_bcast(c, w, 0, 1);
        inter_bcast(c, w, led_by_rank0(c), 1);
    }
}

static void bcast_remote_send_local_bcast(const struct pz_coll *c, struct pz_walk *w)
{
    inter_bcast(c, w, c->root, c->bytes);
}

static void reduce_local_reduce_remote_send(const struct pz_coll *c, struct pz_walk *w)
{
    inter_reduce(c, w, c->root, c->bytes);
}

/* Reduce to rank 0 in each group, rank 0s exchange (Sendrecv), Bcast in each group. */
static void allreduce_reduce_exchange_bcast(const struct pz_coll *c, struct pz_walk *w)
{
    local_walk(c, w, PZ_COLL_REDUCE, c->bytes);
    if (c->me == 0 && pz_internal_walk_round(w)) {
        pz_internal_walk_send(w, remote(c, 0), c->bytes);
        pz_internal_walk_recv(w, remote(c, 0), c->bytes);
    }
    if (c->bytes > 0)
        local_walk(c, w, PZ_COLL_BCAST, c->bytes);
}

/* The other group gathers to its rank 0, which sends it all to the root. */
static void gather_local_gather_remote_send(const struct pz_coll *c, struct pz_walk *w)
{
    if (c->root == PZ_COLL_PROC_NULL)
        return;
    if (c->root == PZ_COLL_ROOT) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, remote(c, 0), c->bytes * c->remote_size);
        return;
    }
    local_walk(c, w, PZ_COLL_GATHER, c->bytes);
    if (c->me == 0 && pz_internal_walk_round(w))
        pz_internal_walk_send(w, remote(c, c->root), c->bytes * c->size);
}

/* The root receives from each member of the other group in turn (blocking receives,
 * one round each); they send to it. */
static void gather_linear(const struct pz_coll *c, struct pz_walk *w)
{
    if (c->root == PZ_COLL_PROC_NULL)
        return;
    if (c->root != PZ_COLL_ROOT) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, remote(c, c->root), c->bytes);
        return;
    }
    for (int r = 0; r < c->remote_size; r++)
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, remote(c, r), c->bytes);
}

static void gatherv_linear(const struct pz_coll *c, struct pz_walk *w)
{
    inter_gatherv(c, w, c->root);
}

/* The root sends it all to rank 0 of the other group, which scatters it there. */
static void scatter_remote_send_local_scatter(const struct pz_coll *c, struct pz_walk *w)
{
    if (c->root == PZ_COLL_PROC_NULL)
        return;
    if (c->root == PZ_COLL_ROOT) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, remote(c, 0), c->bytes * c->remote_size);
        return;
    }
    if (c->me == 0 && pz_internal_walk_round(w))
        pz_internal_walk_recv(w, remote(c, c->root), c->bytes * c->size);
    local_walk(c, w, PZ_COLL_SCATTER, c->bytes);
}

/* The root sends to each member of the other group in turn (blocking sends, one round
 * each); they receive from it. */
static void scatter_linear(const struct pz_coll *c, struct pz_walk *w)
{
    if (c->root == PZ_COLL_PROC_NULL)
        return;
    if (c->root != PZ_COLL_ROOT) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, remote(c, c->root), c->bytes);
        return;
    }
    for (int r = 0; r < c->remote_size; r++)
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, remote(c, r), c->bytes);
}

/* MPIR_Scatterv_allcomm_linear: Isend to every member of the other group with a block,
 * then Waitall; each receives its block, if it has one. */
static void scatterv_linear(const struct pz_coll *c, struct pz_walk *w)
{
    if (c->root == PZ_COLL_PROC_NULL)
        return;
    if (c->root != PZ_COLL_ROOT) {
        if (c->bytes > 0 && pz_internal_walk_round(w))
            pz_internal_walk_recv(w, remote(c, c->root), c->bytes);
        return;
    }
    if (!pz_internal_walk_round(w))
        return;
    for (int r = 0; r < c->remote_size; r++)
        if (remote_send(c, r) > 0)
            pz_internal_walk_send(w, remote(c, r), remote_send(c, r));
}

/* Gather to rank 0 in each group, then an intercommunicator Bcast of the group's
 * blocks from the low group to the high one, and back. */
static void allgather_local_gather_remote_bcast(const struct pz_coll *c, struct pz_walk *w)
{
    double mine = c->bytes * c->size, theirs = c->bytes * c->remote_size;

    if (c->bytes > 0)
        local_walk(c, w, PZ_COLL_GATHER, c->bytes);
    if (c->low) {
        inter_bcast(c, w, led_by_rank0(c), mine);
        inter_bcast(c, w, 0, theirs);
    } else {
        inter_bcast(c, w, 0, theirs);
        inter_bcast(c, w, led_by_rank0(c), mine);
    }
}

/* An intercommunicator Gatherv to rank 0 of the low group, then of the high group, then
 * a Bcast in each group of the blocks its rank 0 received. */
static void allgatherv_remote_gather_local_bcast(const struct pz_coll *c, struct pz_walk *w)
{
    double theirs = 0;

    for (int r = 0; r < c->remote_size; r++)
        theirs += remote_recv(c, r);
    if (c->low) {
        inter_gatherv(c, w, led_by_rank0(c));
        inter_gatherv(c, w, 0);
    } else {
        inter_gatherv(c, w, 0);
        inter_gatherv(c, w, led_by_rank0(c));
    }
    if (theirs > 0)
        local_walk(c, w, PZ_COLL_BCAST, theirs);
}

/* max(P_local, P_remote) Sendrecv steps: at step i, send to remote rank me + i and
 * receive from remote rank me - i (mod the larger size), where those ranks exist. */
static void alltoall_pairwise_exchange(const struct pz_coll *c, struct pz_walk *w)
{
    int max = c->size > c->remote_size ? c->size : c->remote_size;
    int i = pz_internal_walk_rounds(w, max);
    int src, dst;

    if (i < 0)
        return;
    src = (c->me - i + max) % max;
    dst = (c->me + i) % max;
    if (dst < c->remote_size)
        pz_internal_walk_send(w, remote(c, dst), remote_send(c, dst));
    if (src < c->remote_size)
        pz_internal_walk_recv(w, remote(c, src), remote_recv(c, src));
}

/* An intercommunicator Reduce of the whole vector (the group's blocks, n each) to rank 0
 * of the low group, then of the high group, then a Scatterv in each group from its
 * rank 0. */
static void reduce_scatter_remote_reduce_local_scatter(const struct pz_coll *c,
                                                       struct pz_walk *w)
{
    double total = c->bytes * c->size;

    if (c->low) {
        inter_reduce(c, w, led_by_rank0(c), total);
        inter_reduce(c, w, 0, total);
    } else {
        inter_reduce(c, w, 0, total);
        inter_reduce(c, w, led_by_rank0(c), total);
    }
    local_walk(c, w, PZ_COLL_SCATTERV, c->bytes);
}

PZ_WALK_ALGO(barrier_bcast)
PZ_WALK_ALGO(bcast_remote_send_local_bcast)
PZ_WALK_ALGO(reduce_local_reduce_remote_send)
PZ_WALK_ALGO(allreduce_reduce_exchange_bcast)
PZ_WALK_ALGO(gather_local_gather_remote_send)
PZ_WALK_ALGO(gather_linear)
PZ_WALK_ALGO(gatherv_linear)
PZ_WALK_ALGO(scatter_remote_send_local_scatter)
PZ_WALK_ALGO(scatter_linear)
PZ_WALK_ALGO(scatterv_linear)
PZ_WALK_ALGO(allgather_local_gather_remote_bcast)
PZ_WALK_ALGO(allgatherv_remote_gather_local_bcast)
PZ_WALK_ALGO(alltoall_pairwise_exchange)
PZ_WALK_ALGO(reduce_scatter_remote_reduce_local_scatter)

/* The one algorithm of each operation, by operation; Gather and Scatter have a second
 * one for larger messages (long_gather, long_scatter). */
static const struct pz_internal_algo by_op[PZ_COLL_NOPS] = {
    [PZ_COLL_BARRIER] = PZ_WALK_ENTRY("bcast", PZ_COLL_BARRIER, barrier_bcast),
    [PZ_COLL_BCAST] = PZ_WALK_ENTRY("remote_send_local_bcast", PZ_COLL_BCAST,
                                    bcast_remote_send_local_bcast),
    [PZ_COLL_GATHER] = PZ_WALK_ENTRY("local_gather_remote_send", PZ_COLL_GATHER,
                                     gather_local_gather_remote_send),
    [PZ_COLL_GATHERV] = PZ_WALK_ENTRY("linear", PZ_COLL_GATHERV, gatherv_linear),
    [PZ_COLL_SCATTER] = PZ_WALK_ENTRY("remote_send_local_scatter", PZ_COLL_SCATTER,
                                      scatter_remote_send_local_scatter),
    [PZ_COLL_SCATTERV] = PZ_WALK_ENTRY("linear", PZ_COLL_SCATTERV, scatterv_linear),
    [PZ_COLL_ALLGATHER] = PZ_WALK_ENTRY("local_gather_remote_bcast", PZ_COLL_ALLGATHER,
                                        allgather_local_gather_remote_bcast),
    [PZ_COLL_ALLGATHERV] = PZ_WALK_ENTRY("remote_gather_local_bcast", PZ_COLL_ALLGATHERV,
                                         allgatherv_remote_gather_local_bcast),
    [PZ_COLL_ALLTOALL] = PZ_WALK_ENTRY("pairwise_exchange", PZ_COLL_ALLTOALL,
                                       alltoall_pairwise_exchange),
    [PZ_COLL_ALLTOALLV] = PZ_WALK_ENTRY("pairwise_exchange", PZ_COLL_ALLTOALLV,
                                        alltoall_pairwise_exchange),
    [PZ_COLL_REDUCE] = PZ_WALK_ENTRY("local_reduce_remote_send", PZ_COLL_REDUCE,
                                     reduce_local_reduce_remote_send),
    [PZ_COLL_ALLREDUCE] = PZ_WALK_ENTRY("reduce_exchange_bcast", PZ_COLL_ALLREDUCE,
                                        allreduce_reduce_exchange_bcast),
    [PZ_COLL_REDUCE_SCATTER] = PZ_WALK_ENTRY("remote_reduce_local_scatter",
                                             PZ_COLL_REDUCE_SCATTER,
                                             reduce_scatter_remote_reduce_local_scatter),
    [PZ_COLL_REDUCE_SCATTER_BLOCK] = PZ_WALK_ENTRY("remote_reduce_local_scatter",
                                                   PZ_COLL_REDUCE_SCATTER_BLOCK,
                                                   reduce_scatter_remote_reduce_local_scatter),
};

static const struct pz_internal_algo long_gather =
    PZ_WALK_ENTRY("linear", PZ_COLL_GATHER, gather_linear);
static const struct pz_internal_algo long_scatter =
    PZ_WALK_ENTRY("linear", PZ_COLL_SCATTER, scatter_linear);

const struct pz_coll_algo *pz_internal_inter_choose(const struct pz_coll *c)
{
    int long_msg = rooted_total(c) >= INTER_SHORT_MSG;

    if (c->op == PZ_COLL_GATHER && long_msg)
        return &long_gather.algo;
    if (c->op == PZ_COLL_SCATTER && long_msg)
        return &long_scatter.algo;
    return by_op[c->op].algo.name ? &by_op[c->op].algo : NULL;
}

double pz_coll_inter_block(enum pz_coll_op op, int remote_size, int root, double sent,
                           double received)
{
    if (remote_size <= 0 || root == PZ_COLL_PROC_NULL)
        return 0;
    switch (op) {
    case PZ_COLL_BARRIER:
        return 0;
    case PZ_COLL_BCAST: case PZ_COLL_SCATTER: case PZ_COLL_SCATTERV:
        return root == PZ_COLL_ROOT ? sent / remote_size : received;
    case PZ_COLL_GATHER: case PZ_COLL_GATHERV: case PZ_COLL_REDUCE:
        return root == PZ_COLL_ROOT ? received / remote_size : sent;
    case PZ_COLL_ALLREDUCE:
        return sent > received ? sent : received;
    default:   /* Allgather(v), Alltoall(v), Reduce_scatter(_block): the recorder gives a
                  member of an intercommunicator's Reduce_scatter no bytes received */
        return sent / remote_size;
    }
}
