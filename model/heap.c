/* Runs of items in a 4-ary min-heap.  Each run's order is one 128-bit key, the bits of
 * its time (a non-negative double's bits order like the double) above the number of
 * runs made before it, so a step is one comparison; the keys are kept apart from the
 * runs, so that the four children's keys share a cache line.
 *
 * Why runs keep the order of (time, push): a push joins the run made last, if that one
 * is still queued and of its time, else makes a new run.  So every item of a run was
 * pushed after every item of the runs made before it: runs in key order, each in its
 * own order, are the items by time and then by push. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"

typedef unsigned __int128 key128;

/* Room for one more run in the heap's slots. */
static int grow_slots(struct pz_heap *h)
{
    uint32_t cap = h->cap ? 2 * h->cap : 64;
    key128 *keys = realloc(h->keys, cap * sizeof(*keys));
    uint32_t *runs;

    if (!keys)
        return -1;
    h->keys = keys;
    if (!(runs = realloc(h->slot_run, cap * sizeof(*runs))))
        return -1;
    h->slot_run = runs;
    h->cap = cap;
    return 0;
}

/* A free item (its index), or -1 if memory ran out. */
static int64_t new_item(struct pz_heap *h)
{
    if (h->free_item) {
        uint32_t i = h->free_item - 1;

        h->free_item = h->next[i];
        return i;
    }
    if (h->nitems == h->capitems) {
        uint32_t cap = h->capitems ? 2 * h->capitems : 64;
        uint64_t *what = realloc(h->what, cap * sizeof(*what));
        uint32_t *next;

        if (!what)
            return -1;
        h->what = what;
        if (!(next = realloc(h->next, cap * sizeof(*next))))
            return -1;
        h->next = next;
        h->capitems = cap;
    }
    return h->nitems++;
}

static void free_item(struct pz_heap *h, uint32_t i)
{
    h->next[i] = h->free_item;
    h->free_item = i + 1;
}

/* A free run (its index), or -1 if memory ran out. */
static int64_t new_run(struct pz_heap *h)
{
    if (h->free_run) {
        uint32_t r = h->free_run - 1;

        h->free_run = h->runs[r].head;
        return r;
    }
    if (h->nruns == h->capruns) {
        uint32_t cap = h->capruns ? 2 * h->capruns : 64;
        struct pz_heap_run *grown = realloc(h->runs, cap * sizeof(*grown));

        if (!grown)
            return -1;
        h->runs = grown;
        h->capruns = cap;
    }
    return h->nruns++;
}

/* Queues a new run of item alone at time `bits`. */
static int start_run(struct pz_heap *h, uint64_t bits, uint32_t item)
{
    key128 k = (key128)bits << 64 | h->made;
    int64_t run;
    uint32_t i;

    if ((h->n == h->cap && grow_slots(h) != 0) || (run = new_run(h)) < 0)
        return -1;
    h->made++;
    h->runs[run] = (struct pz_heap_run){ bits, item + 1, item + 1 };
    for (i = h->n++; i > 0 && k < h->keys[(i - 1) / 4]; i = (i - 1) / 4) {
        h->keys[i] = h->keys[(i - 1) / 4];
        h->slot_run[i] = h->slot_run[(i - 1) / 4];
    }
    h->keys[i] = k;
    h->slot_run[i] = (uint32_t)run;
    h->last = (uint32_t)run + 1;
    return 0;
}

int pz_heap_push(struct pz_heap *h, double time, int kind, int id)
{
    uint64_t bits = pz_heap_bits(time);
    int64_t item = new_item(h);
    struct pz_heap_run *r;

    if (item < 0)
        return -1;
    h->what[item] = (uint64_t)(uint32_t)kind << 32 | (uint32_t)id;
    h->next[item] = 0;
    if (h->last && (r = &h->runs[h->last - 1])->time == bits) {
        h->next[r->tail - 1] = (uint32_t)item + 1;
        r->tail = (uint32_t)item + 1;
        return 0;
    }
    if (start_run(h, bits, (uint32_t)item) != 0) {
        free_item(h, (uint32_t)item);
        return -1;
    }
    return 0;
}

/* The child of slot i with the smallest key, or 0 if i has none. */
static uint32_t least_child(const struct pz_heap *h, uint32_t i)
{
    uint32_t first = 4 * i + 1, best = first, end = first + 4;

    if (first >= h->n)
        return 0;
    if (end > h->n)
        end = h->n;
    for (uint32_t c = first + 1; c < end; c++)
        if (h->keys[c] < h->keys[best])
            best = c;
    return best;
}

/* Takes the run at the top out of the heap, and frees it. */
static void drop_top(struct pz_heap *h)
{
    uint32_t run = h->slot_run[0], i = 0, c, moved;
    key128 k;

    k = h->keys[--h->n];
    moved = h->slot_run[h->n];
    while ((c = least_child(h, i)) && h->keys[c] < k) {
        h->keys[i] = h->keys[c];
        h->slot_run[i] = h->slot_run[c];
        i = c;
    }
    if (h->n) {
        h->keys[i] = k;
        h->slot_run[i] = moved;
    }
    h->runs[run].head = h->free_run;
    h->free_run = run + 1;
    if (h->last == run + 1)
        h->last = 0;
}

/* The first item of run r into *out: its index. */
static uint32_t first_of(const struct pz_heap *h, const struct pz_heap_run *r,
                         struct pz_heap_item *out)
{
    uint32_t item = r->head - 1;

    out->time = pz_heap_time(r->time);
    out->kind = (int)(h->what[item] >> 32);
    out->id = (int)(uint32_t)h->what[item];
    return item;
}

int pz_heap_peek(const struct pz_heap *h, struct pz_heap_item *out)
{
    if (h->n == 0)
        return 0;
    first_of(h, &h->runs[h->slot_run[0]], out);
    return 1;
}

int pz_heap_pop(struct pz_heap *h, struct pz_heap_item *out)
{
    struct pz_heap_run *r;
    uint32_t item;

    if (h->n == 0)
        return 0;
    r = &h->runs[h->slot_run[0]];
    item = first_of(h, r, out);
    r->head = h->next[item];
    free_item(h, item);
    if (!r->head)
        drop_top(h);
    return 1;
}

double pz_heap_next(const struct pz_heap *h)
{
    return h->n ? pz_heap_time((uint64_t)(h->keys[0] >> 64)) : INFINITY;
}

void pz_heap_release(struct pz_heap *h)
{
    free(h->keys);
    free(h->slot_run);
    free(h->runs);
    free(h->what);
    free(h->next);
    memset(h, 0, sizeof(*h));
}
