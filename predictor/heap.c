/* A binary min-heap on (time, seq). */
#include <math.h>
#include <stdlib.h>

#include "heap.h"

static int before(const struct pz_heap_item *a, const struct pz_heap_item *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

int pz_heap_push(struct pz_heap *h, double time, int kind, int id)
{
    struct pz_heap_item it = { time, h->pushed++, kind, id };
    uint32_t i;

    if (h->n == h->cap) {
        uint32_t cap = h->cap ? 2 * h->cap : 64;
        struct pz_heap_item *grown = realloc(h->items, cap * sizeof(*grown));

        if (!grown)
            return -1;
        h->items = grown;
        h->cap = cap;
    }
    for (i = h->n++; i > 0 && before(&it, &h->items[(i - 1) / 2]); i = (i - 1) / 2)
        h->items[i] = h->items[(i - 1) / 2];
    h->items[i] = it;
    return 0;
}

int pz_heap_pop(struct pz_heap *h, struct pz_heap_item *out)
{
    struct pz_heap_item last;
    uint32_t i = 0;

    if (h->n == 0)
        return 0;
    *out = h->items[0];
    last = h->items[--h->n];
    for (;;) {
        uint32_t c = 2 * i + 1;

        if (c >= h->n)
            break;
        if (c + 1 < h->n && before(&h->items[c + 1], &h->items[c]))
            c++;
        if (!before(&h->items[c], &last))
            break;
        h->items[i] = h->items[c];
        i = c;
    }
    if (h->n)
        h->items[i] = last;
    return 1;
}

double pz_heap_next(const struct pz_heap *h)
{
    return h->n ? h->items[0].time : INFINITY;
}

void pz_heap_release(struct pz_heap *h)
{
    free(h->items);
    h->items = NULL;
    h->n = h->cap = 0;
}
