/* The collective overhead measured by calibrate_coll.h, apart from MPI: its value from
 * the time and the model, its line in calibrate's output and its comment in the machine
 * file (docs/calibrate.md, "Collective overhead"). */
#ifndef PZ_CALIBRATE_COLL_NOTE_H
#define PZ_CALIBRATE_COLL_NOTE_H

#include <stdio.h>

#include "calibrate_out.h"

/* Rank 0 after the measurement: run->collective's model (pz_allreduce_time of
 * PZ_CAL_ALLREDUCE_BYTES on m, the machine fitted from the other measurements, its
 * collective_overhead 0), its overhead (the measured time beyond it, at least 0) and
 * whether it was measured. */
void pz_cal_collective_fit(struct pz_calibration_run *run, const struct pz_machine *m);

/* The measurement and how the key was obtained, one paragraph. */
void pz_cal_print_collective(FILE *out, const struct pz_calibration_run *run);

/* The machine file's comment on collective_overhead, into buf (len bytes); buf. */
const char *pz_cal_collective_note(char *buf, size_t len, const struct pz_calibration_run *run);

#endif
