/* Linear algorithms: one member talks to all the others directly (MPICH 1's Gather,
 * Scatter and Alltoall, the v-variants of every MPICH), and the chain of MPICH 1's Scan.
 * The messages a member posts at once (Irecv or Isend to all, then Waitall) are one
 * round. */
#include "coll_algos.h"

void pz_internal_linear_scatterv(const struct pz_coll *c, struct pz_walk *w, int root,
                                 double (*count)(const struct pz_coll *c, int r))
{
    if (c->me != root) {
        if (count(c, c->me) > 0 && pz_internal_walk_round(w))
            pz_internal_walk_recv(w, root, count(c, c->me));
        return;
    }
    if (!pz_internal_walk_round(w))
        return;
    for (int r = 0; r < c->size; r++)
        if (r != root && count(c, r) > 0)
            pz_internal_walk_send(w, r, count(c, r));
}

/* The root posts a receive from every other member; the others send their block. */
static void gather_linear(const struct pz_coll *c, struct pz_walk *w)
{
    if (c->me != c->root) {
        if (c->bytes > 0 && pz_internal_walk_round(w))
            pz_internal_walk_send(w, c->root, c->bytes);
        return;
    }
    if (!pz_internal_walk_round(w))
        return;
    for (int r = 0; r < c->size; r++)
        if (r != c->root && pz_internal_recv_count(c, r) > 0)
            pz_internal_walk_recv(w, r, pz_internal_recv_count(c, r));
}

static void scatter_linear(const struct pz_coll *c, struct pz_walk *w)
{
    pz_internal_linear_scatterv(c, w, c->root, pz_internal_send_count);
}

/* Irecv from and Isend to every other member, rank me+1 first, then Waitall (MPICH 1
 * and 1.2.5); empty messages are posted too, as those MPICHs did. */
static void alltoall_linear(const struct pz_coll *c, struct pz_walk *w)
{
    if (!pz_internal_walk_round(w))
        return;
    for (int i = 1; i < c->size; i++) {
        int peer = (c->me + i) % c->size;

        pz_internal_walk_recv(w, peer, pz_internal_recv_count(c, peer));
    }
    for (int i = 1; i < c->size; i++) {
        int peer = (c->me + i) % c->size;

        pz_internal_walk_send(w, peer, pz_internal_send_count(c, peer));
    }
}

/* Rank r receives the prefix of ranks < r from r - 1, combines its own, and passes
 * the result on to r + 1 (Exscan moves the same messages). */
static void scan_linear(const struct pz_coll *c, struct pz_walk *w)
{
    if (c->me > 0 && pz_internal_walk_round(w)) {
        pz_internal_walk_recv(w, c->me - 1, c->bytes);
        pz_internal_walk_reduce(w, c->bytes);
    }
    if (c->me < c->size - 1 && pz_internal_walk_round(w))
        pz_internal_walk_send(w, c->me + 1, c->bytes);
}

PZ_WALK_ALGO(gather_linear)
PZ_WALK_ALGO(scatter_linear)
PZ_WALK_ALGO(alltoall_linear)
PZ_WALK_ALGO(scan_linear)

const struct pz_internal_algo pz_internal_coll_linear[] = {
    PZ_WALK_ENTRY("linear", PZ_COLL_GATHER, gather_linear),
    PZ_WALK_ENTRY("linear", PZ_COLL_GATHERV, gather_linear),
    PZ_WALK_ENTRY("linear", PZ_COLL_SCATTER, scatter_linear),
    PZ_WALK_ENTRY("linear", PZ_COLL_SCATTERV, scatter_linear),
    PZ_WALK_ENTRY("linear", PZ_COLL_ALLTOALL, alltoall_linear),
    PZ_WALK_ENTRY("linear", PZ_COLL_ALLTOALLV, alltoall_linear),
    PZ_WALK_ENTRY("linear", PZ_COLL_SCAN, scan_linear),
    PZ_WALK_ENTRY("linear", PZ_COLL_EXSCAN, scan_linear),
    { { NULL, 0, NULL, 0 }, NULL },
};
