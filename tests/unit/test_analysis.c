/* The analyzer on hand-built traces: each test writes an OTF2 archive with the OTF2
 * writer (trace_builder.h) into a temporary directory, analyzes it with pz_analyze and
 * compares every characteristic with values worked out by hand from the definitions of
 * docs/characteristics.md.  Times in the comments are milliseconds; the trace's clock
 * counts nanoseconds, so every expected value is an exact decimal. */
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

static double eps = EPS;   /* the tolerance of expect_values */

TestSuite(analysis, .fini = cleanup);
TestSuite(bad_input, .fini = cleanup);
TestSuite(golden, .fini = cleanup);

/* A builder for a new trace of nprocs processes in a fresh directory. */
static struct tb *trace(int nprocs)
{
    struct tb *b;

    dir = tb_tempdir();
    cr_assert_not_null(dir, "cannot make a temporary directory");
    b = tb_open(dir, nprocs);
    cr_assert_not_null(b, "cannot open an OTF2 archive in %s", dir);
    return b;
}

/* Closes the trace and analyzes it, which must succeed. */
static void analyze(struct tb *b)
{
    cr_assert_eq(tb_close(b), 0, "the trace builder failed");
    cr_assert_eq(pz_analyze(dir, &an, err, sizeof(err)), 0, "pz_analyze: %s", err);
}

/* The doubles of struct pz_characteristics, by name. */
static const struct {
    const char *name;
    size_t offset;
} doubles[] = {
#define D(m) { #m, offsetof(struct pz_characteristics, m) }
    D(execution_time), D(total_time), D(productive_time), D(efficiency), D(lost_time),
    D(mpi_time), D(cpu_time), D(idle_time), D(communication_time), D(sendrecv_time),
    D(collective_time), D(alltoall_time), D(time_of_start), D(load_imbalance),
    D(insufficient_parallelism), D(synchronization), D(real_synchronization),
#undef D
};

#define NDOUBLES (sizeof(doubles) / sizeof(doubles[0]))

static double value(const struct pz_characteristics *c, size_t i)
{
    double v;

    memcpy(&v, (const char *)c + doubles[i].offset, sizeof(v));
    return v;
}

static void expect_values(const char *what, const struct pz_characteristics *got,
                          const struct pz_characteristics *want)
{
    cr_expect_eq(got->processors, want->processors, "%s: processors %d, expected %d", what,
                 got->processors, want->processors);
    cr_expect_eq(got->exe_count, want->exe_count, "%s: exe_count %llu, expected %llu", what,
                 (unsigned long long)got->exe_count, (unsigned long long)want->exe_count);
    for (size_t i = 0; i < NDOUBLES; i++)
        cr_expect(fabs(value(got, i) - value(want, i)) <= eps,
                  "%s: %s is %.12f, expected %.12f", what, doubles[i].name, value(got, i),
                  value(want, i));
}

/* The interval's integral characteristics. */
static void expect_interval(const char *what, const struct pz_node *n,
                            struct pz_characteristics want)
{
    struct pz_characteristics got;

    pz_characteristics_of(&an, n, &got);
    expect_values(what, &got, &want);
}

/* Process p's characteristics in the interval. */
static void expect_process(const char *what, const struct pz_node *n, int p,
                           struct pz_characteristics want)
{
    struct pz_characteristics got;
    char label[256];

    snprintf(label, sizeof(label), "%s, process %d", what, p);
    pz_characteristics_of_process(&an, n, p, &got);
    expect_values(label, &got, &want);
}

/* The one node of the interval begun at file:line. */
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

static int index_of(const struct pz_node *n)
{
    return (int)(n - an.nodes);
}

static void expect_spread(const char *what, const struct pz_node *n, size_t field, double min,
                          int min_proc, double max, int max_proc, double mean)
{
    struct pz_spread s = pz_characteristic_spread(&an, n, field);

    cr_expect(fabs(s.min - min) <= EPS, "%s: min %.12f, expected %.12f", what, s.min, min);
    cr_expect_eq(s.min_proc, min_proc, "%s: min on process %d, expected %d", what, s.min_proc,
                 min_proc);
    cr_expect(fabs(s.max - max) <= EPS, "%s: max %.12f, expected %.12f", what, s.max, max);
    cr_expect_eq(s.max_proc, max_proc, "%s: max on process %d, expected %d", what, s.max_proc,
                 max_proc);
    cr_expect(fabs(s.mean - mean) <= EPS, "%s: mean %.12f, expected %.12f", what, s.mean, mean);
}

#define SPREAD(member) offsetof(struct pz_characteristics, member)

/* (a) Two processes, no intervals.
 *   0: Init 0-10, compute (a region of its own) 10-30, Send 30-35, compute,
 *      Finalize 60-70                                        run 70, MPI 10+5+10 = 25
 *   1: Init 2-12, compute, Recv 20-36, compute, Finalize 50-80
 *                                                            run 78, MPI 10+16+30 = 56
 * Execution 78 (the longest process), Total 2 x 78 = 156; CPU 45 + 22 = 67; idle
 * 8 + 0; lost (25 + 8) + (56 + 0) = 89; productive 156 - 89 = 67; SendRecv 5 + 16;
 * Init and Finalize are MPI time but no communication; load imbalance
 * (45 - 45) + (45 - 22) = 23. */
Test(analysis, two_processes_without_intervals)
{
    struct tb *b = trace(2);
    uint32_t compute = tb_user(b, "compute");

    tb_call(b, 0, "MPI_Init", MS(0), MS(10));
    tb_enter(b, 0, MS(10), compute);
    tb_leave(b, 0, MS(30), compute);
    tb_call(b, 0, "MPI_Send", MS(30), MS(35));
    tb_call(b, 0, "MPI_Finalize", MS(60), MS(70));
    tb_call(b, 1, "MPI_Init", MS(2), MS(12));
    tb_call(b, 1, "MPI_Recv", MS(20), MS(36));
    tb_call(b, 1, "MPI_Finalize", MS(50), MS(80));
    analyze(b);

    cr_assert_eq(an.nprocs, 2);
    cr_assert_eq(an.nnodes, 1, "only the whole run");
    cr_expect_eq(an.nranks, 2);
    cr_expect_not(an.threaded);
    cr_expect_str_eq(an.nodes[0].file, "");
    cr_expect_eq(an.nodes[0].level, 0);
    cr_expect_eq(an.nodes[0].parent, -1);
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .execution_time = 0.078, .processors = 2, .total_time = 0.156,
        .productive_time = 0.067, .efficiency = 0.067 / 0.156, .lost_time = 0.089,
        .mpi_time = 0.081, .cpu_time = 0.067, .idle_time = 0.008,
        .communication_time = 0.021, .sendrecv_time = 0.021, .collective_time = 0,
        .alltoall_time = 0, .time_of_start = 0, .load_imbalance = 0.023, .exe_count = 1 });
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .execution_time = 0.070, .processors = 1, .total_time = 0.078,
        .productive_time = 0.045, .efficiency = 0.045 / 0.078, .lost_time = 0.033,
        .mpi_time = 0.025, .cpu_time = 0.045, .idle_time = 0.008,
        .communication_time = 0.005, .sendrecv_time = 0.005, .load_imbalance = 0,
        .exe_count = 1 });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .execution_time = 0.078, .processors = 1, .total_time = 0.078,
        .productive_time = 0.022, .efficiency = 0.022 / 0.078, .lost_time = 0.056,
        .mpi_time = 0.056, .cpu_time = 0.022, .idle_time = 0,
        .communication_time = 0.016, .sendrecv_time = 0.016, .load_imbalance = 0.023,
        .exe_count = 1 });

    /* the comparative table: min and max with their process, mean */
    expect_spread("execution", &an.nodes[0], SPREAD(execution_time), 0.070, 0, 0.078, 1, 0.074);
    expect_spread("lost", &an.nodes[0], SPREAD(lost_time), 0.033, 0, 0.056, 1, 0.0445);
    expect_spread("MPI", &an.nodes[0], SPREAD(mpi_time), 0.025, 0, 0.056, 1, 0.0405);
    expect_spread("CPU", &an.nodes[0], SPREAD(cpu_time), 0.022, 1, 0.045, 0, 0.0335);
    expect_spread("idle", &an.nodes[0], SPREAD(idle_time), 0, 1, 0.008, 0, 0.004);
    expect_spread("communication", &an.nodes[0], SPREAD(communication_time), 0.005, 0, 0.016,
                  1, 0.0105);
    expect_spread("load imbalance", &an.nodes[0], SPREAD(load_imbalance), 0, 0, 0.023, 1,
                  0.0115);
}

/* (b) Imbalanced compute: three processes in interval 1, computing 10, 20 and 40, then
 * an Allreduce of 3, 2 and 1, then a Barrier outside the interval until 50.
 *   p  Init   interval   Allreduce  Barrier  Finalize
 *   0  0-5    5-18       15-18      18-50    50-55
 *   1  0-5    5-27       25-27      27-50    50-55
 *   2  0-5    5-46       45-46      46-50    50-55
 * Interval: execution 41, total 123, MPI 3+2+1, CPU 10+20+40, idle 28+19+0, lost
 * 31+21+1 = 53, productive 70, imbalance 30+20+0.  Whole run: 55 each, MPI 45, 35, 15. */
static void imbalanced_trace(void)
{
    static const double compute[] = { 10, 20, 40 }, reduce[] = { 3, 2, 1 };
    struct tb *b = trace(3);
    uint32_t i1 = tb_interval(b, 1, "b.c", 10);

    for (int p = 0; p < 3; p++) {
        double end = 5 + compute[p] + reduce[p];

        tb_call(b, p, "MPI_Init", MS(0), MS(5));
        tb_enter(b, p, MS(5), i1);
        tb_call(b, p, "MPI_Allreduce", MS(5 + compute[p]), MS(end));
        tb_leave(b, p, MS(end), i1);
        tb_call(b, p, "MPI_Barrier", MS(end), MS(50));
        tb_call(b, p, "MPI_Finalize", MS(50), MS(55));
    }
    analyze(b);
}

Test(analysis, imbalanced_compute_in_one_interval)
{
    const struct pz_node *n;

    imbalanced_trace();
    cr_assert_eq(an.nprocs, 3);
    cr_assert_eq(an.nnodes, 2);
    n = node_at("b.c", 10);
    cr_expect_eq(n->id, 1);
    cr_expect_eq(n->level, 1);
    cr_expect_eq(n->parent, 0);
    expect_interval("interval 1", n, (struct pz_characteristics){
        .execution_time = 0.041, .processors = 3, .total_time = 0.123,
        .productive_time = 0.070, .efficiency = 0.070 / 0.123, .lost_time = 0.053,
        .mpi_time = 0.006, .cpu_time = 0.070, .idle_time = 0.047,
        .communication_time = 0.006, .collective_time = 0.006, .load_imbalance = 0.050,
        .exe_count = 1 });
    expect_process("interval 1", n, 0, (struct pz_characteristics){
        .execution_time = 0.013, .processors = 1, .total_time = 0.041,
        .productive_time = 0.010, .efficiency = 0.010 / 0.041, .lost_time = 0.031,
        .mpi_time = 0.003, .cpu_time = 0.010, .idle_time = 0.028,
        .communication_time = 0.003, .collective_time = 0.003, .load_imbalance = 0.030,
        .exe_count = 1 });
    expect_process("interval 1", n, 1, (struct pz_characteristics){
        .execution_time = 0.022, .processors = 1, .total_time = 0.041,
        .productive_time = 0.020, .efficiency = 0.020 / 0.041, .lost_time = 0.021,
        .mpi_time = 0.002, .cpu_time = 0.020, .idle_time = 0.019,
        .communication_time = 0.002, .collective_time = 0.002, .load_imbalance = 0.020,
        .exe_count = 1 });
    expect_process("interval 1", n, 2, (struct pz_characteristics){
        .execution_time = 0.041, .processors = 1, .total_time = 0.041,
        .productive_time = 0.040, .efficiency = 0.040 / 0.041, .lost_time = 0.001,
        .mpi_time = 0.001, .cpu_time = 0.040, .idle_time = 0,
        .communication_time = 0.001, .collective_time = 0.001, .load_imbalance = 0,
        .exe_count = 1 });
    expect_spread("idle", n, SPREAD(idle_time), 0, 2, 0.028, 0, 0.047 / 3);
    expect_spread("load imbalance", n, SPREAD(load_imbalance), 0, 2, 0.030, 0, 0.050 / 3);
    expect_spread("execution", n, SPREAD(execution_time), 0.013, 0, 0.041, 2, 0.076 / 3);

    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .execution_time = 0.055, .processors = 3, .total_time = 0.165,
        .productive_time = 0.070, .efficiency = 0.070 / 0.165, .lost_time = 0.095,
        .mpi_time = 0.095, .cpu_time = 0.070, .idle_time = 0,
        .communication_time = 0.065, .collective_time = 0.065, .load_imbalance = 0.050,
        .exe_count = 1 });
}

/* (c) Nested intervals three deep, A (id 1) > B (id 2) > C (id 3), executed 1, 2 and 3
 * times on process 0 and once each on process 1; then D, id 2 again at another line,
 * on process 0 only.
 *   0: Init 0-1, A 1-21 [ B 2-10 [ C 3-6 [Send 4-5], C 7-9 ],
 *                         B 11-20 [ C 12-16 [Allreduce 13-15], Recv 17-18 ] ],
 *      D 21-22, Finalize 22-24
 *   1: Init 0-2, A 2-13 [ B 3-11 [ C 4-10 [ exchange 4.5-9.5 [Recv 5-9] ] ],
 *      Barrier 11-12 ], Finalize 13-20
 * where exchange is a region of the program's own code, no interval.
 * Process 0: A 20, B 8+9 = 17, C 3+2+4 = 9; MPI in C 1+2, in B 4, in A 4, run 7.
 * Process 1: A 11, B 8, C 6; MPI in C 4, in B 4, in A 5, run 14. */
Test(analysis, nested_intervals_with_repeated_executions)
{
    struct tb *b = trace(2);
    uint32_t a = tb_interval(b, 1, "c.c", 5), bb = tb_interval(b, 2, "c.c", 7),
             c = tb_interval(b, 3, "c.c", 9), d = tb_interval(b, 2, "c.c", 30);
    const struct pz_node *na, *nb, *nc, *nd;
    int order[5];

    tb_call(b, 0, "MPI_Init", MS(0), MS(1));
    tb_enter(b, 0, MS(1), a);
    tb_enter(b, 0, MS(2), bb);
    tb_enter(b, 0, MS(3), c);
    tb_call(b, 0, "MPI_Send", MS(4), MS(5));
    tb_leave(b, 0, MS(6), c);
    tb_enter(b, 0, MS(7), c);
    tb_leave(b, 0, MS(9), c);
    tb_leave(b, 0, MS(10), bb);
    tb_enter(b, 0, MS(11), bb);
    tb_enter(b, 0, MS(12), c);
    tb_call(b, 0, "MPI_Allreduce", MS(13), MS(15));
    tb_leave(b, 0, MS(16), c);
    tb_call(b, 0, "MPI_Recv", MS(17), MS(18));
    tb_leave(b, 0, MS(20), bb);
    tb_leave(b, 0, MS(21), a);
    tb_enter(b, 0, MS(21), d);
    tb_leave(b, 0, MS(22), d);
    tb_call(b, 0, "MPI_Finalize", MS(22), MS(24));

    tb_call(b, 1, "MPI_Init", MS(0), MS(2));
    tb_enter(b, 1, MS(2), a);
    tb_enter(b, 1, MS(3), bb);
    tb_enter(b, 1, MS(4), c);
    tb_enter(b, 1, MS(4.5), tb_user(b, "exchange"));
    tb_call(b, 1, "MPI_Recv", MS(5), MS(9));
    tb_leave(b, 1, MS(9.5), tb_user(b, "exchange"));
    tb_leave(b, 1, MS(10), c);
    tb_leave(b, 1, MS(11), bb);
    tb_call(b, 1, "MPI_Barrier", MS(11), MS(12));
    tb_leave(b, 1, MS(13), a);
    tb_call(b, 1, "MPI_Finalize", MS(13), MS(20));
    analyze(b);

    cr_assert_eq(an.nnodes, 5);
    na = node_at("c.c", 5);
    nb = node_at("c.c", 7);
    nc = node_at("c.c", 9);
    nd = node_at("c.c", 30);
    cr_expect_eq(na->level, 1);
    cr_expect_eq(na->parent, 0);
    cr_expect_eq(nb->level, 2);
    cr_expect_eq(nb->parent, index_of(na));
    cr_expect_eq(nc->level, 3);
    cr_expect_eq(nc->parent, index_of(nb));
    cr_expect_eq(nd->level, 1);
    cr_expect_eq(nd->parent, 0);
    cr_expect_eq(na->id, 1);
    cr_expect_eq(nb->id, 2);
    cr_expect_eq(nc->id, 3);
    cr_expect_eq(nd->id, 2);
    cr_expect_eq(na->procs[0].count, 1);
    cr_expect_eq(nb->procs[0].count, 2);
    cr_expect_eq(nc->procs[0].count, 3);
    cr_expect_eq(nc->procs[1].count, 1);
    cr_expect_eq(nd->procs[1].count, 0);

    /* report order: depth first, children in order of first execution */
    pz_report_order(&an, order);
    cr_expect_eq(order[0], 0);
    cr_expect_eq(order[1], index_of(na));
    cr_expect_eq(order[2], index_of(nb));
    cr_expect_eq(order[3], index_of(nc));
    cr_expect_eq(order[4], index_of(nd));

    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .execution_time = 0.024, .processors = 2, .total_time = 0.048,
        .productive_time = 0.023, .efficiency = 0.023 / 0.048, .lost_time = 0.025,
        .mpi_time = 0.021, .cpu_time = 0.023, .idle_time = 0.004,
        .communication_time = 0.009, .sendrecv_time = 0.006, .collective_time = 0.003,
        .load_imbalance = 0.011, .exe_count = 1 });
    expect_interval("A", na, (struct pz_characteristics){
        .execution_time = 0.020, .processors = 2, .total_time = 0.040,
        .productive_time = 0.022, .efficiency = 0.55, .lost_time = 0.018,
        .mpi_time = 0.009, .cpu_time = 0.022, .idle_time = 0.009,
        .communication_time = 0.009, .sendrecv_time = 0.006, .collective_time = 0.003,
        .load_imbalance = 0.010, .exe_count = 1 });
    expect_interval("B", nb, (struct pz_characteristics){
        .execution_time = 0.017, .processors = 2, .total_time = 0.034,
        .productive_time = 0.017, .efficiency = 0.5, .lost_time = 0.017,
        .mpi_time = 0.008, .cpu_time = 0.017, .idle_time = 0.009,
        .communication_time = 0.008, .sendrecv_time = 0.006, .collective_time = 0.002,
        .load_imbalance = 0.009, .exe_count = 2 });
    expect_interval("C", nc, (struct pz_characteristics){
        .execution_time = 0.009, .processors = 2, .total_time = 0.018,
        .productive_time = 0.008, .efficiency = 0.008 / 0.018, .lost_time = 0.010,
        .mpi_time = 0.007, .cpu_time = 0.008, .idle_time = 0.003,
        .communication_time = 0.007, .sendrecv_time = 0.005, .collective_time = 0.002,
        .load_imbalance = 0.004, .exe_count = 3 });
    expect_interval("D", nd, (struct pz_characteristics){
        .execution_time = 0.001, .processors = 1, .total_time = 0.001,
        .productive_time = 0.001, .efficiency = 1, .cpu_time = 0.001, .exe_count = 1 });
    expect_process("B", nb, 0, (struct pz_characteristics){
        .execution_time = 0.017, .processors = 1, .total_time = 0.017,
        .productive_time = 0.013, .efficiency = 0.013 / 0.017, .lost_time = 0.004,
        .mpi_time = 0.004, .cpu_time = 0.013, .communication_time = 0.004,
        .sendrecv_time = 0.002, .collective_time = 0.002, .exe_count = 2 });
    expect_process("C", nc, 1, (struct pz_characteristics){
        .execution_time = 0.006, .processors = 1, .total_time = 0.009,
        .productive_time = 0.002, .efficiency = 0.002 / 0.009, .lost_time = 0.007,
        .mpi_time = 0.004, .cpu_time = 0.002, .idle_time = 0.003,
        .communication_time = 0.004, .sendrecv_time = 0.004, .load_imbalance = 0.004,
        .exe_count = 1 });
    /* a process that did not execute an interval has no share in it */
    expect_process("D", nd, 1, (struct pz_characteristics){ 0 });
    expect_spread("D execution", nd, SPREAD(execution_time), 0.001, 0, 0.001, 0, 0.001);
}

/* (d) A barrier with staggered arrival: four processes in interval 5 from 1 to 41 enter
 * the Barrier at 10, 20, 30 and 40 and all leave it at 41.  Barrier time 31+21+11+1 = 64,
 * all of it collective; CPU 9+19+29+39 = 96; execution 40, total 160, no idle;
 * efficiency 96/160; load imbalance 30+20+10+0. */
Test(analysis, barrier_with_staggered_arrival)
{
    struct tb *b = trace(4);
    uint32_t i5 = tb_interval(b, 5, "d.c", 3);
    const struct pz_node *n;

    for (int p = 0; p < 4; p++) {
        tb_call(b, p, "MPI_Init", MS(0), MS(1));
        tb_enter(b, p, MS(1), i5);
        tb_call(b, p, "MPI_Barrier", MS(10 * (p + 1)), MS(41));
        tb_leave(b, p, MS(41), i5);
        tb_call(b, p, "MPI_Finalize", MS(41), MS(42));
    }
    analyze(b);

    n = node_at("d.c", 3);
    expect_interval("interval 5", n, (struct pz_characteristics){
        .execution_time = 0.040, .processors = 4, .total_time = 0.160,
        .productive_time = 0.096, .efficiency = 0.6, .lost_time = 0.064,
        .mpi_time = 0.064, .cpu_time = 0.096, .idle_time = 0,
        .communication_time = 0.064, .collective_time = 0.064, .load_imbalance = 0.060,
        .exe_count = 1 });
    expect_process("interval 5", n, 0, (struct pz_characteristics){
        .execution_time = 0.040, .processors = 1, .total_time = 0.040,
        .productive_time = 0.009, .efficiency = 0.225, .lost_time = 0.031,
        .mpi_time = 0.031, .cpu_time = 0.009, .communication_time = 0.031,
        .collective_time = 0.031, .load_imbalance = 0.030, .exe_count = 1 });
    expect_process("interval 5", n, 3, (struct pz_characteristics){
        .execution_time = 0.040, .processors = 1, .total_time = 0.040,
        .productive_time = 0.039, .efficiency = 0.975, .lost_time = 0.001,
        .mpi_time = 0.001, .cpu_time = 0.039, .communication_time = 0.001,
        .collective_time = 0.001, .load_imbalance = 0, .exe_count = 1 });
    expect_spread("MPI", n, SPREAD(mpi_time), 0.001, 3, 0.031, 0, 0.016);
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .execution_time = 0.042, .processors = 4, .total_time = 0.168,
        .productive_time = 0.096, .efficiency = 0.096 / 0.168, .lost_time = 0.072,
        .mpi_time = 0.072, .cpu_time = 0.096, .idle_time = 0,
        .communication_time = 0.064, .collective_time = 0.064, .load_imbalance = 0.060,
        .exe_count = 1 });
}

/* (d') Sequential intervals: computation each process duplicates.  Three processes:
 *   0: Init 0-5, S 5-25 [ N 10-14 ], P 25-45 [ T 30-35 ], Finalize 45-50
 *   1: Init 0-5, S 5-25 [ Comm_size 21-25 ], P 25-45, Finalize 45-50
 *   2: Init 0-5, S 5-23, P 25-45, Finalize 45-50
 * S (id 4, s.c:20) and T (id 7, s.c:50) are sequential, N (id 5) and P (id 6) not.
 * S: executed by k = 3, each loses 2/3 of its CPU time there: CPU 20, 16, 18, so
 * insufficient parallelism 40/3, 32/3, 12, in all 36 = two of the three copies of the
 * 54 ms.  Execution 20, total 60, MPI 4, idle 0 + 0 + 2, lost 36 + 4 + 2 = 42,
 * productive 18 (one copy: 54 / 3), efficiency 0.3.
 * N: inside S, so sequential code too, with S's k: 2/3 of its 4 ms CPU on process 0 is
 * lost, 8/3; productive 4/3.
 * T: sequential but executed by process 0 alone: nothing duplicated, nothing lost.
 * P: parallel, no loss but idle: nothing lost to insufficient parallelism.
 * Whole run: 50 on each, total 150, MPI 10 + 14 + 10 = 34, insufficient 36 (S's),
 * lost 70, productive 80, CPU 116. */
Test(analysis, sequential_intervals_lose_their_duplicates)
{
    struct tb *b = trace(3);
    uint32_t s = tb_sequential_interval(b, 4, "s.c", 20), n = tb_interval(b, 5, "s.c", 22),
             par = tb_interval(b, 6, "s.c", 40), t = tb_sequential_interval(b, 7, "s.c", 50);
    static const double s_leave[] = { 25, 25, 23 };

    for (int p = 0; p < 3; p++) {
        tb_call(b, p, "MPI_Init", MS(0), MS(5));
        tb_enter(b, p, MS(5), s);
        if (p == 0) {
            tb_enter(b, p, MS(10), n);
            tb_leave(b, p, MS(14), n);
        } else if (p == 1) {
            tb_call(b, p, "MPI_Comm_size", MS(21), MS(25));
        }
        tb_leave(b, p, MS(s_leave[p]), s);
        tb_enter(b, p, MS(25), par);
        if (p == 0) {
            tb_enter(b, p, MS(30), t);
            tb_leave(b, p, MS(35), t);
        }
        tb_leave(b, p, MS(45), par);
        tb_call(b, p, "MPI_Finalize", MS(45), MS(50));
    }
    analyze(b);

    cr_expect(node_at("s.c", 20)->sequential);
    cr_expect_not(node_at("s.c", 22)->sequential);
    expect_interval("S", node_at("s.c", 20), (struct pz_characteristics){
        .execution_time = 0.020, .processors = 3, .total_time = 0.060,
        .productive_time = 0.018, .efficiency = 0.3, .lost_time = 0.042,
        .insufficient_parallelism = 0.036, .mpi_time = 0.004, .cpu_time = 0.054,
        .idle_time = 0.002, .load_imbalance = 0.006, .exe_count = 1 });
    expect_process("S", node_at("s.c", 20), 1, (struct pz_characteristics){
        .execution_time = 0.020, .processors = 1, .total_time = 0.020,
        .productive_time = 0.016 / 3, .efficiency = 0.016 / 3 / 0.020,
        .lost_time = 0.032 / 3 + 0.004, .insufficient_parallelism = 0.032 / 3,
        .mpi_time = 0.004, .cpu_time = 0.016, .load_imbalance = 0.004, .exe_count = 1 });
    expect_interval("N", node_at("s.c", 22), (struct pz_characteristics){
        .execution_time = 0.004, .processors = 1, .total_time = 0.004,
        .productive_time = 0.004 / 3, .efficiency = 1.0 / 3, .lost_time = 0.008 / 3,
        .insufficient_parallelism = 0.008 / 3, .cpu_time = 0.004, .exe_count = 1 });
    expect_interval("T", node_at("s.c", 50), (struct pz_characteristics){
        .execution_time = 0.005, .processors = 1, .total_time = 0.005,
        .productive_time = 0.005, .efficiency = 1, .cpu_time = 0.005, .exe_count = 1 });
    expect_interval("P", node_at("s.c", 40), (struct pz_characteristics){
        .execution_time = 0.020, .processors = 3, .total_time = 0.060,
        .productive_time = 0.060, .efficiency = 1, .cpu_time = 0.060, .exe_count = 1 });
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .execution_time = 0.050, .processors = 3, .total_time = 0.150,
        .productive_time = 0.080, .efficiency = 0.080 / 0.150, .lost_time = 0.070,
        .insufficient_parallelism = 0.036, .mpi_time = 0.034, .cpu_time = 0.116,
        .load_imbalance = 0.004, .exe_count = 1 });
}

/* (d'') Threads.  Rank 0 has a second thread (location 2) that calls MPI:
 *   rank 0, thread 0: Init 0-1, A 1-21 [ Recv from 1, tag 7, 10-15 ], Finalize 21-22
 *   rank 1, thread 0: Init 0-1, A 1-21 [ Send to 0, tag 7, 12-13;
 *                                        Recv from 0, tag 9, 14-18 ], Finalize 21-22
 *   rank 0, thread 1: Send to 1, tag 9, 16-17
 * Messages go between MPI processes, whichever thread calls: both match, and each
 * receive waits 2 ms for its sender (Late Sender 12 - 10 and 16 - 14), charged to the
 * receiving thread.  The processes of the analysis are the three threads, rank by rank:
 * 0.0, 0.1, 1.0.  Whole run: execution 22, 1 (the thread's first to last event) and 22;
 * total 3 x 22 = 66; MPI 7, 1, 7; idle 0, 21, 0; lost 36; CPU and productive 15, 0, 15;
 * point-to-point 5, 1, 5; load imbalance 0 + 15 + 0.  Interval A: threads 0.0 and 1.0,
 * 20 each, MPI 5 each. */
Test(analysis, threads_are_processes_of_the_analysis)
{
    struct tb *b = trace(2);
    int t = tb_thread(b, 0);
    uint32_t a = tb_interval(b, 1, "t.c", 5);
    struct pz_label label;

    for (int p = 0; p < 2; p++) {
        tb_call(b, p, "MPI_Init_thread", MS(0), MS(1));
        tb_enter(b, p, MS(1), a);
    }
    tb_recv_call(b, 0, "MPI_Recv", MS(10), MS(15), TB_WORLD, 1, 7);
    tb_send_call(b, 1, "MPI_Send", MS(12), MS(13), TB_WORLD, 0, 7);
    tb_recv_call(b, 1, "MPI_Recv", MS(14), MS(18), TB_WORLD, 0, 9);
    tb_send_call(b, t, "MPI_Send", MS(16), MS(17), TB_WORLD, 1, 9);
    for (int p = 0; p < 2; p++) {
        tb_leave(b, p, MS(21), a);
        tb_call(b, p, "MPI_Finalize", MS(21), MS(22));
    }
    analyze(b);

    cr_assert_eq(an.nprocs, 3);
    cr_expect_eq(an.nranks, 2);
    cr_expect(an.threaded);
    cr_expect_eq(an.rank_of[1], 0);
    cr_expect_eq(an.thread_of[1], 1);
    cr_expect_eq(an.rank_of[2], 1);
    cr_expect_eq(an.thread_of[2], 0);
    label = pz_process_label(&an, 1);
    cr_expect_str_eq(label.text, "0.1");
    cr_expect_eq(an.messages, 2);
    cr_expect_eq(an.unmatched_sends + an.unmatched_receives + an.clock_violations, 0);
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .execution_time = 0.022, .processors = 3, .total_time = 0.066,
        .productive_time = 0.030, .efficiency = 0.030 / 0.066, .lost_time = 0.036,
        .mpi_time = 0.015, .cpu_time = 0.030, .idle_time = 0.021,
        .communication_time = 0.011, .sendrecv_time = 0.011, .load_imbalance = 0.015,
        .synchronization = 0.004, .real_synchronization = 0.004, .exe_count = 1 });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .execution_time = 0.001, .processors = 1, .total_time = 0.022, .lost_time = 0.022,
        .mpi_time = 0.001, .idle_time = 0.021, .communication_time = 0.001,
        .sendrecv_time = 0.001, .load_imbalance = 0.015, .exe_count = 1 });
    expect_process("interval A", node_at("t.c", 5), 2, (struct pz_characteristics){
        .execution_time = 0.020, .processors = 1, .total_time = 0.020,
        .productive_time = 0.015, .efficiency = 0.75, .lost_time = 0.005, .mpi_time = 0.005,
        .cpu_time = 0.015, .communication_time = 0.005, .sendrecv_time = 0.005,
        .synchronization = 0.002, .real_synchronization = 0.002, .exe_count = 1 });
    expect_interval("interval A", node_at("t.c", 5), (struct pz_characteristics){
        .execution_time = 0.020, .processors = 2, .total_time = 0.040,
        .productive_time = 0.030, .efficiency = 0.75, .lost_time = 0.010, .mpi_time = 0.010,
        .cpu_time = 0.030, .communication_time = 0.010, .sendrecv_time = 0.010,
        .synchronization = 0.004, .real_synchronization = 0.004, .exe_count = 1 });
}

/* (e) All-to-all and nonblocking point-to-point.
 *   0: Init 0-1, Alltoallv 1-2, Alltoall 2-6, Irecv 7-8, Isend 8-10, Waitall 12-20,
 *      Test 20-21, Ibarrier 21-21.5, Wait 21.5-22, Finalize 22-23
 *   1: Init 0-1, Alltoallv 1-2.5, Alltoall 3-6, Isend 6-7, Irecv 7-7.5,
 *      Send_init 7.5-8, Start 8-8.5, Waitall 9-11, Type_commit 12-13 (not in the MPI
 *      table: MPI time only), Ibarrier 21-21.5, Wait 21.5-22, Finalize 22-23
 * AllToAll 5 + 4.5; SendRecv (Isend, Irecv, Send_init, Start, waits and tests)
 * 12.5 + 5; Collective (Ibarrier) 0.5 + 0.5; Time of Start (Isend, Irecv, Start,
 * Ibarrier) 3.5 + 2.5; MPI 20 + 13; CPU 3 + 10. */
Test(analysis, alltoall_and_nonblocking_point_to_point)
{
    struct tb *b = trace(2);

    tb_call(b, 0, "MPI_Init", MS(0), MS(1));
    tb_call(b, 0, "MPI_Alltoallv", MS(1), MS(2));
    tb_call(b, 0, "MPI_Alltoall", MS(2), MS(6));
    tb_call(b, 0, "MPI_Irecv", MS(7), MS(8));
    tb_call(b, 0, "MPI_Isend", MS(8), MS(10));
    tb_call(b, 0, "MPI_Waitall", MS(12), MS(20));
    tb_call(b, 0, "MPI_Test", MS(20), MS(21));
    tb_call(b, 0, "MPI_Ibarrier", MS(21), MS(21.5));
    tb_call(b, 0, "MPI_Wait", MS(21.5), MS(22));
    tb_call(b, 0, "MPI_Finalize", MS(22), MS(23));

    tb_call(b, 1, "MPI_Init", MS(0), MS(1));
    tb_call(b, 1, "MPI_Alltoallv", MS(1), MS(2.5));
    tb_call(b, 1, "MPI_Alltoall", MS(3), MS(6));
    tb_call(b, 1, "MPI_Isend", MS(6), MS(7));
    tb_call(b, 1, "MPI_Irecv", MS(7), MS(7.5));
    tb_call(b, 1, "MPI_Send_init", MS(7.5), MS(8));
    tb_call(b, 1, "MPI_Start", MS(8), MS(8.5));
    tb_call(b, 1, "MPI_Waitall", MS(9), MS(11));
    tb_call(b, 1, "MPI_Type_commit", MS(12), MS(13));
    tb_call(b, 1, "MPI_Ibarrier", MS(21), MS(21.5));
    tb_call(b, 1, "MPI_Wait", MS(21.5), MS(22));
    tb_call(b, 1, "MPI_Finalize", MS(22), MS(23));
    analyze(b);

    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .execution_time = 0.023, .processors = 2, .total_time = 0.046,
        .productive_time = 0.013, .efficiency = 0.013 / 0.046, .lost_time = 0.033,
        .mpi_time = 0.033, .cpu_time = 0.013, .idle_time = 0,
        .communication_time = 0.028, .sendrecv_time = 0.0175, .collective_time = 0.001,
        .alltoall_time = 0.0095, .time_of_start = 0.006, .load_imbalance = 0.007,
        .exe_count = 1 });
    expect_process("whole run", &an.nodes[0], 0, (struct pz_characteristics){
        .execution_time = 0.023, .processors = 1, .total_time = 0.023,
        .productive_time = 0.003, .efficiency = 0.003 / 0.023, .lost_time = 0.020,
        .mpi_time = 0.020, .cpu_time = 0.003, .communication_time = 0.018,
        .sendrecv_time = 0.0125, .collective_time = 0.0005, .alltoall_time = 0.005,
        .time_of_start = 0.0035, .load_imbalance = 0.007, .exe_count = 1 });
    expect_process("whole run", &an.nodes[0], 1, (struct pz_characteristics){
        .execution_time = 0.023, .processors = 1, .total_time = 0.023,
        .productive_time = 0.010, .efficiency = 0.010 / 0.023, .lost_time = 0.013,
        .mpi_time = 0.013, .cpu_time = 0.010, .communication_time = 0.010,
        .sendrecv_time = 0.005, .collective_time = 0.0005, .alltoall_time = 0.0045,
        .time_of_start = 0.0025, .load_imbalance = 0, .exe_count = 1 });
    expect_spread("time of start", &an.nodes[0], SPREAD(time_of_start), 0.0025, 1, 0.0035, 0,
                  0.003);
}

/* A clock that counts nanoseconds since 1970 (as converters from other formats write
 * it): times are differences of timestamps near 1.7e18, and must keep nanoseconds. */
Test(analysis, timestamps_far_from_zero_keep_nanoseconds)
{
    const uint64_t t0 = 1700000000000000000ull;
    struct tb *b = trace(1);

    eps = 1e-12;   /* a nanosecond must show */
    tb_set_offset(b, t0);
    tb_call(b, 0, "MPI_Init", t0, t0 + 1000001);
    tb_call(b, 0, "MPI_Send", t0 + 2000000, t0 + 2000003);
    tb_call(b, 0, "MPI_Finalize", t0 + 5000000, t0 + 5000007);
    analyze(b);

    /* run 5.000007 ms; MPI 1.000001 ms + 3 ns + 7 ns */
    expect_interval("whole run", &an.nodes[0], (struct pz_characteristics){
        .execution_time = 0.005000007, .processors = 1, .total_time = 0.005000007,
        .productive_time = 0.003999996, .efficiency = 0.003999996 / 0.005000007,
        .lost_time = 0.001000011, .mpi_time = 0.001000011, .cpu_time = 0.003999996,
        .communication_time = 0.000000003, .sendrecv_time = 0.000000003, .exe_count = 1 });
}

/* (f) The identities, for every interval and process of a bigger trace made by a
 * pseudo-random walk: intervals entered and left at random up to four deep (the same
 * interval also inside itself), MPI calls of every class between them.  The walk keeps
 * its own account of each interval's executions, time and MPI time by class, which the
 * analysis must reproduce; and for every node
 *   Total = Execution x Processors = Productive + Lost,  Lost = MPI + Idle,
 *   CPU = Execution_p - MPI,  Communication = SendRecv + Collective + AllToAll,
 *   Efficiency = Productive / Total,  integral value = sum of the processes' values. */
enum { CLS_MPI, CLS_SR, CLS_COLL, CLS_A2A };

static const struct {
    const char *name;
    int cls, starts;
} calls[] = {
    { "MPI_Send", CLS_SR, 0 },        { "MPI_Recv", CLS_SR, 0 },
    { "MPI_Isend", CLS_SR, 1 },       { "MPI_Irecv", CLS_SR, 1 },
    { "MPI_Wait", CLS_SR, 0 },        { "MPI_Waitall", CLS_SR, 0 },
    { "MPI_Test", CLS_SR, 0 },        { "MPI_Probe", CLS_SR, 0 },
    { "MPI_Sendrecv", CLS_SR, 0 },    { "MPI_Barrier", CLS_COLL, 0 },
    { "MPI_Allreduce", CLS_COLL, 0 }, { "MPI_Bcast", CLS_COLL, 0 },
    { "MPI_Alltoall", CLS_A2A, 0 },   { "MPI_Alltoallv", CLS_A2A, 0 },
    { "MPI_Ialltoall", CLS_A2A, 1 },  { "MPI_Iallreduce", CLS_COLL, 1 },
    { "MPI_Comm_rank", CLS_MPI, 0 },  { "MPI_Type_commit", CLS_MPI, 0 },
};

#define NCALLS (sizeof(calls) / sizeof(calls[0]))
#define WALK_PROCS 5
#define WALK_DEPTH 4
#define WALK_PATHS 512

/* What the walk knows of one path of intervals (ids from the root, "1.3.3") per process:
 * nanoseconds, exactly. */
struct walk_path {
    char key[64];
    struct {
        uint64_t count, exec, mpi, cls[4], start;
    } p[WALK_PROCS];
};

static struct walk_path paths[WALK_PATHS + 1];   /* [0]: the whole run, key "" */
static int npaths = 1;
static uint32_t seed = 20240611;

static uint32_t rnd(uint32_t n)
{
    seed = seed * 1103515245u + 12345u;
    return (seed >> 8) % n;
}

static struct walk_path *path_of(const char *key)
{
    for (int i = 0; i < npaths; i++)
        if (!strcmp(paths[i].key, key))
            return &paths[i];
    cr_assert_lt(npaths, WALK_PATHS, "too many paths");
    snprintf(paths[npaths].key, sizeof(paths[npaths].key), "%s", key);
    return &paths[npaths++];
}

static void walk(struct tb *b, int p)
{
    uint32_t regions[WALK_DEPTH];
    struct {
        uint32_t region;
        uint64_t enter;
        struct walk_path *path;
    } stack[WALK_DEPTH];
    int depth = 0;
    uint64_t t = 1000 * (uint64_t)p, first = t;

    for (unsigned i = 0; i < WALK_DEPTH; i++)
        regions[i] = tb_interval(b, i + 1, "walk.c", 10 * (i + 1));
    tb_call(b, p, "MPI_Init", t, t + 100);
    t += 100;
    for (int step = 0; step < 400 || depth > 0; step++) {
        uint32_t what = step >= 400 ? 4 : rnd(10);

        t += rnd(3000);
        if (what < 3 && depth < WALK_DEPTH) {
            unsigned id = rnd(WALK_DEPTH);
            char key[64];

            cr_assert_lt(snprintf(key, sizeof(key), "%s%s%u",
                                  depth ? stack[depth - 1].path->key : "", depth ? "." : "",
                                  id + 1), (int)sizeof(key));
            stack[depth].region = regions[id];
            stack[depth].enter = t;
            stack[depth].path = path_of(key);
            tb_enter(b, p, t, regions[id]);
            depth++;
        } else if (what < 5 && depth > 0) {
            struct walk_path *w = stack[--depth].path;

            tb_leave(b, p, t, stack[depth].region);
            w->p[p].count++;
            w->p[p].exec += t - stack[depth].enter;
        } else if (what < 9) {
            unsigned c = rnd(NCALLS);
            uint64_t d = 1 + rnd(5000);

            tb_call(b, p, calls[c].name, t, t + d);
            for (int i = -1; i < depth; i++) {
                struct walk_path *w = i < 0 ? &paths[0] : stack[i].path;

                w->p[p].mpi += d;
                w->p[p].cls[calls[c].cls] += d;
                w->p[p].start += calls[c].starts ? d : 0;
            }
            t += d;
        }
    }
    tb_call(b, p, "MPI_Finalize", t, t + 100);
    t += 100;
    paths[0].p[p].count = 1;
    paths[0].p[p].exec = t - first;
    paths[0].p[p].mpi += 200;
    paths[0].p[p].cls[CLS_MPI] += 200;
}

/* "1.3.3" for a node: the ids of its intervals from the root. */
static void key_of(const struct pz_node *n, char *key, size_t len)
{
    char rest[64];

    if (n->parent < 0) {
        snprintf(key, len, "%s", "");
        return;
    }
    key_of(&an.nodes[n->parent], rest, sizeof(rest));
    cr_assert_lt(snprintf(key, len, "%s%s%u", rest, rest[0] ? "." : "", n->id), (int)len);
}

static void expect_ns(const char *what, double seconds, uint64_t ns)
{
    cr_expect(fabs(seconds - (double)ns / 1e9) <= EPS, "%s: %.12f s, the walk says %llu ns",
              what, seconds, (unsigned long long)ns);
}

Test(analysis, identities_on_a_random_walk)
{
    struct tb *b = trace(WALK_PROCS);

    for (int p = 0; p < WALK_PROCS; p++)
        walk(b, p);
    analyze(b);

    cr_assert_eq(an.nprocs, WALK_PROCS);
    cr_assert_eq(an.nnodes, npaths, "the analysis has %d nodes, the walk made %d paths",
                 an.nnodes, npaths);
    cr_assert_gt(npaths, 20, "the walk should make a tree worth testing");
    for (int i = 0; i < an.nnodes; i++) {
        const struct pz_node *n = &an.nodes[i];
        const struct walk_path *w;
        struct pz_characteristics all, sum = { 0 }, c;
        double longest = 0, cpu_max = 0;
        int procs = 0;
        uint64_t count = 0;
        char key[64], what[128];

        key_of(n, key, sizeof(key));
        w = path_of(key);
        cr_assert_lt(w - paths, an.nnodes, "node %d (%s) is no path of the walk", i, key);
        cr_expect_eq(n->level, i ? an.nodes[n->parent].level + 1 : 0);
        pz_characteristics_of(&an, n, &all);
        for (int p = 0; p < an.nprocs; p++) {
            snprintf(what, sizeof(what), "interval '%s', process %d", key, p);
            cr_expect_eq(n->procs[p].count, w->p[p].count, "%s: count", what);
            expect_ns(what, n->procs[p].exec, w->p[p].exec);
            expect_ns(what, n->procs[p].mpi, w->p[p].mpi);
            expect_ns(what, n->procs[p].sendrecv, w->p[p].cls[CLS_SR]);
            expect_ns(what, n->procs[p].collective, w->p[p].cls[CLS_COLL]);
            expect_ns(what, n->procs[p].alltoall, w->p[p].cls[CLS_A2A]);
            expect_ns(what, n->procs[p].start, w->p[p].start);
            if (!w->p[p].count)
                continue;
            procs++;
            count = w->p[p].count > count ? w->p[p].count : count;
            longest = fmax(longest, (double)w->p[p].exec / 1e9);
            cpu_max = fmax(cpu_max, (double)(w->p[p].exec - w->p[p].mpi) / 1e9);
        }
        snprintf(what, sizeof(what), "interval '%s'", key);
        cr_expect_eq(all.processors, procs, "%s: processors", what);
        cr_expect_eq(all.exe_count, count, "%s: EXE_Count is the most executions", what);
        cr_expect(fabs(all.execution_time - longest) <= EPS, "%s: execution time", what);
        for (int p = 0; p < an.nprocs; p++) {
            pz_characteristics_of_process(&an, n, p, &c);
            snprintf(what, sizeof(what), "interval '%s', process %d", key, p);
            if (!c.exe_count)
                continue;
            cr_expect(fabs(c.total_time - (c.productive_time + c.lost_time)) <= EPS,
                      "%s: total = productive + lost", what);
            cr_expect(fabs(c.lost_time - (c.mpi_time + c.idle_time)) <= EPS,
                      "%s: lost = MPI + idle", what);
            cr_expect(fabs(c.idle_time - (all.execution_time - c.execution_time)) <= EPS,
                      "%s: idle", what);
            cr_expect(fabs(c.cpu_time - (c.execution_time - c.mpi_time)) <= EPS,
                      "%s: CPU = execution - MPI", what);
            cr_expect(fabs(c.load_imbalance - (cpu_max - c.cpu_time)) <= EPS,
                      "%s: load imbalance", what);
            cr_expect(fabs(c.communication_time -
                           (c.sendrecv_time + c.collective_time + c.alltoall_time)) <= EPS,
                      "%s: communication = sendrecv + collective + alltoall", what);
            cr_expect(c.communication_time <= c.mpi_time + EPS, "%s: communication <= MPI",
                      what);
            cr_expect(c.time_of_start <= c.mpi_time + EPS, "%s: time of start <= MPI", what);
            for (size_t f = 0; f < NDOUBLES; f++)
                if (strcmp(doubles[f].name, "execution_time") &&
                    strcmp(doubles[f].name, "efficiency")) {
                    double v = value(&sum, f) + value(&c, f);

                    memcpy((char *)&sum + doubles[f].offset, &v, sizeof(v));
                }
        }
        snprintf(what, sizeof(what), "interval '%s'", key);
        cr_expect(fabs(all.total_time - all.execution_time * all.processors) <= EPS,
                  "%s: total = execution x processors", what);
        cr_expect(fabs(all.total_time - (all.productive_time + all.lost_time)) <= EPS,
                  "%s: total = productive + lost", what);
        cr_expect(fabs(all.lost_time - (all.mpi_time + all.idle_time)) <= EPS,
                  "%s: lost = MPI + idle", what);
        cr_expect(fabs(all.communication_time -
                       (all.sendrecv_time + all.collective_time + all.alltoall_time)) <= EPS,
                  "%s: communication = sendrecv + collective + alltoall", what);
        cr_expect(all.total_time <= 0 ||
                      fabs(all.efficiency - all.productive_time / all.total_time) <= EPS,
                  "%s: efficiency = productive / total", what);
        for (size_t f = 0; f < NDOUBLES; f++)
            if (strcmp(doubles[f].name, "execution_time") &&
                strcmp(doubles[f].name, "efficiency"))
                cr_expect(fabs(value(&all, f) - value(&sum, f)) <= EPS,
                          "%s: integral %s %.12f is not the sum over processes %.12f", what,
                          doubles[f].name, value(&all, f), value(&sum, f));
    }
}

/* Bad input: pz_analyze returns -1 with one line that names the file. */
static void expect_failure(const char *path, const char *names, const char *why)
{
    int rc;

    memset(err, 0, sizeof(err));
    rc = pz_analyze(path, &an, err, sizeof(err));
    cr_assert_eq(rc, -1, "%s: pz_analyze succeeded", why);
    cr_expect_neq(err[0], '\0', "%s: no message", why);
    cr_expect_null(strchr(err, '\n'), "%s: the message is more than one line: '%s'", why, err);
    cr_expect_not_null(strstr(err, names), "%s: the message '%s' does not name '%s'", why, err,
                       names);
    cr_expect_eq(an.nnodes, 0, "%s: the analysis is left empty", why);
    cr_expect_null(an.nodes, "%s: the analysis is left empty", why);
}

Test(bad_input, missing_path)
{
    char path[4200];

    dir = tb_tempdir();
    cr_assert_not_null(dir);
    snprintf(path, sizeof(path), "%s/no-such-trace", dir);
    expect_failure(path, path, "a missing path");
}

Test(bad_input, directory_without_a_trace)
{
    char anchor[4200];

    dir = tb_tempdir();
    cr_assert_not_null(dir);
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    expect_failure(dir, anchor, "an empty directory");
}

Test(bad_input, file_that_is_not_an_otf2_archive)
{
    char path[4200];
    FILE *f;

    dir = tb_tempdir();
    cr_assert_not_null(dir);
    snprintf(path, sizeof(path), "%s/notes.txt", dir);
    cr_assert_not_null(f = fopen(path, "w"));
    fputs("these are not the traces you are looking for\n", f);
    fclose(f);
    expect_failure(path, path, "a text file");
}

Test(bad_input, directory_whose_anchor_is_not_otf2)
{
    char path[4200];
    FILE *f;

    dir = tb_tempdir();
    cr_assert_not_null(dir);
    snprintf(path, sizeof(path), "%s/traces.otf2", dir);
    cr_assert_not_null(f = fopen(path, "w"));
    fputs("OTF2 is not here\n", f);
    fclose(f);
    expect_failure(dir, path, "a directory with a bogus traces.otf2");
}

Test(bad_input, leave_that_does_not_match_the_enter)
{
    struct tb *b = trace(2);
    char anchor[4200];

    tb_call(b, 0, "MPI_Init", MS(0), MS(1));
    tb_call(b, 1, "MPI_Init", MS(0), MS(1));
    tb_enter(b, 1, MS(2), tb_mpi(b, "MPI_Send"));
    tb_leave(b, 1, MS(3), tb_mpi(b, "MPI_Recv"));
    cr_assert_eq(tb_close(b), 0);
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    expect_failure(dir, anchor, "a Leave of another region");
}

Test(bad_input, leave_without_enter)
{
    struct tb *b = trace(1);
    char anchor[4200];

    tb_call(b, 0, "MPI_Init", MS(0), MS(1));
    tb_leave(b, 0, MS(3), tb_interval(b, 1, "x.c", 10));
    cr_assert_eq(tb_close(b), 0);
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    expect_failure(dir, anchor, "a Leave without an Enter");
}

Test(bad_input, trace_without_mpi_records)
{
    struct tb *b = trace(2);
    uint32_t i1 = tb_interval(b, 1, "x.c", 10), work = tb_user(b, "work");
    char anchor[4200];

    for (int p = 0; p < 2; p++) {
        tb_enter(b, p, MS(0), i1);
        tb_enter(b, p, MS(1), work);
        tb_leave(b, p, MS(2), work);
        tb_leave(b, p, MS(3), i1);
    }
    cr_assert_eq(tb_close(b), 0);
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    expect_failure(dir, anchor, "a trace without MPI calls");
}

/* The reports of one hand-built trace against the expected files tests/golden/NAME,
 * written by hand from the definitions.  The trace has no message or collective records,
 * so the matching finds nothing and every wait state is zero; it loses less than a
 * tenth of its time in every interval, so the report gives no advice.
 *   0: Init 0-1, I1 1-201 [ I2 2-80 [Send 40-41], I2 81-160 [Allreduce 120-122] ],
 *      Alltoall 201-203, Finalize 203-205
 *   1: Init 0-2, I1 2-200 [ I2 3-79 [Recv 39-43], I2 80-162 [Allreduce 121.5-122] ],
 *      Alltoall 200-204, Finalize 204-207
 * with I1 = interval 1 at /src/golden.c:10, I2 = interval 2 at /src/golden.c:12.
 * Process 0: run 205, MPI 8; I1 200, MPI 3; I2 78 + 79 = 157, MPI 3.
 * Process 1: run 207, MPI 13.5; I1 198, MPI 4.5; I2 76 + 82 = 158, MPI 4.5. */
static void golden_trace(void)
{
    struct tb *b = trace(2);
    uint32_t i1 = tb_interval(b, 1, "/src/golden.c", 10);
    uint32_t i2 = tb_interval(b, 2, "/src/golden.c", 12);

    tb_call(b, 0, "MPI_Init", MS(0), MS(1));
    tb_enter(b, 0, MS(1), i1);
    tb_enter(b, 0, MS(2), i2);
    tb_call(b, 0, "MPI_Send", MS(40), MS(41));
    tb_leave(b, 0, MS(80), i2);
    tb_enter(b, 0, MS(81), i2);
    tb_call(b, 0, "MPI_Allreduce", MS(120), MS(122));
    tb_leave(b, 0, MS(160), i2);
    tb_leave(b, 0, MS(201), i1);
    tb_call(b, 0, "MPI_Alltoall", MS(201), MS(203));
    tb_call(b, 0, "MPI_Finalize", MS(203), MS(205));

    tb_call(b, 1, "MPI_Init", MS(0), MS(2));
    tb_enter(b, 1, MS(2), i1);
    tb_enter(b, 1, MS(3), i2);
    tb_call(b, 1, "MPI_Recv", MS(39), MS(43));
    tb_leave(b, 1, MS(79), i2);
    tb_enter(b, 1, MS(80), i2);
    tb_call(b, 1, "MPI_Allreduce", MS(121.5), MS(122));
    tb_leave(b, 1, MS(162), i2);
    tb_leave(b, 1, MS(200), i1);
    tb_call(b, 1, "MPI_Alltoall", MS(200), MS(204));
    tb_call(b, 1, "MPI_Finalize", MS(204), MS(207));
    analyze(b);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text;
    long n;

    cr_assert_not_null(f, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    text = calloc(1, (size_t)n + 1);
    cr_assert_not_null(text);
    cr_assert_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return text;
}

/* The golden file's text with "@VERSION@" as prognoz's version: JSON documents name it. */
static char *with_version(char *text)
{
    char *at = strstr(text, "@VERSION@"), *out;

    if (!at)
        return text;
    out = calloc(1, strlen(text) + strlen(PACKAGE_VERSION) + 1);
    cr_assert_not_null(out);
    memcpy(out, text, (size_t)(at - text));
    strcat(strcat(out, PACKAGE_VERSION), at + strlen("@VERSION@"));
    free(text);
    return out;
}

/* The report must equal the file, line by line; the first difference is shown.  The
 * trace's path, a temporary file's, is named "golden". */
static void expect_golden(const char *name, enum pz_report_format format, int per_process)
{
    char path[4200], *got = NULL, *want, *g, *w;
    size_t len = 0;
    FILE *out = open_memstream(&got, &len);
    int line = 1;

    cr_assert_not_null(out);
    free(an.trace);
    an.trace = strdup("golden");
    cr_assert_eq(pz_report_write(out, &an, format, per_process), 0);
    fclose(out);
    snprintf(path, sizeof(path), "%s/%s", PZ_GOLDEN_DIR, name);
    want = with_version(slurp(path));
    for (g = got, w = want; *g && *g == *w; g++, w++)
        line += *g == '\n';
    if (*g || *w) {
        /* from the line's start, or 60 characters before the difference in a long line */
        int column = 0;
        size_t gn, wn;

        while (g > got && g[-1] != '\n' && column < 60)
            g--, w--, column++;
        gn = strcspn(g, "\n");
        wn = strcspn(w, "\n");
        cr_expect_fail("%s: line %d differs%s:\n  expected: %.*s\n  reported: %.*s", path, line,
                       g > got && g[-1] != '\n' ? " (shown from 60 characters before)" : "",
                       (int)(wn < 160 ? wn : 160), w, (int)(gn < 160 ? gn : 160), g);
    }
    free(got);
    free(want);
}

Test(golden, text_report)
{
    golden_trace();
    expect_golden("nested.txt", PZ_REPORT_TEXT, 0);
}

Test(golden, text_report_per_process)
{
    golden_trace();
    expect_golden("nested_per_process.txt", PZ_REPORT_TEXT, 1);
}

Test(golden, json_report_per_process)
{
    golden_trace();
    expect_golden("nested_per_process.json", PZ_REPORT_JSON, 1);
}
