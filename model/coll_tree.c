/* Binomial trees on ranks relative to the root (MPICH 1.2.x to 4.x), the broadcasts
 * that scatter over such a tree and then allgather, and MPICH 1's compositions of
 * trees (Allreduce as Reduce + Bcast, Reduce_scatter as Reduce + Scatterv).
 *
 * In the tree a member of relative rank r > 0 has the parent r - lowbit(r) and the
 * children r + m for the powers of two m < lowbit(r) (the root: m < P), so its subtree
 * holds min(lowbit(r), P - r) ranks.  Every send and receive is a blocking call in
 * MPICH, hence one round each. */
#include <math.h>

#include "coll_algos.h"

static int lowbit(int r)
{
    return r & -r;
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

/* Receive from the parent, then send to the children, the farthest first. */
void pz_internal_binomial_bcast(const struct pz_coll *c, struct pz_walk *w, int root, double n)
{
    int rel = pz_internal_rel(c, root);
    int mask = pz_internal_pof2_ceil(c->size);

    if (rel) {
        mask = lowbit(rel);
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, pz_internal_abs(c, root, rel - mask), n);
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < c->size && pz_internal_walk_round(w))
            pz_internal_walk_send(w, pz_internal_abs(c, root, rel + mask), n);
}

/* Receive and combine from the children, the nearest first, then send to the parent. */
void pz_internal_binomial_reduce(const struct pz_coll *c, struct pz_walk *w, int root,
                                 double n)
{
    int rel = pz_internal_rel(c, root);

    for (int mask = 1; mask < c->size; mask <<= 1) {
        if (rel & mask) {
            if (pz_internal_walk_round(w))
                pz_internal_walk_send(w, pz_internal_abs(c, root, rel - mask), n);
            return;
        }
        if ((rel | mask) < c->size && pz_internal_walk_round(w)) {
            pz_internal_walk_recv(w, pz_internal_abs(c, root, rel | mask), n);
            pz_internal_walk_reduce(w, n);
        }
    }
}

static void bcast_binomial(const struct pz_coll *c, struct pz_walk *w)
{
    pz_internal_binomial_bcast(c, w, c->root, c->bytes);
}

static void reduce_binomial(const struct pz_coll *c, struct pz_walk *w)
{
    pz_internal_binomial_reduce(c, w, c->root, c->bytes);
}

/* Gather: every member sends its subtree's blocks to its parent. */
static void gather_binomial(const struct pz_coll *c, struct pz_walk *w)
{
    int rel = pz_internal_rel(c, c->root), p = c->size;

    for (int mask = 1; mask < p; mask <<= 1) {
        int src = rel | mask;

        if (rel & mask) {
            if (pz_internal_walk_round(w))
                pz_internal_walk_send(w, pz_internal_abs(c, c->root, rel - mask),
                                      c->bytes * min_int(mask, p - rel));
            return;
        }
        if (src < p && pz_internal_walk_round(w))
            pz_internal_walk_recv(w, pz_internal_abs(c, c->root, src),
                                  c->bytes * min_int(mask, p - src));
    }
}

/* Scatter: the gather reversed, each child gets its subtree's blocks. */
static void scatter_binomial(const struct pz_coll *c, struct pz_walk *w)
{
    int rel = pz_internal_rel(c, c->root), p = c->size;
    int mask = pz_internal_pof2_ceil(p);

    if (rel) {
        mask = lowbit(rel);
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, pz_internal_abs(c, c->root, rel - mask),
                                  c->bytes * min_int(mask, p - rel));
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int dst = rel + mask;

        if (dst < p && pz_internal_walk_round(w))
            pz_internal_walk_send(w, pz_internal_abs(c, c->root, dst),
                                  c->bytes * min_int(mask, p - dst));
    }
}

/* The broadcast buffer cut in P pieces of ceil(n / P) bytes, piece r for relative
 * rank r (the last ones shorter or empty): the bytes of pieces lo .. hi-1. */
static double bcast_pieces(const struct pz_coll *c, int root, int lo, int hi)
{
    double piece = ceil(c->bytes / c->size);
    double b;

    (void)root;
    if (hi > c->size)
        hi = c->size;
    b = fmin(c->bytes, hi * piece) - lo * piece;
    return b > 0 ? b : 0;
}

/* MPICH's scatter for bcast: down the binomial tree each child gets the pieces of its
 * subtree; empty messages are not sent. */
static void bcast_scatter(const struct pz_coll *c, struct pz_walk *w)
{
    int rel = pz_internal_rel(c, c->root);
    int mask = pz_internal_pof2_ceil(c->size);

    if (rel) {
        double b;

        mask = lowbit(rel);
        b = bcast_pieces(c, c->root, rel, rel + mask);
        if (b > 0 && pz_internal_walk_round(w))
            pz_internal_walk_recv(w, pz_internal_abs(c, c->root, rel - mask), b);
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int dst = rel + mask;
        double b = bcast_pieces(c, c->root, dst, dst + mask);

        if (dst < c->size && b > 0 && pz_internal_walk_round(w))
            pz_internal_walk_send(w, pz_internal_abs(c, c->root, dst), b);
    }
}

static void bcast_scatter_rd(const struct pz_coll *c, struct pz_walk *w)
{
    bcast_scatter(c, w);
    pz_internal_rd_fixup(c, w, c->root, bcast_pieces, PZ_RD_COPY);
}

static void bcast_scatter_ring(const struct pz_coll *c, struct pz_walk *w)
{
    bcast_scatter(c, w);
    pz_internal_ring_allgather(c, w, c->root, bcast_pieces);
}

/* MPICH 1: reduce to rank 0, then broadcast from it. */
static void allreduce_reduce_bcast(const struct pz_coll *c, struct pz_walk *w)
{
    pz_internal_binomial_reduce(c, w, 0, c->bytes);
    pz_internal_binomial_bcast(c, w, 0, c->bytes);
}

/* MPICH 1: reduce the whole vector to rank 0, then Scatterv its blocks. */
static void reduce_scatterv(const struct pz_coll *c, struct pz_walk *w)
{
    pz_internal_binomial_reduce(c, w, 0, pz_internal_total(c));
    pz_internal_linear_scatterv(c, w, 0, pz_internal_block);
}

PZ_WALK_ALGO(bcast_binomial)
PZ_WALK_ALGO(reduce_binomial)
PZ_WALK_ALGO(gather_binomial)
PZ_WALK_ALGO(scatter_binomial)
PZ_WALK_ALGO(bcast_scatter_rd)
PZ_WALK_ALGO(bcast_scatter_ring)
PZ_WALK_ALGO(allreduce_reduce_bcast)
PZ_WALK_ALGO(reduce_scatterv)

const struct pz_internal_algo pz_internal_coll_tree[] = {
    PZ_WALK_ENTRY("binomial", PZ_COLL_BCAST, bcast_binomial),
    PZ_WALK_ENTRY("scatter_recursive_doubling_allgather", PZ_COLL_BCAST, bcast_scatter_rd),
    PZ_WALK_ENTRY("scatter_ring_allgather", PZ_COLL_BCAST, bcast_scatter_ring),
    PZ_WALK_ENTRY("binomial", PZ_COLL_GATHER, gather_binomial),
    PZ_WALK_ENTRY("binomial", PZ_COLL_SCATTER, scatter_binomial),
    PZ_WALK_ENTRY("binomial", PZ_COLL_REDUCE, reduce_binomial),
    PZ_WALK_ENTRY("reduce_bcast", PZ_COLL_ALLREDUCE, allreduce_reduce_bcast),
    PZ_WALK_ENTRY("reduce_scatterv", PZ_COLL_REDUCE_SCATTER, reduce_scatterv),
    PZ_WALK_ENTRY("reduce_scatterv", PZ_COLL_REDUCE_SCATTER_BLOCK, reduce_scatterv),
    { { NULL, 0, NULL, 0 }, NULL },
};
