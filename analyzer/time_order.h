/* Records put in time order (stream.c): OTF2's global reader's order, by time and, at
 * equal times, by the location's rank among the threads', one thread's records in the
 * order they came.
 *
 * The records come in passes; each pass is sorted at once (a radix sort of its keys:
 * a few sequential sweeps, where a heap over the threads would take log2 P steps and
 * a cache miss on the thread's queue for every record) into a run, and the runs are
 * merged by a heap over the runs, a few dozen at most.  A pass's keys all came after
 * the previous passes': at equal time and rank (one thread's records of one time), an
 * earlier run's key comes first, and within a run the sort keeps the order they came
 * in. */
#ifndef PZ_TIME_ORDER_H
#define PZ_TIME_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* A record's place in the order, and what the order carries for it. */
struct pz_order_key {
    uint64_t time;
    uint32_t rank;         /* of its thread's location among the threads' */
    int th;                /* its thread */
    const void *item;      /* the record itself, for the caller */
};

/* A buffer of keys, of capacity cap. */
struct pz_keys {
    struct pz_order_key *keys;
    uint32_t cap;
};

/* Sorted keys of one pass, keys[head..n-1] still to be taken. */
struct pz_order_run {
    struct pz_keys buf;
    uint32_t head, n;
    uint64_t seq;          /* passes sealed before it */
};

/* A run in the heap, keyed by its first key left. */
struct pz_order_head {
    uint64_t time;
    uint32_t rank;
    uint32_t run;          /* index in runs */
};

struct pz_time_order {
    struct pz_keys fresh;          /* the pass being filled, nfresh keys */
    uint32_t nfresh;
    struct pz_keys *pool;          /* buffers to reuse, npool of them */
    uint32_t npool, pool_cap;
    struct pz_order_run *runs;     /* nruns slots, some free (buf.keys NULL) */
    uint32_t nruns;
    struct pz_order_head *heap;    /* the runs with keys left, nheap, capacity nruns */
    uint32_t nheap;
    uint64_t sealed;               /* passes sealed */
};

/* An empty order whose passes are expected to hold up to pass keys (more are taken).
 * 0, or -1 out of memory. */
int pz_time_order_init(struct pz_time_order *o, uint32_t pass);

/* Adds a key to the pass being filled: after every key of the runs sealed before, at
 * equal time and rank.  0, or -1 out of memory. */
int pz_time_order_add(struct pz_time_order *o, const struct pz_order_key *key);

/* Ends the pass: its keys sorted into a run of their own.  0, or -1 out of memory. */
int pz_time_order_seal(struct pz_time_order *o);

/* The first key of the sealed runs, NULL if none is left. */
static inline const struct pz_order_key *pz_time_order_first(const struct pz_time_order *o)
{
    const struct pz_order_run *r;

    if (!o->nheap)
        return NULL;
    r = &o->runs[o->heap[0].run];
    return &r->buf.keys[r->head];
}

/* The key d places after the first in the first key's run, NULL if that run ends
 * before: one that comes soon, for its record to be fetched ahead. */
static inline const struct pz_order_key *pz_time_order_later(const struct pz_time_order *o,
                                                             uint32_t d)
{
    const struct pz_order_run *r = &o->runs[o->heap[0].run];

    return r->head + d < r->n ? &r->buf.keys[r->head + d] : NULL;
}

/* Removes the first key of the sealed runs (there must be one). */
void pz_time_order_pop(struct pz_time_order *o);

void pz_time_order_free(struct pz_time_order *o);

#endif
