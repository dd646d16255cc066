/* Rabenseifner's algorithms (MPICH 2 to 4): a reduce-scatter by recursive halving
 * among a power of two of ranks, then an allgather by recursive doubling (Allreduce)
 * or a binomial gather to the root (Reduce).  The vector is cut in pof2 blocks as
 * MPICH cuts its count: n / pof2 bytes each, the first n % pof2 one byte more.  The
 * block indices each member works on follow MPICH's send_idx / recv_idx / last_idx
 * (allreduce_intra_reduce_scatter_allgather.c, reduce_intra_reduce_scatter_gather.c)
 * so uneven blocks travel exactly as there. */
#include <math.h>

#include "coll_algos.h"

struct halving {
    double n;
    int pof2, rem, newrank;
    int odd;                     /* folded new rank r is real rank 2 r + odd */
    int send_idx, recv_idx, last_idx;
};

static double cnts(const struct halving *h, int lo, int hi)
{
    double base = floor(h->n / h->pof2);
    int extra = (int)(h->n - base * h->pof2);
    int longer = (hi < extra ? hi : extra) - lo;

    return (hi - lo) * base + (longer > 0 ? longer : 0);
}

static int real_rank(const struct halving *h, int newr)
{
    return newr < h->rem ? 2 * newr + h->odd : newr + h->rem;
}

static struct halving halving_init(const struct pz_coll *c, int odd)
{
    struct halving h = { c->bytes, pz_internal_pof2_floor(c->size), 0, -1, odd, 0, 0, 0 };

    h.rem = c->size - h.pof2;
    return h;
}

/* Reduce-scatter: partners at distances 1, 2, 4 ... swap halves of the index range. */
static void halving_phase(struct pz_walk *w, struct halving *h)
{
    h->send_idx = h->recv_idx = 0;
    h->last_idx = h->pof2;
    for (int mask = 1; mask < h->pof2;) {
        int newdst = h->newrank ^ mask, step = h->pof2 / (mask * 2);
        double sent, got;

        if (h->newrank < newdst) {
            h->send_idx = h->recv_idx + step;
            sent = cnts(h, h->send_idx, h->last_idx), got = cnts(h, h->recv_idx, h->send_idx);
        } else {
            h->recv_idx = h->send_idx + step;
            sent = cnts(h, h->send_idx, h->recv_idx), got = cnts(h, h->recv_idx, h->last_idx);
        }
        if (pz_internal_walk_round(w)) {
            pz_internal_walk_send(w, real_rank(h, newdst), sent);
            pz_internal_walk_recv(w, real_rank(h, newdst), got);
            pz_internal_walk_reduce(w, got);
        }
        h->send_idx = h->recv_idx;
        mask <<= 1;
        if (mask < h->pof2)
            h->last_idx = h->recv_idx + h->pof2 / mask;
    }
}

/* One step of the way back at distance mask: what goes to and comes from newdst. */
static void doubling_step(struct halving *h, int mask, int newdst, double *sent, double *got)
{
    int step = h->pof2 / (mask * 2);

    if (h->newrank < newdst) {
        if (mask != h->pof2 / 2)
            h->last_idx += step;
        h->recv_idx = h->send_idx + step;
        *sent = cnts(h, h->send_idx, h->recv_idx), *got = cnts(h, h->recv_idx, h->last_idx);
    } else {
        h->recv_idx = h->send_idx - step;
        *sent = cnts(h, h->send_idx, h->last_idx), *got = cnts(h, h->recv_idx, h->send_idx);
    }
}

static void allreduce_rabenseifner(const struct pz_coll *c, struct pz_walk *w)
{
    struct halving h = halving_init(c, 1);

    h.newrank = pz_internal_fold_in(c, w, h.rem, 1, c->bytes);
    if (h.newrank >= 0) {
        halving_phase(w, &h);
        for (int mask = h.pof2 / 2; mask > 0; mask >>= 1) {
            int newdst = h.newrank ^ mask;
            double sent, got;

            doubling_step(&h, mask, newdst, &sent, &got);
            if (pz_internal_walk_round(w)) {
                pz_internal_walk_send(w, real_rank(&h, newdst), sent);
                pz_internal_walk_recv(w, real_rank(&h, newdst), got);
            }
            if (h.newrank > newdst)
                h.send_idx = h.recv_idx;
        }
    }
    pz_internal_fold_out(c, w, h.rem, c->bytes);
}

/* An odd root below 2 rem waited in the fold: new rank 0 hands it block 0 and the
 * root plays new rank 0 in the gather. */
static void odd_root_takes_over(const struct pz_coll *c, struct pz_walk *w, struct halving *h)
{
    if (c->me == c->root) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, 0, cnts(h, 0, 1));
        h->newrank = 0, h->send_idx = 0, h->last_idx = 2;
    } else if (h->newrank == 0) {
        if (pz_internal_walk_round(w))
            pz_internal_walk_send(w, c->root, cnts(h, 0, 1));
        h->newrank = -1;
    }
}

/* Binomial gather of the blocks to newroot, the farthest halves first: a member whose
 * partner's half holds newroot sends all it has and is done, the others receive. */
static void gather_phase(const struct pz_coll *c, struct pz_walk *w, struct halving *h,
                         int newroot, int odd_root)
{
    int bits = 0;

    while ((2 << bits) < h->pof2)
        bits++;
    for (int mask = h->pof2 / 2; mask > 0; mask >>= 1, bits--) {
        int newdst = h->newrank ^ mask;
        int dst = newdst == 0 && odd_root ? c->root : real_rank(h, newdst);
        double sent, got;

        doubling_step(h, mask, newdst, &sent, &got);
        if (newdst >> bits == newroot >> bits) {
            if (pz_internal_walk_round(w))
                pz_internal_walk_send(w, dst, sent);
            return;
        }
        if (pz_internal_walk_round(w))
            pz_internal_walk_recv(w, dst, got);
        if (h->newrank > newdst)
            h->send_idx = h->recv_idx;
    }
}

/* Reduce folds the other way (odd ranks hand their vector to the even ones), so that
 * with root 0 no extra transfer to the root is needed. */
static void reduce_scatter_gather(const struct pz_coll *c, struct pz_walk *w)
{
    struct halving h = halving_init(c, 0);
    int low_root = c->root < 2 * h.rem, odd_root = low_root && c->root % 2;
    int newroot = low_root ? (odd_root ? 0 : c->root / 2) : c->root - h.rem;

    h.newrank = pz_internal_fold_in(c, w, h.rem, 0, c->bytes);
    if (h.newrank >= 0)
        halving_phase(w, &h);
    if (odd_root)
        odd_root_takes_over(c, w, &h);
    if (h.newrank >= 0)
        gather_phase(c, w, &h, newroot, odd_root);
}

PZ_WALK_ALGO(allreduce_rabenseifner)
PZ_WALK_ALGO(reduce_scatter_gather)

const struct pz_internal_algo pz_internal_coll_rabenseifner[] = {
    PZ_WALK_ENTRY("rabenseifner", PZ_COLL_ALLREDUCE, allreduce_rabenseifner),
    PZ_WALK_ENTRY("reduce_scatter_allgather", PZ_COLL_ALLREDUCE, allreduce_rabenseifner),
    PZ_WALK_ENTRY("reduce_scatter_gather", PZ_COLL_REDUCE, reduce_scatter_gather),
    PZ_WALK_ENTRY("rabenseifner", PZ_COLL_REDUCE, reduce_scatter_gather),
    { { NULL, 0, NULL, 0 }, NULL },
};
