/* The replay's main loop, the computation between MPI calls, and the records outside
 * calls (intervals, the program's own regions).  Every thread of every process has its
 * own timeline; the communication model knows processes only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "trace_calls.h"

/* The next record of thread th with a CPU time (an MPI call's Enter, an interval's
 * Enter or Leave, recorded with PROGNOZ_CPU_TIME=1), NULL if none; *flushed gets the
 * recorder's own time (buffer flushes) before it. */
static const struct pz_rec *next_cpu_anchor(struct engine *e, int th, uint64_t *flushed)
{
    const struct pz_rec *r;

    *flushed = 0;
    for (size_t i = 0; (r = pz_trace_in_peek(e->in, th, i)); i++) {
        if (r->cpu != PZ_NONE64)
            return r;
        if (r->kind == PZ_REC_FLUSH && r->bytes2 > r->time)
            *flushed += r->bytes2 - r->time;
    }
    return NULL;
}

/* Predicted seconds per recorded second of the computation thread th is in: the
 * machine's cpu_scale, times (with compute_cpu) the share of the recorded time from the
 * last CPU anchor to the next, flushes left out, the thread spent on a CPU. */
static double gap_factor(struct engine *e, int th)
{
    struct thread *k = &e->threads[th];
    double scale = e->o->machine->cpu_scale;
    const struct pz_rec *next;
    uint64_t flushed;

    if (k->factor >= 0)
        return k->factor;
    k->factor = scale;
    next = e->o->compute_cpu ? next_cpu_anchor(e, th, &flushed) : NULL;
    if (next && k->leave_cpu != PZ_NONE64 && next->cpu >= k->leave_cpu &&
        next->time > k->leave_wall + flushed) {
        double cpu = (double)(next->cpu - k->leave_cpu) / 1e9;
        double wall = (double)(next->time - k->leave_wall - flushed) / e->resolution;

        k->factor = scale * cpu / wall;
        e->result->cpu_gaps++;
    } else {
        e->result->wall_gaps++;
    }
    return k->factor;
}

/* Computation of thread th up to the recorded time `until`. */
static void compute(struct engine *e, int th, uint64_t until)
{
    struct thread *k = &e->threads[th];

    if (until > k->last) {
        k->now += (double)(until - k->last) / e->resolution * gap_factor(e, th);
        k->last = until;
    }
}

/* A record outside MPI calls: intervals and the program's regions keep their place. */
static void outside_call(struct engine *e, int th, const struct pz_rec *r)
{
    struct thread *k = &e->threads[th];

    if (r->kind == PZ_REC_FLUSH) {
        /* the recorder's own time is not the program's */
        k->last = r->bytes2 > r->time ? r->bytes2 : r->time;
        return;
    }
    if (r->kind == PZ_REC_ENTER &&
        pz_trace_in_region(e->in, r->region)->kind == PZ_REGION_INTERVAL) {
        if (k->depth < MAX_OPEN_INTERVALS)
            k->intervals[k->depth] = r->region;
        k->depth++;
    } else if (r->kind == PZ_REC_LEAVE && k->depth > 0 &&
               pz_trace_in_region(e->in, r->region)->kind == PZ_REGION_INTERVAL) {
        k->depth--;
    }
    if (r->cpu != PZ_NONE64) {   /* a CPU anchor: the next part of the computation */
        k->leave_wall = r->time;
        k->leave_cpu = r->cpu;
        k->factor = -1;
    }
    pz_engine_emit(e, th, r, k->now);
}

/* Whether thread th, its records all replayed, is the first thread of its process and
 * its last MPI call was not MPI_Finalize: a process recorded only in part. */
static int ends_early(const struct engine *e, int th)
{
    const struct thread *k = &e->threads[th];

    return pz_trace_in_first(e->in, k->rank) == th &&
           strcmp(pz_trace_in_region(e->in, k->call_region)->name, "MPI_Finalize") != 0;
}

static void finish_thread(struct engine *e, int th)
{
    e->threads[th].state = THREAD_DONE;
    e->ndone++;
    if (e->o->sink)
        e->o->sink->done(e->o->sink->ctx, th);
    if (e->threads[th].now > e->result->end)
        e->result->end = e->threads[th].now;
}

static double limit_of(const struct engine *e)
{
    double a = pz_radix_next(&e->ready), b = pz_comsys_next(e->cs);

    return a < b ? a : b;
}

/* Steps thread th until it parks, ends, or would pass another thread or the model's
 * next event (the order in which operations reach the network is the order of time). */
static void run(struct engine *e, int th)
{
    struct thread *k = &e->threads[th];
    const struct pz_rec *r;

    if (k->state == THREAD_PARKED) {
        pz_engine_finish_call(e, th);
        k->state = THREAD_READY;
    }
    while (!e->error[0] && (r = pz_trace_in_peek(e->in, th, 0))) {
        int mpi = r->kind == PZ_REC_ENTER &&
                  pz_trace_in_region(e->in, r->region)->kind == PZ_REGION_MPI;

        compute(e, th, r->time);
        r = pz_trace_in_peek(e->in, th, 0);   /* looking ahead may have moved it */
        if (!mpi) {
            outside_call(e, th, r);
            pz_trace_in_consume(e->in, th, 1);
            continue;
        }
        if (k->now > limit_of(e)) {
            if (pz_radix_push(&e->ready, k->now, 0, th) != 0)
                pz_engine_fail(e, "out of memory");
            return;
        }
        if (pz_engine_call(e, th))
            return;
    }
    if (pz_trace_in_error(e->in))
        pz_engine_fail(e, "%s", pz_trace_in_error(e->in));
    e->ended_early += ends_early(e, th);
    finish_thread(e, th);
}

/* A request a parked thread waits for is complete.  The model tells the process that
 * owns the request; the thread that waits for it is the engine's to know. */
static void on_done(void *ud, int proc, int request, double done)
{
    struct engine *e = ud;
    int th = e->waiter[request];
    struct thread *k;

    (void)proc;
    if (th < 0 || pz_any_done(e, th, request, done))
        return;
    k = &e->threads[th];
    k->wake = pz_comsys_deliver(e->cs, request, k->wake);
    pz_comsys_release(e->cs, request);
    if (--k->outstanding == 0 && k->state == THREAD_PARKED &&
        pz_radix_push(&e->ready, k->wake, 0, th) != 0)
        pz_engine_fail(e, "out of memory");
}

/* The slot of the innermost open interval of k (depth > 0) that is remembered. */
static int innermost(const struct thread *k)
{
    return (k->depth < MAX_OPEN_INTERVALS ? k->depth : MAX_OPEN_INTERVALS) - 1;
}

/* "rank 1 waits in MPI_Recv (interval 2 at heat.c:40)" (or "thread 1.2 waits ...") for
 * each thread that cannot go on: an error, or with stop_when_stuck, when a process's
 * records ended before MPI_Finalize, the end of the replay, those threads ending where
 * they wait. */
static void report_deadlock(struct engine *e)
{
    char list[768] = "";
    size_t used = 0;
    int shown = 0, stuck = e->nthreads - e->ndone;

    for (int th = 0; th < e->nthreads && used < sizeof(list) - 1; th++) {
        const struct thread *k = &e->threads[th];
        const char *where = "the whole run";

        if (k->state != THREAD_PARKED || shown == 8)
            continue;
        if (k->depth > 0)
            where = pz_trace_in_region(e->in, k->intervals[innermost(k)])->name;
        used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s waits in %s (%s)",
                                 shown ? "; " : "", pz_engine_name(e, th).text,
                                 pz_trace_in_region(e->in, k->call_region)->name, where);
        shown++;
    }
    if (!e->o->stop_when_stuck || !e->ended_early) {
        pz_engine_fail(e, "the run cannot complete: %s%s", list,
                       stuck > shown ? "; and more" : "");
        return;
    }
    snprintf(e->result->stopped, sizeof(e->result->stopped), "%s%s", list,
             stuck > shown ? "; and more" : "");
    for (int th = 0; th < e->nthreads; th++)
        if (e->threads[th].state == THREAD_PARKED)
            finish_thread(e, th);
}

static int start(struct engine *e, const char *name, char *err, size_t errlen)
{
    e->nprocs = pz_trace_in_nprocs(e->in);
    e->nthreads = pz_trace_in_nthreads(e->in);
    e->threaded = e->nthreads > e->nprocs;
    e->resolution = pz_trace_in_resolution(e->in);
    e->offset = pz_trace_in_offset(e->in);
    e->result->nprocs = e->nprocs;
    e->result->nthreads = e->nthreads;
    if (!(e->cs = pz_comsys_new(e->o->machine, e->nprocs)) ||
        !(e->threads = calloc((size_t)e->nthreads, sizeof(*e->threads)))) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    for (int th = 0; th < e->nthreads; th++)
        e->threads[th].rank = pz_trace_in_rank(e->in, th);
    pz_comsys_set_notify(e->cs, on_done, e);
    for (int c = 0; c < PZ_COLL_NOPS; c++)
        if (e->o->forced[c])
            pz_comsys_force(e->cs, e->o->forced[c]);
    return 0;
}

/* Whether rec is the Enter of MPI_Init (pz_call_starts_mpi). */
static int enters_init(const struct engine *e, const struct pz_rec *rec)
{
    return rec && rec->kind == PZ_REC_ENTER &&
           pz_call_starts_mpi(pz_trace_in_region(e->in, rec->region));
}

/* The recorded Leave of MPI_Init of process p into *leave, if its first thread begins
 * with MPI_Init; 0 if not. */
static int init_leave(struct engine *e, int p, uint64_t *leave)
{
    int th = pz_trace_in_first(e->in, p);
    const struct pz_rec *first = pz_trace_in_peek(e->in, th, 0), *last;

    if (!enters_init(e, first))
        return 0;
    last = pz_trace_in_peek(e->in, th, pz_call_length(e->in, th, first->region) - 1);
    if (!last || last->kind != PZ_REC_LEAVE)
        return 0;
    *leave = last->time;
    return 1;
}

/* The recorded time at which thread th starts in the prediction.  A thread starts when
 * it started in the recording (what it did before its first record, being created, is
 * not in the trace); but one that begins with MPI_Init, at init, the latest start of
 * MPI_Init, which every process leaves at once; and one that starts after its process
 * left MPI_Init, as long after init as it started after that Leave in the recording. */
static uint64_t start_of(struct engine *e, int th, uint64_t init)
{
    const struct pz_rec *first = pz_trace_in_peek(e->in, th, 0);
    uint64_t leave;

    if (!first)
        return e->offset;
    if (enters_init(e, first))
        return init;
    if (init_leave(e, e->threads[th].rank, &leave) && first->time >= leave)
        return init + (first->time - leave);
    return first->time;
}

static void place_threads(struct engine *e)
{
    uint64_t init = pz_call_init_start(e->in);

    for (int th = 0; th < e->nthreads; th++) {
        struct thread *k = &e->threads[th];
        const struct pz_rec *first = pz_trace_in_peek(e->in, th, 0);

        k->last = k->leave_wall = first ? first->time : e->offset;
        k->now = (double)(start_of(e, th, init) - e->offset) / e->resolution;
        k->leave_cpu = PZ_NONE64;
        k->factor = -1;
        if (pz_radix_push(&e->ready, k->now, 0, th) != 0)
            pz_engine_fail(e, "out of memory");
    }
}

/* Asks the processor for the state of the threads due next while the one just taken
 * runs (pz_trace_in_prefetch tells why), in two steps so that the misses of two turns
 * overlap: for the thread due after the next, when the queue knows it without a search,
 * the first cache line of its struct thread and its ring's descriptor; for the thread
 * due next, the first two lines of its struct thread, which hold what a call touches,
 * and its next record, whose address its ring's descriptor (asked for a turn before)
 * gives. */
static void prefetch_next(struct engine *e)
{
    struct pz_heap_item next;

    if (pz_radix_peek_second(&e->ready, &next)) {
        __builtin_prefetch(&e->threads[next.id]);
        pz_trace_in_prefetch_ring(e->in, next.id);
    }
    if (!pz_radix_peek(&e->ready, &next))
        return;
    __builtin_prefetch(&e->threads[next.id]);
    __builtin_prefetch((const char *)&e->threads[next.id] + 64);
    pz_trace_in_prefetch(e->in, next.id);
}

static void main_loop(struct engine *e)
{
    struct pz_heap_item it;

    while (!e->error[0] && e->ndone < e->nthreads) {
        if (pz_comsys_failed(e->cs) || e->ready.failed) {
            pz_engine_fail(e, "out of memory");
        } else if (pz_comsys_next(e->cs) <= pz_radix_next(&e->ready)) {
            if (pz_comsys_next(e->cs) == INFINITY)
                report_deadlock(e);
            else
                pz_comsys_step(e->cs);
        } else if (pz_radix_pop(&e->ready, &it)) {
            prefetch_next(e);
            if (it.kind == 0 || pz_any_due(e, it.id, it.time))
                run(e, it.id);
        }
    }
}

static void release(struct engine *e)
{
    for (uint32_t c = 0; c < e->ncomms; c++)
        free(e->comms[c].rank_of);
    free(e->comms);
    for (int th = 0; e->threads && th < e->nthreads; th++) {
        free(e->threads[th].pending);
        free(e->threads[th].io);
    }
    pz_any_free(e);
    free(e->threads);
    free(e->waiter);
    pz_radix_release(&e->ready);
    pz_comsys_free(e->cs);
    pz_trace_in_close(e->in);
}

int pz_predict_run(struct pz_trace_in *in, struct pz_trace_out *predicted, const char *name,
                   const struct pz_predict_options *o, struct pz_prediction *out, char *err,
                   size_t errlen)
{
    struct engine e = { .o = o, .result = out, .in = in, .out = predicted };
    int rc = 0;

    memset(out, 0, sizeof(*out));
    if (start(&e, name, err, errlen) != 0) {
        rc = -1;
    } else {
        place_threads(&e);
        main_loop(&e);
        out->records = pz_trace_in_records(e.in);
        if (e.error[0]) {
            snprintf(err, errlen, "%s: %s", name, e.error);
            rc = -1;
        }
    }
    if (e.out && pz_trace_out_close(e.out, rc ? NULL : err, rc ? 0 : errlen) != 0)
        rc = -1;
    release(&e);
    return rc;
}

int pz_predict(const char *trace, const struct pz_predict_options *o,
               struct pz_prediction *out, char *err, size_t errlen)
{
    struct pz_trace_in *in = pz_trace_in_open_with_progress(trace, o->progress,
                                                            "records replayed", err, errlen);
    struct pz_trace_out *predicted = NULL;

    memset(out, 0, sizeof(*out));
    if (!in)
        return -1;
    pz_trace_in_keep_io(in);
    if (o->output &&
        !(predicted = pz_trace_out_open(trace, o->output, pz_trace_in_nthreads(in),
                                        pz_trace_in_locations(in), err, errlen))) {
        pz_trace_in_close(in);
        return -1;
    }
    return pz_predict_run(in, predicted, trace, o, out, err, errlen);
}
