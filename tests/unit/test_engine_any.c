/* The replay's pools of MPI_Waitany / MPI_Waitsome calls (replay/engine_any.c) on
 * traces built by hand: a call of a pool completes, among the requests of the pool's
 * calls, the one(s) the model completes first (ties: the recorded ones), and the
 * predicted trace names in each call the request completed there; a pool that cannot
 * be reordered soundly keeps the recorded completions.  Every expected value below is
 * derived from those rules and the model's cost, not copied from the program.
 *
 * The machine: a switch, one process per node, latency 50 us and 100 MB/s, no
 * overheads: an 8-byte message (eager) arrives 50 us + 8 B / 1e8 B/s = 0.05008 ms after
 * its send.  Computation takes its recorded time (cpu_scale 1); a call that
 * communicates ends when what it completes has arrived.  Times in the traces are in ns
 * (TB_MS), in the prediction in seconds; the predicted trace holds whole ns, so times
 * are compared to 1e-9 s. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "engine.h"
#include "tempdir_fixture.h"
#include "trace_builder.h"
#include "trace_in.h"

#define MS TB_MS
#define SEC(ms) ((ms) * 1e-3)
#define EPS 1e-9
#define NO_SEND -1.0

static char rec[4096];
static struct pz_machine m;
static struct pz_prediction res;

/* The temporary directory (tempdir_fixture.h), the trace's place in it, the machine. */
static void setup_any(void)
{
    setup();
    snprintf(rec, sizeof(rec), "%s/rec", top);
    pz_machine_defaults(&m);
    m.network = PZ_NET_SWITCH;
    m.procs_per_node = 1;
    m.cpu_scale = 1;
    m.latency = 50e-6;
    m.bandwidth = 1e8;
    m.eager_threshold = 65536;
}

TestSuite(engine_any, .init = setup_any, .fini = cleanup);

static void near(double got, double want, const char *what)
{
    cr_assert_float_eq(got, want, EPS, "%s: %.9f s, expected %.9f s", what, got, want);
}

/* The trace of every test but the Waitsome one (ms):
 *   rank 0: Init [0, 0]  `post` [0, 0] posting receives 1 (from 1, tag 5) and 2 (from 2,
 *           tag 5, or from MPI_PROC_NULL)  compute to w  `wait1` [w, w + 0.1]
 *           completing 1  compute 0.4  `wait2` [w + 0.5, w + 0.6] completing 2
 *           compute 0.2  Finalize [w + 0.8, w + 0.9]
 *   rank 1: Init [0, 0]  compute to s1  Send(8 B to 0, tag 5) [s1, s1 + 0.1]  Finalize
 *   rank 2: the same at s2 (no send if s2 is NO_SEND)
 * `post` is MPI_Irecv twice, or MPI_Startall starting both (persistent receives). */
struct shape {
    const char *post, *wait1, *wait2;
    double w, s1, s2;
    int proc_null;         /* request 2 receives from MPI_PROC_NULL */
};

static void sender(struct tb *b, int p, double at)
{
    tb_call(b, p, "MPI_Init", 0, 0);
    if (at == NO_SEND) {
        tb_call(b, p, "MPI_Finalize", MS(0.1), MS(0.2));
        return;
    }
    tb_send_call(b, p, "MPI_Send", MS(at), MS(at + 0.1), TB_WORLD, 0, 5);
    tb_call(b, p, "MPI_Finalize", MS(at + 0.1), MS(at + 0.2));
}

/* Process 0 posts receive requests 1..n at time 0, one call of region each. */
static void posted(struct tb *b, uint32_t region, uint64_t n)
{
    for (uint64_t request = 1; request <= n; request++) {
        tb_enter(b, 0, 0, region);
        tb_mpi_irecv_request(b, 0, 0, request);
        tb_leave(b, 0, 0, region);
    }
}

static void posts(struct tb *b, const char *name)
{
    uint32_t region = tb_mpi(b, name);

    if (!strcmp(name, "MPI_Startall")) {
        tb_enter(b, 0, 0, region);
        tb_mpi_irecv_request(b, 0, 0, 1);
        tb_mpi_irecv_request(b, 0, 0, 2);
        tb_leave(b, 0, 0, region);
        return;
    }
    posted(b, region, 2);
}

static void build(const struct shape *s)
{
    struct tb *b = tb_open(rec, 3);
    uint32_t wait1, wait2;
    double w = s->w;

    cr_assert_not_null(b, "cannot open a trace in %s", rec);
    wait1 = tb_mpi(b, s->wait1);
    wait2 = tb_mpi(b, s->wait2);
    tb_call(b, 0, "MPI_Init", 0, 0);
    posts(b, s->post);
    tb_enter(b, 0, MS(w), wait1);
    tb_mpi_irecv(b, 0, MS(w + 0.1), TB_WORLD, 1, 5, 8, 1);
    tb_leave(b, 0, MS(w + 0.1), wait1);
    tb_enter(b, 0, MS(w + 0.5), wait2);
    tb_mpi_irecv(b, 0, MS(w + 0.6), TB_WORLD, s->proc_null ? OTF2_UNDEFINED_UINT32 : 2, 5,
                 s->proc_null ? 0 : 8, 2);
    tb_leave(b, 0, MS(w + 0.6), wait2);
    tb_call(b, 0, "MPI_Finalize", MS(w + 0.8), MS(w + 0.9));
    sender(b, 1, s->s1);
    sender(b, 2, s->s2);
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* Predicts rec into top/pred and requires success. */
static const char *predict(void)
{
    static char out[4096];
    struct pz_predict_options o = { .machine = &m, .output = out };

    snprintf(out, sizeof(out), "%s/pred", top);
    cr_assert_eq(pz_predict(rec, &o, &res, err, sizeof(err)), 0, "pz_predict failed: %s", err);
    return out;
}

/* Process 0's completions of receives and sends in the predicted trace, in order: the
 * call they are in (its Leave's time), the request, the source (of a receive). */
struct completion {
    double at;
    uint64_t request;
    uint32_t source;
    uint64_t bytes;
};

static int completions(const char *dir, struct completion *c, int max)
{
    struct pz_trace_in *t = pz_trace_in_open(dir, err, sizeof(err));
    const struct pz_rec *r;
    int n = 0, th;

    cr_assert_not_null(t, "cannot read the predicted trace: %s", err);
    th = pz_trace_in_first(t, 0);
    for (; (r = pz_trace_in_peek(t, th, 0)); pz_trace_in_consume(t, th, 1))
        if ((r->kind == PZ_REC_IRECV || r->kind == PZ_REC_ISEND_COMPLETE) && n < max)
            c[n++] = (struct completion){ ((double)r->time - (double)pz_trace_in_offset(t)) /
                                              pz_trace_in_resolution(t),
                                          r->request, r->peer, r->bytes };
    cr_assert_null(pz_trace_in_error(t), "reading the predicted trace: %s", pz_trace_in_error(t));
    pz_trace_in_close(t);
    return n;
}

/* The predicted time of the first Leave of the region named name by process p. */
static double leave_of(const char *dir, int p, const char *name)
{
    struct pz_trace_in *t = pz_trace_in_open(dir, err, sizeof(err));
    const struct pz_rec *r;
    double at = -1;
    int th;

    cr_assert_not_null(t, "cannot read the predicted trace: %s", err);
    th = pz_trace_in_first(t, p);
    for (; at < 0 && (r = pz_trace_in_peek(t, th, 0)); pz_trace_in_consume(t, th, 1))
        if (r->kind == PZ_REC_LEAVE && !strcmp(pz_trace_in_region(t, r->region)->name, name))
            at = ((double)r->time - (double)pz_trace_in_offset(t)) / pz_trace_in_resolution(t);
    pz_trace_in_close(t);
    cr_assert_geq(at, 0, "process %d has no Leave of %s", p, name);
    return at;
}

static void expect(const struct completion *c, double at, uint64_t request, uint32_t source,
                   const char *what)
{
    near(c->at, at, what);
    cr_assert_eq(c->request, request, "%s completes request %llu, expected %llu", what,
                 (unsigned long long)c->request, (unsigned long long)request);
    cr_assert_eq(c->source, source, "%s: source %u, expected %u", what, c->source, source);
}

/* Recorded: the first Waitany (from 0.5) completes rank 1's receive, the second rank
 * 2's.  On the model rank 2 sends at 1, rank 1 at 3: their messages arrive at 1.05008
 * and 3.05008.  The two Waitany calls are a pool of requests 1 and 2, both posted at 0.
 *   first Waitany: from 0.5, neither done; request 2 completes first, at 1.05008: the
 *     call ends then, completing request 2 (source 2, 8 B);
 *   compute 0.4: the second Waitany from 1.45008 completes what is left, request 1
 *     (source 1), done at 3.05008: it ends then;
 *   compute 0.2: Finalize from 3.25008 to 3.35008, the end.
 * Today's replay (the recorded order) would end the first Waitany at 3.05008, the
 * second at 3.45008, and the run at 3.75008.
 * The analysis of the predicted run matches both messages, with no clock violation;
 * its Late Sender at rank 0 is the wait of each Waitany for the send it completes:
 * 1 - 0.5 = 0.5 ms and 3 - 1.45008 = 1.54992 ms, 2.04992 ms (in the recorded order it
 * would be 3 - 0.5 = 2.5 ms and nothing). */
Test(engine_any, waitany_completes_the_request_that_arrives_first)
{
    struct shape s = { "MPI_Irecv", "MPI_Waitany", "MPI_Waitany", 0.5, 3, 1, 0 };
    struct completion c[4];
    struct pz_analysis a;
    const char *out;

    build(&s);
    out = predict();
    cr_assert_eq(completions(out, c, 4), 2);
    expect(&c[0], SEC(1.05008), 2, 2, "the first Waitany");
    cr_assert_eq(c[0].bytes, 8);
    expect(&c[1], SEC(3.05008), 1, 1, "the second Waitany");
    near(res.end, SEC(3.35008), "the end");

    memset(&a, 0, sizeof(a));
    cr_assert_eq(pz_analyze(out, &a, err, sizeof(err)), 0, "pz_analyze: %s", err);
    cr_assert_eq(a.messages, 2, "two messages matched, not %llu",
                 (unsigned long long)a.messages);
    cr_assert_eq(a.clock_violations, 0);
    cr_assert_eq(a.unmatched_sends + a.unmatched_receives, 0);
    near(a.nodes[0].procs[0].late_sender, SEC(2.04992), "rank 0's Late Sender");
    pz_analysis_free(&a);
}

/* Both messages arrived (1.05008, 3.05008) before the first Waitany starts at 4: every
 * request is done when it starts, a tie, which the recorded order breaks.  The first
 * Waitany completes request 1 and ends at 4, the second (from 4.4) request 2 at 4.4;
 * Finalize from 4.6 to 4.7. */
Test(engine_any, requests_done_at_the_start_keep_the_recorded_order)
{
    struct shape s = { "MPI_Irecv", "MPI_Waitany", "MPI_Waitany", 4, 3, 1, 0 };
    struct completion c[4];

    build(&s);
    cr_assert_eq(completions(predict(), c, 4), 2);
    expect(&c[0], SEC(4), 1, 1, "the first Waitany");
    expect(&c[1], SEC(4.4), 2, 2, "the second Waitany");
    near(res.end, SEC(4.7), "the end");
}

/* Latency 0 and a free bandwidth: both messages, sent at 1, arrive at 1 together,
 * while the first Waitany (from 0.5) waits: a tie again, the recorded request 1 first,
 * at 1; the second Waitany from 1.4 completes request 2 at once; the end 1.7. */
Test(engine_any, requests_done_at_once_keep_the_recorded_order)
{
    struct shape s = { "MPI_Irecv", "MPI_Waitany", "MPI_Waitany", 0.5, 1, 1, 0 };
    struct completion c[4];

    m.latency = 0;
    m.bandwidth = 1e30;
    build(&s);
    cr_assert_eq(completions(predict(), c, 4), 2);
    expect(&c[0], SEC(1), 1, 1, "the first Waitany");
    expect(&c[1], SEC(1.4), 2, 2, "the second Waitany");
    near(res.end, SEC(1.7), "the end");
}

/* The recorded order, as today's replay: the first call waits for request 1 (from 1,
 * 3.05008), the second from 3.45008 finds request 2 done (1.05008, or at once from
 * MPI_PROC_NULL); Finalize from 3.65008 to 3.75008. */
static void check_recorded_order(const struct shape *s)
{
    struct completion c[4];

    build(s);
    cr_assert_eq(completions(predict(), c, 4), 2);
    expect(&c[0], SEC(3.05008), 1, 1, "the first call");
    expect(&c[1], SEC(3.45008), 2, s->proc_null ? OTF2_UNDEFINED_UINT32 : 2,
           "the second call");
    near(res.end, SEC(3.75008), "the end");
}

/* An MPI_Wait ends the pool: the Waitany before it has only its own request. */
Test(engine_any, a_wait_between_ends_the_pool)
{
    check_recorded_order(&(struct shape){ "MPI_Irecv", "MPI_Waitany", "MPI_Wait", 0.5, 3, 1,
                                          0 });
}

/* Persistent receives (started by MPI_Startall) are not reordered. */
Test(engine_any, persistent_requests_keep_the_recorded_order)
{
    check_recorded_order(&(struct shape){ "MPI_Startall", "MPI_Waitany", "MPI_Waitany", 0.5,
                                          3, 1, 0 });
}

/* A receive from MPI_PROC_NULL (no message: it completes at once) is not reordered;
 * rank 2 sends nothing. */
Test(engine_any, a_receive_from_proc_null_keeps_the_recorded_order)
{
    check_recorded_order(&(struct shape){ "MPI_Irecv", "MPI_Waitany", "MPI_Waitany", 0.5, 3,
                                          NO_SEND, 1 });
}

/* MPI_Waitsome completes as many requests as it recorded (ms):
 *   rank 0: Init [0, 0]  Irecv 1 (from 1, tag 5), 2 (from 2, tag 5), 3 (from 2, tag 6)
 *           [0, 0] each  compute to 0.5  Waitsome [0.5, 0.6] completing 1 and 2
 *           compute 0.4  Waitsome [1, 1.1] completing 3  compute 0.2  Finalize [1.3, 1.4]
 *   rank 1: Send(tag 5) [3, 3.1];  rank 2: Send(tag 5) [1, 1.1], Send(tag 6) [2, 2.1]
 * Rank 2's first send ends at once (eager), its second comes 0.9 later, at 1.9.
 * Arrivals: request 2 at 1.05008, 3 at 1.95008, 1 at 3.05008.  The first Waitsome
 * (from 0.5) completes two: 2 and 3, ending at 1.95008; its records are request 1's
 * place taken by 3 and request 2 where it was.  The second (from 2.35008) completes
 * request 1 at 3.05008; Finalize from 3.25008 to 3.35008.  In the recorded order the
 * first would wait for requests 1 and 2 until 3.05008. */
Test(engine_any, waitsome_completes_as_many_as_it_recorded)
{
    struct tb *b = tb_open(rec, 3);
    uint32_t irecv, some;
    struct completion c[4];

    cr_assert_not_null(b);
    irecv = tb_mpi(b, "MPI_Irecv");
    some = tb_mpi(b, "MPI_Waitsome");
    tb_call(b, 0, "MPI_Init", 0, 0);
    posted(b, irecv, 3);
    tb_enter(b, 0, MS(0.5), some);
    tb_mpi_irecv(b, 0, MS(0.6), TB_WORLD, 1, 5, 8, 1);
    tb_mpi_irecv(b, 0, MS(0.6), TB_WORLD, 2, 5, 8, 2);
    tb_leave(b, 0, MS(0.6), some);
    tb_enter(b, 0, MS(1), some);
    tb_mpi_irecv(b, 0, MS(1.1), TB_WORLD, 2, 6, 8, 3);
    tb_leave(b, 0, MS(1.1), some);
    tb_call(b, 0, "MPI_Finalize", MS(1.3), MS(1.4));
    sender(b, 1, 3);
    tb_call(b, 2, "MPI_Init", 0, 0);
    tb_send_call(b, 2, "MPI_Send", MS(1), MS(1.1), TB_WORLD, 0, 5);
    tb_send_call(b, 2, "MPI_Send", MS(2), MS(2.1), TB_WORLD, 0, 6);
    tb_call(b, 2, "MPI_Finalize", MS(2.1), MS(2.2));
    cr_assert_eq(tb_close(b), 0);
    cr_assert_eq(completions(predict(), c, 4), 3);
    expect(&c[0], SEC(1.95008), 3, 2, "the first Waitsome's first");
    expect(&c[1], SEC(1.95008), 2, 2, "the first Waitsome's second");
    expect(&c[2], SEC(3.05008), 1, 1, "the second Waitsome");
    near(res.end, SEC(3.35008), "the end");
}

/* A loop of MPI_Waitany over the receives, then one over the sends: the recording does
 * not say which array each call was given, so a pool holds calls completing the same
 * kind of request (ms):
 *   rank 0: Init [0, 0]  Irecv 1 (from 1, tag 5) [0, 0]  Isend 2 (8 B to 2, tag 5) [0, 0]
 *           compute to 0.5  Waitany [0.5, 0.6] completing 1  compute 0.4
 *           Waitany [1, 1.1] completing 2  compute 0.2  Finalize [1.3, 1.4]
 *   rank 1: Send(tag 5) [3, 3.1];  rank 2: Recv(from 0, tag 5) [0, 0.1]
 * The send is eager: done at its post, 0.  Were the two calls a pool, the first would
 * complete the send at once (0.5).  They are not: the first waits for rank 1's message,
 * 3.05008; the second (from 3.45008) completes the send at once; Finalize from 3.65008
 * to 3.75008. */
Test(engine_any, a_pool_does_not_lend_a_send_to_a_receives_call)
{
    struct tb *b = tb_open(rec, 3);
    uint32_t irecv, isend, any;
    struct completion c[4];

    cr_assert_not_null(b);
    irecv = tb_mpi(b, "MPI_Irecv");
    isend = tb_mpi(b, "MPI_Isend");
    any = tb_mpi(b, "MPI_Waitany");
    tb_call(b, 0, "MPI_Init", 0, 0);
    tb_enter(b, 0, 0, irecv);
    tb_mpi_irecv_request(b, 0, 0, 1);
    tb_leave(b, 0, 0, irecv);
    tb_enter(b, 0, 0, isend);
    tb_mpi_isend(b, 0, 0, TB_WORLD, 2, 5, 8, 2);
    tb_leave(b, 0, 0, isend);
    tb_enter(b, 0, MS(0.5), any);
    tb_mpi_irecv(b, 0, MS(0.6), TB_WORLD, 1, 5, 8, 1);
    tb_leave(b, 0, MS(0.6), any);
    tb_enter(b, 0, MS(1), any);
    tb_mpi_isend_complete(b, 0, MS(1.1), 2);
    tb_leave(b, 0, MS(1.1), any);
    tb_call(b, 0, "MPI_Finalize", MS(1.3), MS(1.4));
    sender(b, 1, 3);
    tb_call(b, 2, "MPI_Init", 0, 0);
    tb_recv_call(b, 2, "MPI_Recv", 0, MS(0.1), TB_WORLD, 0, 5);
    tb_call(b, 2, "MPI_Finalize", MS(0.1), MS(0.2));
    cr_assert_eq(tb_close(b), 0);
    cr_assert_eq(completions(predict(), c, 4), 2);
    expect(&c[0], SEC(3.05008), 1, 1, "the receives' Waitany");
    near(c[1].at, SEC(3.45008), "the sends' Waitany");
    cr_assert_eq(c[1].request, 2);
    near(res.end, SEC(3.75008), "the end");
}

/* The model learns a completion before it happens (an eager message's arrival when it
 * is sent); one learnt later may happen earlier, and the call must end then, not when
 * the first one learnt happens.  Progress only inside MPI calls; ranks 0 and 1 share a
 * node (shared memory: 1 us + bytes / 5e9 B/s; a control message 1 us), rank 2 is on
 * another (ms):
 *   rank 0: Init [0, 0]  Irecv 1 (from 2, tag 5), 2 (from 1, tag 5), 3 (from 1, tag 6)
 *           [0, 0]  compute to 0.5  Waitany [0.5, 0.6] completing 1  compute 0.4
 *           Waitany [1, 1.1] completing 2  compute 0.2  Wait [1.3, 1.4] completing 3
 *           compute 0.1  Finalize [1.5, 1.6]
 *   rank 1: Init [0, 0]  compute to 1.5  Send(8 B to 0, tag 5) [1.5, 1.5]  compute 0.1
 *           Ssend(8 B to 0, tag 6) [1.6, 1.7]  Finalize [1.7, 1.8]
 *   rank 2: Init [0, 0]  compute to 1  Send(100000 B to 0, eager, tag 5) [1, 1.1]
 *           Finalize [1.1, 1.2]
 * Request 1's message, sent at 1, arrives at 1 + 0.05 + 1 = 2.05, which the model knows
 * at 1; request 2's, sent at 1.5, at 1.5010016, which it knows at 1.5.  The first
 * Waitany (from 0.5) completes request 2 at 1.5010016 and rank 0 computes until
 * 1.9010016.  Rank 1's Ssend (from 1.6, rendezvous) sends its request-to-send, which
 * arrives at 1.601 while rank 0 computes: its clear-to-send waits for rank 0's next
 * call, the second Waitany at 1.9010016, arrives at 1.9020016, and the data at
 * 1.9030032, which ends the Ssend (rank 1 finishes at 2.0030032).  The second Waitany
 * completes request 1 at 2.05; the Wait (from 2.25) finds request 3 done; Finalize
 * from 2.35 to 2.45, the end.  (Were rank 0 woken when the first completion learnt
 * happens, 2.05, it would be in MPI_Waitany at 1.601 and the Ssend would end at
 * 1.6030016.) */
Test(engine_any, a_completion_learnt_later_that_happens_earlier_comes_first)
{
    struct tb *b = tb_open(rec, 3);
    uint32_t irecv, any, wait, send;
    struct completion c[4];
    const char *out;

    cr_assert_not_null(b);
    irecv = tb_mpi(b, "MPI_Irecv");
    any = tb_mpi(b, "MPI_Waitany");
    wait = tb_mpi(b, "MPI_Wait");
    send = tb_mpi(b, "MPI_Send");
    tb_call(b, 0, "MPI_Init", 0, 0);
    posted(b, irecv, 3);
    tb_enter(b, 0, MS(0.5), any);
    tb_mpi_irecv(b, 0, MS(0.6), TB_WORLD, 2, 5, 100000, 1);
    tb_leave(b, 0, MS(0.6), any);
    tb_enter(b, 0, MS(1), any);
    tb_mpi_irecv(b, 0, MS(1.1), TB_WORLD, 1, 5, 8, 2);
    tb_leave(b, 0, MS(1.1), any);
    tb_enter(b, 0, MS(1.3), wait);
    tb_mpi_irecv(b, 0, MS(1.4), TB_WORLD, 1, 6, 8, 3);
    tb_leave(b, 0, MS(1.4), wait);
    tb_call(b, 0, "MPI_Finalize", MS(1.5), MS(1.6));
    tb_call(b, 1, "MPI_Init", 0, 0);
    tb_send_call(b, 1, "MPI_Send", MS(1.5), MS(1.5), TB_WORLD, 0, 5);
    tb_send_call(b, 1, "MPI_Ssend", MS(1.6), MS(1.7), TB_WORLD, 0, 6);
    tb_call(b, 1, "MPI_Finalize", MS(1.7), MS(1.8));
    tb_call(b, 2, "MPI_Init", 0, 0);
    tb_enter(b, 2, MS(1), send);
    tb_mpi_send(b, 2, MS(1), TB_WORLD, 0, 5, 100000);
    tb_leave(b, 2, MS(1.1), send);
    tb_call(b, 2, "MPI_Finalize", MS(1.1), MS(1.2));
    cr_assert_eq(tb_close(b), 0);
    m.procs_per_node = 2;
    m.eager_threshold = 1048576;
    m.shm_latency = 1e-6;
    m.shm_bandwidth = 5e9;
    m.progress = PZ_PROGRESS_IN_CALLS;
    out = predict();
    cr_assert_eq(completions(out, c, 4), 3);
    expect(&c[0], SEC(1.5010016), 2, 1, "the first Waitany");
    cr_assert_eq(c[0].bytes, 8);
    expect(&c[1], SEC(2.05), 1, 2, "the second Waitany");
    cr_assert_eq(c[1].bytes, 100000);
    near(leave_of(out, 1, "MPI_Ssend"), SEC(1.9030032), "rank 1's Ssend");
    near(res.end, SEC(2.45), "the end");
}
