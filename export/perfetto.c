/* A run as Chrome trace event JSON for Perfetto (perfetto.h; docs/perfetto.md).  The
 * threads' record streams are merged in time order (a radix heap of the threads by their
 * next record): each MPI call is written whole at its Enter, as a complete event ("X"),
 * intervals and the program's own regions as begin and end events ("B", "E") when they
 * begin and end, and a message's flow ("s" and "f") when its second end is read. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfetto.h"
#include "perfetto_int.h"
#include "radix.h"
#include "trace_calls.h"

/* A thread of the run: its tracks, and the regions it is in. */
struct lane {
    int pid, calls_tid, intervals_tid;
    int thread;              /* its number in its process */
    uint32_t *open;          /* intervals and regions of the program entered and not
                                left, innermost last */
    uint32_t depth, cap;
    int64_t written_to;      /* the end of the latest event written on its tracks */
    int intervals_named;
};

struct pf {
    struct pz_trace_in *in;
    const struct pz_perfetto_options *o;
    struct pz_pf_out out;
    struct pz_pf_flows flows;
    struct lane *lanes;
    int nthreads;
    struct pz_perfetto_summary s;
    uint64_t flow_ids;
    char *err;
    size_t errlen;
    int failed;
};

static void fail(struct pf *pf, const char *what)
{
    if (!pf->failed++)
        snprintf(pf->err, pf->errlen, "%s", what);
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* --- the tracks */

static void name_track(struct pf *pf, int pid, int tid, const char *name, int order)
{
    pz_pf_event(&pf->out, "M", pid, tid, 0);
    pz_pf_printf(&pf->out, ",\"name\":\"thread_name\",\"args\":{\"name\":");
    pz_pf_string(&pf->out, name);
    pz_pf_printf(&pf->out, "}}");
    pz_pf_event(&pf->out, "M", pid, tid, 0);
    pz_pf_printf(&pf->out, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}}",
                 order);
}

/* Processes are pid rank + 1 and a thread k's calls tid 2k + 1, its intervals 2k + 2
 * (Perfetto takes pid and tid 0 for the idle task); the intervals sort above the calls. */
static int make_lanes(struct pf *pf)
{
    char name[64];

    pf->nthreads = pz_trace_in_nthreads(pf->in);
    if (!(pf->lanes = calloc((size_t)pf->nthreads, sizeof(*pf->lanes))))
        return -1;
    for (int p = 0; p < pz_trace_in_nprocs(pf->in); p++) {
        pz_pf_event(&pf->out, "M", p + 1, 0, 0);
        pz_pf_printf(&pf->out, ",\"name\":\"process_name\",\"args\":{\"name\":\"rank %d\"}}", p);
        pz_pf_event(&pf->out, "M", p + 1, 0, 0);
        pz_pf_printf(&pf->out, ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%d}}",
                     p);
    }
    for (int th = 0; th < pf->nthreads; th++) {
        struct lane *l = &pf->lanes[th];

        l->thread = pz_trace_in_thread(pf->in, th);
        l->pid = pz_trace_in_rank(pf->in, th) + 1;
        l->calls_tid = 2 * l->thread + 1;
        l->intervals_tid = 2 * l->thread + 2;
        l->written_to = INT64_MIN;
        snprintf(name, sizeof(name), "thread %d", l->thread);
        name_track(pf, l->pid, l->calls_tid, name, 2 * l->thread + 1);
    }
    return 0;
}

/* The intervals' track is named when it gets its first interval: a process without
 * intervals shows none. */
static void name_intervals(struct pf *pf, struct lane *l)
{
    char name[64];

    if (l->intervals_named++)
        return;
    snprintf(name, sizeof(name), "intervals of thread %d", l->thread);
    name_track(pf, l->pid, l->intervals_tid, name, 2 * l->thread);
}

static void wrote(struct lane *l, int64_t end)
{
    l->written_to = max64(l->written_to, end);
}

/* --- regions other than MPI calls: intervals and the program's code */

static int is_interval(const struct pz_region_info *r)
{
    return r->kind == PZ_REGION_INTERVAL;
}

static void begin_region(struct pf *pf, struct lane *l, uint32_t ref, int64_t ns)
{
    const struct pz_region_info *r = pz_trace_in_region(pf->in, ref);

    if (l->depth == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 8;
        uint32_t *open = realloc(l->open, cap * sizeof(*open));

        if (!open) {
            fail(pf, "out of memory");
            return;
        }
        l->open = open;
        l->cap = cap;
    }
    l->open[l->depth++] = ref;
    if (pf->s.cut)
        return;
    if (is_interval(r))
        name_intervals(pf, l);
    pz_pf_event(&pf->out, "B", l->pid, is_interval(r) ? l->intervals_tid : l->calls_tid, ns);
    pz_pf_printf(&pf->out, ",\"name\":");
    pz_pf_string(&pf->out, r->name);
    if (is_interval(r))
        pz_pf_printf(&pf->out, ",\"cat\":\"interval\",\"args\":{\"interval\":%u%s}}",
                     r->interval, r->sequential ? ",\"sequential\":true" : "");
    else
        pz_pf_printf(&pf->out, ",\"cat\":\"user code\",\"cname\":"
                     "\"thread_state_uninterruptible\"}");
    wrote(l, ns);
}

static void end_event(struct pf *pf, struct lane *l, uint32_t ref, int64_t ns)
{
    const struct pz_region_info *r = pz_trace_in_region(pf->in, ref);

    pz_pf_event(&pf->out, "E", l->pid, is_interval(r) ? l->intervals_tid : l->calls_tid, ns);
    pz_pf_printf(&pf->out, ",\"name\":");
    pz_pf_string(&pf->out, r->name);
    pz_pf_printf(&pf->out, "}");
    wrote(l, ns);
}

/* A Leave of the innermost region open; a Leave of another one (a damaged trace) is
 * not written, so that every end event has its begin. */
static void end_region(struct pf *pf, struct lane *l, uint32_t ref, int64_t ns)
{
    if (!l->depth || l->open[l->depth - 1] != ref)
        return;
    l->depth--;
    if (!pf->s.cut)
        end_event(pf, l, ref, ns);
}

/* The regions still open end with the last event of their thread. */
static void end_open_regions(struct pf *pf)
{
    for (int th = 0; th < pf->nthreads; th++) {
        struct lane *l = &pf->lanes[th];

        while (l->depth)
            end_event(pf, l, l->open[--l->depth], l->written_to);
    }
}

/* --- the limit */

/* The file reached the limit at the call entered at ns: nothing more is written but the
 * end of the regions open, and an instant event saying so. */
static void cut(struct pf *pf, int64_t ns)
{
    end_open_regions(pf);
    pf->s.cut = 1;
    pf->s.cut_us = (double)ns / 1e3;
    pz_pf_event(&pf->out, "i", 1, 1, ns);
    pz_pf_printf(&pf->out, ",\"s\":\"g\",\"name\":\"prognoz export: the size limit of %" PRIu64
                 " bytes is reached; the rest of the run is left out\"}", pf->o->limit);
}

/* --- an MPI call */

/* What a record of a call says, as a JSON object's members; 0 for the records that say
 * nothing of their own (the begin of a collective). */
static int describe(struct pf *pf, const struct pz_rec *r, int p)
{
    static const char *const names[] = {
        [PZ_REC_SEND] = "send", [PZ_REC_RECV] = "receive", [PZ_REC_ISEND] = "send",
        [PZ_REC_ISEND_COMPLETE] = "send complete", [PZ_REC_IRECV_REQUEST] = "receive posted",
        [PZ_REC_IRECV] = "receive", [PZ_REC_REQUEST_TEST] = "test",
        [PZ_REC_REQUEST_CANCELLED] = "cancelled", [PZ_REC_COLL_END] = "collective",
        [PZ_REC_NBC_REQUEST] = "collective posted", [PZ_REC_NBC_COMPLETE] = "collective",
    };
    struct pz_pf_out *o = &pf->out;
    int peer;

    if (r->kind >= sizeof(names) / sizeof(*names) || !names[r->kind])
        return 0;
    pz_pf_printf(o, "\"op\":\"%s\"", names[r->kind]);
    switch ((enum pz_rec_kind)r->kind) {
    case PZ_REC_SEND: case PZ_REC_RECV: case PZ_REC_ISEND: case PZ_REC_IRECV:
        peer = pz_call_process(pf->in, p, r->comm, r->peer);
        if (peer >= 0)
            pz_pf_printf(o, ",\"peer\":%d", peer);
        pz_pf_printf(o, ",\"peer_in_comm\":%" PRIu32 ",\"tag\":%" PRIu32 ",\"bytes\":%" PRIu64
                     ",\"comm\":%" PRIu32, r->peer, r->tag, r->bytes, r->comm);
        break;
    case PZ_REC_COLL_END: case PZ_REC_NBC_COMPLETE:
        pz_pf_printf(o, ",\"comm\":%" PRIu32, r->comm);
        if (r->peer != PZ_NONE32 && (peer = pz_call_process(pf->in, p, r->comm, r->peer)) >= 0)
            pz_pf_printf(o, ",\"root\":%d", peer);
        pz_pf_printf(o, ",\"sent\":%" PRIu64 ",\"received\":%" PRIu64, r->bytes, r->bytes2);
        break;
    default:
        break;
    }
    if (r->kind != PZ_REC_SEND && r->kind != PZ_REC_RECV && r->kind != PZ_REC_COLL_END)
        pz_pf_printf(o, ",\"request\":%" PRIu64, r->request);
    return 1;
}

static int says_something(const struct pz_rec *r)
{
    return r->kind != PZ_REC_ENTER && r->kind != PZ_REC_LEAVE && r->kind != PZ_REC_FLUSH &&
           r->kind != PZ_REC_COLL_BEGIN;
}

/* The arguments of the call of len records: the members of its one operation, or the
 * list "ops" of several. */
static void call_args(struct pf *pf, int th, size_t len)
{
    const struct pz_rec *r;
    int p = pz_trace_in_rank(pf->in, th), n = 0, ops = 0;

    for (size_t i = 1; i + 1 < len && (r = pz_trace_in_peek(pf->in, th, i)); i++)
        ops += says_something(r);
    if (!ops)
        return;
    pz_pf_printf(&pf->out, ",\"args\":{%s", ops > 1 ? "\"ops\":[" : "");
    for (size_t i = 1; i + 1 < len && (r = pz_trace_in_peek(pf->in, th, i)); i++) {
        if (!says_something(r))
            continue;
        pz_pf_printf(&pf->out, "%s", ops == 1 ? "" : n++ ? ",{" : "{");
        describe(pf, r, p);
        pz_pf_printf(&pf->out, "%s", ops == 1 ? "" : "}");
    }
    pz_pf_printf(&pf->out, "%s}", ops > 1 ? "]" : "");
}

/* A flow from the send end to the receive end: an "s" and an "f" of one id, each bound
 * to the call around it ("bp":"e": the enclosing slice, not the next one). */
static void write_flow(struct pf *pf, const struct pz_pf_end *send, const struct pz_pf_end *recv)
{
    uint64_t id = ++pf->flow_ids;

    pz_pf_event(&pf->out, "s", send->pid, send->tid, send->ns);
    pz_pf_printf(&pf->out, ",\"name\":\"message\",\"cat\":\"message\",\"id\":%" PRIu64 "}", id);
    pz_pf_event(&pf->out, "f", recv->pid, recv->tid, recv->ns);
    pz_pf_printf(&pf->out, ",\"bp\":\"e\",\"name\":\"message\",\"cat\":\"message\",\"id\":%"
                 PRIu64 "}", id);
    pf->s.messages++;
}

/* A send or receive record of process p at the end `me`: its flow once both ends are
 * read. */
static void message(struct pf *pf, const struct pz_rec *r, int p, const struct pz_pf_end *me)
{
    int is_send = r->kind == PZ_REC_SEND || r->kind == PZ_REC_ISEND;
    int peer = pz_call_process(pf->in, p, r->comm, r->peer);
    struct pz_match_key key = { (int)r->comm, is_send ? p : peer, is_send ? peer : p,
                                (int)r->tag };
    struct pz_pf_end other;
    int rc;

    if (peer < 0)
        return;
    rc = pz_pf_flows_take(&pf->flows, key, is_send, me, &other);
    if (rc < 0)
        fail(pf, "out of memory");
    else if (rc == 1 && pf->s.cut)
        pf->s.messages_left_out++;
    else if (rc == 1)
        write_flow(pf, is_send ? me : &other, is_send ? &other : me);
}

/* The messages of the call of len records on lane l, from enter to leave (ns): each
 * end's time is its record's, kept inside the call so that it binds to it. */
static void call_messages(struct pf *pf, int th, size_t len, int64_t enter, int64_t leave)
{
    const struct pz_rec *r;
    struct lane *l = &pf->lanes[th];
    int p = pz_trace_in_rank(pf->in, th);

    for (size_t i = 1; i < len && (r = pz_trace_in_peek(pf->in, th, i)); i++) {
        struct pz_pf_end me = { l->pid, l->calls_tid, pz_pf_ns(&pf->out, r->time) };
        struct pz_rec rec = *r;

        if (r->kind != PZ_REC_SEND && r->kind != PZ_REC_ISEND && r->kind != PZ_REC_RECV &&
            r->kind != PZ_REC_IRECV)
            continue;
        if (me.ns >= leave)
            me.ns = leave - 1;
        if (me.ns < enter)
            me.ns = enter;
        message(pf, &rec, p, &me);
    }
}

/* The MPI call whose Enter is thread th's next record.  What it needs of the Enter is
 * taken before the call's end is looked for: reading further may move the records read
 * before (the ring of the thread's records grows, trace_in.c). */
static void call(struct pf *pf, int th)
{
    const struct pz_rec *enter = pz_trace_in_peek(pf->in, th, 0), *last;
    const struct pz_region_info *region = pz_trace_in_region(pf->in, enter->region);
    int64_t from = pz_pf_ns(&pf->out, enter->time), to = from;
    size_t len = pz_call_length(pf->in, th, enter->region);
    struct lane *l = &pf->lanes[th];
    enum pz_perfetto_class c;

    if ((last = pz_trace_in_peek(pf->in, th, len - 1)))
        to = max64(from, pz_pf_ns(&pf->out, last->time));
    if (!pf->s.cut && pf->o->limit && pf->out.bytes >= pf->o->limit)
        cut(pf, from);
    if (pf->s.cut) {
        pf->s.calls_left_out++;
    } else {
        c = (enum pz_perfetto_class)pz_call_class_of(pf->in, th, len, region);
        pz_pf_event(&pf->out, "X", l->pid, l->calls_tid, from);
        pz_pf_printf(&pf->out, ",\"dur\":");
        pz_pf_us(&pf->out, to - from);
        pz_pf_printf(&pf->out, ",\"name\":");
        pz_pf_string(&pf->out, region->name);
        pz_pf_printf(&pf->out, ",\"cat\":\"%s\",\"cname\":\"%s\"", pz_perfetto_category(c),
                     pz_perfetto_colour(c));
        call_args(pf, th, len);
        pz_pf_printf(&pf->out, "}");
        wrote(l, to);
        pf->s.calls++;
    }
    call_messages(pf, th, len, from, to);
    pz_trace_in_consume(pf->in, th, len);
}

/* The recorder's own time (a BufferFlush): a slice of its own, as the time is not the
 * program's. */
static void flush(struct pf *pf, struct lane *l, const struct pz_rec *r)
{
    int64_t from = pz_pf_ns(&pf->out, r->time), to = pz_pf_ns(&pf->out, r->bytes2);

    if (pf->s.cut || to < from)
        return;
    pz_pf_event(&pf->out, "X", l->pid, l->calls_tid, from);
    pz_pf_printf(&pf->out, ",\"dur\":");
    pz_pf_us(&pf->out, to - from);
    pz_pf_printf(&pf->out, ",\"name\":\"prognoz: writing the trace\",\"cat\":\"recorder\"}");
    wrote(l, to);
}

/* Thread th's next record, and those of its call if it enters one. */
static void step(struct pf *pf, int th)
{
    const struct pz_rec *r = pz_trace_in_peek(pf->in, th, 0);
    const struct pz_region_info *region;
    struct lane *l = &pf->lanes[th];
    struct pz_pf_end me = { l->pid, l->calls_tid, pz_pf_ns(&pf->out, r->time) };
    struct pz_rec rec = *r;

    switch ((enum pz_rec_kind)r->kind) {
    case PZ_REC_ENTER:
        region = pz_trace_in_region(pf->in, r->region);
        if (region->kind == PZ_REGION_MPI) {
            call(pf, th);
            return;
        }
        begin_region(pf, l, r->region, me.ns);
        break;
    case PZ_REC_LEAVE:
        end_region(pf, l, r->region, me.ns);
        break;
    case PZ_REC_FLUSH:
        flush(pf, l, r);
        break;
    case PZ_REC_SEND: case PZ_REC_ISEND: case PZ_REC_RECV: case PZ_REC_IRECV:
        message(pf, &rec, pz_trace_in_rank(pf->in, th), &me);
        break;
    default:
        break;
    }
    pz_trace_in_consume(pf->in, th, 1);
}

/* --- the file */

static double ready_time(struct pf *pf, const struct pz_rec *r)
{
    return (double)pz_pf_ns(&pf->out, r->time);
}

/* Every thread's records, the earliest first.  The radix heap is at its best when no
 * time pushed is below the time taken last, and here none is: a thread is pushed again
 * at the time of its next record, not before the first of those step() just took from
 * it (a thread's records never go back in time: pz_trace_in rejects a recording whose
 * events do at open, and a generator gives them in time order, trace_in.h), whose time
 * was the least waiting, the one taken; pz_pf_ns and the conversion to a double keep
 * that order (both are non-decreasing).  Were one below, the queue would
 * still give the same order, at the cost of a pass over the threads waiting. */
static void merge(struct pf *pf)
{
    struct pz_radix ready = { 0 };
    struct pz_heap_item it;
    const struct pz_rec *r;

    for (int th = 0; th < pf->nthreads && !pf->failed; th++)
        if ((r = pz_trace_in_peek(pf->in, th, 0)) &&
            pz_radix_push(&ready, ready_time(pf, r), 0, th))
            fail(pf, "out of memory");
    while (!pf->failed && !pf->out.failed && !ready.failed && pz_radix_pop(&ready, &it)) {
        step(pf, it.id);
        if ((r = pz_trace_in_peek(pf->in, it.id, 0)) &&
            pz_radix_push(&ready, ready_time(pf, r), 0, it.id))
            fail(pf, "out of memory");
    }
    if (ready.failed)
        fail(pf, "out of memory");   /* threads were lost while the queue moved them */
    pz_radix_release(&ready);
}

static void other_data(struct pf *pf)
{
    struct pz_pf_out *o = &pf->out;

    pz_pf_printf(o, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"producer\":"
                 "\"prognoz %s\",\"trace\":", PACKAGE_VERSION);
    pz_pf_string(o, pf->o->source ? pf->o->source : "");
    pz_pf_printf(o, ",\"processes\":%d,\"threads\":%d,\"calls\":%" PRIu64 ",\"messages\":%"
                 PRIu64 ",\"unmatched_messages\":%" PRIu32, pf->s.processes, pf->s.threads,
                 pf->s.calls, pf->s.messages, pz_pf_flows_unmatched(&pf->flows));
    if (pf->o->limit)
        pz_pf_printf(o, ",\"limit_bytes\":%" PRIu64, pf->o->limit);
    if (pf->s.cut)
        pz_pf_printf(o, ",\"left_out\":{\"after_us\":%.3f,\"calls\":%" PRIu64 ",\"messages\":%"
                     PRIu64 ",\"why\":\"the file reached the size limit\"}", pf->s.cut_us,
                     pf->s.calls_left_out, pf->s.messages_left_out);
    pz_pf_printf(o, "}}\n");
}

int pz_perfetto_write(FILE *f, const char *name, struct pz_trace_in *in,
                      const struct pz_perfetto_options *o, struct pz_perfetto_summary *s,
                      char *err, size_t errlen)
{
    struct pf pf = { .in = in, .o = o, .err = err, .errlen = errlen };

    pf.out = (struct pz_pf_out){ .f = f, .resolution = pz_trace_in_resolution(in),
                                 .offset = pz_trace_in_offset(in) };
    pf.s.processes = pz_trace_in_nprocs(in);
    pf.s.threads = pz_trace_in_nthreads(in);
    if (pz_pf_flows_init(&pf.flows, pf.s.processes) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pz_pf_printf(&pf.out, "{\"traceEvents\":[\n");
    if (make_lanes(&pf) != 0)
        fail(&pf, "out of memory");
    else
        merge(&pf);
    if (!pf.failed && pz_trace_in_error(in))
        fail(&pf, pz_trace_in_error(in));
    if (!pf.failed && !pf.s.cut)
        end_open_regions(&pf);
    other_data(&pf);
    if (pf.out.failed || fflush(f) != 0 || ferror(f)) {
        char why[1024];

        snprintf(why, sizeof(why), "cannot write '%s'", name);
        fail(&pf, why);
    }
    for (int th = 0; pf.lanes && th < pf.nthreads; th++)
        free(pf.lanes[th].open);
    free(pf.lanes);
    pz_pf_flows_release(&pf.flows);
    if (s)
        *s = pf.s;
    return pf.failed ? -1 : 0;
}

int pz_perfetto_export(const char *trace, const char *file,
                       const struct pz_perfetto_options *o, struct pz_perfetto_summary *s,
                       char *err, size_t errlen)
{
    int to_stdout = !strcmp(file, "-"), rc;
    struct pz_trace_in *in = pz_trace_in_open_with_progress(trace, o->progress,
                                                            "records written", err, errlen);
    FILE *f;

    if (!in)
        return -1;
    if (!(f = to_stdout ? stdout : fopen(file, "w"))) {
        snprintf(err, errlen, "cannot write '%s': %s", file, strerror(errno));
        pz_trace_in_close(in);
        return -1;
    }
    rc = pz_perfetto_write(f, to_stdout ? "the standard output" : file, in, o, s, err, errlen);
    if (!to_stdout && fclose(f) != 0 && rc == 0) {
        snprintf(err, errlen, "cannot write '%s': %s", file, strerror(errno));
        rc = -1;
    }
    if (rc != 0 && !to_stdout)
        unlink(file);
    pz_trace_in_close(in);
    return rc;
}
