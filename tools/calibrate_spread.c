/* The table of the keys' spreads over the rounds (calibrate_spread.h). */
#include <math.h>

#include "calibrate_fit.h"
#include "calibrate_spread.h"

double pz_cal_round_key_median(const struct pz_cal_round_key *k, const int *keep,
                               double *spread)
{
    double v[PZ_CAL_KEY_ROUNDS] = { 0 }, in[PZ_CAL_KEY_ROUNDS] = { 0 };
    int m = 0, kept = 0;

    for (int r = 0; r < k->n && r < PZ_CAL_KEY_ROUNDS; r++)
        if (!isnan(k->v[r])) {
            v[m++] = k->v[r];
            if (!keep || keep[r])
                in[kept++] = k->v[r];
        }
    *spread = pz_cal_key_spread(v, m);
    return kept > 0 ? pz_fit_median(in, kept) : NAN;
}

void pz_cal_print_round_keys(FILE *out, const char *prefix, const struct pz_cal_round_key *k,
                             int n, const int *keep)
{
    for (int i = 0; i < n; i++) {
        double spread, median = pz_cal_round_key_median(&k[i], keep, &spread);

        fprintf(out, "%s%-24s", prefix, k[i].what);
        for (int r = 0; r < k[i].n; r++) {
            if (isnan(k[i].v[r]))
                fprintf(out, " %8s", "-");
            else
                fprintf(out, " %8.3f", k[i].v[r] * k[i].scale);
        }
        fprintf(out, "  %s; median %.3f, spread %.1f%%\n", k[i].unit, median * k[i].scale,
                100 * spread);
    }
}
