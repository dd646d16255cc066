/* The queue of the replay's threads and of the model's events (model/heap.h): the
 * earliest first and equal times in the order of pushing, through runs joined, emptied
 * and made again; peeking at the earliest; negative times and NaN as 0; and a long
 * mixed sequence against the definition itself (the pending item with the least time,
 * the first pushed of them). */
#include <criterion/criterion.h>
#include <math.h>

#include "heap.h"

static void expect_pop(struct pz_heap *h, double time, int id)
{
    struct pz_heap_item it;

    cr_assert_eq(pz_heap_pop(h, &it), 1, "empty, expected id %d", id);
    cr_assert_eq(it.id, id, "popped id %d, expected %d", it.id, id);
    cr_assert_eq(it.time, time, "id %d at %g, expected %g", id, it.time, time);
    cr_assert_eq(it.kind, id % 7, "id %d: kind %d", id, it.kind);
}

static void push(struct pz_heap *h, double time, int id)
{
    cr_assert_eq(pz_heap_push(h, time, id % 7, id), 0);
}

Test(heap, earliest_first_then_in_the_order_pushed)
{
    struct pz_heap h = { 0 };
    struct pz_heap_item it;

    cr_assert_eq(pz_heap_next(&h), INFINITY);
    cr_assert_eq(pz_heap_pop(&h, &it), 0);
    push(&h, 2, 1);
    push(&h, 1, 2);
    push(&h, 2, 3);
    push(&h, 1, 4);
    push(&h, 3, 5);
    push(&h, 2, 6);
    cr_assert_eq(pz_heap_next(&h), 1);
    expect_pop(&h, 1, 2);
    expect_pop(&h, 1, 4);
    expect_pop(&h, 2, 1);
    expect_pop(&h, 2, 3);
    expect_pop(&h, 2, 6);
    expect_pop(&h, 3, 5);
    cr_assert_eq(pz_heap_pop(&h, &it), 0);
    pz_heap_release(&h);
}

/* Peeking shows what the next pop takes and takes nothing: pushed (3, id 1), (1, id 2),
 * (1, id 3), the earliest is id 2 at 1 (pushed before id 3 at that time), again at a
 * second peek; popped, id 3 at 1 is next, then id 1 at 3, then nothing. */
Test(heap, peek_shows_the_next_pop_and_leaves_it)
{
    struct pz_heap h = { 0 };
    struct pz_heap_item it;

    cr_assert_eq(pz_heap_peek(&h, &it), 0);
    push(&h, 3, 1);
    push(&h, 1, 2);
    push(&h, 1, 3);
    for (int twice = 0; twice < 2; twice++) {
        cr_assert_eq(pz_heap_peek(&h, &it), 1);
        cr_assert_eq(it.id, 2);
        cr_assert_eq(it.time, 1);
        cr_assert_eq(it.kind, 2);
    }
    expect_pop(&h, 1, 2);
    cr_assert_eq(pz_heap_peek(&h, &it), 1);
    cr_assert_eq(it.id, 3);
    expect_pop(&h, 1, 3);
    cr_assert_eq(pz_heap_peek(&h, &it), 1);
    cr_assert_eq(it.id, 1);
    cr_assert_eq(it.time, 3);
    expect_pop(&h, 3, 1);
    cr_assert_eq(pz_heap_peek(&h, &it), 0);
    pz_heap_release(&h);
}

/* Ten pushes at 5 make one run; three popped, an eleventh joins its end while it is
 * queued.  Emptied, a run is gone: the next push at its time makes a new one, behind
 * an earlier time pushed after it. */
Test(heap, runs_joined_emptied_and_made_again)
{
    struct pz_heap h = { 0 };

    for (int id = 0; id < 10; id++)
        push(&h, 5, id);
    for (int id = 0; id < 3; id++)
        expect_pop(&h, 5, id);
    push(&h, 5, 10);
    push(&h, 4, 11);
    expect_pop(&h, 4, 11);
    for (int id = 3; id <= 10; id++)
        expect_pop(&h, 5, id);
    push(&h, 7, 20);
    expect_pop(&h, 7, 20);
    push(&h, 7, 21);
    push(&h, 6, 22);
    push(&h, 7, 23);
    expect_pop(&h, 6, 22);
    expect_pop(&h, 7, 21);
    expect_pop(&h, 7, 23);
    cr_assert_eq(pz_heap_next(&h), INFINITY);
    pz_heap_release(&h);
}

Test(heap, negative_times_and_nan_count_as_zero)
{
    struct pz_heap h = { 0 };

    push(&h, 1, 1);
    push(&h, -1, 2);
    push(&h, NAN, 3);
    push(&h, -0.0, 4);
    cr_assert_eq(pz_heap_next(&h), 0);
    expect_pop(&h, 0, 2);
    expect_pop(&h, 0, 3);
    expect_pop(&h, 0, 4);
    expect_pop(&h, 1, 1);
    pz_heap_release(&h);
}

#define N 20000

/* Times with many repeats, pushed in bursts of one time and popped a few at a time. */
Test(heap, a_long_mixed_sequence_as_defined)
{
    static double time[N];
    static char pending[N];
    struct pz_heap h = { 0 };
    struct pz_heap_item it;
    int pushed = 0, popped = 0;
    unsigned x = 12345;

    while (popped < N) {
        int burst = pushed < N ? (int)(x % 5) : 0;
        double t = (double)(x / 5 % 40) + popped / 100;

        for (int b = 0; b < burst && pushed < N; b++) {
            time[pushed] = t;
            pending[pushed] = 1;
            push(&h, t, pushed++);
        }
        for (int k = (int)(x / 200 % 3); k >= 0 && pz_heap_pop(&h, &it); k--) {
            int want = -1;

            for (int i = 0; i < pushed; i++)
                if (pending[i] && (want < 0 || time[i] < time[want]))
                    want = i;
            cr_assert_eq(it.id, want, "pop %d: id %d, expected %d", popped, it.id, want);
            cr_assert_eq(it.time, time[want]);
            pending[want] = 0;
            popped++;
        }
        x = x * 1103515245u + 12345u;
    }
    cr_assert_eq(pz_heap_pop(&h, &it), 0);
    pz_heap_release(&h);
}
