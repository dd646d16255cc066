/* Wait states on hand-built traces: messages matched by communicator, sender, receiver
 * and tag; collective instances matched per communicator; Late Sender, Wrong Order,
 * Late Receiver, the collective waits, synchronization and time variation, each worked
 * out by hand from the definitions of docs/characteristics.md ("Waiting for partners").
 *
 * The traces carry MPI records where prognoz writes them: MpiSend/MpiIsend at the enter
 * of the send call, MpiRecv/MpiIrecv at the leave of the call that completed the
 * receive, MpiCollectiveBegin/End at the enter and leave of a collective.  Times in the
 * comments are milliseconds since the first event; S(x) is x ms in seconds.  With E and
 * L the enters and leaves of the members of a collective instance:
 *   synchronization(p) = max E - E(p)         time variation(p) = max L - L(p)
 *   Barrier, NxN: wait = max E - E(p)         completion = L(p) - min L
 *   Reduce, Gather at the root: early reduce = min over the others of E - E(root)
 *   Bcast, Scatter off the root: late broadcast = E(root) - E(p)
 *   Late Sender = send enter - enter of the blocking call completing the receive
 *   Late Receiver = min(receive call enter, send leave) - send enter, for a blocking
 *                   send still in its call when the receive began
 * positive parts only; synchronization also adds Late Sender and Late Receiver (Wrong
 * Order is a part of Late Sender, not added again).
 *
 * Nonblocking collectives carry a NonBlockingCollectiveRequest at the enter of the call
 * that posts them and a NonBlockingCollectiveComplete at the leave of the wait or test
 * that completes them.  The k-th nonblocking post on a communicator of each member is
 * one instance, whatever the order of completion.  With P the enters of the members'
 * post calls and W, X the enter and leave of the call that completed a member's part:
 *   Ibarrier, NxN: wait = min(X, max P) - W
 *   Ireduce, Igather at the root: early reduce = min(X, max P) - W
 *   Ibcast, Iscatter off the root: late broadcast = min(X, P(root)) - W
 * positive parts only, synchronization alike; no completion waits, no time variation.
 * A call completing several instances counts its longest wait once, in the wait state
 * of its instance. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_fixture.h"
#include "trace_builder.h"

#define EPS 1e-9
#define MS TB_MS
#define S(ms) ((ms) / 1000.0)


TestSuite(waits, .fini = cleanup);

static struct tb *trace_at(int nprocs, const uint64_t *ids)
{
    struct tb *b;

    dir = tb_tempdir();
    cr_assert_not_null(dir, "cannot make a temporary directory");
    b = tb_open_locations(dir, nprocs, ids);
    cr_assert_not_null(b, "cannot open an OTF2 archive in %s", dir);
    return b;
}

static struct tb *trace(int nprocs)
{
    return trace_at(nprocs, NULL);
}

static void analyze(struct tb *b)
{
    cr_assert_eq(tb_close(b), 0, "the trace builder failed");
    cr_assert_eq(pz_analyze(dir, &an, err, sizeof(err)), 0, "pz_analyze: %s", err);
}

/* The wait-state characteristics, by name. */
static const struct {
    const char *name;
    size_t offset;
} waits[] = {
#define D(m) { #m, offsetof(struct pz_characteristics, m) }
    D(synchronization), D(time_variation), D(late_sender), D(late_sender_wrong_order),
    D(late_receiver), D(wait_at_barrier), D(barrier_completion), D(wait_at_nxn),
    D(nxn_completion), D(early_reduce), D(late_broadcast),
#undef D
};

#define NWAITS (sizeof(waits) / sizeof(waits[0]))

static double value(const struct pz_characteristics *c, size_t i)
{
    double v;

    memcpy(&v, (const char *)c + waits[i].offset, sizeof(v));
    return v;
}

/* Every wait characteristic of got against want (those want leaves out are 0). */
static void expect_waits(const char *what, const struct pz_characteristics *got,
                         const struct pz_characteristics *want)
{
    for (size_t i = 0; i < NWAITS; i++)
        cr_expect(fabs(value(got, i) - value(want, i)) <= EPS,
                  "%s: %s is %.12f, expected %.12f", what, waits[i].name, value(got, i),
                  value(want, i));
}

/* Process p's waits in node n. */
static void expect_process(const char *what, const struct pz_node *n, int p,
                           struct pz_characteristics want)
{
    struct pz_characteristics got;
    char label[256];

    snprintf(label, sizeof(label), "%s, process %d", what, p);
    pz_characteristics_of_process(&an, n, p, &got);
    expect_waits(label, &got, &want);
}

/* The integral waits of node n: sums over the processes. */
static void expect_interval(const char *what, const struct pz_node *n,
                            struct pz_characteristics want)
{
    struct pz_characteristics got;

    pz_characteristics_of(&an, n, &got);
    expect_waits(what, &got, &want);
}

static const struct pz_node *node_at(const char *file, unsigned line)
{
    const struct pz_node *found = NULL;

    for (int i = 1; i < an.nnodes; i++)
        if (!strcmp(an.nodes[i].file, file) && an.nodes[i].line == line) {
            cr_assert_null(found, "two nodes for %s:%u", file, line);
            found = &an.nodes[i];
        }
    cr_assert_not_null(found, "no node for %s:%u", file, line);
    return found;
}

/* What was matched and what was not. */
static void expect_counts(uint64_t messages, uint64_t violations, uint64_t unmatched_sends,
                          uint64_t unmatched_receives, uint64_t collectives,
                          uint64_t incomplete)
{
    cr_expect_eq(an.messages, messages, "messages: %llu, expected %llu",
                 (unsigned long long)an.messages, (unsigned long long)messages);
    cr_expect_eq(an.clock_violations, violations, "clock violations: %llu, expected %llu",
                 (unsigned long long)an.clock_violations, (unsigned long long)violations);
    cr_expect_eq(an.unmatched_sends, unmatched_sends, "unmatched sends: %llu, expected %llu",
                 (unsigned long long)an.unmatched_sends, (unsigned long long)unmatched_sends);
    cr_expect_eq(an.unmatched_receives, unmatched_receives,
                 "unmatched receives: %llu, expected %llu",
                 (unsigned long long)an.unmatched_receives,
                 (unsigned long long)unmatched_receives);
    cr_expect_eq(an.collectives, collectives, "collectives: %llu, expected %llu",
                 (unsigned long long)an.collectives, (unsigned long long)collectives);
    cr_expect_eq(an.incomplete_collectives, incomplete,
                 "incomplete collectives: %llu, expected %llu",
                 (unsigned long long)an.incomplete_collectives, (unsigned long long)incomplete);
}

static void init(struct tb *b, int p)
{
    tb_call(b, p, "MPI_Init", MS(0), MS(1));
}

static void finalize(struct tb *b, int p, double at)
{
    tb_call(b, p, "MPI_Finalize", MS(at), MS(at + 1));
}

static void send(struct tb *b, int p, double enter, double leave, uint32_t comm,
                 uint32_t dest, uint32_t tag)
{
    tb_send_call(b, p, "MPI_Send", MS(enter), MS(leave), comm, dest, tag);
}

static void recv(struct tb *b, int p, double enter, double leave, uint32_t comm,
                 uint32_t source, uint32_t tag)
{
    tb_recv_call(b, p, "MPI_Recv", MS(enter), MS(leave), comm, source, tag);
}

static void collective(struct tb *b, int p, const char *name, double enter, double leave,
                       OTF2_CollectiveOp op, uint32_t comm, uint32_t root)
{
    tb_collective_call(b, p, name, MS(enter), MS(leave), op, comm, root);
}

/* Late Sender inside nested intervals: interval 1 (ls.c:10) encloses interval 2
 * (ls.c:20) on both processes.
 *   0: Send 30-31 in interval 2, Send 50-51 in interval 1 only (both to 1, tag 7)
 *   1: Recv 10-32 in interval 2, Recv 45-52 in interval 1 only
 * Process 1 waits 30 - 10 = 20 in interval 2, and 50 - 45 = 5 more in interval 1: 25 in
 * interval 1 and in the whole run.  The sender waits for nothing: each Send returned
 * (31, 51) before its receive was matched (32, 52), so no Late Receiver.  No other
 * message was in flight: no Wrong Order. */
Test(waits, late_sender_in_nested_intervals)
{
    struct tb *b = trace(2);
    uint32_t i1 = tb_interval(b, 1, "ls.c", 10), i2 = tb_interval(b, 2, "ls.c", 20);
    const struct pz_node *n1, *n2;

    for (int p = 0; p < 2; p++) {
        init(b, p);
        tb_enter(b, p, MS(1), i1);
        tb_enter(b, p, MS(2), i2);
    }
    send(b, 0, 30, 31, TB_WORLD, 1, 7);
    recv(b, 1, 10, 32, TB_WORLD, 0, 7);
    for (int p = 0; p < 2; p++)
        tb_leave(b, p, MS(35), i2);
    send(b, 0, 50, 51, TB_WORLD, 1, 7);
    recv(b, 1, 45, 52, TB_WORLD, 0, 7);
    for (int p = 0; p < 2; p++) {
        tb_leave(b, p, MS(55), i1);
        finalize(b, p, 60);
    }
    analyze(b);

    n1 = node_at("ls.c", 10);
    n2 = node_at("ls.c", 20);
    expect_process("interval 2", n2, 1, (struct pz_characteristics){
        .late_sender = S(20), .synchronization = S(20) });
    expect_process("interval 1", n1, 1, (struct pz_characteristics){
        .late_sender = S(25), .synchronization = S(25) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .late_sender = S(25), .synchronization = S(25) });
    expect_process("interval 2", n2, 0, (struct pz_characteristics){ 0 });
    expect_process("interval 1", n1, 0, (struct pz_characteristics){ 0 });
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){ 0 });
    expect_interval("interval 1", n1, (struct pz_characteristics){
        .late_sender = S(25), .synchronization = S(25) });
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .late_sender = S(25), .synchronization = S(25) });
    expect_counts(2, 0, 0, 0, 0, 0);
}

/* Nonblocking receives: the wait that completes the receive is what waits.
 *   1: Irecv 2-3 (request 1), Wait 10-21 completing it (MpiIrecv at 21);
 *      Irecv 25-26 (request 2), Test 30-41 completing it (MpiIrecv at 41)
 *   0: Send 20-20.5 (tag 1); Isend 35-36 (tag 2), Wait 37-38 completing it
 * Late Sender of the Wait: 20 - 10 = 10 (not 20 - 2 = 18 from the Irecv's enter).  The
 * Test does not block: no Late Sender (35 - 30 = 5 if it counted, 35 - 25 = 10 from its
 * Irecv).  The Send returned at 20.5, before its receive at 21: no Late Receiver; an
 * Isend never has one. */
Test(waits, late_sender_of_a_wait_and_not_of_a_test)
{
    struct tb *b = trace(2);
    uint32_t irecv = tb_mpi(b, "MPI_Irecv"), wait = tb_mpi(b, "MPI_Wait");
    uint32_t test = tb_mpi(b, "MPI_Test"), isend = tb_mpi(b, "MPI_Isend");

    init(b, 0);
    init(b, 1);
    tb_enter(b, 1, MS(2), irecv);
    tb_mpi_irecv_request(b, 1, MS(2), 1);
    tb_leave(b, 1, MS(3), irecv);
    tb_enter(b, 1, MS(10), wait);
    send(b, 0, 20, 20.5, TB_WORLD, 1, 1);
    tb_mpi_irecv(b, 1, MS(21), TB_WORLD, 0, 1, 8, 1);
    tb_leave(b, 1, MS(21), wait);
    tb_enter(b, 1, MS(25), irecv);
    tb_mpi_irecv_request(b, 1, MS(25), 2);
    tb_leave(b, 1, MS(26), irecv);
    tb_enter(b, 1, MS(30), test);
    tb_enter(b, 0, MS(35), isend);
    tb_mpi_isend(b, 0, MS(35), TB_WORLD, 1, 2, 8, 7);
    tb_leave(b, 0, MS(36), isend);
    tb_enter(b, 0, MS(37), wait);
    tb_mpi_isend_complete(b, 0, MS(38), 7);
    tb_leave(b, 0, MS(38), wait);
    tb_mpi_irecv(b, 1, MS(41), TB_WORLD, 0, 2, 8, 2);
    tb_leave(b, 1, MS(41), test);
    finalize(b, 0, 50);
    finalize(b, 1, 50);
    analyze(b);

    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .late_sender = S(10), .synchronization = S(10) });
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){ 0 });
    expect_counts(2, 0, 0, 0, 0, 0);
}

/* Wrong Order: process 2 receives from 0 first, while 1's message, sent earlier, waits.
 *   1: Send 5-6 to 2, Send 33-34 to 2                       (all tag 0)
 *   0: Send 20-21 to 2, Send 40-40.5 to 2
 *   2: Recv from 0 10-22, Recv from 1 25-26, Recv from 0 30-41, Recv from 1 45-46
 * Recv 10-22 gets 0's message of 20: Late Sender 20 - 10 = 10, and 1's message sent at
 * 5 < 10 is in flight: Wrong Order 10.  Recv 25-26 gets 1's message of 5: no wait.
 * Recv 30-41 gets 0's message of 40: Late Sender 10; 1's message in flight was sent at
 * 33 > 30, after the receive began: no Wrong Order.  Recv 45-46: no wait.
 * Process 2: Late Sender 20, Wrong Order 10 (a part of the Late Sender, so
 * synchronization counts it once: 20).  The senders: every Send returned before its
 * receive ended (21 < 22, 40.5 < 41, 6 < 26, 34 < 46). */
Test(waits, wrong_order_when_an_earlier_message_is_in_flight)
{
    struct tb *b = trace(3);

    for (int p = 0; p < 3; p++)
        init(b, p);
    send(b, 1, 5, 6, TB_WORLD, 2, 0);
    send(b, 1, 33, 34, TB_WORLD, 2, 0);
    send(b, 0, 20, 21, TB_WORLD, 2, 0);
    send(b, 0, 40, 40.5, TB_WORLD, 2, 0);
    recv(b, 2, 10, 22, TB_WORLD, 0, 0);
    recv(b, 2, 25, 26, TB_WORLD, 1, 0);
    recv(b, 2, 30, 41, TB_WORLD, 0, 0);
    recv(b, 2, 45, 46, TB_WORLD, 1, 0);
    for (int p = 0; p < 3; p++)
        finalize(b, p, 60);
    analyze(b);

    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){
        .late_sender = S(20), .late_sender_wrong_order = S(10), .synchronization = S(20) });
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){ 0 });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){ 0 });
    expect_counts(4, 0, 0, 0, 0, 0);
}

/* Late Receiver, charged to the sender when its blocking send returns.
 *   0: in interval 4 (lr.c:4) from 9 to 32: Send 10-31 (rendezvous: it returns after
 *      the receive); then Send 40-41 (eager: it returns before the receive); then
 *      Isend 50-51 and Wait 51-61 completing it
 *   1: Recv 25-30, Recv 45-46, Recv 55-60                   (all tag 3, 0 to 1)
 * Rendezvous: the receive was matched at 30, before the Send returned at 31: Late
 * Receiver min(25, 31) - 10 = 15, in interval 4 and the whole run.  Eager: matched at
 * 46 after the return at 41: none.  Isend: not a blocking send: none although its Wait
 * lasts past the receive.  Receiver: every receive began after its send (25 > 10,
 * 45 > 40, 55 > 50): no Late Sender; it did not execute interval 4. */
Test(waits, late_receiver_of_a_rendezvous_send_not_of_an_eager_one)
{
    struct tb *b = trace(2);
    uint32_t i4 = tb_interval(b, 4, "lr.c", 4), isend = tb_mpi(b, "MPI_Isend");
    uint32_t wait = tb_mpi(b, "MPI_Wait");
    const struct pz_node *n;

    init(b, 0);
    init(b, 1);
    tb_enter(b, 0, MS(9), i4);
    send(b, 0, 10, 31, TB_WORLD, 1, 3);
    recv(b, 1, 25, 30, TB_WORLD, 0, 3);
    tb_leave(b, 0, MS(32), i4);
    send(b, 0, 40, 41, TB_WORLD, 1, 3);
    recv(b, 1, 45, 46, TB_WORLD, 0, 3);
    tb_enter(b, 0, MS(50), isend);
    tb_mpi_isend(b, 0, MS(50), TB_WORLD, 1, 3, 8, 1);
    tb_leave(b, 0, MS(51), isend);
    tb_enter(b, 0, MS(51), wait);
    recv(b, 1, 55, 60, TB_WORLD, 0, 3);
    tb_mpi_isend_complete(b, 0, MS(61), 1);
    tb_leave(b, 0, MS(61), wait);
    finalize(b, 0, 70);
    finalize(b, 1, 70);
    analyze(b);

    n = node_at("lr.c", 4);
    expect_process("interval 4", n, 0, (struct pz_characteristics){
        .late_receiver = S(15), .synchronization = S(15) });
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .late_receiver = S(15), .synchronization = S(15) });
    expect_process("interval 4", n, 1, (struct pz_characteristics){ 0 });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){ 0 });
    expect_interval("interval 4", n, (struct pz_characteristics){
        .late_receiver = S(15), .synchronization = S(15) });
    expect_counts(3, 0, 0, 0, 0, 0);
}

/* A Barrier in interval 5 (b.c:5) with staggered arrival: processes 0, 1, 2 enter it at
 * 10, 20, 30 and leave it at 32, 31, 33.
 *   wait at barrier = 30 - E:     20, 10, 0     (synchronization alike)
 *   barrier completion = L - 31:   1,  0, 2
 *   time variation = 33 - L:       1,  2, 0
 * Integral: wait 30, completion 3, variation 3. */
Test(waits, barrier_with_staggered_arrival)
{
    struct tb *b = trace(3);
    uint32_t i5 = tb_interval(b, 5, "b.c", 5);
    const double enter[3] = { 10, 20, 30 }, leave[3] = { 32, 31, 33 };
    const double wait[3] = { 20, 10, 0 }, done[3] = { 1, 0, 2 }, variation[3] = { 1, 2, 0 };
    const struct pz_node *n;

    for (int p = 0; p < 3; p++) {
        init(b, p);
        tb_enter(b, p, MS(1), i5);
        collective(b, p, "MPI_Barrier", enter[p], leave[p], OTF2_COLLECTIVE_OP_BARRIER,
                   TB_WORLD, TB_NO_ROOT);
        tb_leave(b, p, MS(35), i5);
        finalize(b, p, 40);
    }
    analyze(b);

    n = node_at("b.c", 5);
    for (int p = 0; p < 3; p++) {
        struct pz_characteristics want = {
            .wait_at_barrier = S(wait[p]), .barrier_completion = S(done[p]),
            .synchronization = S(wait[p]), .time_variation = S(variation[p]) };

        expect_process("interval 5", n, p, want);
        expect_process("whole run", &an.nodes[0], p, want);
    }
    expect_interval("interval 5", n, (struct pz_characteristics){
        .wait_at_barrier = S(30), .barrier_completion = S(3), .synchronization = S(30),
        .time_variation = S(3) });
    expect_counts(0, 0, 0, 0, 1, 0);
}

/* One collective per interval (c.c:1 to c.c:4), on three processes, E-L each:
 *
 * c.c:1 Allreduce            0: 5-12     1: 8-11     2: 6-13
 *   wait at NxN = 8 - E:        3           0           2       (synchronization alike)
 *   NxN completion = L - 11:    1           0           2
 *   time variation = 13 - L:    1           2           0
 * c.c:2 Reduce, root 0 late  0: 30-31    1: 20-22    2: 25-26
 *   early reduce at 0: min(20, 25) - 30 < 0: none
 *   synchronization = 30 - E:   0          10           5
 *   time variation = 31 - L:    0           9           5
 * c.c:3 Reduce, root 1 early 0: 45-46    1: 40-47    2: 43-45.5
 *   early reduce at 1: min(45, 43) - 40 = 3
 *   synchronization = 45 - E:   0           5           2
 *   time variation = 47 - L:    1           0         1.5
 * c.c:4 Bcast, root 2 late   0: 50-56    1: 52-56.5  2: 55-55.5
 *   late broadcast = 55 - E:    5           3        (root) none
 *   synchronization = 55 - E:   5           3           0
 *   time variation = 56.5 - L: 0.5          0           1
 *
 * Whole run:                    0           1           2
 *   synchronization        3+0+0+5=8  0+10+5+3=18  2+5+2+0=9
 *   time variation    1+0+1+.5=2.5   2+9+0+0=11  0+5+1.5+1=7.5
 *   wait at NxN, NxN completion: 3, 1 | 0, 0 | 2, 2;  early reduce 0 | 3 | 0;
 *   late broadcast 5 | 3 | 0 */
Test(waits, allreduce_reduce_and_bcast)
{
    static const struct {
        const char *name;
        OTF2_CollectiveOp op;
        uint32_t root;
        double enter[3], leave[3];
    } colls[4] = {
        { "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, TB_NO_ROOT, { 5, 8, 6 }, { 12, 11, 13 } },
        { "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, 0, { 30, 20, 25 }, { 31, 22, 26 } },
        { "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, 1, { 45, 40, 43 }, { 46, 47, 45.5 } },
        { "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 2, { 50, 52, 55 }, { 56, 56.5, 55.5 } },
    };
    struct tb *b = trace(3);
    uint32_t intervals[4];
    const struct pz_node *n[4];

    for (unsigned i = 0; i < 4; i++)
        intervals[i] = tb_interval(b, i + 1, "c.c", i + 1);
    for (int p = 0; p < 3; p++) {
        init(b, p);
        for (int i = 0; i < 4; i++) {
            tb_enter(b, p, MS(colls[i].enter[p]), intervals[i]);
            collective(b, p, colls[i].name, colls[i].enter[p], colls[i].leave[p], colls[i].op,
                       TB_WORLD, colls[i].root);
            tb_leave(b, p, MS(colls[i].leave[p]), intervals[i]);
        }
        finalize(b, p, 60);
    }
    analyze(b);

    for (unsigned i = 0; i < 4; i++)
        n[i] = node_at("c.c", i + 1);
    expect_process("Allreduce", n[0], 0, (struct pz_characteristics){
        .wait_at_nxn = S(3), .nxn_completion = S(1), .synchronization = S(3),
        .time_variation = S(1) });
    expect_process("Allreduce", n[0], 1, (struct pz_characteristics){
        .time_variation = S(2) });
    expect_process("Allreduce", n[0], 2, (struct pz_characteristics){
        .wait_at_nxn = S(2), .nxn_completion = S(2), .synchronization = S(2) });
    expect_process("Reduce, root late", n[1], 0, (struct pz_characteristics){ 0 });
    expect_process("Reduce, root late", n[1], 1, (struct pz_characteristics){
        .synchronization = S(10), .time_variation = S(9) });
    expect_process("Reduce, root late", n[1], 2, (struct pz_characteristics){
        .synchronization = S(5), .time_variation = S(5) });
    expect_process("Reduce, root early", n[2], 0, (struct pz_characteristics){
        .time_variation = S(1) });
    expect_process("Reduce, root early", n[2], 1, (struct pz_characteristics){
        .early_reduce = S(3), .synchronization = S(5) });
    expect_process("Reduce, root early", n[2], 2, (struct pz_characteristics){
        .synchronization = S(2), .time_variation = S(1.5) });
    expect_process("Bcast", n[3], 0, (struct pz_characteristics){
        .late_broadcast = S(5), .synchronization = S(5), .time_variation = S(0.5) });
    expect_process("Bcast", n[3], 1, (struct pz_characteristics){
        .late_broadcast = S(3), .synchronization = S(3) });
    expect_process("Bcast", n[3], 2, (struct pz_characteristics){
        .time_variation = S(1) });
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .synchronization = S(8), .time_variation = S(2.5), .wait_at_nxn = S(3),
        .nxn_completion = S(1), .late_broadcast = S(5) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .synchronization = S(18), .time_variation = S(11), .early_reduce = S(3),
        .late_broadcast = S(3) });
    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){
        .synchronization = S(9), .time_variation = S(7.5), .wait_at_nxn = S(2),
        .nxn_completion = S(2) });
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .synchronization = S(35), .time_variation = S(21), .wait_at_nxn = S(5),
        .nxn_completion = S(3), .early_reduce = S(3), .late_broadcast = S(8) });
    expect_counts(0, 0, 0, 0, 4, 0);
}

/* A communicator split off MPI_COMM_WORLD of world ranks 2 and 0, in that order: its
 * rank 0 is process 2 and its rank 1 process 0.  Its collective and messages interleave
 * with world ones.
 *   0: Barrier A 10-15, Bcast on split (root: split rank 0 = process 2) 16-24,
 *      Barrier B 30-31, Recv on split from split rank 0 (tag 0) 32-41,
 *      Recv on world from world rank 2 (tag 0) 42-43
 *   1: Barrier A 12-15, Barrier B 26-31
 *   2: Barrier A 14-15, Bcast on split 22-23, Barrier B 28-31,
 *      Send on world to world rank 0 (tag 0) 34-35, Send on split to split rank 1 40-40.5
 * Barrier A: wait 14 - E = 4, 2, 0.  Bcast: process 0 waits for the root, 22 - 16 = 6
 * (late broadcast, synchronization); variation 24 - L: process 2, 1.  Barrier B: wait
 * 30 - E = 0, 4, 2.  Had the k-th collective of each process been one instance whatever
 * its communicator, Barrier B of process 1 would be matched with the Bcast.
 * Messages: both go from process 2 to process 0 with tag 0, on two communicators.  The
 * split Recv 32-41 gets the split message of 40: Late Sender 8 (the world message of
 * 34 would give 2, and it was sent after the receive began: no Wrong Order).  The
 * world Recv 42-43 gets the world message: no wait.
 *   process 0: synchronization 4 + 6 + 0 + 8 = 18, wait at barrier 4, late broadcast
 *              6, Late Sender 8
 *   process 1: synchronization 2 + 4 = 6, wait at barrier 6
 *   process 2: synchronization 0 + 0 + 2 = 2, wait at barrier 2, time variation 1 */
Test(waits, collectives_and_messages_matched_per_communicator)
{
    struct tb *b = trace(3);
    uint32_t split = tb_comm(b, "split", 2, (const int[]){ 2, 0 });
    const OTF2_CollectiveOp barrier = OTF2_COLLECTIVE_OP_BARRIER;

    for (int p = 0; p < 3; p++)
        init(b, p);
    collective(b, 0, "MPI_Barrier", 10, 15, barrier, TB_WORLD, TB_NO_ROOT);
    collective(b, 0, "MPI_Bcast", 16, 24, OTF2_COLLECTIVE_OP_BCAST, split, 0);
    collective(b, 0, "MPI_Barrier", 30, 31, barrier, TB_WORLD, TB_NO_ROOT);
    recv(b, 0, 32, 41, split, 0, 0);
    recv(b, 0, 42, 43, TB_WORLD, 2, 0);
    collective(b, 1, "MPI_Barrier", 12, 15, barrier, TB_WORLD, TB_NO_ROOT);
    collective(b, 1, "MPI_Barrier", 26, 31, barrier, TB_WORLD, TB_NO_ROOT);
    collective(b, 2, "MPI_Barrier", 14, 15, barrier, TB_WORLD, TB_NO_ROOT);
    collective(b, 2, "MPI_Bcast", 22, 23, OTF2_COLLECTIVE_OP_BCAST, split, 0);
    collective(b, 2, "MPI_Barrier", 28, 31, barrier, TB_WORLD, TB_NO_ROOT);
    send(b, 2, 34, 35, TB_WORLD, 0, 0);
    send(b, 2, 40, 40.5, split, 1, 0);
    for (int p = 0; p < 3; p++)
        finalize(b, p, 50);
    analyze(b);

    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .synchronization = S(18), .wait_at_barrier = S(4), .late_broadcast = S(6),
        .late_sender = S(8) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .synchronization = S(6), .wait_at_barrier = S(6) });
    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){
        .synchronization = S(2), .wait_at_barrier = S(2), .time_variation = S(1) });
    expect_counts(2, 0, 0, 0, 3, 0);
}

/* Locations numbered 20, 10, 0 for processes 0, 1, 2 (as other tools number them): the
 * ranks of a COMM_GROUP are positions in the COMM_LOCATIONS group [20, 10, 0], not
 * location ids (as ids, rank 0 would be process 2 and rank 1 no process).
 *   1: Recv from rank 0 10-21            0: Send to rank 1 20-20.5
 *   Bcast, root rank 2: 0: 30-36, 1: 31-36, 2: 35-36
 * Process 1: Late Sender 20 - 10 = 10.  Late broadcast 35 - E: 5 for process 0, 4 for
 * process 1 (synchronization alike). */
Test(waits, ranks_are_positions_in_the_locations_group)
{
    const uint64_t ids[3] = { 20, 10, 0 };
    struct tb *b = trace_at(3, ids);
    const double enter[3] = { 30, 31, 35 };

    for (int p = 0; p < 3; p++)
        init(b, p);
    recv(b, 1, 10, 21, TB_WORLD, 0, 0);
    send(b, 0, 20, 20.5, TB_WORLD, 1, 0);
    for (int p = 0; p < 3; p++) {
        collective(b, p, "MPI_Bcast", enter[p], 36, OTF2_COLLECTIVE_OP_BCAST, TB_WORLD, 2);
        finalize(b, p, 40);
    }
    analyze(b);

    cr_assert_eq(an.nprocs, 3);
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .late_broadcast = S(5), .synchronization = S(5) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .late_sender = S(10), .late_broadcast = S(4), .synchronization = S(14) });
    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){ 0 });
    expect_counts(1, 0, 0, 0, 1, 0);
}

/* Clock-condition violation and messages without a partner (0 sends to 1).
 *   1: Recv tag 5 10-12, Recv tag 5 28-32, Recv tag 7 40-41
 *   0: Send tag 5 15-16, Send tag 5 30-31, Send tag 6 35-36
 * The first receive ends at 12, before its send began at 15: a clock-condition
 * violation, matched with that send and no wait (it would be a Late Sender of
 * 15 - 10 = 5).  Recv 28-32 gets the send of 30: Late Sender 2; it returned at 31,
 * before the receive: no Late Receiver.  Tag 6 is never received, tag 7 never sent.
 * Messages matched: 2 (the violation among them). */
Test(waits, clock_violation_and_unmatched_messages)
{
    struct tb *b = trace(2);
    int warned = 0;

    init(b, 0);
    init(b, 1);
    recv(b, 1, 10, 12, TB_WORLD, 0, 5);
    send(b, 0, 15, 16, TB_WORLD, 1, 5);
    recv(b, 1, 28, 32, TB_WORLD, 0, 5);
    send(b, 0, 30, 31, TB_WORLD, 1, 5);
    send(b, 0, 35, 36, TB_WORLD, 1, 6);
    recv(b, 1, 40, 41, TB_WORLD, 0, 7);
    finalize(b, 0, 50);
    finalize(b, 1, 50);
    analyze(b);

    expect_counts(2, 1, 1, 1, 0, 0);
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .late_sender = S(2), .synchronization = S(2) });
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){ 0 });
    for (int i = 0; i < an.nwarnings; i++)
        warned |= strstr(an.warnings[i], "clock-condition") != NULL;
    cr_expect(warned, "no warning about the clock-condition violation");
}

/* Counts of what was matched, on three processes.
 *   Barrier 1: E 10, 11, 12, all leave 13;  Barrier 2: E 20, 21, 22, all leave 23
 *   Barrier on MPI_COMM_SELF: process 0 24-25, process 1 24-25 (instances of one member)
 *   0: Isend to itself on MPI_COMM_SELF 26-27, Recv from itself 27-28, Wait 28-29
 *   1: Send to 2 30-31, 2: Recv from 1 30.5-32;  2: Send to 0 33-34, 0: Recv 35-36
 *   Barrier 3: process 0 40-45, process 1 41-45; process 2 never reaches it
 * Complete instances 2 + 2 = 4, incomplete 1 (it adds no wait); messages 3.
 * Waits: barriers 1 and 2, 12 - E and 22 - E: 2 + 2, 1 + 1, 0 for processes 0, 1, 2.
 * No Late Sender (every receive began after its send: 30.5 > 30, 35 > 33, 27 > 26).
 * Late Receiver: process 1's Send (30 to 31) was still in its call when the Recv began
 * at 30.5: 0.5; process 2's Send had returned (34) before its Recv began (35): none. */
Test(waits, counts_of_messages_and_collectives)
{
    struct tb *b = trace(3);
    const OTF2_CollectiveOp barrier = OTF2_COLLECTIVE_OP_BARRIER;
    uint32_t isend = tb_mpi(b, "MPI_Isend"), wait = tb_mpi(b, "MPI_Wait");

    for (int p = 0; p < 3; p++) {
        init(b, p);
        collective(b, p, "MPI_Barrier", 10 + p, 13, barrier, TB_WORLD, TB_NO_ROOT);
        collective(b, p, "MPI_Barrier", 20 + p, 23, barrier, TB_WORLD, TB_NO_ROOT);
    }
    collective(b, 0, "MPI_Barrier", 24, 25, barrier, TB_SELF, TB_NO_ROOT);
    collective(b, 1, "MPI_Barrier", 24, 25, barrier, TB_SELF, TB_NO_ROOT);
    tb_enter(b, 0, MS(26), isend);
    tb_mpi_isend(b, 0, MS(26), TB_SELF, 0, 9, 8, 1);
    tb_leave(b, 0, MS(27), isend);
    recv(b, 0, 27, 28, TB_SELF, 0, 9);
    tb_enter(b, 0, MS(28), wait);
    tb_mpi_isend_complete(b, 0, MS(29), 1);
    tb_leave(b, 0, MS(29), wait);
    send(b, 1, 30, 31, TB_WORLD, 2, 0);
    recv(b, 2, 30.5, 32, TB_WORLD, 1, 0);
    send(b, 2, 33, 34, TB_WORLD, 0, 0);
    recv(b, 0, 35, 36, TB_WORLD, 2, 0);
    collective(b, 0, "MPI_Barrier", 40, 45, barrier, TB_WORLD, TB_NO_ROOT);
    collective(b, 1, "MPI_Barrier", 41, 45, barrier, TB_WORLD, TB_NO_ROOT);
    finalize(b, 2, 40);
    finalize(b, 0, 46);
    finalize(b, 1, 46);
    analyze(b);

    expect_counts(3, 0, 0, 0, 4, 1);
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .wait_at_barrier = S(4), .synchronization = S(4) });
    /* process 1's Send (30 to 31) was still in its call when process 2's Recv began at
     * 30.5: a Late Receiver of 0.5 */
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .wait_at_barrier = S(2), .late_receiver = S(0.5), .synchronization = S(2.5) });
    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){ 0 });
}

/* Many instances open at once: the root of 600 Bcasts runs ahead, entering the k-th at
 * 1 + k/100 and leaving 5 us later; processes 1 and 2 enter it at 10 + k/100, leaving
 * 5 us later.  Each instance: the root waits 9 for the last entry (synchronization) and
 * leaves 9 before the last (time variation); the others enter after the root: no late
 * broadcast.  Root: 600 x 9 = 5400 of each; all 600 instances complete. */
Test(waits, many_collective_instances_in_flight)
{
    struct tb *b = trace(3);
    uint32_t bcast = tb_mpi(b, "MPI_Bcast");

    for (int p = 0; p < 3; p++) {
        init(b, p);
        for (int k = 0; k < 600; k++) {
            uint64_t enter = MS((p == 0 ? 1 : 10) + k / 100.0);

            tb_enter(b, p, enter, bcast);
            tb_collective_begin(b, p, enter);
            tb_collective_end(b, p, enter + 5000, OTF2_COLLECTIVE_OP_BCAST, TB_WORLD, 0, 8, 8);
            tb_leave(b, p, enter + 5000, bcast);
        }
        finalize(b, p, 20);
    }
    analyze(b);

    expect_counts(0, 0, 0, 0, 600, 0);
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .synchronization = S(5400), .time_variation = S(5400) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){ 0 });
    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){ 0 });
}

/* The waits of one call are a part of its time (docs/characteristics.md: "Each of these
 * is a part of the process's MPI time"; synchronization is "the time the process would
 * not have spent in MPI had its partners been there").  An exchange by MPI_Sendrecv:
 *   0: Sendrecv 10-30 (sends at 10, receives 1's message at 30)
 *   1: Sendrecv 25-29 (sends at 25, receives 0's message at 29)
 * Process 0 waited from 10 until its partner came at 25: 15, in a call of 20.  As Late
 * Sender (1's message sent at 25, the receiving call entered at 10) and as Late Receiver
 * (its message received by a call entered at 25, matched at 29 before its Sendrecv
 * returned at 30) the same 15 ms appear; synchronization must count them once, and can
 * be no more than the 20 ms of the call.  Process 1 waited for nothing. */
Test(waits, sendrecv_exchange_waits_no_longer_than_its_call)
{
    struct tb *b = trace(2);
    uint32_t sendrecv = tb_mpi(b, "MPI_Sendrecv");
    struct pz_characteristics got;

    init(b, 0);
    init(b, 1);
    tb_enter(b, 0, MS(10), sendrecv);
    tb_mpi_send(b, 0, MS(10), TB_WORLD, 1, 0, 8);
    tb_enter(b, 1, MS(25), sendrecv);
    tb_mpi_send(b, 1, MS(25), TB_WORLD, 0, 0, 8);
    tb_mpi_recv(b, 1, MS(29), TB_WORLD, 0, 0, 8);
    tb_leave(b, 1, MS(29), sendrecv);
    tb_mpi_recv(b, 0, MS(30), TB_WORLD, 1, 0, 8);
    tb_leave(b, 0, MS(30), sendrecv);
    finalize(b, 0, 40);
    finalize(b, 1, 40);
    analyze(b);

    pz_characteristics_of_process(&an, &an.nodes[0], 0, &got);
    cr_expect(got.synchronization <= S(20) + EPS,
              "process 0: synchronization %.12f exceeds its 0.020 s in MPI_Sendrecv "
              "(Late Sender %.12f, Late Receiver %.12f)", got.synchronization,
              got.late_sender, got.late_receiver);
    cr_expect(fabs(got.synchronization - S(15)) <= EPS,
              "process 0: synchronization %.12f, expected 0.015", got.synchronization);
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){ 0 });
    expect_counts(2, 0, 0, 0, 0, 0);
}

/* The same for a Waitall completing two receives:
 *   2: Irecv from 0 1-2, Irecv from 1 2-3, Waitall 10-22 (both MpiIrecv at 22)
 *   0: Send to 2 20-20.5                 1: Send to 2 15-15.5
 * The Waitall waited from 10 until the last message was sent at 20: 10 ms of its 12.
 * Per message, the Late Sender would be 20 - 10 = 10 and 15 - 10 = 5: 15 ms, more than
 * the call lasted. */
Test(waits, waitall_late_sender_no_longer_than_the_call)
{
    struct tb *b = trace(3);
    uint32_t irecv = tb_mpi(b, "MPI_Irecv"), waitall = tb_mpi(b, "MPI_Waitall");
    struct pz_characteristics got;

    for (int p = 0; p < 3; p++)
        init(b, p);
    tb_enter(b, 2, MS(1), irecv);
    tb_mpi_irecv_request(b, 2, MS(1), 1);
    tb_leave(b, 2, MS(2), irecv);
    tb_enter(b, 2, MS(2), irecv);
    tb_mpi_irecv_request(b, 2, MS(2), 2);
    tb_leave(b, 2, MS(3), irecv);
    tb_enter(b, 2, MS(10), waitall);
    send(b, 1, 15, 15.5, TB_WORLD, 2, 0);
    send(b, 0, 20, 20.5, TB_WORLD, 2, 0);
    tb_mpi_irecv(b, 2, MS(22), TB_WORLD, 0, 0, 8, 1);
    tb_mpi_irecv(b, 2, MS(22), TB_WORLD, 1, 0, 8, 2);
    tb_leave(b, 2, MS(22), waitall);
    for (int p = 0; p < 3; p++)
        finalize(b, p, 30);
    analyze(b);

    pz_characteristics_of_process(&an, &an.nodes[0], 2, &got);
    cr_expect(got.late_sender <= S(12) + EPS && got.synchronization <= S(12) + EPS,
              "process 2: Late Sender %.12f, synchronization %.12f exceed its 0.012 s in "
              "MPI_Waitall", got.late_sender, got.synchronization);
    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){
        .late_sender = S(10), .synchronization = S(10) });
    expect_counts(2, 0, 0, 0, 0, 0);
}

/* Late Receiver as documented: "a blocking send still in its call when the receive
 * began".  A rendezvous whose Send returns before the receiving call does:
 *   0: Send 10-29                        1: Recv 25-30
 * The receive began at 25 while the Send was in its call: Late Receiver
 * min(25, 29) - 10 = 15. */
Test(waits, late_receiver_when_the_send_returns_before_the_receive)
{
    struct tb *b = trace(2);

    init(b, 0);
    init(b, 1);
    send(b, 0, 10, 29, TB_WORLD, 1, 0);
    recv(b, 1, 25, 30, TB_WORLD, 0, 0);
    finalize(b, 0, 40);
    finalize(b, 1, 40);
    analyze(b);

    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .late_receiver = S(15), .synchronization = S(15) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){ 0 });
    expect_counts(1, 0, 0, 0, 0, 0);
}

/* Overlap: computing while a nonblocking operation is in flight.
 *   0: Isend 10-11 (request 1), computes 11-20, Wait 20-21 completes it, computes 21-30
 *   1: Irecv 5-6 (request 2), computes 6-12, Wait 12-22 completes it at 22
 * Process 0 overlaps 20 - 11 = 9, process 1 12 - 6 = 6; the send began (10) before
 * process 1's Wait (12): no Late Sender. */
Test(waits, overlap_is_computation_while_requests_are_in_flight)
{
    struct tb *b = trace(2);
    uint32_t isend = tb_mpi(b, "MPI_Isend"), irecv = tb_mpi(b, "MPI_Irecv");
    uint32_t wait = tb_mpi(b, "MPI_Wait");

    init(b, 0);
    init(b, 1);
    tb_enter(b, 1, MS(5), irecv);
    tb_mpi_irecv_request(b, 1, MS(5), 2);
    tb_leave(b, 1, MS(6), irecv);
    tb_enter(b, 0, MS(10), isend);
    tb_mpi_isend(b, 0, MS(10), TB_WORLD, 1, 0, 8, 1);
    tb_leave(b, 0, MS(11), isend);
    tb_enter(b, 1, MS(12), wait);
    tb_enter(b, 0, MS(20), wait);
    tb_mpi_isend_complete(b, 0, MS(21), 1);
    tb_leave(b, 0, MS(21), wait);
    tb_mpi_irecv(b, 1, MS(22), TB_WORLD, 0, 0, 8, 2);
    tb_leave(b, 1, MS(22), wait);
    finalize(b, 0, 30);
    finalize(b, 1, 30);
    analyze(b);

    cr_expect_float_eq(an.nodes[0].procs[0].overlap, S(9), EPS, "process 0: %.12f",
                       an.nodes[0].procs[0].overlap);
    cr_expect_float_eq(an.nodes[0].procs[1].overlap, S(6), EPS, "process 1: %.12f",
                       an.nodes[0].procs[1].overlap);
    expect_counts(1, 0, 0, 0, 0, 0);
}

/* A receive that ends at the very tick its send begins (a prediction on a network
 * without latency) is no clock violation, even though process 0's receive is read
 * before process 1's send:
 *   0: Recv 10-20 from 1; 1: Send 20-21 to 0.
 * Process 0 waited 20 - 10 = 10 for the sender: its Late Sender, also in the interval
 * it waited in. */
Test(waits, a_receive_ending_when_its_send_begins_is_a_late_sender)
{
    struct tb *b = trace(2);
    uint32_t i1 = tb_interval(b, 1, "tie.c", 5);

    init(b, 0);
    init(b, 1);
    tb_enter(b, 0, MS(5), i1);
    recv(b, 0, 10, 20, TB_WORLD, 1, 3);
    tb_leave(b, 0, MS(25), i1);
    send(b, 1, 20, 21, TB_WORLD, 0, 3);
    finalize(b, 0, 30);
    finalize(b, 1, 30);
    analyze(b);

    expect_counts(1, 0, 0, 0, 0, 0);
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .late_sender = S(10), .synchronization = S(10) });
    cr_assert_eq(an.nnodes, 2);
    expect_process("interval 1", &an.nodes[1], 0, (struct pz_characteristics){
        .late_sender = S(10), .synchronization = S(10) });
}

/* A nonblocking collective posted by process p in the MPI call name, from enter to
 * leave, with its request record at the enter as prognoz writes it. */
static void nb_post(struct tb *b, int p, const char *name, double enter, double leave,
                    uint64_t request)
{
    uint32_t call = tb_mpi(b, name);

    tb_enter(b, p, MS(enter), call);
    tb_nbc_request(b, p, MS(enter), request);
    tb_leave(b, p, MS(leave), call);
}

/* A nonblocking collective a wait completes: its request and its blocking form. */
struct nb_done {
    uint64_t request;
    OTF2_CollectiveOp op;
    uint32_t comm, root;
};

/* A wait or test name of process p from enter to leave, completing n nonblocking
 * collectives at its leave in the order given. */
static void nb_wait(struct tb *b, int p, const char *name, double enter, double leave,
                    const struct nb_done *done, int n)
{
    uint32_t call = tb_mpi(b, name);

    tb_enter(b, p, MS(enter), call);
    for (int i = 0; i < n; i++)
        tb_nbc_complete(b, p, MS(leave), done[i].op, done[i].comm, done[i].root, 8, 8,
                        done[i].request);
    tb_leave(b, p, MS(leave), call);
}

#define IBARRIER(request) { request, OTF2_COLLECTIVE_OP_BARRIER, TB_WORLD, TB_NO_ROOT }
#define IALLREDUCE(request, comm) { request, OTF2_COLLECTIVE_OP_ALLREDUCE, comm, TB_NO_ROOT }

/* An Ibarrier with staggered posts and waits; interval 1 (nb.c:5) encloses process 0's
 * Wait and process 2's post, process 1 runs through it after its Wait.
 *   0: Ibarrier 10-11 (request 1), Wait 20-31 in interval 1
 *   1: Ibarrier 15-16 (request 7), Wait 17-31
 *   2: Ibarrier 30-30.5 (request 3) in interval 1, Wait 40-41
 * The last post began at 30.  Process 0 waits min(31, 30) - 20 = 10, in interval 1 (where
 * its Wait is, although it posted before); process 1 min(31, 30) - 17 = 13, in the whole
 * run only; process 2 posted last and waits nowhere: 30 - 40 < 0.  Synchronization is
 * the same waiting (not 30 - 10 = 20 and 30 - 15 = 15 from the posts: the processes
 * could compute between post and wait).  Interval 1: 10; whole run: 23. */
Test(waits, ibarrier_with_staggered_posts_and_waits)
{
    struct tb *b = trace(3);
    uint32_t i1 = tb_interval(b, 1, "nb.c", 5);
    const struct pz_node *n;

    for (int p = 0; p < 3; p++)
        init(b, p);
    nb_post(b, 0, "MPI_Ibarrier", 10, 11, 1);
    tb_enter(b, 0, MS(19), i1);
    nb_wait(b, 0, "MPI_Wait", 20, 31, (const struct nb_done[]){ IBARRIER(1) }, 1);
    tb_leave(b, 0, MS(35), i1);
    nb_post(b, 1, "MPI_Ibarrier", 15, 16, 7);
    nb_wait(b, 1, "MPI_Wait", 17, 31, (const struct nb_done[]){ IBARRIER(7) }, 1);
    tb_enter(b, 1, MS(32), i1);
    tb_leave(b, 1, MS(35), i1);
    tb_enter(b, 2, MS(19), i1);
    nb_post(b, 2, "MPI_Ibarrier", 30, 30.5, 3);
    tb_leave(b, 2, MS(35), i1);
    nb_wait(b, 2, "MPI_Wait", 40, 41, (const struct nb_done[]){ IBARRIER(3) }, 1);
    for (int p = 0; p < 3; p++)
        finalize(b, p, 50);
    analyze(b);

    n = node_at("nb.c", 5);
    expect_process("interval 1", n, 0, (struct pz_characteristics){
        .wait_at_barrier = S(10), .synchronization = S(10) });
    expect_process("interval 1", n, 1, (struct pz_characteristics){ 0 });
    expect_process("interval 1", n, 2, (struct pz_characteristics){ 0 });
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .wait_at_barrier = S(10), .synchronization = S(10) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .wait_at_barrier = S(13), .synchronization = S(13) });
    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){ 0 });
    expect_interval("interval 1", n, (struct pz_characteristics){
        .wait_at_barrier = S(10), .synchronization = S(10) });
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .wait_at_barrier = S(23), .synchronization = S(23) });
    expect_counts(0, 0, 0, 0, 1, 0);
}

/* Two Iallreduce, A then B, completed by Waitany calls in another order on each
 * process (requests are per process: process 2 numbers them the other way round).
 *   0: A 10-11 (1), B 12-13 (2); Waitany 14-37 completes B, Waitany 38-39 completes A
 *   1: A 16-17 (1), B 18-19 (2); Waitany 19-30 completes A, Waitany 31-40 completes B
 *   2: A 21-22 (4), B 36-36.5 (3); Waitany 38-39 completes B, Waitany 39.5-40 completes A
 * A's last post began at 21, B's at 36.
 *   process 0: B min(37, 36) - 14 = 22, A 21 - 38 < 0: 22
 *   process 1: A min(30, 21) - 19 = 2, B min(40, 36) - 31 = 5: 7
 *   process 2: B 36 - 38 < 0, A 21 - 39.5 < 0: 0
 * Wait at NxN and synchronization alike; 29 in all.  Matched by order of completion,
 * process 0's first completion (B) would be process 1's first (A), and by request the
 * instances of process 2 would be swapped. */
Test(waits, iallreduce_completed_out_of_post_order)
{
    struct tb *b = trace(3);

    for (int p = 0; p < 3; p++)
        init(b, p);
    nb_post(b, 0, "MPI_Iallreduce", 10, 11, 1);
    nb_post(b, 0, "MPI_Iallreduce", 12, 13, 2);
    nb_wait(b, 0, "MPI_Waitany", 14, 37, (const struct nb_done[]){ IALLREDUCE(2, TB_WORLD) }, 1);
    nb_wait(b, 0, "MPI_Waitany", 38, 39, (const struct nb_done[]){ IALLREDUCE(1, TB_WORLD) }, 1);
    nb_post(b, 1, "MPI_Iallreduce", 16, 17, 1);
    nb_post(b, 1, "MPI_Iallreduce", 18, 19, 2);
    nb_wait(b, 1, "MPI_Waitany", 19, 30, (const struct nb_done[]){ IALLREDUCE(1, TB_WORLD) }, 1);
    nb_wait(b, 1, "MPI_Waitany", 31, 40, (const struct nb_done[]){ IALLREDUCE(2, TB_WORLD) }, 1);
    nb_post(b, 2, "MPI_Iallreduce", 21, 22, 4);
    nb_post(b, 2, "MPI_Iallreduce", 36, 36.5, 3);
    nb_wait(b, 2, "MPI_Waitany", 38, 39, (const struct nb_done[]){ IALLREDUCE(3, TB_WORLD) }, 1);
    nb_wait(b, 2, "MPI_Waitany", 39.5, 40,
            (const struct nb_done[]){ IALLREDUCE(4, TB_WORLD) }, 1);
    for (int p = 0; p < 3; p++)
        finalize(b, p, 50);
    analyze(b);

    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .wait_at_nxn = S(22), .synchronization = S(22) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .wait_at_nxn = S(7), .synchronization = S(7) });
    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){ 0 });
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .wait_at_nxn = S(29), .synchronization = S(29) });
    expect_counts(0, 0, 0, 0, 2, 0);
}

/* An Ibcast whose root (process 2) posts late.
 *   2 (root): Ibcast 30-31, Wait 32-33
 *   0: Ibcast 10-11, Wait 12-36          1: Ibcast 34-34.5, Wait 34.5-35.5
 * Off the root, a member waits for the root's post: process 0 min(36, 30) - 12 = 18 of
 * late broadcast and synchronization (not min(36, 34) - 12 = 22, up to process 1's
 * post); process 1 posted after the root, 30 - 34.5 < 0: none.  The root waits for
 * nobody, although process 1 posted after its Wait began. */
Test(waits, ibcast_with_a_late_root)
{
    struct tb *b = trace(3);
    const struct nb_done done = { 1, OTF2_COLLECTIVE_OP_BCAST, TB_WORLD, 2 };

    for (int p = 0; p < 3; p++)
        init(b, p);
    nb_post(b, 0, "MPI_Ibcast", 10, 11, 1);
    nb_wait(b, 0, "MPI_Wait", 12, 36, &done, 1);
    nb_post(b, 1, "MPI_Ibcast", 34, 34.5, 1);
    nb_wait(b, 1, "MPI_Wait", 34.5, 35.5, &done, 1);
    nb_post(b, 2, "MPI_Ibcast", 30, 31, 1);
    nb_wait(b, 2, "MPI_Wait", 32, 33, &done, 1);
    for (int p = 0; p < 3; p++)
        finalize(b, p, 50);
    analyze(b);

    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .late_broadcast = S(18), .synchronization = S(18) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){ 0 });
    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){ 0 });
    expect_counts(0, 0, 0, 0, 1, 0);
}

/* An Ireduce whose root (process 0) waits early.
 *   0 (root): Ireduce 10-11, Wait 12-26
 *   1: Ireduce 20-21, Wait 21-22         2: Ireduce 25-25.5, Wait 26-27
 * The root's Wait cannot return before the last of the others posted, at 25: early
 * reduce min(26, 25) - 12 = 13, synchronization alike.  The others wait for nobody. */
Test(waits, ireduce_with_an_early_root)
{
    struct tb *b = trace(3);
    const struct nb_done done = { 1, OTF2_COLLECTIVE_OP_REDUCE, TB_WORLD, 0 };

    for (int p = 0; p < 3; p++)
        init(b, p);
    nb_post(b, 0, "MPI_Ireduce", 10, 11, 1);
    nb_wait(b, 0, "MPI_Wait", 12, 26, &done, 1);
    nb_post(b, 1, "MPI_Ireduce", 20, 21, 1);
    nb_wait(b, 1, "MPI_Wait", 21, 22, &done, 1);
    nb_post(b, 2, "MPI_Ireduce", 25, 25.5, 1);
    nb_wait(b, 2, "MPI_Wait", 26, 27, &done, 1);
    for (int p = 0; p < 3; p++)
        finalize(b, p, 50);
    analyze(b);

    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .early_reduce = S(13), .synchronization = S(13) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){ 0 });
    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){ 0 });
    expect_counts(0, 0, 0, 0, 1, 0);
}

/* Nonblocking collectives of two communicators, posted in another order on each
 * process: an Ibarrier on MPI_COMM_WORLD and an Iallreduce on a communicator of world
 * ranks 2 and 0; then a blocking Barrier on MPI_COMM_WORLD, numbered apart from them.
 *   0: Ibarrier 10-11 (1), Iallreduce on split 12-13 (2); Wait 14-19 completes the
 *      Iallreduce, Wait 20-30 the Ibarrier
 *   1: Ibarrier 20-21 (1), Wait 22-26
 *   2: Iallreduce on split 16-17 (5), Ibarrier 24-25 (6); Waitall 26-28 completes both
 *   all: Barrier 40-41
 * The Iallreduce's last post began at 16, the Ibarrier's at 24.  Process 0: wait at NxN
 * min(19, 16) - 14 = 2, wait at barrier min(30, 24) - 20 = 4; process 1: wait at barrier
 * min(26, 24) - 22 = 2; process 2 waits for nothing (both posts before 26); the Barrier
 * has no wait.  Numbered per process whatever the communicator, process 0's Ibarrier
 * would meet process 2's Iallreduce. */
Test(waits, nonblocking_collectives_of_two_communicators)
{
    struct tb *b = trace(3);
    uint32_t split = tb_comm(b, "split", 2, (const int[]){ 2, 0 });

    for (int p = 0; p < 3; p++)
        init(b, p);
    nb_post(b, 0, "MPI_Ibarrier", 10, 11, 1);
    nb_post(b, 0, "MPI_Iallreduce", 12, 13, 2);
    nb_wait(b, 0, "MPI_Wait", 14, 19, (const struct nb_done[]){ IALLREDUCE(2, split) }, 1);
    nb_wait(b, 0, "MPI_Wait", 20, 30, (const struct nb_done[]){ IBARRIER(1) }, 1);
    nb_post(b, 1, "MPI_Ibarrier", 20, 21, 1);
    nb_wait(b, 1, "MPI_Wait", 22, 26, (const struct nb_done[]){ IBARRIER(1) }, 1);
    nb_post(b, 2, "MPI_Iallreduce", 16, 17, 5);
    nb_post(b, 2, "MPI_Ibarrier", 24, 25, 6);
    nb_wait(b, 2, "MPI_Waitall", 26, 28,
            (const struct nb_done[]){ IBARRIER(6), IALLREDUCE(5, split) }, 2);
    for (int p = 0; p < 3; p++) {
        collective(b, p, "MPI_Barrier", 40, 41, OTF2_COLLECTIVE_OP_BARRIER, TB_WORLD,
                   TB_NO_ROOT);
        finalize(b, p, 50);
    }
    analyze(b);

    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .wait_at_nxn = S(2), .wait_at_barrier = S(4), .synchronization = S(6) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .wait_at_barrier = S(2), .synchronization = S(2) });
    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){ 0 });
    expect_counts(0, 0, 0, 0, 3, 0);
}

/* An instance one process never completes: its trace ends inside the Wait.
 *   A, Iallreduce: 0: 10-11, Wait 11-16   1: 12-13, Wait 13-16   2: 14-15, Wait 15-16
 *   B, Ibarrier:   0: 20-21, Wait 21-30   1: 22-23, Wait 23-30   2: 25-26, Wait from 27,
 *                  where process 2's events end
 * A: last post at 14: wait at NxN 14 - 11 = 3, 14 - 13 = 1, none.  B is incomplete and
 * adds no wait (it would be 25 - 21 = 4 and 25 - 23 = 2): process 2's post is known but
 * not its communicator, which only its completion would tell. */
Test(waits, nonblocking_instance_never_completed_on_one_process)
{
    struct tb *b = trace(3);
    const double post_a[3] = { 10, 12, 14 }, post_b[3] = { 20, 22, 25 };

    for (int p = 0; p < 3; p++) {
        init(b, p);
        nb_post(b, p, "MPI_Iallreduce", post_a[p], post_a[p] + 1, 1);
        nb_wait(b, p, "MPI_Wait", post_a[p] + 1, 16,
                (const struct nb_done[]){ IALLREDUCE(1, TB_WORLD) }, 1);
        nb_post(b, p, "MPI_Ibarrier", post_b[p], post_b[p] + 1, 2);
    }
    for (int p = 0; p < 2; p++) {
        nb_wait(b, p, "MPI_Wait", post_b[p] + 1, 30, (const struct nb_done[]){ IBARRIER(2) }, 1);
        finalize(b, p, 40);
    }
    tb_enter(b, 2, MS(27), tb_mpi(b, "MPI_Wait"));
    analyze(b);

    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .wait_at_nxn = S(3), .synchronization = S(3) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .wait_at_nxn = S(1), .synchronization = S(1) });
    expect_process("whole run", &an.nodes[0], 2, (struct pz_characteristics){ 0 });
    expect_counts(0, 0, 0, 0, 1, 1);
}

/* One Waitall completing a receive, an Iallreduce and an Ibarrier.
 *   0: Irecv 1-2 (request 1), Iallreduce 3-4 (2), Ibarrier 5-6 (3), Waitall 10-30
 *      completing all three
 *   1: Iallreduce 15-16, Send to 0 18-18.5, Ibarrier 22-23, Waitall 24-25
 * Process 0's Waitall waits for the message sent at 18 (Late Sender 18 - 10 = 8), for
 * the Iallreduce's last post at 15 and the Ibarrier's at 22: its longest wait,
 * min(30, 22) - 10 = 12, counts once, as wait at barrier (15 - 10 = 5 of wait at NxN
 * would count the same time twice).  Synchronization: it waited from 10 to 22, 12 (the
 * Late Sender's 8 and 4 more).  Process 1's Send had returned (18.5) when the receive
 * was matched: no Late Receiver; its Waitall began after process 0's posts. */
Test(waits, a_wait_completing_several_instances_counts_its_wait_once)
{
    struct tb *b = trace(2);
    uint32_t irecv = tb_mpi(b, "MPI_Irecv"), waitall = tb_mpi(b, "MPI_Waitall");

    init(b, 0);
    init(b, 1);
    tb_enter(b, 0, MS(1), irecv);
    tb_mpi_irecv_request(b, 0, MS(1), 1);
    tb_leave(b, 0, MS(2), irecv);
    nb_post(b, 0, "MPI_Iallreduce", 3, 4, 2);
    nb_post(b, 0, "MPI_Ibarrier", 5, 6, 3);
    tb_enter(b, 0, MS(10), waitall);
    nb_post(b, 1, "MPI_Iallreduce", 15, 16, 1);
    send(b, 1, 18, 18.5, TB_WORLD, 0, 0);
    nb_post(b, 1, "MPI_Ibarrier", 22, 23, 2);
    nb_wait(b, 1, "MPI_Waitall", 24, 25,
            (const struct nb_done[]){ IALLREDUCE(1, TB_WORLD), IBARRIER(2) }, 2);
    tb_mpi_irecv(b, 0, MS(30), TB_WORLD, 1, 0, 8, 1);
    tb_nbc_complete(b, 0, MS(30), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT, 8, 8, 2);
    tb_nbc_complete(b, 0, MS(30), OTF2_COLLECTIVE_OP_BARRIER, TB_WORLD, TB_NO_ROOT, 0, 0, 3);
    tb_leave(b, 0, MS(30), waitall);
    finalize(b, 0, 40);
    finalize(b, 1, 40);
    analyze(b);

    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .late_sender = S(8), .wait_at_barrier = S(12), .synchronization = S(12) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){ 0 });
    expect_counts(1, 0, 0, 0, 2, 0);
}

/* 600 Iallreduce in flight at once.  Process 0 posts the k-th (k = 0..599) at
 * 1 + k/100 ms and completes them in order, the k-th by a Wait from 10 + k/100 - 0.005
 * to 10 + k/100 + 0.002; process 1 posts the k-th at 10 + k/100 and completes them all,
 * last posted first, in a Waitall 17-18.  Each Wait of process 0 waits 0.005 for process
 * 1's post: 600 x 0.005 = 3 of wait at NxN and synchronization.  Process 1 waits for
 * nothing.  Every instance stays unmatched until process 1's Waitall returns. */
Test(waits, many_nonblocking_instances_in_flight)
{
    struct tb *b = trace(2);
    uint32_t iallreduce = tb_mpi(b, "MPI_Iallreduce"), wait = tb_mpi(b, "MPI_Wait");
    uint32_t waitall = tb_mpi(b, "MPI_Waitall");

    init(b, 0);
    init(b, 1);
    for (int p = 0; p < 2; p++) {
        for (uint64_t k = 0; k < 600; k++) {
            uint64_t at = (p == 0 ? MS(1) : MS(10)) + k * 10000;

            tb_enter(b, p, at, iallreduce);
            tb_nbc_request(b, p, at, k + 1);
            tb_leave(b, p, at + 1000, iallreduce);
        }
    }
    for (uint64_t k = 0; k < 600; k++) {
        uint64_t at = MS(10) + k * 10000;

        tb_enter(b, 0, at - 5000, wait);
        tb_nbc_complete(b, 0, at + 2000, OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT,
                        8, 8, k + 1);
        tb_leave(b, 0, at + 2000, wait);
    }
    tb_enter(b, 1, MS(17), waitall);
    for (uint64_t k = 600; k > 0; k--)
        tb_nbc_complete(b, 1, MS(18), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT, 8,
                        8, k);
    tb_leave(b, 1, MS(18), waitall);
    finalize(b, 0, 20);
    finalize(b, 1, 20);
    analyze(b);

    expect_counts(0, 0, 0, 0, 600, 0);
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .wait_at_nxn = S(3), .synchronization = S(3) });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){ 0 });
}

/* An intercommunicator X between A = world {0, 1} and B = world {2, 3}: a message's peer
 * is a rank of the other group, and a collective instance is every member of both.
 *   0 (A 0): Send to B 1 (world 3), tag 5, 10-11; Barrier 20-26; Bcast 30-31
 *   1 (A 1): Recv from B 0 (world 2), tag 6, 13-16; Barrier 21-26; Bcast 30-31
 *   2 (B 0): Send to A 1 (world 1), tag 6, 14-15; Barrier 22-26; Bcast 28-31
 *   3 (B 1): Recv from A 0 (world 0), tag 5, 8-12; Barrier 25-26; Bcast 28-31
 * Late Sender: process 3 waits 10 - 8 = 2, process 1 14 - 13 = 1.  The barrier: the last
 * enters at 25, so 5 + 4 + 3 + 0 = 12 of Wait at Barrier; all leave at 26.  The
 * broadcast's root is MPI_ROOT on one side and a rank of it on the other: no Late
 * Broadcast, but the potential synchronization of every member, 30 - enter: 0, 0, 2, 2.
 * Synchronization 3 + 12 + 4 = 19, real 3 + 12 = 15. */
Test(waits, an_intercommunicator_matches_across_its_groups)
{
    static const int a[] = { 0, 1 }, bgroup[] = { 2, 3 };
    static const double barrier_in[] = { 20, 21, 22, 25 }, bcast_in[] = { 30, 30, 28, 28 };
    struct tb *b = trace(4);
    uint32_t x = tb_intercomm(b, "X", 2, a, 2, bgroup);

    for (int p = 0; p < 4; p++)
        init(b, p);
    send(b, 0, 10, 11, x, 1, 5);
    recv(b, 3, 8, 12, x, 0, 5);
    recv(b, 1, 13, 16, x, 0, 6);
    send(b, 2, 14, 15, x, 1, 6);
    for (int p = 0; p < 4; p++) {
        collective(b, p, "MPI_Barrier", barrier_in[p], 26, OTF2_COLLECTIVE_OP_BARRIER, x, 0);
        collective(b, p, "MPI_Bcast", bcast_in[p], 31, OTF2_COLLECTIVE_OP_BCAST, x, 0);
        finalize(b, p, 40);
    }
    analyze(b);

    expect_counts(2, 0, 0, 0, 2, 0);
    expect_process("whole run", &an.nodes[0], 3, (struct pz_characteristics){
        .late_sender = 0.002, .wait_at_barrier = 0, .synchronization = 0.002 + 0.002 });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .late_sender = 0.001, .wait_at_barrier = 0.004, .synchronization = 0.005 });
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .late_sender = 0.003, .wait_at_barrier = 0.012, .synchronization = 0.019 });
}

/* MPI_Cart_create over MPI_COMM_WORLD, recorded with its collective CREATE_HANDLE on
 * the parent (trace/constructor.h), on three processes: 0: 10-31, 1: 12-32, 2: 30-31.
 * The members agree on the new context id with an Allreduce: wait at N x N.
 *   wait at NxN = 30 - E:       20, 18, 0     (synchronization alike)
 *   NxN completion = L - 31:     0,  1, 0
 *   time variation = 32 - L:     1,  0, 1
 * Integral: wait 38, completion 1, variation 2; one collective instance.  Score-P's
 * CREATE_HANDLE of MPI_Init (the same staggered Init on every process) is none. */
Test(waits, constructor_waits_for_its_parents_members)
{
    struct tb *b = trace(3);
    const double enter[3] = { 10, 12, 30 }, leave[3] = { 31, 32, 31 };
    const double wait[3] = { 20, 18, 0 }, done[3] = { 0, 1, 0 }, variation[3] = { 1, 0, 1 };

    for (int p = 0; p < 3; p++) {
        collective(b, p, "MPI_Init", 0, 1 + p, OTF2_COLLECTIVE_OP_CREATE_HANDLE, TB_WORLD,
                   TB_NO_ROOT);
        collective(b, p, "MPI_Cart_create", enter[p], leave[p],
                   OTF2_COLLECTIVE_OP_CREATE_HANDLE, TB_WORLD, TB_NO_ROOT);
        finalize(b, p, 40);
    }
    analyze(b);

    for (int p = 0; p < 3; p++)
        expect_process("whole run", &an.nodes[0], p, (struct pz_characteristics){
            .wait_at_nxn = S(wait[p]), .nxn_completion = S(done[p]),
            .synchronization = S(wait[p]), .time_variation = S(variation[p]) });
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .wait_at_nxn = S(38), .nxn_completion = S(1), .synchronization = S(38),
        .time_variation = S(2) });
    expect_counts(0, 0, 0, 0, 1, 0);
}

/* The same MPI_Cart_create recorded before constructors had their collective: a call
 * of its own, with no wait state and no instance. */
Test(waits, constructor_without_its_collective_is_local)
{
    struct tb *b = trace(3);
    const double enter[3] = { 10, 12, 30 }, leave[3] = { 31, 32, 31 };

    for (int p = 0; p < 3; p++) {
        init(b, p);
        tb_call(b, p, "MPI_Cart_create", MS(enter[p]), MS(leave[p]));
        finalize(b, p, 40);
    }
    analyze(b);

    for (int p = 0; p < 3; p++)
        expect_process("whole run", &an.nodes[0], p, (struct pz_characteristics){ 0 });
    expect_counts(0, 0, 0, 0, 0, 0);
}
