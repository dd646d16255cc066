/* The queue of the model's events, the replay's threads and the Perfetto export's threads
 * (model/radix.h): the earliest first and equal times in the order of pushing; a time's
 * items joined while taken from, emptied and pushed again; the buckets items wait in,
 * derived by hand from the bits of their times; a time pushed below the one taken last;
 * negative times and NaN as 0; the item after the earliest where it is known; and long
 * sequences against the definition itself (the pending item with the least time, the
 * first pushed of them), peeking at the earliest and the second included. */
#include <criterion/criterion.h>
#include <math.h>

#include "radix.h"

static void expect_pop(struct pz_radix *q, double time, int id)
{
    struct pz_heap_item it;

    cr_assert_eq(pz_radix_pop(q, &it), 1, "empty, expected id %d", id);
    cr_assert_eq(it.id, id, "popped id %d, expected %d", it.id, id);
    cr_assert_eq(it.time, time, "id %d at %g, expected %g", id, it.time, time);
    cr_assert_eq(it.kind, id % 7, "id %d: kind %d", id, it.kind);
}

static void push(struct pz_radix *q, double time, int id)
{
    cr_assert_eq(pz_radix_push(q, time, id % 7, id), 0);
}

Test(radix, earliest_first_then_in_the_order_pushed)
{
    struct pz_radix q = { 0 };
    struct pz_heap_item it;

    cr_assert_eq(pz_radix_next(&q), INFINITY);
    cr_assert_eq(pz_radix_pop(&q, &it), 0);
    push(&q, 2, 1);
    push(&q, 1, 2);
    push(&q, 2, 3);
    push(&q, 1, 4);
    push(&q, 3, 5);
    push(&q, 2, 6);
    cr_assert_eq(pz_radix_next(&q), 1);
    expect_pop(&q, 1, 2);
    expect_pop(&q, 1, 4);
    expect_pop(&q, 2, 1);
    expect_pop(&q, 2, 3);
    expect_pop(&q, 2, 6);
    expect_pop(&q, 3, 5);
    cr_assert_eq(pz_radix_pop(&q, &it), 0);
    cr_assert_eq(pz_radix_next(&q), INFINITY);
    pz_radix_release(&q);
}

/* The bits of 1.0 are 0x3FF0000000000000, of 1.5 0x3FF8000000000000, of 2.0
 * 0x4000000000000000.  Before the first pop the last key is 0: 1.0 and 1.5 have their
 * highest 1 at bit 61 (bucket 62), 2.0 at bit 62 (bucket 63).  The first pop makes
 * 1.0 the last: 1.0 goes to bucket 0, 1.5, which differs from it first at bit 51 (the
 * mantissa's top), to bucket 52; 2.0 stays.  A push of 1.25 (0x3FF4000000000000,
 * differing from 1.0 first at bit 50) goes to bucket 51, and is next. */
Test(radix, buckets_by_the_highest_bit_differing_from_the_last)
{
    struct pz_radix q = { 0 };

    push(&q, 1.0, 1);
    push(&q, 2.0, 2);
    push(&q, 1.5, 3);
    cr_assert_eq(q.used, 1ull << 61 | 1ull << 62);
    cr_assert_eq(q.bucket[62].n, 2);
    cr_assert_eq(pz_radix_next(&q), 1.0);
    expect_pop(&q, 1.0, 1);
    cr_assert_eq(q.used, 1ull << 51 | 1ull << 62);
    cr_assert_eq(q.bucket[0].n, 0);
    cr_assert_eq(pz_radix_next(&q), 1.5);
    push(&q, 1.25, 4);
    cr_assert_eq(q.used, 1ull << 50 | 1ull << 51 | 1ull << 62);
    cr_assert_eq(pz_radix_next(&q), 1.25);
    expect_pop(&q, 1.25, 4);
    expect_pop(&q, 1.5, 3);
    expect_pop(&q, 2.0, 2);
    cr_assert_eq(q.used, 0);
    pz_radix_release(&q);
}

/* Peeking shows what the next pop takes and takes nothing.  1.5 (id 1), 1.0 (id 2),
 * 1.25 (id 3) and 1.0 (id 4) all wait in bucket 62 (their highest 1 is bit 61, the
 * last key being 0): the earliest is id 2, the second item of that bucket, before id 4
 * of the same time.  Popped, 1.0 is the last: id 4 is in bucket 0, 1.25 in bucket 51,
 * 1.5 in bucket 52 (test above), and the peeks follow. */
Test(radix, peek_shows_the_next_pop_and_leaves_it)
{
    struct pz_radix q = { 0 };
    struct pz_heap_item it;

    cr_assert_eq(pz_radix_peek(&q, &it), 0);
    push(&q, 1.5, 1);
    push(&q, 1.0, 2);
    push(&q, 1.25, 3);
    push(&q, 1.0, 4);
    cr_assert_eq(q.used, 1ull << 61);
    for (int twice = 0; twice < 2; twice++) {
        cr_assert_eq(pz_radix_peek(&q, &it), 1);
        cr_assert_eq(it.id, 2);
        cr_assert_eq(it.time, 1.0);
        cr_assert_eq(it.kind, 2);
    }
    expect_pop(&q, 1.0, 2);
    cr_assert_eq(pz_radix_peek(&q, &it), 1);
    cr_assert_eq(it.id, 4);
    expect_pop(&q, 1.0, 4);
    cr_assert_eq(q.used, 1ull << 50 | 1ull << 51);
    cr_assert_eq(pz_radix_peek(&q, &it), 1);
    cr_assert_eq(it.id, 3);
    cr_assert_eq(it.time, 1.25);
    expect_pop(&q, 1.25, 3);
    cr_assert_eq(pz_radix_peek(&q, &it), 1);
    cr_assert_eq(it.id, 1);
    expect_pop(&q, 1.5, 1);
    cr_assert_eq(pz_radix_peek(&q, &it), 0);
    pz_radix_release(&q);
}

/* Popped up to 5, with 7 (id 2) and 9 (id 3) waiting: 4 and 3 pushed below the last
 * come first, then what waited, and two items of 7 keep their order (id 2, then 5). */
Test(radix, a_time_below_the_last_taken)
{
    struct pz_radix q = { 0 };

    push(&q, 5, 1);
    push(&q, 7, 2);
    push(&q, 9, 3);
    expect_pop(&q, 5, 1);
    push(&q, 4, 4);
    push(&q, 7, 5);
    push(&q, 3, 6);
    cr_assert_eq(pz_radix_next(&q), 3);
    expect_pop(&q, 3, 6);
    expect_pop(&q, 4, 4);
    expect_pop(&q, 7, 2);
    expect_pop(&q, 7, 5);
    expect_pop(&q, 9, 3);
    pz_radix_release(&q);
}

/* Pushes at the time taken last while bucket 0 still holds items (a thread woken at the
 * very time the engine took): two at 1.0, then 1000 times one taken and one more pushed
 * at 1.0.  Bucket 0 never empties, so without giving back the room of the items taken
 * from its start it would hold 1002; it keeps its first room of 64, and the items come
 * out in the order pushed, ids 0 to 1001. */
Test(radix, the_room_of_the_items_taken_is_reused)
{
    struct pz_radix q = { 0 };

    push(&q, 1, 0);
    push(&q, 1, 1);
    for (int i = 0; i < 1000; i++) {
        expect_pop(&q, 1, i);
        push(&q, 1, i + 2);
    }
    cr_expect_eq(q.bucket[0].cap, 64);
    expect_pop(&q, 1, 1000);
    expect_pop(&q, 1, 1001);
    cr_expect_eq(q.count, 0);
    pz_radix_release(&q);
}

/* Ten pushes at 5; three taken, an eleventh at 5 joins the end of the seven left, and
 * 4, pushed after it but below the last taken (5), comes first, then the eight of 5 in
 * the order pushed.  Emptied, a time starts again: 7 pushed and taken, then 7, 6 and 7
 * again: 6 first (below the last, 7), then the two of 7 in their order. */
Test(radix, a_time_joined_while_taken_emptied_and_pushed_again)
{
    struct pz_radix q = { 0 };

    for (int id = 0; id < 10; id++)
        push(&q, 5, id);
    for (int id = 0; id < 3; id++)
        expect_pop(&q, 5, id);
    push(&q, 5, 10);
    push(&q, 4, 11);
    expect_pop(&q, 4, 11);
    for (int id = 3; id <= 10; id++)
        expect_pop(&q, 5, id);
    push(&q, 7, 20);
    expect_pop(&q, 7, 20);
    push(&q, 7, 21);
    push(&q, 6, 22);
    push(&q, 7, 23);
    expect_pop(&q, 6, 22);
    expect_pop(&q, 7, 21);
    expect_pop(&q, 7, 23);
    cr_assert_eq(pz_radix_next(&q), INFINITY);
    pz_radix_release(&q);
}

Test(radix, negative_times_and_nan_count_as_zero)
{
    struct pz_radix q = { 0 };

    push(&q, 1, 1);
    push(&q, -1, 2);
    push(&q, NAN, 3);
    push(&q, -0.0, 4);
    cr_assert_eq(pz_radix_next(&q), 0);
    expect_pop(&q, 0, 2);
    expect_pop(&q, 0, 3);
    expect_pop(&q, 0, 4);
    expect_pop(&q, 1, 1);
    pz_radix_release(&q);
}

static void expect_second(const struct pz_radix *q, int known, double time, int id)
{
    struct pz_heap_item it;

    cr_assert_eq(pz_radix_peek_second(q, &it), known, "second known: expected %d", known);
    if (known) {
        cr_assert_eq(it.id, id, "second id %d, expected %d", it.id, id);
        cr_assert_eq(it.time, time);
        cr_assert_eq(it.kind, id % 7);
    }
}

/* The bits: 1.0 is 0x3FF0..., 1.5 0x3FF8..., 3.0 0x4008..., 5.0 0x4014....  With 1.0
 * taken last, 1.5 differs from it first in bit 51 (bucket 52), 3.0 and 5.0 in bit 62
 * (bucket 63); before anything is taken (last 0) 1.0 and 3.0 differ from it in bit 62. */
Test(radix, the_second_when_known_without_a_search)
{
    struct pz_radix q = { 0 };

    expect_second(&q, 0, 0, 0);
    push(&q, 1, 1);
    expect_second(&q, 0, 0, 0);   /* one item */
    push(&q, 1, 2);
    push(&q, 3, 3);
    expect_second(&q, 0, 0, 0);   /* all three in bucket 63: the second not known */
    expect_pop(&q, 1, 1);         /* 1 and 2 went to bucket 0, 3 to bucket 63 */
    expect_second(&q, 1, 3, 3);   /* bucket 0 holds 2 alone: 3, the least above */
    push(&q, 1, 4);               /* the time taken last: bucket 0, after 2 */
    expect_second(&q, 1, 1, 4);   /* the second of bucket 0 */
    expect_pop(&q, 1, 2);
    expect_pop(&q, 1, 4);
    push(&q, 5, 5);
    expect_second(&q, 0, 0, 0);   /* 3 and 5 both in bucket 63 */
    push(&q, 1.5, 6);             /* bucket 52, alone: the earliest */
    expect_second(&q, 1, 3, 3);   /* the least of bucket 63 */
    expect_pop(&q, 1.5, 6);
    expect_pop(&q, 3, 3);
    expect_pop(&q, 5, 5);
    pz_radix_release(&q);
}

#define N 20000

/* Pushes in bursts of one time, popped a few at a time, against the definition:
 * `ahead` 1: every time at or after the time taken last (the model's use: its events
 * are never in its past), with many repeats and fractions; 0: anywhere. */
static void mixed_sequence(int ahead)
{
    static double time[N];
    static char pending[N];
    struct pz_radix q = { 0 };
    struct pz_heap_item it;
    int pushed = 0, popped = 0, seconds = 0;
    double last = 0;
    unsigned x = 12345;

    while (popped < N) {
        int burst = pushed < N ? (int)(x % 5) : 0;
        double t = (double)(x / 5 % 40) / 8 + (ahead ? last : popped / 100);

        for (int b = 0; b < burst && pushed < N; b++) {
            time[pushed] = t;
            pending[pushed] = 1;
            push(&q, t, pushed++);
        }
        for (int k = (int)(x / 200 % 3); k >= 0 && pz_radix_pop(&q, &it); k--) {
            struct pz_heap_item next;
            int want = -1;

            for (int i = 0; i < pushed; i++)
                if (pending[i] && (want < 0 || time[i] < time[want]))
                    want = i;
            cr_assert_eq(it.id, want, "pop %d: id %d, expected %d", popped, it.id, want);
            cr_assert_eq(it.time, time[want]);
            pending[want] = 0;
            last = it.time;
            popped++;
            want = -1;
            for (int i = 0; i < pushed; i++)
                if (pending[i] && (want < 0 || time[i] < time[want]))
                    want = i;
            cr_assert_eq(pz_radix_peek(&q, &next), want >= 0);
            cr_assert(want < 0 || next.id == want, "peek after pop %d", popped);
            if (pz_radix_peek_second(&q, &next)) {
                int second = -1;

                for (int i = 0; i < pushed; i++)
                    if (pending[i] && i != want && (second < 0 || time[i] < time[second]))
                        second = i;
                cr_assert_eq(next.id, second, "second after pop %d", popped);
                seconds++;
            }
        }
        x = x * 1103515245u + 12345u;
    }
    cr_assert_eq(pz_radix_pop(&q, &it), 0);
    cr_assert_eq(q.count, 0);
    cr_assert_gt(seconds, N / 10, "the second known %d times", seconds);
    pz_radix_release(&q);
}

Test(radix, a_long_sequence_never_below_the_last_as_defined)
{
    mixed_sequence(1);
}

Test(radix, a_long_sequence_anywhere_as_defined)
{
    mixed_sequence(0);
}
