/* Ticks to nanoseconds: the line through two anchors, computed by hand. */
#include <criterion/criterion.h>

#include "clock.h"

static const struct pz_anchor a = { 1000, 5000 }, b = { 3000, 6000 };  /* 0.5 ns per tick */

Test(clock, ticks_become_nanoseconds_on_the_line_through_the_anchors)
{
    pz_clock_tsc = 1;
    cr_assert_eq(pz_ticks_to_ns(1000, a, b), 5000);
    cr_assert_eq(pz_ticks_to_ns(3000, a, b), 6000);
    cr_assert_eq(pz_ticks_to_ns(2000, a, b), 5500);
    cr_assert_eq(pz_ticks_to_ns(2001, a, b), 5500, "rounded down");
    cr_assert_eq(pz_ticks_to_ns(600, a, b), 4800, "before the first anchor: extrapolated");
}

Test(clock, long_runs_do_not_overflow)
{
    /* 3 GHz counter, anchors an hour apart, a tick 10 hours on */
    struct pz_anchor x = { 0, 1000 }, y = { 3600ull * 3000000000ull, 1000 + 3600ull * 1000000000ull };

    pz_clock_tsc = 1;
    cr_assert_eq(pz_ticks_to_ns(36000ull * 3000000000ull, x, y), 1000 + 36000ull * 1000000000ull);
}

Test(clock, monotonic_ticks_are_nanoseconds_already)
{
    pz_clock_tsc = 0;
    cr_assert_eq(pz_ticks_to_ns(123456789, a, b), 123456789);
}

Test(clock, anchors_read_both_clocks_at_one_moment)
{
    struct pz_anchor first = pz_anchor_now(), second;

    second = pz_anchor_now();
    cr_assert_geq(second.ticks, first.ticks);
    cr_assert_geq(second.ns, first.ns);
}
