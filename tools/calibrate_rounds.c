/* The statistics of the ping-pong's rounds (calibrate_rounds.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate_fit.h"
#include "calibrate_rounds.h"

const double pz_cal_round_sizes[PZ_CAL_ROUND_SIZES] = { 1024, 65536, 1048576 };

/* v sorted into a copy of n values (the caller frees it); NULL when out of memory. */
static double *sorted_copy(const double *v, int n)
{
    double *c = malloc((size_t)n * sizeof(*c));

    if (c) {
        memcpy(c, v, (size_t)n * sizeof(*c));
        pz_fit_quantile(c, n, 0.5);   /* sorts c */
    }
    return c;
}

/* The values of v that are not NAN into a new array (the caller frees it), how many
 * into *k; NULL when out of memory or none. */
static double *measured(const double *v, int n, int *k)
{
    double *c = malloc((size_t)(n > 0 ? n : 1) * sizeof(*c));

    *k = 0;
    for (int i = 0; c && i < n; i++)
        if (!isnan(v[i]))
            c[(*k)++] = v[i];
    if (c && *k == 0) {
        free(c);
        c = NULL;
    }
    return c;
}

double pz_cal_round_time(const double *r, int n, double *spread)
{
    int k;
    double *c = measured(r, n, &k), median;

    *spread = NAN;
    if (!c)
        return NAN;
    median = pz_fit_quantile(c, k, 0.5);   /* sorts c */
    if (median > 0)
        *spread = (pz_fit_quantile(c, k, 0.75) - pz_fit_quantile(c, k, 0.25)) / median;
    free(c);
    return median;
}

double pz_cal_spread_limit(const double *spreads, int n)
{
    double *c = sorted_copy(spreads, n), typical;

    if (!c)
        return PZ_CAL_SPREAD_FLOOR;
    typical = pz_fit_quantile(c, n, 0.5);
    free(c);
    return fmax(PZ_CAL_SPREAD_FLOOR, PZ_CAL_SPREAD_TIMES * typical);
}

double pz_cal_key_spread(const double *v, int n)
{
    double *c, median, range;

    if (n < 2)
        return 0;
    c = sorted_copy(v, n);
    if (!c)
        return NAN;
    median = pz_fit_quantile(c, n, 0.5);
    range = c[n - 1] - c[0];
    free(c);
    return median != 0 ? range / fabs(median) : NAN;
}

double pz_cal_round_start(int r, int rounds, double span)
{
    return rounds > 1 ? r * span / (rounds - 1) : 0;
}

int pz_cal_state_rounds(const double *tag, int n, int *keep, double *mid)
{
    int k, kept = 0;
    double *c = measured(tag, n, &k);

    *mid = NAN;
    for (int r = 0; r < n; r++)
        keep[r] = 1;
    if (!c)
        return n;
    pz_fit_quantile(c, k, 0.5);   /* sorts c */
    *mid = c[(k - 1) / 2];   /* a round's own time: between two states, the faster one's */
    free(c);
    for (int r = 0; r < n; r++) {
        keep[r] = isnan(tag[r]) || (tag[r] <= *mid * PZ_CAL_STATE_FACTOR &&
                                    tag[r] >= *mid / PZ_CAL_STATE_FACTOR);
        kept += keep[r];
    }
    return kept;
}

double pz_cal_state_size(const double *sizes, int n)
{
    double best = 0;

    for (int i = 0; i < n; i++)
        if (sizes[i] >= PZ_CAL_STATE_LEAST && sizes[i] <= PZ_CAL_STATE_MOST && sizes[i] > best)
            best = sizes[i];
    return best;
}

void pz_cal_kept(const double *v, const int *keep, int n, double *out)
{
    for (int r = 0; r < n; r++)
        out[r] = !keep || keep[r] ? v[r] : NAN;
}

double pz_cal_kept_time(const double *r, const int *keep, int n, double *spread)
{
    double v[PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS];

    if (n > PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS)
        n = PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS;
    pz_cal_kept(r, keep, n, v);
    return pz_cal_round_time(v, n, spread);
}
