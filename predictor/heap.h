/* A priority queue of things due at a time: the earliest first, and among equal times
 * the one pushed first, so that a simulation is deterministic.  Times are not negative. */
#ifndef PZ_HEAP_H
#define PZ_HEAP_H

#include <stdint.h>

struct pz_heap_item {
    double time;
    uint64_t seq;          /* order of pushing, breaks ties */
    int kind, id;          /* what is due; the user's meaning */
};

struct pz_heap {
    unsigned __int128 *keys;   /* time and seq as one key, see heap.c */
    uint64_t *what;            /* kind and id */
    uint32_t n, cap;
    uint64_t pushed;
};

/* 0, or -1 if memory ran out. */
int pz_heap_push(struct pz_heap *h, double time, int kind, int id);

/* Removes the earliest item into *out; 0 if the heap was empty. */
int pz_heap_pop(struct pz_heap *h, struct pz_heap_item *out);

/* Time of the earliest item; INFINITY if none. */
double pz_heap_next(const struct pz_heap *h);

void pz_heap_release(struct pz_heap *h);

#endif
