/* Analyzing a run given record by record (analysis.h, pz_analysis_stream) against
 * analyzing its trace (pz_analyze).  A replay (engine.h) both writes its predicted
 * trace and gives the same run to a stream, on a hand-built recording with intervals,
 * call sites, blocking and nonblocking messages and collectives, and on a synthesized
 * ring (scale_replay.h): the two analyses must print the same JSON report, per process,
 * byte for byte; and on the recordings with a Put/fence epoch and with MPI-IO, whose
 * bytes both count.  A
 * stream given its threads' records one thread after the other, the reverse of their
 * time order, must analyze them in time order: a late sender is found with the wait
 * worked out by hand. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "engine.h"
#include "json_report.h"
#include "open.h"
#include "report.h"
#include "scale_archive.h"
#include "scale_replay.h"
#include "scale_run.h"
#include "trace_builder.h"
#include "two_processes.h"

#define MS TB_MS
#define OFFSET MS(1)

static char *top;                       /* this test's temporary directory */
static char err[1024];
static struct pz_machine m;

static void setup(void)
{
    top = tb_tempdir();
    cr_assert_not_null(top, "cannot make a temporary directory");
    pz_machine_defaults(&m);
    m.network = PZ_NET_SWITCH;
    m.procs_per_node = 1;
    m.cpu_scale = 1;
}

static void cleanup(void)
{
    tb_remove(top);
    free(top);
    top = NULL;
}

TestSuite(analysis_stream, .init = setup, .fini = cleanup);

static int give(void *ctx, int th, const struct pz_rec *rec, uint64_t time)
{
    return pz_analysis_stream_record(ctx, th, rec, time);
}

static void done(void *ctx, int th)
{
    pz_analysis_stream_done(ctx, th);
}

/* The JSON report of a, per process, as a string to free. */
/* The analysis of the trace in dir and the one of the stream (closed here) agree. */
static void expect_same_analysis(const char *dir, struct pz_analysis_stream *s)
{
    struct pz_analysis from_trace, in_memory;
    char *a, *b;

    cr_assert_eq(pz_analysis_stream_close(s, &in_memory, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(pz_analyze(dir, &from_trace, err, sizeof(err)), 0, "%s", err);
    a = json_of(&from_trace);
    b = json_of(&in_memory);
    cr_expect_gt(in_memory.messages + in_memory.collectives, 0);
    cr_expect_str_eq(b, a, "in memory:\n%s\nfrom the trace:\n%s", b, a);
    free(a);
    free(b);
    pz_analysis_free(&from_trace);
    pz_analysis_free(&in_memory);
}

static struct pz_analysis_stream *stream_on(const char *path, const char *name)
{
    struct pz_analysis_stream *s;
    struct pz_defs d;

    cr_assert_eq(pz_trace_defs_read(path, &d, err, sizeof(err)), 0, "%s", err);
    s = pz_analysis_stream_open(&d, name, err, sizeof(err));
    cr_assert_not_null(s, "%s", err);
    return s;
}

/* Records the run record writes into top/rec, predicts it on m into the trace
 * top/predicted (its path into out) and into the analysis stream returned. */
static struct pz_analysis_stream *predict_both_ways(void (*record)(const char *dir),
                                                   char *out, size_t len)
{
    struct pz_predict_options o = { .machine = &m };
    struct pz_replay_sink sink = { give, done, NULL };
    struct pz_prediction res;
    char rec[4200];

    snprintf(rec, sizeof(rec), "%s/rec", top);
    snprintf(out, len, "%s/predicted", top);
    record(rec);
    sink.ctx = stream_on(rec, out);
    o.output = out;
    o.sink = &sink;
    cr_assert_eq(pz_predict(rec, &o, &res, err, sizeof(err)), 0, "%s", err);
    return sink.ctx;
}

Test(analysis_stream, a_recorded_run_predicted_is_analyzed_as_its_trace)
{
    char out[4200];
    struct pz_analysis_stream *s = predict_both_ways(tp_record_two, out, sizeof(out));

    expect_same_analysis(out, s);
}

/* The same with a Put/fence epoch: the predicted trace has its put's 96 bytes as
 * process 0's one-sided bytes put, and the analysis in memory must too. */
Test(analysis_stream, a_recorded_run_with_one_sided_records_is_analyzed_as_its_trace)
{
    struct pz_analysis from_trace;
    char out[4200];
    struct pz_analysis_stream *s = predict_both_ways(tp_record_two_with_epoch, out, sizeof(out));

    cr_assert_eq(pz_analyze(out, &from_trace, err, sizeof(err)), 0, "%s", err);
    cr_expect(from_trace.io_rma, "the predicted trace has no one-sided call");
    cr_expect_eq(from_trace.nodes[0].procs[0].rma_put, 96);
    pz_analysis_free(&from_trace);
    expect_same_analysis(out, s);
}

/* The same with MPI-IO: the predicted trace has the recorded operations, so its
 * processes wrote 8 bytes each (MPI_File_write) and process 1 read 32 (MPI_File_iread
 * completed in MPI_Wait), and the analysis in memory must say the same. */
Test(analysis_stream, a_recorded_run_with_io_records_is_analyzed_as_its_trace)
{
    struct pz_analysis from_trace;
    char out[4200];
    struct pz_analysis_stream *s = predict_both_ways(tp_record_two_with_io, out, sizeof(out));

    cr_assert_eq(pz_analyze(out, &from_trace, err, sizeof(err)), 0, "%s", err);
    cr_expect(from_trace.io_rma, "the predicted trace has no I/O call");
    cr_expect_eq(from_trace.nodes[0].procs[0].io_written, 8);
    cr_expect_eq(from_trace.nodes[0].procs[0].io_read, 0);
    cr_expect_eq(from_trace.nodes[0].procs[1].io_written, 8);
    cr_expect_eq(from_trace.nodes[0].procs[1].io_read, 32);
    pz_analysis_free(&from_trace);
    expect_same_analysis(out, s);
}

/* A ring recorded at n processes: p sends to p + 1 and receives from p - 1, around. */
static void record_ring(const char *dir, int n)
{
    struct tb *b = tb_open(dir, n);

    cr_assert_not_null(b, "cannot open a trace in %s", dir);
    for (int p = 0; p < n; p++) {
        tb_send_call(b, p, "MPI_Send", MS(1), MS(2), TB_WORLD, (uint32_t)(p + 1) % (uint32_t)n, 0);
        tb_recv_call(b, p, "MPI_Recv", MS(3), MS(4), TB_WORLD,
                     (uint32_t)(p + n - 1) % (uint32_t)n, 0);
        tb_collective_call(b, p, "MPI_Allreduce", MS(5 + p), MS(20), OTF2_COLLECTIVE_OP_ALLREDUCE,
                           TB_WORLD, TB_NO_ROOT);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

Test(analysis_stream, a_synthesized_run_predicted_is_analyzed_as_its_trace)
{
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3];
    struct pz_predict_options o = { .machine = &m };
    struct pz_replay_sink sink = { give, done, NULL };
    struct pz_prediction res;
    struct pz_scale_program *prog;
    struct pz_scale_synth *s;
    struct pz_defs d;
    char dir[4200], out[4200];

    memset(runs, 0, sizeof(runs));
    for (int i = 0; i < 3; i++) {
        snprintf(dir, sizeof(dir), "%s/ring%d", top, i + 3);
        record_ring(dir, i + 3);
        cr_assert_eq(pz_scale_run_read(dir, &runs[i], err, sizeof(err)), 0, "%s", err);
        list[i] = &runs[i];
    }
    prog = pz_scale_program_build(list, 3, 0, err, sizeof(err));
    cr_assert_not_null(prog, "%s", err);
    s = pz_scale_synth_new(prog, 16, err, sizeof(err));
    cr_assert_not_null(s, "%s", err);
    cr_assert_eq(pz_scale_synth_defs(s, &d, err, sizeof(err)), 0, "%s", err);
    snprintf(out, sizeof(out), "%s/predicted", top);
    sink.ctx = pz_analysis_stream_open(&d, out, err, sizeof(err));
    cr_assert_not_null(sink.ctx, "%s", err);
    o.output = out;
    o.sink = &sink;
    cr_assert_eq(pz_scale_predict(s, &o, &res, err, sizeof(err)), 0, "%s", err);
    expect_same_analysis(out, sink.ctx);
    pz_scale_synth_free(s);
    pz_scale_program_free(prog);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
}

/* Gives record kind of region (or message peer) of thread th at ms. */
static void put(struct pz_analysis_stream *s, int th, uint8_t kind, uint32_t region,
                double ms)
{
    struct pz_rec r = { .kind = kind, .region = region, .comm = 0, .peer = (uint32_t)(1 - th),
                        .tag = 0, .bytes = 8, .request = PZ_NONE64, .callsite = PZ_NONE32,
                        .send_list = PZ_NONE32, .recv_list = PZ_NONE32, .cpu = PZ_NONE64 };

    cr_assert_eq(pz_analysis_stream_record(s, th, &r, OFFSET + MS(ms)), 0);
}

/* Thread 1 enters MPI_Recv at 1 ms and leaves at 6 ms; thread 0 enters MPI_Send at 5 ms
 * (its MpiSend then) and leaves at 5.5 ms.  Given thread 1's records first, then thread
 * 0's, the analysis still sees the send before the receive ends: one message, and thread
 * 1 waited from its enter to the send's, 5 - 1 = 4 ms, late sender. */
Test(analysis_stream, records_given_out_of_time_order_are_analyzed_in_it)
{
    struct pz_analysis_stream *s;
    struct pz_analysis a;
    uint32_t send, recv;
    char rec[4200];

    snprintf(rec, sizeof(rec), "%s/rec", top);
    {
        struct tb *b = tb_open(rec, 2);

        cr_assert_not_null(b);
        tb_set_offset(b, OFFSET);
        send = tb_mpi(b, "MPI_Send");
        recv = tb_mpi(b, "MPI_Recv");
        tb_send_call(b, 0, "MPI_Send", MS(0), MS(1), TB_WORLD, 1, 0);   /* defines the world */
        tb_recv_call(b, 1, "MPI_Recv", MS(0), MS(1), TB_WORLD, 0, 0);
        cr_assert_eq(tb_close(b), 0);
    }
    s = stream_on(rec, "records");
    put(s, 1, PZ_REC_ENTER, recv, 1);
    put(s, 1, PZ_REC_RECV, 0, 6);
    put(s, 1, PZ_REC_LEAVE, recv, 6);
    pz_analysis_stream_done(s, 1);
    put(s, 0, PZ_REC_ENTER, send, 5);
    put(s, 0, PZ_REC_SEND, 0, 5);
    put(s, 0, PZ_REC_LEAVE, send, 5.5);
    pz_analysis_stream_done(s, 0);
    cr_assert_eq(pz_analysis_stream_close(s, &a, err, sizeof(err)), 0, "%s", err);
    cr_expect_eq(a.messages, 1);
    cr_expect_float_eq(a.nodes[0].procs[1].late_sender, 4e-3, 1e-12);
    cr_expect_float_eq(a.nodes[0].procs[0].late_sender, 0, 1e-12);
    pz_analysis_free(&a);
}

/* A record earlier than its thread's last one breaks the contract: refused, naming
 * the run. */
Test(analysis_stream, a_thread_going_back_in_time_is_refused)
{
    struct pz_analysis_stream *s;
    struct pz_analysis a;
    char rec[4200];

    snprintf(rec, sizeof(rec), "%s/rec", top);
    tp_record_two(rec);
    s = stream_on(rec, "the run");
    put(s, 0, PZ_REC_ENTER, 0, 3);
    cr_assert_eq(pz_analysis_stream_record(s, 0, &(struct pz_rec){ .kind = PZ_REC_LEAVE },
                                           OFFSET + MS(2)), -1);
    cr_expect_eq(pz_analysis_stream_close(s, &a, err, sizeof(err)), -1);
    cr_expect(strstr(err, "the run: thread 0: a record out of time order") == err, "%s", err);
    cr_expect_eq(a.nnodes, 0);
}

/* Thread 0 calls MPI_Send 3000 times, 1 ms each, every 2 ms: 6000 records, more than
 * the blocks in flight to the analysis's thread hold (8 of 512), so the giver waits for
 * room; then a record 1 ms before its last is refused at once, not some blocks later,
 * every record after it too, and the close reports it. */
Test(analysis_stream, a_refusal_after_many_records_is_at_once)
{
    struct pz_analysis_stream *s;
    struct pz_analysis a;
    uint32_t send;
    char rec[4200];

    snprintf(rec, sizeof(rec), "%s/rec", top);
    {
        struct tb *b = tb_open(rec, 2);

        cr_assert_not_null(b);
        tb_set_offset(b, OFFSET);
        send = tb_mpi(b, "MPI_Send");
        tb_send_call(b, 0, "MPI_Send", MS(0), MS(1), TB_WORLD, 1, 0);
        tb_recv_call(b, 1, "MPI_Recv", MS(0), MS(1), TB_WORLD, 0, 0);
        cr_assert_eq(tb_close(b), 0);
    }
    s = stream_on(rec, "the long run");
    for (int i = 0; i < 3000; i++) {
        put(s, 0, PZ_REC_ENTER, send, 2.0 * i);
        put(s, 0, PZ_REC_LEAVE, send, 2.0 * i + 1);
    }
    cr_assert_eq(pz_analysis_stream_record(s, 0, &(struct pz_rec){ .kind = PZ_REC_ENTER },
                                           OFFSET + MS(2.0 * 2999)), -1);
    cr_expect_eq(pz_analysis_stream_record(s, 1, &(struct pz_rec){ .kind = PZ_REC_ENTER },
                                           OFFSET + MS(1)), -1, "the failure holds");
    cr_expect_eq(pz_analysis_stream_close(s, &a, err, sizeof(err)), -1);
    cr_expect(strstr(err, "the long run: thread 0: a record out of time order") == err, "%s",
              err);
    cr_expect_eq(a.nnodes, 0);
}
