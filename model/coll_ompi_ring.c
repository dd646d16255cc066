/* Open MPI 4.1's reductions that cut the vector into blocks of whole elements
 * (ompi/mca/coll/base/coll_base_allreduce.c, coll_base_reduce_scatter.c): Allreduce by
 * a ring and by Rabenseifner's algorithm, Reduce_scatter by a ring.
 *
 * The trace records bytes, not counts: an element is taken as 8 bytes when 8 divides
 * n, else as the largest of 4, 2 and 1 that does (coll_ompi_element_bytes).  Open MPI
 * posts the ring's receive one step ahead (Irecv, then a blocking Send); here a step
 * is one round with its send and its receive, as an MPI_Sendrecv. */
#include <math.h>

#include "coll_algos.h"

double pz_internal_ompi_element_bytes(double n)
{
    double e = 8;

    while (e > 1 && fmod(n, e) != 0)
        e /= 2;
    return e;
}

/* Elements of an n-byte vector. */
static long long elements(double n)
{
    return (long long)floor(n / pz_internal_ompi_element_bytes(n));
}

/* Bytes of block b of P (COLL_BASE_COMPUTE_BLOCKCOUNT): the first count mod P blocks
 * have one element more. */
static double ring_block(double n, int p, int b)
{
    long long count = elements(n), late = count / p;
    long long early = count % p ? late + 1 : late;

    return (b < count % p ? early : late) * pz_internal_ompi_element_bytes(n);
}

static void walk_named(const struct pz_coll *c, struct pz_walk *w, const char *name)
{
    pz_internal_walk_of(pz_coll_named(c->op, name))(c, w);
}

/* Reduce-scatter then allgather around the ring: in step i < P - 1 send block me - i
 * to me + 1, receive block me - i - 1 from me - 1 and combine it; in step P - 1 + k
 * send block me + 1 - k, receive block me - k.  Fewer elements than members:
 * recursive doubling, as Open MPI falls back to it. */
static void allreduce_ring(const struct pz_coll *c, struct pz_walk *w)
{
    int p = c->size, me = c->me, i;
    double n = c->bytes;

    if (elements(n) < p) {
        walk_named(c, w, "recursive_doubling");
        return;
    }
    i = pz_internal_walk_rounds(w, 2 * (p - 1));
    if (i < 0)
        return;
    if (i < p - 1) {
        double got = ring_block(n, p, ((me - i - 1) % p + p) % p);

        pz_internal_walk_send(w, (me + 1) % p, ring_block(n, p, ((me - i) % p + p) % p));
        pz_internal_walk_recv(w, (me - 1 + p) % p, got);
        pz_internal_walk_reduce(w, got);
        return;
    }
    i -= p - 1;
    pz_internal_walk_send(w, (me + 1) % p, ring_block(n, p, ((me + 1 - i) % p + p) % p));
    pz_internal_walk_recv(w, (me - 1 + p) % p, ring_block(n, p, ((me - i) % p + p) % p));
}

/* The rank of new rank v among the power of two after Open MPI's fold (even ranks
 * below 2 rem stay). */
static int unfold_even(int v, int rem)
{
    return v < rem ? 2 * v : v + rem;
}

/* The fold of the first 2 rem ranks: each pair exchanges halves (even keeps the low
 * count / 2 elements, odd the rest) and combines, then the odd one sends the even one
 * its combined half.  Returns the new rank, -1 for the odd ones. */
static int fold_halves(const struct pz_coll *c, struct pz_walk *w, int rem, double e,
                       long long count)
{
    double lo = (double)(count / 2) * e, hi = (double)(count - count / 2) * e;
    int me = c->me;

    if (me >= 2 * rem)
        return me - rem;
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
    return me % 2 ? -1 : me / 2;
}

/* Open MPI's ompi_coll_base_allreduce_intra_redscat_allgather: the fold above;
 * reduce-scatter by recursive halving at distances 1, 2 ... pof2/2 (the lower rank of a
 * pair keeps the window's first wsize / 2 elements); allgather back at distances
 * pof2/2 ... 1; the even ranks below 2 rem send the odd ones the whole result.  Fewer
 * elements than pof2: basic_linear, as Open MPI falls back to it. */
static void allreduce_rabenseifner(const struct pz_coll *c, struct pz_walk *w)
{
    int pof2 = pz_internal_pof2_floor(c->size), rem = c->size - pof2, step = 0;
    double e = pz_internal_ompi_element_bytes(c->bytes);
    long long count = elements(c->bytes), wsize = count, sent[32], got[32];
    int vrank;

    if (count < pof2) {
        walk_named(c, w, "basic_linear");
        return;
    }
    vrank = fold_halves(c, w, rem, e, count);
    for (int mask = 1; vrank >= 0 && mask < pof2; mask <<= 1, step++) {
        int dest = unfold_even(vrank ^ mask, rem);

        got[step] = c->me < dest ? wsize / 2 : wsize - wsize / 2;
        sent[step] = wsize - got[step];
        if (pz_internal_walk_round(w)) {
            pz_internal_walk_send(w, dest, (double)sent[step] * e);
            pz_internal_walk_recv(w, dest, (double)got[step] * e);
            pz_internal_walk_reduce(w, (double)got[step] * e);
        }
        wsize = got[step];
    }
    for (int mask = pof2 >> 1; vrank >= 0 && mask > 0; mask >>= 1) {
        int dest = unfold_even(vrank ^ mask, rem);

        step--;
        if (pz_internal_walk_round(w)) {
            pz_internal_walk_send(w, dest, (double)got[step] * e);
            pz_internal_walk_recv(w, dest, (double)sent[step] * e);
        }
    }
    if (c->me < 2 * rem && pz_internal_walk_round(w)) {
        if (c->me % 2)
            pz_internal_walk_recv(w, c->me - 1, c->bytes);
        else
            pz_internal_walk_send(w, c->me + 1, c->bytes);
    }
}

/* P - 1 steps around the ring: block b starts at rank b + 1 and is combined on its way
 * to rank b, so in step i a member sends block me - i - 1 to me + 1 and receives and
 * combines block me - i - 2 from me - 1. */
static void reduce_scatter_ring(const struct pz_coll *c, struct pz_walk *w)
{
    int p = c->size, me = c->me, i = pz_internal_walk_rounds(w, p - 1);
    double got;

    if (i < 0)
        return;
    got = pz_internal_block(c, ((me - i - 2) % p + p) % p);
    pz_internal_walk_send(w, (me + 1) % p, pz_internal_block(c, ((me - i - 1) % p + p) % p));
    pz_internal_walk_recv(w, (me - 1 + p) % p, got);
    pz_internal_walk_reduce(w, got);
}

PZ_WALK_ALGO(allreduce_ring)
PZ_WALK_ALGO(allreduce_rabenseifner)
PZ_WALK_ALGO(reduce_scatter_ring)

/* segmented_ring is the ring: the fixed rules pass it segment size 0, with which
 * Open MPI's COLL_BASE_COMPUTED_SEGCOUNT keeps one segment and it runs the ring. */
const struct pz_internal_algo pz_internal_coll_ompi_ring[] = {
    PZ_WALK_ENTRY("ring", PZ_COLL_ALLREDUCE, allreduce_ring),
    PZ_WALK_ENTRY("segmented_ring", PZ_COLL_ALLREDUCE, allreduce_ring),
    PZ_WALK_ENTRY("ompi_rabenseifner", PZ_COLL_ALLREDUCE, allreduce_rabenseifner),
    PZ_WALK_ENTRY("ring", PZ_COLL_REDUCE_SCATTER, reduce_scatter_ring),
    PZ_WALK_ENTRY("ring", PZ_COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_ring),
    { { NULL, 0, NULL, 0 }, NULL },
};
