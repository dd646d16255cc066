/* The local copies of prognoz calibrate (docs/calibrate.md, "Local copies"): MPI's copy
 * of a process's own block inside a collective (MPICH's MPIR_Localcopy), timed at a few
 * sizes, becomes copy_segments, whose rate steps down as the copies leave the caches. */
#ifndef PZ_CALIBRATE_COPY_H
#define PZ_CALIBRATE_COPY_H

#include "machine.h"

/* copy_segments from n copies of bytes[i] (increasing) that took times[i] seconds: one
 * segment per size, up to that size (the last up to any size), of latency 0 and the
 * size over its time.  A copy between two sizes takes the larger one's rate, the rate
 * of the caches it may not fit.  Returns 0, or -1 (out left empty) when n is not 1 to
 * PZ_MAX_SEGMENTS or a size or time is not above 0. */
int pz_fit_copy_segments(const double *bytes, const double *times, int n,
                         struct pz_segments *out);

#endif
