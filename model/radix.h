/* The replay's queues, the communication model's events (comsys_int.h) and the
 * engine's threads due to step (replay/engine_int.h), and the Perfetto export's threads
 * by the time of their next record (export/perfetto.c): the earliest first, and among
 * equal times the one pushed first, so that a simulation is deterministic (a negative
 * time or NaN counts as 0), for a clock that only moves forward.
 *
 * A radix heap: an item waits in the bucket of the highest bit in which its time's bits
 * differ from those of the time taken last, so a push is one append and an item moves
 * only to lower buckets, a few times in its life, in order and through arrays read
 * from their start, whatever the number of items waiting.  A binary heap visits log4 of
 * the items waiting at every pop, a cache line each: at thousands of processes, one
 * event of a collective's round per member, most of them misses.
 *
 * Any time may be pushed; one earlier than the time taken last while items wait costs
 * a pass over all of them (the model never pushes such a time: its events are never in
 * its past). */
#ifndef PZ_RADIX_H
#define PZ_RADIX_H

#include <stdint.h>
#include <string.h>

/* A time's key: the bits of a non-negative double order like the double (a negative
 * time or NaN is 0); and the time of a key. */
static inline uint64_t pz_heap_bits(double time)
{
    uint64_t bits;

    if (!(time > 0))
        time = 0;
    memcpy(&bits, &time, sizeof(bits));
    return bits;
}

static inline double pz_heap_time(uint64_t bits)
{
    double t;

    memcpy(&t, &bits, sizeof(t));
    return t;
}

/* An item as the queue gives it back. */
struct pz_heap_item {
    double time;
    int kind, id;          /* what is due; the user's meaning */
};

/* The bits of a time (its order) and what is due (kind above id). */
struct pz_radix_item {
    uint64_t key, what;
};

struct pz_radix_bucket {
    struct pz_radix_item *items;
    uint32_t head, n, cap;     /* items[head..n) wait, in the order they came */
    uint64_t min;              /* the least key among them */
    uint32_t min_at;           /* the first item of that key */
};

/* A zeroed struct pz_radix is an empty queue.  Bucket 0 holds the items of the time
 * taken last, bucket b (1 to 64) those whose highest bit differing from it is b - 1. */
struct pz_radix {
    struct pz_radix_bucket bucket[65];
    uint64_t used;             /* bit b - 1: bucket b (1 to 64) holds items */
    uint64_t last;             /* the key taken last (0 before the first) */
    uint32_t count;
    int failed;                /* memory ran out while items were moved: some are lost
                                  (count no longer counts them) */
};

/* 0, or -1 if memory ran out. */
int pz_radix_push(struct pz_radix *q, double time, int kind, int id);

/* Removes the earliest item into *out; 0 if the queue was empty. */
int pz_radix_pop(struct pz_radix *q, struct pz_heap_item *out);

/* The earliest item into *out, left in the queue; 0 if the queue is empty. */
int pz_radix_peek(const struct pz_radix *q, struct pz_heap_item *out);

/* The item after the earliest into *out, left in the queue, when it is known without a
 * search: the second of bucket 0; or the least of the lowest bucket above 0 holding
 * items, when bucket 0 holds the earliest alone; or the least of the next bucket, when
 * that lowest bucket holds the earliest alone.  0 otherwise (its bucket holds several).
 * For prefetching: what is pushed before the next pop may still come before it. */
int pz_radix_peek_second(const struct pz_radix *q, struct pz_heap_item *out);

/* Time of the earliest item; INFINITY if none. */
double pz_radix_next(const struct pz_radix *q);

/* Frees its memory; it is then an empty queue again. */
void pz_radix_release(struct pz_radix *q);

#endif
