/* Reading one recording for the scaling (scale_run.h): per process its steps (MPI calls,
 * interval boundaries) with the computation before each and the events of each call,
 * the request each completion refers to; then the grid (scale_run_grid.c) and the
 * relative references (scale_run_comm.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "scale_run_int.h"
#include "trace_calls.h"

int pz_scale_fail(struct pz_scale_reading *r, const char *fmt, ...)
{
    char what[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    snprintf(r->err, r->errlen, "%s: %s", r->run->path, what);
    return -1;
}

int pz_scale_is_message(uint8_t kind)
{
    return kind == PZ_REC_SEND || kind == PZ_REC_RECV || kind == PZ_REC_ISEND ||
           kind == PZ_REC_IRECV;
}

int pz_scale_has_target(uint8_t kind)
{
    return pz_scale_is_message(kind) || kind == PZ_REC_RMA_PUT || kind == PZ_REC_RMA_GET ||
           kind == PZ_REC_RMA_ATOMIC || kind == PZ_REC_RMA_LOCK ||
           kind == PZ_REC_RMA_RELEASE || kind == PZ_REC_RMA_SYNC;
}

static int has_comm(uint8_t kind)
{
    return pz_scale_is_message(kind) || kind == PZ_REC_COLL_END || kind == PZ_REC_NBC_COMPLETE;
}

/* Whether a one-sided record names its window (all but the collective's begin). */
static int has_window(uint8_t kind)
{
    return pz_rec_is_rma(kind) && kind != PZ_REC_RMA_COLL_BEGIN;
}

int pz_scale_is_transfer(uint8_t kind)
{
    return kind == PZ_REC_RMA_PUT || kind == PZ_REC_RMA_GET || kind == PZ_REC_RMA_ATOMIC;
}

/* Whether rec posts a request: a nonblocking send, receive or collective, a
 * request-based one-sided transfer (its matching id not 0). */
static int posts_request(const struct pz_rec *rec)
{
    return rec->kind == PZ_REC_ISEND || rec->kind == PZ_REC_IRECV_REQUEST ||
           rec->kind == PZ_REC_NBC_REQUEST || (pz_scale_is_transfer(rec->kind) && rec->request);
}

int pz_scale_ends_request(uint8_t kind)
{
    return kind == PZ_REC_ISEND_COMPLETE || kind == PZ_REC_IRECV ||
           kind == PZ_REC_NBC_COMPLETE || kind == PZ_REC_REQUEST_CANCELLED ||
           kind == PZ_REC_RMA_OP_COMPLETE;
}

static int refers_to_request(uint8_t kind)
{
    return pz_scale_ends_request(kind) || kind == PZ_REC_REQUEST_TEST;
}

/* Request ids to the step that posted them, the latest posting winning: open
 * addressing, a slot's step + 1, 0 when empty. */
struct postings {
    uint64_t *ids;
    size_t *steps, cap, n;
};

static size_t slot_of(const struct postings *t, uint64_t id)
{
    size_t s = (size_t)((id * 0x9E3779B97F4A7C15u) >> 32) & (t->cap - 1);

    while (t->steps[s] && t->ids[s] != id)
        s = (s + 1) & (t->cap - 1);
    return s;
}

static int postings_put(struct postings *t, uint64_t id, size_t step)
{
    size_t s;

    if (2 * (t->n + 1) > t->cap) {
        struct postings bigger = { .cap = t->cap ? 2 * t->cap : 64 };

        bigger.ids = malloc(bigger.cap * sizeof(*bigger.ids));
        bigger.steps = calloc(bigger.cap, sizeof(*bigger.steps));
        if (!bigger.ids || !bigger.steps) {
            free(bigger.ids);
            free(bigger.steps);
            return -1;
        }
        for (size_t i = 0; i < t->cap; i++)
            if (t->steps[i]) {
                s = slot_of(&bigger, t->ids[i]);
                bigger.ids[s] = t->ids[i];
                bigger.steps[s] = t->steps[i];
                bigger.n++;
            }
        free(t->ids);
        free(t->steps);
        *t = bigger;
    }
    s = slot_of(t, id);
    t->n += !t->steps[s];
    t->ids[s] = id;
    t->steps[s] = step + 1;
    return 0;
}

/* The step that posted request id, -1 if none. */
static long postings_get(const struct postings *t, uint64_t id)
{
    return t->cap && t->steps[slot_of(t, id)] ? (long)t->steps[slot_of(t, id)] - 1 : -1;
}

/* A window of a process: its reference, its communicator's, its slot (struct
 * pz_scale_event.tag), and whether it was freed (the records of the call that frees it
 * still find it: the collective's end follows the window's destruction). */
struct live_window {
    uint32_t ref, comm, slot;
    uint8_t freed;
};

/* One process's walk: where the computation since the last step began (its end: the
 * time, the CPU time if recorded), and the flushes since. */
struct walk {
    struct pz_scale_reading *r;
    int p, th;
    struct pz_scale_process *proc;
    size_t steps_cap, events_cap;
    uint64_t since, since_cpu, flushed;
    struct postings posted;
    int tested;            /* the last call was a test completing a request: 1 an
                              MPI_Test, 2 one of its forms over many requests */
    int open_intervals;    /* intervals begun and not yet ended */
    struct live_window *windows;   /* the process's windows (those freed until another is
                                      made: make_window) */
    size_t nwindows, windows_cap;
};

static int reserve(void **v, size_t *cap, size_t n, size_t size)
{
    size_t want = *cap ? 2 * *cap : 64;
    void *grown;

    if (n < *cap)
        return 0;
    if (!(grown = realloc(*v, want * size)))
        return -1;
    *v = grown;
    *cap = want;
    return 0;
}

static uint64_t flush_span(const struct pz_rec *f)
{
    return f->bytes2 > f->time ? f->bytes2 - f->time : 0;
}

static double seconds(const struct walk *w, uint64_t from, uint64_t to, uint64_t flushed)
{
    return to > from + flushed ? (double)(to - from - flushed) /
                                     pz_trace_in_resolution(w->r->in) : 0;
}

static double cpu_seconds(uint64_t from, uint64_t to)
{
    return from != PZ_NONE64 && to != PZ_NONE64 && to >= from ? (double)(to - from) / 1e9 : -1;
}

/* A new step beginning with record `at`, after the computation since the last one. */
static struct pz_scale_step *new_step(struct walk *w, uint8_t kind, const struct pz_rec *at)
{
    struct pz_scale_process *q = w->proc;
    struct pz_scale_step *s;

    if (reserve((void **)&q->steps, &w->steps_cap, q->nsteps, sizeof(*q->steps)) != 0)
        return NULL;
    s = &q->steps[q->nsteps++];
    memset(s, 0, sizeof(*s));
    s->kind = kind;
    s->region = at->region;
    s->gap_wall = seconds(w, w->since, at->time, w->flushed);
    s->gap_cpu = cpu_seconds(w->since_cpu, at->cpu);
    s->first = (uint32_t)q->nevents;
    if (at->cpu != PZ_NONE64)
        w->r->run->cpu_times = 1;
    return s;
}

/* The next computation begins at record `at`. */
static void step_ended(struct walk *w, const struct pz_rec *at)
{
    w->since = at->time;
    w->since_cpu = at->cpu;
    w->flushed = 0;
}

/* Communicator comm of call: defined, and an intracommunicator. */
static int check_comm(struct walk *w, uint32_t comm, const char *call)
{
    const struct pz_comm_def *c = pz_trace_in_comm_def(w->r->in, comm);

    if (!c)
        return pz_scale_fail(w->r, "process %d, %s: communicator %u is not defined", w->p,
                             call, comm);
    if (c->inter)
        return pz_scale_fail(w->r, "process %d, %s: communicator %u is an intercommunicator, "
                             "which the scaling cannot make relative", w->p, call, comm);
    return 0;
}

/* --- one-sided communication: each record's window as its communicator and the window's
 * slot (PZ_SCALE_WINDOW_SLOT) */

/* The entry of window ref among the process's, the latest made; NULL if none. */
static struct live_window *find_window(struct walk *w, uint32_t ref)
{
    for (size_t i = w->nwindows; i-- > 0;)
        if (w->windows[i].ref == ref)
            return &w->windows[i];
    return NULL;
}

/* Window ref made on communicator comm: the lowest slot no live window of the process on
 * comm has.  The freed ones are forgotten (their calls are over).  NULL out of memory. */
static struct live_window *make_window(struct walk *w, uint32_t ref, uint32_t comm)
{
    size_t n = 0;
    uint32_t slot = 0;

    for (size_t i = 0; i < w->nwindows; i++)
        if (!w->windows[i].freed)
            w->windows[n++] = w->windows[i];
    w->nwindows = n;
    for (size_t i = 0; i < n; i++)
        if (w->windows[i].comm == comm && w->windows[i].slot == slot) {
            slot++;
            i = (size_t)-1;   /* again from the first */
        }
    if (reserve((void **)&w->windows, &w->windows_cap, n, sizeof(*w->windows)) != 0)
        return NULL;
    w->windows[n] = (struct live_window){ ref, comm, slot, 0 };
    return &w->windows[w->nwindows++];
}

/* The communicator of one-sided record rec of call into *comm (PZ_NONE32: it has none, a
 * collective's begin) and its window's slot into *slot; refuses what the scaling cannot
 * make relative: the groups of generalized active target synchronization, a window
 * not defined. */
static int rma_window(struct walk *w, const struct pz_rec *rec, const char *call,
                      uint32_t *comm, uint32_t *slot)
{
    struct live_window *win;

    *comm = PZ_NONE32;
    *slot = 0;
    if (rec->kind == PZ_REC_RMA_GROUP_SYNC)
        return pz_scale_fail(w->r, "process %d, %s: post-start-complete-wait synchronization "
                             "cannot be extrapolated: its group names processes, which the "
                             "scaling does not express as neighbours in the process grid",
                             w->p, call);
    if (!has_window(rec->kind))
        return 0;
    /* a window whose making is not in the trace (a tracer writing no RmaWinCreate) is
     * made where it is first used */
    if (rec->kind == PZ_REC_RMA_WIN_CREATE || !(win = find_window(w, rec->comm))) {
        uint32_t c = pz_trace_in_window_comm(w->r->in, rec->comm);

        if (c == PZ_NONE32)
            return pz_scale_fail(w->r, "process %d, %s: window %u is not defined", w->p,
                                 call, rec->comm);
        if (!(win = make_window(w, rec->comm, c)))
            return pz_scale_fail(w->r, "out of memory");
        /* the slot is the tag's top byte (scale_run.h) */
        if (win->slot > UINT32_MAX / PZ_SCALE_WINDOW_SLOT)
            return pz_scale_fail(w->r, "process %d, %s: more than %u windows alive at once "
                                 "on one communicator cannot be extrapolated", w->p, call,
                                 UINT32_MAX / PZ_SCALE_WINDOW_SLOT + 1);
    }
    *comm = win->comm;
    *slot = win->slot;
    if (rec->kind == PZ_REC_RMA_WIN_DESTROY)
        win->freed = 1;
    return 0;
}

/* Whether call is a neighbourhood collective: it exchanges with the neighbours of its
 * communicator's topology, recorded as an Alltoallv whose per-peer lists name them
 * (scale_run_comm.c makes them offsets in the grid).  A blocking one (MPI_Neighbor_*)
 * has them at its end; a nonblocking one (MPI_Ineighbor_*) at its completion, in the
 * wait or test that completes its request. */
static int is_neighbourhood(const char *call)
{
    return !strncmp(call, "MPI_Neighbor_", 13);
}

static int is_nonblocking_neighbourhood(const char *call)
{
    return !strncmp(call, "MPI_Ineighbor_", 14);
}

/* A persistent neighbourhood collective (MPI_Neighbor_*_init) is started by MPI_Start,
 * which does not say what it starts; each start is a nonblocking collective on the
 * request's own communicator, which the recorder names after the init call ("Comm 5
 * (MPI_Neighbor_alltoall_init)", docs/trace-format.md): marks those communicators, by
 * reference, in r->persistent_nbr.  The strings are numbered from 0 without gaps. */
static int mark_persistent_neighbourhoods(struct pz_scale_reading *r)
{
    const char *s;
    unsigned comm;
    int at;

    for (uint32_t ref = 0; (s = pz_trace_in_string(r->in, ref)); ref++) {
        if (sscanf(s, "Comm %u (%n", &comm, &at) != 1 || at <= 0 ||
            strncmp(s + at, "MPI_Neighbor_", 13) != 0)
            continue;
        if (pz_grow((void **)&r->persistent_nbr, &r->npersistent_nbr, comm, 1) != 0)
            return pz_scale_fail(r, "out of memory");
        r->persistent_nbr[comm] = 1;
    }
    return 0;
}

/* Whether the event of record rec of call, whose request step `posted` posted (-1:
 * none), holds a neighbourhood collective's lists: the end of a blocking one, the
 * completion of a nonblocking one or of a start of a persistent one. */
static int has_neighbours(const struct walk *w, const struct pz_rec *rec, const char *call,
                          long posted)
{
    if (rec->kind == PZ_REC_COLL_END)
        return is_neighbourhood(call);
    if (rec->kind != PZ_REC_NBC_COMPLETE)
        return 0;
    if (rec->comm < w->r->npersistent_nbr && w->r->persistent_nbr[rec->comm])
        return 1;
    return posted >= 0 &&
           is_nonblocking_neighbourhood(
               pz_trace_in_region(w->r->in, w->proc->steps[posted].region)->name);
}

/* Event record rec of the call that is step `step`, with its raw communicator and
 * peer, and the step that posted its request. */
static int add_event(struct walk *w, const struct pz_rec *rec, size_t step, const char *call)
{
    struct pz_scale_process *q = w->proc;
    size_t events_cap = w->events_cap, raw_cap = w->events_cap;
    struct pz_scale_event *e;
    struct pz_scale_raw *raw;
    uint32_t window_comm = PZ_NONE32, slot = 0;
    long posted;

    if (q->nevents >= UINT32_MAX)
        return pz_scale_fail(w->r, "process %d: more than %u event records", w->p, UINT32_MAX);
    /* the raw part grows with the events, to the same capacity */
    if (reserve((void **)&q->events, &events_cap, q->nevents, sizeof(*q->events)) != 0 ||
        reserve((void **)&w->r->raw[w->p], &raw_cap, q->nevents, sizeof(*raw)) != 0)
        return pz_scale_fail(w->r, "out of memory");
    w->events_cap = events_cap;
    if (has_comm(rec->kind) && check_comm(w, rec->comm, call) != 0)
        return -1;
    if (pz_rec_is_rma(rec->kind) &&
        (rma_window(w, rec, call, &window_comm, &slot) != 0 ||
         (window_comm != PZ_NONE32 && check_comm(w, window_comm, call) != 0)))
        return -1;
    e = &q->events[q->nevents];
    raw = &w->r->raw[w->p][q->nevents++];
    memset(e, 0, sizeof(*e));
    e->kind = rec->kind;
    e->coll_op = rec->coll_op;
    e->comm = PZ_SCALE_NO_COMM;
    e->tag = pz_scale_is_message(rec->kind) ? rec->tag : 0;
    if (pz_rec_is_rma(rec->kind))
        e->tag = (rec->tag & (PZ_SCALE_RMA_REQUEST - 1)) + slot * PZ_SCALE_WINDOW_SLOT +
                 (pz_scale_is_transfer(rec->kind) && rec->request ? PZ_SCALE_RMA_REQUEST : 0);
    e->bytes = rec->bytes;
    e->bytes2 = rec->bytes2;
    e->posted_by = -1;
    raw->comm = has_comm(rec->kind) ? rec->comm : window_comm;
    raw->peer = has_comm(rec->kind) || pz_scale_has_target(rec->kind) ? rec->peer : PZ_NONE32;
    raw->send_list = rec->send_list;
    raw->recv_list = rec->recv_list;
    posted = refers_to_request(rec->kind) ? postings_get(&w->posted, rec->request) : -1;
    if (posted >= 0)
        e->posted_by = (int32_t)(step - (size_t)posted);
    raw->nbr = has_neighbours(w, rec, call, posted);
    raw->common = 0;
    raw->any = rec->any_source;
    if (posts_request(rec) && postings_put(&w->posted, rec->request, step) != 0)
        return pz_scale_fail(w->r, "out of memory");
    return 0;
}

/* The calls that poll for completions: MPI_Test and its forms over many requests. */
static int is_test(const char *call)
{
    return !strcmp(call, "MPI_Test") || !strcmp(call, "MPI_Testall") ||
           !strcmp(call, "MPI_Testany") || !strcmp(call, "MPI_Testsome");
}

static int is_wait(const char *call)
{
    return !strcmp(call, "MPI_Wait") || !strcmp(call, "MPI_Waitall") ||
           !strcmp(call, "MPI_Waitany") || !strcmp(call, "MPI_Waitsome");
}

/* The calls that poll for a message and whose records say nothing of what they found
 * (the recorder writes no event for them, whether a message was there or not). */
static int is_probe_poll(const char *call)
{
    return !strcmp(call, "MPI_Iprobe") || !strcmp(call, "MPI_Improbe");
}

/* Whether a call completes nothing: a test (MPI_Test, MPI_Testall, MPI_Testany,
 * MPI_Testsome) that finds its requests incomplete (its events are tests), a wait with
 * no event right after a test that completed a request (`tested`: the wait on the
 * requests the test completed), or an MPI_Iprobe or MPI_Improbe.  A program polling
 * requests until they are done makes as many such tests as its timing decides, from
 * one iteration and one process to the next, and waits on the requests done or not:
 * they are no step of the program (scale_sig.c makes the test that completes requests
 * the wait of its form).  A program polling for a message with MPI_Iprobe until one
 * arrives makes as many probes as the timing decides too, and their records do not
 * tell the one that found it: the receive that follows is where the message is
 * waited for.  Any other wait on requests already done is a call the program makes
 * every time, and stays. */
static int completes_nothing(const char *call, const struct pz_scale_event *ev, size_t n,
                             int tested)
{
    if (is_probe_poll(call))
        return 1;
    if (is_wait(call))
        return n == 0 && tested;
    if (!is_test(call) || n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (ev[i].kind != PZ_REC_REQUEST_TEST)
            return 0;
    return 1;
}

/* Whether a call is a test that completed a request: 1 an MPI_Test, 2 one of its forms
 * over many requests, else 0. */
static int test_completed(const char *call, const struct pz_scale_event *ev, size_t n)
{
    if (!is_test(call))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (ev[i].kind != PZ_REC_REQUEST_TEST)
            return strcmp(call, "MPI_Test") != 0 ? 2 : 1;
    return 0;
}

/* Counts a call left out by what it is (`tested` as in struct walk): the notes say
 * which calls were. */
static void count_poll(struct pz_scale_run *run, const char *call, int tested)
{
    if (is_probe_poll(call))
        run->probes++;
    else if (!strcmp(call, "MPI_Test") || (!strcmp(call, "MPI_Wait") && tested == 1))
        run->polls++;
    else
        run->polls_many++;
}

/* The calls that complete as many of their requests as are done when they look: how
 * many one call completes, and so how many calls complete a set of requests, the
 * timing decides. */
static int completes_some(const char *call)
{
    return !strcmp(call, "MPI_Waitsome") || !strcmp(call, "MPI_Testsome");
}

/* Makes the completions of step `step` (an MPI_Waitsome or MPI_Testsome) one step each,
 * the first keeping the call's computation before it and its duration, the others
 * none: a program completing a set of requests by MPI_Waitsome in a loop makes 1 to n
 * calls as the timing decides, and each request is completed by a call of its own, as
 * MPI_Waitany completes them (the most calls, each returning as soon as one request is
 * done).  A call with an event that completes no request stays whole.  0, or -1 out of
 * memory. */
static int split_completions(struct walk *w, size_t step)
{
    struct pz_scale_process *q = w->proc;
    struct pz_scale_step whole = q->steps[step];

    for (uint32_t i = 0; i < whole.n; i++)
        if (!pz_scale_ends_request(q->events[whole.first + i].kind))
            return 0;
    for (uint32_t i = 1; i < whole.n; i++) {
        struct pz_scale_step *s;
        struct pz_scale_event *e = &q->events[whole.first + i];

        if (reserve((void **)&q->steps, &w->steps_cap, q->nsteps, sizeof(*q->steps)) != 0)
            return -1;
        s = &q->steps[q->nsteps++];
        *s = whole;
        s->first = whole.first + i;
        s->n = 1;
        s->gap_wall = 0;
        s->gap_cpu = whole.gap_cpu >= 0 ? 0 : -1;
        s->duration = 0;
        if (e->posted_by > 0)      /* relative to the step that completes it */
            e->posted_by += (int32_t)i;
    }
    if (whole.n > 1)
        q->steps[step].n = 1;
    return 0;
}

/* The MPI call whose Enter is the next record: a step with its event records. */
static int read_call(struct walk *w)
{
    struct pz_rec enter = *pz_trace_in_peek(w->r->in, w->th, 0), end;
    const char *call = pz_trace_in_region(w->r->in, enter.region)->name;
    size_t len = pz_call_length(w->r->in, w->th, enter.region), step = w->proc->nsteps;
    uint64_t flushed = 0;
    struct pz_scale_step *s;

    s = new_step(w, PZ_SCALE_CALL, &enter);
    if (!s)
        return pz_scale_fail(w->r, "out of memory");
    for (size_t i = 1; i < len; i++) {
        const struct pz_rec *rec = pz_trace_in_peek(w->r->in, w->th, i);

        if (rec->kind == PZ_REC_FLUSH)
            flushed += flush_span(rec);
        else if (rec->kind != PZ_REC_ENTER && rec->kind != PZ_REC_LEAVE &&
                 add_event(w, rec, step, call) != 0)
            return -1;
    }
    end = *pz_trace_in_peek(w->r->in, w->th, len - 1);
    if (end.kind != PZ_REC_LEAVE)    /* a cut trace: its CPU time is not the call's end */
        end.cpu = PZ_NONE64;
    s = &w->proc->steps[step];
    if (completes_nothing(call, w->proc->events + s->first, w->proc->nevents - s->first,
                          w->tested)) {
        /* no step: its time is the computation's around it */
        if (pz_grow((void **)&w->r->left_out, &w->r->nleft_out, enter.region, 1) != 0)
            return pz_scale_fail(w->r, "out of memory");
        w->r->left_out[enter.region] = 1;
        count_poll(w->r->run, call, w->tested);
        w->tested = 0;
        w->proc->nevents = s->first;
        w->proc->nsteps--;
        w->flushed += flushed;
        pz_trace_in_consume(w->r->in, w->th, len);
        return 0;
    }
    s->n = (uint32_t)(w->proc->nevents - s->first);
    w->tested = test_completed(call, w->proc->events + s->first, s->n);
    s->duration = seconds(w, enter.time, end.time, flushed);
    if (completes_some(call) && split_completions(w, step) != 0)
        return pz_scale_fail(w->r, "out of memory");
    step_ended(w, &end);
    pz_trace_in_consume(w->r->in, w->th, len);
    return 0;
}

/* Computation after the last step, up to the stream's last record `last`. */
static void read_tail(struct walk *w, uint64_t last, uint64_t last_cpu)
{
    w->proc->tail_wall = seconds(w, w->since, last, w->flushed);
    w->proc->tail_cpu = cpu_seconds(w->since_cpu, last_cpu);
}

static int read_process(struct pz_scale_reading *r, int p)
{
    struct walk w = { .r = r, .p = p, .th = pz_trace_in_first(r->in, p),
                      .proc = &r->run->procs[p] };
    const struct pz_rec *rec = pz_trace_in_peek(r->in, w.th, 0);
    uint64_t last = rec ? rec->time : 0, last_cpu = rec ? rec->cpu : PZ_NONE64;
    int rc = 0;

    w.since = last;
    w.since_cpu = last_cpu;
    while (rc == 0 && (rec = pz_trace_in_peek(r->in, w.th, 0))) {
        int kind = rec->kind == PZ_REC_ENTER || rec->kind == PZ_REC_LEAVE
                       ? pz_trace_in_region(r->in, rec->region)->kind : PZ_REGION_OTHER;

        if (rec->kind == PZ_REC_ENTER && kind == PZ_REGION_MPI) {
            rc = read_call(&w);
            last = w.since;
            last_cpu = w.since_cpu;
            continue;
        }
        if (rec->kind == PZ_REC_FLUSH) {
            w.flushed += flush_span(rec);
            last = rec->time + flush_span(rec);
        } else {
            last = rec->time;
            last_cpu = rec->cpu;
        }
        if (kind == PZ_REGION_INTERVAL) {
            if (!new_step(&w, rec->kind == PZ_REC_ENTER ? PZ_SCALE_BEGIN : PZ_SCALE_END, rec))
                rc = pz_scale_fail(r, "out of memory");
            step_ended(&w, rec);
            w.open_intervals += rec->kind == PZ_REC_ENTER ? 1 : -1;
        }
        pz_trace_in_consume(r->in, w.th, 1);
    }
    if (rc == 0 && pz_trace_in_error(r->in))
        rc = pz_scale_fail(r, "%s", pz_trace_in_error(r->in));
    /* a run cut short (a crash, a timeout, a full disk) lacks what followed, which the
     * other recordings have: say so rather than that the recordings differ */
    if (rc == 0 && w.open_intervals > 0)
        rc = pz_scale_fail(r, "process %d: its trace ends inside %d interval(s): the recording "
                           "was cut short (a crash, a timeout or a full disk); record the run "
                           "again", p, w.open_intervals);
    read_tail(&w, last, last_cpu);
    free(w.posted.ids);
    free(w.posted.steps);
    free(w.windows);
    return rc;
}

/* One thread per process: which process has more. */
static int check_threads(struct pz_scale_reading *r)
{
    for (int th = 0; th < pz_trace_in_nthreads(r->in); th++)
        if (pz_trace_in_thread(r->in, th) > 0)
            return pz_scale_fail(r, "process %d has more than one thread, which the scaling "
                                 "cannot read", pz_trace_in_rank(r->in, th));
    return 0;
}

/* The names of the regions the steps reference, and of those of the calls left out: a
 * test completing requests is the wait of its form in the template (scale_sig.c), which
 * is the program's wait where it calls one, even if only on requests a test completed. */
static int name_regions(struct pz_scale_reading *r)
{
    struct pz_scale_run *run = r->run;
    uint32_t n = r->nleft_out;

    for (int p = 0; p < run->nprocs; p++)
        for (size_t i = 0; i < run->procs[p].nsteps; i++)
            if (run->procs[p].steps[i].region >= n)
                n = run->procs[p].steps[i].region + 1;
    if (n && !(run->names = calloc(n, sizeof(*run->names))))
        return pz_scale_fail(r, "out of memory");
    run->nnames = n;
    for (uint32_t ref = 0; ref < r->nleft_out; ref++)
        if (r->left_out[ref] &&
            !(run->names[ref] = strdup(pz_trace_in_region(r->in, ref)->name)))
            return pz_scale_fail(r, "out of memory");
    for (int p = 0; p < run->nprocs; p++)
        for (size_t i = 0; i < run->procs[p].nsteps; i++) {
            uint32_t ref = run->procs[p].steps[i].region;

            if (!run->names[ref] &&
                !(run->names[ref] = strdup(pz_trace_in_region(r->in, ref)->name)))
                return pz_scale_fail(r, "out of memory");
        }
    return 0;
}

static int read_run(struct pz_scale_reading *r)
{
    struct pz_scale_run *run = r->run;

    if (check_threads(r) != 0 || mark_persistent_neighbourhoods(r) != 0)
        return -1;
    run->nprocs = pz_trace_in_nprocs(r->in);
    run->resolution = pz_trace_in_resolution(r->in);
    run->offset = pz_trace_in_offset(r->in);
    run->oversubscribed = pz_recording_oversubscribed(pz_trace_in_recording(r->in));
    if (!(run->procs = calloc((size_t)run->nprocs, sizeof(*run->procs))) ||
        !(r->raw = calloc((size_t)run->nprocs, sizeof(*r->raw))))
        return pz_scale_fail(r, "out of memory");
    for (int p = 0; p < run->nprocs; p++)
        if (read_process(r, p) != 0)
            return -1;
    if (pz_scale_mark_common(r) != 0 || pz_scale_mark_collected(r) != 0)
        return pz_scale_fail(r, "out of memory");
    pz_scale_infer_grid(r);
    if (pz_scale_relate(r) != 0)
        return -1;
    return name_regions(r);
}

int pz_scale_run_read(const char *path, struct pz_scale_run *run, char *err, size_t errlen)
{
    return pz_scale_run_read_grid(path, 0, run, err, errlen);
}

int pz_scale_run_read_grid(const char *path, int ndims, struct pz_scale_run *run, char *err,
                           size_t errlen)
{
    return pz_scale_run_read_layout(path, ndims, 0, run, err, errlen);
}

int pz_scale_run_read_layout(const char *path, int ndims, int first_fastest,
                             struct pz_scale_run *run, char *err, size_t errlen)
{
    struct pz_scale_reading r = { .run = run, .ndims = ndims, .first_fastest = first_fastest,
                                  .err = err, .errlen = errlen };
    int rc;

    memset(run, 0, sizeof(*run));
    if (!(r.in = pz_trace_in_open(path, err, errlen)))
        return -1;
    if (!(run->path = strdup(path))) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = -1;
    } else {
        rc = read_run(&r);
    }
    for (int p = 0; r.raw && p < run->nprocs; p++)
        free(r.raw[p]);
    free(r.raw);
    free(r.left_out);
    free(r.persistent_nbr);
    pz_trace_in_close(r.in);
    if (rc != 0)
        pz_scale_run_free(run);
    return rc;
}

void pz_scale_run_free(struct pz_scale_run *run)
{
    for (int p = 0; run->procs && p < run->nprocs; p++) {
        free(run->procs[p].steps);
        free(run->procs[p].events);
        free(run->procs[p].nbrs);
    }
    for (uint32_t i = 0; i < run->nnames; i++)
        free(run->names[i]);
    free(run->names);
    free(run->comms);
    free(run->procs);
    free(run->path);
    memset(run, 0, sizeof(*run));
}

double pz_scale_run_stretch(const struct pz_scale_run *run)
{
    double wall = 0, cpu = 0;

    if (!run->cpu_times)
        return -1;
    for (int p = 0; p < run->nprocs; p++)
        for (size_t i = 0; i < run->procs[p].nsteps; i++)
            if (run->procs[p].steps[i].gap_cpu >= 0) {
                wall += run->procs[p].steps[i].gap_wall;
                cpu += run->procs[p].steps[i].gap_cpu;
            }
    return cpu > 0 ? wall / cpu : -1;
}
