/* Replaying a synthesized run (scale_program.h) without writing it: the engine reads
 * each process's records as its cursor makes them, on the recording's definitions with
 * the run's processes and communicators built in memory (trace_in.h's generated runs). */
#ifndef PZ_SCALE_REPLAY_H
#define PZ_SCALE_REPLAY_H

#include <stddef.h>

#include "defs.h"
#include "engine.h"
#include "scale_program.h"

/* Replays the run s synthesizes on o->machine, as pz_predict would replay its
 * synthesized archive (scale_archive.h); the predicted trace, when o->output is set, has
 * the definitions that archive would have.  Returns 0, or -1 with a one-line message in
 * err. */
int pz_scale_predict(struct pz_scale_synth *s, const struct pz_predict_options *o,
                     struct pz_prediction *out, char *err, size_t errlen);

/* The definitions of the run s synthesizes, in memory (trace/defs.h, pz_defs_set_run),
 * as its archive (scale_archive.h) would have them: its recording's, with the run's
 * processes and communicators, and what the archive says of its recording.  Returns 0, or -1 with a
 * one-line message in err; release d in both cases. */
int pz_scale_synth_defs(const struct pz_scale_synth *s, struct pz_defs *d, char *err,
                        size_t errlen);

#endif
