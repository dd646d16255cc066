/* Open MPI 4.1's rooted algorithms without segments (ompi/mca/coll/base/
 * coll_base_bcast.c, coll_base_reduce.c, coll_base_allreduce.c,
 * coll_base_allgatherv.c): the linear Bcast and Reduce, the pipeline (a chain of
 * fan-out 1) of both, Allreduce as linear Reduce + linear Bcast, and Allgather(v) as a
 * Gather(v) to rank 0 and a Bcast.  The fixed rules pass segment size 0, so a pipeline
 * moves the whole vector in one message per link.  A blocking call is a round; a
 * batch of Isend closed by Waitall is one round. */
#include "coll_algos.h"

/* The root sends n to every other rank (0, 1 ... in order) in one batch; the others
 * receive it. */
static void linear_bcast(const struct pz_coll *c, struct pz_walk *w, int root, double n)
{
    if (!pz_internal_walk_round(w))
        return;
    if (c->me != root) {
        pz_internal_walk_recv(w, root, n);
        return;
    }
    for (int r = 0; r < c->size; r++)
        if (r != root)
            pz_internal_walk_send(w, r, n);
}

/* ompi_coll_base_reduce_intra_basic_linear: the root receives from rank P - 1 into its
 * result, then from P - 2 down to 0, combining each, one blocking receive a round; its
 * own vector is combined too (counted with the last round): P - 1 combinations in
 * all.  The others send their vector. */
static void linear_reduce(const struct pz_coll *c, struct pz_walk *w, int root, double n)
{
    int first = 1;

    if (c->me != root) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, root, n);
        return;
    }
    for (int r = c->size - 1; r >= 0; r--) {
        if (r == root)
            continue;
        if (pz_internal_walk_round(w)) {
            pz_internal_walk_recv(w, r, n);
            if (!first)
                pz_internal_walk_reduce(w, n);
            if (r == (root == 0 ? 1 : 0))
                pz_internal_walk_reduce(w, n);
        }
        first = 0;
    }
}

static void bcast_linear(const struct pz_coll *c, struct pz_walk *w)
{
    linear_bcast(c, w, c->root, c->bytes);
}

static void reduce_linear(const struct pz_coll *c, struct pz_walk *w)
{
    linear_reduce(c, w, c->root, c->bytes);
}

/* The chain root, root + 1 ... : receive from the previous rank, send to the next. */
static void bcast_pipeline(const struct pz_coll *c, struct pz_walk *w)
{
    int rel = pz_internal_rel(c, c->root);

    if (rel > 0 && pz_internal_walk_round(w))
        pz_internal_walk_recv(w, pz_internal_abs(c, c->root, rel - 1), c->bytes);
    if (rel < c->size - 1 && pz_internal_walk_round(w))
        pz_internal_walk_send(w, pz_internal_abs(c, c->root, rel + 1), c->bytes);
}

/* The same chain upwards: receive from the next rank and combine, send to the previous. */
static void reduce_pipeline(const struct pz_coll *c, struct pz_walk *w)
{
    int rel = pz_internal_rel(c, c->root);

    if (rel < c->size - 1 && pz_internal_walk_round(w)) {
        pz_internal_walk_recv(w, pz_internal_abs(c, c->root, rel + 1), c->bytes);
        pz_internal_walk_reduce(w, c->bytes);
    }
    if (rel > 0 && pz_internal_walk_round(w))
        pz_internal_walk_send(w, pz_internal_abs(c, c->root, rel - 1), c->bytes);
}

/* ompi_coll_base_allreduce_intra_basic_linear: linear Reduce to 0, linear Bcast from 0. */
static void allreduce_basic_linear(const struct pz_coll *c, struct pz_walk *w)
{
    linear_reduce(c, w, 0, c->bytes);
    linear_bcast(c, w, 0, c->bytes);
}

/* Allgather(v) by Gather(v) to rank 0 (every block received in one round) and a
 * binomial Bcast of all blocks from it. */
static void allgather_gather_bcast(const struct pz_coll *c, struct pz_walk *w)
{
    if (pz_internal_walk_round(w)) {
        if (c->me != 0 && pz_internal_block(c, c->me) > 0)
            pz_internal_walk_send(w, 0, pz_internal_block(c, c->me));
        for (int r = 1; c->me == 0 && r < c->size; r++)
            if (pz_internal_block(c, r) > 0)
                pz_internal_walk_recv(w, r, pz_internal_block(c, r));
    }
    pz_internal_binomial_bcast(c, w, 0, pz_internal_total(c));
}

PZ_WALK_ALGO(bcast_linear)
PZ_WALK_ALGO(reduce_linear)
PZ_WALK_ALGO(bcast_pipeline)
PZ_WALK_ALGO(reduce_pipeline)
PZ_WALK_ALGO(allreduce_basic_linear)
PZ_WALK_ALGO(allgather_gather_bcast)

const struct pz_internal_algo pz_internal_coll_ompi_rooted[] = {
    PZ_WALK_ENTRY("linear", PZ_COLL_BCAST, bcast_linear),
    PZ_WALK_ENTRY("pipeline", PZ_COLL_BCAST, bcast_pipeline),
    PZ_WALK_ENTRY("linear", PZ_COLL_REDUCE, reduce_linear),
    PZ_WALK_ENTRY("pipeline", PZ_COLL_REDUCE, reduce_pipeline),
    PZ_WALK_ENTRY("basic_linear", PZ_COLL_ALLREDUCE, allreduce_basic_linear),
    PZ_WALK_ENTRY("gather_bcast", PZ_COLL_ALLGATHER, allgather_gather_bcast),
    PZ_WALK_ENTRY("gather_bcast", PZ_COLL_ALLGATHERV, allgather_gather_bcast),
    { { NULL, 0, NULL, 0 }, NULL },
};
