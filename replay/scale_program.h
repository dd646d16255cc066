/* The model of a program's run as a function of the process count P, built from
 * recordings of it at a few counts (scale_run.h), and the run it predicts at any count.
 *
 * Each recording's processes are folded (a sequence of steps that repeats is a loop
 * with a trip count) and merged into one template per program: a sequence of steps,
 * each with the events of its call, where a step whose peer is missing at some
 * processes (the edges of a non-periodic grid) is guarded by that peer's existence, and
 * a step only some processes make (a root's) by the class of those processes.  The
 * recordings must agree on the template (same intervals, same calls once loops are
 * folded, same peers as offsets); where they differ the build fails naming the
 * recordings, the interval, the process and the call.
 *
 * Trip counts and message sizes are fitted as functions of P (exact forms where the
 * recordings determine them: constant, proportional to P^a, to 1/P^a ...), the
 * computation before each step per class of processes with scale_fit.h's forms.  What
 * cannot be extrapolated (a receive from MPI_ANY_SOURCE whose senders do not follow a
 * pattern, counts that follow no form) is named in the model's notes with its
 * treatment. */
#ifndef PZ_SCALE_PROGRAM_H
#define PZ_SCALE_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "scale_fit.h"
#include "scale_run.h"
#include "synth_out.h"
#include "trace.h"

struct pz_scale_program;

/* Builds the model of the n runs (n >= 1, distinct process counts, any order; the model
 * keeps pointers into them: free them after the model).  compute_cpu: the computation
 * from the recorded CPU times (runs without them fail).  Returns NULL with a one-line
 * message in err. */
struct pz_scale_program *pz_scale_program_build(const struct pz_scale_run *const *runs, size_t n,
                                            int compute_cpu, char *err, size_t errlen);
void pz_scale_program_free(struct pz_scale_program *m);

/* The recording whose definitions a synthesized archive copies (synth_out.h): the
 * largest. */
const char *pz_scale_program_recording(const struct pz_scale_program *m);

/* Notes for the user, one line each: what could not be extrapolated and how it is
 * treated.  Their number, and the i-th. */
size_t pz_scale_program_nnotes(const struct pz_scale_program *m);
const char *pz_scale_program_note(const struct pz_scale_program *m, size_t i);

/* The computation model of each interval, for the report: the interval's region name
 * ("" for the whole run), the class of processes ("all", "interior", "corner" ...), the
 * fitted model of the computation (s per process over the interval's executions). */
struct pz_scale_compute {
    const char *interval;
    const char *class_name;
    struct pz_scale_model time;   /* scale_fit.h */
};
size_t pz_scale_program_ncompute(const struct pz_scale_program *m);
const struct pz_scale_compute *pz_scale_program_compute(const struct pz_scale_program *m,
                                                      size_t i);

/* Where the synthesized run goes: the communicators first, once, then every process's
 * records in time order per process (processes one after the other).  Each returns 0, or
 * -1 to stop the synthesis. */
struct pz_scale_sink {
    int (*comms)(void *ctx, const struct pz_synth_comm *comms, uint32_t n);
    int (*event)(void *ctx, int proc, const struct pz_rec *rec);
    void *ctx;
};

/* Synthesizes the run at nprocs processes into sink: regions as the recording of
 * pz_scale_program_recording references them, times in its ticks from its clock's
 * offset.  Returns 0, or -1 with a one-line message in err (a count the grid cannot
 * take, a sink that failed). */
int pz_scale_synthesize(const struct pz_scale_program *m, int nprocs,
                        const struct pz_scale_sink *sink, char *err, size_t errlen);

#endif
