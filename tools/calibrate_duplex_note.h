/* The duplex overhead measured by calibrate_duplex_sends.h, apart from MPI: its value
 * from the times, its line in calibrate's output and its comment in the machine file
 * (docs/calibrate.md, "Duplex overhead"). */
#ifndef PZ_CALIBRATE_DUPLEX_NOTE_H
#define PZ_CALIBRATE_DUPLEX_NOTE_H

#include <stdio.h>

#include "calibrate_out.h"

/* Rank 0 after the measurement: run->duplex_sends's overhead from its times, and
 * whether it was measured. */
void pz_cal_duplex_sends_fit(struct pz_calibration_run *run);

/* The duplex overhead's measurement and how it was obtained, one paragraph. */
void pz_cal_print_duplex_sends(FILE *out, const struct pz_calibration_run *run);

/* The machine file's comment on duplex_overhead, into buf (len bytes); buf. */
const char *pz_cal_duplex_sends_note(char *buf, size_t len,
                                     const struct pz_calibration_run *run);

#endif
