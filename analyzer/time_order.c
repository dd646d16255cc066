/* Records put in time order (time_order.h): a pass sorted by a least-significant-digit
 * radix sort, stable, by the rank first and then by the time since the pass's earliest,
 * a digit of 8 bits at a time, skipping the digits every key shares; the runs merged
 * by a binary heap over them. */
#include <stdlib.h>
#include <string.h>

#include "time_order.h"

#define DIGIT_BITS 8
#define BUCKETS (1u << DIGIT_BITS)

/* A buffer of at least cap keys: one of the pool's, or a new one. */
static int take_buffer(struct pz_time_order *o, uint32_t cap, struct pz_keys *out)
{
    while (o->npool) {
        struct pz_keys b = o->pool[--o->npool];

        if (b.cap >= cap) {
            *out = b;
            return 0;
        }
        free(b.keys);
    }
    out->cap = cap;
    out->keys = malloc((size_t)cap * sizeof(*out->keys));
    return out->keys ? 0 : -1;
}

/* Keeps b for reuse (frees it if the pool cannot grow). */
static void give_buffer(struct pz_time_order *o, struct pz_keys b)
{
    if (o->npool == o->pool_cap) {
        uint32_t cap = o->pool_cap ? 2 * o->pool_cap : 8;
        struct pz_keys *pool = realloc(o->pool, cap * sizeof(*pool));

        if (!pool) {
            free(b.keys);
            return;
        }
        o->pool = pool;
        o->pool_cap = cap;
    }
    o->pool[o->npool++] = b;
}

int pz_time_order_init(struct pz_time_order *o, uint32_t pass)
{
    memset(o, 0, sizeof(*o));
    return take_buffer(o, pass ? pass : 1, &o->fresh);
}

int pz_time_order_add(struct pz_time_order *o, const struct pz_order_key *key)
{
    if (o->nfresh == o->fresh.cap) {
        uint32_t cap = 2 * o->fresh.cap;
        struct pz_order_key *keys = realloc(o->fresh.keys, (size_t)cap * sizeof(*keys));

        if (!keys)
            return -1;
        o->fresh = (struct pz_keys){ keys, cap };
    }
    o->fresh.keys[o->nfresh++] = *key;
    return 0;
}

static uint32_t digit(const struct pz_order_key *k, uint64_t base, int of_time, int shift)
{
    return (uint32_t)(((of_time ? k->time - base : k->rank) >> shift) & (BUCKETS - 1));
}

/* One stable pass of the sort, src to dst, by a digit (the rank's, or the time's since
 * base, shift bits up).  0 if every key has the same digit: then nothing is moved. */
static int radix_pass(const struct pz_order_key *src, struct pz_order_key *dst, uint32_t n,
                      uint64_t base, int of_time, int shift)
{
    uint32_t at[BUCKETS] = { 0 }, sum = 0;

    for (uint32_t i = 0; i < n; i++)
        at[digit(&src[i], base, of_time, shift)]++;
    if (at[digit(&src[0], base, of_time, shift)] == n)
        return 0;
    for (uint32_t b = 0; b < BUCKETS; b++) {
        uint32_t c = at[b];

        at[b] = sum;
        sum += c;
    }
    for (uint32_t i = 0; i < n; i++)
        dst[at[digit(&src[i], base, of_time, shift)]++] = src[i];
    return 1;
}

/* How many bits x takes: 0 for 0. */
static int bits_of(uint64_t x)
{
    return x ? 64 - __builtin_clzll(x) : 0;
}

/* One pass of the sort, *keys to *spare; the two swapped if it moved the keys. */
static void pass(struct pz_keys *keys, struct pz_keys *spare, uint32_t n, uint64_t base,
                 int of_time, int shift)
{
    if (radix_pass(keys->keys, spare->keys, n, base, of_time, shift)) {
        struct pz_keys t = *keys;

        *keys = *spare;
        *spare = t;
    }
}

/* Sorts the n keys of *keys, using *spare (as large): on return *keys holds them
 * sorted, *spare the other buffer. */
static void sort(struct pz_keys *keys, struct pz_keys *spare, uint32_t n)
{
    uint64_t tmin = keys->keys[0].time, tmax = tmin;
    uint32_t rmax = 0;
    int tbits, rbits;

    for (uint32_t i = 0; i < n; i++) {
        const struct pz_order_key *k = &keys->keys[i];

        tmin = k->time < tmin ? k->time : tmin;
        tmax = k->time > tmax ? k->time : tmax;
        rmax = k->rank > rmax ? k->rank : rmax;
    }
    rbits = bits_of(rmax);
    tbits = bits_of(tmax - tmin);
    for (int shift = 0; shift < rbits; shift += DIGIT_BITS)
        pass(keys, spare, n, tmin, 0, shift);
    for (int shift = 0; shift < tbits; shift += DIGIT_BITS)
        pass(keys, spare, n, tmin, 1, shift);
}

static int before(const struct pz_time_order *o, const struct pz_order_head *a,
                  const struct pz_order_head *b)
{
    if (a->time != b->time)
        return a->time < b->time;
    if (a->rank != b->rank)
        return a->rank < b->rank;
    return o->runs[a->run].seq < o->runs[b->run].seq;
}

static void sift_down(struct pz_time_order *o, uint32_t i)
{
    struct pz_order_head h = o->heap[i];

    for (;;) {
        uint32_t l = 2 * i + 1, m = l;

        if (l >= o->nheap)
            break;
        if (l + 1 < o->nheap && before(o, &o->heap[l + 1], &o->heap[l]))
            m = l + 1;
        if (!before(o, &o->heap[m], &h))
            break;
        o->heap[i] = o->heap[m];
        i = m;
    }
    o->heap[i] = h;
}

static void sift_up(struct pz_time_order *o, uint32_t i)
{
    struct pz_order_head h = o->heap[i];

    while (i > 0 && before(o, &h, &o->heap[(i - 1) / 2])) {
        o->heap[i] = o->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    o->heap[i] = h;
}

/* A free slot of runs (and room in the heap for it), or -1 out of memory. */
static int64_t free_run(struct pz_time_order *o)
{
    uint32_t old = o->nruns, n = old ? 2 * old : 8;
    struct pz_order_run *runs;
    struct pz_order_head *heap;

    for (uint32_t i = 0; i < old; i++)
        if (!o->runs[i].buf.keys)
            return i;
    if (!(runs = realloc(o->runs, n * sizeof(*runs))))
        return -1;
    o->runs = runs;
    memset(&runs[old], 0, (n - old) * sizeof(*runs));
    if (!(heap = realloc(o->heap, n * sizeof(*heap))))
        return -1;
    o->heap = heap;
    o->nruns = n;
    return old;
}

int pz_time_order_seal(struct pz_time_order *o)
{
    struct pz_keys spare;
    int64_t slot;
    struct pz_order_run *r;

    if (!o->nfresh)
        return 0;
    if (take_buffer(o, o->fresh.cap, &spare) != 0)
        return -1;
    sort(&o->fresh, &spare, o->nfresh);
    if ((slot = free_run(o)) < 0) {
        give_buffer(o, spare);
        return -1;
    }
    r = &o->runs[slot];
    *r = (struct pz_order_run){ o->fresh, 0, o->nfresh, o->sealed++ };
    o->fresh = spare;
    o->nfresh = 0;
    o->heap[o->nheap] = (struct pz_order_head){ r->buf.keys[0].time, r->buf.keys[0].rank,
                                                (uint32_t)slot };
    sift_up(o, o->nheap++);
    return 0;
}

void pz_time_order_pop(struct pz_time_order *o)
{
    struct pz_order_run *r = &o->runs[o->heap[0].run];

    if (++r->head < r->n) {
        o->heap[0].time = r->buf.keys[r->head].time;
        o->heap[0].rank = r->buf.keys[r->head].rank;
    } else {
        give_buffer(o, r->buf);
        r->buf.keys = NULL;
        o->heap[0] = o->heap[--o->nheap];
    }
    if (o->nheap)
        sift_down(o, 0);
}

void pz_time_order_free(struct pz_time_order *o)
{
    free(o->fresh.keys);
    for (uint32_t i = 0; i < o->npool; i++)
        free(o->pool[i].keys);
    for (uint32_t i = 0; i < o->nruns; i++)
        free(o->runs[i].buf.keys);
    free(o->pool);
    free(o->runs);
    free(o->heap);
    memset(o, 0, sizeof(*o));
}
