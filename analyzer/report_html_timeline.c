/* The timeline of the HTML report (report_html.h): the trace read again, thread after
 * thread, every MPI call written as JSON while the calls fit in their share of the limit
 * and added to the pixel columns of the reduced timeline always, so that one pass gives
 * whichever the page gets.  Interval executions become bands, each naming its interval
 * by its index in the report.  On the page of a run that made MPI-IO or one-sided calls,
 * those calls have a class each of their own. */
#define _XOPEN_SOURCE 700
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "call_class.h"
#include "call_family.h"
#include "report_html.h"
#include "trace_calls.h"
#include "trace_in.h"

/* Columns of the reduced timeline at most: more than a screen's pixels. */
#define MAX_COLUMNS 4096
/* The first width of a column, in ns; it doubles as the run outgrows the columns. */
#define FIRST_WIDTH 1000.0

/* A JSON text written into memory while it stays under its bound; numbers written by
 * hand, as the calls are many. */
struct part {
    char *text;
    size_t len, cap;
    size_t bound;
    int over;                /* the bound was reached: the text is dropped */
};

static void part_open(struct part *p, uint64_t bound)
{
    *p = (struct part){ .bound = bound > SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)bound };
}

/* Room for n more bytes; 0 if the text outgrew its bound (it is dropped) or memory ran
 * out (*failed set). */
static int room(struct part *p, size_t n, int *failed)
{
    if (p->over)
        return 0;
    if (p->len + n > p->bound) {
        free(p->text);
        p->text = NULL;
        p->over = 1;
        return 0;
    }
    if (p->len + n + 1 > p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 1 << 16;
        char *text;

        while (cap < p->len + n + 1)
            cap *= 2;
        if (!(text = realloc(p->text, cap))) {
            *failed = 1;
            return 0;
        }
        p->text = text;
        p->cap = cap;
    }
    return 1;
}

static void part_str(struct part *p, const char *s, int *failed)
{
    size_t n = strlen(s);

    if (room(p, n, failed)) {
        memcpy(p->text + p->len, s, n);
        p->len += n;
    }
}

static void part_int(struct part *p, int64_t v, int *failed)
{
    char digits[24];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

    do
        digits[n++] = (char)('0' + u % 10);
    while ((u /= 10));
    if (v < 0)
        digits[n++] = '-';
    if (room(p, (size_t)n, failed))
        while (n)
            p->text[p->len++] = digits[--n];
}

/* The text, NUL-terminated; NULL if dropped. */
static const char *part_text(struct part *p)
{
    if (p->over)
        return NULL;
    if (!p->text)
        return "";
    p->text[p->len] = '\0';
    return p->text;
}

/* `sep`, then [v[0],...,v[n-1]] */
static void part_list(struct part *p, const char *sep, const int64_t *v, int n, int *failed)
{
    part_str(p, sep, failed);
    part_str(p, "[", failed);
    for (int i = 0; i < n; i++) {
        if (i)
            part_str(p, ",", failed);
        part_int(p, v[i], failed);
    }
    part_str(p, "]", failed);
}

struct timeline {
    struct pz_trace_in *in;
    const struct pz_analysis *a;
    const int *position;
    double ns_per_tick;
    uint64_t origin;         /* tick of time 0: the earliest record */
    struct pz_html_buckets buckets;
    struct part calls, bands;
    int classes;             /* PZ_HTML_CLASSES, or PZ_HTML_IO_RMA_CLASSES */
    uint64_t ncalls, lane_calls, nbands, per_class[PZ_HTML_IO_RMA_CLASSES];
    uint32_t *function_of;   /* of each region ref seen: its index in functions + 1 */
    uint32_t nfunction_of;
    const char **functions;
    int nfunctions;
    int *stack, depth, cap;  /* the intervals open on the thread read, innermost last */
    double *starts;          /* when each of them began, ns */
    double *lane_from, *lane_to;
    int failed;
};

static double ns(const struct timeline *t, uint64_t tick)
{
    return tick < t->origin ? 0 : (double)(tick - t->origin) * t->ns_per_tick;
}

/* The index of function region ref in the table of functions, added when first seen. */
static int function(struct timeline *t, uint32_t ref)
{
    if (ref >= t->nfunction_of) {
        uint32_t n = ref + 64;
        uint32_t *of = realloc(t->function_of, n * sizeof(*of));

        if (!of) {
            t->failed = 1;
            return 0;
        }
        memset(of + t->nfunction_of, 0, (n - t->nfunction_of) * sizeof(*of));
        t->function_of = of;
        t->nfunction_of = n;
    }
    if (!t->function_of[ref]) {
        const char **f = realloc(t->functions, (size_t)(t->nfunctions + 1) * sizeof(*f));

        if (!f) {
            t->failed = 1;
            return 0;
        }
        t->functions = f;
        f[t->nfunctions++] = pz_trace_in_region(t->in, ref)->name;
        t->function_of[ref] = (uint32_t)t->nfunctions;
    }
    return (int)t->function_of[ref] - 1;
}

/* --- intervals */

/* The node of interval region ref entered inside node `in`: its child of that region,
 * else any node of it (a tree the analysis built otherwise), else `in`. */
static int node_of(const struct pz_analysis *a, int in, uint32_t ref)
{
    int any = -1;

    for (int n = 1; n < a->nnodes; n++) {
        if (a->nodes[n].region != ref)
            continue;
        if (a->nodes[n].parent == in)
            return n;
        if (any < 0)
            any = n;
    }
    return any >= 0 ? any : in;
}

static int current(const struct timeline *t)
{
    return t->depth ? t->stack[t->depth - 1] : 0;
}

static void enter_interval(struct timeline *t, uint32_t ref, double at)
{
    if (t->depth == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        int *stack = realloc(t->stack, (size_t)cap * sizeof(*stack));
        double *starts = realloc(t->starts, (size_t)cap * sizeof(*starts));

        if (stack)
            t->stack = stack;
        if (starts)
            t->starts = starts;
        if (!stack || !starts) {
            t->failed = 1;
            return;
        }
        t->cap = cap;
    }
    t->stack[t->depth] = node_of(t->a, current(t), ref);
    t->starts[t->depth++] = at;
}

static void leave_interval(struct timeline *t, uint32_t ref, double at)
{
    int node;

    if (!t->depth || t->a->nodes[current(t)].region != ref)
        return;
    node = t->stack[--t->depth];
    {
        int64_t band[3] = { llround(t->starts[t->depth]), llround(at), t->position[node] };

        part_list(&t->bands, t->nbands++ ? "," : "", band, 3, &t->failed);
    }
}

/* --- calls */

/* What the tooltip says of a call: the first message or collective among its records,
 * as direction, peer, tag, bytes, comm (direction 1 for a send, 2 for a receive, 0 for a
 * collective, whose peer is its root or -1, its tag -1) added to v[n...].  Returns the
 * new n. */
static int call_message(struct timeline *t, int th, size_t len, int64_t *v, int n)
{
    int p = pz_trace_in_rank(t->in, th);
    const struct pz_rec *r;

    for (size_t i = 1; i + 1 < len && (r = pz_trace_in_peek(t->in, th, i)); i++) {
        switch ((enum pz_rec_kind)r->kind) {
        case PZ_REC_SEND: case PZ_REC_ISEND: case PZ_REC_RECV: case PZ_REC_IRECV:
            v[n++] = r->kind == PZ_REC_SEND || r->kind == PZ_REC_ISEND ? 1 : 2;
            v[n++] = pz_call_process(t->in, p, r->comm, r->peer);
            v[n++] = r->tag;
            break;
        case PZ_REC_COLL_END: case PZ_REC_NBC_COMPLETE:
            v[n++] = 0;
            v[n++] = r->peer == PZ_NONE32 ? -1 : pz_call_process(t->in, p, r->comm, r->peer);
            v[n++] = -1;
            break;
        default:
            continue;
        }
        v[n++] = r->bytes > INT64_MAX ? INT64_MAX : (int64_t)r->bytes;
        v[n++] = r->comm;
        break;
    }
    return n;
}

/* The class the page draws a call of region in: with the classes of I/O and one-sided
 * calls, its family's if it is of one, else its class of call_class.h (cls). */
static int drawn_class(const struct timeline *t, const struct pz_region_info *region, int cls)
{
    if (t->classes == PZ_HTML_CLASSES)
        return cls;
    switch (pz_call_family(region->call)) {
    case PZ_FAMILY_IO:
        return PZ_HTML_IO_CLASS;
    case PZ_FAMILY_RMA:
        return PZ_HTML_RMA_CLASS;
    default:
        return cls;
    }
}

/* The MPI call whose Enter, of function ref at `from` (ns), is thread th's (lane's)
 * next record; consumes it.  Written as [start, duration, function, class, interval]
 * and what call_message adds.  It takes the Enter's values, not the record: looking for
 * the call's end may move the records read before (the ring of the thread's records
 * grows, trace_in.c). */
static void call(struct timeline *t, int th, uint32_t ref, double from)
{
    const struct pz_region_info *region = pz_trace_in_region(t->in, ref);
    size_t len = pz_call_length(t->in, th, ref);
    const struct pz_rec *last = pz_trace_in_peek(t->in, th, len - 1);
    double to = last ? ns(t, last->time) : from;
    int cls = drawn_class(t, region, (int)pz_call_class_of(t->in, th, len, region));
    int64_t v[10];
    int n = 0;

    if (to < from)
        to = from;
    if (t->buckets.lanes)
        pz_html_buckets_add(&t->buckets, th, cls, from, to);
    t->per_class[cls]++;
    t->ncalls++;
    if (!t->calls.over) {
        v[n++] = llround(from);
        v[n++] = llround(to) - v[0];
        v[n++] = function(t, ref);
        v[n++] = cls;
        v[n++] = t->position[current(t)];
        n = call_message(t, th, len, v, n);
        part_list(&t->calls, t->lane_calls++ ? "," : "", v, n, &t->failed);
    }
    if (to > t->lane_to[th])
        t->lane_to[th] = to;
    pz_trace_in_consume(t->in, th, len);
}

/* Thread th's records, from its first to its last. */
static void lane(struct timeline *t, int th)
{
    const struct pz_rec *r;

    t->depth = 0;
    part_str(&t->calls, th ? ",\n[" : "[", &t->failed);
    part_str(&t->bands, th ? ",\n[" : "[", &t->failed);
    t->nbands = t->lane_calls = 0;
    if ((r = pz_trace_in_peek(t->in, th, 0)))
        t->lane_from[th] = t->lane_to[th] = ns(t, r->time);
    while (!t->failed && (r = pz_trace_in_peek(t->in, th, 0))) {
        const struct pz_region_info *region = pz_trace_in_region(t->in, r->region);
        double at = ns(t, r->time);

        if (at > t->lane_to[th])
            t->lane_to[th] = at;
        if (r->kind == PZ_REC_ENTER && region->kind == PZ_REGION_MPI) {
            call(t, th, r->region, at);
            continue;
        }
        if (r->kind == PZ_REC_ENTER && region->kind == PZ_REGION_INTERVAL)
            enter_interval(t, r->region, at);
        else if (r->kind == PZ_REC_LEAVE && region->kind == PZ_REGION_INTERVAL)
            leave_interval(t, r->region, at);
        pz_trace_in_consume(t->in, th, 1);
    }
    while (t->depth)
        leave_interval(t, t->a->nodes[current(t)].region, t->lane_to[th]);
    part_str(&t->calls, "]", &t->failed);
    part_str(&t->bands, "]", &t->failed);
}

/* --- the whole */

/* The earliest record of any thread: time 0 of the timeline. */
static uint64_t earliest(struct pz_trace_in *in)
{
    uint64_t first = UINT64_MAX;
    const struct pz_rec *r;

    for (int th = 0; th < pz_trace_in_nthreads(in); th++)
        if ((r = pz_trace_in_peek(in, th, 0)) && r->time < first)
            first = r->time;
    return first == UINT64_MAX ? 0 : first;
}

/* Columns for the lanes of calls of `classes` classes in bound bytes, even; 0 if not
 * even 16 fit. */
static int columns_for(int lanes, int classes, uint64_t bound)
{
    uint64_t c = bound / ((uint64_t)(lanes ? lanes : 1) * PZ_HTML_BUCKET_BYTES(classes));

    if (c > MAX_COLUMNS)
        c = MAX_COLUMNS;
    c &= ~(uint64_t)1;
    return c < 16 ? 0 : (int)c;
}

static int start(struct timeline *t, uint64_t limit)
{
    int lanes = pz_trace_in_nthreads(t->in);
    int columns = columns_for(lanes, t->classes, limit / 8 * 5);

    t->ns_per_tick = 1e9 / pz_trace_in_resolution(t->in);
    t->origin = earliest(t->in);
    t->lane_from = calloc((size_t)lanes + 1, sizeof(double));
    t->lane_to = calloc((size_t)lanes + 1, sizeof(double));
    part_open(&t->calls, limit / 8 * 5);
    part_open(&t->bands, limit / 8);
    if (!t->lane_from || !t->lane_to ||
        pz_html_buckets_init(&t->buckets, columns ? lanes : 0, columns ? columns : 2,
                             t->classes, FIRST_WIDTH) != 0)
        return -1;
    return 0;
}

static void finish(struct timeline *t)
{
    free(t->calls.text);
    free(t->bands.text);
    pz_html_buckets_free(&t->buckets);
    free(t->function_of);
    free(t->functions);
    free(t->stack);
    free(t->starts);
    free(t->lane_from);
    free(t->lane_to);
}

/* The members every timeline has: the lanes, the functions, the counts. */
static void common(FILE *out, struct timeline *t, uint64_t limit)
{
    double end = 0;

    fprintf(out, "{\"limit\": %" PRIu64 ", \"calls\": %" PRIu64 ", \"per_class\": [", limit,
            t->ncalls);
    for (int k = 0; k < t->classes; k++)
        fprintf(out, "%s%" PRIu64, k ? ", " : "", t->per_class[k]);
    fputs("],\n\"lanes\": [", out);
    for (int th = 0; th < pz_trace_in_nthreads(t->in); th++) {
        fprintf(out, "%s{\"rank\": %d, \"thread\": %d, \"from\": %.0f, \"to\": %.0f}",
                th ? ", " : "", pz_trace_in_rank(t->in, th), pz_trace_in_thread(t->in, th),
                t->lane_from[th], t->lane_to[th]);
        if (t->lane_to[th] > end)
            end = t->lane_to[th];
    }
    fprintf(out, "],\n\"end\": %.0f, \"functions\": [", end);
    for (int f = 0; f < t->nfunctions; f++) {
        fputs(f ? ", " : "", out);
        pz_html_json_string(out, t->functions[f]);
    }
    fputs("]", out);
}

/* The calls, exact if they fit, else reduced; the bands if they fit. */
static void events(FILE *out, struct timeline *t)
{
    const char *calls = part_text(&t->calls), *bands = part_text(&t->bands);

    if (calls) {
        fputs(",\n\"mode\": \"exact\", \"events\": [", out);
        fwrite(calls, 1, t->calls.len, out);
        fputs("]", out);
    } else if (t->buckets.lanes) {
        fputs(",\n\"mode\": \"reduced\", \"why\": \"the calls do not fit in the size limit\", "
              "\"buckets\": ", out);
        pz_html_buckets_write(out, &t->buckets);
    } else {
        fputs(",\n\"mode\": \"none\", \"why\": \"the size limit is too small for the "
              "timeline of so many threads\"", out);
    }
    if (bands)
        fprintf(out, ",\n\"bands\": [%s]", bands);
    else
        fputs(",\n\"bands\": null", out);
    fputs("}", out);
}

int pz_html_timeline(FILE *out, const char *trace, const struct pz_analysis *a,
                     const int *position, uint64_t limit, int io_rma, char *err,
                     size_t errlen)
{
    struct timeline t = { .a = a, .position = position,
                          .classes = io_rma ? PZ_HTML_IO_RMA_CLASSES : PZ_HTML_CLASSES };
    int rc = -1;

    if (!(t.in = pz_trace_in_open(trace, err, errlen)))
        return -1;
    if (start(&t, limit) != 0) {
        snprintf(err, errlen, "out of memory");
    } else {
        for (int th = 0; th < pz_trace_in_nthreads(t.in) && !t.failed; th++)
            lane(&t, th);
        if (t.failed) {
            snprintf(err, errlen, "out of memory");
        } else if (pz_trace_in_error(t.in)) {
            snprintf(err, errlen, "%s", pz_trace_in_error(t.in));
        } else {
            common(out, &t, limit);
            events(out, &t);
            rc = 0;
        }
    }
    finish(&t);
    pz_trace_in_close(t.in);
    return rc;
}
