/* What prognoz predict prints besides the analyzer's reports (compare.c): the table of
 * the recorded run and several predictions side by side. */
#ifndef PZ_PREDICT_H
#define PZ_PREDICT_H

#include <stdio.h>

#include "analysis.h"
#include "machine.h"
#include "report.h"

/* The recorded run and the predictions on machines[0..n-1] side by side, per interval:
 * execution time, efficiency, lost, communication, synchronization and idle time.
 * Returns 0, or -1 if writing failed. */
int pz_compare_write(FILE *out, enum pz_report_format format, const struct pz_analysis *recorded,
                     const struct pz_analysis *predicted, const struct pz_machine *machines,
                     int n);

#endif
