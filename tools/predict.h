/* What prognoz predict prints besides the analyzer's reports (compare.c): the machine's
 * parameters as JSON, and the table of the recorded run and several predictions side
 * by side. */
#ifndef PZ_PREDICT_H
#define PZ_PREDICT_H

#include <stdio.h>

#include "analysis.h"
#include "machine.h"
#include "report.h"

/* "\"machine\": {...}": the name and every parameter, SI units (s, B, B/s); malloc'ed,
 * NULL if memory ran out. */
char *pz_machine_json(const struct pz_machine *m);

/* One line naming the machine and its main parameters, with progress and duplex_factor
 * when they are not the defaults. */
void pz_machine_summary(FILE *out, const struct pz_machine *m);

/* The recorded run and the predictions on machines[0..n-1] side by side, per interval:
 * execution time, efficiency, lost, communication, synchronization and idle time.
 * Returns 0, or -1 if writing failed. */
int pz_compare_write(FILE *out, enum pz_report_format format, const struct pz_analysis *recorded,
                     const struct pz_analysis *predicted, const struct pz_machine *machines,
                     int n);

#endif
