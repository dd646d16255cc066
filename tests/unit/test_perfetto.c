/* The Perfetto export (export/perfetto.h) of a trace built by hand, compared event by
 * event with the JSON written here from docs/perfetto.md, not copied from the
 * exporter's output:
 *
 *   - one event a line: the processes' and threads' names first, then the events in
 *     time order, a message's flow once its second end is read;
 *   - ts and dur in microseconds since the clock's offset, three decimals;
 *   - pid is rank + 1, the calls of thread k are tid 2k + 1, its intervals 2k + 2;
 *   - a flow's end lies inside its call: a receive recorded at the call's leave is
 *     put 1 ns before it.
 *
 * The run (ns; the clock's offset is 1 ms, so that 2,000,500 ns is ts 1000.500):
 *   rank 0: MPI_Init 1,000,000-2,000,000; interval 1 from 2,000,500 to 2,003,000, around
 *           MPI_Send to 1, tag 7, 2,001,000-2,001,250 (the send at its enter); MPI_Isend
 *           to 1, tag 9, 16 B, request 5, 2,004,000-2,004,100; MPI_Wait of it
 *           2,005,000-2,005,200; MPI_Barrier 2,007,000-2,007,300; the program's region
 *           "compute" 2,008,000-2,009,000.
 *   rank 1: MPI_Init 1,000,000-2,000,000; MPI_Recv from 0, tag 7, 2,000,800-2,001,600
 *           (the receive at its leave); MPI_Irecv, request 7, 2,004,050-2,004,080;
 *           MPI_Ibarrier, request 8, 2,004,090-2,004,095; MPI_Waitall 2,006,000-
 *           2,006,500 completing the receive (from 0, tag 9, 16 B) at 2,006,400 and the
 *           barrier at 2,006,500; MPI_Barrier 2,007,100-2,007,300. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <otf2/otf2.h>

#include "calls_gen.h"
#include "perfetto.h"
#include "trace_builder.h"

static char *top;
static char rec[4096], err[1024];

static void setup(void)
{
    top = tb_tempdir();
    cr_assert_not_null(top, "cannot make a temporary directory");
    snprintf(rec, sizeof(rec), "%s/rec", top);
    err[0] = '\0';
}

static void cleanup(void)
{
    tb_remove(top);
    free(top);
}

TestSuite(perfetto, .init = setup, .fini = cleanup);

static void build_run(void)
{
    struct tb *b = tb_open(rec, 2);
    uint32_t interval = tb_interval(b, 1, "x.c", 10), compute = tb_user(b, "compute");
    uint32_t isend = tb_mpi(b, "MPI_Isend"), irecv = tb_mpi(b, "MPI_Irecv");
    uint32_t ibarrier = tb_mpi(b, "MPI_Ibarrier"), wait = tb_mpi(b, "MPI_Wait");
    uint32_t waitall = tb_mpi(b, "MPI_Waitall");

    cr_assert_not_null(b);
    tb_set_offset(b, 1000000);
    tb_call(b, 0, "MPI_Init", 1000000, 2000000);
    tb_call(b, 1, "MPI_Init", 1000000, 2000000);
    tb_enter(b, 0, 2000500, interval);
    tb_send_call(b, 0, "MPI_Send", 2001000, 2001250, TB_WORLD, 1, 7);
    tb_leave(b, 0, 2003000, interval);
    tb_recv_call(b, 1, "MPI_Recv", 2000800, 2001600, TB_WORLD, 0, 7);
    tb_enter(b, 0, 2004000, isend);
    tb_mpi_isend(b, 0, 2004000, TB_WORLD, 1, 9, 16, 5);
    tb_leave(b, 0, 2004100, isend);
    tb_enter(b, 0, 2005000, wait);
    tb_mpi_isend_complete(b, 0, 2005200, 5);
    tb_leave(b, 0, 2005200, wait);
    tb_enter(b, 1, 2004050, irecv);
    tb_mpi_irecv_request(b, 1, 2004050, 7);
    tb_leave(b, 1, 2004080, irecv);
    tb_enter(b, 1, 2004090, ibarrier);
    tb_nbc_request(b, 1, 2004090, 8);
    tb_leave(b, 1, 2004095, ibarrier);
    tb_enter(b, 1, 2006000, waitall);
    tb_mpi_irecv(b, 1, 2006400, TB_WORLD, 0, 9, 16, 7);
    tb_nbc_complete(b, 1, 2006500, OTF2_COLLECTIVE_OP_BARRIER, TB_WORLD, TB_NO_ROOT, 0, 0, 8);
    tb_leave(b, 1, 2006500, waitall);
    tb_collective_call(b, 0, "MPI_Barrier", 2007000, 2007300, OTF2_COLLECTIVE_OP_BARRIER,
                       TB_WORLD, TB_NO_ROOT);
    tb_collective_call(b, 1, "MPI_Barrier", 2007100, 2007300, OTF2_COLLECTIVE_OP_BARRIER,
                       TB_WORLD, TB_NO_ROOT);
    tb_enter(b, 0, 2008000, compute);
    tb_leave(b, 0, 2009000, compute);
    cr_assert_eq(tb_close(b), 0);
}

/* The events of the run, in the order written.  The metadata, */
#define META_ROWS                                                                          \
    "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"ts\":0.000,\"name\":\"process_name\",\"args\":{\"name\":\"rank 0\"}}", \
    "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"ts\":0.000,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":0}}", \
    "{\"ph\":\"M\",\"pid\":2,\"tid\":0,\"ts\":0.000,\"name\":\"process_name\",\"args\":{\"name\":\"rank 1\"}}", \
    "{\"ph\":\"M\",\"pid\":2,\"tid\":0,\"ts\":0.000,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":1}}", \
    "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"ts\":0.000,\"name\":\"thread_name\",\"args\":{\"name\":\"thread 0\"}}", \
    "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"ts\":0.000,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":1}}", \
    "{\"ph\":\"M\",\"pid\":2,\"tid\":1,\"ts\":0.000,\"name\":\"thread_name\",\"args\":{\"name\":\"thread 0\"}}", \
    "{\"ph\":\"M\",\"pid\":2,\"tid\":1,\"ts\":0.000,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":1}}"

/* MPI_Init of both from ts (1,000,000 - 1,000,000) / 1000 = 0 for 1000 us; rank 0's
 * interval at (2,000,500 - 1,000,000) / 1000 = 1000.500, its track named first; */
#define BEGIN_ROWS                                                                         \
    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0.000,\"dur\":1000.000,\"name\":\"MPI_Init\",\"cat\":\"other MPI\",\"cname\":\"grey\"}", \
    "{\"ph\":\"X\",\"pid\":2,\"tid\":1,\"ts\":0.000,\"dur\":1000.000,\"name\":\"MPI_Init\",\"cat\":\"other MPI\",\"cname\":\"grey\"}", \
    "{\"ph\":\"M\",\"pid\":1,\"tid\":2,\"ts\":0.000,\"name\":\"thread_name\",\"args\":{\"name\":\"intervals of thread 0\"}}", \
    "{\"ph\":\"M\",\"pid\":1,\"tid\":2,\"ts\":0.000,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":0}}", \
    "{\"ph\":\"B\",\"pid\":1,\"tid\":2,\"ts\":1000.500,\"name\":\"interval 1 at x.c:10\",\"cat\":\"interval\",\"args\":{\"interval\":1}}"

/* then the receive (entered at 1000.800, before the send at 1001.000) for 0.800 us; the
 * send for 0.250 us, and the message from the send at 1001.000 to the receive's record
 * at its leave 1001.599, put at 1001.600; the interval's end at 1003.000; */
#define MESSAGE_ROWS                                                                       \
    "{\"ph\":\"X\",\"pid\":2,\"tid\":1,\"ts\":1000.800,\"dur\":0.800,\"name\":\"MPI_Recv\",\"cat\":\"blocking receive or wait\",\"cname\":\"light_memory_dump\",\"args\":{\"op\":\"receive\",\"peer\":0,\"peer_in_comm\":0,\"tag\":7,\"bytes\":8,\"comm\":0}}", \
    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1001.000,\"dur\":0.250,\"name\":\"MPI_Send\",\"cat\":\"blocking send\",\"cname\":\"good\",\"args\":{\"op\":\"send\",\"peer\":1,\"peer_in_comm\":1,\"tag\":7,\"bytes\":8,\"comm\":0}}", \
    "{\"ph\":\"s\",\"pid\":1,\"tid\":1,\"ts\":1001.000,\"name\":\"message\",\"cat\":\"message\",\"id\":1}", \
    "{\"ph\":\"f\",\"pid\":2,\"tid\":1,\"ts\":1001.599,\"bp\":\"e\",\"name\":\"message\",\"cat\":\"message\",\"id\":1}", \
    "{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":1003.000,\"name\":\"interval 1 at x.c:10\"}"

/* the nonblocking calls: Isend at 1004.000 for 0.100, Irecv at 1004.050 for 0.030,
 * Ibarrier at 1004.090 for 0.005, rank 0's Wait at 1005.000 for 0.200, rank 1's
 * Waitall at 1006.000 for 0.500 with two operations, then the message from the Isend's
 * record at 1004.000 to the receive's at 1006.400 (inside the Waitall: as it is); */
#define NONBLOCKING_ROWS                                                                   \
    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1004.000,\"dur\":0.100,\"name\":\"MPI_Isend\",\"cat\":\"nonblocking send\",\"cname\":\"thread_state_running\",\"args\":{\"op\":\"send\",\"peer\":1,\"peer_in_comm\":1,\"tag\":9,\"bytes\":16,\"comm\":0,\"request\":5}}", \
    "{\"ph\":\"X\",\"pid\":2,\"tid\":1,\"ts\":1004.050,\"dur\":0.030,\"name\":\"MPI_Irecv\",\"cat\":\"nonblocking receive or test\",\"cname\":\"thread_state_runnable\",\"args\":{\"op\":\"receive posted\",\"request\":7}}", \
    "{\"ph\":\"X\",\"pid\":2,\"tid\":1,\"ts\":1004.090,\"dur\":0.005,\"name\":\"MPI_Ibarrier\",\"cat\":\"collective\",\"cname\":\"black\",\"args\":{\"op\":\"collective posted\",\"request\":8}}", \
    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1005.000,\"dur\":0.200,\"name\":\"MPI_Wait\",\"cat\":\"blocking receive or wait\",\"cname\":\"light_memory_dump\",\"args\":{\"op\":\"send complete\",\"request\":5}}", \
    "{\"ph\":\"X\",\"pid\":2,\"tid\":1,\"ts\":1006.000,\"dur\":0.500,\"name\":\"MPI_Waitall\",\"cat\":\"blocking receive or wait\",\"cname\":\"light_memory_dump\",\"args\":{\"ops\":[{\"op\":\"receive\",\"peer\":0,\"peer_in_comm\":0,\"tag\":9,\"bytes\":16,\"comm\":0,\"request\":7},{\"op\":\"collective\",\"comm\":0,\"sent\":0,\"received\":0,\"request\":8}]}}", \
    "{\"ph\":\"s\",\"pid\":1,\"tid\":1,\"ts\":1004.000,\"name\":\"message\",\"cat\":\"message\",\"id\":2}", \
    "{\"ph\":\"f\",\"pid\":2,\"tid\":1,\"ts\":1006.400,\"bp\":\"e\",\"name\":\"message\",\"cat\":\"message\",\"id\":2}"

/* the barriers at 1007.000 for 0.300 and 1007.100 for 0.200 (8 B each way, no root);
 * the program's region from 1008.000 to 1009.000 on the calls' track. */
#define END_ROWS                                                                           \
    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1007.000,\"dur\":0.300,\"name\":\"MPI_Barrier\",\"cat\":\"collective\",\"cname\":\"black\",\"args\":{\"op\":\"collective\",\"comm\":0,\"sent\":8,\"received\":8}}", \
    "{\"ph\":\"X\",\"pid\":2,\"tid\":1,\"ts\":1007.100,\"dur\":0.200,\"name\":\"MPI_Barrier\",\"cat\":\"collective\",\"cname\":\"black\",\"args\":{\"op\":\"collective\",\"comm\":0,\"sent\":8,\"received\":8}}", \
    "{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":1008.000,\"name\":\"compute\",\"cat\":\"user code\",\"cname\":\"thread_state_uninterruptible\"}", \
    "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":1009.000,\"name\":\"compute\"}"

/* The text of a file whose events are rows[0..n-1] and whose metadata is other. */
static char *file_text(const char *const *rows, size_t n, const char *other)
{
    size_t len = strlen(other) + 64;
    char *text;

    for (size_t i = 0; i < n; i++)
        len += strlen(rows[i]) + 2;
    text = calloc(1, len);
    strcpy(text, "{\"traceEvents\":[\n");
    for (size_t i = 0; i < n; i++) {
        strcat(text, rows[i]);
        strcat(text, i + 1 < n ? ",\n" : "");
    }
    strcat(text, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":");
    strcat(text, other);
    strcat(text, "\n");
    return text;
}

/* The run exported with limit (0: none) into a string (free it). */
static char *exported(uint64_t limit, struct pz_perfetto_summary *s)
{
    struct pz_perfetto_options o = { .source = "RUN", .limit = limit };
    struct pz_trace_in *in = pz_trace_in_open(rec, err, sizeof(err));
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    cr_assert_not_null(in, "%s", err);
    cr_assert_not_null(f);
    cr_assert_eq(pz_perfetto_write(f, "memory", in, &o, s, err, sizeof(err)), 0, "%s", err);
    fclose(f);
    pz_trace_in_close(in);
    return text;
}

/* got and want line by line, so that a difference names its event. */
static void expect_lines(const char *got, const char *want)
{
    const char *g = got, *w = want;
    int line = 1;

    while (*g && *w) {
        size_t gl = strcspn(g, "\n"), wl = strcspn(w, "\n");

        cr_expect(gl == wl && !strncmp(g, w, gl), "line %d:\n  got  %.*s\n  want %.*s", line,
                  (int)gl, g, (int)wl, w);
        g += gl + (g[gl] == '\n');
        w += wl + (w[wl] == '\n');
        line++;
    }
    cr_expect(!*g && !*w, "line %d: got %s, want %s", line, *g ? g : "(end)", *w ? w : "(end)");
}

/* 11 calls (5 of rank 0, 6 of rank 1) and 2 messages, all matched. */
Test(perfetto, every_event)
{
    static const char *const rows[] = { META_ROWS, BEGIN_ROWS, MESSAGE_ROWS, NONBLOCKING_ROWS,
                                        END_ROWS };
    struct pz_perfetto_summary s;
    char *want, *got;

    build_run();
    got = exported(0, &s);
    want = file_text(rows, sizeof(rows) / sizeof(*rows),
                     "{\"producer\":\"prognoz " PACKAGE_VERSION "\",\"trace\":\"RUN\",\"processes\""
                     ":2,\"threads\":2,\"calls\":11,\"messages\":2,\"unmatched_messages\":0}}");
    expect_lines(got, want);
    cr_expect_eq(s.calls, 11);
    cr_expect_eq(s.messages, 2);
    cr_expect_eq(s.cut, 0);
    free(got);
    free(want);
}

/* A limit of exactly what is written up to rank 0's interval: the next call, the
 * receive at 1000.800, finds it reached.  The interval ends with the last event of its
 * thread, the interval's begin at 1000.500 (after MPI_Init's end at 1000.000); an
 * instant says where the run is cut.  Left out: the 9 calls from the receive on (11 - 2
 * MPI_Init) and both messages; the program's region after the cut is not written. */
Test(perfetto, limit_cuts_at_a_call)
{
    static const char *const head[] = { META_ROWS, BEGIN_ROWS };
    const size_t nhead = sizeof(head) / sizeof(*head);
    const char *rows[sizeof(head) / sizeof(*head) + 2];
    struct pz_perfetto_summary s;
    char *prefix = file_text(head, nhead, "");
    uint64_t limit = strlen(prefix) - strlen("\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":\n");
    char *want, *got, *other, *instant;

    build_run();
    got = exported(limit, &s);
    cr_assert_gt(asprintf(&instant, "{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"ts\":1000.800,\"s\":"
                          "\"g\",\"name\":\"prognoz export: the size limit of %llu bytes is "
                          "reached; the rest of the run is left out\"}",
                          (unsigned long long)limit), 0);
    cr_assert_gt(asprintf(&other, "{\"producer\":\"prognoz " PACKAGE_VERSION "\",\"trace\":"
                          "\"RUN\",\"processes\":2,\"threads\":2,\"calls\":2,\"messages\":0,"
                          "\"unmatched_messages\":0,\"limit_bytes\":%llu,\"left_out\":"
                          "{\"after_us\":1000.800,\"calls\":9,\"messages\":2,\"why\":\"the "
                          "file reached the size limit\"}}}", (unsigned long long)limit), 0);
    memcpy(rows, head, sizeof(head));
    rows[nhead] = "{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":1000.500,\"name\":"
                  "\"interval 1 at x.c:10\"}";
    rows[nhead + 1] = instant;
    want = file_text(rows, nhead + 2, other);
    expect_lines(got, want);
    cr_expect_eq(s.cut, 1);
    cr_expect_eq(s.calls, 2);
    cr_expect_eq(s.calls_left_out, 9);
    cr_expect_eq(s.messages_left_out, 2);
    free(got);
    free(want);
    free(other);
    free(instant);
    free(prefix);
}

/* A call longer than the records read at a time (8): its MPI_Waitall, the first record of
 * the thread, completes 12 sends, 14 records, so that finding its end reads more and
 * moves the records read before, its Enter among them.  Its time is the Enter's, at
 * (2,000,000 - 1,000,000) / 1000 = 1000.000 us, for 0.500 us: 12 completions, requests
 * 1 to 12. */
Test(perfetto, a_call_longer_than_a_read)
{
    struct tb *b = tb_open(rec, 1);
    uint32_t waitall = tb_mpi(b, "MPI_Waitall");
    struct pz_perfetto_summary s;
    char *got;

    cr_assert_not_null(b);
    tb_set_offset(b, 1000000);
    tb_enter(b, 0, 2000000, waitall);
    for (uint64_t req = 1; req <= 12; req++)
        tb_mpi_isend_complete(b, 0, 2000000 + 10 * req, req);
    tb_leave(b, 0, 2000500, waitall);
    cr_assert_eq(tb_close(b), 0);
    got = exported(0, &s);
    cr_expect(strstr(got, "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1000.000,\"dur\":0.500,"
                          "\"name\":\"MPI_Waitall\"") != NULL, "%s", got);
    cr_expect(strstr(got, "{\"op\":\"send complete\",\"request\":12}") != NULL, "%s", got);
    cr_expect_eq(s.calls, 1);
    free(got);
}

/* Functions and their classes (MPI_Start alone: the export looks at what it starts). */
static const struct {
    const char *name;
    enum pz_perfetto_class c;
} classes[] = {
    { "MPI_Send", PZ_PERFETTO_SEND }, { "MPI_Ssend", PZ_PERFETTO_SEND },
    { "MPI_Isend", PZ_PERFETTO_ISEND }, { "MPI_Ibsend", PZ_PERFETTO_ISEND },
    { "MPI_Recv", PZ_PERFETTO_RECV }, { "MPI_Sendrecv", PZ_PERFETTO_RECV },
    { "MPI_Wait", PZ_PERFETTO_RECV }, { "MPI_Waitall", PZ_PERFETTO_RECV },
    { "MPI_Probe", PZ_PERFETTO_RECV }, { "MPI_Mrecv", PZ_PERFETTO_RECV },
    { "MPI_Irecv", PZ_PERFETTO_IRECV }, { "MPI_Test", PZ_PERFETTO_IRECV },
    { "MPI_Testsome", PZ_PERFETTO_IRECV }, { "MPI_Iprobe", PZ_PERFETTO_IRECV },
    { "MPI_Improbe", PZ_PERFETTO_IRECV }, { "MPI_Imrecv", PZ_PERFETTO_IRECV },
    { "MPI_Barrier", PZ_PERFETTO_COLLECTIVE }, { "MPI_Iallreduce", PZ_PERFETTO_COLLECTIVE },
    { "MPI_Init", PZ_PERFETTO_OTHER }, { "MPI_Comm_split", PZ_PERFETTO_OTHER },
    { "MPI_Start", PZ_PERFETTO_OTHER }, { "MPI_Send_init", PZ_PERFETTO_OTHER },
};

/* The classes of 003's appendix 2, function by function. */
Test(perfetto, classes_of_functions)
{
    for (size_t i = 0; i < sizeof(classes) / sizeof(*classes); i++) {
        struct pz_region_info r = { .name = classes[i].name, .kind = PZ_REGION_MPI, .call = -1 };

        for (int c = 0; c < PZ_NCALLS; c++)
            if (!strcmp(pz_calls[c].name, classes[i].name))
                r.call = c;
        cr_assert_geq(r.call, 0, "%s is not in the table", classes[i].name);
        cr_expect_eq(pz_perfetto_class(&r), classes[i].c, "%s", classes[i].name);
    }
    {
        struct pz_region_info unknown = { .name = "MPI_Win_fence", .kind = PZ_REGION_MPI,
                                          .call = -1 };

        cr_expect_eq(pz_perfetto_class(&unknown), PZ_PERFETTO_OTHER);
    }
}
