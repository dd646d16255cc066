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
    uint32_t first_list;       /* the string reference of list 0, PZ_NONE32: none */
    pz_trace_put_fn *put;      /* where a step's records go, during more() */
    void *sink;
};

/* A list's number (pz_scale_synth_lists) as the reference of its string. */
static uint32_t list_string(const struct generator *g, uint32_t list)
{
    return list == PZ_NONE32 || g->first_list == PZ_NONE32 ? PZ_NONE32 : g->first_list + list;
}

static int put_record(void *ctx, int th, const struct pz_rec *rec)
{
    struct generator *g = ctx;
    struct pz_rec copy;

    if (rec->send_list == PZ_NONE32 && rec->recv_list == PZ_NONE32)
        return g->put(g->sink, th, rec);
    copy = *rec;
    copy.send_list = list_string(g, rec->send_list);
    copy.recv_list = list_string(g, rec->recv_list);
    return g->put(g->sink, th, &copy);
}

/* Steps made at each request for a process's records: its cursor, apart from every
 * other process's, is fetched into the caches once for a block of them rather than once
 * a step (at thousands of processes the replay's turns come back to a process after its
 * state fell out of the caches). */
#define STEPS_AT_ONCE 8

static int more(void *ctx, int th, pz_trace_put_fn *put, void *sink, char *err, size_t errlen)
{
    struct generator *g = ctx;
    struct pz_scale_cursor **c = &g->cursors[th];
    int rc = 1, made = 0;

    if (!*c && !(*c = pz_scale_cursor_new(g->s, th))) {
        snprintf(err, errlen, "out of memory synthesizing process %d", th);
        return -1;
    }
    g->put = put;
    g->sink = sink;
    while (made < STEPS_AT_ONCE && (rc = pz_scale_cursor_next(*c, put_record, g, err, errlen)) > 0)
        made++;
    if (rc < 0 || made == 0) {   /* a cursor at its end says so again: freed then */
        pz_scale_cursor_free(*c);
        *c = NULL;
    }
    return rc < 0 ? -1 : made > 0;
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

/* The synthesized windows (struct pz_synth_comm.windows) in place of the recording's,
 * each on its communicator as the synthesized archive defines them.  -1 out of memory. */
static int window_defs(const struct pz_scale_synth *s, struct pz_defs *d)
{
    uint32_t n, nwindows = 0, next = 0;
    const struct pz_synth_comm *comms = pz_scale_synth_comms(s, &n);

    for (uint32_t i = 0; i < n; i++)
        nwindows += comms[i].windows;
    free(d->window_comms);
    d->window_comms = NULL;
    d->nwindows = 0;
    if (!nwindows)
        return 0;
    if (!(d->window_comms = malloc(nwindows * sizeof(*d->window_comms))))
        return -1;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < comms[i].windows; k++)
            d->window_comms[next++] = i + 1;   /* its communicator + 1 */
    d->nwindows = nwindows;
    return 0;
}

/* What the synthesized archive says of its recording (synth_defs.c): one machine holds
 * every process, and none of the recorder's archive properties is written. */
static int synthesized_recording(struct pz_recording *r, int nprocs)
{
    int cpu_times = r->cpu_times;

    pz_recording_release(r);
    r->cpu_times = cpu_times;
    if (!(r->nodes = calloc(1, sizeof(*r->nodes))) || !(r->nodes[0].name = strdup("machine")))
        return -1;
    r->nnodes = 1;
    r->nodes[0].processes = nprocs;
    return 0;
}

/* The lists' strings, after the recording's as the synthesized archive has them
 * (synth_defs.c), where its attributes can carry them: *first, list 0's reference, or
 * PZ_NONE32. */
static int add_lists(const struct pz_scale_synth *s, struct pz_defs *d, uint32_t *first)
{
    uint32_t n;
    const char *const *lists = pz_scale_synth_lists(s, &n);

    *first = PZ_NONE32;
    if (!n || d->send_list == OTF2_UNDEFINED_ATTRIBUTE ||
        d->recv_list == OTF2_UNDEFINED_ATTRIBUTE)
        return 0;
    return pz_defs_add_strings(d, lists, n, first);
}

static int synth_defs(const struct pz_scale_synth *s, struct pz_defs *d, uint32_t *first_list,
                      char *err, size_t errlen)
{
    const char *recording = pz_scale_program_recording(pz_scale_synth_program(s));
    struct pz_comm_def *comms;
    uint32_t n;

    if (pz_trace_defs_read(recording, d, err, errlen) != 0)
        return -1;
    if (!(comms = comm_defs(s, &n)) ||
        pz_defs_set_run(d, pz_scale_synth_nprocs(s), comms, n) != 0 || window_defs(s, d) != 0 ||
        synthesized_recording(&d->recording, pz_scale_synth_nprocs(s)) != 0 ||
        add_lists(s, d, first_list) != 0) {
        snprintf(err, errlen, "out of memory synthesizing %d processes",
                 pz_scale_synth_nprocs(s));
        return -1;
    }
    return 0;
}

int pz_scale_synth_defs(const struct pz_scale_synth *s, struct pz_defs *d, char *err,
                        size_t errlen)
{
    uint32_t first_list;

    return synth_defs(s, d, &first_list, err, errlen);
}

int pz_scale_predict(struct pz_scale_synth *s, const struct pz_predict_options *o,
                     struct pz_prediction *out, char *err, size_t errlen)
{
    const char *recording = pz_scale_program_recording(pz_scale_synth_program(s));
    int nprocs = pz_scale_synth_nprocs(s);
    struct generator g = { s, calloc((size_t)nprocs, sizeof(*g.cursors)), PZ_NONE32, NULL,
                           NULL };
    struct pz_trace_gen gen = { more, &g };
    struct pz_trace_in *in = NULL;
    struct pz_trace_out *predicted = NULL;
    struct pz_defs d;
    const struct pz_synth_comm *comms;
    char name[64];
    uint32_t ncomms, nlists;
    int rc = -1;

    memset(out, 0, sizeof(*out));
    snprintf(name, sizeof(name), "the run synthesized at %d processes", nprocs);
    comms = pz_scale_synth_comms(s, &ncomms);
    if (!g.cursors) {
        snprintf(err, errlen, "%s: out of memory", name);
    } else if (synth_defs(s, &d, &g.first_list, err, errlen) != 0) {
        pz_defs_release(&d);
    } else if ((in = pz_trace_in_generated(&d, name, &gen, err, errlen)) &&
               (!o->output ||
                (predicted = pz_trace_out_open_synthesized(recording, o->output, nprocs, comms,
                                                           ncomms, err, errlen)))) {
        const char *const *lists = pz_scale_synth_lists(s, &nlists);

        if (predicted)
            pz_trace_out_synthesized_lists(predicted, lists, nlists);
        rc = pz_predict_run(in, predicted, name, o, out, err, errlen);
        in = NULL;
    }
    pz_trace_in_close(in);
    for (int p = 0; g.cursors && p < nprocs; p++)
        pz_scale_cursor_free(g.cursors[p]);
    free(g.cursors);
    return rc;
}
