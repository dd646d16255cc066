/* Automatic advice on an interval, following the DVM methodology (shared/seeds/003,
 * section 4.3): lost time dominated by communication → is it synchronization? → is that
 * load imbalance or time variation? → on which process.  Each sentence names the
 * interval, the process and the numbers behind it. */
#ifndef PZ_ADVICE_H
#define PZ_ADVICE_H

#include <stddef.h>

#include "analysis.h"

#define PZ_ADVICE_MAX 6
#define PZ_ADVICE_LEN 512

/* Fills up to PZ_ADVICE_MAX sentences about interval n; returns how many.  Intervals
 * that lose less than a tenth of their total time get none. */
int pz_advice(const struct pz_analysis *a, const struct pz_node *n,
              char sentences[][PZ_ADVICE_LEN]);

#endif
