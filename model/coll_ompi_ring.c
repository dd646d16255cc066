/* Open MPI 4.1's rings (ompi/mca/coll/base/coll_base_allreduce.c,
 * coll_base_reduce_scatter.c): Allreduce by a ring of blocks of whole elements, and
 * Reduce_scatter by a ring.
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
PZ_WALK_ALGO(reduce_scatter_ring)

/* segmented_ring is the ring: the fixed rules pass it segment size 0, with which
 * Open MPI's COLL_BASE_COMPUTED_SEGCOUNT keeps one segment and it runs the ring. */
const struct pz_internal_algo pz_internal_coll_ompi_ring[] = {
    PZ_WALK_ENTRY("ring", PZ_COLL_ALLREDUCE, allreduce_ring),
    PZ_WALK_ENTRY("segmented_ring", PZ_COLL_ALLREDUCE, allreduce_ring),
    PZ_WALK_ENTRY("ring", PZ_COLL_REDUCE_SCATTER, reduce_scatter_ring),
    PZ_WALK_ENTRY("ring", PZ_COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_ring),
    { { NULL, 0, NULL, 0 }, NULL },
};
