/* The ping-pong's rounds (tools/calibrate_rounds.c): a size's time and spread from its
 * rounds, the spread beyond which a size's rounds disagree, a key's spread over the
 * rounds and when each round begins.  Every expected value is worked out by hand in
 * the comment beside it. */
#include <criterion/criterion.h>
#include <math.h>

#include "calibrate_rounds.h"

#define EPS 1e-12

Test(calibrate_rounds, time_is_the_lower_quartile_and_spread_the_interquartile_range)
{
    /* sorted 3, 4, 5, 6, 100: the quartiles at (5 - 1) x 0.25 = 1 and 3, 4 and 6: time 4,
     * spread (6 - 4) / 4 = 0.5.  The round slowed by a load (100) moves neither. */
    double r[] = { 5, 100, 3, 6, 4 }, spread;

    cr_assert_float_eq(pz_cal_round_time(r, 5, &spread), 4, EPS);
    cr_assert_float_eq(spread, 0.5, EPS);
    cr_assert_float_eq(r[1], 100, EPS, "the rounds are not reordered");
}

Test(calibrate_rounds, three_slow_rounds_of_five_leave_the_time)
{
    /* sorted 10, 11, 30, 40, 50: quartiles 11 and 40: time 11, spread 29 / 11 */
    double r[] = { 40, 10, 30, 50, 11 }, spread;

    cr_assert_float_eq(pz_cal_round_time(r, 5, &spread), 11, EPS);
    cr_assert_float_eq(spread, 29.0 / 11, EPS);
}

Test(calibrate_rounds, nine_rounds_take_the_third_lowest)
{
    /* 1 to 9: quartiles at 8 x 0.25 = 2 and 6: 3 and 7, spread 4 / 3 */
    double r[] = { 9, 8, 7, 6, 5, 4, 3, 2, 1 }, spread;

    cr_assert_float_eq(pz_cal_round_time(r, 9, &spread), 3, EPS);
    cr_assert_float_eq(spread, 4.0 / 3, EPS);
}

Test(calibrate_rounds, even_count_interpolates)
{
    /* 2, 4, 6, 8: quartiles at 3 x 0.25 = 0.75, 2 + 0.75 x 2 = 3.5, and at 2.25,
     * 6 + 0.25 x 2 = 6.5: time 3.5, spread 3 / 3.5 */
    double r[] = { 8, 2, 6, 4 }, spread;

    cr_assert_float_eq(pz_cal_round_time(r, 4, &spread), 3.5, EPS);
    cr_assert_float_eq(spread, 3 / 3.5, EPS);
}

Test(calibrate_rounds, one_round_has_no_spread)
{
    double r[] = { 7 }, spread;

    cr_assert_float_eq(pz_cal_round_time(r, 1, &spread), 7, EPS);
    cr_assert_float_eq(spread, 0, EPS);
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
    /* 5 rounds over 40 s: every 40 / 4 = 10 s */
    cr_assert_float_eq(pz_cal_round_start(0, 5, 40), 0, EPS);
    cr_assert_float_eq(pz_cal_round_start(1, 5, 40), 10, EPS);
    cr_assert_float_eq(pz_cal_round_start(4, 5, 40), 40, EPS);
    cr_assert_float_eq(pz_cal_round_start(0, 1, 40), 0, EPS);
}
