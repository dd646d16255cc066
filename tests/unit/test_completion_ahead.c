/* pz_call_completion far ahead (trace/trace_calls.c, trace/trace_ahead.c): a generated
 * run of one thread that posts many receives before completing them, searched by the
 * index of completions ahead as the replay searches it, post by post, consuming as it
 * goes.  Every answer must be the one a search record by record gives. */
#include <criterion/criterion.h>
#include <string.h>

#include "trace_calls.h"
#include "trace_in.h"

#define POSTS 2000

/* The run: POSTS "posts" (records of kind PZ_REC_ENTER with request i), then the
 * completions of kind PZ_REC_IRECV in reverse order, each after a record of another
 * kind with the same request (which must not be taken for it); then a persistent
 * request 7777 completing three times, a post before each. */
struct run {
    struct pz_rec *recs;
    size_t n, next;
};

static int more(void *ctx, int th, pz_trace_put_fn *put, void *sink, char *err, size_t errlen)
{
    struct run *r = ctx;

    (void)err, (void)errlen;
    if (r->next == r->n)
        return 0;
    for (int k = 0; k < 16 && r->next < r->n; k++)
        if (put(sink, th, &r->recs[r->next++]) != 0)
            return -1;
    return 1;
}

static struct pz_rec rec(uint8_t kind, uint64_t request, uint64_t time)
{
    struct pz_rec x;

    memset(&x, 0, sizeof(x));
    x.kind = kind;
    x.request = request;
    x.time = time;
    return x;
}

static void make_run(struct run *r)
{
    uint64_t time = 1;

    r->recs = malloc((3 * POSTS + 6) * sizeof(*r->recs));
    cr_assert_not_null(r->recs);
    r->n = r->next = 0;
    for (int i = 0; i < POSTS; i++)
        r->recs[r->n++] = rec(PZ_REC_ENTER, (uint64_t)i, time++);
    for (int i = POSTS - 1; i >= 0; i--) {
        r->recs[r->n++] = rec(PZ_REC_ISEND_COMPLETE, (uint64_t)i, time++);
        r->recs[r->n++] = rec(PZ_REC_IRECV, (uint64_t)i, time++);
    }
    for (int k = 0; k < 3; k++) {
        r->recs[r->n++] = rec(PZ_REC_ENTER, 7777, time++);
        r->recs[r->n++] = rec(PZ_REC_IRECV, 7777, time++);
    }
}

static struct pz_trace_in *open_run(struct run *r)
{
    static struct pz_trace_gen gen;
    struct pz_defs d;
    char err[256];
    struct pz_trace_in *t;

    memset(&d, 0, sizeof(d));
    cr_assert_eq(pz_defs_set_run(&d, 1, NULL, 0), 0);
    gen = (struct pz_trace_gen){ more, r };
    t = pz_trace_in_generated(&d, "ahead", &gen, err, sizeof(err));
    cr_assert_not_null(t, "%s", err);
    return t;
}

/* Post i (the record at place i of the run) completes at place POSTS + 2 (POSTS - 1 -
 * i) + 1: the completions come in reverse, each second of its pair.  Searched from
 * each post as it is consumed, every answer is that record, its time one more than the
 * other kind's record of the same request before it; the persistent request's three
 * completions are found in turn, each past its own post. */
Test(completion_ahead, many_requests_outstanding)
{
    struct run r;
    struct pz_trace_in *t;

    make_run(&r);
    t = open_run(&r);
    for (int i = 0; i < POSTS; i++) {
        const struct pz_rec *c = pz_call_completion(t, 0, 1, (uint64_t)i, PZ_REC_IRECV,
                                                    PZ_REC_IRECV);
        uint64_t want = (uint64_t)POSTS + 2 * (uint64_t)(POSTS - 1 - i) + 2;

        cr_assert_not_null(c, "post %d: no completion", i);
        cr_assert_eq(c->kind, PZ_REC_IRECV);
        cr_assert_eq(c->request, (uint64_t)i);
        cr_assert_eq(c->time, want, "post %d: time %llu, expected %llu", i,
                     (unsigned long long)c->time, (unsigned long long)want);
        pz_trace_in_consume(t, 0, 1);
    }
    pz_trace_in_consume(t, 0, 2 * POSTS);
    for (int k = 0; k < 3; k++) {
        const struct pz_rec *c = pz_call_completion(t, 0, 1, 7777, PZ_REC_IRECV, PZ_REC_IRECV);
        uint64_t want = 3 * (uint64_t)POSTS + 2 * (uint64_t)k + 2;

        cr_assert_not_null(c);
        cr_assert_eq(c->time, want, "start %d: time %llu, expected %llu", k,
                     (unsigned long long)c->time, (unsigned long long)want);
        pz_trace_in_consume(t, 0, 2);
    }
    cr_assert_null(pz_call_completion(t, 0, 0, 7777, PZ_REC_IRECV, PZ_REC_IRECV));
    pz_trace_in_close(t);
    free(r.recs);
}

/* A request never completed is not found, and a search of another kind's records
 * between searches of the first finds its own (the index starts again for it). */
Test(completion_ahead, missing_and_other_kinds)
{
    struct run r;
    struct pz_trace_in *t;
    const struct pz_rec *c;

    make_run(&r);
    t = open_run(&r);
    cr_assert_null(pz_call_completion(t, 0, 1, 123456, PZ_REC_IRECV, PZ_REC_IRECV));
    c = pz_call_completion(t, 0, 1, 5, PZ_REC_ISEND_COMPLETE, PZ_REC_ISEND_COMPLETE);
    cr_assert_not_null(c);
    cr_assert_eq(c->time, (uint64_t)POSTS + 2 * (POSTS - 1 - 5) + 1);
    c = pz_call_completion(t, 0, 1, 5, PZ_REC_IRECV, PZ_REC_IRECV);
    cr_assert_not_null(c);
    cr_assert_eq(c->time, (uint64_t)POSTS + 2 * (POSTS - 1 - 5) + 2);
    pz_trace_in_close(t);
    free(r.recs);
}
