/* A radix heap of events by the bits of their times (a non-negative double's bits
 * order like the double).  Why it pops in the order of (time, push): the bucket of an
 * item follows from its key and the key taken last, so the items of one time are always
 * in one bucket, in the order they were pushed (a bucket is appended to, and emptied
 * from its start into lower buckets, which were empty, so their order holds); and every
 * key of bucket b is below every key of a higher bucket c (no key waiting is below the
 * last: both agree with the last above bit c - 1, where the last and so the key of b
 * have a 0 and the key of c a 1), so the lowest bucket holding items holds the
 * earliest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "radix.h"

/* The bucket of key (not below q->last). */
static int bucket_of(const struct pz_radix *q, uint64_t key)
{
    uint64_t diff = key ^ q->last;

    return diff ? 64 - __builtin_clzll(diff) : 0;
}

/* Makes room in full bucket k: the items already taken from its start given back (bucket
 * 0, taken from while pushed to at the time taken last, would otherwise grow with every
 * push of that time), else its room doubled; 0, or -1 if memory ran out.  Apart from
 * append, which is inlined into the loops that move items: it runs a few times in a
 * queue's life. */
static __attribute__((noinline)) int grow(struct pz_radix_bucket *k)
{
    uint32_t cap = k->cap ? 2 * k->cap : 64;
    struct pz_radix_item *grown;

    if (k->head > 0) {
        memmove(k->items, k->items + k->head, (k->n - k->head) * sizeof(*k->items));
        k->n -= k->head;
        k->min_at = k->min_at >= k->head ? k->min_at - k->head : 0;
        k->head = 0;
        return 0;
    }
    grown = realloc(k->items, cap * sizeof(*grown));
    if (!grown)
        return -1;
    k->items = grown;
    k->cap = cap;
    return 0;
}

/* Appends it to bucket b; 0, or -1 if memory ran out. */
static inline int append(struct pz_radix *q, int b, struct pz_radix_item it)
{
    struct pz_radix_bucket *k = &q->bucket[b];

    if (k->n == k->cap && grow(k) != 0)
        return -1;
    if (k->n == k->head || it.key < k->min) {
        k->min = it.key;
        k->min_at = k->n;
    }
    k->items[k->n++] = it;
    q->used |= (uint64_t)(b != 0) << ((b - 1) & 63);
    return 0;
}

/* Empties bucket b (1 to 64) of its items, into *to (room for them) in their order. */
static uint32_t drain(struct pz_radix *q, int b, struct pz_radix_item *to)
{
    struct pz_radix_bucket *k = &q->bucket[b];
    uint32_t n = k->n - k->head;

    memcpy(to, k->items + k->head, n * sizeof(*to));
    k->head = k->n = 0;
    if (b)
        q->used &= ~(1ull << (b - 1));
    return n;
}

/* Counts n items memory could not be found for as lost: the queue is failed, and its
 * count stays that of the items it holds (so that an empty bucket 0 and a count above 0
 * always mean a bucket above holds items). */
static void lose(struct pz_radix *q, uint32_t n)
{
    q->failed = 1;
    q->count -= n;
}

/* Makes key, below the key taken last, the last: every item waiting is put back in the
 * bucket it has from key, the buckets in order, each in its order (items of one time
 * are in one bucket, so theirs holds).  0, or -1 if memory ran out. */
static int rebase(struct pz_radix *q, uint64_t key)
{
    struct pz_radix_item *all = malloc((q->count ? q->count : 1) * sizeof(*all));
    uint32_t n = 0;
    int rc = 0;

    if (!all)
        return -1;
    for (int b = 0; b <= 64; b++)
        n += drain(q, b, all + n);
    q->last = key;
    for (uint32_t i = 0; i < n && rc == 0; i++)
        if ((rc = append(q, bucket_of(q, all[i].key), all[i])) != 0)
            lose(q, n - i);
    free(all);
    return rc;
}

int pz_radix_push(struct pz_radix *q, double time, int kind, int id)
{
    struct pz_radix_item it = { pz_heap_bits(time),
                                (uint64_t)(uint32_t)kind << 32 | (uint32_t)id };

    if (it.key < q->last) {
        if (q->count && rebase(q, it.key) != 0)
            return -1;
        q->last = it.key;
    }
    if (append(q, bucket_of(q, it.key), it) != 0)
        return -1;
    q->count++;
    return 0;
}

/* With bucket 0 empty and items waiting: the least key of the lowest bucket holding
 * items becomes the last, and that bucket's items go to lower buckets, its least ones
 * to bucket 0 (an item memory could not be found for is lost, and failed set). */
static void redistribute(struct pz_radix *q)
{
    int b = __builtin_ctzll(q->used) + 1;
    struct pz_radix_bucket *k = &q->bucket[b];

    q->last = k->min;
    for (uint32_t i = k->head; i < k->n; i++)
        if (append(q, bucket_of(q, k->items[i].key), k->items[i]) != 0)
            lose(q, 1);
    k->head = k->n = 0;
    q->used &= ~(1ull << (b - 1));
}

static void item_out(const struct pz_radix_item *it, struct pz_heap_item *out)
{
    out->time = pz_heap_time(it->key);
    out->kind = (int)(it->what >> 32);
    out->id = (int)(uint32_t)it->what;
}

int pz_radix_pop(struct pz_radix *q, struct pz_heap_item *out)
{
    struct pz_radix_bucket *zero = &q->bucket[0];
    struct pz_radix_item it;

    if (q->count == 0)
        return 0;
    if (zero->head == zero->n)
        redistribute(q);
    if (zero->head == zero->n)
        return 0;   /* every item lost (failed) */
    it = zero->items[zero->head++];
    if (zero->head == zero->n)
        zero->head = zero->n = 0;
    q->count--;
    item_out(&it, out);
    return 1;
}

int pz_radix_peek(const struct pz_radix *q, struct pz_heap_item *out)
{
    const struct pz_radix_bucket *k;

    if (q->count == 0)
        return 0;
    if (q->bucket[0].head < q->bucket[0].n) {
        item_out(&q->bucket[0].items[q->bucket[0].head], out);
    } else {
        k = &q->bucket[__builtin_ctzll(q->used) + 1];
        item_out(&k->items[k->min_at], out);
    }
    return 1;
}

/* The least item of the lowest bucket above 0 holding items, after skip buckets of
 * them; 0 if there are not so many. */
static int least_above(const struct pz_radix *q, int skip, struct pz_heap_item *out)
{
    uint64_t used = q->used;
    const struct pz_radix_bucket *k;

    for (; skip > 0 && used; skip--)
        used &= used - 1;
    if (!used)
        return 0;
    k = &q->bucket[__builtin_ctzll(used) + 1];
    item_out(&k->items[k->min_at], out);
    return 1;
}

int pz_radix_peek_second(const struct pz_radix *q, struct pz_heap_item *out)
{
    const struct pz_radix_bucket *zero = &q->bucket[0], *lowest;

    if (q->count < 2)
        return 0;
    if (zero->n - zero->head >= 2) {
        item_out(&zero->items[zero->head + 1], out);
        return 1;
    }
    if (zero->n - zero->head == 1)
        return least_above(q, 0, out);
    lowest = &q->bucket[__builtin_ctzll(q->used) + 1];   /* holds the earliest */
    return lowest->n - lowest->head == 1 && least_above(q, 1, out);
}

double pz_radix_next(const struct pz_radix *q)
{
    if (q->count == 0)
        return INFINITY;
    if (q->bucket[0].head < q->bucket[0].n)
        return pz_heap_time(q->last);
    return pz_heap_time(q->bucket[__builtin_ctzll(q->used) + 1].min);
}

void pz_radix_release(struct pz_radix *q)
{
    for (int b = 0; b <= 64; b++)
        free(q->bucket[b].items);
    memset(q, 0, sizeof(*q));
}
