/* A 4-ary min-heap.  Each item's order is one 128-bit key, the bits of its time (a
 * non-negative double's bits order like the double) above its sequence number, so a
 * step is one comparison; the keys are kept apart from what is due, so that the four
 * children's keys share a cache line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"

typedef unsigned __int128 key128;

static key128 key_of(double time, uint64_t seq)
{
    uint64_t bits;

    if (!(time > 0))
        time = 0;
    memcpy(&bits, &time, sizeof(bits));
    return (key128)bits << 64 | seq;
}

static int grow(struct pz_heap *h)
{
    uint32_t cap = h->cap ? 2 * h->cap : 64;
    key128 *keys = realloc(h->keys, cap * sizeof(*keys));
    uint64_t *what;

    if (!keys)
        return -1;
    h->keys = keys;
    if (!(what = realloc(h->what, cap * sizeof(*what))))
        return -1;
    h->what = what;
    h->cap = cap;
    return 0;
}

int pz_heap_push(struct pz_heap *h, double time, int kind, int id)
{
    key128 k = key_of(time, h->pushed++);
    uint32_t i;

    if (h->n == h->cap && grow(h) != 0)
        return -1;
    for (i = h->n++; i > 0 && k < h->keys[(i - 1) / 4]; i = (i - 1) / 4) {
        h->keys[i] = h->keys[(i - 1) / 4];
        h->what[i] = h->what[(i - 1) / 4];
    }
    h->keys[i] = k;
    h->what[i] = (uint64_t)(uint32_t)kind << 32 | (uint32_t)id;
    return 0;
}

/* The child of i with the smallest key, or 0 if i has none. */
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

int pz_heap_pop(struct pz_heap *h, struct pz_heap_item *out)
{
    key128 k;
    uint64_t w, bits;
    uint32_t i = 0, c;

    if (h->n == 0)
        return 0;
    bits = (uint64_t)(h->keys[0] >> 64);
    memcpy(&out->time, &bits, sizeof(bits));
    out->seq = (uint64_t)h->keys[0];
    out->kind = (int)(h->what[0] >> 32);
    out->id = (int)(uint32_t)h->what[0];
    k = h->keys[--h->n];
    w = h->what[h->n];
    while ((c = least_child(h, i)) && h->keys[c] < k) {
        h->keys[i] = h->keys[c];
        h->what[i] = h->what[c];
        i = c;
    }
    if (h->n) {
        h->keys[i] = k;
        h->what[i] = w;
    }
    return 1;
}

double pz_heap_next(const struct pz_heap *h)
{
    uint64_t bits;
    double t;

    if (!h->n)
        return INFINITY;
    bits = (uint64_t)(h->keys[0] >> 64);
    memcpy(&t, &bits, sizeof(t));
    return t;
}

void pz_heap_release(struct pz_heap *h)
{
    free(h->keys);
    free(h->what);
    h->keys = NULL;
    h->what = NULL;
    h->n = h->cap = 0;
}
