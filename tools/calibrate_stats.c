/* The statistics of a sample of times (calibrate_stats.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate_fit.h"
#include "calibrate_stats.h"

double pz_cal_stall_bound(double lower_quartile, double median)
{
    return fmin(PZ_CAL_STALL_TIMES * median, lower_quartile + PZ_CAL_STALL_SECONDS);
}

void pz_cal_stats(const double *t, int n, struct pz_cal_stats *out)
{
    double *v = n > 0 ? malloc((size_t)n * sizeof(*v)) : NULL, sum = 0, kept = 0, bound;
    int k = 0;

    out->lower_quartile = out->median = out->mean = out->trimmed = NAN;
    out->stalls = 0;
    if (!v)
        return;
    memcpy(v, t, (size_t)n * sizeof(*v));
    out->lower_quartile = pz_fit_quantile(v, n, 0.25);   /* sorts v */
    out->median = pz_fit_quantile(v, n, 0.5);
    bound = pz_cal_stall_bound(out->lower_quartile, out->median);
    for (int i = 0; i < n; i++) {
        sum += v[i];
        if (v[i] <= bound) {
            kept += v[i];
            k++;
        }
    }
    out->mean = sum / n;
    out->trimmed = kept / k;   /* the least time is always kept: k >= 1 */
    out->stalls = n - k;
    free(v);
}

double pz_cal_typical(const double *t, int n)
{
    struct pz_cal_stats s;

    pz_cal_stats(t, n, &s);
    return s.trimmed;
}
