/* A priority queue of things due at a time: the earliest first, and among equal times
 * the one pushed first, so that a simulation is deterministic.  Times are not negative
 * (a negative time or NaN counts as 0).
 *
 * The model's events cluster at few times (a round of a collective ends at the same
 * time for every member that waited for one message), and most pushes are for the time
 * of the push before: such pushes join that one's run, a list popped in order, and only
 * runs are kept in order by a heap. */
#ifndef PZ_HEAP_H
#define PZ_HEAP_H

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

struct pz_heap_item {
    double time;
    int kind, id;          /* what is due; the user's meaning */
};

/* Items pushed one after another for one time, in the order they were pushed.  Links
 * (here and in struct pz_heap) are an index + 1, 0 for none, so that a zeroed struct
 * pz_heap is an empty queue. */
struct pz_heap_run {
    uint64_t time;         /* the bits of its time */
    uint32_t head, tail;   /* its first and last item; the next free run */
};

struct pz_heap {
    unsigned __int128 *keys;   /* the heap of runs: time above the order of making */
    uint32_t *slot_run;        /* the run of each heap slot */
    uint32_t n, cap;
    struct pz_heap_run *runs;
    uint32_t nruns, capruns, free_run;
    uint64_t *what;            /* of each item: kind and id */
    uint32_t *next;            /* of each item: the next of its run, or of the free list */
    uint32_t nitems, capitems, free_item;
    uint32_t last;             /* the run made last while it is in the heap */
    uint64_t made;             /* runs made so far */
};

/* 0, or -1 if memory ran out. */
int pz_heap_push(struct pz_heap *h, double time, int kind, int id);

/* Removes the earliest item into *out; 0 if the queue was empty. */
int pz_heap_pop(struct pz_heap *h, struct pz_heap_item *out);

/* The earliest item into *out, left in the queue; 0 if the queue is empty. */
int pz_heap_peek(const struct pz_heap *h, struct pz_heap_item *out);

/* Time of the earliest item; INFINITY if none. */
double pz_heap_next(const struct pz_heap *h);

/* Frees its memory; it is then an empty queue again. */
void pz_heap_release(struct pz_heap *h);

#endif
