/* The ping-pong's rounds (tools/calibrate_rounds.c): a size's time and spread from its
 * rounds (their median), the spread beyond which a size's rounds disagree, a key's spread over the
 * rounds and when each round begins.  Every expected value is worked out by hand in
 * the comment beside it. */
#include <criterion/criterion.h>
#include <math.h>

#include "calibrate_rounds.h"

#define EPS 1e-12

Test(calibrate_rounds, time_is_the_median_and_spread_the_interquartile_range)
{
    /* sorted 3, 4, 5, 6, 100: the median the third, 5; the quartiles at (5 - 1) x 0.25 =
     * 1 and 3, 4 and 6: spread (6 - 4) / 5 = 0.4.  The round slowed by a load (100)
     * moves neither. */
    double r[] = { 5, 100, 3, 6, 4 }, spread;

    cr_assert_float_eq(pz_cal_round_time(r, 5, &spread), 5, EPS);
    cr_assert_float_eq(spread, 0.4, EPS);
    cr_assert_float_eq(r[1], 100, EPS, "the rounds are not reordered");
}

Test(calibrate_rounds, two_fast_rounds_of_five_leave_the_time)
{
    /* A machine with a fast state now and then: 1 MiB one way 703, 589, 631, 174, 660 us
     * in five rounds of one calibration, and a second fast round (180) in another.  The
     * lower quartile (order statistic 1 of 0..4) took 589 in the first and 180 in the
     * second; the median (order statistic 2) takes 631 in both: sorted 174, 589, 631,
     * 660, 703 and 174, 180, 631, 660, 703. */
    double a[] = { 703, 589, 631, 174, 660 }, b[] = { 703, 180, 631, 174, 660 }, spread;

    cr_assert_float_eq(pz_cal_round_time(a, 5, &spread), 631, EPS);
    /* quartiles 589 and 660: (660 - 589) / 631 */
    cr_assert_float_eq(spread, 71.0 / 631, EPS);
    cr_assert_float_eq(pz_cal_round_time(b, 5, &spread), 631, EPS);
    /* quartiles 180 and 660: (660 - 180) / 631, the disagreement shows */
    cr_assert_float_eq(spread, 480.0 / 631, EPS);
}

Test(calibrate_rounds, nine_rounds_take_the_fifth)
{
    /* 1 to 9: the median the fifth, 5; quartiles at 8 x 0.25 = 2 and 6: 3 and 7, spread
     * 4 / 5 */
    double r[] = { 9, 8, 7, 6, 5, 4, 3, 2, 1 }, spread;

    cr_assert_float_eq(pz_cal_round_time(r, 9, &spread), 5, EPS);
    cr_assert_float_eq(spread, 4.0 / 5, EPS);
}

Test(calibrate_rounds, even_count_interpolates)
{
    /* 2, 4, 6, 8: the median at 3 x 0.5 = 1.5, (4 + 6) / 2 = 5; quartiles at 0.75,
     * 2 + 0.75 x 2 = 3.5, and at 2.25, 6 + 0.25 x 2 = 6.5: spread 3 / 5 */
    double r[] = { 8, 2, 6, 4 }, spread;

    cr_assert_float_eq(pz_cal_round_time(r, 4, &spread), 5, EPS);
    cr_assert_float_eq(spread, 3.0 / 5, EPS);
}

Test(calibrate_rounds, rounds_not_measured_are_left_out)
{
    /* NAN, 2, NAN, 4, 6: the median of 2, 4, 6 is 4; quartiles at 2 x 0.25 = 0.5 and 1.5:
     * 3 and 5, spread 2 / 4 */
    double r[] = { NAN, 2, NAN, 4, 6 }, spread;

    cr_assert_float_eq(pz_cal_round_time(r, 5, &spread), 4, EPS);
    cr_assert_float_eq(spread, 0.5, EPS);
}

Test(calibrate_rounds, no_round_measured_has_no_time)
{
    double r[] = { NAN, NAN }, spread = 0;

    cr_assert(isnan(pz_cal_round_time(r, 2, &spread)));
    cr_assert(isnan(spread));
    cr_assert(isnan(pz_cal_round_time(r, 0, &spread)), "no round at all");
}

Test(calibrate_rounds, one_round_has_no_spread)
{
    double r[] = { 7 }, spread;

    cr_assert_float_eq(pz_cal_round_time(r, 1, &spread), 7, EPS);
    cr_assert_float_eq(spread, 0, EPS);
}

Test(calibrate_rounds, a_median_of_zero_has_no_spread)
{
    /* -1, 0, 1: median 0, the spread undefined */
    double r[] = { 1, -1, 0 }, spread = 0;

    cr_assert_float_eq(pz_cal_round_time(r, 3, &spread), 0, EPS);
    cr_assert(isnan(spread));
}

Test(calibrate_rounds, spread_limit_is_times_the_median_spread)
{
    /* sorted 0.01, 0.02, 0.03, 0.04, 0.5: median 0.03, 3 x 0.03 = 0.09 > the floor 0.05 */
    double s[] = { 0.02, 0.5, 0.01, 0.04, 0.03 };

    cr_assert_float_eq(pz_cal_spread_limit(s, 5), 0.09, EPS);
}

Test(calibrate_rounds, spread_limit_has_a_floor)
{
    /* median 0.01, 3 x 0.01 = 0.03 < 0.05: the floor */
    double s[] = { 0.01, 0.01, 0.3 };

    cr_assert_float_eq(pz_cal_spread_limit(s, 3), PZ_CAL_SPREAD_FLOOR, EPS);
}

Test(calibrate_rounds, key_spread_is_the_range_over_the_median)
{
    /* 3.5, 3.6, 3.8, 4.0, 4.2: (4.2 - 3.5) / 3.8 = 0.7 / 3.8 */
    double v[] = { 3.6e-6, 4.2e-6, 3.5e-6, 3.8e-6, 4.0e-6 };

    cr_assert_float_eq(pz_cal_key_spread(v, 5), 0.7 / 3.8, 1e-9);
    cr_assert_float_eq(pz_cal_key_spread(v, 1), 0, EPS);
    cr_assert(isnan(pz_cal_key_spread((double[]){ -1, 0, 1 }, 3)), "median 0: no spread");
}

Test(calibrate_rounds, rounds_begin_evenly_over_the_span)
{
    /* 5 rounds over 40 s: every 40 / 4 = 10 s; 9 rounds: every 40 / 8 = 5 s */
    cr_assert_float_eq(pz_cal_round_start(0, 5, 40), 0, EPS);
    cr_assert_float_eq(pz_cal_round_start(1, 5, 40), 10, EPS);
    cr_assert_float_eq(pz_cal_round_start(4, 5, 40), 40, EPS);
    cr_assert_float_eq(pz_cal_round_start(3, 9, 40), 15, EPS);
    /* the second round added after 9: round 10, at the same pace, 10 x 5 = 50 s */
    cr_assert_float_eq(pz_cal_round_start(10, 9, 40), 50, EPS);
    cr_assert_float_eq(pz_cal_round_start(0, 1, 40), 0, EPS);
}

/* valH's first calibration, 1 MiB one way per round (us): 166.357 178.049 162.226
 * 631.775 678.924 170.041 164.725 608.124 589.669.  Sorted, the fifth of nine is 178.049:
 * its state is 178.049 / 1.5 = 118.7 to 178.049 x 1.5 = 267.1, rounds 1, 2, 3, 6 and 7;
 * the four slow rounds (589 to 679) are out.  Their kept median is 166.357, where the
 * nine rounds' is 178.049. */
Test(calibrate_rounds, the_state_keeps_the_rounds_of_the_median_state)
{
    double tag[] = { 166.357, 178.049, 162.226, 631.775, 678.924, 170.041, 164.725, 608.124,
                     589.669 };
    int keep[9], want[] = { 1, 1, 1, 0, 0, 1, 1, 0, 0 };
    double spread, mid;

    cr_assert_eq(pz_cal_state_rounds(tag, 9, keep, &mid), 5);
    cr_assert_float_eq(mid, 178.049, EPS);
    for (int r = 0; r < 9; r++)
        cr_assert_eq(keep[r], want[r], "round %d", r + 1);
    cr_assert_float_eq(pz_cal_kept_time(tag, keep, 9, &spread), 166.357, EPS);
    cr_assert_float_eq(pz_cal_round_time(tag, 9, &spread), 178.049, EPS);
}

/* Five slow rounds of nine: the median is the fastest slow one, 540, the state 360 to
 * 810, the four fast rounds out.  Round 2 not measured (NAN) is kept, and the eight
 * measured are four and four: sorted 165 168 170 175 560 580 600 620, the lower middle
 * 175, the state 116.7 to 262.5: the four fast rounds and round 2. */
Test(calibrate_rounds, the_slow_state_when_most_rounds_are_slow_and_an_unmeasured_round_kept)
{
    double tag[] = { 170, 540, 600, 165, 580, 175, 620, 168, 560 };
    int keep[9], want[] = { 0, 1, 1, 0, 1, 0, 1, 0, 1 };
    double mid;

    cr_assert_eq(pz_cal_state_rounds(tag, 9, keep, &mid), 5);
    cr_assert_float_eq(mid, 540, EPS);
    for (int r = 0; r < 9; r++)
        cr_assert_eq(keep[r], want[r], "round %d", r + 1);
    tag[1] = NAN;
    cr_assert_eq(pz_cal_state_rounds(tag, 9, keep, &mid), 5);
    cr_assert_float_eq(mid, 175, EPS);
    for (int r = 0; r < 9; r++)
        cr_assert_eq(keep[r], r == 1 || !want[r], "round %d with round 2 not measured", r + 1);
}

/* The state's size: the largest from 64 KiB to 1 MiB; none below 64 KiB; 2 MiB is above. */
Test(calibrate_rounds, the_size_that_tags_the_state)
{
    double sizes[] = { 0, 1024, 65536, 1048576, 2097152 };

    cr_assert_float_eq(pz_cal_state_size(sizes, 5), 1048576, EPS);
    cr_assert_float_eq(pz_cal_state_size(sizes, 3), 65536, EPS);
    cr_assert_float_eq(pz_cal_state_size(sizes, 2), 0, EPS);
}

/* Kept values pass, the others become NAN; NULL keeps every one. */
Test(calibrate_rounds, kept_values)
{
    double v[] = { 1, 2, 3 }, out[3];
    int keep[] = { 1, 0, 1 };

    pz_cal_kept(v, keep, 3, out);
    cr_assert_float_eq(out[0], 1, EPS);
    cr_assert(isnan(out[1]));
    cr_assert_float_eq(out[2], 3, EPS);
    pz_cal_kept(v, NULL, 3, out);
    cr_assert_float_eq(out[1], 2, EPS);
}
