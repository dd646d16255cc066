/* Open MPI 4.1's linear and chain algorithms without segments (ompi/mca/coll/base/
 * coll_base_bcast.c, coll_base_reduce.c, coll_base_allreduce.c, coll_base_gather.c,
 * coll_base_scatter.c, coll_base_allgather(v).c, and coll/basic's Gatherv and
 * Scatterv): the linear Bcast, Reduce, Gather(v) and Scatter(v), the pipeline (a chain
 * of fan-out 1) of Bcast and Reduce, Allreduce as linear Reduce + linear Bcast, and
 * Allgather(v) as a Gather(v) to rank 0 and a Bcast.  The fixed rules pass segment
 * size 0, so a pipeline moves the whole vector in one message per link.  A blocking
 * call is a round; a batch of Isend closed by Waitall is one round. */
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

/* A message of a linear walk: pz_internal_walk_send or pz_internal_walk_recv. */
typedef void walk_message(struct pz_walk *w, int peer, double bytes);

/* The root makes `at_root` with each other rank in rank order, one blocking message a
 * round, and each other rank `at_member` with the root; count(c, r) is rank r's block,
 * and empty blocks of the v-variants are not sent. */
static void linear_rooted(const struct pz_coll *c, struct pz_walk *w, int root,
                          double (*count)(const struct pz_coll *c, int r), int skip_empty,
                          walk_message *at_root, walk_message *at_member)
{
    if (c->me != root) {
        if ((!skip_empty || count(c, c->me) > 0) && pz_internal_walk_round(w))
            at_member(w, root, count(c, c->me));
        return;
    }
    for (int r = 0; r < c->size; r++)
        if (r != root && (!skip_empty || count(c, r) > 0) && pz_internal_walk_round(w))
            at_root(w, r, count(c, r));
}

/* ompi_coll_base_gather_intra_basic_linear and coll/basic's Gatherv: the root receives
 * each other rank's block in rank order; the others send theirs. */
static void linear_gather(const struct pz_coll *c, struct pz_walk *w, int root,
                          double (*count)(const struct pz_coll *c, int r), int skip_empty)
{
    linear_rooted(c, w, root, count, skip_empty, pz_internal_walk_recv,
                  pz_internal_walk_send);
}

/* ompi_coll_base_gather_intra_linear_sync with the rules' first segment size 0 (the
 * whole block first, then an empty second part): the root, for each other rank in
 * order, sends it an empty go-ahead and receives its block (a round each), and last
 * receives all the empty second parts (a round); a rank receives the go-ahead, then
 * sends its block, then the empty part. */
static void gather_linear_sync(const struct pz_coll *c, struct pz_walk *w)
{
    int root = c->root;

    if (c->me != root) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, root, 0);
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, root, c->bytes);
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, root, 0);
        return;
    }
    for (int r = 0; r < c->size; r++)
        if (r != root && pz_internal_walk_round(w)) {
            pz_internal_walk_send(w, r, 0);
            pz_internal_walk_recv(w, r, pz_internal_recv_count(c, r));
        }
    if (pz_internal_walk_round(w))
        for (int r = 0; r < c->size; r++)
            if (r != root)
                pz_internal_walk_recv(w, r, 0);
}

/* The same from the root: it sends each other rank its block in rank order. */
static void linear_scatter(const struct pz_coll *c, struct pz_walk *w, int root,
                           double (*count)(const struct pz_coll *c, int r), int skip_empty)
{
    linear_rooted(c, w, root, count, skip_empty, pz_internal_walk_send,
                  pz_internal_walk_recv);
}

/* A rooted v-operation's blocks: what the root receives from or sends to r (its
 * counts), at the others their own block. */
static double root_count(const struct pz_coll *c, int r)
{
    if (r == c->me)
        return c->bytes;
    return c->op == PZ_COLL_GATHERV ? pz_internal_recv_count(c, r)
                                    : pz_internal_send_count(c, r);
}

static void gather_linear(const struct pz_coll *c, struct pz_walk *w)
{
    linear_gather(c, w, c->root, root_count, c->op == PZ_COLL_GATHERV);
}

static void scatter_linear(const struct pz_coll *c, struct pz_walk *w)
{
    linear_scatter(c, w, c->root, root_count, c->op == PZ_COLL_SCATTERV);
}

/* Allgather(v) by a Gather(v) to rank 0 and a Bcast of all blocks from it
 * (ompi_coll_base_allgather_intra_basic_linear: tuned's Gather and Bcast, as the fixed
 * rules choose them; ompi_coll_base_allgatherv_intra_basic_default: coll/basic's
 * linear Gatherv, then tuned's Bcast). */
static void allgather_gather_bcast(const struct pz_coll *c, struct pz_walk *w)
{
    if (c->op == PZ_COLL_ALLGATHERV)
        linear_gather(c, w, 0, pz_internal_block, 1);
    else
        pz_internal_ompi_walk_chosen(c, w, PZ_COLL_GATHER, c->bytes);
    pz_internal_ompi_walk_chosen(c, w, PZ_COLL_BCAST, pz_internal_total(c));
}

PZ_WALK_ALGO(bcast_linear)
PZ_WALK_ALGO(reduce_linear)
PZ_WALK_ALGO(bcast_pipeline)
PZ_WALK_ALGO(reduce_pipeline)
PZ_WALK_ALGO(allreduce_basic_linear)
PZ_WALK_ALGO(allgather_gather_bcast)
PZ_WALK_ALGO(gather_linear)
PZ_WALK_ALGO(scatter_linear)
PZ_WALK_ALGO(gather_linear_sync)

const struct pz_internal_algo pz_internal_coll_ompi_rooted[] = {
    PZ_WALK_ENTRY("linear", PZ_COLL_BCAST, bcast_linear),
    PZ_WALK_ENTRY("pipeline", PZ_COLL_BCAST, bcast_pipeline),
    PZ_WALK_ENTRY("linear", PZ_COLL_REDUCE, reduce_linear),
    PZ_WALK_ENTRY("pipeline", PZ_COLL_REDUCE, reduce_pipeline),
    PZ_WALK_ENTRY("basic_linear", PZ_COLL_ALLREDUCE, allreduce_basic_linear),
    PZ_WALK_ENTRY("gather_bcast", PZ_COLL_ALLGATHER, allgather_gather_bcast),
    PZ_WALK_ENTRY("gather_bcast", PZ_COLL_ALLGATHERV, allgather_gather_bcast),
    PZ_WALK_ENTRY("ompi_linear", PZ_COLL_GATHER, gather_linear),
    PZ_WALK_ENTRY("ompi_linear", PZ_COLL_GATHERV, gather_linear),
    PZ_WALK_ENTRY("linear_sync", PZ_COLL_GATHER, gather_linear_sync),
    PZ_WALK_ENTRY("ompi_linear", PZ_COLL_SCATTER, scatter_linear),
    PZ_WALK_ENTRY("ompi_linear", PZ_COLL_SCATTERV, scatter_linear),
    { { NULL, 0, NULL, 0 }, NULL },
};
