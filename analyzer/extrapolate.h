/* The analysis of a run that repeats one loop n times, from the analyses of the same run
 * cut to k1 and to k2 of its passes (replay/scale_sample.h): every sum of the analysis
 * (times, counts, bytes) is the cut run's to k2 plus its growth from k1 to k2 for every
 * k2 - k1 of the passes left.  Exact when every pass from k1 on adds the same, as in a
 * replay that has settled into repeating its passes; the longest call is the longest
 * the cut runs saw. */
#ifndef PZ_EXTRAPOLATE_H
#define PZ_EXTRAPOLATE_H

#include <stdint.h>

#include "analysis.h"

/* Whether a and b are analyses of one run cut at different passes: the same processes,
 * intervals (file, line, id, level and parent, in order), functions and call sites (in
 * order).  1 or 0. */
int pz_analysis_alike(const struct pz_analysis *a, const struct pz_analysis *b);

/* How much a pass costs from k1 to k2 against from k0 to k1 (a0, a1 and a2 the run cut
 * at k0 < k1 < k2 passes, alike): the largest change of the rate of the whole run's
 * execution time, MPI time and synchronization, summed over the processes, over the
 * rate of its execution time from k1 to k2 (0.01: 1%).  0 when no time passes; 1 when
 * the cuts are not in increasing order. */
double pz_analysis_rate_change(const struct pz_analysis *a0, const struct pz_analysis *a1,
                               const struct pz_analysis *a2, uint64_t k0, uint64_t k1,
                               uint64_t k2);

/* Makes cut[2], the run cut to k[2] passes, the run of n passes, from cut[1] and cut[0]
 * (alike, cut to k[0] < k[1] < k[2] <= n; else nothing is done): each sum grows by
 * (n - k[2]) / (k[2] - k[1]) times its growth since cut[1].  A process's growth is the
 * mean growth of the processes plus its own difference from it, which is the part that
 * repeats pass after pass (the classes' different computations, a root's waiting) and
 * the part that does not (the drawn variation, scale_vary.h): repeated (n - k[2]) /
 * (k[2] - k[1]) times, the second would make differences between the processes that a
 * run of n passes, where it averages out, does not have.  So, sum by sum (the
 * computation, the execution less the MPI time, in place of the execution, which is
 * their sum again), the difference is kept whole as far as the processes differ alike
 * from k[0] to k[1] and from k[1] to k[2], the rest growing as the square root of the
 * passes, as a sum of independent draws does.  Counts are rounded to whole ones and no
 * sum falls below 0. */
void pz_analysis_extrapolate(struct pz_analysis *const cut[3], const uint64_t k[3], uint64_t n);

#endif
