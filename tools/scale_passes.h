/* Replaying a long synthesized run by a sample of its passes (replay/scale_sample.h):
 * the run cut to K, 2K and 4K passes of its loop (K = PZ_PASSES_FIRST), then 8K, 16K
 * ... while a pass over the last half of the last cut costs more than PZ_PASSES_SETTLED
 * apart from one over the half before (the replay has not settled: transients, or a
 * drift of the processes apart), or while the computation drawn for the passes left
 * differs by more than that from the last half's (a trend of the recording), or while
 * the last three cuts' analyses differ in shape (an interval first reached in a later
 * pass); then the whole run is extrapolated from the last two (analyzer/extrapolate.h).
 * When the next cut would pass a quarter of the passes, every pass is replayed.  What
 * first happens after the last cut's passes, in the loop, is not in the result. */
#ifndef PZ_SCALE_PASSES_H
#define PZ_SCALE_PASSES_H

#include <stdint.h>

#include "analysis.h"

#define PZ_PASSES_FIRST 32
#define PZ_PASSES_SETTLED 0.01
/* A loop of fewer passes is replayed whole: the first three cuts would cost nearly
 * half of it */
#define PZ_PASSES_LEAST (16 * PZ_PASSES_FIRST)

/* Replays the run cut to `passes` passes of the loop into the analysis *out; 0, or -1
 * after reporting the error (*out then freed). */
typedef int pz_replay_cut_fn(void *ctx, uint64_t passes, struct pz_analysis *out);
/* How much the computation drawn for the passes after k2 differs from that of passes k1
 * to k2 - 1 (pz_scale_sample_drift), relative. */
typedef double pz_cut_drift_fn(void *ctx, uint64_t k1, uint64_t k2);

/* What the sampling did. */
struct pz_passes_outcome {
    uint64_t replayed;     /* passes replayed, over every cut run */
    uint64_t k1, k2;       /* the cuts the rest was extrapolated from; 0: none, every
                              pass replayed */
    double change;         /* how much a pass's cost moved between the last two spans
                              (pz_analysis_rate_change) */
    double drift;          /* and the drawn computation after them (drift) */
};

/* The analysis of the run of `passes` passes into *out, by the sample or, when it does
 * not settle, by replaying every pass; drift may be NULL (no trend).  0, or -1 when a
 * replay failed (*out then holds nothing to free). */
int pz_replay_by_passes(pz_replay_cut_fn *replay, pz_cut_drift_fn *drift, void *ctx,
                        uint64_t passes, struct pz_analysis *out, struct pz_passes_outcome *o);

#endif
