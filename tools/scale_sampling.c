/* prognoz scale: a count's run replayed by a sample of its passes (scale_passes.h,
 * replay/scale_sample.h), where --replay-passes says so, and the notes saying how. */
#include <stdio.h>
#include <string.h>

#include "scale_job.h"

/* With --replay-passes auto, a run of more records than this (its processes times a
 * process's records) is replayed by a sample of its passes (scale_passes.h): below, the
 * whole replay takes seconds */
#define SAMPLE_ABOVE_RECORDS ((double)(1u << 26))

/* Whether the run at count c is replayed by a sample of its passes (--replay-passes;
 * never when its archive is written: that is the whole run), with the loop in *s. */
int scale_samples(const struct job *j, int c, struct pz_scale_sample *s)
{
    return j->o->passes != PASSES_ALL && !j->o->trace_out &&
           pz_scale_sample_loop(j->program, j->counts[c], PZ_PASSES_LEAST, s) &&
           (j->o->passes == PASSES_SAMPLE ||
            (double)j->counts[c] * (double)s->records > SAMPLE_ABOVE_RECORDS);
}

/* The sampling of count c into j->sampling and j->sample; where --replay-passes sample
 * cannot be followed, a note says why, once. */
void scale_choose_sampling(struct job *j, int c)
{
    memset(j->sampled, 0, sizeof(j->sampled));
    j->sampling = scale_samples(j, c, &j->sample);
    if (j->sampling || j->o->passes != PASSES_SAMPLE || j->unsampled_noted ||
        j->nnotes == MAX_JOB_NOTES)
        return;
    snprintf(j->notes[j->nnotes++], sizeof(j->notes[0]),
             "--replay-passes sample: every pass of the run at %d processes was replayed: "
             "%s", j->counts[c],
             j->o->trace_out ? "--trace-out writes the whole run"
                             : "no loop every process makes the same number of times, with "
                               "no loop of more passes around it, makes 512 passes or more");
    j->unsampled_noted = 1;
}

/* Into buf, "32, 64 and 128": the passes the run was cut to, up to k2. */
static void cuts(uint64_t k2, char *buf, size_t len)
{
    size_t at = 0;

    buf[0] = '\0';
    for (uint64_t k = PZ_PASSES_FIRST; k <= k2 && at < len; k *= 2)
        at += (size_t)snprintf(buf + at, len - at, "%s%llu",
                               k == PZ_PASSES_FIRST ? "" : k == k2 ? " and " : ", ",
                               (unsigned long long)k);
}

/* A note on how the run at count c was replayed by a sample of its passes on each
 * machine: the first says how, the others where the passes settled. */
void scale_note_sampling(struct job *j, int c)
{
    char *note = j->notes[j->nnotes], where[600];
    size_t len = sizeof(j->notes[0]), used;

    if (!j->sampling || j->nnotes == MAX_JOB_NOTES)
        return;
    pz_scale_sample_where(j->program, &j->sample, where, sizeof(where));
    if (!j->sampled_before || j->sampled_loop != j->sample.loop)
        used = (size_t)snprintf(note, len, "at %d processes the loop beginning with %s makes "
                                "%llu passes: the run was replayed cut to a few of them, the "
                                "rest counted at what a pass took over the last half of the "
                                "last cut, settled to within %g%% of the half before, the "
                                "computation drawn for them as close to that half's "
                                "(--replay-passes all replays every pass):", j->counts[c],
                                where, (unsigned long long)j->sample.passes,
                                100 * PZ_PASSES_SETTLED);
    else
        used = (size_t)snprintf(note, len, "at %d processes, %llu passes of that loop:",
                                j->counts[c], (unsigned long long)j->sample.passes);
    for (int i = 0; i < j->o->m.nmachines && used < len; i++) {
        const struct pz_passes_outcome *o = &j->sampled[i];
        char at[160];

        cuts(o->k2, at, sizeof(at));
        if (o->k2)
            used += (size_t)snprintf(note + used, len - used, "%s on %s cut to %s passes "
                                     "(%llu replayed; a pass %.2f%% apart, the computation "
                                     "drawn after %.2f%%)", i ? ";" : "",
                                     j->machines[i].name, at,
                                     (unsigned long long)o->replayed, 100 * o->change,
                                     100 * o->drift);
        else
            used += (size_t)snprintf(note + used, len - used, "%s on %s every pass, a pass's "
                                     "cost not settled", i ? ";" : "", j->machines[i].name);
    }
    j->sampled_before = 1;
    j->sampled_loop = j->sample.loop;
    j->nnotes++;
}

/* One machine's run cut to some passes of the sample's loop (scale_passes.h). */
struct cut_replay {
    struct job *j;
    int c, i;
    struct pz_scale_synth *synth;
};

static int replay_cut(void *ctx, uint64_t passes, struct pz_analysis *out)
{
    struct cut_replay *r = ctx;

    pz_scale_synth_cut(r->synth, r->j->sample.loop, passes);
    return scale_predict_into(r->j, r->c, r->i, NULL, r->synth, passes, out);
}

static double cut_drift(void *ctx, uint64_t k1, uint64_t k2)
{
    const struct cut_replay *r = ctx;

    return pz_scale_sample_drift(r->j->program, r->j->counts[r->c], &r->j->sample, k1, k2);
}

/* Predicts the run at count c on machine i into its analysis: by a sample of its
 * passes where j->sampling says so, else every pass. */
int scale_predict_on(struct job *j, int c, int i, const char *dir, struct pz_scale_synth *synth)
{
    struct pz_analysis *a = &j->analyses[i * j->ncounts + c];
    struct cut_replay r = { j, c, i, synth };
    int rc;

    if (!j->sampling)
        return scale_predict_into(j, c, i, dir, synth, 0, a);
    rc = pz_replay_by_passes(replay_cut, cut_drift, &r, j->sample.passes, a, &j->sampled[i]);
    pz_scale_synth_cut(synth, j->sample.loop, j->sample.passes);
    return rc;
}

