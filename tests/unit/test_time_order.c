/* Records put in time order (analyzer/time_order.h): the order OTF2's global reader
 * gives, by time, then by the rank of the location, then (one thread's records of one
 * time) in the order they came, whether they were taken in one batch or in several;
 * and only the records earlier than the cut are taken.  Every expected order is worked
 * out by hand from that definition in the test's comment; each record's item is its
 * place in that expected order. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "time_order.h"

static struct pz_time_order o;

static void teardown(void)
{
    pz_time_order_free(&o);
}

TestSuite(time_order, .fini = teardown);

/* Position p of the expected order, as an item pointer. */
static const char places[64];
#define AT(p) ((const void *)&places[p])

static void init(uint32_t nranks)
{
    cr_assert_eq(pz_time_order_init(&o, nranks, 4), 0);
}

static void add(uint64_t time, uint32_t rank, int place)
{
    cr_assert_eq(pz_time_order_add(&o, time, rank, AT(place)), 0);
}

/* Takes the records earlier than cut, in as many batches as it takes: they must be
 * those of places from, from + 1, ... from + n - 1 of the expected order. */
static void expect_taken(uint64_t cut, int from, int n)
{
    int got = 0;

    do {
        int64_t k = pz_time_order_take(&o, cut);

        cr_assert_geq(k, 0);
        for (int64_t i = 0; i < k; i++, got++) {
            const void *item = o.batch[i].item;

            cr_assert_lt(got, n, "more than %d records earlier than %llu", n,
                         (unsigned long long)cut);
            cr_expect_eq(item, AT(from + got), "record %d taken is the one expected at %d",
                         from + got, (int)((const char *)item - places));
        }
    } while (pz_time_order_before(&o, cut));
    cr_expect_eq(got, n, "%d records taken before %llu, %d expected", got,
                 (unsigned long long)cut, n);
}

/* (5, rank 1), (3, rank 2), (5, rank 0), (3, rank 2) again, (4, rank 7).  By time: the
 * two at 3 first, of one rank, in the order they came (2nd, then 4th); then 4; then at
 * 5 rank 0 (3rd) before rank 1 (1st). */
Test(time_order, by_time_then_rank_then_coming)
{
    init(8);
    add(5, 1, 4);
    add(3, 2, 0);
    add(5, 0, 3);
    add(3, 2, 1);
    add(4, 7, 2);
    expect_taken(UINT64_MAX, 0, 5);
}

/* (5, rank 0), (3, rank 1), (8, rank 0), (6, rank 1): a cut at 6 takes 3 and 5 only (6
 * is not earlier than it); then (7, rank 0) comes, and a cut at 9 takes 6, 7, 8. */
Test(time_order, only_the_records_earlier_than_the_cut)
{
    init(2);
    add(5, 0, 1);
    add(3, 1, 0);
    add(8, 0, 4);
    add(6, 1, 2);
    expect_taken(6, 0, 2);
    add(7, 0, 3);
    expect_taken(9, 2, 3);
    expect_taken(UINT64_MAX, 5, 0);
}

/* One thread's records of one time on both sides of a take: (10, rank 1) waits past a
 * cut at 10; then (10, rank 1) again and (12, rank 0) come: 10 (the first), 10 (the
 * second), 12. */
Test(time_order, one_thread_s_records_of_one_time_across_takes)
{
    init(2);
    add(10, 1, 0);
    expect_taken(10, 0, 0);
    add(10, 1, 1);
    add(12, 0, 2);
    expect_taken(13, 0, 3);
}

/* The buckets split and refilled (low 0 at first): times 5, 6, 7, 4 (all of bucket
 * bits(t) = 3), 1 (bucket 1), 9 (bucket 4), all rank 0.  A cut at 6 takes 1, 4, 5 (6 and
 * 7 go back below, by their bits apart from 6: buckets 0 and 1); a cut at 8 takes 6,
 * 7 (9 moves to bucket bits(9 ^ 8) = 1); then (8, rank 0) comes, after the cut: 8, 9. */
Test(time_order, buckets_split_and_refilled)
{
    init(1);
    add(5, 0, 2);
    add(6, 0, 3);
    add(7, 0, 4);
    add(4, 0, 1);
    add(1, 0, 0);
    add(9, 0, 6);
    expect_taken(6, 0, 3);
    expect_taken(8, 3, 2);
    add(8, 0, 5);
    expect_taken(UINT64_MAX, 5, 2);
}

/* Forty records, more than insertion sorts, of keys of many digits: record i at time
 * (39 - i / 2) * 2^33 (pairs of one time, over more than 38 bits) and rank 600 for even
 * i, 3 for odd i (ranks of 10 bits).  By time, the pair of i = 38, 39 first; within a
 * pair rank 3 (odd i) first: record i at place 2 * (19 - i / 2) + (i even). */
Test(time_order, keys_of_many_digits)
{
    init(601);
    for (int i = 0; i < 40; i++)
        add((uint64_t)(39 - i / 2) << 33, i % 2 ? 3 : 600, 2 * (19 - i / 2) + (i % 2 == 0));
    expect_taken(UINT64_MAX, 0, 40);
}

/* Forty records of one time, ranks 39 down to 0, the low digit of the time the same
 * for all: by rank, record of rank r at place r. */
Test(time_order, many_records_of_one_time)
{
    init(40);
    for (int r = 39; r >= 0; r--)
        add(1000, (uint32_t)r, r);
    expect_taken(1001, 0, 40);
}

/* Times farther apart than a key holds beside a rank: 4 ranks leave 62 bits of time
 * a key, and 1, 2^62 + 1, 2^63 + 5 are taken in three steps, in order. */
Test(time_order, times_farther_apart_than_a_key_holds)
{
    init(4);
    add((UINT64_C(1) << 63) + 5, 0, 2);
    add(1, 3, 0);
    add((UINT64_C(1) << 62) + 1, 1, 1);
    expect_taken(UINT64_MAX, 0, 3);
}

/* Every record far above low (0): 2^63 + 10 and 2^63 + 3 (rank 1 and 0, 4 ranks): low
 * jumps to the earliest, and one take gives both, 2^63 + 3 first. */
Test(time_order, records_far_above_the_first_bound)
{
    init(4);
    add((UINT64_C(1) << 63) + 10, 1, 1);
    add((UINT64_C(1) << 63) + 3, 0, 0);
    cr_assert_eq(pz_time_order_take(&o, UINT64_MAX), 2);
    cr_expect_eq(o.batch[0].item, AT(0));
    cr_expect_eq(o.batch[1].item, AT(1));
    cr_expect_eq(pz_time_order_rank(&o, &o.batch[0]), 0);
    cr_expect_eq(pz_time_order_rank(&o, &o.batch[1]), 1);
}

/* A take with nothing waiting gives nothing. */
Test(time_order, nothing_waiting)
{
    init(4);
    cr_expect_eq(pz_time_order_take(&o, 100), 0);
    cr_expect_not(pz_time_order_before(&o, 100));
}

/* The batch's room grows to twice what it was at least, so that its arrays are
 * reallocated a few times in a run, not at every take that finds more records waiting.
 * init expects 4 records: room 4.  Five records waiting at a take: room max(2 x 4, 5) =
 * 8 (was 5).  Nine at the next take: max(2 x 8, 9) = 16 (was 9).  Then 40 at once:
 * max(2 x 16, 40) = 40.  Every record taken each time (cut above their times). */
Test(time_order, the_batch_s_room_doubles)
{
    int place = 0;

    init(2);
    cr_assert_eq(o.batch_cap, 4);
    for (int i = 0; i < 5; i++)
        add(10, 0, place + i);
    expect_taken(11, place, 5);
    place += 5;
    cr_expect_eq(o.batch_cap, 8);
    for (int i = 0; i < 9; i++)
        add(20, 1, place + i);
    expect_taken(21, place, 9);
    place += 9;
    cr_expect_eq(o.batch_cap, 16);
    for (int i = 0; i < 40; i++)
        add(30, 0, place + i);
    expect_taken(31, place, 40);
    cr_expect_eq(o.batch_cap, 40);
}

/* --- random runs against the definition itself */

struct record {
    uint64_t time;
    uint32_t rank, seq;
    int taken;
};

static uint64_t state = 88172645463325252ull;

/* Marsaglia's xorshift64: the same runs every time. */
static uint64_t next_random(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* Whether a comes before b by the definition: time, then rank, then arrival. */
static int before(const struct record *a, const struct record *b)
{
    return a->time != b->time ? a->time < b->time
           : a->rank != b->rank ? a->rank < b->rank : a->seq < b->seq;
}

/* The record not taken yet earlier than cut that comes first by the definition, NULL if
 * none: a linear search, the definition written out, to compare the radix heap with. */
static struct record *first_before(struct record *r, int n, uint64_t cut)
{
    struct record *best = NULL;

    for (int i = 0; i < n; i++)
        if (!r[i].taken && r[i].time < cut && (!best || before(&r[i], best)))
            best = &r[i];
    return best;
}

/* One run: records of random ranks below nranks come in rounds, each at times from the
 * last cut on (steps of a few units, or jumps of up to 2^60 that span more than a key
 * holds beside the rank); after each round a cut a random distance on, and every record taken must be,
 * one after the other, the first not taken by the definition. */
static void random_run(uint32_t nranks, int rounds)
{
    static struct record r[4096];
    uint64_t cut = next_random() % 1000;
    int n = 0;

    cr_assert_eq(pz_time_order_init(&o, nranks, 16), 0);
    for (int round = 0; round < rounds; round++) {
        int k = (int)(next_random() % 40);
        uint64_t jump = cut < UINT64_C(1) << 62 && next_random() % 8 == 0
                        ? UINT64_C(1) << (next_random() % 61) : 0;   /* far below 2^64 */

        for (int i = 0; i < k && n < 4096; i++, n++) {
            uint64_t spread = next_random() % 4 == 0 ? 3 : 1000;

            r[n] = (struct record){ cut + next_random() % spread + (i % 2 ? jump : 0),
                                    (uint32_t)(next_random() % nranks), (uint32_t)n, 0 };
            cr_assert_eq(pz_time_order_add(&o, r[n].time, r[n].rank, &r[n]), 0);
        }
        cut += next_random() % 5 == 0 ? jump + 1 : next_random() % 1500;
        do {
            int64_t got = pz_time_order_take(&o, cut);

            cr_assert_geq(got, 0);
            for (int64_t i = 0; i < got; i++) {
                struct record *want = first_before(r, n, cut), *item = (void *)o.batch[i].item;

                cr_assert_not_null(want, "a record taken that is not earlier than %llu",
                                   (unsigned long long)cut);
                cr_assert_eq(item, want, "taken: time %llu rank %u (came %u); the first by "
                             "the definition: time %llu rank %u (came %u)",
                             (unsigned long long)item->time, item->rank, item->seq,
                             (unsigned long long)want->time, want->rank, want->seq);
                want->taken = 1;
            }
        } while (pz_time_order_before(&o, cut));
        cr_assert_null(first_before(r, n, cut), "a record earlier than the cut left waiting");
    }
    pz_time_order_free(&o);
    memset(&o, 0, sizeof(o));
}

/* 300 runs of 1 to 40 ranks, 30 rounds each. */
Test(time_order, random_runs_take_the_order_the_definition_gives)
{
    for (int run = 0; run < 300; run++)
        random_run(1 + (uint32_t)(next_random() % 40), 30);
}
