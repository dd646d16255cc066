/* Open MPI 4.1's Rabenseifner Allreduce and Reduce (ompi/mca/coll/base/
 * coll_base_allreduce.c, ompi_coll_base_allreduce_intra_redscat_allgather;
 * coll_base_reduce.c, ompi_coll_base_reduce_intra_redscat_gather).
 *
 * Both fold the first 2 rem ranks (rem = P - pof2) by halves: each pair swaps halves
 * (the even rank keeps the low count / 2 elements), combines, and the odd one sends
 * its combined half to the even one, which goes on as new rank rank / 2 (MPICH folds
 * whole vectors, the other way round).  Then recursive halving at distances 1, 2 ...
 * pof2/2: the lower rank of a pair keeps the window's first wsize / 2 elements.
 * Counts are of whole elements (pz_internal_ompi_element_bytes); fewer elements than
 * pof2: the linear algorithm, as Open MPI falls back to it. */
#include <math.h>

#include "coll_algos.h"

#define MAX_STEPS 32

/* A member's halving: the elements it received (and kept) and sent at each step. */
struct halves {
    double e;                    /* bytes of an element */
    long long count;
    int pof2, rem, vrank, steps;
    long long got[MAX_STEPS], sent[MAX_STEPS];
};

/* The rank of new rank v: the even ranks below 2 rem stay. */
static int unfold_even(int v, int rem)
{
    return v < rem ? 2 * v : v + rem;
}

static void init_halves(const struct pz_coll *c, struct halves *h)
{
    h->e = pz_internal_ompi_element_bytes(c->bytes);
    h->count = (long long)floor(c->bytes / h->e);
    h->pof2 = pz_internal_pof2_floor(c->size);
    h->rem = c->size - h->pof2;
    h->steps = 0;
}

/* The fold by halves; the member's new rank in h->vrank, -1 for the odd ones. */
static void fold_halves(const struct pz_coll *c, struct pz_walk *w, struct halves *h)
{
    double lo = (double)(h->count / 2) * h->e, hi = (double)(h->count - h->count / 2) * h->e;
    int me = c->me;

    h->vrank = me >= 2 * h->rem ? me - h->rem : me % 2 ? -1 : me / 2;
    if (me >= 2 * h->rem)
        return;
    if (pz_internal_walk_round(w)) {
        pz_internal_walk_send(w, me ^ 1, me % 2 ? lo : hi);
        pz_internal_walk_recv(w, me ^ 1, me % 2 ? hi : lo);
        pz_internal_walk_reduce(w, me % 2 ? hi : lo);
    }
    if (pz_internal_walk_round(w)) {
        if (me % 2)
            pz_internal_walk_send(w, me - 1, hi);
        else
            pz_internal_walk_recv(w, me + 1, hi);
    }
}

/* Recursive halving of new rank h->vrank (>= 0), filling h->got and h->sent. */
static void halve(const struct pz_coll *c, struct pz_walk *w, struct halves *h)
{
    long long wsize = h->count;

    for (int mask = 1; mask < h->pof2; mask <<= 1, h->steps++) {
        int dest = unfold_even(h->vrank ^ mask, h->rem), k = h->steps;

        h->got[k] = c->me < dest ? wsize / 2 : wsize - wsize / 2;
        h->sent[k] = wsize - h->got[k];
        if (pz_internal_walk_round(w)) {
            pz_internal_walk_send(w, dest, (double)h->sent[k] * h->e);
            pz_internal_walk_recv(w, dest, (double)h->got[k] * h->e);
            pz_internal_walk_reduce(w, (double)h->got[k] * h->e);
        }
        wsize = h->got[k];
    }
}

static void walk_named(const struct pz_coll *c, struct pz_walk *w, const char *name)
{
    pz_internal_walk_of(pz_coll_named(c->op, name))(c, w);
}

/* Allreduce: the fold, the halving, the allgather back at distances pof2/2 ... 1 (each
 * sends what it kept, receives what it gave), and the even ranks below 2 rem send the
 * odd ones the whole result. */
static void allreduce_rabenseifner(const struct pz_coll *c, struct pz_walk *w)
{
    struct halves h;

    init_halves(c, &h);
    if (h.count < h.pof2) {
        walk_named(c, w, "basic_linear");
        return;
    }
    fold_halves(c, w, &h);
    if (h.vrank >= 0)
        halve(c, w, &h);
    for (int mask = h.pof2 >> 1, k = h.steps - 1; h.vrank >= 0 && mask > 0; mask >>= 1, k--)
        if (pz_internal_walk_round(w)) {
            int dest = unfold_even(h.vrank ^ mask, h.rem);

            pz_internal_walk_send(w, dest, (double)h.got[k] * h.e);
            pz_internal_walk_recv(w, dest, (double)h.sent[k] * h.e);
        }
    if (c->me < 2 * h.rem && pz_internal_walk_round(w)) {
        if (c->me % 2)
            pz_internal_walk_recv(w, c->me - 1, c->bytes);
        else
            pz_internal_walk_send(w, c->me + 1, c->bytes);
    }
}

/* An odd root below 2 rem was folded away: rank 0 (new rank 0) sends it the block it
 * ended with and leaves; the root, whose counts are new rank 0's (always the lower
 * halves), gathers in its place.  Returns the member's new rank for the gather. */
static int odd_root_takes_over(const struct pz_coll *c, struct pz_walk *w, struct halves *h)
{
    long long wsize = h->count;
    int last = h->steps - 1;

    if (c->me == c->root) {
        for (int mask = 1; mask < h->pof2; mask <<= 1, h->steps++) {
            h->got[h->steps] = wsize / 2;
            h->sent[h->steps] = wsize - wsize / 2;
            wsize /= 2;
        }
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, 0, (double)h->got[h->steps - 1] * h->e);
        return 0;
    }
    if (h->vrank != 0)
        return h->vrank;
    if (pz_internal_walk_round(w))
        pz_internal_walk_send(w, c->root, (double)h->got[last] * h->e);
    return -1;
}

/* Reduce: the fold, the halving, then a binomial gather of the blocks to the root's
 * new rank at distances pof2/2 ... 1: a member whose partner is in the root's half
 * sends it what it holds and is done, the other receives the partner's part. */
static void reduce_rabenseifner(const struct pz_coll *c, struct pz_walk *w)
{
    struct halves h;
    int odd_root, vroot, v;

    init_halves(c, &h);
    if (h.count < h.pof2 || h.pof2 < 2) {
        walk_named(c, w, "linear");
        return;
    }
    fold_halves(c, w, &h);
    if (h.vrank >= 0)
        halve(c, w, &h);
    odd_root = c->root < 2 * h.rem && c->root % 2;
    vroot = c->root >= 2 * h.rem ? c->root - h.rem : c->root / 2 * !odd_root;
    v = odd_root ? odd_root_takes_over(c, w, &h) : h.vrank;
    for (int mask = h.pof2 >> 1, k = h.steps - 1; v >= 0 && mask > 0; mask >>= 1, k--) {
        int vdest = v ^ mask, dest = unfold_even(vdest, h.rem);

        if (vdest == 0 && odd_root)
            dest = c->root;
        if (vdest / mask == vroot / mask) {
            if (pz_internal_walk_round(w))
                pz_internal_walk_send(w, dest, (double)h.got[k] * h.e);
            return;
        }
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, dest, (double)h.sent[k] * h.e);
    }
}

PZ_WALK_ALGO(allreduce_rabenseifner)
PZ_WALK_ALGO(reduce_rabenseifner)

const struct pz_internal_algo pz_internal_coll_ompi_rabenseifner[] = {
    PZ_WALK_ENTRY("ompi_rabenseifner", PZ_COLL_ALLREDUCE, allreduce_rabenseifner),
    PZ_WALK_ENTRY("ompi_rabenseifner", PZ_COLL_REDUCE, reduce_rabenseifner),
    { { NULL, 0, NULL, 0 }, NULL },
};
