/* The advice on an interval (analyzer/advice.c) on analyses built by hand in memory: no
 * trace, only the per-process times of each interval (struct pz_stats).  Each test
 * takes one branch of pz_advice and compares every sentence with the one worked out by
 * hand from the definitions of docs/characteristics.md: Total = Execution × Processors,
 * Lost = MPI + Idle, Communication = SendRecv + Collective + AllToAll, Load Imbalance
 * = max CPU − CPU, integral values summed over the processes that executed the
 * interval.  The numbers are chosen away from rounding ties of %.0f and %.3f. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "advice.h"
#include "analysis.h"

#define MAXPROCS 8
#define MAXNODES 3

/* An analysis of up to MAXNODES intervals and MAXPROCS processes, in static storage. */
static struct pz_stats stats[MAXNODES][MAXPROCS];
static struct pz_node nodes[MAXNODES];
static struct pz_analysis an;

/* The whole run (node 0) and nnodes - 1 intervals, all executed by nobody yet. */
static void setup(int nprocs, int nnodes)
{
    memset(stats, 0, sizeof(stats));
    memset(nodes, 0, sizeof(nodes));
    memset(&an, 0, sizeof(an));
    an.nprocs = nprocs;
    an.nodes = nodes;
    an.nnodes = nnodes;
    for (int i = 0; i < nnodes; i++) {
        nodes[i].procs = stats[i];
        nodes[i].parent = i - 1;
        nodes[i].level = i;
        nodes[i].file = (char *)"";
        nodes[i].region = i ? (uint32_t)i : UINT32_MAX;
    }
}

static void name_node(int i, unsigned id, const char *file, unsigned line)
{
    nodes[i].id = id;
    nodes[i].file = (char *)file;
    nodes[i].line = line;
}

/* One execution of node i by process p: execution time and MPI time split into its
 * classes (what is left of mpi is neither point-to-point nor collective). */
static struct pz_stats *run(int i, int p, double exec, double mpi, double sendrecv,
                            double collective, double alltoall)
{
    struct pz_stats *s = &stats[i][p];

    s->count = 1;
    s->exec = exec;
    s->mpi = mpi;
    s->sendrecv = sendrecv;
    s->collective = collective;
    s->alltoall = alltoall;
    return s;
}

/* pz_advice on node i gives exactly the sentences of want (NULL-terminated), never more
 * than PZ_ADVICE_MAX and never writing beyond them. */
static void expect_advice(int i, const char *const *want)
{
    char s[PZ_ADVICE_MAX + 1][PZ_ADVICE_LEN];
    int nwant = 0, count;

    while (want[nwant])
        nwant++;
    memset(s, 'X', sizeof(s));
    s[PZ_ADVICE_MAX][PZ_ADVICE_LEN - 1] = '\0';
    count = pz_advice(&an, &nodes[i], s);
    cr_assert(count >= 0 && count <= PZ_ADVICE_MAX, "%d sentences, at most %d allowed", count,
              PZ_ADVICE_MAX);
    cr_expect_eq(count, nwant, "%d sentences, expected %d", count, nwant);
    for (int k = 0; k < count && k < nwant; k++)
        cr_expect_str_eq(s[k], want[k], "sentence %d:\n  got:      %s\n  expected: %s", k,
                         s[k], want[k]);
    for (int k = nwant; k < count; k++)
        cr_expect(0, "unexpected sentence %d: %s", k, s[k]);
    cr_expect_eq(strspn(s[PZ_ADVICE_MAX], "X"), (size_t)PZ_ADVICE_LEN - 1,
                 "pz_advice wrote beyond PZ_ADVICE_MAX sentences");
}

static const char *const none[] = { NULL };

TestSuite(advice);

/* Two processes, 1 s each in the interval, 0.05 s of it in MPI: lost 0.1 of a total of
 * 2, 5% < 10%, no advice.  Nor for an interval no process executed (total 0). */
Test(advice, efficient_interval_gets_none)
{
    setup(2, 3);
    name_node(1, 1, "/src/fast.c", 10);
    run(1, 0, 1.0, 0.05, 0.05, 0, 0);
    run(1, 1, 1.0, 0.05, 0, 0.05, 0);
    expect_advice(1, none);
    name_node(2, 2, "/src/never.c", 20);
    expect_advice(2, none);
}

/* The threshold: two processes of 5 s each, total 10 s, a tenth of it 1 s.  MPI time
 * 0.5 + 0.4375 = 0.9375 s (exact in binary) < 1 s: none.  With 0.5 + 0.5 = 1 s, exactly
 * a tenth: advice.  All of it is MPI time outside communication (MPI_Init, say), no idle
 * time: the other-MPI branch.  Efficiency (10 - 1) / 10 = 0.9, lost 10%. */
Test(advice, a_tenth_of_the_total_is_the_threshold)
{
    static const char *const want[] = {
        "The whole run loses 10% of its processors' time (efficiency 0.900, lost 1.000000 s "
        "of 10.000000 s).",
        "MPI calls other than communication take 1.000000 s of it (creating communicators, "
        "MPI_Init, probes without messages...).",
        NULL,
    };

    setup(2, 1);
    run(0, 0, 5.0, 0.5, 0, 0, 0);
    run(0, 1, 5.0, 0.4375, 0, 0, 0);
    expect_advice(0, none);
    run(0, 1, 5.0, 0.5, 0, 0, 0);
    expect_advice(0, want);
}

/* Communication, synchronization, load imbalance.  Interval 7 of /home/u/src/solver.c,
 * line 42, three processes:
 *   p  exec  MPI   SendRecv Coll  A2A   sync  late sender  barrier  variation
 *   0  1.0   0.6   0.4      0.15  0.05  0.45  0.3          0.15     0.3
 *   1  1.0   0.2   0.1      0.1   0     0.05  0.05         0        0.2
 *   2  0.9   0.15  0        0.15  0     0     0            0        0
 * Execution 1.0, total 3.0; CPU 0.4, 0.8, 0.75 (max 0.8 on process 1, min 0.4 on
 * process 0); idle 0, 0, 0.1; lost 0.6 + 0.2 + 0.25 = 1.05 (35%); productive 1.95,
 * efficiency 0.65.  Communication 0.95 = 0.5 + 0.4 + 0.05, 90% of the lost time, more
 * than half: communication.  Synchronization 0.5 >= 0.95 / 2, 53% of it.  Load
 * imbalance 0.4 + 0 + 0.05 = 0.45 >= 0.5 / 2: the imbalance sentence (it comes before
 * the time variation, 0.5, which would qualify too).  Largest wait state: Late Sender
 * 0.35 (barrier 0.15), most on process 0 with 0.3. */
Test(advice, communication_synchronization_load_imbalance)
{
    static const char *const want[] = {
        "Interval 7 (solver.c:42) loses 35% of its processors' time (efficiency 0.650, lost "
        "1.050000 s of 3.000000 s).",
        "Communication takes 0.950000 s of the 1.050000 s lost in interval 7 (solver.c:42) "
        "(90%): point-to-point 0.500000 s, collective 0.400000 s, all-to-all 0.050000 s.",
        "Of it, 0.500000 s (53%) is synchronization: processes waiting for their partners, "
        "not transferring data.",
        "The waiting comes from load imbalance (0.450000 s): process 1 computes 0.800000 s, "
        "process 0 0.400000 s; balance the work between them.",
        "The largest wait state in interval 7 (solver.c:42) is Late Sender (receives posted "
        "before their message was sent): 0.350000 s, most on process 0 (0.300000 s).",
        NULL,
    };
    struct pz_stats *s;

    setup(3, 2);
    name_node(1, 7, "/home/u/src/solver.c", 42);
    s = run(1, 0, 1.0, 0.6, 0.4, 0.15, 0.05);
    s->sync = 0.45;
    s->late_sender = 0.3;
    s->wait_barrier = 0.15;
    s->variation = 0.3;
    s = run(1, 1, 1.0, 0.2, 0.1, 0.1, 0);
    s->sync = 0.05;
    s->late_sender = 0.05;
    s->variation = 0.2;
    run(1, 2, 0.9, 0.15, 0, 0.15, 0);
    expect_advice(1, want);
}

/* Communication, synchronization, time variation: the whole run of two processes.
 *   p  exec  MPI  SendRecv Coll  sync (NxN)  variation
 *   0  2.0   1.0  0.1      0.9   0.8         0.5
 *   1  1.9   0.7  0.1      0.6   0.1         0.05
 * Execution 2.0, total 4.0; CPU 1.0, 1.2; idle 0, 0.1; lost 1.0 + 0.8 = 1.8 (45%);
 * productive 2.2, efficiency 0.55.  Communication 1.7 = 0.2 + 1.5, 94% of 1.8.
 * Synchronization 0.9 >= 1.7 / 2 (53%); load imbalance 0.2 + 0 < 0.9 / 2; time
 * variation 0.55 >= 0.45.  Largest wait: Wait at NxN 0.9, most on process 0 (0.8). */
Test(advice, communication_synchronization_time_variation)
{
    static const char *const want[] = {
        "The whole run loses 45% of its processors' time (efficiency 0.550, lost 1.800000 s "
        "of 4.000000 s).",
        "Communication takes 1.700000 s of the 1.800000 s lost in the whole run (94%): "
        "point-to-point 0.200000 s, collective 1.500000 s, all-to-all 0.000000 s.",
        "Of it, 0.900000 s (53%) is synchronization: processes waiting for their partners, "
        "not transferring data.",
        "The waiting comes from collective operations ending at different times (time "
        "variation 0.550000 s) rather than from unequal computation.",
        "The largest wait state in the whole run is Wait at NxN (all-to-all collectives "
        "waiting for the last process): 0.900000 s, most on process 0 (0.800000 s).",
        NULL,
    };
    struct pz_stats *s;

    setup(2, 1);
    s = run(0, 0, 2.0, 1.0, 0.1, 0.9, 0);
    s->sync = 0.8;
    s->wait_nxn = 0.8;
    s->variation = 0.5;
    s = run(0, 1, 1.9, 0.7, 0.1, 0.6, 0);
    s->sync = 0.1;
    s->wait_nxn = 0.1;
    s->variation = 0.05;
    expect_advice(0, want);
}

/* Synchronization from neither cause, and the wait state named: interval 4 of
 * x/ring.c, line 9, two processes.
 *   p  exec  MPI = SendRecv  sync (late receiver)
 *   0  1.0   0.5             0.5
 *   1  1.0   0.4             0.05
 * Total 2.0; CPU 0.5, 0.6; no idle; lost 0.9 (45%); efficiency 1.1 / 2 = 0.55.
 * Communication 0.9, all of the lost time; synchronization 0.55 >= 0.45 (61%); load
 * imbalance 0.1 and time variation 0 both < 0.275: no cause sentence.  Largest wait:
 * Late Receiver 0.55, most on process 0 (0.5).  Without any wait state recorded, the
 * same interval gets no wait-state sentence. */
Test(advice, synchronization_without_imbalance_or_variation)
{
    static const char *const want[] = {
        "Interval 4 (ring.c:9) loses 45% of its processors' time (efficiency 0.550, lost "
        "0.900000 s of 2.000000 s).",
        "Communication takes 0.900000 s of the 0.900000 s lost in interval 4 (ring.c:9) "
        "(100%): point-to-point 0.900000 s, collective 0.000000 s, all-to-all 0.000000 s.",
        "Of it, 0.550000 s (61%) is synchronization: processes waiting for their partners, "
        "not transferring data.",
        "The largest wait state in interval 4 (ring.c:9) is Late Receiver (sends blocked "
        "until the receive was posted): 0.550000 s, most on process 0 (0.500000 s).",
        NULL,
    };
    static const char *const without_waits[] = { want[0], want[1], want[2], NULL };
    struct pz_stats *s;

    setup(2, 2);
    name_node(1, 4, "x/ring.c", 9);
    s = run(1, 0, 1.0, 0.5, 0.5, 0, 0);
    s->sync = 0.5;
    s->late_receiver = 0.5;
    s = run(1, 1, 1.0, 0.4, 0.4, 0, 0);
    s->sync = 0.05;
    s->late_receiver = 0.05;
    expect_advice(1, want);
    stats[1][0].late_receiver = stats[1][1].late_receiver = 0;
    expect_advice(1, without_waits);
}

/* Communication with little synchronization: interval 3 of bench.c (no directory),
 * line 5, two processes.
 *   p  exec  MPI  SendRecv  A2A  sync
 *   0  1.0   0.5  0.5       0    0.1
 *   1  1.0   0.4  0.3       0.1  0
 * Total 2.0; CPU 0.5, 0.6; no idle; lost 0.9 (45%), efficiency 0.55; communication 0.9
 * = 0.8 + 0.1, all of the lost time; synchronization 0.1 < 0.45. */
Test(advice, communication_with_little_synchronization)
{
    static const char *const want[] = {
        "Interval 3 (bench.c:5) loses 45% of its processors' time (efficiency 0.550, lost "
        "0.900000 s of 2.000000 s).",
        "Communication takes 0.900000 s of the 0.900000 s lost in interval 3 (bench.c:5) "
        "(100%): point-to-point 0.800000 s, collective 0.000000 s, all-to-all 0.100000 s.",
        "Little of it is waiting (synchronization 0.100000 s): the transfers themselves "
        "cost; send fewer or larger messages, or overlap them with computation.",
        NULL,
    };

    setup(2, 2);
    name_node(1, 3, "bench.c", 5);
    run(1, 0, 1.0, 0.5, 0.5, 0, 0)->sync = 0.1;
    run(1, 1, 1.0, 0.4, 0.3, 0, 0.1);
    expect_advice(1, want);
}

/* Idle time: interval 2 of /src/a/b/io.c, line 77, nested in interval 1, executed by
 * processes 0 to 3 of 5 (process 4 never enters it) for 0.2, 0.4, 1.0 and 0.6 s, with
 * 0.05 s of point-to-point time each.  Execution 1.0, processors 4, total 4.0; idle
 * 0.8 + 0.6 + 0 + 0.4 = 1.8; MPI 0.2; lost 2.0 (50%), efficiency 0.5; communication 0.2
 * < 1.0, idle 1.8 >= 1.0 (90% of the lost time).  The longest execution is process 2's,
 * the shortest process 0's. */
Test(advice, idle_time)
{
    static const char *const want[] = {
        "Interval 2 (io.c:77) loses 50% of its processors' time (efficiency 0.500, lost "
        "2.000000 s of 4.000000 s).",
        "Idle time is 1.800000 s of the 2.000000 s lost in interval 2 (io.c:77) (90%): "
        "process 2 executes it for 1.000000 s, process 0 for only 0.200000 s.",
        NULL,
    };
    static const double exec[] = { 0.2, 0.4, 1.0, 0.6 };

    setup(5, 3);
    name_node(1, 1, "/src/a/b/outer.c", 5);
    name_node(2, 2, "/src/a/b/io.c", 77);
    for (int p = 0; p < 4; p++)
        run(2, p, exec[p], 0.05, 0.05, 0, 0);
    expect_advice(2, want);
}

/* Other MPI time: interval 1 of init.c, line 3, two processes: 1.0 s with 0.6 s of MPI
 * (0.1 point-to-point), 0.9 s with 0.5 s (0.1).  Total 2.0; idle 0.1; MPI 1.1; lost 1.2
 * (60%), efficiency 0.8 / 2 = 0.4; communication 0.2 < 0.6 and idle 0.1 < 0.6: the
 * rest, MPI outside communication, 1.1 - 0.2 = 0.9. */
Test(advice, other_mpi_time)
{
    static const char *const want[] = {
        "Interval 1 (init.c:3) loses 60% of its processors' time (efficiency 0.400, lost "
        "1.200000 s of 2.000000 s).",
        "MPI calls other than communication take 0.900000 s of it (creating communicators, "
        "MPI_Init, probes without messages...).",
        NULL,
    };

    setup(2, 2);
    name_node(1, 1, "init.c", 3);
    run(1, 0, 1.0, 0.6, 0.1, 0, 0);
    run(1, 1, 0.9, 0.5, 0.1, 0, 0);
    expect_advice(1, want);
}

/* The same interval, whose other MPI time is partly MPI-IO (0.3 s on process 0) and
 * one-sided (0.2 s on process 1): of the 0.9 s, 0.3 + 0.2 are named, the rest 0.4. */
Test(advice, other_mpi_time_names_io_and_one_sided)
{
    static const char *const want[] = {
        "Interval 1 (init.c:3) loses 60% of its processors' time (efficiency 0.400, lost "
        "1.200000 s of 2.000000 s).",
        "MPI calls other than communication take 0.900000 s of it: MPI-IO 0.300000 s, "
        "one-sided 0.200000 s, the rest 0.400000 s (creating communicators, MPI_Init, probes "
        "without messages...).",
        NULL,
    };

    setup(2, 2);
    name_node(1, 1, "init.c", 3);
    run(1, 0, 1.0, 0.6, 0.1, 0, 0)->io = 0.3;
    run(1, 1, 0.9, 0.5, 0.1, 0, 0)->rma = 0.2;
    expect_advice(1, want);
}

/* Any analysis: at most PZ_ADVICE_MAX sentences, each terminated within PZ_ADVICE_LEN,
 * none when less than a tenth is lost, and the first one names the interval.  Random
 * times (a fixed sequence) on random numbers of processes, some not executing, with
 * file names long enough to be cut. */
static uint64_t lcg = 88172645463325252u;

static double uniform(void)
{
    lcg = lcg * 6364136223846793005u + 1442695040888963407u;
    return (double)(lcg >> 11) / 9007199254740992.0;
}

Test(advice, never_more_than_the_maximum)
{
    static char longname[700];

    memset(longname, 'd', sizeof(longname) - 1);
    longname[0] = '/';
    for (int round = 0; round < 3000; round++) {
        int nprocs = 1 + (int)(uniform() * MAXPROCS), target = round % 2;
        char s[PZ_ADVICE_MAX + 1][PZ_ADVICE_LEN];
        double total = 0, lost = 0, longest = 0;
        int count, executed = 0;

        setup(nprocs, 2);
        name_node(1, (unsigned)round, round % 3 ? "/x/y.c" : longname, (unsigned)round);
        for (int p = 0; p < nprocs; p++) {
            double exec = uniform(), mpi = exec * uniform(), part = mpi * uniform();
            struct pz_stats *st;

            if (uniform() < 0.2)
                continue;
            st = run(target, p, exec, mpi, part * uniform(), part * uniform() * 0.5,
                     part * uniform() * 0.25);
            st->sync = st->sendrecv * uniform();
            st->variation = st->collective * uniform();
            st->late_sender = st->sync * uniform();
            st->late_receiver = st->sync - st->late_sender;
            st->wait_barrier = st->collective * uniform();
            st->wait_nxn = st->alltoall * uniform();
            st->early_reduce = st->collective * uniform() * 0.1;
            st->late_broadcast = st->collective * uniform() * 0.1;
            executed++;
            if (exec > longest)
                longest = exec;
        }
        for (int p = 0; p < nprocs; p++)
            if (stats[target][p].count)
                lost += stats[target][p].mpi + longest - stats[target][p].exec;
        total = longest * executed;
        memset(s, 'X', sizeof(s));
        s[PZ_ADVICE_MAX][PZ_ADVICE_LEN - 1] = '\0';
        count = pz_advice(&an, &nodes[target], s);
        cr_assert(count >= 0 && count <= PZ_ADVICE_MAX, "round %d: %d sentences", round, count);
        cr_assert_eq(strspn(s[PZ_ADVICE_MAX], "X"), (size_t)PZ_ADVICE_LEN - 1,
                     "round %d: written beyond PZ_ADVICE_MAX sentences", round);
        for (int k = 0; k < count; k++)
            cr_assert(memchr(s[k], '\0', PZ_ADVICE_LEN) != NULL,
                      "round %d: sentence %d not terminated", round, k);
        if (total <= 0 || lost < 0.099 * total)
            cr_assert_eq(count, 0, "round %d: lost %f of %f, yet advice", round, lost, total);
        else if (lost > 0.101 * total) {
            cr_assert(count >= 2, "round %d: lost %f of %f, %d sentences", round, lost, total,
                      count);
            cr_assert(!strncmp(s[0], target ? "Interval " : "The whole run ",
                               target ? 9 : 14), "round %d: %s", round, s[0]);
        }
    }
}

/* Insufficient parallelism first, as 003's methodology asks.  Two processes run 10 s
 * each, 0.5 s of it in MPI; interval 9 (init.c:5), sequential, takes 4 s of computation
 * on each: each loses half of it (k = 2), 2 s, as analyzer/sequential.c computes.
 * Whole run: total 20, lost 4 + 1 + 0 = 5 (25%, efficiency 0.75), of which 4 (80%) is
 * insufficient parallelism.  Interval 9: total 8, lost 4 (50%), all of it. */
Test(advice, insufficient_parallelism_names_the_sequential_interval)
{
    static const char *const run_advice[] = {
        "The whole run loses 25% of its processors' time (efficiency 0.750, lost 5.000000 s "
        "of 20.000000 s).",
        "Insufficient parallelism takes 4.000000 s of the 5.000000 s lost in the whole run "
        "(80%): computation that every process executing it duplicates.",
        "Most of it is sequential interval 9 (init.c:5): 4.000000 s lost repeating it on 2 "
        "processes; divide its work between them, or compute it once and send the result.",
        NULL,
    };
    static const char *const interval_advice[] = {
        "Interval 9 (init.c:5) loses 50% of its processors' time (efficiency 0.500, lost "
        "4.000000 s of 8.000000 s).",
        "Insufficient parallelism takes 4.000000 s of the 4.000000 s lost in interval 9 "
        "(init.c:5) (100%): computation that every process executing it duplicates.",
        "Most of it is sequential interval 9 (init.c:5): 4.000000 s lost repeating it on 2 "
        "processes; divide its work between them, or compute it once and send the result.",
        NULL,
    };

    setup(2, 2);
    name_node(1, 9, "/src/init.c", 5);
    nodes[1].sequential = 1;
    for (int p = 0; p < 2; p++) {
        run(0, p, 10.0, 0.5, 0, 0, 0)->insufficient = 2.0;
        run(1, p, 4.0, 0, 0, 0, 0)->insufficient = 2.0;
    }
    expect_advice(0, run_advice);
    expect_advice(1, interval_advice);
}

/* No part reaches half the lost time: the largest leads.  Two processes; process 0 runs
 * 10 s with 0.7 s of point-to-point, process 1 runs 9.38 s without MPI; sequential
 * interval 9 (init.c:5) takes 1 s on each, half of it lost (0.5 s each).  Execution 10,
 * total 20, idle 0.62 on process 1; lost 1.0 + 0.7 + 0.62 = 2.32 (12%, efficiency
 * 17.68 / 20 = 0.884): insufficient parallelism 1.0 (43%) before communication 0.7 and
 * idle 0.62. */
Test(advice, the_largest_part_of_the_lost_time_leads_even_below_half)
{
    static const char *const want[] = {
        "The whole run loses 12% of its processors' time (efficiency 0.884, lost 2.320000 s "
        "of 20.000000 s).",
        "Insufficient parallelism takes 1.000000 s of the 2.320000 s lost in the whole run "
        "(43%): computation that every process executing it duplicates.",
        "Most of it is sequential interval 9 (init.c:5): 1.000000 s lost repeating it on 2 "
        "processes; divide its work between them, or compute it once and send the result.",
        NULL,
    };

    setup(2, 2);
    name_node(1, 9, "/src/init.c", 5);
    nodes[1].sequential = 1;
    run(0, 0, 10.0, 0.7, 0.7, 0, 0)->insufficient = 0.5;
    run(0, 1, 9.38, 0, 0, 0, 0)->insufficient = 0.5;
    for (int p = 0; p < 2; p++)
        run(1, p, 1.0, 0, 0, 0, 0)->insufficient = 0.5;
    expect_advice(0, want);
}
