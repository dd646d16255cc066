/* Records put in time order (stream.c): OTF2's global reader's order, by time and, at
 * equal times, by the location's rank among the threads', one thread's records in the
 * order they came.
 *
 * The records wait until the caller knows that no earlier record can come (a
 * watermark).  Then the waiting records earlier than it, and only those, are taken out
 * and sorted at once into a batch: a least-significant-digit radix sort, stable, of one
 * 64-bit key a record, the time since a bound below every waiting record above the
 * rank.  Every record is sorted once, when it is taken, and the batches follow each
 * other in time, so no merge of sorted runs is needed.
 *
 * They wait in the buckets of a radix heap over their times: with `low` a bound below
 * every record waiting or to come, a record of time t is in bucket bits(t XOR low) (0
 * for t = low), so the buckets hold ranges of times that follow each other, bucket b
 * the times whose highest bit apart from low's is bit b - 1.  Raising low to a cut takes
 * every bucket below the cut's own whole, splits that one (its records earlier than the
 * cut taken, the others put back, each in a lower bucket: a record moves a few times
 * before it is taken) and leaves the buckets above untouched: their ranges do not
 * change.  A bucket holds its records in the order they came, so one thread's records
 * of one time, always in one bucket, stay in that order. */
#ifndef PZ_TIME_ORDER_H
#define PZ_TIME_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* A record waiting: its time, the rank of its thread's location, the record itself (the
 * caller's). */
struct pz_order_wait {
    uint64_t time;
    uint32_t rank;
    const void *item;
};

/* A record taken: its key (its time less the batch's base, shifted above the rank) and
 * the record. */
struct pz_order_entry {
    uint64_t key;
    const void *item;
};

/* The widest digit of the sort: its counts, and those of every digit of a key, stay in
 * the first two levels of the caches. */
#define PZ_ORDER_MAX_DIGIT_BITS 12

/* Records waiting, n of them, in the order they came (a chunk is filled before the next
 * one is begun). */
#define PZ_ORDER_CHUNK 170
struct pz_order_chunk {
    struct pz_order_chunk *next;
    uint32_t n;
    struct pz_order_wait w[PZ_ORDER_CHUNK];
};

/* A bucket: its chunks, first to last. */
struct pz_order_bucket {
    struct pz_order_chunk *first, *last;
};

struct pz_time_order {
    struct pz_order_bucket bucket[65];
    struct pz_order_chunk *free;    /* chunks emptied, for any bucket: the memory follows
                                       the records waiting, not each bucket's largest */
    uint32_t nwait;                 /* in all the buckets */
    struct pz_order_entry *batch;   /* the records taken last, nbatch, in order */
    struct pz_order_entry *spare;   /* as large, for the sort */
    uint32_t nbatch, batch_cap;
    uint32_t *count;                /* the sort's counts, 2^PZ_ORDER_MAX_DIGIT_BITS a digit */
    int rank_bits;                  /* bits a rank takes in a key */
    uint64_t low;                   /* no record waiting or to come is earlier */
};

/* An empty order for ranks 0 to nranks - 1, expecting about `expect` records waiting at
 * once (more are taken).  0, or -1 out of memory. */
int pz_time_order_init(struct pz_time_order *o, uint32_t nranks, uint32_t expect);

/* A record comes: its time must be no earlier than any cut taken before (the caller's
 * watermark), its rank below nranks.  0, or -1 out of memory. */
int pz_time_order_add(struct pz_time_order *o, uint64_t time, uint32_t rank,
                      const void *item);

/* Takes waiting records earlier than cut (no record earlier than it may come any more)
 * into batch[0..n-1], sorted, and returns n; -1 out of memory.  All of them, unless
 * their times span more than a key holds beside the rank: then the earliest, and
 * pz_time_order_before(o, cut) says that some are left. */
int64_t pz_time_order_take(struct pz_time_order *o, uint64_t cut);

/* Whether records earlier than cut still wait, after a take of cut. */
static inline int pz_time_order_before(const struct pz_time_order *o, uint64_t cut)
{
    return o->low < cut;
}

/* The rank of a record taken. */
static inline uint32_t pz_time_order_rank(const struct pz_time_order *o,
                                          const struct pz_order_entry *e)
{
    return (uint32_t)(e->key & ((UINT64_C(1) << o->rank_bits) - 1));
}

void pz_time_order_free(struct pz_time_order *o);

#endif
