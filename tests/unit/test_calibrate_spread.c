/* The keys' spreads over the rounds (tools/calibrate_spread.c) and the overheads'
 * probe's rule for a receive whose message had arrived (tools/calibrate_overhead.c).
 * Every expected value is worked out by hand in the comment beside it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate_overhead.h"
#include "calibrate_spread.h"

#define EPS 1e-12

Test(calibrate_spread, median_and_spread_of_the_rounds_measured)
{
    /* 2, NAN, 6, 3, 5 (us): measured 2, 3, 5, 6; the median (3 + 5) / 2 = 4, the spread
     * (6 - 2) / 4 = 1 */
    struct pz_cal_round_key k = { "x", "us", 1e6, { 2e-6, NAN, 6e-6, 3e-6, 5e-6 }, 5 };
    double spread;

    cr_assert_float_eq(pz_cal_round_key_median(&k, NULL, &spread), 4e-6, EPS);
    cr_assert_float_eq(spread, 1, 1e-9);
    cr_assert_float_eq(k.v[0], 2e-6, EPS, "the rounds are not reordered");
}

Test(calibrate_spread, no_round_measured)
{
    struct pz_cal_round_key k = { "x", "us", 1e6, { NAN, NAN }, 2 };
    double spread;

    cr_assert(isnan(pz_cal_round_key_median(&k, NULL, &spread)));
    cr_assert_float_eq(spread, 0, EPS, "fewer than 2 values: no spread");
}

Test(calibrate_spread, one_line_per_key_with_its_rounds_median_and_spread)
{
    /* 1, 3, 2 us: median 2, spread (3 - 1) / 2 = 100%; 4 GB/s and a round not measured:
     * median 4, spread 0% */
    struct pz_cal_round_key k[2] = { { "send overhead, 0 B", "us", 1e6, { 1e-6, 3e-6, 2e-6 }, 3 },
                                     { "bandwidth", "GB/s", 1e-9, { 4e9, NAN }, 2 } };
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    pz_cal_print_round_keys(f, "# ", k, 2, NULL);
    fclose(f);
    cr_assert_str_eq(text,
                     "# send overhead, 0 B          1.000    3.000    2.000  us; median 2.000, "
                     "spread 100.0%\n"
                     "# bandwidth                   4.000        -  GB/s; median 4.000, "
                     "spread 0.0%\n");
    free(text);
}

Test(calibrate_spread, a_receive_is_kept_once_its_message_had_arrived)
{
    /* the send ended at 100 s by rank 0's clock, a message takes at most 5 us after it,
     * rank 1's clock is 2 s ahead: the message was there from 102.000005 s by rank 1's
     * clock */
    cr_assert(pz_cal_arrived(102.00001, 100, 2, 5e-6), "began 5 us after it arrived");
    cr_assert(pz_cal_arrived(102.000005, 100, 2, 4e-6), "began after it arrived");
    cr_assert(!pz_cal_arrived(102.000004, 100, 2, 5e-6), "began 1 us before it arrived");
    cr_assert(!pz_cal_arrived(101.5, 100, 2, 5e-6), "began before the send ended");
    /* without the offset, 100.5 s would look half a second late: it is early */
    cr_assert(!pz_cal_arrived(100.5, 100, 2, 0), "the offset is taken out");
}

Test(calibrate_spread, the_receive_takes_the_rounds_that_kept_a_try)
{
    /* kept in rounds 1, 3 and 4 only: 2.5, 2.6, 2.7 us, median 2.6; the rounds' times over
     * every try (4000 us: a time slice in each) do not count */
    double kept[] = { NAN, 2.5e-6, NAN, 2.7e-6, 2.6e-6 };
    double all[] = { 4e-3, 2.5e-6, 4e-3, 2.7e-6, 2.6e-6 };

    cr_assert_float_eq(pz_cal_overhead_recv_time(kept, all, 5), 2.6e-6, EPS);
}

Test(calibrate_spread, no_round_kept_takes_every_try)
{
    /* none kept: the median of 3, 1, 2 ms is 2 ms */
    double kept[] = { NAN, NAN, NAN }, all[] = { 3e-3, 1e-3, 2e-3 };

    cr_assert_float_eq(pz_cal_overhead_recv_time(kept, all, 3), 2e-3, EPS);
}
