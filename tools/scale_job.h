/* prognoz scale's job (tools/scale.c): its options, the recordings, their model and
 * each count's predicted run on each machine, shared by the files of the command. */
#ifndef PZ_SCALE_JOB_H
#define PZ_SCALE_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "machine_options.h"
#include "progress_line.h"
#include "scale_passes.h"
#include "scale_program.h"
#include "scale_run.h"
#include "scale_sample.h"

#define MAX_RECORDINGS 16
#define MAX_COUNTS 64
#define MAX_RANKS (1 << 22)
/* Notes on computation models that give no time at a count, the last one counting the
 * rest */
#define MAX_VANISHING 8
/* Notes of the job: the calls left out, one per stretched recording, those without CPU
 * times, the shared cores, the nodes, the vanishing models, and one per count replayed
 * by a sample of its passes */
#define MAX_JOB_NOTES (MAX_RECORDINGS + 4 + MAX_VANISHING + MAX_COUNTS + MAX_RECORDINGS)
/* A machine's part of the note on the nodes (a name of up to 127 bytes and the longest
 * wording), and a note: the nodes' note names every machine. */
#define MACHINE_NODES_LEN 320
#define NOTE_LEN (512 + PZ_MAX_MACHINES * (MACHINE_NODES_LEN + 2))

enum replay_passes { PASSES_AUTO, PASSES_ALL, PASSES_SAMPLE };

struct options {
    const char *recordings[MAX_RECORDINGS];
    int nrecordings;
    int counts[MAX_COUNTS];            /* --ranks */
    int ncounts;
    const char *output, *trace_out;
    enum pz_report_format format;
    int quiet;
    enum replay_passes passes;         /* --replay-passes */
    struct pz_machine_options m;
};


/* The work of one command: the recordings, their model, and each count's predicted
 * run on each machine. */
struct job {
    const struct options *o;
    struct pz_machine machines[PZ_MAX_MACHINES];
    struct pz_scale_run runs[MAX_RECORDINGS];
    int nruns;
    struct pz_scale_program *program;
    int counts[MAX_COUNTS + MAX_RECORDINGS];   /* recorded and asked for, increasing */
    int recorded[MAX_COUNTS + MAX_RECORDINGS];
    int ncounts;
    struct pz_analysis *analyses;             /* of machine i at count c: [i * ncounts + c] */
    char notes[MAX_JOB_NOTES][NOTE_LEN];   /* on the computation times, the nodes and the
                                              samples of the passes */
    int nnotes;
    struct pz_progress_line *progress;
    struct pz_scale_sample sample;                     /* of the count being predicted, */
    struct pz_passes_outcome sampled[PZ_MAX_MACHINES]; /* on each machine */
    int sampling;                                      /* its loop is sampled */
    int sampled_before;                                /* a smaller count's was, */
    uint32_t sampled_loop;                             /* by this loop */
    int unsampled_noted;                               /* --replay-passes sample could not
                                                          be followed at a count */
    int built_in_2d[2];   /* [first_fastest]: a model was tried in 2 dimensions or more */
    int fold_local;       /* the calls that neither move data nor wait are left out */
    size_t folded[MAX_RECORDINGS];   /* how many, of each recording (kept when it is not
                                        read again), */
    char folded_names[256];   /* which */
    char written[4200];       /* the trace synthesized for the count being predicted,
                                 until it is: removed if it fails (scale_discard); "" */
    char discarded[4400];     /* what scale_discard says */
};

/* Replays the synthesized run at count c on machine i, from its archive in dir or,
 * without one, as synth makes it (cut to `cut` passes of the sample's loop, 0: not cut),
 * and analyzes the predicted run into *a as it is predicted (tools/scale.c).  0, or -1
 * after reporting the error. */
int scale_predict_into(struct job *j, int c, int i, const char *dir,
                       struct pz_scale_synth *synth, uint64_t cut, struct pz_analysis *a);

/* Removes the trace j->written, synthesized for a count whose prediction failed, so
 * that --trace-out keeps no run that could not be predicted for a reader to take for
 * the program's (tools/scale_discard.c): its archive, then its directory if nothing
 * else is in it.  What to add to the error's line: "; the trace synthesized into DIR
 * is removed ...", or "" when there is none. */
const char *scale_discard(struct job *j);

/* Replaying a count by a sample of its passes (tools/scale_sampling.c). */

/* Whether the run at count c is replayed by a sample of its passes, with the loop in *s. */
int scale_samples(const struct job *j, int c, struct pz_scale_sample *s);
/* The sampling of count c into j->sampling and j->sample, before its runs. */
void scale_choose_sampling(struct job *j, int c);
/* The note on how count c's runs were sampled, after them. */
void scale_note_sampling(struct job *j, int c);
/* Predicts the run at count c on machine i into its analysis, by a sample of its passes
 * where j->sampling says so; 0, or -1 after reporting the error. */
int scale_predict_on(struct job *j, int c, int i, const char *dir, struct pz_scale_synth *synth);

#endif
