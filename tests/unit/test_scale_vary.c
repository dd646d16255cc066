/* The variation of the synthesized computations (replay/scale_vary.h): recorded
 * computations over their mean, and the deterministic draws among those ratios. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "scale_vary.h"

Test(scale_vary, ratios_to_the_mean)
{
    /* mean 2: 1 / 2 and 3 / 2 */
    double two[2] = {1, 3};
    /* mean 0.2: 0.5, 1 (made exactly 1), 1.5 */
    double three[3] = {0.1, 0.2, 0.3};

    pz_scale_ratios(two, 2);
    cr_expect_float_eq(two[0], 0.5, 1e-15);
    cr_expect_float_eq(two[1], 1.5, 1e-15);
    pz_scale_ratios(three, 3);
    cr_expect_float_eq(three[0], 0.5, 1e-12);
    cr_expect_eq(three[1], 1.0);
    cr_expect_float_eq(three[2], 1.5, 1e-12);
}

Test(scale_vary, equal_or_no_computations_do_not_vary)
{
    /* 0.1 three times: their mean may round, the ratios are exactly 1; a mean of 0 (no
     * computation) gives 1 too */
    double equal[3] = {0.1, 0.1, 0.1}, none[2] = {0, 0};

    pz_scale_ratios(equal, 3);
    pz_scale_ratios(none, 2);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(equal[i], 1.0, "ratio %d: %.17g", i, equal[i]);
    cr_expect_eq(none[0], 1.0);
    cr_expect_eq(none[1], 1.0);
    pz_scale_ratios(NULL, 0);
}

Test(scale_vary, no_ratios_draw_1)
{
    cr_expect_eq(pz_scale_draw(NULL, 0, 3, 7), 1.0);
}

Test(scale_vary, a_draw_is_a_ratio_and_the_same_every_time)
{
    static const double ratios[2] = {0.5, 1.5};

    for (uint32_t p = 0; p < 8; p++)
        for (uint64_t i = 0; i < 100; i++) {
            double d = pz_scale_draw(ratios, 2, p, i);

            cr_assert(d == 0.5 || d == 1.5, "process %u draw %llu: %g", p,
                      (unsigned long long)i, d);
            cr_assert_eq(d, pz_scale_draw(ratios, 2, p, i));
        }
}

Test(scale_vary, draws_are_uniform_over_the_ratios)
{
    /* 16 processes x 2500 draws among 4 ratios: 10000 of each expected, the binomial's
     * standard deviation sqrt(40000 * 1/4 * 3/4) = 87; 500 is more than 5 of it */
    static const double ratios[4] = {0, 1, 2, 3};
    int seen[4] = {0, 0, 0, 0};

    for (uint32_t p = 0; p < 16; p++)
        for (uint64_t i = 0; i < 2500; i++)
            seen[(int)pz_scale_draw(ratios, 4, p, i)]++;
    for (int j = 0; j < 4; j++)
        cr_expect(abs(seen[j] - 10000) < 500, "ratio %d drawn %d times of 40000", j,
                  seen[j]);
}

Test(scale_vary, processes_draw_apart_at_the_same_computation)
{
    /* 64 processes' first draws among 100 ratios: 100 * (1 - 0.99^64) = 47.4 distinct
     * ones expected (standard deviation about 3); all equal would keep them in step */
    double ratios[100];
    int drawn[100] = {0}, distinct = 0;

    for (int j = 0; j < 100; j++)
        ratios[j] = j;
    for (uint32_t p = 0; p < 64; p++)
        drawn[(int)pz_scale_draw(ratios, 100, p, 0)] = 1;
    for (int j = 0; j < 100; j++)
        distinct += drawn[j];
    cr_expect(distinct >= 35, "%d distinct ratios among 64 processes", distinct);
}
