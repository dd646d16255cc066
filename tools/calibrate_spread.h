/* How reproducible a calibration was (docs/calibrate.md, "Rounds"): the value of each
 * key, or of the probe it is fitted to, in each round it was measured in, their median
 * (what the key takes) and their spread, printed in the listing and as comments in the
 * machine file. */
#ifndef PZ_CALIBRATE_SPREAD_H
#define PZ_CALIBRATE_SPREAD_H

#include <stdio.h>

#include "calibrate_rounds.h"

#define PZ_CAL_KEY_ROUNDS (PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS)

/* One key or probe measured in rounds. */
struct pz_cal_round_key {
    char what[48];       /* e.g. "recv_overhead, 0 B" */
    const char *unit;    /* e.g. "us" */
    double scale;        /* units per value's unit (1e6 for seconds into us) */
    double v[PZ_CAL_KEY_ROUNDS];   /* NAN: not measured in that round */
    int n;
};

/* The median of k's measured rounds in the calibration's state (keep[r] set; keep NULL:
 * every round), what the key takes, and the spread of every measured round, (largest -
 * smallest) / |median| (pz_cal_key_spread), how far the moment moves it; NAN for none,
 * spread 0 for one. */
double pz_cal_round_key_median(const struct pz_cal_round_key *k, const int *keep,
                               double *spread);

/* One line per key: prefix (e.g. "# " in the machine file), its name, each round's
 * value in its unit ("-" where not measured), the median of the rounds keep names (NULL:
 * every round; pz_cal_round_key_median) and the spread in percent. */
void pz_cal_print_round_keys(FILE *out, const char *prefix, const struct pz_cal_round_key *k,
                             int n, const int *keep);

#endif
