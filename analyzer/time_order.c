/* Records put in time order (time_order.h): the waiting records earlier than a cut
 * taken out of the radix heap's buckets, then sorted by a
 * least-significant-digit radix sort of one 64-bit key each, all the digits counted in
 * one sweep before one sweep a digit moves them; a digit every key shares is skipped. */
#include <stdlib.h>
#include <string.h>

#include "time_order.h"

#define MAX_DIGITS ((64 + PZ_ORDER_MAX_DIGIT_BITS - 1) / PZ_ORDER_MAX_DIGIT_BITS)
#define COUNTS (1u << PZ_ORDER_MAX_DIGIT_BITS)

/* How many bits x takes: 0 for 0. */
static int bits_of(uint64_t x)
{
    return x ? 64 - __builtin_clzll(x) : 0;
}

int pz_time_order_init(struct pz_time_order *o, uint32_t nranks, uint32_t expect)
{
    memset(o, 0, sizeof(*o));
    o->rank_bits = nranks > 1 ? bits_of(nranks - 1) : 0;
    o->batch_cap = expect ? expect : 1;
    o->batch = malloc(o->batch_cap * sizeof(*o->batch));
    o->spare = malloc(o->batch_cap * sizeof(*o->spare));
    o->count = malloc(MAX_DIGITS * COUNTS * sizeof(*o->count));
    return o->batch && o->spare && o->count ? 0 : -1;
}

/* *p resized to cap elements of size bytes; 0, or -1 (*p unchanged) out of memory. */
static int resize(void **p, uint32_t cap, size_t size)
{
    void *q = realloc(*p, (size_t)cap * size);

    if (!q)
        return -1;
    *p = q;
    return 0;
}

/* The bucket of time t (no earlier than low). */
static struct pz_order_bucket *bucket_of(struct pz_time_order *o, uint64_t t)
{
    return &o->bucket[bits_of(t ^ o->low)];
}

/* Appends w to b.  0, or -1 out of memory. */
static int append(struct pz_time_order *o, struct pz_order_bucket *b,
                  const struct pz_order_wait *w)
{
    struct pz_order_chunk *c = b->last;

    if (!c || c->n == PZ_ORDER_CHUNK) {
        if ((c = o->free))
            o->free = c->next;
        else if (!(c = malloc(sizeof(*c))))
            return -1;
        c->next = NULL;
        c->n = 0;
        if (b->last)
            b->last->next = c;
        else
            b->first = c;
        b->last = c;
    }
    c->w[c->n++] = *w;
    return 0;
}

/* The chunks from c on, emptied, for reuse. */
static void release(struct pz_time_order *o, struct pz_order_chunk *c)
{
    while (c) {
        struct pz_order_chunk *next = c->next;

        c->next = o->free;
        o->free = c;
        c = next;
    }
}

int pz_time_order_add(struct pz_time_order *o, uint64_t time, uint32_t rank,
                      const void *item)
{
    struct pz_order_wait w = { time, rank, item };

    if (append(o, bucket_of(o, time), &w) != 0)
        return -1;
    o->nwait++;
    return 0;
}

/* The width of the digits, MAX_DIGITS at most, that sorts n keys of `bits` bits with
 * the fewest steps: each digit takes a sweep over the keys and one over its 2^width
 * counts (the counts weigh half a key's move). */
static int digit_width(uint32_t n, int bits)
{
    int best = PZ_ORDER_MAX_DIGIT_BITS;
    uint64_t best_cost = UINT64_MAX;

    for (int digits = (bits + PZ_ORDER_MAX_DIGIT_BITS - 1) / PZ_ORDER_MAX_DIGIT_BITS; digits <= bits && digits <= (int)MAX_DIGITS; digits++) {
        int width = (bits + digits - 1) / digits;
        uint64_t cost = (uint64_t)digits * (2 * (uint64_t)n + (UINT64_C(1) << width));

        if (cost < best_cost) {
            best_cost = cost;
            best = width;
        }
    }
    return best;
}

/* Below this many keys, the counts of a digit would cost more than moving the keys one
 * by one. */
#define FEW 32

/* Sorts the n keys of e by insertion, stably. */
static void insertion_sort(struct pz_order_entry *e, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        struct pz_order_entry x = e[i];
        uint32_t j = i;

        for (; j > 0 && e[j - 1].key > x.key; j--)
            e[j] = e[j - 1];
        e[j] = x;
    }
}

/* Sorts batch[0..n-1] by their keys of `bits` bits, stably (spare as large); on
 * return batch holds them sorted. */
static void sort(struct pz_time_order *o, uint32_t n, int bits)
{
    int width, digits;
    uint64_t mask;

    if (n < 2 || bits == 0)
        return;
    if (n <= FEW) {
        insertion_sort(o->batch, n);
        return;
    }
    width = digit_width(n, bits);
    digits = (bits + width - 1) / width;
    mask = (UINT64_C(1) << width) - 1;
    for (int d = 0; d < digits; d++)
        memset(&o->count[d * COUNTS], 0, sizeof(*o->count) << width);
    for (uint32_t i = 0; i < n; i++)
        for (int d = 0; d < digits; d++)
            o->count[d * COUNTS + ((o->batch[i].key >> (d * width)) & mask)]++;
    for (int d = 0; d < digits; d++) {
        uint32_t *at = &o->count[d * COUNTS], sum = 0;
        int shift = d * width;
        struct pz_order_entry *t;

        if (at[(o->batch[0].key >> shift) & mask] == n)
            continue;
        for (uint64_t b = 0; b <= mask; b++) {
            uint32_t c = at[b];

            at[b] = sum;
            sum += c;
        }
        for (uint32_t i = 0; i < n; i++)
            o->spare[at[(o->batch[i].key >> shift) & mask]++] = o->batch[i];
        t = o->batch;
        o->batch = o->spare;
        o->spare = t;
    }
}

/* A record taken into the batch, keyed by its time since base. */
static void take_one(struct pz_time_order *o, const struct pz_order_wait *w, uint64_t base,
                     uint64_t *largest)
{
    uint64_t key = (w->time - base) << o->rank_bits | w->rank;

    o->batch[o->nbatch++] = (struct pz_order_entry){ key, w->item };
    *largest = key > *largest ? key : *largest;
}

/* Raises low to x (no record earlier than x may come any more): the records earlier
 * than x go to the batch, keyed by their time since the old low; the bucket that
 * holds x's time is split, its other records put back below.  *largest the largest key
 * taken.  0, or -1 out of memory (records are then lost: the caller gives up). */
static int raise_low(struct pz_time_order *o, uint64_t x, uint64_t *largest)
{
    uint64_t base = o->low;
    int top = bits_of(x ^ base);
    struct pz_order_chunk *split = o->bucket[top].first;

    if (x == base)
        return 0;
    for (int b = 0; b < top; b++) {
        struct pz_order_bucket *bk = &o->bucket[b];

        for (const struct pz_order_chunk *c = bk->first; c; c = c->next) {
            for (uint32_t i = 0; i < c->n; i++)
                take_one(o, &c->w[i], base, largest);
            o->nwait -= c->n;
        }
        release(o, bk->first);
        *bk = (struct pz_order_bucket){ NULL, NULL };
    }
    /* x and the split bucket's times share their bits from bit top - 1 up: those not
     * taken go to buckets below it, emptied above */
    o->bucket[top] = (struct pz_order_bucket){ NULL, NULL };
    o->low = x;
    while (split) {
        struct pz_order_chunk *next = split->next;

        for (uint32_t i = 0; i < split->n; i++) {
            const struct pz_order_wait *w = &split->w[i];

            if (w->time < x) {
                take_one(o, w, base, largest);
                o->nwait--;
            } else if (append(o, bucket_of(o, w->time), w) != 0) {
                release(o, split);      /* the rest kept, for pz_time_order_free */
                return -1;
            }
        }
        split->next = NULL;
        release(o, split);
        split = next;
    }
    return 0;
}

/* The earliest time waiting (there must be one): in the lowest bucket not empty. */
static uint64_t earliest(const struct pz_time_order *o)
{
    const struct pz_order_bucket *bk = o->bucket;
    uint64_t least = UINT64_MAX;

    while (!bk->first)
        bk++;
    for (const struct pz_order_chunk *c = bk->first; c; c = c->next)
        for (uint32_t i = 0; i < c->n; i++)
            least = c->w[i].time < least ? c->w[i].time : least;
    return least;
}

/* How far low may be raised at once towards cut: the keys hold times up to low +
 * 2^time_bits - 1. */
static uint64_t step(const struct pz_time_order *o, uint64_t cut)
{
    int time_bits = 64 - o->rank_bits;

    if (time_bits < 64 && UINT64_MAX - o->low >= (UINT64_C(1) << time_bits) &&
        o->low + (UINT64_C(1) << time_bits) < cut)
        return o->low + (UINT64_C(1) << time_bits);
    return cut;
}

int64_t pz_time_order_take(struct pz_time_order *o, uint64_t cut)
{
    uint64_t largest = 0, lim;

    o->nbatch = 0;
    /* grown to twice its room at least: grown by what it lacked, the two arrays were
       reallocated at most takes (megabytes each at 16384 processes), and the allocator
       kept the room they left: 13 MB of the peak at 16384 processes, 2.6 at 4096 */
    if (o->batch_cap < o->nwait) {
        uint32_t cap = o->batch_cap <= UINT32_MAX / 2 && 2 * o->batch_cap > o->nwait
                           ? 2 * o->batch_cap
                           : o->nwait;

        if (resize((void **)&o->batch, cap, sizeof(*o->batch)) != 0 ||
            resize((void **)&o->spare, cap, sizeof(*o->spare)) != 0)
            return -1;
        o->batch_cap = cap;
    }
    if (cut <= o->low)
        return 0;
    lim = step(o, cut);
    /* far from every waiting record: low jumps to the earliest first */
    if (lim < cut && o->nwait && earliest(o) >= lim) {
        uint64_t first = earliest(o);

        if (raise_low(o, first < cut ? first : cut, &largest) != 0)
            return -1;
        lim = step(o, cut);
    }
    if (raise_low(o, lim, &largest) != 0)
        return -1;
    sort(o, o->nbatch, bits_of(largest));
    return o->nbatch;
}

void pz_time_order_free(struct pz_time_order *o)
{
    for (int b = 0; b < 65; b++)
        release(o, o->bucket[b].first);
    while (o->free) {
        struct pz_order_chunk *c = o->free;

        o->free = c->next;
        free(c);
    }
    free(o->batch);
    free(o->spare);
    free(o->count);
    memset(o, 0, sizeof(*o));
}
