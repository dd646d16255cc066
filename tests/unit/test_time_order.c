/* Records put in time order (analyzer/time_order.h): the order OTF2's global reader
 * gives, by time, then by the rank of the location, then (one thread's records of one
 * time) in the order they came, whether they came in one pass or in several.  Every
 * expected order is worked out by hand from that definition in the test's comment;
 * each key's item is its place in that expected order. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "time_order.h"

static struct pz_time_order o;

static void setup(void)
{
    cr_assert_eq(pz_time_order_init(&o, 4), 0);
}

static void teardown(void)
{
    pz_time_order_free(&o);
}

TestSuite(time_order, .init = setup, .fini = teardown);

/* Position p of the expected order, as an item pointer. */
static const char places[64];
#define AT(p) ((const void *)&places[p])

static void add(uint64_t time, uint32_t rank, int place)
{
    struct pz_order_key k = { time, rank, (int)rank, AT(place) };

    cr_assert_eq(pz_time_order_add(&o, &k), 0);
}

/* Pops n keys, which must come in places 0, 1, ... n-1 of the expected order. */
static void expect_order(int n)
{
    for (int i = 0; i < n; i++) {
        const struct pz_order_key *k = pz_time_order_first(&o);

        cr_assert_not_null(k, "only %d keys of %d", i, n);
        cr_expect_eq(k->item, AT(i), "key %d of the order is the one expected at %d", i,
                     (int)((const char *)k->item - places));
        pz_time_order_pop(&o);
    }
    cr_expect_null(pz_time_order_first(&o));
}

/* One pass: (5, rank 1), (3, rank 2), (5, rank 0), (3, rank 2) again, (4, rank 7).  By
 * time: the two at 3 first, of one rank, in the order they came (2nd, then 4th); then
 * 4; then at 5 rank 0 (3rd) before rank 1 (1st). */
Test(time_order, one_pass_by_time_then_rank_then_coming)
{
    add(5, 1, 4);
    add(3, 2, 0);
    add(5, 0, 3);
    add(3, 2, 1);
    add(4, 7, 2);
    cr_assert_eq(pz_time_order_seal(&o), 0);
    expect_order(5);
}

/* Two passes: (10, rank 1), (20, rank 0); then (10, rank 1), (5, rank 3).  5 first;
 * the two at 10 of rank 1 are one thread's: the first pass's before the second's; 20
 * last. */
Test(time_order, an_earlier_pass_first_at_equal_time_and_rank)
{
    add(10, 1, 1);
    add(20, 0, 3);
    cr_assert_eq(pz_time_order_seal(&o), 0);
    add(10, 1, 2);
    add(5, 3, 0);
    cr_assert_eq(pz_time_order_seal(&o), 0);
    expect_order(4);
}

/* Digits of 8 bits: times 2^40 + 1, 1, 2^40 (a range of more than 32 bits) and ranks
 * 300, 256, 2 (more than one digit): by time 1 (rank 256), 2^40 (rank 2), 2^40 + 1
 * (rank 300).  Then ranks 513 and 258 at one time (their low digits 1 and 2, their
 * high 2 and 1): 258 before 513. */
Test(time_order, keys_of_many_digits)
{
    add((1ull << 40) + 1, 300, 2);
    add(1, 256, 0);
    add(1ull << 40, 2, 1);
    cr_assert_eq(pz_time_order_seal(&o), 0);
    expect_order(3);
    add(7, 513, 1);
    add(7, 258, 0);
    cr_assert_eq(pz_time_order_seal(&o), 0);
    expect_order(2);
}

/* Times 0x100, 0x200, 0x100 of rank 0: the low digit the same for all (that pass
 * moves nothing), the next one apart: 0x100 (1st), 0x100 (3rd), 0x200. */
Test(time_order, a_digit_every_key_shares)
{
    add(0x100, 0, 0);
    add(0x200, 0, 2);
    add(0x100, 0, 1);
    cr_assert_eq(pz_time_order_seal(&o), 0);
    expect_order(3);
}

/* Keys taken between passes: (1), (4) sealed, 1 taken; then (2) sealed: 2 before 4. */
Test(time_order, a_pass_sealed_after_some_were_taken)
{
    const struct pz_order_key *k;

    add(1, 0, 0);
    add(4, 0, 1);
    cr_assert_eq(pz_time_order_seal(&o), 0);
    k = pz_time_order_first(&o);
    cr_assert_eq(k->time, 1);
    pz_time_order_pop(&o);
    add(2, 1, 0);
    cr_assert_eq(pz_time_order_seal(&o), 0);
    expect_order(2);
}

/* More passes than the runs' first capacity (8) and more keys in a pass than expected
 * (4): twenty passes of one key, times 20 down to 1, then a pass of ten keys, times 30
 * down to 21: every key in increasing time, the key of time t at place t - 1. */
Test(time_order, many_passes_and_a_large_pass)
{
    for (int t = 20; t >= 1; t--) {
        add((uint64_t)t, 0, t - 1);
        cr_assert_eq(pz_time_order_seal(&o), 0);
    }
    for (int t = 30; t >= 21; t--)
        add((uint64_t)t, 0, t - 1);
    cr_assert_eq(pz_time_order_seal(&o), 0);
    expect_order(30);
}

/* Sealing an empty pass adds nothing. */
Test(time_order, an_empty_pass)
{
    cr_assert_eq(pz_time_order_seal(&o), 0);
    cr_expect_null(pz_time_order_first(&o));
}
