/* Pairwise exchanges between partners at growing or shrinking distances: the
 * barriers, recursive-doubling Allreduce, the Reduce_scatters and recursive-doubling
 * Scan.  Each exchange is one MPI_Sendrecv, hence one round. */
#include "coll_algos.h"

/* MPICH 3 and 4 (k-dissemination with k = 2): at distance 2^k send to me + 2^k,
 * receive from me - 2^k. */
static void barrier_dissemination(const struct pz_coll *c, struct pz_walk *w)
{
    int p = c->size;

    for (int dist = 1; dist < p; dist *= 2)
        if (pz_internal_walk_round(w)) {
            pz_internal_walk_send(w, (c->me + dist) % p, 0);
            pz_internal_walk_recv(w, (c->me - dist + p) % p, 0);
        }
}

/* MPICH 1 (intra_fns.c): with N2 the largest power of two <= P, rank N2 + r checks in
 * with r, ranks < N2 exchange over the hypercube, then r releases N2 + r. */
static void barrier_hypercube(const struct pz_coll *c, struct pz_walk *w)
{
    int n2 = pz_internal_pof2_floor(c->size), me = c->me;
    int has_upper = me + n2 < c->size;

    if (me >= n2) {
        if (pz_internal_walk_round(w)) {
            pz_internal_walk_send(w, me - n2, 0);
            pz_internal_walk_recv(w, me - n2, 0);
        }
        return;
    }
    if (has_upper && pz_internal_walk_round(w))
        pz_internal_walk_recv(w, me + n2, 0);
    for (int d = 1; d < n2; d <<= 1)
        if (pz_internal_walk_round(w)) {
            pz_internal_walk_send(w, me ^ d, 0);
            pz_internal_walk_recv(w, me ^ d, 0);
        }
    if (has_upper && pz_internal_walk_round(w))
        pz_internal_walk_send(w, me + n2, 0);
}

int pz_internal_fold_in(const struct pz_coll *c, struct pz_walk *w, int rem, int keep_odd,
                        double bytes)
{
    int me = c->me;

    if (me >= 2 * rem)
        return me - rem;
    if (me % 2 != keep_odd) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, me ^ 1, bytes);
        return -1;
    }
    if (pz_internal_walk_round(w)) {
        pz_internal_walk_recv(w, me ^ 1, bytes);
        pz_internal_walk_reduce(w, bytes);
    }
    return me / 2;
}

void pz_internal_fold_out(const struct pz_coll *c, struct pz_walk *w, int rem, double bytes)
{
    int me = c->me;

    if (me >= 2 * rem || !pz_internal_walk_round(w))
        return;
    if (me % 2)
        pz_internal_walk_send(w, me - 1, bytes);
    else
        pz_internal_walk_recv(w, me + 1, bytes);
}

/* The real rank of new rank r in the folded power of two. */
static int unfold(int r, int rem)
{
    return r < rem ? 2 * r + 1 : r + rem;
}

/* MPICH 2 to 4: fold the remainder in, exchange the whole vector at distances
 * 1, 2, 4 ... among pof2 ranks, give the folded ranks the result. */
static void allreduce_rd(const struct pz_coll *c, struct pz_walk *w)
{
    int pof2 = pz_internal_pof2_floor(c->size), rem = c->size - pof2;
    int newrank = pz_internal_fold_in(c, w, rem, 1, c->bytes);

    for (int mask = 1; newrank >= 0 && mask < pof2; mask <<= 1)
        if (pz_internal_walk_round(w)) {
            int dst = unfold(newrank ^ mask, rem);

            pz_internal_walk_send(w, dst, c->bytes);
            pz_internal_walk_recv(w, dst, c->bytes);
            pz_internal_walk_reduce(w, c->bytes);
        }
    pz_internal_fold_out(c, w, rem, c->bytes);
}

static double whole_vector(const struct pz_coll *c, int root, int lo, int hi)
{
    (void)root, (void)lo, (void)hi;
    return c->bytes;
}

/* MPICH 1.2.5: the whole vector at every distance, the remainder fixed up inside the
 * subtrees as in its Allgather. */
static void allreduce_rd_fixup(const struct pz_coll *c, struct pz_walk *w)
{
    pz_internal_rd_fixup(c, w, 0, whole_vector, PZ_RD_REDUCE_EXCHANGE);
}

/* Reduce_scatter by recursive halving (MPICH 2 to 4, commutative operations): after
 * the fold, new rank i owns the blocks of ranks 2i and 2i+1 (i < rem) or of rank
 * i + rem; at distances pof2/2, pof2/4 ... each sends the half of its range that the
 * partner keeps and combines the half it keeps. */
static double new_blocks(const struct pz_coll *c, int rem, int lo, int hi)
{
    double sum = 0;

    if (!c->recv_counts) {
        int doubled = (hi < rem ? hi : rem) - lo;

        return (hi - lo + (doubled > 0 ? doubled : 0)) * c->bytes;
    }
    for (int i = lo; i < hi; i++)
        sum += i < rem ? c->recv_counts[2 * i] + c->recv_counts[2 * i + 1]
                       : c->recv_counts[i + rem];
    return sum;
}

static void reduce_scatter_halving(const struct pz_coll *c, struct pz_walk *w)
{
    int pof2 = pz_internal_pof2_floor(c->size), rem = c->size - pof2;
    int newrank = pz_internal_fold_in(c, w, rem, 1, pz_internal_total(c));
    int lo = 0, hi = pof2;

    for (int mask = pof2 >> 1; newrank >= 0 && mask > 0; mask >>= 1) {
        int newdst = newrank ^ mask, mid = lo + mask;
        int keep_lo = newrank < newdst ? lo : mid, keep_hi = newrank < newdst ? mid : hi;
        int give_lo = newrank < newdst ? mid : lo, give_hi = newrank < newdst ? hi : mid;

        if (pz_internal_walk_round(w)) {
            double got = new_blocks(c, rem, keep_lo, keep_hi);

            pz_internal_walk_send(w, unfold(newdst, rem), new_blocks(c, rem, give_lo, give_hi));
            pz_internal_walk_recv(w, unfold(newdst, rem), got);
            pz_internal_walk_reduce(w, got);
        }
        lo = keep_lo, hi = keep_hi;
    }
    pz_internal_fold_out(c, w, rem, pz_internal_block(c, c->me - c->me % 2));
}

/* P - 1 steps: send rank me + i its block of my vector, receive and combine mine
 * from me - i (MPICH 1.2.5 to 4). */
static void reduce_scatter_pairwise(const struct pz_coll *c, struct pz_walk *w)
{
    int p = c->size, i = pz_internal_walk_rounds(w, p - 1) + 1;
    double mine = pz_internal_block(c, c->me);

    if (i == 0)
        return;
    pz_internal_walk_send(w, (c->me + i) % p, pz_internal_block(c, (c->me + i) % p));
    pz_internal_walk_recv(w, (c->me - i + p) % p, mine);
    pz_internal_walk_reduce(w, mine);
}

/* What MPICH 1.2.5's short Reduce_scatter exchanges: all blocks but a subtree's. */
static double all_but(const struct pz_coll *c, int root, int lo, int hi)
{
    return pz_internal_total(c) - pz_internal_allgather_blocks(c, root, lo, hi);
}

static void reduce_scatter_rd(const struct pz_coll *c, struct pz_walk *w)
{
    pz_internal_rd_fixup(c, w, 0, all_but, PZ_RD_REDUCE_ALL);
}

/* MPICH 1.2.5 to 4: exchange the partial result with me ^ 2^k where it exists. */
static void scan_rd(const struct pz_coll *c, struct pz_walk *w)
{
    for (int mask = 1; mask < c->size; mask <<= 1) {
        int dst = c->me ^ mask;

        if (dst < c->size && pz_internal_walk_round(w)) {
            pz_internal_walk_send(w, dst, c->bytes);
            pz_internal_walk_recv(w, dst, c->bytes);
            pz_internal_walk_reduce(w, c->bytes);
        }
    }
}

PZ_WALK_ALGO(barrier_dissemination)
PZ_WALK_ALGO(barrier_hypercube)
PZ_WALK_ALGO(allreduce_rd)
PZ_WALK_ALGO(allreduce_rd_fixup)
PZ_WALK_ALGO(reduce_scatter_halving)
PZ_WALK_ALGO(reduce_scatter_pairwise)
PZ_WALK_ALGO(reduce_scatter_rd)
PZ_WALK_ALGO(scan_rd)

const struct pz_internal_algo pz_internal_coll_exchange[] = {
    PZ_WALK_ENTRY("dissemination", PZ_COLL_BARRIER, barrier_dissemination),
    PZ_WALK_ENTRY("hypercube", PZ_COLL_BARRIER, barrier_hypercube),
    PZ_WALK_ENTRY("recursive_doubling", PZ_COLL_ALLREDUCE, allreduce_rd),
    PZ_WALK_ENTRY("recursive_doubling_fixup", PZ_COLL_ALLREDUCE, allreduce_rd_fixup),
    PZ_WALK_ENTRY("recursive_halving", PZ_COLL_REDUCE_SCATTER, reduce_scatter_halving),
    PZ_WALK_ENTRY("pairwise", PZ_COLL_REDUCE_SCATTER, reduce_scatter_pairwise),
    PZ_WALK_ENTRY("recursive_doubling", PZ_COLL_REDUCE_SCATTER, reduce_scatter_rd),
    PZ_WALK_ENTRY("recursive_halving", PZ_COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_halving),
    PZ_WALK_ENTRY("pairwise", PZ_COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_pairwise),
    PZ_WALK_ENTRY("recursive_doubling", PZ_COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_rd),
    PZ_WALK_ENTRY("recursive_doubling", PZ_COLL_SCAN, scan_rd),
    PZ_WALK_ENTRY("recursive_doubling", PZ_COLL_EXSCAN, scan_rd),
    { { NULL, 0, NULL, 0 }, NULL },
};
