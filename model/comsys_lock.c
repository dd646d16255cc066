/* Passive target locks (comsys.h) as MPICH's ch4 keeps them at their target: a lock
 * request travels to the target, which grants the locks of a window in the order their
 * requests arrive, as soon as no other origin's lock conflicts (shared locks share, an
 * exclusive one waits for every other holder and makes later ones wait); the grant
 * travels back.  A release frees the lock when it arrives at the target.  The locks
 * are requests of kind REQ_RMA, their key the origin (src) and target (dst). */
#include <stdlib.h>

#include "comsys_int.h"

/* The modes of lock requests after comsys_rma.c's. */
enum { RMA_LOCK_SHARED = 8, RMA_LOCK_EXCLUSIVE, RMA_UNLOCK };

/* The lock of one window (channel) at one target process. */
struct rma_lock {
    int channel, target;
    int exclusive;             /* held exclusively */
    int shared;                /* holders of a shared lock */
    int *waiting;              /* requests arrived and not granted, oldest first */
    int nwaiting, capwaiting;
};

struct pz_cs_locks {
    struct rma_lock *list;
    int n, cap;
};

/* The lock of channel at target, made if new; NULL if memory ran out. */
static struct rma_lock *lock_of(struct pz_comsys *cs, int channel, int target)
{
    struct pz_cs_locks *l = cs->locks;

    if (!l && !(l = cs->locks = calloc(1, sizeof(*l))))
        return NULL;
    for (int i = 0; i < l->n; i++)
        if (l->list[i].channel == channel && l->list[i].target == target)
            return &l->list[i];
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        struct rma_lock *grown = realloc(l->list, (size_t)cap * sizeof(*grown));

        if (!grown)
            return NULL;
        l->list = grown;
        l->cap = cap;
    }
    l->list[l->n] = (struct rma_lock){ channel, target, 0, 0, NULL, 0, 0 };
    return &l->list[l->n++];
}

void pz_cs_locks_free(struct pz_comsys *cs)
{
    if (!cs->locks)
        return;
    for (int i = 0; i < cs->locks->n; i++)
        free(cs->locks->list[i].waiting);
    free(cs->locks->list);
    free(cs->locks);
    cs->locks = NULL;
}

/* A lock request or a release, posted at `at` (a release ahead of its time). */
static int lock_request(struct pz_comsys *cs, int mode, int origin, int target, int channel,
                        double at)
{
    int r;

    if (origin < 0 || origin >= cs->nprocs || target < 0 || target >= cs->nprocs ||
        channel < 0 || at < cs->now || (r = pz_cs_new_request(cs)) < 0)
        return -1;
    cs->req[r].kind = REQ_RMA;
    cs->req[r].mode = (uint8_t)mode;
    cs->req[r].owner = origin;
    cs->req[r].key = (struct pz_match_key){ channel, origin, target, 0 };
    return mode == RMA_UNLOCK ? pz_cs_post_ahead(cs, r, at) : pz_cs_post(cs, r, at);
}

int pz_comsys_lock(struct pz_comsys *cs, int origin, int target, int channel, int exclusive,
                   double at)
{
    return lock_request(cs, exclusive ? RMA_LOCK_EXCLUSIVE : RMA_LOCK_SHARED, origin, target,
                        channel, at);
}

int pz_comsys_unlock(struct pz_comsys *cs, int origin, int target, int channel, double at)
{
    return lock_request(cs, RMA_UNLOCK, origin, target, channel, at);
}

int pz_cs_is_lock(const struct request *q)
{
    return q->mode >= RMA_LOCK_SHARED && q->mode <= RMA_UNLOCK;
}

/* A lock request or a release leaves now for its target. */
void pz_cs_lock_start(struct pz_comsys *cs, int r)
{
    const struct request *q = &cs->req[r];

    cs->messages++;
    pz_cs_push(cs, pz_cs_control(cs, q->key.src, q->key.dst),
               q->mode == RMA_UNLOCK ? EV_LOCK_RELEASE : EV_LOCK_ARRIVE, r);
}

/* Grants lock request r at its target now: the grant travels back to its origin. */
static void grant(struct pz_comsys *cs, struct rma_lock *l, int r)
{
    const struct request *q = &cs->req[r];

    if (q->mode == RMA_LOCK_EXCLUSIVE)
        l->exclusive = 1;
    else
        l->shared++;
    cs->messages++;
    pz_cs_complete(cs, r, pz_cs_control(cs, q->key.dst, q->key.src));
}

static int grantable(const struct rma_lock *l, const struct request *q)
{
    return !l->exclusive && (q->mode == RMA_LOCK_SHARED || l->shared == 0);
}

/* Grants the oldest waiting requests as long as they fit with the holders. */
static void grant_waiting(struct pz_comsys *cs, struct rma_lock *l)
{
    int granted = 0;

    while (granted < l->nwaiting && grantable(l, &cs->req[l->waiting[granted]])) {
        grant(cs, l, l->waiting[granted]);
        granted++;
    }
    l->nwaiting -= granted;
    for (int i = 0; i < l->nwaiting; i++)
        l->waiting[i] = l->waiting[i + granted];
    cs->pending -= granted;
}

/* Lock request r has arrived at its target: granted now if no earlier one waits and
 * no holder conflicts, else it waits its turn. */
void pz_cs_lock_arrived(struct pz_comsys *cs, int r)
{
    struct rma_lock *l = lock_of(cs, cs->req[r].key.comm, cs->req[r].key.dst);

    if (!l) {
        cs->failed = 1;
        return;
    }
    if (l->nwaiting == 0 && grantable(l, &cs->req[r])) {
        grant(cs, l, r);
        return;
    }
    if (l->nwaiting == l->capwaiting) {
        int cap = l->capwaiting ? 2 * l->capwaiting : 4;
        int *grown = realloc(l->waiting, (size_t)cap * sizeof(*grown));

        if (!grown) {
            cs->failed = 1;
            return;
        }
        l->waiting = grown;
        l->capwaiting = cap;
    }
    l->waiting[l->nwaiting++] = r;
    cs->pending++;
}

/* Release r has arrived at its target: its origin's lock is free, the next waiting
 * ones are granted, and the release is complete. */
void pz_cs_lock_released(struct pz_comsys *cs, int r)
{
    struct rma_lock *l = lock_of(cs, cs->req[r].key.comm, cs->req[r].key.dst);

    if (l) {
        if (l->exclusive)
            l->exclusive = 0;
        else if (l->shared > 0)
            l->shared--;
        grant_waiting(cs, l);
    } else {
        cs->failed = 1;
    }
    pz_cs_complete(cs, r, cs->now);
}
