/* Open MPI 4.1's butterfly Reduce_scatter and Reduce_scatter_block (Träff's,
 * ompi_coll_base_reduce_scatter(_block)_intra_butterfly).
 *
 * The first 2 rem ranks (rem = P - pof2) fold: the even ones send the whole vector
 * to rank + 1, which combines it, and leave.  The pof2 new ranks (odd ranks below
 * 2 rem as rank / 2, the others as rank - rem) see the vector as pof2 blocks, block j
 * holding the results of ranks 2j and 2j + 1 (j < rem) or of rank j + rem.  At
 * distances 1, 2 ... pof2/2 each halves its window: the new rank whose bit is clear
 * sends the upper half and combines the lower, in one MPI_Sendrecv.  Last, the block
 * each holds belongs to its mirror (its new rank's bits reversed): it sends the folded
 * partner's part to that partner and swaps its own with the mirror, as Open MPI does;
 * Reduce_scatter_block on a power of two permutes its blocks first and needs no such
 * swap. */
#include "coll_algos.h"

/* The rank of new rank v: the odd ranks below 2 rem stay. */
static int unfold_odd(int v, int rem)
{
    return v < rem ? 2 * v + 1 : v + rem;
}

/* Bytes of the new blocks lo .. lo+n-1. */
static double new_blocks(const struct pz_coll *c, int rem, int lo, int n)
{
    double sum = 0;

    for (int j = lo; j < lo + n; j++)
        sum += j < rem ? pz_internal_block(c, 2 * j) + pz_internal_block(c, 2 * j + 1)
                       : pz_internal_block(c, j + rem);
    return sum;
}

/* v with its `bits` low bits in reverse order (ompi_mirror_perm). */
static int mirror(int v, int bits)
{
    int m = 0;

    for (int i = 0; i < bits; i++)
        m |= ((v >> i) & 1) << (bits - 1 - i);
    return m;
}

static int log2_of(int pof2)
{
    int k = 0;

    while ((1 << k) < pof2)
        k++;
    return k;
}

/* The halving rounds of new rank v; returns the new block it ends with. */
static int halve(const struct pz_coll *c, struct pz_walk *w, int v, int pof2, int rem)
{
    int nblocks = pof2, si = 0, ri = 0;

    for (int mask = 1; mask < pof2; mask <<= 1) {
        int peer = unfold_odd(v ^ mask, rem);

        nblocks /= 2;
        if (v & mask)
            ri += nblocks;
        else
            si += nblocks;
        if (pz_internal_walk_round(w)) {
            double got = new_blocks(c, rem, ri, nblocks);

            pz_internal_walk_send(w, peer, new_blocks(c, rem, si, nblocks));
            pz_internal_walk_recv(w, peer, got);
            pz_internal_walk_reduce(w, got);
        }
        si = ri;
    }
    return si;
}

static void butterfly(const struct pz_coll *c, struct pz_walk *w)
{
    int p = c->size, me = c->me, pof2 = pz_internal_pof2_floor(p), rem = p - pof2;
    int bits = log2_of(pof2), v = me >= 2 * rem ? me - rem : me / 2;
    int vpeer, peer, index;

    if (me < 2 * rem && pz_internal_walk_round(w)) {
        if (me % 2 == 0) {
            pz_internal_walk_send(w, me + 1, pz_internal_total(c));
        } else {
            pz_internal_walk_recv(w, me - 1, pz_internal_total(c));
            pz_internal_walk_reduce(w, pz_internal_total(c));
        }
    }
    if (me < 2 * rem && me % 2 == 0) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, unfold_odd(mirror((me + 1) / 2, bits), rem),
                                  pz_internal_block(c, me));
        return;
    }
    index = halve(c, w, v, pof2, rem);
    if (c->op == PZ_COLL_REDUCE_SCATTER_BLOCK && rem == 0)
        return;
    vpeer = mirror(v, bits);
    peer = unfold_odd(vpeer, rem);
    index = index < rem ? 2 * index : index + rem;
    if (vpeer < rem) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, peer - 1, pz_internal_block(c, index));
        index++;
    }
    if (vpeer != v && pz_internal_walk_round(w)) {
        pz_internal_walk_send(w, peer, pz_internal_block(c, index));
        pz_internal_walk_recv(w, peer, pz_internal_block(c, me));
    }
}

PZ_WALK_ALGO(butterfly)

const struct pz_internal_algo pz_internal_coll_ompi_butterfly[] = {
    PZ_WALK_ENTRY("butterfly", PZ_COLL_REDUCE_SCATTER, butterfly),
    PZ_WALK_ENTRY("butterfly", PZ_COLL_REDUCE_SCATTER_BLOCK, butterfly),
    { { NULL, 0, NULL, 0 }, NULL },
};
