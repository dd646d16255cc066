/* The HTML report's data (analyzer/report_html.h): the reduced timeline's columns,
 * folded and written; the timeline of a hand-built trace, every call when they fit and
 * the columns when they do not, within the size limit; the page's embedded JSON
 * well-formed.  Expected values are derived by hand in the comments. */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "report_html.h"
#include "trace_builder.h"

static char *top;
static char rec[4096], err[1024];

static void setup(void)
{
    top = tb_tempdir();
    cr_assert_not_null(top, "cannot make a temporary directory");
    snprintf(rec, sizeof(rec), "%s/rec", top);
}

static void cleanup(void)
{
    tb_remove(top);
    free(top);
}

TestSuite(report_html, .init = setup, .fini = cleanup);

static char *buckets_json(const struct pz_html_buckets *b, uint64_t *bytes)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    cr_assert_not_null(out);
    *bytes = pz_html_buckets_write(out, b);
    cr_assert_eq(fclose(out), 0);
    cr_expect_eq(*bytes, len, "pz_html_buckets_write counted %llu bytes of %zu",
                 (unsigned long long)*bytes, len);
    return text;
}

/* 2 lanes of 4 columns of 10 ns.  Lane 0, class 1 from 5 to 25 ns: 5 ns in column 0, 10
 * in column 1, 5 in column 2.  Lane 1, class 0 from 30 to 50 ns: beyond 40 ns, so the
 * columns fold into 20 ns ones first: lane 0 has 5 + 10 = 15 ns in column 0 and 5 in
 * column 1; then lane 1 gets 10 ns in column 1 (30-40) and 10 in column 2 (40-50).
 * Written up to the latest end, 50 ns: 3 columns; shares in 1/10000 of 20 ns: 15 ns is
 * 7500, 5 ns 2500, 10 ns 5000. */
Test(report_html, columns_fold_and_write_shares)
{
    struct pz_html_buckets b;
    uint64_t bytes;
    char *text;

    cr_assert_eq(pz_html_buckets_init(&b, 2, 4, PZ_HTML_CLASSES, 10), 0);
    pz_html_buckets_add(&b, 0, 1, 5, 25);
    cr_expect_float_eq(b.width, 10, 1e-9);
    pz_html_buckets_add(&b, 1, 0, 30, 50);
    cr_expect_float_eq(b.width, 20, 1e-9);
    text = buckets_json(&b, &bytes);
    cr_expect_str_eq(text, "{\"column_ns\": 20, \"columns\": 3, \"lanes\": ["
                           "[[0,0,7500,0,0,0,0],[1,0,2500,0,0,0,0]],\n"
                           "[[1,5000,0,0,0,0,0],[2,5000,0,0,0,0,0]]]}");
    free(text);
    pz_html_buckets_free(&b);
}

/* A call of no duration still shows: share 1 (of 10000) in its column; an event 1000
 * times beyond the columns folds them 10 times (2^10 = 1024 >= 1000). */
Test(report_html, short_calls_show_and_long_runs_fold)
{
    struct pz_html_buckets b;
    uint64_t bytes;
    char *text;

    cr_assert_eq(pz_html_buckets_init(&b, 1, 2, PZ_HTML_CLASSES, 1000), 0);
    pz_html_buckets_add(&b, 0, 4, 700, 700);
    text = buckets_json(&b, &bytes);
    cr_expect_str_eq(text, "{\"column_ns\": 1000, \"columns\": 1, \"lanes\": ["
                           "[[0,0,0,0,0,1,0]]]}");
    free(text);
    pz_html_buckets_add(&b, 0, 5, 0, 2000000);
    cr_expect_float_eq(b.width, 1024000, 1e-6);
    pz_html_buckets_free(&b);
}

/* Rank 0: MPI_Init 0-1 ms; interval 1 from 2.0005 ms around an MPI_Send 2.001-2.00125
 * ms to rank 1, tag 7 (8 bytes); n Barriers, each 1 us long, from 3 ms, 10 us apart.
 * Rank 1: MPI_Init 0-1 ms, MPI_Recv 2.0008-2.0016 ms from rank 0, the same Barriers.
 * Calls: 2 Init (other MPI), 1 Send, 1 Recv, 2n Barriers (collective). */
static void build(int n)
{
    struct tb *b = tb_open(rec, 2);
    uint32_t interval;

    cr_assert_not_null(b);
    interval = tb_interval(b, 1, "x.c", 10);
    tb_call(b, 0, "MPI_Init", 0, 1000000);
    tb_call(b, 1, "MPI_Init", 0, 1000000);
    tb_enter(b, 0, 2000500, interval);
    tb_send_call(b, 0, "MPI_Send", 2001000, 2001250, TB_WORLD, 1, 7);
    tb_leave(b, 0, 2003000, interval);
    tb_recv_call(b, 1, "MPI_Recv", 2000800, 2001600, TB_WORLD, 0, 7);
    for (int i = 0; i < n; i++)
        for (int p = 0; p < 2; p++)
            tb_collective_call(b, p, "MPI_Barrier", 3000000 + 10000 * (uint64_t)i,
                               3001000 + 10000 * (uint64_t)i, OTF2_COLLECTIVE_OP_BARRIER,
                               TB_WORLD, TB_NO_ROOT);
    cr_assert_eq(tb_close(b), 0);
}

/* The timeline of the trace at rec under limit, in memory. */
static char *timeline(const struct pz_analysis *a, uint64_t limit, size_t *len)
{
    int position[64];
    char *text = NULL;
    FILE *out = open_memstream(&text, len);

    cr_assert_not_null(out);
    cr_assert_lt(a->nnodes, 64);
    for (int i = 0; i < a->nnodes; i++)
        position[i] = i;
    cr_assert_eq(pz_html_timeline(out, rec, a, position, limit, 0, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(fclose(out), 0);
    return text;
}

/* Every call fits in 1 MiB: as [start, duration, function, class, interval, direction,
 * peer, tag, bytes, communicator] in ns from the earliest record (0).  The Send: 2001000,
 * 250 ns long, function 1 of rank 0 (after MPI_Init), class 1 (blocking send), in
 * interval 1 (node 1), a send (1) to process 1, tag 7, 8 bytes, MPI_COMM_WORLD (0).  The
 * Recv, on lane 1: 2000800, 800 ns, function 3 (Init 0, Send 1, Barrier 2 came first),
 * class 3, whole run, a receive (2) from 0.  The interval a band from 2000500 to 2003000
 * on lane 0. */
Test(report_html, every_call_when_they_fit)
{
    struct pz_analysis a;
    size_t len;
    char *text;

    build(2);
    cr_assert_eq(pz_analyze(rec, &a, err, sizeof(err)), 0, "%s", err);
    text = timeline(&a, 1 << 20, &len);
    cr_expect_not_null(strstr(text, "\"calls\": 8, \"per_class\": [4, 1, 0, 1, 0, 2]"), "%s", text);
    cr_expect_not_null(strstr(text, "\"mode\": \"exact\""), "%s", text);
    cr_expect_not_null(strstr(text, "[2001000,250,1,1,1,1,1,7,8,0]"), "%s", text);
    cr_expect_not_null(strstr(text, "[2000800,800,3,3,0,2,0,7,8,0]"), "%s", text);
    cr_expect_not_null(strstr(text, "\"bands\": [[[2000500,2003000,1]],\n[]]"), "%s", text);
    cr_expect_not_null(strstr(text, "\"functions\": [\"MPI_Init\", \"MPI_Send\", "
                                    "\"MPI_Barrier\", \"MPI_Recv\"]"), "%s", text);
    free(text);
    pz_analysis_free(&a);
}

/* 2 x 400 Barriers: each call's JSON is at least 20 bytes, 16000 in all, more than the
 * 5/8 of a 16 KiB limit (10240) the calls may take: the columns instead, 10240 / (2 lanes
 * * 48) = 106 of them, even.  The counts stay exact (800 collectives), and the whole
 * timeline stays within the limit. */
Test(report_html, columns_when_the_calls_do_not_fit)
{
    struct pz_analysis a;
    size_t len;
    char *text;

    build(400);
    cr_assert_eq(pz_analyze(rec, &a, err, sizeof(err)), 0, "%s", err);
    text = timeline(&a, 16 << 10, &len);
    cr_expect_not_null(strstr(text, "\"calls\": 804, \"per_class\": [800, 1, 0, 1, 0, 2]"),
                       "%.300s", text);
    cr_expect_not_null(strstr(text, "\"mode\": \"reduced\""), "%.300s", text);
    cr_expect_leq(len, 16 << 10, "the timeline takes %zu bytes", len);
    free(text);
    /* too small a limit for even 16 columns: 16 * 2 * 48 = 1536 > 5/8 of 2048 */
    text = timeline(&a, 2048, &len);
    cr_expect_not_null(strstr(text, "\"mode\": \"none\""), "%.300s", text);
    cr_expect_leq(len, 2048, "the timeline takes %zu bytes", len);
    free(text);
    pz_analysis_free(&a);
}

/* A call longer than the records read at a time (8): rank 0's MPI_Waitall, the first
 * record of its thread, [2000000, 2000500] ns, completes 12 sends, 14 records, so that
 * finding its end reads more and moves the records read before, its Enter among them.
 * Rank 1's MPI_Init from 0 is the earliest record, time 0.  The Waitall, on lane 0, read
 * first: [2000000, 500 ns long, function 0, class 3 (waits), interval 0 (whole run)],
 * and no message or collective among its records to describe.  Its function is
 * MPI_Waitall, MPI_Init the second. */
Test(report_html, a_call_longer_than_a_read)
{
    struct tb *b = tb_open(rec, 2);
    uint32_t waitall;
    struct pz_analysis a;
    size_t len;
    char *text;

    cr_assert_not_null(b);
    waitall = tb_mpi(b, "MPI_Waitall");
    tb_enter(b, 0, 2000000, waitall);
    for (uint64_t req = 1; req <= 12; req++)
        tb_mpi_isend_complete(b, 0, 2000000 + 10 * req, req);
    tb_leave(b, 0, 2000500, waitall);
    tb_call(b, 1, "MPI_Init", 0, 1000000);
    cr_assert_eq(tb_close(b), 0);
    cr_assert_eq(pz_analyze(rec, &a, err, sizeof(err)), 0, "%s", err);
    text = timeline(&a, 1 << 20, &len);
    cr_expect_not_null(strstr(text, "[[2000000,500,0,3,0]]"), "%s", text);
    cr_expect_not_null(strstr(text, "\"functions\": [\"MPI_Waitall\", \"MPI_Init\"]"), "%s",
                       text);
    free(text);
    pz_analysis_free(&a);
}

/* --- a JSON checker: the grammar of RFC 8259, nothing more */

static const char *value(const char *s);

static const char *space(const char *s)
{
    while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
        s++;
    return s;
}

static const char *string(const char *s)
{
    if (*s++ != '"')
        return NULL;
    for (; *s != '"'; s++) {
        if ((unsigned char)*s < 0x20)
            return NULL;
        if (*s == '\\' && *++s == 'u') {
            for (int i = 1; i <= 4; i++)
                if (!isxdigit((unsigned char)s[i]))
                    return NULL;
            s += 4;
        } else if (s[-1] == '\\' && !strchr("\"\\/bfnrt", *s)) {
            return NULL;
        }
    }
    return s + 1;
}

static const char *number(const char *s)
{
    const char *start;

    s += *s == '-';
    if (!isdigit((unsigned char)*s))
        return NULL;
    s += *s == '0' ? 1 : strspn(s, "0123456789");
    if (*s == '.') {
        if (!isdigit((unsigned char)*++s))
            return NULL;
        s += strspn(s, "0123456789");
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        s += *s == '+' || *s == '-';
        start = s;
        s += strspn(s, "0123456789");
        if (s == start)
            return NULL;
    }
    return s;
}

/* The members or elements up to close, after the opening bracket. */
static const char *items(const char *s, char close, int members)
{
    s = space(s);
    if (*s == close)
        return s + 1;
    for (;;) {
        if (members) {
            if (!(s = string(space(s))) || *(s = space(s)) != ':')
                return NULL;
            s++;
        }
        if (!(s = value(s)))
            return NULL;
        s = space(s);
        if (*s == close)
            return s + 1;
        if (*s++ != ',')
            return NULL;
    }
}

static const char *value(const char *s)
{
    s = space(s);
    if (*s == '{')
        return items(s + 1, '}', 1);
    if (*s == '[')
        return items(s + 1, ']', 0);
    if (*s == '"')
        return string(s);
    if (!strncmp(s, "true", 4) || !strncmp(s, "null", 4))
        return s + 4;
    if (!strncmp(s, "false", 5))
        return s + 5;
    return number(s);
}

static int well_formed(const char *json)
{
    const char *end = value(json);

    return end && !*space(end);
}

Test(report_html, checker_rejects_what_is_not_json)
{
    cr_expect(well_formed("{\"a\": [1, -2.5e3, true, null, \"x\\u003c\"]}"));
    cr_expect(!well_formed("{\"a\": [1, 2,]}"));
    cr_expect(!well_formed("{\"a\" 1}"));
    cr_expect(!well_formed("[01]"));
    cr_expect(!well_formed("[\"a\\q\"]"));
    cr_expect(!well_formed("[1] x"));
}

/* The page's data element, exact and reduced, is JSON, and nothing in it can end the
 * element: no '<' at all (the report's strings have theirs escaped). */
Test(report_html, page_data_is_json)
{
    static const char open[] = "<script type=\"application/json\" id=\"pz-data\">";
    const uint64_t limits[] = { 20 << 20, 16 << 10 };
    struct pz_analysis a;

    build(400);
    cr_assert_eq(pz_analyze(rec, &a, err, sizeof(err)), 0, "%s", err);
    for (size_t i = 0; i < sizeof(limits) / sizeof(*limits); i++) {
        struct pz_html_run run = { .trace = rec, .limit = limits[i] };
        char *page = NULL, *data, *end;
        size_t len = 0;
        FILE *out = open_memstream(&page, &len);

        cr_assert_not_null(out);
        cr_assert_eq(pz_report_html_run(out, &a, 1, &run, err, sizeof(err)), 0, "%s", err);
        cr_assert_eq(fclose(out), 0);
        cr_assert_not_null(data = strstr(page, open));
        data += strlen(open);
        cr_assert_not_null(end = strstr(data, "</script>"));
        *end = '\0';
        cr_expect_null(strchr(data, '<'), "a '<' in the data");
        cr_expect(well_formed(data), "the data of the page with limit %llu is not JSON",
                  (unsigned long long)limits[i]);
        cr_expect_not_null(strstr(data, i ? "\"mode\": \"reduced\"" : "\"mode\": \"exact\""));
        free(page);
    }
    pz_analysis_free(&a);
}
