/* Everyone-to-everyone exchanges: Allgather(v) by recursive doubling, ring and Bruck,
 * Alltoall(v) by Bruck, scattered Isend/Irecv, pairwise exchange and (MPICH 1.2.5)
 * recursive doubling.  Each exchange is one MPI_Sendrecv, hence one round. */
#include "coll_algos.h"

/* MPICH's MPIR_CVAR_ALLTOALL_THROTTLE: Isend/Irecv pairs posted per Waitall. */
#define SCATTERED_BLOCK 32

double pz_internal_allgather_blocks(const struct pz_coll *c, int root, int lo, int hi)
{
    double sum = 0;

    (void)root;
    if (hi > c->size)
        hi = c->size;
    if (!c->recv_counts)
        return lo < hi ? (hi - lo) * c->bytes : 0;
    for (int r = lo; r < hi; r++)
        sum += c->recv_counts[r];
    return sum;
}

static void rd_receive(struct pz_walk *w, int peer, double bytes, int reduce)
{
    pz_internal_walk_recv(w, peer, bytes);
    if (reduce)
        pz_internal_walk_reduce(w, bytes);
}

/* The fix-up after the exchange at distance mask: in my subtree (relative ranks
 * tree .. tree+mask-1) only the first `have` members had a partner; the others get
 * its data, blocks(tree+mask ..), from them by recursive halving. */
static void rd_remainder(const struct pz_coll *c, struct pz_walk *w, int root, int mask,
                         int have, double bytes, int reduce)
{
    int rel = pz_internal_rel(c, root);

    for (int half = mask >> 1; half > 0; half >>= 1) {
        int dst = rel ^ half;
        int tree = rel & ~(2 * half - 1);   /* the subtree being halved */

        if (dst > rel && rel < tree + have && dst >= tree + have) {
            if (pz_internal_walk_round(w))
                pz_internal_walk_send(w, pz_internal_abs(c, root, dst), bytes);
        } else if (dst < rel && dst < tree + have && rel >= tree + have) {
            if (pz_internal_walk_round(w))
                rd_receive(w, pz_internal_abs(c, root, dst), bytes, reduce);
        }
    }
}

void pz_internal_rd_fixup(const struct pz_coll *c, struct pz_walk *w, int root,
                          pz_blocks_fn *blocks, enum pz_rd_reduce reduce)
{
    int p = c->size, rel = pz_internal_rel(c, root);

    for (int mask = 1; mask < p; mask <<= 1) {
        int dst = rel ^ mask;
        int dst_tree = dst & ~(mask - 1), my_tree = rel & ~(mask - 1);

        if (dst < p && pz_internal_walk_round(w)) {
            pz_internal_walk_send(w, pz_internal_abs(c, root, dst),
                                  blocks(c, root, my_tree, my_tree + mask));
            rd_receive(w, pz_internal_abs(c, root, dst),
                       blocks(c, root, dst_tree, dst_tree + mask), reduce != PZ_RD_COPY);
        }
        if (dst_tree + mask > p)
            rd_remainder(c, w, root, mask, p - my_tree - mask,
                         blocks(c, root, dst_tree, dst_tree + mask), reduce == PZ_RD_REDUCE_ALL);
    }
}

/* Round i: send to the right the block received in round i - 1 (first my own),
 * receive from the left the block of the member i + 1 places to the left. */
void pz_internal_ring_allgather(const struct pz_coll *c, struct pz_walk *w, int root,
                                pz_blocks_fn *blocks)
{
    int p = c->size, i = pz_internal_walk_rounds(w, p - 1);
    int j, jnext;

    if (i < 0)
        return;
    j = (c->me - i + p) % p;
    jnext = (j - 1 + p) % p;
    j = (j - root + p) % p;
    jnext = (jnext - root + p) % p;
    pz_internal_walk_send(w, (c->me + 1) % p, blocks(c, root, j, j + 1));
    pz_internal_walk_recv(w, (c->me - 1 + p) % p, blocks(c, root, jnext, jnext + 1));
}

static void allgather_rd(const struct pz_coll *c, struct pz_walk *w)
{
    pz_internal_rd_fixup(c, w, 0, pz_internal_allgather_blocks, PZ_RD_COPY);
}

static void allgather_ring(const struct pz_coll *c, struct pz_walk *w)
{
    pz_internal_ring_allgather(c, w, 0, pz_internal_allgather_blocks);
}

/* The blocks of the k members from rank `from` on, cyclically. */
static double blocks_from(const struct pz_coll *c, int from, int k)
{
    double sum = 0;

    if (!c->recv_counts)
        return k * c->bytes;
    for (int i = 0; i < k; i++)
        sum += c->recv_counts[(from + i) % c->size];
    return sum;
}

/* Bruck: at distance 2^k send all I hold (the blocks of me .. me+2^k-1) to me - 2^k,
 * receive those of me+2^k .. from me + 2^k; a last step for the remainder. */
static void allgather_bruck(const struct pz_coll *c, struct pz_walk *w)
{
    int p = c->size, me = c->me, dist;

    for (dist = 1; dist <= p / 2; dist *= 2)
        if (pz_internal_walk_round(w)) {
            pz_internal_walk_send(w, (me - dist + p) % p, blocks_from(c, me, dist));
            pz_internal_walk_recv(w, (me + dist) % p, blocks_from(c, me + dist, dist));
        }
    if (p - dist > 0 && pz_internal_walk_round(w)) {
        pz_internal_walk_send(w, (me - dist + p) % p, blocks_from(c, me, p - dist));
        pz_internal_walk_recv(w, (me + dist) % p, blocks_from(c, me + dist, p - dist));
    }
}

/* Of the block indices 0 .. p-1, how many have bit `bit` set. */
static int with_bit(int p, int bit)
{
    int rest = p % (2 * bit) - bit;

    return p / (2 * bit) * bit + (rest > 0 ? rest : 0);
}

/* Bruck's alltoall: at distance 2^k the blocks whose index has bit k set move on. */
static void alltoall_bruck(const struct pz_coll *c, struct pz_walk *w)
{
    int p = c->size;

    for (int dist = 1; dist < p; dist *= 2)
        if (pz_internal_walk_round(w)) {
            double b = with_bit(p, dist) * c->bytes;

            pz_internal_walk_send(w, (c->me + dist) % p, b);
            pz_internal_walk_recv(w, (c->me - dist + p) % p, b);
        }
}

/* Batches of SCATTERED_BLOCK: Irecv from me+i, Isend to me-i, then Waitall; empty
 * messages are skipped, as MPICH does.  The first batch's i = 0 is the member itself:
 * MPICH sends its own block through the same Irecv and Isend (a message to oneself,
 * pz_self_time), not by a copy. */
static void alltoall_scattered(const struct pz_coll *c, struct pz_walk *w)
{
    int p = c->size, nbatch = (p + SCATTERED_BLOCK - 1) / SCATTERED_BLOCK;
    int first = pz_internal_walk_rounds(w, nbatch) * SCATTERED_BLOCK;
    int end = first + SCATTERED_BLOCK < p ? first + SCATTERED_BLOCK : p;

    if (first < 0)
        return;
    for (int i = first; i < end; i++) {
        int src = (c->me + i) % p;

        if (pz_internal_recv_count(c, src) > 0)
            pz_internal_walk_recv(w, src, pz_internal_recv_count(c, src));
    }
    for (int i = first; i < end; i++) {
        int dst = (c->me - i + p) % p;

        if (pz_internal_send_count(c, dst) > 0)
            pz_internal_walk_send(w, dst, pz_internal_send_count(c, dst));
    }
}

/* Step i of P - 1: send to one member, receive from another; `xor` pairs me with
 * me ^ i when P is a power of two (MPICH 2 onwards), else me + i and me - i.  The
 * member's own block is copied first, before the first step (MPIR_Localcopy). */
static void pairwise(const struct pz_coll *c, struct pz_walk *w, int xor)
{
    int p = c->size, i = pz_internal_walk_rounds(w, p - 1) + 1;
    int src = (c->me - i + p) % p, dst = (c->me + i) % p;

    if (i == 0)
        return;
    if (xor && pz_internal_is_pof2(p))
        src = dst = c->me ^ i;
    if (i == 1)
        pz_internal_walk_copy(w, pz_internal_send_count(c, c->me));
    pz_internal_walk_send(w, dst, pz_internal_send_count(c, dst));
    pz_internal_walk_recv(w, src, pz_internal_recv_count(c, src));
}

static void alltoall_pairwise(const struct pz_coll *c, struct pz_walk *w)
{
    pairwise(c, w, 1);
}

static void alltoall_pairwise_shift(const struct pz_coll *c, struct pz_walk *w)
{
    pairwise(c, w, 0);
}

/* MPICH 1.2.5's short Alltoall: recursive doubling of whole send buffers (P n each). */
static double whole_buffers(const struct pz_coll *c, int root, int lo, int hi)
{
    return pz_internal_allgather_blocks(c, root, lo, hi) * c->size;
}

static void alltoall_rd(const struct pz_coll *c, struct pz_walk *w)
{
    pz_internal_rd_fixup(c, w, 0, whole_buffers, PZ_RD_COPY);
}

PZ_WALK_ALGO(allgather_rd)
PZ_WALK_ALGO(allgather_ring)
PZ_WALK_ALGO(allgather_bruck)
PZ_WALK_ALGO(alltoall_bruck)
PZ_WALK_ALGO(alltoall_scattered)
PZ_WALK_ALGO(alltoall_pairwise)
PZ_WALK_ALGO(alltoall_pairwise_shift)
PZ_WALK_ALGO(alltoall_rd)

const struct pz_internal_algo pz_internal_coll_alltoall[] = {
    PZ_WALK_ENTRY("recursive_doubling", PZ_COLL_ALLGATHER, allgather_rd),
    PZ_WALK_ENTRY("ring", PZ_COLL_ALLGATHER, allgather_ring),
    PZ_WALK_ENTRY("bruck", PZ_COLL_ALLGATHER, allgather_bruck),
    PZ_WALK_ENTRY("recursive_doubling", PZ_COLL_ALLGATHERV, allgather_rd),
    PZ_WALK_ENTRY("ring", PZ_COLL_ALLGATHERV, allgather_ring),
    PZ_WALK_ENTRY("bruck", PZ_COLL_ALLGATHERV, allgather_bruck),
    PZ_WALK_ENTRY("bruck", PZ_COLL_ALLTOALL, alltoall_bruck),
    PZ_WALK_ENTRY("scattered", PZ_COLL_ALLTOALL, alltoall_scattered),
    PZ_WALK_ENTRY_COPYING("pairwise", PZ_COLL_ALLTOALL, alltoall_pairwise),
    PZ_WALK_ENTRY_COPYING("pairwise_shift", PZ_COLL_ALLTOALL, alltoall_pairwise_shift),
    PZ_WALK_ENTRY("recursive_doubling", PZ_COLL_ALLTOALL, alltoall_rd),
    PZ_WALK_ENTRY("scattered", PZ_COLL_ALLTOALLV, alltoall_scattered),
    PZ_WALK_ENTRY_COPYING("pairwise", PZ_COLL_ALLTOALLV, alltoall_pairwise),
    { { NULL, 0, NULL, 0 }, NULL },
};
