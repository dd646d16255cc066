/* Replaying a synthesized run in memory (scale_replay.h).  A process's cursor is made
 * when the replay first asks for its records and freed at its end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "open.h"
#include "scale_replay.h"
#include "trace_in.h"
#include "trace_out.h"

struct generator {
    struct pz_scale_synth *s;
    struct pz_scale_cursor **cursors;   /* of each process, NULL before and after */
};

static int more(void *ctx, int th, pz_trace_put_fn *put, void *sink, char *err, size_t errlen)
{
    struct generator *g = ctx;
    struct pz_scale_cursor **c = &g->cursors[th];
    int rc;

    if (!*c && !(*c = pz_scale_cursor_new(g->s, th))) {
        snprintf(err, errlen, "out of memory synthesizing process %d", th);
        return -1;
    }
    rc = pz_scale_cursor_next(*c, put, sink, err, errlen);
    if (rc <= 0) {
        pz_scale_cursor_free(*c);
        *c = NULL;
    }
    return rc;
}

/* The synthesized communicators as the reader of its archive would give them. */
static struct pz_comm_def *comm_defs(const struct pz_scale_synth *s, uint32_t *n)
{
    const struct pz_synth_comm *comms = pz_scale_synth_comms(s, n);
    struct pz_comm_def *defs = calloc(*n ? *n : 1, sizeof(*defs));

    for (uint32_t i = 0; defs && i < *n; i++) {
        struct pz_comm_def *d = &defs[i];

        d->group = d->remote = OTF2_UNDEFINED_GROUP;
        d->defined = 1;
        d->size = comms[i].size;
        if ((d->self = (uint8_t)comms[i].self)) {
            d->size = 1;
            continue;
        }
        if (!(d->procs = malloc((d->size ? d->size : 1) * sizeof(int)))) {
            for (uint32_t k = 0; k < i; k++)
                free(defs[k].procs);
            free(defs);
            return NULL;
        }
        for (uint32_t k = 0; k < d->size; k++)
            d->procs[k] = comms[i].members ? comms[i].members[k] : (int)k;
    }
    return defs;
}

/* The recording's definitions, with the synthesized run's processes and communicators. */
static int run_defs(const struct pz_scale_synth *s, const char *recording, struct pz_defs *d,
                    char *err, size_t errlen)
{
    struct pz_trace_file f;
    struct pz_comm_def *comms;
    uint32_t n;

    memset(&f, 0, sizeof(f));
    memset(d, 0, sizeof(*d));
    pz_trace_file_open(&f, recording, d);
    pz_trace_file_close(&f);
    if (f.error[0]) {
        snprintf(err, errlen, "%s", f.error);
        return -1;
    }
    if (!(comms = comm_defs(s, &n)) ||
        pz_defs_set_run(d, pz_scale_synth_nprocs(s), comms, n) != 0) {
        snprintf(err, errlen, "out of memory synthesizing %d processes",
                 pz_scale_synth_nprocs(s));
        return -1;
    }
    return 0;
}

int pz_scale_predict(struct pz_scale_synth *s, const struct pz_predict_options *o,
                     struct pz_prediction *out, char *err, size_t errlen)
{
    const char *recording = pz_scale_program_recording(pz_scale_synth_program(s));
    int nprocs = pz_scale_synth_nprocs(s);
    struct generator g = { s, calloc((size_t)nprocs, sizeof(*g.cursors)) };
    struct pz_trace_gen gen = { more, &g };
    struct pz_trace_in *in = NULL;
    struct pz_trace_out *predicted = NULL;
    struct pz_defs d;
    const struct pz_synth_comm *comms;
    char name[64];
    uint32_t ncomms;
    int rc = -1;

    memset(out, 0, sizeof(*out));
    snprintf(name, sizeof(name), "the run synthesized at %d processes", nprocs);
    comms = pz_scale_synth_comms(s, &ncomms);
    if (!g.cursors) {
        snprintf(err, errlen, "%s: out of memory", name);
    } else if (run_defs(s, recording, &d, err, errlen) != 0) {
        pz_defs_release(&d);
    } else if ((in = pz_trace_in_generated(&d, name, &gen, err, errlen)) &&
               (!o->output ||
                (predicted = pz_trace_out_open_synthesized(recording, o->output, nprocs, comms,
                                                           ncomms, err, errlen)))) {
        rc = pz_predict_run(in, predicted, name, o, out, err, errlen);
        in = NULL;
    }
    pz_trace_in_close(in);
    for (int p = 0; g.cursors && p < nprocs; p++)
        pz_scale_cursor_free(g.cursors[p]);
    free(g.cursors);
    return rc;
}
