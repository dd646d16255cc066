/* Reading a trace into the tree of intervals.  Definitions first (trace/defs.h; MPI
 * regions then classified for the waits through the MPI function table), then the
 * events in time order through OTF2's global reader, keeping only the stack of open
 * regions: memory grows with processes and intervals, not with the events.  Traces of
 * many processes go through the trace layer's records instead (read_records.c). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <otf2/otf2.h>

#include "analysis.h"
#include "call_family.h"
#include "calls_gen.h"
#include "names.h"
#include "progress.h"
#include "reader.h"

static int failed(const struct reader *r)
{
    return r->file.error[0] != '\0';
}

/* MPI regions: their class from the MPI function table (calls_gen.h), by the function
 * the definitions found by name. */
static void classify(struct region *g)
{
    const struct pz_call_info *c = &pz_calls[g->info->call];
    const char *name = g->info->name;

    g->starts = c->nonblocking && c->category != PZ_CAT_WAIT &&
                c->category != PZ_CAT_WAITALL && c->category != PZ_CAT_WAITANY &&
                c->category != PZ_CAT_WAITSOME && c->category != PZ_CAT_REQUEST_FREE &&
                c->category != PZ_CAT_CANCEL && c->category != PZ_CAT_PSEND_INIT &&
                c->category != PZ_CAT_PRECV_INIT && c->category != PZ_CAT_PCOLL &&
                c->category != PZ_CAT_PNBR;
    g->blocking = !c->nonblocking || c->category == PZ_CAT_WAIT ||
                  c->category == PZ_CAT_WAITALL || c->category == PZ_CAT_WAITANY ||
                  c->category == PZ_CAT_WAITSOME;
    if (strstr(name, "Test") || !strcmp(name, "MPI_Iprobe") || !strcmp(name, "MPI_Improbe"))
        g->blocking = 0;
    g->sends_blocking = c->category == PZ_CAT_SEND && !g->info->buffered;
    if (c->category == PZ_CAT_COLL)
        g->mpi_class = c->collective == PZ_COLL_ALLTOALL ||
                               c->collective == PZ_COLL_ALLTOALLV ||
                               c->collective == PZ_COLL_ALLTOALLW
                           ? CLASS_ALLTOALL : CLASS_COLLECTIVE;
    else if (c->category == PZ_CAT_NBR)  /* recorded as an Alltoallv */
        g->mpi_class = CLASS_ALLTOALL;
    else if (c->category == PZ_CAT_INIT || c->category == PZ_CAT_PLAIN ||
             c->category == PZ_CAT_COMM_NEW || c->category == PZ_CAT_COMM_FREE ||
             c->category == PZ_CAT_COMM_IDUP ||
             c->category == PZ_CAT_PCOLL || c->category == PZ_CAT_PNBR ||
             c->category == PZ_CAT_PARTITIONED ||
             pz_call_family(g->info->call) != PZ_FAMILY_OTHER)
        g->mpi_class = CLASS_MPI;
    else
        g->mpi_class = CLASS_SENDRECV;
}

/* The analyzer's view of the regions the definitions read. */
static int take_regions(struct reader *r)
{
    const struct pz_defs *d = &r->defs;

    r->nregions = d->nregions;
    if (!(r->regions = calloc(d->nregions ? d->nregions : 1, sizeof(*r->regions))))
        return -1;
    for (uint32_t i = 0; i < d->nregions; i++) {
        struct region *g = &r->regions[i];

        g->info = &d->regions[i];
        g->function = -1;
        g->kind = g->info->kind == PZ_REGION_MPI ? REGION_MPI
                  : g->info->kind == PZ_REGION_INTERVAL ? REGION_INTERVAL : REGION_OTHER;
        if (g->info->call >= 0)
            classify(g);
    }
    return 0;
}

/* A slot per call site and region, for the call sites to be listed in order of first
 * call; none (no call sites listed) if that is too many. */
static void index_sites(struct reader *r)
{
    uint64_t slots = (uint64_t)r->defs.nsites * r->nregions;

    if (!slots || slots > UINT32_MAX)
        return;
    r->site_index = calloc((size_t)slots, sizeof(uint32_t));
    r->nsite_slots = r->site_index ? (uint32_t)slots : 0;
}

/* The processes of the analysis are the threads of the definitions. */
static int take_processes(struct reader *r)
{
    const struct pz_defs *d = &r->defs;
    struct pz_analysis *a = r->a;
    size_t n = d->nthreads ? (size_t)d->nthreads : 1;

    a->rank_of = malloc(n * sizeof(int));
    a->thread_of = malloc(n * sizeof(int));
    if (!a->rank_of || !a->thread_of)
        return -1;
    for (int th = 0; th < d->nthreads; th++) {
        a->rank_of[th] = d->thread_rank[th];
        a->thread_of[th] = th - d->first_thread[d->thread_rank[th]];
    }
    a->nprocs = d->nthreads;
    a->nranks = d->nprocs;
    a->threaded = d->threaded;
    return 0;
}

/* The analysis's view of the definitions. */
static int take_definitions(struct reader *r)
{
    if (take_regions(r) != 0 || take_processes(r) != 0) {
        pz_reader_fail(r, "out of memory");
        return -1;
    }
    index_sites(r);
    return 0;
}

static int read_events(struct reader *r)
{
    OTF2_Reader *otf = r->file.otf;
    OTF2_GlobalEvtReader *er;
    OTF2_GlobalEvtReaderCallbacks *cb;
    uint64_t n, read = 0, total = pz_defs_thread_events(&r->defs);

    for (int th = 0; th < r->defs.nthreads; th++) {
        /* the event reader must exist before the local definitions are read */
        if (!OTF2_Reader_GetEvtReader(otf, r->defs.thread_location[th]))
            pz_reader_fail(r, "cannot read the events (damaged or truncated archive?)");
        if (failed(r) || pz_trace_file_local_defs(&r->file, &r->defs, th) != 0)
            return -1;
    }
    cb = OTF2_GlobalEvtReaderCallbacks_New();
    er = OTF2_Reader_GetGlobalEvtReader(otf);
    if (!er || !cb) {
        OTF2_GlobalEvtReaderCallbacks_Delete(cb);
        pz_reader_fail(r, "cannot read the events");
        return -1;
    }
    pz_walk_callbacks(cb);
    OTF2_Reader_RegisterGlobalEvtCallbacks(otf, er, cb, r);
    do {
        if (OTF2_Reader_ReadGlobalEvents(otf, er, PZ_PROGRESS_BATCH, &n) != OTF2_SUCCESS)
            pz_reader_fail(r, "cannot read the events (damaged or truncated archive?)");
        read += n;
        pz_progress_tell(r->progress, "events read", read, total);
    } while (n == PZ_PROGRESS_BATCH && !failed(r));
    OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseGlobalEvtReader(otf, er);
    return failed(r) ? -1 : 0;
}

static void warn(struct pz_analysis *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void warn(struct pz_analysis *a, const char *fmt, ...)
{
    char line[512];
    char **grown = realloc(a->warnings, (size_t)(a->nwarnings + 1) * sizeof(char *));
    va_list ap;

    if (!grown)
        return;
    a->warnings = grown;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if ((a->warnings[a->nwarnings] = strdup(line)))
        a->nwarnings++;
}

/* A process whose events end inside regions was cut short (a crash, a full disk): its
 * open intervals are closed at its last event, so that what was recorded counts, and
 * the report says what is missing. */
static void close_cut_processes(struct reader *r)
{
    for (int p = 0; p < r->a->nprocs; p++) {
        struct process *pr = &r->procs[p];
        const struct pz_region_info *region;
        const char *name;

        if (!pr->depth)
            continue;
        region = r->regions[pr->stack[pr->depth - 1].region].info;
        name = pz_defs_string(&r->defs, region->name_ref);
        warn(r->a, "process %d: its events end at %.6f s inside %s: its trace was cut, what "
             "it did later is missing", p, pr->last, name ? name : "a region");
        while (pr->depth) {
            struct frame *f = &pr->stack[--pr->depth];

            if (f->node >= 0) {
                r->a->nodes[f->node].procs[p].exec += pr->last - f->enter;
                r->a->nodes[f->node].procs[p].count++;
            }
        }
    }
    if (r->a->clock_violations)
        warn(r->a, "%llu receives end before their send began (clock-condition violations): "
             "the clocks of some processes were not synchronized; their waits are not counted",
             (unsigned long long)r->a->clock_violations);
}

/* Score-P records nothing while the measurement is switched off: that time counts as
 * computation, and the messages and collective operations of that time lack records. */
static void warn_switched_off(struct reader *r)
{
    for (int p = 0; p < r->a->nprocs; p++) {
        const struct process *pr = &r->procs[p];

        if (pr->offs)
            warn(r->a, "process %d: the measurement was switched off %u time%s, first at "
                 "%.6f s, for %.6f s in all: what it did then is missing and counts as "
                 "computation, its messages and collective operations of that time cannot "
                 "be matched", p, pr->offs, pr->offs > 1 ? "s" : "", pr->off_first,
                 pr->off_time + (pr->off ? pr->last - pr->off_since : 0));
    }
}

static void warn_oversubscribed(struct reader *r)
{
    char line[512];

    if (r->a->recording && pz_recording_caveat(r->a->recording, line, sizeof(line)))
        warn(r->a, "%s", line);
}

/* The interval-marker mistakes the recorder warned of, again: the intervals are as it
 * resolved them. */
static void warn_marker_mistakes(struct reader *r)
{
    const char *s = r->a->recording ? r->a->recording->marker_warnings : NULL;

    while (s && *s) {
        int len = (int)strcspn(s, "\n");

        warn(r->a, "interval markers: %.*s", len, s);
        s += len + (s[len] == '\n');
    }
}

/* A process's whole run: from its first event to its last; an OpenMP worker thread's, the
 * time it spent in thread teams (between them it waits in the OpenMP runtime). */
static double whole_run(const struct process *pr)
{
    if (!pr->teams)
        return pr->last - pr->first;
    return pr->team_time + (pr->nesting ? pr->last - pr->team_since : 0);
}

int pz_reader_begin(struct reader *r)
{
    if (take_definitions(r) != 0)
        return -1;
    r->procs = calloc((size_t)r->a->nprocs, sizeof(*r->procs));
    if (!r->procs || pz_tree_init(&r->tree, r->a) != 0 || pz_waits_new(r) != 0) {
        pz_reader_fail(r, "out of memory");
        return -1;
    }
    for (int p = 0; p < r->a->nprocs; p++) {
        r->procs[p].first = 1e300;
        r->procs[p].last = -1e300;
        r->procs[p].computing_since = -1e300;
    }
    return 0;
}

int pz_reader_end(struct reader *r)
{
    pz_waits_finish(r);
    close_cut_processes(r);
    warn_switched_off(r);
    warn_oversubscribed(r);
    warn_marker_mistakes(r);
    for (int p = 0; p < r->a->nprocs; p++) {
        if (r->procs[p].last >= r->procs[p].first) {
            r->a->nodes[0].procs[p].count = 1;
            r->a->nodes[0].procs[p].exec = whole_run(&r->procs[p]);
        }
    }
    if (pz_sequential_losses(r->a) != 0)
        pz_reader_fail(r, "out of memory");
    else if (r->mpi_calls == 0)
        pz_reader_fail(r, "the trace has no MPI calls");
    return failed(r) ? -1 : 0;
}

void pz_reader_release(struct reader *r)
{
    free(r->regions);
    free(r->site_index);
    pz_defs_release(&r->defs);
    for (int p = 0; r->procs && p < r->a->nprocs; p++)
        free(r->procs[p].stack);
    free(r->procs);
    pz_waits_free(r);
    pz_io_rma_free(r);
    pz_tree_release(&r->tree);
}

int pz_reader_keep(struct reader *r, const char *path)
{
    if (!(r->a->trace = strdup(path)) || !(r->a->recording = malloc(sizeof(*r->a->recording))))
        return -1;
    *r->a->recording = r->defs.recording;
    memset(&r->defs.recording, 0, sizeof(r->defs.recording));
    return 0;
}

int pz_analyze(const char *path, struct pz_analysis *a, char *err, size_t errlen)
{
    return pz_analyze_with_progress(path, a, NULL, err, errlen);
}

/* Traces of more threads than this are analyzed through the trace layer's records
 * (pz_analyze_records): OTF2's global reader keeps every location's event reader open,
 * and each fills a whole event chunk (256 KiB to 1 MiB: 1 GiB at 4096 processes),
 * where the trace layer reads one location at a time. */
#define RECORDS_FROM_THREADS 256

/* Analyzes the trace at path through OTF2's global reader, unless it has more than
 * records_from threads: 1 then, a untouched, and what its opening found into *opened
 * (its definitions taken from the reader). */
static int analyze_archive(const char *path, struct pz_analysis *a,
                           const struct pz_progress_hook *progress, int records_from,
                           struct pz_opened_trace *opened, char *err, size_t errlen)
{
    struct reader r = { .a = a, .progress = progress };
    int declined = 0;

    memset(a, 0, sizeof(*a));
    if (pz_trace_file_open(&r.file, path, &r.defs) == 0) {
        if (r.defs.nthreads > records_from) {
            declined = 1;
            opened->defs = r.defs;
            memset(&r.defs, 0, sizeof(r.defs));
            opened->partial = pz_trace_file_partial(&r.file);
            snprintf(opened->anchor, sizeof(opened->anchor), "%s", r.file.path);
        } else {
            a->partial = pz_trace_file_partial(&r.file);
            if (pz_reader_keep(&r, path) != 0)
                pz_reader_fail(&r, "out of memory");
            else if (pz_reader_begin(&r) == 0 && read_events(&r) == 0)
                pz_reader_end(&r);
        }
    }
    pz_trace_file_close(&r.file);
    pz_reader_release(&r);
    if (declined && !failed(&r))
        return 1;
    if (!failed(&r))
        return 0;
    snprintf(err, errlen, "%s", r.file.error);
    pz_analysis_free(a);
    return -1;
}

int pz_analyze_with_progress(const char *path, struct pz_analysis *a,
                             const struct pz_progress_hook *progress, char *err,
                             size_t errlen)
{
    struct pz_opened_trace opened;
    int rc = analyze_archive(path, a, progress, RECORDS_FROM_THREADS, &opened, err, errlen);

    if (rc == 1 && (rc = pz_analyze_opened(path, &opened, a, progress, err, errlen)) == 1)
        rc = analyze_archive(path, a, progress, INT_MAX, &opened, err, errlen);
    return rc;
}

void pz_analysis_free(struct pz_analysis *a)
{
    for (int i = 0; i < a->nfunctions; i++)
        free(a->functions[i].name);
    free(a->functions);
    for (int i = 0; i < a->ncallsites; i++) {
        free(a->callsites[i].file);
        free(a->callsites[i].function);
    }
    free(a->callsites);
    for (int i = 0; i < a->nwarnings; i++)
        free(a->warnings[i]);
    free(a->warnings);
    free(a->partial);
    free(a->trace);
    if (a->recording)
        pz_recording_release(a->recording);
    free(a->recording);
    for (int i = 0; i < a->nnodes; i++) {
        free(a->nodes[i].file);
        free(a->nodes[i].procs);
    }
    free(a->nodes);
    free(a->rank_of);
    free(a->thread_of);
    memset(a, 0, sizeof(*a));
}
