/* Replaying a sample of a long synthesized run's passes (prognoz scale).  At thousands
 * of processes a run that repeats its time step thousands of times takes minutes to
 * replay, though after its first passes every pass takes the time of the one before
 * (give or take the drawn variation, scale_vary.h).  The run with that loop cut to K
 * passes has, pass for pass, the same first K passes as the whole run (the draws
 * depend on the process and the pass, not on the count), so the difference between
 * the runs cut to K1 and K2 passes is what passes K1 to K2 - 1 take, and the whole run
 * is the run cut to K2 plus its remaining passes at that rate (analyzer/extrapolate.h;
 * tools/scale_passes.c decides when the rate has settled).  This file chooses the loop
 * and cuts it. */
#ifndef PZ_SCALE_SAMPLE_H
#define PZ_SCALE_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "scale_program.h"

struct pz_scale_sample {
    uint32_t loop;        /* the template's node of the loop */
    uint64_t passes;      /* its trip count at the count asked for */
    uint64_t records;     /* the records of a process making every step of the run */
    uint64_t in_loop;     /* of which in the loop's passes */
};

/* The loop of m's template whose passes hold the most records of the run at nprocs,
 * among those every process makes the same number of times (not a trip count that
 * differs by position, nor one the data decide, pass after pass), made at least
 * `least` times: 1 with it in *out, 0 when there is none. */
int pz_scale_sample_loop(const struct pz_scale_program *m, int nprocs, uint64_t least,
                         struct pz_scale_sample *out);

/* Into buf, where the sample's loop begins: its first call and where a recording made
 * it ("MPI_Sendrecv (interval 'x', call 1 at process 0 of DIR)"). */
void pz_scale_sample_where(const struct pz_scale_program *m, const struct pz_scale_sample *s,
                           char *buf, size_t len);

/* How much the computation drawn in a pass of the sample's loop changes from passes k1
 * to k2 - 1 to the loop's passes after them (scale_vary.h: each computation is its
 * class's mean times a ratio the recording nearest nprocs shows at the same pass, so
 * that a trend of the recording, a computation growing over the run, is the
 * synthesized run's): the relative change of the sum, over the loop's steps, of each
 * one's model over all processes times the mean of its ratios over those passes.  0
 * when nothing varies. */
double pz_scale_sample_drift(const struct pz_scale_program *m, int nprocs,
                             const struct pz_scale_sample *s, uint64_t k1, uint64_t k2);

/* Makes the cursors of s made after the call (pz_scale_cursor_new, the replay's) run
 * loop node `loop` `passes` times instead of its trip count: the run cut there. */
void pz_scale_synth_cut(struct pz_scale_synth *s, uint32_t loop, uint64_t passes);

#endif
