/* Analyzing a recorded trace through the trace layer's records (analysis.h,
 * pz_analyze_records): trace_in.c spools the locations one at a time, and the records
 * are given to the stream's analysis (stream.c) in time order, the thread of the
 * earliest next record first, so that the records waiting there stay few. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "open.h"
#include "reader.h"
#include "trace_in.h"

/* The threads that have records left, as a binary heap by the time of their next
 * record (the thread's number breaking ties). */
struct heap {
    int *th;
    uint64_t *time;       /* of each thread: its next record's */
    int n;
};

static int before(const struct heap *h, int a, int b)
{
    return h->time[a] < h->time[b] || (h->time[a] == h->time[b] && a < b);
}

static void sift_down(struct heap *h, int i)
{
    for (;;) {
        int least = i, l = 2 * i + 1, r = l + 1;

        if (l < h->n && before(h, h->th[l], h->th[least]))
            least = l;
        if (r < h->n && before(h, h->th[r], h->th[least]))
            least = r;
        if (least == i)
            return;
        int swap = h->th[i];
        h->th[i] = h->th[least];
        h->th[least] = swap;
        i = least;
    }
}

/* Every thread with a record, ordered. */
static void heap_fill(struct heap *h, struct pz_trace_in *t, struct pz_analysis_stream *s)
{
    int nthreads = pz_trace_in_nthreads(t);

    for (int th = 0; th < nthreads; th++) {
        const struct pz_rec *rec = pz_trace_in_peek(t, th, 0);

        if (rec) {
            h->time[th] = rec->time;
            h->th[h->n++] = th;
        } else {
            pz_analysis_stream_done(s, th);
        }
    }
    for (int i = h->n / 2 - 1; i >= 0; i--)
        sift_down(h, i);
}

/* Gives every record of t to s in time order: 0; -1 if the analysis or the reading
 * failed (s and t tell why), -2 if memory ran out. */
static int give_records(struct pz_trace_in *t, struct pz_analysis_stream *s)
{
    int nthreads = pz_trace_in_nthreads(t);
    struct heap h = { malloc((size_t)nthreads * sizeof(int)),
                      malloc((size_t)nthreads * sizeof(uint64_t)), 0 };
    int rc = h.th && h.time ? 0 : -2;

    if (rc == 0)
        heap_fill(&h, t, s);
    while (rc == 0 && h.n > 0) {
        int th = h.th[0];
        const struct pz_rec *rec = pz_trace_in_peek(t, th, 0);

        rc = pz_analysis_stream_record(s, th, rec, rec->time);
        pz_trace_in_consume(t, th, 1);
        if ((rec = pz_trace_in_peek(t, th, 0))) {
            h.time[th] = rec->time;
        } else {
            pz_analysis_stream_done(s, th);
            h.th[0] = h.th[--h.n];
        }
        sift_down(&h, 0);
    }
    free(h.th);
    free(h.time);
    return rc != 0 ? rc : pz_trace_in_error(t) ? -1 : 0;
}

/* The definitions the analysis takes, the partial trace's endings and the anchor file,
 * as the global reader's analysis reads them (struct pz_opened_trace). */
static int definitions(const char *path, struct pz_opened_trace *o, char *err,
                       size_t errlen)
{
    struct pz_trace_file f;
    int rc = pz_trace_file_open(&f, path, &o->defs);

    o->partial = rc == 0 ? pz_trace_file_partial(&f) : NULL;
    snprintf(o->anchor, sizeof(o->anchor), "%s", f.path);
    pz_trace_file_close(&f);
    if (rc != 0) {
        snprintf(err, errlen, "%s", f.error);
        pz_defs_release(&o->defs);
    }
    return rc;
}

/* Gives t's records to s and closes s into a, named path: 0, or -1 with a one-line
 * message naming the trace in err and a empty: the reading's error, else memory, else
 * the analysis's. */
static int analyze(struct pz_trace_in *t, struct pz_analysis_stream *s, const char *path,
                   const char *anchor, struct pz_analysis *a, char *err, size_t errlen)
{
    int given = give_records(t, s);
    const char *reading = pz_trace_in_error(t);
    int failed = pz_analysis_stream_close(s, a, err, errlen) != 0;

    if (!reading && given != -2) {
        if (failed)
            return -1;
        free(a->trace);
        if ((a->trace = strdup(path)))
            return 0;
    }
    pz_analysis_free(a);
    memset(a, 0, sizeof(*a));
    if (reading)
        snprintf(err, errlen, "%s", reading);
    else
        snprintf(err, errlen, "%s: out of memory", anchor);
    return -1;
}

int pz_analyze_opened(const char *path, struct pz_opened_trace *o, struct pz_analysis *a,
                      const struct pz_progress_hook *progress, char *err, size_t errlen)
{
    struct pz_trace_in *t;
    struct pz_analysis_stream *s;
    int rc = -1;

    memset(a, 0, sizeof(*a));
    t = pz_trace_in_open_with_progress(path, progress, "records analyzed", err, errlen);
    if (t && pz_trace_in_unread_events(t)) {
        rc = 1;
    } else if (t) {
        pz_trace_in_keep_io(t);
        if ((s = pz_analysis_stream_open(&o->defs, o->anchor, err, errlen)))
            rc = analyze(t, s, path, o->anchor, a, err, errlen);
    }
    pz_trace_in_close(t);
    pz_defs_release(&o->defs);
    if (rc == 0)
        a->partial = o->partial;
    else
        free(o->partial);
    o->partial = NULL;
    return rc;
}

int pz_analyze_records(const char *path, struct pz_analysis *a,
                       const struct pz_progress_hook *progress, char *err, size_t errlen)
{
    struct pz_opened_trace o;

    memset(a, 0, sizeof(*a));
    if (definitions(path, &o, err, errlen) != 0)
        return -1;
    return pz_analyze_opened(path, &o, a, progress, err, errlen);
}
