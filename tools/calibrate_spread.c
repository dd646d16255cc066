/* The table of the keys' spreads over the rounds (calibrate_spread.h). */
#include <math.h>

#include "calibrate_fit.h"
#include "calibrate_spread.h"

double pz_cal_round_key_median(const struct pz_cal_round_key *k, double *spread)
{
    double v[PZ_CAL_KEY_ROUNDS] = { 0 };
    int m = 0;

    for (int r = 0; r < k->n && r < PZ_CAL_KEY_ROUNDS; r++)
        if (!isnan(k->v[r]))
            v[m++] = k->v[r];
    *spread = pz_cal_key_spread(v, m);   /* before pz_fit_median sorts v */
    return m > 0 ? pz_fit_median(v, m) : NAN;
}

void pz_cal_print_round_keys(FILE *out, const char *prefix, const struct pz_cal_round_key *k,
                             int n)
{
    for (int i = 0; i < n; i++) {
        double spread, median = pz_cal_round_key_median(&k[i], &spread);

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
