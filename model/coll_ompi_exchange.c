/* Open MPI 4.1's barriers, Alltoall(v) and neighbour-exchange Allgather(v) that the
 * model's MPICH algorithms do not already give (ompi/mca/coll/base/
 * coll_base_barrier.c, coll_base_alltoall.c, coll_base_alltoallv.c,
 * coll_base_allgather.c, coll_base_allgatherv.c).  A blocking call is a round, an
 * MPI_Sendrecv is a round with its send and its receive, a batch of Isend/Irecv closed
 * by Waitall is one round. */
#include "coll_algos.h"

static int mod(int a, int p)
{
    return (a % p + p) % p;
}

/* ompi_coll_base_barrier_intra_basic_linear: every rank sends rank 0 an empty message
 * and waits for one back; rank 0 receives from all in one round, then answers them one
 * blocking send a round, 1, 2 ... in order. */
static void barrier_linear(const struct pz_coll *c, struct pz_walk *w)
{
    int i;

    if (c->me != 0) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, 0, 0);
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, 0, 0);
        return;
    }
    if (pz_internal_walk_round(w))
        for (int r = 1; r < c->size; r++)
            pz_internal_walk_recv(w, r, 0);
    i = pz_internal_walk_rounds(w, c->size - 1);
    if (i >= 0)
        pz_internal_walk_send(w, i + 1, 0);
}

/* One step of the tree barrier at distance jump: with a partner whose bits below
 * jump are clear, the higher rank of the pair sends (up) or receives (down). */
static void tree_step(const struct pz_coll *c, struct pz_walk *w, int jump, int up)
{
    int partner = c->me ^ jump;

    if ((partner & (jump - 1)) || partner >= c->size || !pz_internal_walk_round(w))
        return;
    if ((partner > c->me) == up)
        pz_internal_walk_recv(w, partner, 0);
    else
        pz_internal_walk_send(w, partner, 0);
}

/* ompi_coll_base_barrier_intra_tree: up a binomial tree to rank 0 (distances 1, 2 ...)
 * and back down (distances ... 2, 1). */
static void barrier_tree(const struct pz_coll *c, struct pz_walk *w)
{
    int depth = pz_internal_pof2_ceil(c->size);

    for (int jump = 1; jump < depth; jump <<= 1)
        tree_step(c, w, jump, 1);
    for (int jump = depth >> 1; jump > 0; jump >>= 1)
        tree_step(c, w, jump, 0);
}

/* ompi_coll_base_barrier_intra_doublering: an empty message goes twice around the ring
 * 0 -> 1 -> ... -> P - 1 -> 0; each rank but 0 receives before it sends on. */
static void barrier_double_ring(const struct pz_coll *c, struct pz_walk *w)
{
    int left = mod(c->me - 1, c->size), right = (c->me + 1) % c->size;

    for (int lap = 0; lap < 2; lap++) {
        if (c->me > 0 && pz_internal_walk_round(w))
            pz_internal_walk_recv(w, left, 0);
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, right, 0);
        if (c->me == 0 && pz_internal_walk_round(w))
            pz_internal_walk_recv(w, left, 0);
    }
}

/* ompi_coll_base_alltoall_intra_basic_linear (and linear_sync with its default of no
 * request limit): the own block copied, then one batch of receives from me + 1,
 * me + 2 ... and sends to me - 1, me - 2 ... */
static void alltoall_linear(const struct pz_coll *c, struct pz_walk *w)
{
    int p = c->size;

    if (!pz_internal_walk_round(w))
        return;
    pz_internal_walk_copy(w, c->bytes);
    for (int i = 1; i < p; i++)
        pz_internal_walk_recv(w, (c->me + i) % p, c->bytes);
    for (int i = 1; i < p; i++)
        pz_internal_walk_send(w, mod(c->me - i, p), c->bytes);
}

/* ompi_coll_base_alltoallv_intra_basic_linear: the own block copied, then one batch of
 * receives from 0, 1 ... and sends to 0, 1 ..., empty blocks skipped. */
static void alltoallv_linear(const struct pz_coll *c, struct pz_walk *w)
{
    if (!pz_internal_walk_round(w))
        return;
    pz_internal_walk_copy(w, pz_internal_send_count(c, c->me));
    for (int r = 0; r < c->size; r++)
        if (r != c->me && pz_internal_recv_count(c, r) > 0)
            pz_internal_walk_recv(w, r, pz_internal_recv_count(c, r));
    for (int r = 0; r < c->size; r++)
        if (r != c->me && pz_internal_send_count(c, r) > 0)
            pz_internal_walk_send(w, r, pz_internal_send_count(c, r));
}

/* ompi_coll_base_alltoall_intra_pairwise: steps 1 .. P - 1 send to me + i and receive
 * from me - i in one MPI_Sendrecv; step P is the member itself, a local copy.  On two
 * members this is also two_proc (Sendrecv with the other, then the copy). */
static void alltoall_pairwise(const struct pz_coll *c, struct pz_walk *w)
{
    int p = c->size, i = pz_internal_walk_rounds(w, p) + 1;

    if (i == 0)
        return;
    if (i == p) {
        pz_internal_walk_copy(w, pz_internal_send_count(c, c->me));
        return;
    }
    pz_internal_walk_send(w, (c->me + i) % p, pz_internal_send_count(c, (c->me + i) % p));
    pz_internal_walk_recv(w, mod(c->me - i, p), pz_internal_recv_count(c, mod(c->me - i, p)));
}

/* ompi_coll_base_alltoallv_intra_pairwise: step 0 is the member itself, a local copy
 * before step 1; steps 1 .. P - 1 send to me + i and receive from me - i (empty blocks
 * too) in one MPI_Sendrecv. */
static void alltoallv_pairwise(const struct pz_coll *c, struct pz_walk *w)
{
    int p = c->size, i = pz_internal_walk_rounds(w, p - 1) + 1;

    if (i == 0)
        return;
    if (i == 1)
        pz_internal_walk_copy(w, pz_internal_send_count(c, c->me));
    pz_internal_walk_send(w, (c->me + i) % p, pz_internal_send_count(c, (c->me + i) % p));
    pz_internal_walk_recv(w, mod(c->me - i, p), pz_internal_recv_count(c, mod(c->me - i, p)));
}

/* The first of the two blocks a member receives in step i >= 1 of the neighbour
 * exchange (Open MPI's recv_data_from, stepped by its offset_at_step): an even rank
 * alternately from the left (odd steps) and the right, an odd one the other way. */
static int pair_received(int me, int i)
{
    if (me % 2 == 0)
        return i % 2 ? me - (i + 1) : me + i;
    return i % 2 ? me + i : me - 1 - i;
}

/* The blocks `first` and first + 1 (mod P). */
static double pair_bytes(const struct pz_coll *c, int first)
{
    first = mod(first, c->size);
    return pz_internal_block(c, first) + pz_internal_block(c, (first + 1) % c->size);
}

/* Chen's neighbour exchange (ompi_coll_base_allgather(v)_intra_neighborexchange), even
 * P: step 0 swaps the own block with neighbour 0 (me + 1 for even ranks, me - 1 for
 * odd), steps 1 .. P/2 - 1 pass on the pair of blocks received last to neighbour
 * 1, 0, 1 ... alternately.  Odd P: the ring, as Open MPI falls back to it. */
static void allgather_neighbor(const struct pz_coll *c, struct pz_walk *w)
{
    int p = c->size, me = c->me, even = me % 2 == 0;
    int nb[2] = { mod(even ? me + 1 : me - 1, p), mod(even ? me - 1 : me + 1, p) };
    int i;

    if (p % 2) {
        pz_internal_ring_allgather(c, w, 0, pz_internal_allgather_blocks);
        return;
    }
    i = pz_internal_walk_rounds(w, p / 2);
    if (i < 0)
        return;
    if (i == 0) {
        pz_internal_walk_send(w, nb[0], pz_internal_block(c, me));
        pz_internal_walk_recv(w, nb[0], pz_internal_block(c, nb[0]));
        return;
    }
    pz_internal_walk_send(w, nb[i % 2],
                          pair_bytes(c, i == 1 ? me - !even : pair_received(me, i - 1)));
    pz_internal_walk_recv(w, nb[i % 2], pair_bytes(c, pair_received(me, i)));
}

PZ_WALK_ALGO(barrier_linear)
PZ_WALK_ALGO(barrier_tree)
PZ_WALK_ALGO(barrier_double_ring)
PZ_WALK_ALGO(alltoall_linear)
PZ_WALK_ALGO(alltoall_pairwise)
PZ_WALK_ALGO(alltoallv_linear)
PZ_WALK_ALGO(alltoallv_pairwise)
PZ_WALK_ALGO(allgather_neighbor)

const struct pz_internal_algo pz_internal_coll_ompi_exchange[] = {
    PZ_WALK_ENTRY("linear", PZ_COLL_BARRIER, barrier_linear),
    PZ_WALK_ENTRY("tree", PZ_COLL_BARRIER, barrier_tree),
    PZ_WALK_ENTRY("double_ring", PZ_COLL_BARRIER, barrier_double_ring),
    PZ_WALK_ENTRY_COPYING("ompi_linear", PZ_COLL_ALLTOALL, alltoall_linear),
    PZ_WALK_ENTRY_COPYING("ompi_pairwise", PZ_COLL_ALLTOALL, alltoall_pairwise),
    PZ_WALK_ENTRY_COPYING("ompi_linear", PZ_COLL_ALLTOALLV, alltoallv_linear),
    PZ_WALK_ENTRY_COPYING("ompi_pairwise", PZ_COLL_ALLTOALLV, alltoallv_pairwise),
    PZ_WALK_ENTRY("neighbor_exchange", PZ_COLL_ALLGATHER, allgather_neighbor),
    PZ_WALK_ENTRY("neighbor_exchange", PZ_COLL_ALLGATHERV, allgather_neighbor),
    { { NULL, 0, NULL, 0 }, NULL },
};
