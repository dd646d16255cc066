/* The MPI function profile and the call sites of a hand-built trace (analyzer/profile.c,
 * fed by walk.c), and the HTML report of it (analyzer/report_html.c): well formed, with
 * every interval, and file names holding < & > " escaped.  Times in the comments are
 * milliseconds; the trace's clock counts nanoseconds. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "report.h"
#include "analysis_fixture.h"
#include "trace_builder.h"

#define EPS 1e-9
#define MS TB_MS


TestSuite(profile, .fini = cleanup);
TestSuite(html, .fini = cleanup);

/* The file of interval 1 and of most call sites; a second interval's file. */
#define ODD_FILE "/home/u/src/a<b>&\"c\".c"
#define ODD_FILE_HTML "/home/u/src/a&lt;b&gt;&amp;&quot;c&quot;.c"
#define ODD_BASE_HTML "a&lt;b&gt;&amp;&quot;c&quot;.c"
#define IO_FILE "/home/u/src/io>x.c"

/* An MPI call of proc from enter to leave made from site (UINT32_MAX: no site). */
static uint32_t call_enter(struct tb *b, int proc, const char *name, uint64_t enter,
                           uint32_t site)
{
    uint32_t r = tb_mpi(b, name);

    if (site == UINT32_MAX)
        tb_enter(b, proc, enter, r);
    else
        tb_enter_site(b, proc, enter, r, site);
    return r;
}

static void call(struct tb *b, int proc, const char *name, uint64_t enter, uint64_t leave,
                 uint32_t site)
{
    tb_leave(b, proc, leave, call_enter(b, proc, name, enter, site));
}

/* Two processes; sites A = ODD_FILE:10, B = ODD_FILE:20, E = ODD_FILE:30, C = util.c:5,
 * D = util.c:7; intervals 1 (ODD_FILE:12), 2 (IO_FILE:40, inside 1, process 0 only),
 * 3 (/home/u/src/plain.c:50).
 *   process 0                                process 1
 *   Init 0-1                                 Init 0-2
 *   [1 1.5                                   [1 2.5
 *   Send 2-4 at A, 100 bytes to 1            Recv 3-5 at E, 100 bytes
 *   Send 5-6 at A, 50 bytes                  Recv 5.5-6.5 at E, 50 bytes
 *   [2 6.5  Send 7-10 at B, 8 bytes  2] 10.5 Recv 7-10.5 at E, 8 bytes
 *   1] 11                                    1] 10.8
 *   Allreduce 12-15 at C, 16 sent, 16 recv   Allreduce 11-15 at C, 16 sent, 16 recv
 *   Isend 16-17, 1000 bytes (request 1)      Irecv 15.5-15.8 (request 7)
 *   Wait 17-18 (completes request 1)         Wait 16.5-18.8 at C, receives 1000 bytes
 *   [3 18.5  Bcast 19-20 at D, root,          [3 18.9  Bcast 19-20.5 at D, 0 sent,
 *            64 sent, 0 received  3] 20.2              64 received  3] 20.6
 *   Finalize 21-22                           Finalize 21-23 */
static void profile_trace(void)
{
    struct tb *b;
    uint32_t a, bb, e, c, d, i1, i2, i3, r;

    dir = tb_tempdir();
    cr_assert_not_null(dir, "cannot make a temporary directory");
    b = tb_open(dir, 2);
    cr_assert_not_null(b, "cannot open an OTF2 archive in %s", dir);
    a = tb_site(b, ODD_FILE, 10);
    bb = tb_site(b, ODD_FILE, 20);
    e = tb_site(b, ODD_FILE, 30);
    c = tb_site(b, "util.c", 5);
    d = tb_site(b, "util.c", 7);
    cr_assert_eq(tb_site(b, ODD_FILE, 10), a, "tb_site defined a site twice");
    i1 = tb_interval(b, 1, ODD_FILE, 12);
    i2 = tb_interval(b, 2, IO_FILE, 40);
    i3 = tb_interval(b, 3, "/home/u/src/plain.c", 50);

    call(b, 0, "MPI_Init", MS(0), MS(1), UINT32_MAX);
    tb_enter(b, 0, MS(1.5), i1);
    r = call_enter(b, 0, "MPI_Send", MS(2), a);
    tb_mpi_send(b, 0, MS(2), TB_WORLD, 1, 1, 100);
    tb_leave(b, 0, MS(4), r);
    call_enter(b, 0, "MPI_Send", MS(5), a);
    tb_mpi_send(b, 0, MS(5), TB_WORLD, 1, 1, 50);
    tb_leave(b, 0, MS(6), r);
    tb_enter(b, 0, MS(6.5), i2);
    call_enter(b, 0, "MPI_Send", MS(7), bb);
    tb_mpi_send(b, 0, MS(7), TB_WORLD, 1, 2, 8);
    tb_leave(b, 0, MS(10), r);
    tb_leave(b, 0, MS(10.5), i2);
    tb_leave(b, 0, MS(11), i1);
    r = call_enter(b, 0, "MPI_Allreduce", MS(12), c);
    tb_collective_begin(b, 0, MS(12));
    tb_collective_end(b, 0, MS(15), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT, 16, 16);
    tb_leave(b, 0, MS(15), r);
    r = call_enter(b, 0, "MPI_Isend", MS(16), UINT32_MAX);
    tb_mpi_isend(b, 0, MS(16), TB_WORLD, 1, 3, 1000, 1);
    tb_leave(b, 0, MS(17), r);
    r = call_enter(b, 0, "MPI_Wait", MS(17), UINT32_MAX);
    tb_mpi_isend_complete(b, 0, MS(17.5), 1);
    tb_leave(b, 0, MS(18), r);
    tb_enter(b, 0, MS(18.5), i3);
    r = call_enter(b, 0, "MPI_Bcast", MS(19), d);
    tb_collective_begin(b, 0, MS(19));
    tb_collective_end(b, 0, MS(20), OTF2_COLLECTIVE_OP_BCAST, TB_WORLD, 0, 64, 0);
    tb_leave(b, 0, MS(20), r);
    tb_leave(b, 0, MS(20.2), i3);
    call(b, 0, "MPI_Finalize", MS(21), MS(22), UINT32_MAX);

    call(b, 1, "MPI_Init", MS(0), MS(2), UINT32_MAX);
    tb_enter(b, 1, MS(2.5), i1);
    r = call_enter(b, 1, "MPI_Recv", MS(3), e);
    tb_mpi_recv(b, 1, MS(5), TB_WORLD, 0, 1, 100);
    tb_leave(b, 1, MS(5), r);
    call_enter(b, 1, "MPI_Recv", MS(5.5), e);
    tb_mpi_recv(b, 1, MS(6.5), TB_WORLD, 0, 1, 50);
    tb_leave(b, 1, MS(6.5), r);
    call_enter(b, 1, "MPI_Recv", MS(7), e);
    tb_mpi_recv(b, 1, MS(10.5), TB_WORLD, 0, 2, 8);
    tb_leave(b, 1, MS(10.5), r);
    tb_leave(b, 1, MS(10.8), i1);
    r = call_enter(b, 1, "MPI_Allreduce", MS(11), c);
    tb_collective_begin(b, 1, MS(11));
    tb_collective_end(b, 1, MS(15), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT, 16, 16);
    tb_leave(b, 1, MS(15), r);
    r = call_enter(b, 1, "MPI_Irecv", MS(15.5), UINT32_MAX);
    tb_mpi_irecv_request(b, 1, MS(15.5), 7);
    tb_leave(b, 1, MS(15.8), r);
    r = call_enter(b, 1, "MPI_Wait", MS(16.5), c);
    tb_mpi_irecv(b, 1, MS(18.8), TB_WORLD, 0, 3, 1000, 7);
    tb_leave(b, 1, MS(18.8), r);
    tb_enter(b, 1, MS(18.9), i3);
    r = call_enter(b, 1, "MPI_Bcast", MS(19), d);
    tb_collective_begin(b, 1, MS(19));
    tb_collective_end(b, 1, MS(20.5), OTF2_COLLECTIVE_OP_BCAST, TB_WORLD, 0, 0, 64);
    tb_leave(b, 1, MS(20.5), r);
    tb_leave(b, 1, MS(20.6), i3);
    call(b, 1, "MPI_Finalize", MS(21), MS(23), UINT32_MAX);

    cr_assert_eq(tb_close(b), 0, "the trace builder failed");
    cr_assert_eq(pz_analyze(dir, &an, err, sizeof(err)), 0, "pz_analyze: %s", err);
}

/* Per function, over both processes, in order of first call:
 *   function       calls  time (ms)        longest  bytes sent        received
 *   MPI_Init       2      1 + 2 = 3        2        0                 0
 *   MPI_Send       3      2 + 1 + 3 = 6    3        100 + 50 + 8      0
 *   MPI_Recv       3      2 + 1 + 3.5      3.5      0                 100 + 50 + 8
 *   MPI_Allreduce  2      3 + 4 = 7        4        16 + 16           16 + 16
 *   MPI_Irecv      1      0.3              0.3      0                 0
 *   MPI_Isend      1      1                1        1000              0
 *   MPI_Wait       2      1 + 2.3 = 3.3    2.3      0                 1000 (the MpiIrecv)
 *   MPI_Bcast      2      1 + 1.5 = 2.5    1.5      64 + 0            0 + 64
 *   MPI_Finalize   2      1 + 2 = 3        2        0                 0 */
Test(profile, functions)
{
    static const struct pz_function want[] = {
        { "MPI_Init", 2, 0.003, 0.002, 0, 0 },
        { "MPI_Send", 3, 0.006, 0.003, 158, 0 },
        { "MPI_Recv", 3, 0.0065, 0.0035, 0, 158 },
        { "MPI_Allreduce", 2, 0.007, 0.004, 32, 32 },
        { "MPI_Irecv", 1, 0.0003, 0.0003, 0, 0 },
        { "MPI_Isend", 1, 0.001, 0.001, 1000, 0 },
        { "MPI_Wait", 2, 0.0033, 0.0023, 0, 1000 },
        { "MPI_Bcast", 2, 0.0025, 0.0015, 64, 64 },
        { "MPI_Finalize", 2, 0.003, 0.002, 0, 0 },
    };
    const int n = (int)(sizeof(want) / sizeof(want[0]));

    profile_trace();
    cr_assert_eq(an.nfunctions, n, "%d functions, expected %d", an.nfunctions, n);
    for (int i = 0; i < n; i++) {
        const struct pz_function *f = &an.functions[i], *w = &want[i];

        cr_expect_str_eq(f->name, w->name, "function %d is %s, expected %s", i, f->name,
                         w->name);
        cr_expect_eq(f->calls, w->calls, "%s: %llu calls, expected %llu", w->name,
                     (unsigned long long)f->calls, (unsigned long long)w->calls);
        cr_expect(fabs(f->time - w->time) <= EPS, "%s: time %.9f, expected %.9f", w->name,
                  f->time, w->time);
        cr_expect(fabs(f->max - w->max) <= EPS, "%s: longest %.9f, expected %.9f", w->name,
                  f->max, w->max);
        cr_expect_eq(f->bytes_sent, w->bytes_sent, "%s: %llu bytes sent, expected %llu",
                     w->name, (unsigned long long)f->bytes_sent,
                     (unsigned long long)w->bytes_sent);
        cr_expect_eq(f->bytes_received, w->bytes_received,
                     "%s: %llu bytes received, expected %llu", w->name,
                     (unsigned long long)f->bytes_received,
                     (unsigned long long)w->bytes_received);
    }
}

/* Per (site, function), in order of the first call's end:
 *   site           function       calls  time (ms)
 *   ODD_FILE:10    MPI_Send       2      2 + 1 = 3         (first ends at 4)
 *   ODD_FILE:30    MPI_Recv       3      2 + 1 + 3.5       (5)
 *   ODD_FILE:20    MPI_Send       1      3                 (10)
 *   util.c:5       MPI_Allreduce  2      3 + 4 = 7         (15)
 *   util.c:5       MPI_Wait       1      2.3               (18.8): one site, two functions
 *   util.c:7       MPI_Bcast      2      1 + 1.5 = 2.5     (20)
 * Calls without a site (Init, Isend, Irecv, process 0's Wait, Finalize) have none. */
Test(profile, call_sites)
{
    static const struct pz_callsite want[] = {
        { ODD_FILE, 10, "MPI_Send", 2, 0.003 },
        { ODD_FILE, 30, "MPI_Recv", 3, 0.0065 },
        { ODD_FILE, 20, "MPI_Send", 1, 0.003 },
        { "util.c", 5, "MPI_Allreduce", 2, 0.007 },
        { "util.c", 5, "MPI_Wait", 1, 0.0023 },
        { "util.c", 7, "MPI_Bcast", 2, 0.0025 },
    };
    const int n = (int)(sizeof(want) / sizeof(want[0]));

    profile_trace();
    cr_assert_eq(an.ncallsites, n, "%d call sites, expected %d", an.ncallsites, n);
    for (int i = 0; i < n; i++) {
        const struct pz_callsite *c = &an.callsites[i], *w = &want[i];

        cr_expect_str_eq(c->file, w->file, "site %d: file %s, expected %s", i, c->file,
                         w->file);
        cr_expect_eq(c->line, w->line, "site %d: line %u, expected %u", i, c->line, w->line);
        cr_expect_str_eq(c->function, w->function, "site %d: function %s, expected %s", i,
                         c->function, w->function);
        cr_expect_eq(c->calls, w->calls, "site %d: %llu calls, expected %llu", i,
                     (unsigned long long)c->calls, (unsigned long long)w->calls);
        cr_expect(fabs(c->time - w->time) <= EPS, "site %d: time %.9f, expected %.9f", i,
                  c->time, w->time);
    }
}

/* A trace without call sites has none, and the same profile of functions. */
Test(profile, no_sites_without_the_attribute)
{
    struct tb *b;

    dir = tb_tempdir();
    cr_assert_not_null(dir);
    b = tb_open(dir, 1);
    cr_assert_not_null(b);
    tb_call(b, 0, "MPI_Init", MS(0), MS(1));
    tb_call(b, 0, "MPI_Barrier", MS(2), MS(4));
    tb_call(b, 0, "MPI_Barrier", MS(5), MS(5.5));
    tb_call(b, 0, "MPI_Finalize", MS(6), MS(7));
    cr_assert_eq(tb_close(b), 0);
    cr_assert_eq(pz_analyze(dir, &an, err, sizeof(err)), 0, "pz_analyze: %s", err);
    cr_expect_eq(an.ncallsites, 0);
    cr_assert_eq(an.nfunctions, 3);
    cr_expect_str_eq(an.functions[1].name, "MPI_Barrier");
    cr_expect_eq(an.functions[1].calls, 2);
    cr_expect(fabs(an.functions[1].time - 0.0025) <= EPS);
    cr_expect(fabs(an.functions[1].max - 0.002) <= EPS);
}

/* "In order of first call" (analysis.h, docs/report.md) when calls overlap: process 0
 * posts a receive (2-10 ms) before process 1 sends (3-4 ms), a late sender.  MPI_Recv
 * was called first, at 2; MPI_Send at 3.  Order: Init, Recv, Send, Finalize. */
Test(profile, functions_in_order_of_first_call)
{
    static const char *const want[] = { "MPI_Init", "MPI_Recv", "MPI_Send", "MPI_Finalize" };
    struct tb *b;

    dir = tb_tempdir();
    cr_assert_not_null(dir);
    b = tb_open(dir, 2);
    cr_assert_not_null(b);
    tb_call(b, 0, "MPI_Init", MS(0), MS(1));
    tb_recv_call(b, 0, "MPI_Recv", MS(2), MS(10), TB_WORLD, 1, 0);
    tb_call(b, 0, "MPI_Finalize", MS(11), MS(12));
    tb_call(b, 1, "MPI_Init", MS(0), MS(1));
    tb_send_call(b, 1, "MPI_Send", MS(3), MS(4), TB_WORLD, 0, 0);
    tb_call(b, 1, "MPI_Finalize", MS(11), MS(12));
    cr_assert_eq(tb_close(b), 0);
    cr_assert_eq(pz_analyze(dir, &an, err, sizeof(err)), 0, "pz_analyze: %s", err);
    cr_assert_eq(an.nfunctions, 4);
    for (int i = 0; i < 4; i++)
        cr_expect_str_eq(an.functions[i].name, want[i], "function %d is %s, expected %s", i,
                         an.functions[i].name, want[i]);
}

/* The bytes of nonblocking collectives, as the recorder writes them: the sizes are in
 * the NonBlockingCollectiveComplete record, inside the wait that completes the
 * operation (as the MpiIrecv of a nonblocking receive is).  Two processes each post an
 * MPI_Iallreduce (1-2 ms) of 24 bytes sent and 24 received and wait for it (3-5 ms);
 * process 0 then posts an MPI_Ibcast as root (6-7) of 40 bytes sent, 0 received, and
 * process 1 its receiving side (0 sent, 40 received), each completed in an MPI_Wait
 * (8-9).  Whichever function the bytes are charged to, the profile's totals are those
 * of the records: 24 + 24 + 40 = 88 bytes sent and 24 + 24 + 40 = 88 received. */
Test(profile, nonblocking_collective_bytes)
{
    uint64_t sent = 0, received = 0;
    struct tb *b;
    uint32_t r;

    dir = tb_tempdir();
    cr_assert_not_null(dir);
    b = tb_open(dir, 2);
    cr_assert_not_null(b);
    for (int p = 0; p < 2; p++) {
        tb_call(b, p, "MPI_Init", MS(0), MS(0.5));
        r = tb_mpi(b, "MPI_Iallreduce");
        tb_enter(b, p, MS(1), r);
        tb_nbc_request(b, p, MS(1), 10);
        tb_leave(b, p, MS(2), r);
        r = tb_mpi(b, "MPI_Wait");
        tb_enter(b, p, MS(3), r);
        tb_nbc_complete(b, p, MS(5), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT, 24,
                        24, 10);
        tb_leave(b, p, MS(5), r);
        r = tb_mpi(b, "MPI_Ibcast");
        tb_enter(b, p, MS(6), r);
        tb_nbc_request(b, p, MS(6), 11);
        tb_leave(b, p, MS(7), r);
        r = tb_mpi(b, "MPI_Wait");
        tb_enter(b, p, MS(8), r);
        tb_nbc_complete(b, p, MS(9), OTF2_COLLECTIVE_OP_BCAST, TB_WORLD, 0, p ? 0 : 40,
                        p ? 40 : 0, 11);
        tb_leave(b, p, MS(9), r);
        tb_call(b, p, "MPI_Finalize", MS(10), MS(11));
    }
    cr_assert_eq(tb_close(b), 0);
    cr_assert_eq(pz_analyze(dir, &an, err, sizeof(err)), 0, "pz_analyze: %s", err);
    cr_assert_eq(an.nfunctions, 5);
    for (int i = 0; i < an.nfunctions; i++) {
        sent += an.functions[i].bytes_sent;
        received += an.functions[i].bytes_received;
    }
    cr_expect_eq(sent, 88, "%llu bytes sent in the profile, the records say 88",
                 (unsigned long long)sent);
    cr_expect_eq(received, 88, "%llu bytes received in the profile, the records say 88",
                 (unsigned long long)received);
}

/* A small checker of the HTML the report writes: a doctype, then elements that nest
 * and close (void elements excepted), attribute values in double quotes, text and
 * values without a raw < or > and whose & start &lt; &gt; &amp; &quot; or &#N;, style
 * content left alone, no block element inside a <p>.  Returns NULL or what is wrong. */
static const char *const void_elements[] = { "meta", "br", "hr", "img", "input", "link" };
static const char *const blocks[] = { "p", "div", "table", "h1", "h2", "h3", "ul", "ol" };

static int in_list(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i]))
            return 1;
    return 0;
}

static char problem[256];

static const char *bad(const char *html, const char *at, const char *what)
{
    snprintf(problem, sizeof(problem), "offset %ld: %s: \"%.40s\"", (long)(at - html), what, at);
    return problem;
}

/* The entity at s (after its &), or 0 if it is none of those allowed. */
static size_t entity(const char *s)
{
    static const char *const names[] = { "lt;", "gt;", "amp;", "quot;" };
    size_t n = 0;

    for (size_t i = 0; i < 4; i++)
        if (!strncmp(s, names[i], strlen(names[i])))
            return strlen(names[i]);
    if (s[0] != '#')
        return 0;
    while (s[1 + n] >= '0' && s[1 + n] <= '9')
        n++;
    return n && s[1 + n] == ';' ? n + 2 : 0;
}

static const char *check_html(const char *html)
{
    static const char doctype[] = "<!DOCTYPE html>";
    char stack[64][16];
    int depth = 0, seen_html = 0;
    const char *s = html;

    if (strncmp(s, doctype, strlen(doctype)) != 0)
        return bad(html, s, "no <!DOCTYPE html> first");
    s += strlen(doctype);
    while (*s) {
        if (*s == '&') {
            size_t n = entity(s + 1);

            if (!n)
                return bad(html, s, "& that starts no entity");
            s += 1 + n;
        } else if (*s == '>') {
            return bad(html, s, "raw > in text");
        } else if (*s != '<') {
            s++;
        } else if (s[1] == '/') {
            char name[16];
            size_t n = strspn(s + 2, "abcdefghijklmnopqrstuvwxyz0123456789");

            if (n == 0 || n >= sizeof(name) || s[2 + n] != '>')
                return bad(html, s, "malformed end tag");
            memcpy(name, s + 2, n);
            name[n] = '\0';
            if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
                return bad(html, s, depth ? "end tag closes another element" : "end tag of nothing");
            depth--;
            s += 3 + n;
        } else {
            char name[16];
            size_t n = strspn(s + 1, "abcdefghijklmnopqrstuvwxyz0123456789");

            if (n == 0 || n >= sizeof(name))
                return bad(html, s, "malformed start tag");
            memcpy(name, s + 1, n);
            name[n] = '\0';
            if (!strcmp(name, "html")) {
                if (seen_html || depth)
                    return bad(html, s, "<html> not the root");
                seen_html = 1;
            } else if (!depth) {
                return bad(html, s, "element outside <html>");
            }
            for (int i = 0; i < depth; i++)
                if (!strcmp(stack[i], "p") &&
                    in_list(name, blocks, sizeof(blocks) / sizeof(blocks[0])))
                    return bad(html, s, "block element inside <p>");
            s += 1 + n;
            for (;;) {   /* attributes */
                size_t gap = strspn(s, " \n");

                s += gap;
                if (*s == '>')
                    break;
                n = strspn(s, "abcdefghijklmnopqrstuvwxyz-");
                if (!gap || !n)
                    return bad(html, s, "malformed attribute");
                s += n;
                if (*s != '=')
                    continue;
                if (s[1] != '"')
                    return bad(html, s, "attribute value not in double quotes");
                for (s += 2; *s != '"'; s++) {
                    if (!*s || *s == '<' || *s == '>')
                        return bad(html, s, "unterminated value, or < or > in a value");
                    if (*s == '&') {
                        size_t k = entity(s + 1);

                        if (!k)
                            return bad(html, s, "& that starts no entity in a value");
                        s += k;
                    }
                }
                s++;
            }
            s++;
            if (in_list(name, void_elements, sizeof(void_elements) / sizeof(void_elements[0])))
                continue;
            if (depth == 64)
                return bad(html, s, "nested too deep");
            strcpy(stack[depth++], name);
            if (!strcmp(name, "style") || !strcmp(name, "script")) {
                /* CSS or a script (code, JSON), up to its end tag */
                const char *end = strstr(s, !strcmp(name, "style") ? "</style>" : "</script>");

                if (!end)
                    return bad(html, s, "unterminated <style> or <script>");
                s = end;
            }
        }
    }
    if (depth)
        return bad(html, s, "elements left open at the end");
    if (!seen_html)
        return bad(html, s, "no <html>");
    return NULL;
}

/* The checker itself finds what it is for. */
Test(html, checker_rejects_what_is_not_well_formed)
{
    cr_expect_null(check_html("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><style>"
                              "a>b{}</style></head><body><p title=\"&lt;\">x &amp; y</p>"
                              "<table><tr><td>1</td></tr></table></body></html>\n"));
    cr_expect_not_null(check_html("<html></html>"));
    cr_expect_not_null(check_html("<!DOCTYPE html><html><body><p>a</b></p></body></html>"));
    cr_expect_not_null(check_html("<!DOCTYPE html><html><body><p>a<b</p></body></html>"));
    cr_expect_not_null(check_html("<!DOCTYPE html><html><body><p>a > b</p></body></html>"));
    cr_expect_not_null(check_html("<!DOCTYPE html><html><body><p>a & b</p></body></html>"));
    cr_expect_not_null(check_html("<!DOCTYPE html><html><body><td title=\"a\"b\">x</td>"
                                  "</body></html>"));
    cr_expect_not_null(check_html("<!DOCTYPE html><html><body><p><table></table></p>"
                                  "</body></html>"));
    cr_expect_not_null(check_html("<!DOCTYPE html><html><body><div></body></html>"));
}

/* The report of the profile trace in memory. */
static char *html_report(int per_process)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);

    cr_assert_not_null(out);
    cr_assert_eq(pz_report_html(out, &an, per_process), 0, "pz_report_html failed");
    cr_assert_eq(fclose(out), 0);
    cr_assert_not_null(buf);
    cr_assert_eq(strlen(buf), len, "a NUL byte in the report");
    return buf;
}

static int occurrences(const char *s, const char *what)
{
    int n = 0;

    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* The whole run and intervals 1, 2 (inside 1) and 3, in that order, each once in the
 * table of intervals (indented by level: 1, 3, 5 and 3 em; the full path on hover, the
 * base name shown) and once as a heading of its characteristics (the full path); the
 * file names escaped, never raw.  Every MPI function has its row. */
Test(html, well_formed_with_every_interval_and_escaped_names)
{
    static const char *const rows[] = {
        "<td class=\"name\" style=\"padding-left:1em\" title=\"\">whole run</td>",
        "<td class=\"name\" style=\"padding-left:3em\" title=\"" ODD_FILE_HTML "\">interval 1 "
        "at " ODD_BASE_HTML ":12</td>",
        "<td class=\"name\" style=\"padding-left:5em\" title=\"/home/u/src/io&gt;x.c\">"
        "interval 2 at io&gt;x.c:40</td>",
        "<td class=\"name\" style=\"padding-left:3em\" title=\"/home/u/src/plain.c\">"
        "interval 3 at plain.c:50</td>",
    };
    static const char *const headings[] = {
        "<h3>Whole run</h3>",
        "<h3>Interval 1 at " ODD_FILE_HTML ":12</h3>",
        "<h3>Interval 2 at /home/u/src/io&gt;x.c:40</h3>",
        "<h3>Interval 3 at /home/u/src/plain.c:50</h3>",
    };
    static const char *const functions[] = {
        "<tr><td class=\"name\">MPI_Init</td><td>2</td><td>0.003000</td><td>0.002000</td>"
        "<td>0</td><td>0</td></tr>",
        "<tr><td class=\"name\">MPI_Send</td><td>3</td><td>0.006000</td><td>0.003000</td>"
        "<td>158</td><td>0</td></tr>",
        "<tr><td class=\"name\">MPI_Recv</td><td>3</td><td>0.006500</td><td>0.003500</td>"
        "<td>0</td><td>158</td></tr>",
        "<tr><td class=\"name\">MPI_Allreduce</td><td>2</td><td>0.007000</td><td>0.004000</td>"
        "<td>32</td><td>32</td></tr>",
        "<tr><td class=\"name\">MPI_Irecv</td><td>1</td><td>0.000300</td><td>0.000300</td>"
        "<td>0</td><td>0</td></tr>",
        "<tr><td class=\"name\">MPI_Isend</td><td>1</td><td>0.001000</td><td>0.001000</td>"
        "<td>1000</td><td>0</td></tr>",
        "<tr><td class=\"name\">MPI_Wait</td><td>2</td><td>0.003300</td><td>0.002300</td>"
        "<td>0</td><td>1000</td></tr>",
        "<tr><td class=\"name\">MPI_Bcast</td><td>2</td><td>0.002500</td><td>0.001500</td>"
        "<td>64</td><td>64</td></tr>",
        "<tr><td class=\"name\">MPI_Finalize</td><td>2</td><td>0.003000</td><td>0.002000</td>"
        "<td>0</td><td>0</td></tr>",
    };
    const char *last_row = NULL, *last_heading = NULL;
    const char *problem_found;
    char *html;

    profile_trace();
    html = html_report(0);
    problem_found = check_html(html);
    cr_expect_null(problem_found, "the HTML report is not well formed: %s", problem_found);
    cr_expect_eq(occurrences(html, "<td class=\"name\" style=\"padding-left:"), 4,
                 "not 4 rows of intervals");
    cr_expect_eq(occurrences(html, "<h3>"), 4, "not 4 headings of intervals");
    for (size_t i = 0; i < 4; i++) {
        const char *row = strstr(html, rows[i]), *heading = strstr(html, headings[i]);

        cr_expect_not_null(row, "no row %s", rows[i]);
        cr_expect_not_null(heading, "no heading %s", headings[i]);
        cr_expect(!row || !last_row || row > last_row, "row %zu out of order", i);
        cr_expect(!heading || !last_heading || heading > last_heading,
                  "heading %zu out of order", i);
        last_row = row ? row : last_row;
        last_heading = heading ? heading : last_heading;
    }
    cr_expect_null(strstr(html, "a<b>"), "a raw file name in the report");
    cr_expect_null(strstr(html, "io>x"), "a raw file name in the report");
    for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
        cr_expect_not_null(strstr(html, functions[i]), "no function row %s", functions[i]);
    cr_expect_null(strstr(html, "<th>process 0</th>"), "process columns without asking");
    free(html);
}

/* With every process's values: a column per process in each of the 4 tables of
 * characteristics, still well formed. */
Test(html, well_formed_per_process)
{
    const char *problem_found;
    char *html;

    profile_trace();
    html = html_report(1);
    problem_found = check_html(html);
    cr_expect_null(problem_found, "the HTML report is not well formed: %s", problem_found);
    cr_expect_eq(occurrences(html, "<th>process 0</th><th>process 1</th></tr>"), 4);
    cr_expect_eq(occurrences(html, "<th>process 2</th>"), 0);
    free(html);
}
