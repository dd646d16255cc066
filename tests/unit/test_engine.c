/* The replay engine (replay/engine.h) on traces built by hand (trace_builder.h):
 * every expected time below is worked out from the engine's rules and the model's
 * formulas, not copied from its output.
 *
 *   - computation between two MPI calls (Leave to next Enter) takes its recorded time
 *     x cpu_scale (with compute_cpu, x the CPU share prognoz:cpu_time gives);
 *   - a call with no message or collective events takes its recorded duration x
 *     cpu_scale; a call with communication posts at its start and ends when what it
 *     waits for completes; Isend/Irecv return at once;
 *   - Hockney cost on a switch: latency + bytes / bandwidth per message, a control
 *     message (RTS, CTS) has no payload; eager up to eager_threshold (the send ends at
 *     its post), rendezvous above (RTS, CTS when the receive is posted, data);
 *   - with overheads, a send takes its sender's before its message leaves (inside the
 *     Isend), a receive its receiver's when the call that completes it has the data;
 *   - threads start at their recorded first event, except that MPI_Init takes no time:
 *     every thread whose first record is the Enter of MPI_Init enters (and leaves) it
 *     at the latest such Enter, and a thread that starts after its process left
 *     MPI_Init starts as long after that as in the recording; BufferFlush spans are
 *     removed;
 *   - an MPI-IO call takes its recorded duration x io_scale, the wait of a nonblocking
 *     operation lasts until its begin's predicted time plus its recorded duration x
 *     io_scale; the predicted trace keeps the I/O records at their calls' times.
 *
 * Times in the traces are in ns (TB_MS); times in the prediction in seconds since the
 * clock's offset.  The predicted trace (written with o.output) is read back with the
 * predictor's own reader to get each process's times; it holds whole ns, so its times
 * are compared to 1e-9 s. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <otf2/otf2.h>

#include "analysis.h"
#include "engine.h"
#include "scale_archive.h"
#include "scale_replay.h"
#include "scale_run.h"
#include "trace_builder.h"
#include "trace_in.h"

#define MS TB_MS                        /* ms in ns, for the traces */
#define SEC(ms) ((ms) * 1e-3)           /* ms in s, for the expectations */
#define EPS 1e-9
#define MAXP 8

static char *top;                       /* this test's temporary directory */
static char rec[4096];                  /* the recorded trace */
static char err[1024];
static struct pz_machine m;
static struct pz_prediction res;
static int outputs;                     /* predicted traces written so far */

static void setup(void)
{
    top = tb_tempdir();
    cr_assert_not_null(top, "cannot make a temporary directory");
    snprintf(rec, sizeof(rec), "%s/rec", top);
    pz_machine_defaults(&m);
    m.network = PZ_NET_SWITCH;
    m.procs_per_node = 1;
    m.cpu_scale = 1;
    outputs = 0;
    err[0] = '\0';
}

static void cleanup(void)
{
    tb_remove(top);
    free(top);
    top = NULL;
}

TestSuite(engine, .init = setup, .fini = cleanup);

/* Latency 0 and a bandwidth of 1e30 B/s: communication costs nothing (8 B take 8e-30 s,
 * below the precision of any time here), every message is eager. */
static void free_network(void)
{
    m.latency = 0;
    m.bandwidth = 1e30;
    m.eager_threshold = 1048576;
}

static struct tb *trace(int nprocs)
{
    struct tb *b = tb_open(rec, nprocs);

    cr_assert_not_null(b, "cannot open a trace in %s", rec);
    return b;
}

static void close_trace(struct tb *b)
{
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* Predicts rec on m; with out set, writes the predicted trace into a new directory
 * whose name goes to out.  Returns pz_predict's result (err holds its message). */
static int predict_opt(int compute_cpu, char out[4096])
{
    struct pz_predict_options o = { .machine = &m, .compute_cpu = compute_cpu };

    if (out) {
        snprintf(out, 4096, "%s/pred%d", top, outputs++);
        o.output = out;
    }
    err[0] = '\0';
    return pz_predict(rec, &o, &res, err, sizeof(err));
}

/* Predicts rec, writing the trace into out, and requires success. */
static void predict(char out[4096])
{
    int rc = predict_opt(0, out);

    cr_assert_eq(rc, 0, "pz_predict failed: %s", err);
}

static void near(double got, double want, const char *what)
{
    cr_assert_float_eq(got, want, EPS, "%s: %.9f s, expected %.9f s", what, got, want);
}

/* The predicted times of thread `thread` of process p in the trace at dir: its first
 * and last records, and the Leave of the nth (0, 1 ...) call of the region named name
 * (-1 if none). */
struct times {
    double first, last, leave;
};

static struct times thread_times(const char *dir, int p, int thread, const char *name,
                                 int nth)
{
    struct pz_trace_in *t = pz_trace_in_open(dir, err, sizeof(err));
    struct times out = { -1, -1, -1 };
    const struct pz_rec *r;
    double res_, off;
    int seen = 0, th;

    cr_assert_not_null(t, "cannot read the predicted trace: %s", err);
    cr_assert_lt(p, pz_trace_in_nprocs(t));
    th = pz_trace_in_first(t, p) + thread;
    cr_assert(th < pz_trace_in_nthreads(t) && pz_trace_in_rank(t, th) == p,
              "process %d has no thread %d", p, thread);
    res_ = pz_trace_in_resolution(t);
    off = (double)pz_trace_in_offset(t);
    for (; (r = pz_trace_in_peek(t, th, 0)); pz_trace_in_consume(t, th, 1)) {
        double at = ((double)r->time - off) / res_;

        if (out.first < 0)
            out.first = at;
        out.last = at;
        if (name && r->kind == PZ_REC_LEAVE &&
            !strcmp(pz_trace_in_region(t, r->region)->name, name) && seen++ == nth)
            out.leave = at;
    }
    cr_assert_null(pz_trace_in_error(t), "reading the predicted trace: %s",
                   pz_trace_in_error(t));
    pz_trace_in_close(t);
    return out;
}

/* The same of process p's first (or only) thread. */
static struct times times_of(const char *dir, int p, const char *name, int nth)
{
    return thread_times(dir, p, 0, name, nth);
}

static double leave_of(const char *dir, int p, const char *name)
{
    double at = times_of(dir, p, name, 0).leave;

    cr_assert_geq(at, 0, "process %d has no Leave of %s", p, name);
    return at;
}

static double end_of(const char *dir, int p)
{
    return times_of(dir, p, NULL, 0).last;
}

/* --- 1. computation only */

/* Two processes (ms):
 *   rank 0: Init [0, 1]  compute 3  Send(8 B to 1) [4, 4.5]  compute 1.5  Finalize [6, 6.2]
 *   rank 1: Init [0, 2]  compute 1  Recv(from 0) [3, 4.6]    compute 5    Finalize [9.6, 10]
 * On a free network with cpu_scale s, calls without communication other than Init take
 * s x their duration, computations s x theirs; both enter Init at 0, the latest Enter
 * of Init, and leave it at once:
 *   rank 0: Init [0, 0], Send posted at 0 + 3s = 3s, eager: ends at once (3s);
 *           Finalize from 3s + 1.5s = 4.5s to 4.7s.
 *   rank 1: Init [0, 0], Recv posted at 1s, data arrives at 3s (+0): ends 3s;
 *           Finalize from 3s + 5s = 8s to 8.4s.
 * The end, 8.4s, is the compute-only critical path: rank 0 up to its send (3s),
 * then rank 1's computation and Finalize (5s + 0.4s). */
static void compute_only_trace(void)
{
    struct tb *b = trace(2);

    tb_call(b, 0, "MPI_Init", 0, MS(1));
    tb_send_call(b, 0, "MPI_Send", MS(4), MS(4.5), TB_WORLD, 1, 0);
    tb_call(b, 0, "MPI_Finalize", MS(6), MS(6.2));
    tb_call(b, 1, "MPI_Init", 0, MS(2));
    tb_recv_call(b, 1, "MPI_Recv", MS(3), MS(4.6), TB_WORLD, 0, 0);
    tb_call(b, 1, "MPI_Finalize", MS(9.6), MS(10));
    close_trace(b);
}

static void check_compute_only(double s)
{
    char out[4096];

    compute_only_trace();
    free_network();
    m.cpu_scale = s;
    predict(out);
    near(res.end, SEC(8.4 * s), "the end");
    cr_assert_eq(res.nprocs, 2);
    cr_assert_eq(res.calls, 6, "6 MPI calls replayed, not %llu",
                 (unsigned long long)res.calls);
    near(leave_of(out, 0, "MPI_Init"), 0, "rank 0's Init");
    near(leave_of(out, 0, "MPI_Send"), SEC(3 * s), "rank 0's Send");
    near(end_of(out, 0), SEC(4.7 * s), "rank 0's end");
    near(leave_of(out, 1, "MPI_Recv"), SEC(3 * s), "rank 1's Recv");
    near(end_of(out, 1), SEC(8.4 * s), "rank 1's end");
}

Test(engine, free_network_gives_the_compute_only_critical_path)
{
    check_compute_only(1.0);
}

Test(engine, cpu_scale_half_halves_every_computation)
{
    check_compute_only(0.5);
}

/* Processes enter MPI_Init at different times and, waiting for each other in it, leave
 * it together (ms): process p enters at 0, 2, 5, its Init lasts 9, 7, 4 (rank 2's is
 * MPI_Init_thread), to the common Leave at 9; then it computes p + 1 and calls
 * Finalize for 0.1.  Init takes no time in the prediction and every process starts at
 * the latest Enter of Init, 5: each enters and leaves Init at 5 and ends at
 * 5 + (p + 1) + 0.1 = 6.1, 7.1, 8.1 ms. */
Test(engine, every_process_leaves_init_at_its_latest_start)
{
    static const double enter[3] = { 0, 2, 5 };
    static const char *const init[3] = { "MPI_Init", "MPI_Init", "MPI_Init_thread" };
    struct tb *b = trace(3);
    char out[4096];

    for (int p = 0; p < 3; p++) {
        tb_call(b, p, init[p], MS(enter[p]), MS(9));
        tb_call(b, p, "MPI_Finalize", MS(9 + p + 1), MS(9 + p + 1.1));
    }
    close_trace(b);
    free_network();
    predict(out);
    for (int p = 0; p < 3; p++) {
        char what[64];

        snprintf(what, sizeof(what), "rank %d's Enter of Init", p);
        near(times_of(out, p, NULL, 0).first, SEC(5), what);
        snprintf(what, sizeof(what), "rank %d's Leave of Init", p);
        near(leave_of(out, p, init[p]), SEC(5), what);
        snprintf(what, sizeof(what), "rank %d's end", p);
        near(end_of(out, p), SEC(5 + p + 1.1), what);
    }
    near(res.end, SEC(8.1), "the end");
}

/* --- 2. eager vs rendezvous with a late receiver */

/* Latency 50 us, 100 MB/s: 100000 B take 50 us + 1 ms = 1.05 ms, a control message
 * 50 us.  (ms)
 *   rank 0: Init [0, 0]  <send_name>(100000 B to 1) [0, 0.1]  compute 2  Finalize [2.1, 2.2]
 *   rank 1: Init [0, 0]  compute 10  Recv(from 0) [10, 10.5]  Finalize [10.5, 10.6] */
static void late_receiver_trace(const char *send_name)
{
    struct tb *b = trace(2);
    uint32_t send = tb_mpi(b, send_name), recv = tb_mpi(b, "MPI_Recv");

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_enter(b, 0, 0, send);
    tb_mpi_send(b, 0, 0, TB_WORLD, 1, 3, 100000);
    tb_leave(b, 0, MS(0.1), send);
    tb_call(b, 0, "MPI_Finalize", MS(2.1), MS(2.2));
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_enter(b, 1, MS(10), recv);
    tb_mpi_recv(b, 1, MS(10.5), TB_WORLD, 0, 3, 100000);
    tb_leave(b, 1, MS(10.5), recv);
    tb_call(b, 1, "MPI_Finalize", MS(10.5), MS(10.6));
    close_trace(b);
    m.latency = 50e-6;
    m.bandwidth = 1e8;
}

/* Eager: the send ends when posted (0); rank 0 computes 2 ms and finishes at 2.1 ms.
 * The data arrives at 1.05 ms, before the receive is posted at 10 ms: the Recv ends at
 * 10 ms, rank 1 at 10.1 ms, the end. */
static void check_eager(const char *send_name)
{
    char out[4096];

    predict(out);
    near(leave_of(out, 0, send_name), 0, "the eager send");
    near(end_of(out, 0), SEC(2.1), "rank 0's end");
    near(leave_of(out, 1, "MPI_Recv"), SEC(10), "the receive");
    near(end_of(out, 1), SEC(10.1), "rank 1's end");
    near(res.end, SEC(10.1), "the end");
}

/* Rendezvous: the RTS arrives at 0.05 ms; the receive is posted at 10 ms, the CTS
 * leaves then and arrives at 10.05 ms; the data leaves then and arrives at
 * 10.05 + 1.05 = 11.1 ms, ending both calls.  Rank 0 computes 2 ms after it and
 * finishes at 11.1 + 2 + 0.1 = 13.2 ms (the end); rank 1 at 11.1 + 0.1 = 11.2 ms. */
static void check_rendezvous(const char *send_name)
{
    char out[4096];

    predict(out);
    near(leave_of(out, 0, send_name), SEC(11.1), "the rendezvous send");
    near(end_of(out, 0), SEC(13.2), "rank 0's end");
    near(leave_of(out, 1, "MPI_Recv"), SEC(11.1), "the receive");
    near(end_of(out, 1), SEC(11.2), "rank 1's end");
    near(res.end, SEC(13.2), "the end");
}

Test(engine, eager_send_to_a_late_receiver_ends_at_once)
{
    late_receiver_trace("MPI_Send");
    m.eager_threshold = 1048576;
    check_eager("MPI_Send");
}

Test(engine, rendezvous_send_to_a_late_receiver_waits_for_it)
{
    late_receiver_trace("MPI_Send");
    m.eager_threshold = 65536;
    check_rendezvous("MPI_Send");
}

/* The same 100000 B below a 1 MiB threshold: Ssend still goes by rendezvous. */
Test(engine, ssend_is_always_rendezvous)
{
    late_receiver_trace("MPI_Ssend");
    m.eager_threshold = 1048576;
    check_rendezvous("MPI_Ssend");
}

/* Above a 64 KiB threshold: Bsend still goes eagerly. */
Test(engine, bsend_is_always_eager)
{
    late_receiver_trace("MPI_Bsend");
    m.eager_threshold = 65536;
    check_eager("MPI_Bsend");
}

/* --- 3. nonblocking transfers overlap computation */

/* Latency 10 us, 1 GB/s: 1e6 B take 10 us + 1 ms = 1.01 ms; above 64 KiB, rendezvous.
 * (ms)
 *   rank 0: Isend(1e6 B to 1, request 1) [0, 0.01]  compute 5  Waitall [5.01, 5.5]
 *   rank 1: Irecv(request 7) [0, 0.01]              compute 5  Waitall [5.01, 6]
 * Isend and Irecv post and return at once (0).  RTS 0 -> 0.01 ms; the receive is
 * posted, so the CTS goes 0.01 -> 0.02 ms; the data 0.02 -> 1.03 ms.  Both Waitalls
 * start after 5 ms of computation, when the transfer is long over: they end at 5 ms. */
Test(engine, isend_irecv_waitall_overlap_computation)
{
    struct tb *b = trace(2);
    uint32_t isend = tb_mpi(b, "MPI_Isend"), irecv = tb_mpi(b, "MPI_Irecv"),
             waitall = tb_mpi(b, "MPI_Waitall");
    char out[4096];

    tb_enter(b, 0, 0, isend);
    tb_mpi_isend(b, 0, 0, TB_WORLD, 1, 0, 1000000, 1);
    tb_leave(b, 0, MS(0.01), isend);
    tb_enter(b, 0, MS(5.01), waitall);
    tb_mpi_isend_complete(b, 0, MS(5.5), 1);
    tb_leave(b, 0, MS(5.5), waitall);
    tb_enter(b, 1, 0, irecv);
    tb_mpi_irecv_request(b, 1, 0, 7);
    tb_leave(b, 1, MS(0.01), irecv);
    tb_enter(b, 1, MS(5.01), waitall);
    tb_mpi_irecv(b, 1, MS(6), TB_WORLD, 0, 0, 1000000, 7);
    tb_leave(b, 1, MS(6), waitall);
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
    m.eager_threshold = 65536;
    predict(out);
    near(leave_of(out, 0, "MPI_Isend"), 0, "the Isend");
    near(leave_of(out, 1, "MPI_Irecv"), 0, "the Irecv");
    near(leave_of(out, 0, "MPI_Waitall"), SEC(5), "rank 0's Waitall");
    near(leave_of(out, 1, "MPI_Waitall"), SEC(5), "rank 1's Waitall");
    near(res.end, SEC(5), "the end");
}

/* The same trace on a machine whose MPI charges the processes a CPU time per message:
 * the sender 0.1 ms + 1e-10 s/B, the receiver 0.3 ms + 2e-10 s/B; the message, 1e6 B,
 * goes by rendezvous (above 64 KiB), so its bytes move in its transfer and pay no
 * per-byte overhead (an eager message's copies): 0.1 ms and 0.3 ms.  The Isend takes
 * its sender's overhead: it returns at 0.1 ms, and the computation after it ends at
 * 5.1 ms.  The RTS leaves at 0.1 ms and arrives at 0.11 ms, the CTS at 0.12 ms, the
 * data at 0.12 + 0.01 + 1 = 1.13 ms.  Rank 0's Waitall ends when it begins (5.1 ms);
 * rank 1's Waitall (from 5 ms, the Irecv cost nothing) takes the data: 5 + 0.3 =
 * 5.3 ms. */
Test(engine, overheads_take_the_isend_and_the_wait_that_receives)
{
    struct tb *b = trace(2);
    uint32_t isend = tb_mpi(b, "MPI_Isend"), irecv = tb_mpi(b, "MPI_Irecv"),
             waitall = tb_mpi(b, "MPI_Waitall");
    char out[4096];

    tb_enter(b, 0, 0, isend);
    tb_mpi_isend(b, 0, 0, TB_WORLD, 1, 0, 1000000, 1);
    tb_leave(b, 0, MS(0.01), isend);
    tb_enter(b, 0, MS(5.01), waitall);
    tb_mpi_isend_complete(b, 0, MS(5.5), 1);
    tb_leave(b, 0, MS(5.5), waitall);
    tb_enter(b, 1, 0, irecv);
    tb_mpi_irecv_request(b, 1, 0, 7);
    tb_leave(b, 1, MS(0.01), irecv);
    tb_enter(b, 1, MS(5.01), waitall);
    tb_mpi_irecv(b, 1, MS(6), TB_WORLD, 0, 0, 1000000, 7);
    tb_leave(b, 1, MS(6), waitall);
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
    m.eager_threshold = 65536;
    m.overhead = (struct pz_overhead){ 0.1e-3, 1e-10, 0.3e-3, 2e-10 };
    predict(out);
    near(leave_of(out, 0, "MPI_Isend"), SEC(0.1), "the Isend");
    near(leave_of(out, 1, "MPI_Irecv"), 0, "the Irecv");
    near(leave_of(out, 0, "MPI_Waitall"), SEC(5.1), "rank 0's Waitall");
    near(leave_of(out, 1, "MPI_Waitall"), SEC(5.3), "rank 1's Waitall");
    near(res.end, SEC(5.3), "the end");
}

/* The same transfer with blocking calls after the computation (ms):
 *   rank 0: Init [0, 0]  compute 5  Send(1e6 B to 1) [5, 5.1]
 *   rank 1: Init [0, 0]  compute 5  Recv(from 0) [5, 6.2]
 * Rendezvous: RTS 5 -> 5.01, CTS 5.01 -> 5.02, data 5.02 -> 6.03 ms: both end at
 * 6.03 ms.  Eager (1 MiB threshold): the send ends at 5 ms, the data arrives at
 * 5 + 1.01 = 6.01 ms and ends the receive. */
static void blocking_trace(void)
{
    struct tb *b = trace(2);
    uint32_t send = tb_mpi(b, "MPI_Send"), recv = tb_mpi(b, "MPI_Recv");

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_enter(b, 0, MS(5), send);
    tb_mpi_send(b, 0, MS(5), TB_WORLD, 1, 0, 1000000);
    tb_leave(b, 0, MS(5.1), send);
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_enter(b, 1, MS(5), recv);
    tb_mpi_recv(b, 1, MS(6.2), TB_WORLD, 0, 0, 1000000);
    tb_leave(b, 1, MS(6.2), recv);
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
}

Test(engine, blocking_rendezvous_after_computation_adds_the_transfer)
{
    char out[4096];

    blocking_trace();
    m.eager_threshold = 65536;
    predict(out);
    near(leave_of(out, 0, "MPI_Send"), SEC(6.03), "the Send");
    near(leave_of(out, 1, "MPI_Recv"), SEC(6.03), "the Recv");
    near(res.end, SEC(6.03), "the end");
}

Test(engine, blocking_eager_after_computation_adds_the_transfer)
{
    char out[4096];

    blocking_trace();
    m.eager_threshold = 1048576;
    predict(out);
    near(leave_of(out, 0, "MPI_Send"), SEC(5), "the Send");
    near(leave_of(out, 1, "MPI_Recv"), SEC(6.01), "the Recv");
    near(res.end, SEC(6.01), "the end");
}

/* --- 3b. MPI-IO: its recorded time times io_scale */

/* One process (ms): Init [0, 0]  compute 1  File_write [1, 3]  compute 0.5
 * Finalize [3.5, 3.7].  With io_scale 3 the write takes 3 x 2 = 6 ms: it ends at 7, the
 * Finalize runs from 7.5 to 7.7; computation and the other calls keep their times. */
Test(engine, io_calls_take_their_recorded_time_times_io_scale)
{
    struct tb *b = trace(1);
    char out[4096];

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_call(b, 0, "MPI_File_write", MS(1), MS(3));
    tb_call(b, 0, "MPI_Finalize", MS(3.5), MS(3.7));
    close_trace(b);
    free_network();
    m.io_scale = 3;
    predict(out);
    near(leave_of(out, 0, "MPI_File_write"), SEC(7), "the write");
    near(res.end, SEC(7.7), "the end");
    cr_assert_eq(res.io_calls, 1);
}

/* One process (ms): Init [0, 0]  compute 1  File_iwrite [1, 1.5] (its operation begins
 * at 1, matching id 7)  compute 0.5  Wait [2, 5] (the operation completes at 5)
 * compute 0.5  Finalize [5.5, 5.7]; with_begin 0 leaves the begin out. */
static void iwrite_wait_trace(int with_begin)
{
    struct tb *b = trace(1);
    uint32_t iwrite = tb_mpi(b, "MPI_File_iwrite"), wait = tb_mpi(b, "MPI_Wait");

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_enter(b, 0, MS(1), iwrite);
    if (with_begin)
        tb_io_begin_nonblocking(b, 0, MS(1), OTF2_IO_OPERATION_MODE_WRITE, 100, 7);
    tb_leave(b, 0, MS(1.5), iwrite);
    tb_enter(b, 0, MS(2), wait);
    tb_io_complete(b, 0, MS(5), 100, 7);
    tb_leave(b, 0, MS(5), wait);
    tb_call(b, 0, "MPI_Finalize", MS(5.5), MS(5.7));
    close_trace(b);
    free_network();
}

/* io_scale 3: the iwrite takes 0.5 x 3 = 1.5, ends at 2.5; the Wait starts at 3.  The
 * operation ends at its begin's predicted time plus (5 - 1) x 3: 1 + 12 = 13, later than
 * the Wait's own 3 + 3 = 6: the Wait ends at 13, the run at 13 + 0.5 + 0.2 = 13.7. */
Test(engine, wait_of_nonblocking_io_lasts_until_the_operation_ends)
{
    char out[4096];

    iwrite_wait_trace(1);
    m.io_scale = 3;
    predict(out);
    near(leave_of(out, 0, "MPI_File_iwrite"), SEC(2.5), "the iwrite");
    near(leave_of(out, 0, "MPI_Wait"), SEC(13), "the Wait");
    near(res.end, SEC(13.7), "the end");
}

/* io_scale 0.25: the iwrite takes 0.5 x 0.25 = 0.125, ends at 1.125; the Wait starts at
 * 1.625.  The operation ends at 1 + (5 - 1) x 0.25 = 2, before the Wait's own
 * 1.625 + 3 = 4.625, at which it ends; the run at 4.625 + 0.5 + 0.2 = 5.325. */
Test(engine, wait_of_nonblocking_io_keeps_its_own_time_if_longer)
{
    char out[4096];

    iwrite_wait_trace(1);
    m.io_scale = 0.25;
    predict(out);
    near(leave_of(out, 0, "MPI_Wait"), SEC(4.625), "the Wait");
    near(res.end, SEC(5.325), "the end");
}

/* io_scale 3 without the begin: the iwrite still ends at 2.5, the Wait takes its own
 * 3 ms from 3 to 6; the run ends at 6 + 0.5 + 0.2 = 6.7. */
Test(engine, wait_of_nonblocking_io_without_its_begin_keeps_its_own_time)
{
    char out[4096];

    iwrite_wait_trace(0);
    m.io_scale = 3;
    predict(out);
    near(leave_of(out, 0, "MPI_Wait"), SEC(6), "the Wait");
    near(res.end, SEC(6.7), "the end");
}

/* The I/O records of process p in the predicted trace at dir, at most max, into io: their
 * kind, predicted time (s), bytes and matching id; their number. */
struct io_rec {
    uint8_t kind;
    double at;
    uint64_t bytes, matching;
};

static int io_records(const char *dir, int p, struct io_rec *io, int max)
{
    struct pz_trace_in *t = pz_trace_in_open(dir, err, sizeof(err));
    const struct pz_rec *r;
    int n = 0, th;

    cr_assert_not_null(t, "cannot read the predicted trace: %s", err);
    pz_trace_in_keep_io(t);
    th = pz_trace_in_first(t, p);
    for (; (r = pz_trace_in_peek(t, th, 0)); pz_trace_in_consume(t, th, 1))
        if (pz_rec_is_io(r->kind) && n < max)
            io[n++] = (struct io_rec){ r->kind, ((double)r->time - (double)pz_trace_in_offset(t)) /
                                                    pz_trace_in_resolution(t),
                                       r->bytes, r->request };
    cr_assert_null(pz_trace_in_error(t), "reading the predicted trace: %s",
                   pz_trace_in_error(t));
    pz_trace_in_close(t);
    return n;
}

static void expect_io(const struct io_rec *got, uint8_t kind, double at, uint64_t bytes,
                      uint64_t matching, const char *what)
{
    cr_expect_eq(got->kind, kind, "%s: kind %u, expected %u", what, got->kind, kind);
    near(got->at, at, what);
    cr_expect_eq(got->bytes, bytes, "%s: %llu bytes", what, (unsigned long long)got->bytes);
    cr_expect_eq(got->matching, matching, "%s: matching id %llu", what,
                 (unsigned long long)got->matching);
}

/* The predicted trace keeps the I/O records where the recorder puts them: a begin at its
 * call's predicted enter, a completion at its call's predicted leave.  One process (ms):
 * Init [0, 0]  compute 1  File_write [1, 3] of 100 bytes  compute 0.5  Finalize
 * [3.5, 3.7].  With io_scale 3 the write runs from 1 to 1 + 3 x 2 = 7: its
 * IoOperationBegin is at 1, its IoOperationComplete at 7, both of matching id 0. */
Test(engine, predicted_trace_has_a_blocking_operations_records_at_its_call)
{
    struct tb *b = trace(1);
    uint32_t write = tb_mpi(b, "MPI_File_write");
    struct io_rec io[4];
    char out[4096];

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_enter(b, 0, MS(1), write);
    tb_io_begin(b, 0, MS(1), OTF2_IO_OPERATION_MODE_WRITE, 100, 0);
    tb_io_complete(b, 0, MS(3), 100, 0);
    tb_leave(b, 0, MS(3), write);
    tb_call(b, 0, "MPI_Finalize", MS(3.5), MS(3.7));
    close_trace(b);
    free_network();
    m.io_scale = 3;
    predict(out);
    cr_assert_eq(io_records(out, 0, io, 4), 2);
    expect_io(&io[0], PZ_REC_IO_BEGIN, SEC(1), 100, 0, "the begin");
    expect_io(&io[1], PZ_REC_IO_COMPLETE, SEC(7), 100, 0, "the completion");
}

/* iwrite_wait_trace on io_scale 3 (wait_of_nonblocking_io_lasts_until_the_operation_ends):
 * the iwrite's predicted enter is 1, the Wait's leave 13: the operation's begin is at 1,
 * its completion at 13, both of matching id 7. */
Test(engine, predicted_trace_has_a_nonblocking_operations_records_at_its_calls)
{
    struct io_rec io[4];
    char out[4096];

    iwrite_wait_trace(1);
    m.io_scale = 3;
    predict(out);
    cr_assert_eq(io_records(out, 0, io, 4), 2);
    expect_io(&io[0], PZ_REC_IO_BEGIN, SEC(1), 100, 7, "the begin");
    expect_io(&io[1], PZ_REC_IO_COMPLETE, SEC(13), 100, 7, "the completion");
}

/* --- 4. runs that cannot complete */

/* Both processes receive from each other inside interval 1 at x.c:10: nothing is ever
 * sent. */
Test(engine, receives_from_each_other_deadlock)
{
    struct tb *b = trace(2);
    uint32_t i1 = tb_interval(b, 1, "src/x.c", 10);

    for (int p = 0; p < 2; p++) {
        tb_call(b, p, "MPI_Init", 0, 0);
        tb_enter(b, p, MS(0.5), i1);
        tb_recv_call(b, p, "MPI_Recv", MS(1), MS(2), TB_WORLD, (uint32_t)(1 - p), 0);
        tb_leave(b, p, MS(3), i1);
        tb_call(b, p, "MPI_Finalize", MS(3), MS(3.1));
    }
    close_trace(b);
    free_network();
    cr_assert_eq(predict_opt(0, NULL), -1, "a deadlock must fail");
    cr_assert(strstr(err, "the run cannot complete"), "message: %s", err);
    cr_assert(strstr(err, "rank 0 waits in MPI_Recv (interval 1 at x.c:10)"),
              "message: %s", err);
    cr_assert(strstr(err, "rank 1 waits in MPI_Recv (interval 1 at x.c:10)"),
              "message: %s", err);
}

/* Rank 0 enters a Barrier that rank 1 never calls. */
Test(engine, collective_missing_a_member_cannot_complete)
{
    struct tb *b = trace(2);

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_collective_call(b, 0, "MPI_Barrier", MS(1), MS(2), OTF2_COLLECTIVE_OP_BARRIER,
                       TB_WORLD, TB_NO_ROOT);
    tb_call(b, 0, "MPI_Finalize", MS(2), MS(2.1));
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_call(b, 1, "MPI_Finalize", MS(1), MS(1.1));
    close_trace(b);
    free_network();
    cr_assert_eq(predict_opt(0, NULL), -1, "an incomplete collective must fail");
    cr_assert(strstr(err, "the run cannot complete"), "message: %s", err);
    cr_assert(strstr(err, "rank 0 waits in MPI_Barrier (the whole run)"), "message: %s", err);
    cr_assert_null(strstr(err, "rank 1"), "rank 1 finished: %s", err);
}

/* Rank 0 MPI_Ssends to rank 1, which never receives: a synchronous send waits for
 * its receive forever. */
Test(engine, synchronous_send_nobody_receives_cannot_complete)
{
    struct tb *b = trace(2);

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_send_call(b, 0, "MPI_Ssend", MS(1), MS(2), TB_WORLD, 1, 0);
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_call(b, 1, "MPI_Finalize", MS(1), MS(1.1));
    close_trace(b);
    free_network();
    cr_assert_eq(predict_opt(0, NULL), -1, "an unreceived Ssend must fail");
    cr_assert(strstr(err, "the run cannot complete: rank 0 waits in MPI_Ssend (the whole run)"),
              "message: %s", err);
    cr_assert_null(strstr(err, "rank 1"), "rank 1 finished: %s", err);
}

/* Predicts rec with stop_when_stuck (a partial recording), writing the trace into out. */
static int predict_partial(char out[4096])
{
    struct pz_predict_options o = { .machine = &m, .stop_when_stuck = 1, .output = out };

    snprintf(out, 4096, "%s/pred%d", top, outputs++);
    err[0] = '\0';
    return pz_predict(rec, &o, &res, err, sizeof(err));
}

/* The same run recorded partly: rank 1 killed after an MPI_Comm_rank (1 to 1.1 ms), its
 * receive never recorded and no MPI_Finalize.  With stop_when_stuck the replay ends
 * where rank 0 waits, instead of failing, and says so.  Rank 0 computes 1 ms and enters
 * MPI_Ssend at 1 ms, which never returns: as a recording leaves out the call a killed
 * process was in, the predicted trace of rank 0 ends with MPI_Init, at 0; rank 1's
 * MPI_Comm_rank, a local call, ends at 1.1 ms, the end of the run. */
Test(engine, a_partial_recording_is_replayed_up_to_where_a_process_waits)
{
    struct tb *b = trace(2);
    char out[4096];
    struct times t;

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_send_call(b, 0, "MPI_Ssend", MS(1), MS(2), TB_WORLD, 1, 0);
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_call(b, 1, "MPI_Comm_rank", MS(1), MS(1.1));
    close_trace(b);
    free_network();
    cr_assert_eq(predict_partial(out), 0, "%s", err);
    cr_assert_str_eq(res.stopped, "rank 0 waits in MPI_Ssend (the whole run)");
    near(res.end, 1.1e-3, "the end of the run");
    t = times_of(out, 0, "MPI_Ssend", 0);
    near(t.last, 0, "rank 0's last record, MPI_Init's Leave");
    cr_assert_lt(t.leave, 0, "MPI_Ssend is in the predicted trace, ending at %.9f s", t.leave);
    near(leave_of(out, 1, "MPI_Comm_rank"), 1.1e-3, "rank 1's MPI_Comm_rank");
}

/* A partial recording whose every process was recorded to MPI_Finalize: an Ssend nobody
 * receives is the run's own deadlock, not where a recording ended, and fails as
 * without stop_when_stuck. */
Test(engine, a_partial_recording_stuck_with_every_process_at_its_end_still_fails)
{
    struct tb *b = trace(2);
    char out[4096];

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_send_call(b, 0, "MPI_Ssend", MS(1), MS(2), TB_WORLD, 1, 0);
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_call(b, 1, "MPI_Finalize", MS(1), MS(1.1));
    close_trace(b);
    free_network();
    cr_assert_eq(predict_partial(out), -1, "the run's deadlock was taken for a cut recording");
    cr_assert(strstr(err, "the run cannot complete: rank 0 waits in MPI_Ssend (the whole run)"),
              "message: %s", err);
}

/* Rank 0 sends to rank 0 of a communicator with no members in the trace, as the
 * recorder writes the intercommunicator of MPI_Comm_spawn, which it does not record: the
 * replay stops and says what such a communicator is likely to be.  Rank 2 of a
 * communicator of 2 is only not defined. */
static void send_on(uint32_t comm_members, uint32_t dest)
{
    static const int world[2] = { 0, 1 };
    struct tb *b = trace(2);
    uint32_t comm = tb_comm(b, "a communicator", (int)comm_members, comm_members ? world : NULL);

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_send_call(b, 0, "MPI_Send", MS(1), MS(2), comm, dest, 7);
    tb_call(b, 0, "MPI_Finalize", MS(2), MS(2.1));
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_call(b, 1, "MPI_Finalize", MS(1), MS(1.1));
    close_trace(b);
    free_network();
    cr_assert_eq(predict_opt(0, NULL), -1, "a send to an undefined rank must fail");
}

Test(engine, a_send_on_a_communicator_without_members_names_the_calls_that_make_one)
{
    send_on(0, 0);
    cr_assert(strstr(err, "rank 0: rank 0 of communicator 2 is not defined (it has no members "
                          "in the trace: a communicator made by a call the recorder does not "
                          "record, such as MPI_Comm_spawn's"), "message: %s", err);
}

Test(engine, a_send_to_a_rank_beyond_a_communicator_is_only_not_defined)
{
    send_on(2, 2);
    cr_assert(strstr(err, "rank 0: rank 2 of communicator 2 is not defined"), "message: %s", err);
    cr_assert_null(strstr(err, "MPI_Comm_spawn"), "message: %s", err);
}

/* --- 5. a collective */

/* Four processes: Init [0, 0], compute until t_p = 0, 1, 2, 4 ms, Allreduce of 8 B
 * [t_p, t_p + 0.5].  mpich4 (coll.c) takes recursive doubling for 8 B: round 0 each
 * exchanges 8 B with p^1, round 1 with p^2 (send and receive posted at the round's
 * start, the round ends when both completed).  Switch, latency 10 us, 1 GB/s:
 * c = 10 us + 8 ns = 10.008 us per message; a transfer starts when the sender's out
 * link and the receiver's in link are free.  Eager: a send completes when posted; a
 * receive at max(posted, arrival).  In time order:
 *   0:      r0 round 0: 0->1 on [0, c].
 *   1 ms:   r1 round 0: 1->0 on [1, 1+c]; r1 receives 0's data (arrived at c) at 1: its
 *           round 0 ends at 1 ms; r0 receives at 1+c: its round 0 ends at 1+c.
 *   1 ms:   r1 round 1: 1->3 waits for its out link (busy to 1+c): [1+c, 1+2c].
 *   1+c:    r0 round 1: 0->2 on [1+c, 1+2c].
 *   2 ms:   r2 round 0: 2->3 on [2, 2+c].
 *   4 ms:   r3 round 0: 3->2 on [4, 4+c]; r3 receives 2's data (at 2+c) at 4: round 0
 *           ends at 4; r2 receives at 4+c: its round 0 ends at 4+c.
 *   4 ms:   r3 round 1: 3->1 waits for its out link: [4+c, 4+2c]; r3 receives 1's data
 *           (at 1+2c) at 4: r3 is done at 4 ms; r1 receives at 4+2c: done at 4+2c.
 *   4+c:    r2 round 1: 2->0 on [4+c, 4+2c]; r2 receives 0's data (at 1+2c) at 4+c:
 *           done at 4+c; r0 receives at 4+2c: done at 4+2c.
 * So the Allreduce ends at 4+2c, 4+2c, 4+c, 4 ms on ranks 0..3 (reduce_byte_time 0). */
Test(engine, allreduce_recursive_doubling_on_a_switch)
{
    static const double enter[4] = { 0, 1, 2, 4 };
    const double c = 10e-6 + 8 / 1e9;
    const double want[4] = { SEC(4) + 2 * c, SEC(4) + 2 * c, SEC(4) + c, SEC(4) };
    struct tb *b = trace(4);
    char out[4096];

    for (int p = 0; p < 4; p++) {
        tb_call(b, p, "MPI_Init", 0, 0);
        tb_collective_call(b, p, "MPI_Allreduce", MS(enter[p]), MS(enter[p] + 0.5),
                           OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT);
    }
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
    m.eager_threshold = 65536;
    m.reduce_byte_time = 0;
    snprintf(m.mpi, sizeof(m.mpi), "mpich4");
    predict(out);
    for (int p = 0; p < 4; p++) {
        char what[64];

        snprintf(what, sizeof(what), "rank %d's Allreduce", p);
        near(leave_of(out, p, "MPI_Allreduce"), want[p], what);
    }
    near(res.end, SEC(4) + 2 * c, "the end");
}

/* Two processes make a communicator over MPI_COMM_WORLD, recorded [t_p, t_p + 5 ms] with
 * t_p = 0, 1 ms and, in traces of today, its collective CREATE_HANDLE on the parent.
 * MPICH agrees on the context id with an Allreduce of its mask, 256 B whatever bytes
 * the trace says (trace/constructor.h), and a split first gathers the (color, key)
 * pairs, 8 B each, with an Allgather.  Switch, latency 10 us, 1 GB/s, eager, mpich4
 * (coll.c): an Allreduce of more than 8 B is Rabenseifner's, at 2 processes a
 * reduce-scatter exchange of 128 B then an allgather exchange of 128 B; the Allgather
 * of 8 B is one exchange.  A message of n bytes takes c(n) = 10 us + n ns, a sender's
 * out link carries one at a time, an eager send completes when posted.
 *   MPI_Comm_dup: r0 sends its half on [0, c(128)]; r1 sends its half on
 *   [1 ms, 1 ms + c(128)] and has r0's already; its reduced half waits for its out link:
 *   [1 ms + c(128), 1 ms + 2 c(128)], as does r0's, sent when r1's first arrived.  Both
 *   leave at 1 ms + 2 c(128); the recorded 5 ms are not replayed.
 *   MPI_Comm_split: both collectives start with the call, the Allgather's message first
 *   on each out link: r1's are on [1 ms, 1 ms + c(8)], [.., 1 ms + c(8) + c(128)], then
 *   its reduced half to 1 ms + c(8) + 2 c(128); r0 receives r1's first half at
 *   1 ms + c(8) + c(128) and sends its reduced half until 1 ms + c(8) + 2 c(128).  Both
 *   leave then. */
static void constructor_at(const char *name, int with_collective, const double want[2])
{
    static const double enter[2] = { 0, 1 };
    struct tb *b = trace(2);
    char out[4096];

    for (int p = 0; p < 2; p++) {
        tb_call(b, p, "MPI_Init", 0, 0);
        if (with_collective)
            tb_collective_call(b, p, name, MS(enter[p]), MS(enter[p] + 5),
                               OTF2_COLLECTIVE_OP_CREATE_HANDLE, TB_WORLD, TB_NO_ROOT);
        else
            tb_call(b, p, name, MS(enter[p]), MS(enter[p] + 5));
    }
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
    m.eager_threshold = 65536;
    m.reduce_byte_time = 0;
    snprintf(m.mpi, sizeof(m.mpi), "mpich4");
    predict(out);
    for (int p = 0; p < 2; p++) {
        char what[64];

        snprintf(what, sizeof(what), "rank %d's %s", p, name);
        near(leave_of(out, p, name), want[p], what);
    }
}

Test(engine, constructor_costs_the_allreduce_of_the_context_id_mask)
{
    const double c128 = 10e-6 + 128 / 1e9;

    constructor_at("MPI_Comm_dup", 1, (const double[2]){ SEC(1) + 2 * c128, SEC(1) + 2 * c128 });
}

Test(engine, split_adds_the_allgather_of_color_and_key)
{
    const double c8 = 10e-6 + 8 / 1e9, c128 = 10e-6 + 128 / 1e9, end = SEC(1) + c8 + 2 * c128;

    constructor_at("MPI_Comm_split", 1, (const double[2]){ end, end });
}

/* Recorded without its collective, a constructor is a call of its recorded length:
 * [0, 5 ms] and [1 ms, 6 ms]. */
Test(engine, constructor_without_its_collective_keeps_its_recorded_length)
{
    constructor_at("MPI_Comm_dup", 0, (const double[2]){ SEC(5), SEC(6) });
}

/* --- 6. the recorder's flushes */

/* One process (ms): Init [0, 1], compute 1, BufferFlush [2, 7], compute 1,
 * Finalize [8, 8.5].  Without the flush, and with Init instantaneous: Init ends at 0,
 * Finalize starts at 0 + 1 + 1 = 2 and ends at 2.5 ms. */
Test(engine, buffer_flush_is_removed)
{
    struct tb *b = trace(1);
    char out[4096];

    tb_call(b, 0, "MPI_Init", 0, MS(1));
    tb_flush(b, 0, MS(2), MS(7));
    tb_call(b, 0, "MPI_Finalize", MS(8), MS(8.5));
    close_trace(b);
    free_network();
    predict(out);
    near(res.end, SEC(2.5), "the end");
    near(leave_of(out, 0, "MPI_Init"), 0, "the Init");
    near(times_of(out, 0, NULL, 0).last, SEC(2.5), "the Finalize's Leave");
}

/* One process computes 10000 s - 1 ms between Init [0, 1 ms] and Finalize; with
 * cpu_scale 1e6 (the largest a machine file takes) Init takes no time and the
 * computation 1e10 s - 1000 s, so Finalize begins at 9.999999e9 s (1e+10 s as %g
 * prints it), beyond the 2^63 ns (9.2e9 s) of the predicted trace's clock: an error
 * naming the process and the call, not a time saturated to 2^63 ns. */
Test(engine, a_time_beyond_the_clock_is_an_error)
{
    struct tb *b = trace(1);
    char out[4096];

    tb_call(b, 0, "MPI_Init", 0, MS(1));
    tb_call(b, 0, "MPI_Finalize", MS(1e7), MS(1e7 + 1));
    close_trace(b);
    free_network();
    m.cpu_scale = 1e6;
    cr_assert_eq(predict_opt(0, out), -1, "a predicted time of 1e10 s was written");
    cr_assert(strstr(err, "predicted time exceeds 2^63 clock ticks (1e+10 s) at rank 0 in "
                          "MPI_Finalize"), "%s", err);
}

/* --- 7. point-to-point on a sub-communicator */

/* Latency 50 us, 100 MB/s, eager up to 64 KiB: the machine of several tests. */
static void latency_50us_100mbs(void)
{
    m.latency = 50e-6;
    m.bandwidth = 1e8;
    m.eager_threshold = 65536;
}

/* World 1 sends 8 B to world 0, as rank `dest` of comm, which world 0 receives from
 * rank `source`; latency 50 us, 100 MB/s: 8 B take 50 us + 80 ns.  (ms)
 *   world 1: Init [0, 0]  Send(8 B to dest, tag 5) [1, 1.1]  Finalize [1.1, 1.2]
 *   world 0: Init [0, 0]  Recv(from source, tag 5) [0.5, 1.3]  Finalize [1.3, 1.4]
 * World 1 sends eagerly at 1 ms, ends at once, finishes at 1.1 ms; the data reaches
 * world 0 at 1.05008 ms, its Recv (posted at 0.5) ends then, it finishes at 1.15008. */
static void one_message(struct tb *b, uint32_t comm, uint32_t dest, uint32_t source)
{
    char out[4096];

    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_send_call(b, 1, "MPI_Send", MS(1), MS(1.1), comm, dest, 5);
    tb_call(b, 1, "MPI_Finalize", MS(1.1), MS(1.2));
    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_recv_call(b, 0, "MPI_Recv", MS(0.5), MS(1.3), comm, source, 5);
    tb_call(b, 0, "MPI_Finalize", MS(1.3), MS(1.4));
    close_trace(b);
    latency_50us_100mbs();
    cr_assert_eq(predict_opt(0, out), 0, "pz_predict failed: %s", err);
    near(leave_of(out, 1, "MPI_Send"), SEC(1), "world 1's Send");
    near(end_of(out, 1), SEC(1.1), "world 1's end");
    near(leave_of(out, 0, "MPI_Recv"), SEC(1.05008), "world 0's Recv");
    near(end_of(out, 0), SEC(1.15008), "world 0's end");
    near(res.end, SEC(1.15008), "the end");
}

/* Communicator "swapped" of world ranks {1, 0}: its rank 0 is world 1, its rank 1 is
 * world 0, so world 1 sends to rank 1 and world 0 receives from rank 0.  Read as world
 * ranks, each would send to or receive from itself, and the run could not complete. */
Test(engine, sub_communicator_ranks_map_to_world_ranks)
{
    static const int swapped[2] = { 1, 0 };
    struct tb *b = trace(2);

    one_message(b, tb_comm(b, "swapped", 2, swapped), 1, 0);
}

/* The same message on an intercommunicator X between group A = {world 1} and group
 * B = {world 0}: the peer of a message is a rank of the other group, so world 1 sends
 * to B's rank 0 (world 0) and world 0 receives from A's rank 0 (world 1). */
Test(engine, intercommunicator_peers_are_in_the_other_group)
{
    static const int a[1] = { 1 }, bgroup[1] = { 0 };
    struct tb *b = trace(2);

    one_message(b, tb_intercomm(b, "X", 1, a, 1, bgroup), 0, 0);
}

/* A collective call on intercommunicator x by process p, [enter, leave] ms, with the
 * bytes it recorded. */
static void inter_call_root(struct tb *b, int p, const char *name, double enter,
                            double leave, OTF2_CollectiveOp op, uint32_t x, uint32_t root,
                            uint64_t sent, uint64_t received)
{
    uint32_t r = tb_mpi(b, name);

    tb_enter(b, p, MS(enter), r);
    tb_collective_begin(b, p, MS(enter));
    tb_collective_end(b, p, MS(leave), op, x, root, sent, received);
    tb_leave(b, p, MS(leave), r);
}

/* The same with no root recorded, as older recorders wrote it on intercommunicators. */
static void inter_call(struct tb *b, int p, const char *name, double enter, double leave,
                       OTF2_CollectiveOp op, uint32_t x, uint64_t sent, uint64_t received)
{
    inter_call_root(b, p, name, enter, leave, op, x, OTF2_UNDEFINED_UINT32, sent, received);
}

/* Intercommunicator X: group A = {world 0}, the low group (its rank 0 has the lower
 * process number), B = {world 1, world 2}.  Switch, latency 10 us, 1 GB/s, eager,
 * mpich4; c(n) = 10 us + n ns per message, an eager send completes when posted.
 *
 * Allreduce of 8 B entered at 0, 1 and 2 ms by worlds 0, 1, 2
 * (MPIR_Allreduce_inter_reduce_exchange_bcast, coll_inter.c): A's local Reduce and
 * Bcast are empty; world 0 exchanges with B's rank 0 (world 1) at once: its 8 B on
 * [0, c].  World 1 reduces B to itself (binomial: it receives from world 2), then
 * exchanges with world 0, then sends world 2 the result.
 *   2 ms:      world 2 sends to world 1 on [2, 2 + c].
 *   2 + c:     world 1 has it; exchange: its send to world 0 on [2 + c, 2 + 2c], world
 *              0's data arrived at c: the round ends at 2 + c; its Bcast to world 2
 *              waits for its out link: [2 + 2c, 2 + 3c].  World 1 is done at 2 + c.
 *   world 0 receives at 2 + 2c, world 2 at 2 + 3c. */
Test(engine, intercommunicator_allreduce_reduce_exchange_bcast)
{
    static const int a[1] = { 0 }, bgroup[2] = { 1, 2 };
    const double c = 10e-6 + 8 / 1e9;
    const double want[3] = { SEC(2) + 2 * c, SEC(2) + c, SEC(2) + 3 * c };
    struct tb *b = trace(3);
    uint32_t x = tb_intercomm(b, "X", 1, a, 2, bgroup);
    char out[4096];

    for (int p = 0; p < 3; p++) {
        tb_call(b, p, "MPI_Init", 0, 0);
        inter_call(b, p, "MPI_Allreduce", p, p + 0.5, OTF2_COLLECTIVE_OP_ALLREDUCE, x, 8, 8);
    }
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
    m.eager_threshold = 65536;
    m.reduce_byte_time = 0;
    snprintf(m.mpi, sizeof(m.mpi), "mpich4");
    predict(out);
    for (int p = 0; p < 3; p++) {
        char what[64];

        snprintf(what, sizeof(what), "world %d's Allreduce", p);
        near(leave_of(out, p, "MPI_Allreduce"), want[p], what);
    }
}

/* Bcast of 100 B from A's rank 0 (MPI_ROOT: it recorded 2 x 100 B sent) to B (each
 * recorded 100 B received), entered at 0, 1 and 0.5 ms by worlds 0, 1, 2
 * (MPIR_Bcast_inter_remote_send_local_bcast): world 0 sends to world 1 on [0, c(100)]
 * and is done at 0; world 1 has it when it enters at 1 ms and sends it to world 2
 * (binomial Bcast on B) on [1, 1 + c(100)]; world 2 is done then. */
Test(engine, intercommunicator_bcast_from_mpi_root)
{
    static const int a[1] = { 0 }, bgroup[2] = { 1, 2 };
    static const double enter[3] = { 0, 1, 0.5 };
    const double c100 = 10e-6 + 100 / 1e9;
    const double want[3] = { 0, SEC(1), SEC(1) + c100 };
    struct tb *b = trace(3);
    uint32_t x = tb_intercomm(b, "X", 1, a, 2, bgroup);
    char out[4096];

    for (int p = 0; p < 3; p++) {
        tb_call(b, p, "MPI_Init", 0, 0);
        inter_call(b, p, "MPI_Bcast", enter[p], enter[p] + 0.5, OTF2_COLLECTIVE_OP_BCAST, x,
                   p == 0 ? 200 : 0, p == 0 ? 0 : 100);
    }
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
    m.eager_threshold = 65536;
    snprintf(m.mpi, sizeof(m.mpi), "mpich4");
    predict(out);
    for (int p = 0; p < 3; p++) {
        char what[64];

        snprintf(what, sizeof(what), "world %d's Bcast", p);
        near(leave_of(out, p, "MPI_Bcast"), want[p], what);
    }
}

/* A trace of an older recorder gives no root on an intercommunicator: the other group
 * is replayed with the root at rank 0 of the root's group, so a root at rank 1 is
 * refused by name. */
Test(engine, an_intercommunicator_root_other_than_rank_0_is_refused)
{
    static const int a[2] = { 0, 1 }, bgroup[1] = { 2 };
    struct tb *b = trace(3);
    uint32_t x = tb_intercomm(b, "X", 2, a, 1, bgroup);

    for (int p = 0; p < 3; p++) {
        tb_call(b, p, "MPI_Init", 0, 0);
        inter_call(b, p, "MPI_Bcast", 1, 2, OTF2_COLLECTIVE_OP_BCAST, x, p == 1 ? 8 : 0,
                   p == 2 ? 8 : 0);
    }
    close_trace(b);
    free_network();
    cr_assert_eq(predict_opt(0, NULL), -1, "a root at rank 1 must be refused");
    cr_assert(strstr(err, "is rank 1 of its group"), "message: %s", err);
}

/* The recorder gives the root's rank in its group on an intercommunicator (the root
 * itself, and the other group's members): a Bcast of 8 B from A's rank 1 (world 1) to
 * B = {world 2}, all entered at 1 ms (MPIR_Bcast_inter_remote_send_local_bcast): world
 * 1 sends to B's rank 0, world 2, eagerly, and is done at 1 ms; world 2 has the data
 * at 1 ms + c(8), c(8) = 10 us + 8 ns, and B's local Bcast of one process is empty;
 * world 0 (MPI_PROC_NULL, no root recorded) does nothing and is done at 1 ms. */
Test(engine, an_intercommunicator_root_recorded_at_rank_1_is_replayed)
{
    static const int a[2] = { 0, 1 }, bgroup[1] = { 2 };
    static const uint32_t root[3] = { OTF2_UNDEFINED_UINT32, 1, 1 };
    const double want[3] = { SEC(1), SEC(1), SEC(1) + 10e-6 + 8 / 1e9 };
    struct tb *b = trace(3);
    uint32_t x = tb_intercomm(b, "X", 2, a, 1, bgroup);
    char out[4096];

    for (int p = 0; p < 3; p++) {
        tb_call(b, p, "MPI_Init", 0, 0);
        inter_call_root(b, p, "MPI_Bcast", 1, 2, OTF2_COLLECTIVE_OP_BCAST, x, root[p],
                        p == 1 ? 8 : 0, p == 2 ? 8 : 0);
    }
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
    m.eager_threshold = 65536;
    snprintf(m.mpi, sizeof(m.mpi), "mpich4");
    predict(out);
    for (int p = 0; p < 3; p++) {
        char what[64];

        snprintf(what, sizeof(what), "world %d's Bcast", p);
        near(leave_of(out, p, "MPI_Bcast"), want[p], what);
    }
}

/* --- 8. the predicted trace, analyzed */

/* Clock offset 0.5 ms; processes enter Init at different times (ms, recorded;
 * "interval 2 at y.c:20" is entered ( and left ) where shown):
 *   rank 0: Init [1, 1.5]  compute 0.3 ( compute 0.2  Send(8 B to 1) [2, 2.1]  compute 2.9 )
 *           compute 1  Finalize [6, 6.5]
 *   rank 1: Init [2, 2.2]  compute 0.3 ( compute 0.5  Recv(from 0) [3, 3.3] )  Finalize [3.3, 3.4]
 * On a free network with cpu_scale 0.5, since the offset: both start at the latest
 * Enter of Init, 2 - 0.5 = 1.5, and leave Init at once;
 *   rank 0 enters the interval at 1.5 + 0.15 = 1.65, Send at 1.75 ends at once, leaves
 *          the interval at 1.75 + 1.45 = 3.2, Finalize from 3.7 to 3.95: the end;
 *   rank 1 enters the interval at 1.65, Recv posted at 1.65 + 0.25 = 1.9 (the data
 *          arrived at 1.75) ends at 1.9, leaves the interval then, Finalize to 1.95.
 * The analyzer's whole run: rank 0 ran 3.95 - 1.5 = 2.45 ms, rank 1 1.95 - 1.5 = 0.45 ms;
 * the execution time is the longest, 2.45 ms = the end less the common start; one
 * message matched.  The interval: rank 0 3.2 - 1.65 = 1.55 ms, rank 1 1.9 - 1.65 =
 * 0.25 ms, its execution time 1.55 ms. */
Test(engine, predicted_trace_is_analyzable)
{
    struct tb *b = trace(2);
    struct pz_analysis a;
    struct pz_characteristics whole;
    char out[4096];

    uint32_t i2 = tb_interval(b, 2, "y.c", 20);
    struct pz_characteristics interval;

    tb_set_offset(b, MS(0.5));
    tb_call(b, 0, "MPI_Init", MS(1), MS(1.5));
    tb_enter(b, 0, MS(1.8), i2);
    tb_send_call(b, 0, "MPI_Send", MS(2), MS(2.1), TB_WORLD, 1, 0);
    tb_leave(b, 0, MS(5), i2);
    tb_call(b, 0, "MPI_Finalize", MS(6), MS(6.5));
    tb_call(b, 1, "MPI_Init", MS(2), MS(2.2));
    tb_enter(b, 1, MS(2.5), i2);
    tb_recv_call(b, 1, "MPI_Recv", MS(3), MS(3.3), TB_WORLD, 0, 0);
    tb_leave(b, 1, MS(3.3), i2);
    tb_call(b, 1, "MPI_Finalize", MS(3.3), MS(3.4));
    close_trace(b);
    free_network();
    m.cpu_scale = 0.5;
    predict(out);
    near(res.end, SEC(3.95), "the end");
    near(times_of(out, 0, NULL, 0).first, SEC(1.5), "rank 0's start");
    near(times_of(out, 1, NULL, 0).first, SEC(1.5), "rank 1's start");
    near(leave_of(out, 1, "MPI_Recv"), SEC(1.9), "rank 1's Recv");
    near(end_of(out, 1), SEC(1.95), "rank 1's end");

    memset(&a, 0, sizeof(a));
    cr_assert_eq(pz_analyze(out, &a, err, sizeof(err)), 0, "pz_analyze: %s", err);
    cr_assert_eq(a.nprocs, 2);
    cr_assert_eq(a.messages, 1, "one message matched, not %llu",
                 (unsigned long long)a.messages);
    cr_assert_eq(a.unmatched_sends + a.unmatched_receives, 0);
    pz_characteristics_of(&a, &a.nodes[0], &whole);
    near(whole.execution_time, res.end - SEC(1.5), "the whole run's execution time");
    near(a.nodes[0].procs[0].exec, SEC(2.45), "rank 0's whole run");
    near(a.nodes[0].procs[1].exec, SEC(0.45), "rank 1's whole run");
    cr_assert_eq(a.nnodes, 2, "the whole run and interval 2, not %d nodes", a.nnodes);
    cr_assert_eq(a.nodes[1].id, 2);
    near(a.nodes[1].procs[0].exec, SEC(1.55), "rank 0's interval");
    near(a.nodes[1].procs[1].exec, SEC(0.25), "rank 1's interval");
    pz_characteristics_of(&a, &a.nodes[1], &interval);
    near(interval.execution_time, SEC(1.55), "the interval's execution time");
    pz_analysis_free(&a);
}

/* --- computation timed by the recorded CPU time */

/* One process (ms; cpu: prognoz:cpu_time, thread CPU ms so far):
 *   Init [0, 1] (cpu 0, 0.5)  compute 4 wall, 2 CPU  Comm_rank [5, 5.5] (cpu 2.5, 2.6)
 *   compute 2 (no CPU time on the next Enter)  Finalize [7.5, 8]
 * Init takes no time.  Wall clock: 0 + 4 + 0.5 + 2 + 0.5 = 7 ms.  compute_cpu: the
 * first computation runs at its CPU share 2/4 (from Init's Leave, CPU 0.5, to
 * Comm_rank's Enter, CPU 2.5), taking 2 ms; the second has no CPU time and keeps its
 * wall time: 0 + 2 + 0.5 + 2 + 0.5 = 5 ms; one gap timed each way.  cpu_scale 2
 * doubles everything: 10 ms. */
static void cpu_trace(void)
{
    struct tb *b = trace(1);
    uint32_t init = tb_mpi(b, "MPI_Init"), rank = tb_mpi(b, "MPI_Comm_rank");

    tb_enter_cpu(b, 0, 0, init, 0);
    tb_leave_cpu(b, 0, MS(1), init, MS(0.5));
    tb_enter_cpu(b, 0, MS(5), rank, MS(2.5));
    tb_leave_cpu(b, 0, MS(5.5), rank, MS(2.6));
    tb_call(b, 0, "MPI_Finalize", MS(7.5), MS(8));
    close_trace(b);
    free_network();
}

Test(engine, computation_by_recorded_cpu_time)
{
    cpu_trace();
    cr_assert_eq(predict_opt(0, NULL), 0, "pz_predict failed: %s", err);
    near(res.end, SEC(7), "the end by the wall clock");
    cr_assert_eq(res.cpu_gaps, 0);
    cr_assert_eq(predict_opt(1, NULL), 0, "pz_predict failed: %s", err);
    near(res.end, SEC(5), "the end by CPU time");
    cr_assert_eq(res.cpu_gaps, 1, "gaps timed by CPU: %llu",
                 (unsigned long long)res.cpu_gaps);
    cr_assert_eq(res.wall_gaps, 1, "gaps timed by the wall clock: %llu",
                 (unsigned long long)res.wall_gaps);
    m.cpu_scale = 2;
    cr_assert_eq(predict_opt(1, NULL), 0, "pz_predict failed: %s", err);
    near(res.end, SEC(10), "the end by CPU time, cpu_scale 2");
}

/* --- waits, tests and combined calls */

/* Rank 0's MPI_Isend of 100000 B to rank 1 (request 1) at [0, 0.01] ms, and the MPI_Wait
 * that completes it at [enter, leave] ms. */
static void isend_100000(struct tb *b)
{
    uint32_t isend = tb_mpi(b, "MPI_Isend");

    tb_enter(b, 0, 0, isend);
    tb_mpi_isend(b, 0, 0, TB_WORLD, 1, 0, 100000, 1);
    tb_leave(b, 0, MS(0.01), isend);
}

static void wait_for_it(struct tb *b, double enter, double leave)
{
    uint32_t wait = tb_mpi(b, "MPI_Wait");

    tb_enter(b, 0, MS(enter), wait);
    tb_mpi_isend_complete(b, 0, MS(leave), 1);
    tb_leave(b, 0, MS(leave), wait);
}

/* Latency 50 us, 100 MB/s, 100000 B by rendezvous (ms):
 *   rank 0: Isend(100000 B to 1, request 1) [0, 0.01]  compute 1  Test [1.01, 1.03] (found
 *           nothing: no event)  compute 0.97  Wait [2, 12] (MpiIsendComplete 1)
 *   rank 1: Init [0, 0]  compute 10  Recv(from 0) [10, 10.5]
 * The Isend returns at once; the failed Test costs its 0.02 ms: 1 -> 1.02; the Wait
 * starts at 1.02 + 0.97 = 1.99.  RTS 0 -> 0.05; the receive is posted at 10: CTS
 * 10 -> 10.05, data 10.05 -> 11.1: the Wait and the Recv end at 11.1 ms. */
Test(engine, wait_for_a_rendezvous_isend_ends_with_its_data)
{
    struct tb *b = trace(2);
    char out[4096];

    isend_100000(b);
    tb_call(b, 0, "MPI_Test", MS(1.01), MS(1.03));
    wait_for_it(b, 2, 12);
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_recv_call(b, 1, "MPI_Recv", MS(10), MS(10.5), TB_WORLD, 0, 0);
    close_trace(b);
    latency_50us_100mbs();
    predict(out);
    near(leave_of(out, 0, "MPI_Isend"), 0, "the Isend");
    near(leave_of(out, 0, "MPI_Test"), SEC(1.02), "the failed Test");
    near(leave_of(out, 0, "MPI_Wait"), SEC(11.1), "the Wait");
    near(leave_of(out, 1, "MPI_Recv"), SEC(11.1), "the Recv");
    near(res.end, SEC(11.1), "the end");
}

/* Progress only in calls.  Latency 50 us, 100 MB/s, 100000 B by rendezvous (ms):
 *   rank 0: Isend(100000 B to 1, request 1) [0, 0.01]  compute  Wait [5, 6.5]
 *   rank 1: Init [0, 0]  compute  Recv(from 0) [0.5, 6.6]
 * The request-to-send arrives at 0.05, the receive is posted at 0.5 and sends its
 * clear-to-send at once (rank 1 is in MPI_Recv); it arrives at rank 0 at 0.55.  The
 * Isend returns at once (0) and rank 0 computes the recorded 4.99 before its Wait.  In
 * the background the data leaves at 0.55 and arrives at 1.6: the Recv ends at 1.6, the
 * Wait at its start, 4.99.  With progress = in_calls rank 0 is computing at 0.55: the
 * data leaves when it enters MPI_Wait at 4.99 and arrives at 6.04, when both calls
 * end. */
Test(engine, progress_in_calls_holds_the_data_until_the_sender_calls_mpi)
{
    struct tb *b = trace(2);
    char out[4096];

    isend_100000(b);
    wait_for_it(b, 5, 6.5);
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_recv_call(b, 1, "MPI_Recv", MS(0.5), MS(6.6), TB_WORLD, 0, 0);
    close_trace(b);
    latency_50us_100mbs();
    predict(out);
    near(leave_of(out, 1, "MPI_Recv"), SEC(1.6), "the Recv, in the background");
    near(leave_of(out, 0, "MPI_Wait"), SEC(4.99), "the Wait, in the background");
    m.progress = PZ_PROGRESS_IN_CALLS;
    predict(out);
    near(leave_of(out, 1, "MPI_Recv"), SEC(6.04), "the Recv, in calls");
    near(leave_of(out, 0, "MPI_Wait"), SEC(6.04), "the Wait, in calls");
    near(res.end, SEC(6.04), "the end, in calls");
}

/* Both processes MPI_Sendrecv 1e6 B to each other at 5 ms (latency 10 us, 1 GB/s,
 * rendezvous): send and receive are posted at the call's start, so the exchange cannot
 * deadlock.  Each RTS 5 -> 5.01 (opposite directions share no link), each CTS
 * 5.01 -> 5.02, each data 5.02 -> 6.03 ms: both calls end at 6.03 ms. */
Test(engine, sendrecv_exchange_by_rendezvous)
{
    struct tb *b = trace(2);
    uint32_t sr = tb_mpi(b, "MPI_Sendrecv");
    char out[4096];

    for (int p = 0; p < 2; p++) {
        tb_call(b, p, "MPI_Init", 0, 0);
        tb_enter(b, p, MS(5), sr);
        tb_mpi_send(b, p, MS(5), TB_WORLD, (uint32_t)(1 - p), 4, 1000000);
        tb_mpi_recv(b, p, MS(5.5), TB_WORLD, (uint32_t)(1 - p), 4, 1000000);
        tb_leave(b, p, MS(5.5), sr);
    }
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
    m.eager_threshold = 65536;
    predict(out);
    near(leave_of(out, 0, "MPI_Sendrecv"), SEC(6.03), "rank 0's Sendrecv");
    near(leave_of(out, 1, "MPI_Sendrecv"), SEC(6.03), "rank 1's Sendrecv");
    near(res.end, SEC(6.03), "the end");
}

/* A nonblocking Allreduce of 8 B on 2 processes (latency 10 us, 1 GB/s:
 * c = 10.008 us; recursive doubling: one exchange) (ms):
 *   rank 0: Iallreduce(request 3) [0, 0.01]  compute 1  Wait [1.01, 3]
 *   rank 1: Init [0, 0]  compute 2  Iallreduce(request 5) [2, 2.01]  compute 1
 *           Wait [3.01, 3.5]
 * Rank 0's data goes 0 -> c; rank 1's 2 -> 2+c.  Rank 0 waits from 1 ms until rank
 * 1's data arrives, 2 ms + c; rank 1 had rank 0's data when it posted, its part is done
 * at 2 ms, its Wait (at 2 + 1 = 3 ms) ends at once. */
Test(engine, nonblocking_collective_completes_in_its_wait)
{
    const double c = 10e-6 + 8 / 1e9;
    struct tb *b = trace(2);
    uint32_t iar = tb_mpi(b, "MPI_Iallreduce"), wait = tb_mpi(b, "MPI_Wait");
    char out[4096];

    tb_enter(b, 0, 0, iar);
    tb_nbc_request(b, 0, 0, 3);
    tb_leave(b, 0, MS(0.01), iar);
    tb_enter(b, 0, MS(1.01), wait);
    tb_nbc_complete(b, 0, MS(3), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT, 8, 8, 3);
    tb_leave(b, 0, MS(3), wait);
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_enter(b, 1, MS(2), iar);
    tb_nbc_request(b, 1, MS(2), 5);
    tb_leave(b, 1, MS(2.01), iar);
    tb_enter(b, 1, MS(3.01), wait);
    tb_nbc_complete(b, 1, MS(3.5), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT, 8, 8,
                    5);
    tb_leave(b, 1, MS(3.5), wait);
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
    predict(out);
    near(leave_of(out, 0, "MPI_Iallreduce"), 0, "rank 0's Iallreduce");
    near(leave_of(out, 0, "MPI_Wait"), SEC(2) + c, "rank 0's Wait");
    near(leave_of(out, 1, "MPI_Iallreduce"), SEC(2), "rank 1's Iallreduce");
    near(leave_of(out, 1, "MPI_Wait"), SEC(3), "rank 1's Wait");
    near(res.end, SEC(3), "the end");
}

/* An Irecv whose completion is 200 records later (beyond any read-ahead batch): it is
 * still posted with the source and tag of that completion.  (ms; latency 10 us,
 * 1 GB/s: 8 B take c = 10.008 us)
 *   rank 0: Init [0, 0]  compute 5  Send(8 B to 1, tag 9) [5, 5.1]
 *   rank 1: Irecv(request 9) [0, 0.01]  100 x Comm_rank of 0.01 back to back
 *           [0.01, 1.01]  Wait [1.01, 6] (MpiIrecv from 0, tag 9)
 * Rank 1: the Irecv returns at once, the Comm_ranks take 1 ms, the Wait starts at 1 ms
 * and ends when the data arrives, 5 ms + c, the end; rank 0's eager Send ends at 5. */
Test(engine, irecv_completed_far_ahead_is_posted)
{
    const double c = 10e-6 + 8 / 1e9;
    struct tb *b = trace(2);
    uint32_t irecv = tb_mpi(b, "MPI_Irecv"), wait = tb_mpi(b, "MPI_Wait");
    char out[4096];

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_send_call(b, 0, "MPI_Send", MS(5), MS(5.1), TB_WORLD, 1, 9);
    tb_enter(b, 1, 0, irecv);
    tb_mpi_irecv_request(b, 1, 0, 9);
    tb_leave(b, 1, MS(0.01), irecv);
    for (int i = 0; i < 100; i++)
        tb_call(b, 1, "MPI_Comm_rank", MS(0.01) + (uint64_t)i * MS(0.01),
                MS(0.01) + (uint64_t)(i + 1) * MS(0.01));
    tb_enter(b, 1, MS(1.01), wait);
    tb_mpi_irecv(b, 1, MS(6), TB_WORLD, 0, 9, 8, 9);
    tb_leave(b, 1, MS(6), wait);
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
    predict(out);
    near(leave_of(out, 1, "MPI_Irecv"), 0, "the Irecv");
    near(times_of(out, 1, "MPI_Comm_rank", 99).leave, SEC(1), "the last Comm_rank");
    near(leave_of(out, 1, "MPI_Wait"), SEC(5) + c, "the Wait");
    near(end_of(out, 0), SEC(5), "rank 0's eager Send");
    near(res.end, SEC(5) + c, "the end");
}

/* A Bcast of 8 B on communicator "sub" of world ranks {3, 1, 2} from its rank 0 (world
 * 3); world 0 is not a member.  mpich4, 3 members: binomial; the root sends to
 * relative rank 2 (world 2), then to relative rank 1 (world 1), each an eager
 * message of c = 10.008 us (latency 10 us, 1 GB/s) through the root's one out link.
 * Entered at (ms): world 3 at 1, world 1 at 0, world 2 at 0.5.
 *   world 3: 3->2 on [1, 1+c], 3->1 on [1+c, 1+2c]; its sends are eager: done at 1;
 *   world 2: receives at 1+c (and has no child); world 1: receives at 1+2c.
 * World 0 only computes: Init [0, 0.2], which takes no time, Finalize [0.2, 0.3],
 * which takes its 0.1 from 0. */
Test(engine, bcast_on_a_sub_communicator)
{
    static const int members[3] = { 3, 1, 2 };
    static const double enter[4] = { -1, 0, 0.5, 1 };
    const double c = 10e-6 + 8 / 1e9;
    const double want[4] = { -1, SEC(1) + 2 * c, SEC(1) + c, SEC(1) };
    struct tb *b = trace(4);
    uint32_t sub = tb_comm(b, "sub", 3, members), bcast = tb_mpi(b, "MPI_Bcast");
    char out[4096];

    tb_call(b, 0, "MPI_Init", 0, MS(0.2));
    tb_call(b, 0, "MPI_Finalize", MS(0.2), MS(0.3));
    for (int p = 1; p < 4; p++) {
        int root = p == 3;

        tb_call(b, p, "MPI_Init", 0, 0);
        tb_enter(b, p, MS(enter[p]), bcast);
        tb_collective_begin(b, p, MS(enter[p]));
        tb_collective_end(b, p, MS(enter[p] + 1), OTF2_COLLECTIVE_OP_BCAST, sub, 0,
                          root ? 16 : 0, root ? 0 : 8);
        tb_leave(b, p, MS(enter[p] + 1), bcast);
    }
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
    predict(out);
    for (int p = 1; p < 4; p++) {
        char what[64];

        snprintf(what, sizeof(what), "world %d's Bcast", p);
        near(leave_of(out, p, "MPI_Bcast"), want[p], what);
    }
    near(end_of(out, 0), SEC(0.1), "world 0's end");
    near(res.end, SEC(1) + 2 * c, "the end");
}

/* A blocking probe waits for the message its receive then takes: the replay leaves the
 * waiting to the receive.  Latency 10 us, 1 GB/s, eager (ms):
 *   rank 0: Init [0, 0]  compute 5  Send(8 B to 1) [5, 5.1]
 *   rank 1: Init [0, 0]  compute 1  Iprobe [1, 1.5]  Probe [1.5, 9.5]  Recv(from 0) [9.5, 9.6]
 * The Iprobe returns at once: it keeps its recorded 0.5 ms (1 to 1.5).  The Probe's 8 ms
 * were the wait for rank 0's message (on an oversubscribed node, for rank 0 to run at
 * all): it takes no time, and the Recv posted at 1.5 ms waits for the data, sent at 5 ms
 * and there at 5 + 0.01 + 8e-6 = 5.010008 ms.  Taking the Probe's recorded time instead
 * would end the Recv at 9.5 ms. */
Test(engine, a_blocking_probe_leaves_the_wait_to_its_receive)
{
    struct tb *b = trace(2);
    char out[4096];

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_send_call(b, 0, "MPI_Send", MS(5), MS(5.1), TB_WORLD, 1, 0);
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_call(b, 1, "MPI_Iprobe", MS(1), MS(1.5));
    tb_call(b, 1, "MPI_Probe", MS(1.5), MS(9.5));
    tb_recv_call(b, 1, "MPI_Recv", MS(9.5), MS(9.6), TB_WORLD, 0, 0);
    close_trace(b);
    m.latency = 10e-6;
    m.bandwidth = 1e9;
    m.eager_threshold = 1048576;
    predict(out);
    near(leave_of(out, 1, "MPI_Iprobe"), SEC(1.5), "the Iprobe");
    near(leave_of(out, 1, "MPI_Probe"), SEC(1.5), "the Probe");
    near(leave_of(out, 1, "MPI_Recv"), SEC(5.010008), "the Recv");
    near(res.end, SEC(5.010008), "the end");
}

/* --- placement */

/* Rank 1 receives from rank 0 from 0 ms; rank 0 sends 100000 B eagerly (1 MiB
 * threshold) at 1 ms (ms):
 *   rank 0: Init [0, 0]  compute 1  Send(100000 B to 1) [1, 1.1]
 *   rank 1: Init [0, 0]  Recv(from 0) [0, 2]
 * One process per node: latency 50 us + 100000 B / 100 MB/s = 1.05 ms, the Recv ends at
 * 2.05 ms.  Two per node: through memory, 1 us + 100000 B / 5 GB/s = 21 us: 1.021 ms. */
static void neighbours_trace(void)
{
    struct tb *b = trace(2);
    uint32_t send = tb_mpi(b, "MPI_Send");

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_enter(b, 0, MS(1), send);
    tb_mpi_send(b, 0, MS(1), TB_WORLD, 1, 0, 100000);
    tb_leave(b, 0, MS(1.1), send);
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_recv_call(b, 1, "MPI_Recv", 0, MS(2), TB_WORLD, 0, 0);
    close_trace(b);
    m.latency = 50e-6;
    m.bandwidth = 1e8;
    m.eager_threshold = 1048576;
    m.shm_latency = 1e-6;
    m.shm_bandwidth = 5e9;
}

Test(engine, processes_of_one_node_exchange_through_memory)
{
    char out[4096];

    neighbours_trace();
    m.procs_per_node = 1;
    predict(out);
    near(leave_of(out, 1, "MPI_Recv"), SEC(2.05), "between nodes");
    m.procs_per_node = 2;
    predict(out);
    near(leave_of(out, 1, "MPI_Recv"), SEC(1.021), "within a node");
    near(res.end, SEC(1.021), "the end within a node");
}

/* --- CPU time at interval markers */

/* The predicted time of the first Enter of the region named name by process 0. */
static double first_enter(const char *dir, const char *name)
{
    struct pz_trace_in *t = pz_trace_in_open(dir, err, sizeof(err));
    const struct pz_rec *r;
    double at = -1;

    cr_assert_not_null(t, "cannot read the predicted trace: %s", err);
    for (; at < 0 && (r = pz_trace_in_peek(t, 0, 0)); pz_trace_in_consume(t, 0, 1))
        if (r->kind == PZ_REC_ENTER && !strcmp(pz_trace_in_region(t, r->region)->name, name))
            at = ((double)r->time - (double)pz_trace_in_offset(t)) / pz_trace_in_resolution(t);
    pz_trace_in_close(t);
    return at;
}

/* An interval begins inside a computation; its Enter carries the CPU time (ms):
 *   Init [0, 1] (cpu 0, 0.5); interval Enter at 6 (cpu 1.5); Comm_rank [10, 10.5]
 *   (cpu 5.5, 5.6); interval Leave at 11 (cpu 6.1); Finalize [12, 12.5] (no CPU time).
 * Init takes no time: it ends at 0.  By CPU time the computation before the marker
 * took 1 ms (wall 5) and the one after it 4 ms (wall 4): the interval begins at
 * 0 + 1 = 1, Comm_rank at 1 + 4 = 5 and ends 0.5 later; the interval ends 0.5 after
 * that (CPU 0.5), at 6; Finalize's computation has no CPU time at its end, 1 ms of wall
 * clock: 7, and the run ends at 7.5.  (Split in proportion to wall time, as without the
 * marker's CPU time, the interval would begin at 0 + 5 x 5/9 = 2.78.) */
Test(engine, cpu_time_at_interval_markers_splits_a_computation)
{
    struct tb *b = trace(1);
    uint32_t init = tb_mpi(b, "MPI_Init"), rank = tb_mpi(b, "MPI_Comm_rank");
    uint32_t i1 = tb_interval(b, 1, "x.c", 10);
    char out[4096];

    tb_enter_cpu(b, 0, 0, init, 0);
    tb_leave_cpu(b, 0, MS(1), init, MS(0.5));
    tb_enter_cpu(b, 0, MS(6), i1, MS(1.5));
    tb_enter_cpu(b, 0, MS(10), rank, MS(5.5));
    tb_leave_cpu(b, 0, MS(10.5), rank, MS(5.6));
    tb_leave_cpu(b, 0, MS(11), i1, MS(6.1));
    tb_call(b, 0, "MPI_Finalize", MS(12), MS(12.5));
    close_trace(b);
    free_network();
    cr_assert_eq(predict_opt(1, out), 0, "pz_predict failed: %s", err);
    near(first_enter(out, "interval 1 at x.c:10"), SEC(1), "the interval's Enter");
    near(leave_of(out, 0, "MPI_Comm_rank"), SEC(5.5), "Comm_rank's Leave");
    near(leave_of(out, 0, "interval 1 at x.c:10"), SEC(6), "the interval's Leave");
    near(res.end, SEC(7.5), "the end");
}

/* --- threads (MPI_THREAD_MULTIPLE) */

/* Each thread has its own clock; messages go between processes, placed on nodes by
 * rank.  Latency 0.1 ms, 10 MB/s, one process per node: 1000 B take c = 0.1 + 0.1 =
 * 0.2 ms, eager (threshold 64 KiB); an empty message takes 0.1 ms.  Thread T of
 * process R is named R.T; tb_thread adds thread 1, 2 ... to a process. */
static void thread_network(void)
{
    m.latency = 1e-4;
    m.bandwidth = 1e7;
    m.eager_threshold = 65536;
}

/* MPI_Send and MPI_Recv of 1000 B on MPI_COMM_WORLD by location loc (ms), their
 * records where prognoz writes them. */
static void send_1000(struct tb *b, int loc, double enter, double leave, uint32_t dest,
                      uint32_t tag)
{
    uint32_t send = tb_mpi(b, "MPI_Send");

    tb_enter(b, loc, MS(enter), send);
    tb_mpi_send(b, loc, MS(enter), TB_WORLD, dest, tag, 1000);
    tb_leave(b, loc, MS(leave), send);
}

static void recv_1000(struct tb *b, int loc, double enter, double leave, uint32_t source,
                      uint32_t tag)
{
    uint32_t recv = tb_mpi(b, "MPI_Recv");

    tb_enter(b, loc, MS(enter), recv);
    tb_mpi_recv(b, loc, MS(leave), TB_WORLD, source, tag, 1000);
    tb_leave(b, loc, MS(leave), recv);
}

/* The time of thread `thread` of process p at the Leave of its first call of name. */
static double thread_leave(const char *dir, int p, int thread, const char *name)
{
    double at = thread_times(dir, p, thread, name, 0).leave;

    cr_assert_geq(at, 0, "thread %d.%d has no Leave of %s", p, thread, name);
    return at;
}

/* A message sent by thread 0.1 is received by process 1's only thread (ms):
 *   0.0: Init [0, 1]  compute 4  Finalize [5, 5.5]
 *   0.1: Send(1000 B to 1, tag 7) [2, 2.1]
 *   1.0: Init [0, 0.5]  compute 0.5  Recv(from 0, tag 7) [1, 3]  Finalize [3, 3.2]
 * Both processes enter Init at 0, the latest Enter of Init, and leave it at once.
 * Thread 0.1 starts 2 - 1 = 1 ms after its process left Init, as recorded: at 1, the
 * eager Send ends when posted, at 1.  The data travels from process 0's node,
 * 1 -> 1.2; the Recv, posted at 0.5, ends at 1.2, Finalize to 1.4.  Thread 0.0
 * computes on its own clock: Finalize from 4 to 4.5, the end.  The predicted trace has the three threads, analyzed as 0.0, 0.1 and 1.0 with the
 * one message matched. */
Test(engine, message_from_a_second_thread)
{
    struct tb *b = trace(2);
    int t01 = tb_thread(b, 0);
    struct pz_analysis a;
    char out[4096];

    tb_call(b, 0, "MPI_Init", 0, MS(1));
    tb_call(b, 0, "MPI_Finalize", MS(5), MS(5.5));
    send_1000(b, t01, 2, 2.1, 1, 7);
    tb_call(b, 1, "MPI_Init", 0, MS(0.5));
    recv_1000(b, 1, 1, 3, 0, 7);
    tb_call(b, 1, "MPI_Finalize", MS(3), MS(3.2));
    close_trace(b);
    thread_network();
    predict(out);
    cr_assert_eq(res.nprocs, 2);
    cr_assert_eq(res.nthreads, 3);
    cr_assert_eq(res.calls, 6, "6 MPI calls replayed, not %llu",
                 (unsigned long long)res.calls);
    near(thread_leave(out, 0, 1, "MPI_Send"), SEC(1), "thread 0.1's Send");
    near(thread_times(out, 0, 1, NULL, 0).first, SEC(1), "thread 0.1's start");
    near(leave_of(out, 1, "MPI_Recv"), SEC(1.2), "thread 1.0's Recv");
    near(end_of(out, 1), SEC(1.4), "thread 1.0's end");
    near(leave_of(out, 0, "MPI_Init"), 0, "thread 0.0's Init");
    near(end_of(out, 0), SEC(4.5), "thread 0.0's end");
    near(res.end, SEC(4.5), "the end");

    memset(&a, 0, sizeof(a));
    cr_assert_eq(pz_analyze(out, &a, err, sizeof(err)), 0, "pz_analyze: %s", err);
    cr_assert_eq(a.nranks, 2);
    cr_assert_eq(a.nprocs, 3, "3 threads analyzed, not %d", a.nprocs);
    cr_assert(a.threaded);
    cr_assert_eq(a.messages, 1, "one message matched, not %llu",
                 (unsigned long long)a.messages);
    cr_assert_eq(a.unmatched_sends + a.unmatched_receives, 0);
    pz_analysis_free(&a);
}

/* Threads 1 and 2 of each process exchange with the same thread of the other, tag
 * 100 + thread, at the same time (ms; R = 0, 1, the other process 1 - R):
 *   R.0: Init [0, 0.5]  compute 4.5  Finalize [5, 5.5]
 *   R.1: Send(1000 B to 1 - R, tag 101) [1, 1.1]  Recv(from 1 - R, tag 101) [1.1, 2]
 *   R.2: Send(1000 B to 1 - R, tag 102) [1.05, 1.15]  Recv(from 1 - R, tag 102) [1.15, 2.5]
 * Both processes enter Init at 0 and leave it at once; threads 1 and 2 start as long
 * after that as after Init's recorded Leave at 0.5: everything they do comes 0.5 ms
 * earlier than recorded.  The threads of a process share its node's links.  At 0.5 ms,
 * 0.1 and 1.1 send: 0 -> 1 and 1 -> 0 use different links, both on [0.5, 0.7]; their
 * Sends end at 0.5 (eager), their Recvs, posted at 0.5, at 0.7.  At 0.55 ms, 0.2 and
 * 1.2 send, but each node's out link is busy until 0.7: both messages go on [0.7, 0.9];
 * the Sends end at 0.55, the Recvs at 0.9 (threads placed on nodes of their own would
 * have had them at 0.75).  R.0 computes 4.5 from 0: Finalize [4.5, 5], the end. */
Test(engine, two_threads_each_exchange_with_the_same_thread)
{
    static const double send_at[3] = { 0, 1, 1.05 }, recv_leave[3] = { 0, 2, 2.5 };
    static const double want_send[3] = { 0, 0.5, 0.55 }, want_recv[3] = { 0, 0.7, 0.9 };
    struct tb *b = trace(2);
    int loc[2][3];
    char out[4096];

    for (int r = 0; r < 2; r++) {
        loc[r][0] = r;
        loc[r][1] = tb_thread(b, r);
        loc[r][2] = tb_thread(b, r);
        tb_call(b, r, "MPI_Init", 0, MS(0.5));
        tb_call(b, r, "MPI_Finalize", MS(5), MS(5.5));
        for (int t = 1; t <= 2; t++) {
            send_1000(b, loc[r][t], send_at[t], send_at[t] + 0.1, (uint32_t)(1 - r),
                      (uint32_t)(100 + t));
            recv_1000(b, loc[r][t], send_at[t] + 0.1, recv_leave[t], (uint32_t)(1 - r),
                      (uint32_t)(100 + t));
        }
    }
    close_trace(b);
    thread_network();
    predict(out);
    cr_assert_eq(res.nthreads, 6);
    for (int r = 0; r < 2; r++) {
        for (int t = 1; t <= 2; t++) {
            char what[64];

            snprintf(what, sizeof(what), "thread %d.%d's Send", r, t);
            near(thread_leave(out, r, t, "MPI_Send"), SEC(want_send[t]), what);
            snprintf(what, sizeof(what), "thread %d.%d's Recv", r, t);
            near(thread_leave(out, r, t, "MPI_Recv"), SEC(want_recv[t]), what);
        }
        near(end_of(out, r), SEC(5), "a first thread's end");
    }
    near(res.end, SEC(5), "the end");
}

/* Receives of one source and tag posted by two threads match the messages in the order
 * they were posted, whichever thread posts (ms):
 *   0.0: Init [0, 0]  compute 1  Send(1000 B to 1, tag 7) [1, 1.1]  compute 0.9
 *        Send(1000 B to 1, tag 7) [2, 2.1]
 *   1.0: Init [0, 0]  compute 0.8  Recv(from 0, tag 7) [0.8, 3]
 *   1.1: Recv(from 0, tag 7) [0.5, 2.2]
 * Thread 1.1 posts first (0.5) and gets the first message, sent at 1 and arrived at 1.2;
 * thread 1.0 (0.8) the second, sent 0.9 ms after the first Send ended (at once, at 1):
 * sent at 1.9, arrived at 2.1. */
Test(engine, receives_of_two_threads_match_in_posting_order)
{
    struct tb *b = trace(2);
    int t11 = tb_thread(b, 1);
    char out[4096];

    tb_call(b, 0, "MPI_Init", 0, 0);
    send_1000(b, 0, 1, 1.1, 1, 7);
    send_1000(b, 0, 2, 2.1, 1, 7);
    tb_call(b, 1, "MPI_Init", 0, 0);
    recv_1000(b, 1, 0.8, 3, 0, 7);
    recv_1000(b, t11, 0.5, 2.2, 0, 7);
    close_trace(b);
    thread_network();
    predict(out);
    near(thread_leave(out, 1, 1, "MPI_Recv"), SEC(1.2), "thread 1.1's Recv");
    near(leave_of(out, 1, "MPI_Recv"), SEC(2.1), "thread 1.0's Recv");
}

/* A Barrier called by thread 0.1 is process 0's part (ms):
 *   0.0: Init [0, 0.5]  compute 2.5  Finalize [3, 3.2]
 *   0.1: Barrier [1, 2]
 *   1.0: Init [0, 0.5]  compute 1  Barrier [1.5, 2]  Finalize [2, 2.1]
 * Both processes enter Init at 0 and leave it at once; thread 0.1 starts 1 - 0.5 =
 * 0.5 ms after its process left Init, as recorded.  Two processes (either MPI set): one
 * exchange of empty messages, 0.1 ms each.  Thread 0.1's token leaves at 0.5 and
 * arrives at 0.6; process 1's leaves at 0 + 1 = 1 and arrives at 1.1.  Thread 0.1's
 * Barrier ends at 1.1, process 1's at 1 (the other token had arrived): its Finalize to
 * 1.1.  Thread 0.0 computes 2.5 from 0: Finalize [2.5, 2.7], the end. */
Test(engine, collective_of_a_second_thread)
{
    struct tb *b = trace(2);
    int t01 = tb_thread(b, 0);
    char out[4096];

    tb_call(b, 0, "MPI_Init", 0, MS(0.5));
    tb_call(b, 0, "MPI_Finalize", MS(3), MS(3.2));
    tb_collective_call(b, t01, "MPI_Barrier", MS(1), MS(2), OTF2_COLLECTIVE_OP_BARRIER,
                       TB_WORLD, TB_NO_ROOT);
    tb_call(b, 1, "MPI_Init", 0, MS(0.5));
    tb_collective_call(b, 1, "MPI_Barrier", MS(1.5), MS(2), OTF2_COLLECTIVE_OP_BARRIER,
                       TB_WORLD, TB_NO_ROOT);
    tb_call(b, 1, "MPI_Finalize", MS(2), MS(2.1));
    close_trace(b);
    thread_network();
    predict(out);
    near(thread_leave(out, 0, 1, "MPI_Barrier"), SEC(1.1), "thread 0.1's Barrier");
    near(leave_of(out, 1, "MPI_Barrier"), SEC(1), "thread 1.0's Barrier");
    near(end_of(out, 1), SEC(1.1), "thread 1.0's end");
    near(end_of(out, 0), SEC(2.7), "thread 0.0's end");
    near(res.end, SEC(2.7), "the end");
}

/* Thread 0.1 receives, inside interval 3 at t.c:30, a message nobody sends; the other
 * threads finish.  The report names the thread that waits as RANK.THREAD. */
Test(engine, deadlock_names_the_waiting_thread)
{
    struct tb *b = trace(2);
    int t01 = tb_thread(b, 0);
    uint32_t i3 = tb_interval(b, 3, "src/t.c", 30);

    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_call(b, 0, "MPI_Finalize", MS(3), MS(3.1));
    tb_enter(b, t01, MS(0.5), i3);
    tb_recv_call(b, t01, "MPI_Recv", MS(1), MS(2), TB_WORLD, 1, 5);
    tb_leave(b, t01, MS(2), i3);
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_call(b, 1, "MPI_Finalize", MS(1), MS(1.1));
    close_trace(b);
    free_network();
    cr_assert_eq(predict_opt(0, NULL), -1, "a receive nobody matches must fail");
    cr_assert(strstr(err, "the run cannot complete: thread 0.1 waits in MPI_Recv "
                          "(interval 3 at t.c:30)"), "message: %s", err);
    cr_assert_null(strstr(err, "0.0"), "thread 0.0 finished: %s", err);
    cr_assert_null(strstr(err, "1.0"), "thread 1.0 finished: %s", err);
}

/* --- a synthesized run replayed from its archive and in memory */

/* A ring recorded at n processes: p sends to p + 1 and receives from p - 1, around. */
static void record_ring(const char *dir, int n)
{
    struct tb *b = tb_open(dir, n);

    cr_assert_not_null(b, "cannot open a trace in %s", dir);
    for (int p = 0; p < n; p++) {
        tb_send_call(b, p, "MPI_Send", MS(1), MS(2), TB_WORLD, (uint32_t)(p + 1) % (uint32_t)n, 0);
        tb_recv_call(b, p, "MPI_Recv", MS(3), MS(4), TB_WORLD,
                     (uint32_t)(p + n - 1) % (uint32_t)n, 0);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* Every record of both predicted traces, thread by thread, the same. */
static void expect_same_records(const char *a, const char *b)
{
    struct pz_trace_in *x = pz_trace_in_open(a, err, sizeof(err));
    struct pz_trace_in *y;
    uint64_t n = 0;

    cr_assert_not_null(x, "%s", err);
    y = pz_trace_in_open(b, err, sizeof(err));
    cr_assert_not_null(y, "%s", err);
    cr_assert_eq(pz_trace_in_nthreads(x), pz_trace_in_nthreads(y));
    for (int th = 0; th < pz_trace_in_nthreads(x); th++) {
        const struct pz_rec *r, *q;

        while ((r = pz_trace_in_peek(x, th, 0))) {
            q = pz_trace_in_peek(y, th, 0);
            cr_assert_not_null(q, "thread %d: fewer records in memory", th);
            cr_expect(r->time == q->time && r->kind == q->kind && r->region == q->region &&
                      r->peer == q->peer && r->comm == q->comm && r->tag == q->tag &&
                      r->bytes == q->bytes && r->request == q->request && r->cpu == q->cpu,
                      "thread %d: record %llu differs", th, (unsigned long long)n);
            pz_trace_in_consume(x, th, 1);
            pz_trace_in_consume(y, th, 1);
            n++;
        }
        cr_expect_null(pz_trace_in_peek(y, th, 0), "thread %d: more records in memory", th);
    }
    cr_expect_gt(n, 0);
    pz_trace_in_close(x);
    pz_trace_in_close(y);
}

/* A run synthesized from recordings and replayed both ways: from its archive (at
 * synthesized, the predicted trace at from_archive_trace) and in memory (its trace at
 * in_memory_trace). */
struct both_ways {
    struct pz_prediction from_archive, in_memory;
    char synthesized[4200], from_archive_trace[4200], in_memory_trace[4200];
};

/* The program record writes at counts[0..2] processes (in top/NAME<count>), synthesized
 * at nprocs and replayed both ways into w: the same end and records, record by record. */
static void replay_both_ways(const char *name, void (*record)(const char *, int),
                             const int *counts, int nprocs, struct both_ways *w)
{
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3];
    struct pz_predict_options o = { .machine = &m };
    struct pz_scale_program *prog;
    struct pz_scale_synth *s;
    char dir[4200];

    memset(runs, 0, sizeof(runs));
    for (int i = 0; i < 3; i++) {
        snprintf(dir, sizeof(dir), "%s/%s%d", top, name, counts[i]);
        record(dir, counts[i]);
        cr_assert_eq(pz_scale_run_read(dir, &runs[i], err, sizeof(err)), 0, "%s", err);
        list[i] = &runs[i];
    }
    prog = pz_scale_program_build(list, 3, 0, err, sizeof(err));
    cr_assert_not_null(prog, "%s", err);
    snprintf(w->synthesized, sizeof(w->synthesized), "%s/P%d", top, nprocs);
    snprintf(w->from_archive_trace, sizeof(w->from_archive_trace), "%s/from-archive", top);
    snprintf(w->in_memory_trace, sizeof(w->in_memory_trace), "%s/in-memory", top);
    cr_assert_eq(pz_scale_synthesize_archive(prog, nprocs, w->synthesized, err, sizeof(err)),
                 0, "%s", err);
    o.output = w->from_archive_trace;
    cr_assert_eq(pz_predict(w->synthesized, &o, &w->from_archive, err, sizeof(err)), 0, "%s",
                 err);
    s = pz_scale_synth_new(prog, nprocs, err, sizeof(err));
    cr_assert_not_null(s, "%s", err);
    o.output = w->in_memory_trace;
    cr_assert_eq(pz_scale_predict(s, &o, &w->in_memory, err, sizeof(err)), 0, "%s", err);
    cr_expect_eq(w->in_memory.records, w->from_archive.records);
    cr_expect_eq(w->in_memory.end, w->from_archive.end,
                 "end %.17g in memory, %.17g from the archive", w->in_memory.end,
                 w->from_archive.end);
    expect_same_records(w->from_archive_trace, w->in_memory_trace);
    pz_scale_synth_free(s);
    pz_scale_program_free(prog);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
}

/* The ring recorded at 3, 4 and 5 processes, synthesized at 8: replayed from the
 * synthesized archive and from the synthesis in memory, the same end, records, calls and
 * predicted records (8 processes x 2 calls, each an Enter, a message and a Leave: 48). */
Test(engine, synthesized_run_replays_the_same_in_memory_as_from_its_archive)
{
    static const int counts[3] = {3, 4, 5};
    struct both_ways w;

    replay_both_ways("ring", record_ring, counts, 8, &w);
    cr_expect_eq(w.in_memory.nprocs, 8);
    cr_expect_eq(w.in_memory.records, 48);
    cr_expect_eq(w.in_memory.calls, w.from_archive.calls);
}

/* An Alltoallv recorded at n processes whose sizes the data decide: 65536 / n bytes per
 * pair on the mean, the even ranks sending half that to each other member and
 * receiving one and a half times it, the odd ones the other way round; the recording
 * defines the attributes of the per-peer lists, as the recorder does. */
static void record_skewed_alltoallv(const char *dir, int n)
{
    struct tb *b = tb_open(dir, n);
    uint64_t pairs = (uint64_t)(n - 1) * (65536 / (uint64_t)n);

    cr_assert_not_null(b, "cannot open a trace in %s", dir);
    tb_define_lists(b);
    for (int p = 0; p < n; p++) {
        uint32_t r = tb_mpi(b, "MPI_Alltoallv");

        tb_enter(b, p, MS(1), r);
        tb_collective_begin(b, p, MS(1));
        tb_collective_end(b, p, MS(3), OTF2_COLLECTIVE_OP_ALLTOALLV, TB_WORLD, TB_NO_ROOT,
                          p % 2 ? pairs * 3 / 2 : pairs / 2, p % 2 ? pairs / 2 : pairs * 3 / 2);
        tb_leave(b, p, MS(3), r);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* The first collective end of process p in the trace at dir: its send and receive
 * lists' texts (NULL: none) into send and recv (copied, 4096 bytes each). */
static void first_lists(const char *dir, int p, char *send, char *recv)
{
    struct pz_trace_in *t = pz_trace_in_open(dir, err, sizeof(err));
    const struct pz_rec *r;
    int th;

    cr_assert_not_null(t, "%s", err);
    th = pz_trace_in_first(t, p);
    while ((r = pz_trace_in_peek(t, th, 0)) && r->kind != PZ_REC_COLL_END)
        pz_trace_in_consume(t, th, 1);
    cr_assert_not_null(r, "process %d: no collective", p);
    cr_assert_not_null(pz_trace_in_string(t, r->send_list), "process %d: no send list", p);
    cr_assert_not_null(pz_trace_in_string(t, r->recv_list), "process %d: no receive list", p);
    snprintf(send, 4096, "%s", pz_trace_in_string(t, r->send_list));
    snprintf(recv, 4096, "%s", pz_trace_in_string(t, r->recv_list));
    pz_trace_in_close(t);
}

/* The Alltoallv recorded at 2, 4 and 8 processes, synthesized at 16: its ends carry
 * per-peer lists (16 entries, the process's own 0), in the synthesized archive and in
 * the trace predicted in memory alike, and the replays from both end at the same time
 * with the same records. */
Test(engine, a_synthesized_alltoallv_s_lists_replay_the_same_in_memory_as_from_its_archive)
{
    static const int counts[3] = {2, 4, 8};
    char send[2][4096], recv[2][4096];
    struct both_ways w;

    replay_both_ways("skewed", record_skewed_alltoallv, counts, 16, &w);
    for (int p = 0; p < 16; p += 5) {
        int commas = 0;

        first_lists(w.synthesized, p, send[0], recv[0]);
        first_lists(w.in_memory_trace, p, send[1], recv[1]);
        cr_expect_str_eq(send[0], send[1], "process %d", p);
        cr_expect_str_eq(recv[0], recv[1], "process %d", p);
        for (const char *c = send[0]; *c; c++)
            commas += *c == ',';
        cr_expect_eq(commas, 15, "process %d: \"%s\"", p, send[0]);
    }
}

/* --- one-sided communication: transfers through the network, completed at the
 * synchronization call */

/* Records of kind in process p's stream of the trace at dir. */
static int records_of(const char *dir, int p, enum pz_rec_kind kind)
{
    struct pz_trace_in *t = pz_trace_in_open(dir, err, sizeof(err));
    const struct pz_rec *r;
    int n = 0, th;

    cr_assert_not_null(t, "cannot read the predicted trace: %s", err);
    th = pz_trace_in_first(t, p);
    for (; (r = pz_trace_in_peek(t, th, 0)); pz_trace_in_consume(t, th, 1))
        n += r->kind == kind;
    pz_trace_in_close(t);
    return n;
}

/* A Put epoch between two fences on window 0 of MPI_COMM_WORLD; latency 50 us,
 * 100 MB/s: the Put's 100000 B take 1.05 ms, a barrier's message of 0 B 50 us; the
 * fences are MPICH 4's dissemination barrier, of 2 processes one message each way.  (ms)
 *   rank 0: Init [0, 0]  Fence [1, 1.3]  Put(100000 B to 1) [2, 2.01]  Fence [3, 4]
 *           Finalize [4, 4.1]
 *   rank 1: Init [0, 0]  Fence [1.2, 1.3]  Fence [2.1, 4]  Finalize [4, 4.1]
 * The first fence, on a bus or a switch alike: rank 0's message 1 -> 1.05, rank 1's
 * 1.2 -> 1.25; rank 1 has rank 0's at its post and leaves at 1.2, rank 0 at 1.25.
 * Rank 0 computes 0.7: the Put goes at 1.95, its data 1.95 -> 3.0 (the call ends at
 * once); 0.99 more and rank 0 enters the second fence at 2.94.  Rank 1 computes 0.8
 * and enters it at 2.0.
 *   switch: rank 1's message (its link out and rank 0's in are free) 2.0 -> 2.05; rank
 *     0's waits for its link out, which the Put holds until 3.0: 3.0 -> 3.05.  Rank 0
 *     has its barrier at 2.94 but leaves with the Put, at 3.0 (Finalize to 3.1); rank 1
 *     at 3.05 (Finalize to 3.15, the end).
 *   bus: the Put holds the whole network until 3.0: rank 1's message (asked for at 2.0)
 *     3.0 -> 3.05, rank 0's (at 2.94) 3.05 -> 3.1.  Rank 0 leaves at 3.05 (Finalize to
 *     3.15), rank 1 at 3.1 (Finalize to 3.2, the end). */
static void put_fence_epoch(enum pz_network_kind network, const double want[2], double end)
{
    struct tb *b = trace(2);
    uint32_t put = tb_mpi(b, "MPI_Put");
    char out[4096];

    tb_rma_window(b);
    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_fence_call(b, 0, MS(1), MS(1.3));
    tb_enter(b, 0, MS(2), put);
    tb_rma_put(b, 0, MS(2), 1, 100000);
    tb_leave(b, 0, MS(2.01), put);
    tb_fence_call(b, 0, MS(3), MS(4));
    tb_call(b, 0, "MPI_Finalize", MS(4), MS(4.1));
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_fence_call(b, 1, MS(1.2), MS(1.3));
    tb_fence_call(b, 1, MS(2.1), MS(4));
    tb_call(b, 1, "MPI_Finalize", MS(4), MS(4.1));
    close_trace(b);
    latency_50us_100mbs();
    m.network = network;
    predict(out);
    near(times_of(out, 0, "MPI_Win_fence", 0).leave, SEC(1.25), "rank 0's first fence");
    near(times_of(out, 1, "MPI_Win_fence", 0).leave, SEC(1.2), "rank 1's first fence");
    near(leave_of(out, 0, "MPI_Put"), SEC(1.95), "the Put");
    near(times_of(out, 0, "MPI_Win_fence", 1).leave, SEC(want[0]), "rank 0's second fence");
    near(times_of(out, 1, "MPI_Win_fence", 1).leave, SEC(want[1]), "rank 1's second fence");
    near(res.end, SEC(end), "the end");
    cr_assert_eq(records_of(out, 0, PZ_REC_RMA_PUT), 1, "the Put's record is kept");
    cr_assert_eq(records_of(out, 1, PZ_REC_RMA_COLL_END), 2, "the fences' records are kept");
}

Test(engine, put_fence_epoch_on_a_switch)
{
    static const double want[2] = { 3.0, 3.05 };

    put_fence_epoch(PZ_NET_SWITCH, want, 3.15);
}

Test(engine, put_fence_epoch_on_a_bus)
{
    static const double want[2] = { 3.05, 3.1 };

    put_fence_epoch(PZ_NET_BUS, want, 3.2);
}

/* A Get under a lock, on a switch with latency 50 us and 100 MB/s.  (ms)
 *   rank 0: Init [0, 0]  Win_lock(1) [1, 1.1]  Get(100000 B from 1) [1.1, 1.2]
 *           Win_unlock(1) [1.2, 1.5]  Finalize [1.5, 1.6]
 *   rank 1: Init [0, 0]  Finalize [3, 3.1]
 * The lock communicates nothing: its recorded 0.1, to 1.1.  The Get's request goes
 * 1.1 -> 1.15, its 100000 B back 1.15 -> 2.2; the Get call ends at once (1.1), the
 * unlock with the data (2.2), Finalize 2.2 -> 2.3.  Rank 1 takes no part: it finishes
 * as recorded, 3.1, the end. */
Test(engine, get_under_a_lock_completes_at_the_unlock)
{
    struct tb *b = trace(2);
    uint32_t lock = tb_mpi(b, "MPI_Win_lock"), get = tb_mpi(b, "MPI_Get");
    uint32_t unlock = tb_mpi(b, "MPI_Win_unlock");
    char out[4096];

    tb_rma_window(b);
    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_enter(b, 0, MS(1), lock);
    tb_rma_lock(b, 0, MS(1.1), 1);
    tb_leave(b, 0, MS(1.1), lock);
    tb_enter(b, 0, MS(1.1), get);
    tb_rma_get(b, 0, MS(1.1), 1, 100000);
    tb_leave(b, 0, MS(1.2), get);
    tb_enter(b, 0, MS(1.2), unlock);
    tb_rma_unlock(b, 0, MS(1.5), 1);
    tb_leave(b, 0, MS(1.5), unlock);
    tb_call(b, 0, "MPI_Finalize", MS(1.5), MS(1.6));
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_call(b, 1, "MPI_Finalize", MS(3), MS(3.1));
    close_trace(b);
    latency_50us_100mbs();
    predict(out);
    near(leave_of(out, 0, "MPI_Win_lock"), SEC(1.1), "the lock");
    near(leave_of(out, 0, "MPI_Get"), SEC(1.1), "the Get");
    near(leave_of(out, 0, "MPI_Win_unlock"), SEC(2.2), "the unlock");
    near(end_of(out, 0), SEC(2.3), "rank 0's end");
    near(res.end, SEC(3.1), "the end");
    cr_assert_eq(records_of(out, 0, PZ_REC_RMA_RELEASE), 1, "the unlock's record is kept");
}

/* Two origins lock rank 0's window, rank 1 first; latency 50 us (a lock's request, its
 * grant and a release: 0 B each).  (ms)
 *   rank 0: Init [0, 0]  Finalize [3, 3.1]
 *   rank 1: Init [0, 0]  Win_lock(0) [1, 1.1]  Win_unlock(0) [1.1, 2.5]
 *           Finalize [2.5, 2.6]
 *   rank 2: Init [0, 0]  Win_lock(0) [1.2, 2.7]  Win_unlock(0) [2.7, 2.8]
 *           Finalize [2.8, 2.9]
 * Rank 1's request 1 -> 1.05, granted at once, the grant back 1.05 -> 1.1: its lock
 * ends at 1.1.  Its unlock waits for no transfer: its recorded 1.4, to 2.5, when its
 * release leaves, 2.5 -> 2.55; Finalize 2.5 -> 2.6.  Rank 2's request 1.2 -> 1.25:
 *   exclusive: rank 1 holds the lock: granted when the release arrives, 2.55, the
 *     grant 2.55 -> 2.6; unlock 2.6 -> 2.7, Finalize 2.7 -> 2.8.
 *   shared: granted at once, the grant 1.25 -> 1.3; unlock 1.3 -> 1.4, Finalize
 *     1.4 -> 1.5.
 * Rank 0 takes no part: Finalize 3 -> 3.1, the end. */
static void two_locks(OTF2_LockType type, double lock2, double end2)
{
    struct tb *b = trace(3);
    uint32_t lock = tb_mpi(b, "MPI_Win_lock"), unlock = tb_mpi(b, "MPI_Win_unlock");
    static const double enter[3] = { 0, 1, 1.2 }, leave[3] = { 0, 1.1, 2.7 },
                        unlocked[3] = { 0, 2.5, 2.8 };
    char out[4096];

    tb_rma_window(b);
    for (int p = 0; p < 3; p++) {
        tb_call(b, p, "MPI_Init", 0, 0);
        if (p > 0) {
            tb_enter(b, p, MS(enter[p]), lock);
            tb_rma_lock_type(b, p, MS(leave[p]), 0, type);
            tb_leave(b, p, MS(leave[p]), lock);
            tb_enter(b, p, MS(leave[p]), unlock);
            tb_rma_unlock(b, p, MS(unlocked[p]), 0);
            tb_leave(b, p, MS(unlocked[p]), unlock);
        }
        tb_call(b, p, "MPI_Finalize", MS(p ? unlocked[p] : 3), MS(p ? unlocked[p] + 0.1 : 3.1));
    }
    close_trace(b);
    latency_50us_100mbs();
    predict(out);
    near(leave_of(out, 1, "MPI_Win_lock"), SEC(1.1), "rank 1's lock");
    near(leave_of(out, 1, "MPI_Win_unlock"), SEC(2.5), "rank 1's unlock");
    near(leave_of(out, 2, "MPI_Win_lock"), SEC(lock2), "rank 2's lock");
    near(end_of(out, 2), SEC(end2), "rank 2's end");
    near(res.end, SEC(3.1), "the end");
}

Test(engine, exclusive_lock_waits_for_the_release)
{
    two_locks(OTF2_LOCK_EXCLUSIVE, 2.6, 2.8);
}

Test(engine, shared_locks_share)
{
    two_locks(OTF2_LOCK_SHARED, 1.3, 1.5);
}

/* A post/start/complete/wait epoch each way on window 0 of MPI_COMM_WORLD, each rank
 * the other's origin and target; latency 50 us, 100 MB/s: a signal of 0 B takes 50 us,
 * the Put's 100000 B 1.05 ms.  (ms)
 *   rank p: Init [0, 0]  Win_post(group {1 - p}) [t, t + 0.1]  Win_start(same)
 *           [t + 0.1, t + 0.2]  Put(100000 B to 1 - p) [t + 0.2, t + 0.3]
 *           Win_complete [t + 0.3, 4]  Win_wait [4, 4.5]  Finalize [4.5, 4.6]
 *   with t = 1 for rank 0, 0.5 for rank 1.
 * Post, start and put end as they start: rank 1's at 0.5, rank 0's at 1.  Rank 1's
 * post signal goes 0.5 -> 0.55; its Put waits for rank 0's post.  At 1, rank 0's post
 * signal, a control message holding no link, goes 1 -> 1.05; its start has rank 1's
 * post already, so its Put goes at once: 1 -> 2.05.  Rank 0's complete ends with it,
 * 2.05, and signals rank 1: 2.05 -> 2.1.  Rank 0's post reaches rank 1 at 1.05: rank
 * 1's Put goes.
 *   switch: rank 1's links are free: 1.05 -> 2.1; its complete ends at 2.1 and its
 *     signal goes 2.1 -> 2.15.  Rank 1's wait ends at 2.1 (rank 0's signal is there),
 *     rank 0's at 2.15; Finalize 2.2 and 2.25, the end.
 *   bus: rank 1's Put waits for rank 0's: 2.05 -> 3.1, when its complete ends, and its
 *     signal goes 3.1 -> 3.15.  Rank 1's wait ends at 3.1 (rank 0's signal arrived at
 *     2.1; Finalize 3.2), rank 0's at 3.15 (Finalize 3.25, the end). */
static void pscw_epoch(enum pz_network_kind network, const double complete[2],
                       const double wait[2], double end)
{
    static const int zero = 0, one = 1;
    struct tb *b = trace(2);
    uint32_t put = tb_mpi(b, "MPI_Put"), group[2];
    const OTF2_RmaSyncLevel opens = OTF2_RMA_SYNC_LEVEL_PROCESS,
                            closes = OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY;
    char out[4096];

    tb_rma_window(b);
    group[0] = tb_group(b, 1, &one);     /* rank 0's epochs: with rank 1 */
    group[1] = tb_group(b, 1, &zero);
    for (int p = 0; p < 2; p++) {
        double t = p == 0 ? 1 : 0.5;

        tb_call(b, p, "MPI_Init", 0, 0);
        tb_epoch_call(b, p, "MPI_Win_post", MS(t), MS(t + 0.1), opens, group[p]);
        tb_epoch_call(b, p, "MPI_Win_start", MS(t + 0.1), MS(t + 0.2), opens, group[p]);
        tb_enter(b, p, MS(t + 0.2), put);
        tb_rma_put(b, p, MS(t + 0.2), 1 - (uint32_t)p, 100000);
        tb_leave(b, p, MS(t + 0.3), put);
        tb_epoch_call(b, p, "MPI_Win_complete", MS(t + 0.3), MS(4), closes, group[p]);
        tb_epoch_call(b, p, "MPI_Win_wait", MS(4), MS(4.5), closes, group[p]);
        tb_call(b, p, "MPI_Finalize", MS(4.5), MS(4.6));
    }
    close_trace(b);
    latency_50us_100mbs();
    m.network = network;
    predict(out);
    for (int p = 0; p < 2; p++) {
        static const char *const calls[] = { "MPI_Win_post", "MPI_Win_start", "MPI_Put" };
        double t = p == 0 ? 1 : 0.5;

        for (int c = 0; c < 3; c++)
            near(leave_of(out, p, calls[c]), SEC(t), calls[c]);
        near(leave_of(out, p, "MPI_Win_complete"), SEC(complete[p]), "MPI_Win_complete");
        near(leave_of(out, p, "MPI_Win_wait"), SEC(wait[p]), "MPI_Win_wait");
        cr_assert_eq(records_of(out, p, PZ_REC_RMA_GROUP_SYNC), 4,
                     "rank %d's group synchronizations are kept", p);
    }
    near(res.end, SEC(end), "the end");
}

Test(engine, pscw_epoch_on_a_switch)
{
    static const double complete[2] = { 2.05, 2.1 }, wait[2] = { 2.15, 2.1 };

    pscw_epoch(PZ_NET_SWITCH, complete, wait, 2.25);
}

Test(engine, pscw_epoch_on_a_bus)
{
    static const double complete[2] = { 2.05, 3.1 }, wait[2] = { 3.15, 3.1 };

    pscw_epoch(PZ_NET_BUS, complete, wait, 3.25);
}
