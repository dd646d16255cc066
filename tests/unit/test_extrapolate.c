/* The analysis of a whole loop's run from the runs cut to some of its passes
 * (analyzer/extrapolate.h): analyses made by hand, the expected sums worked out in the
 * comments from the definition. */
#include <criterion/criterion.h>
#include <math.h>

#include "cut_runs.h"
#include "extrapolate.h"

#define NEAR(x, y) (fabs((x) - (y)) < 1e-9)

static struct pz_analysis cuts[3];
static struct pz_analysis *cut[3] = { &cuts[0], &cuts[1], &cuts[2] };

static void make(int nprocs)
{
    for (int i = 0; i < 3; i++)
        cut_run(&cuts[i], nprocs);
}

static void release(void)
{
    for (int i = 0; i < 3; i++)
        pz_analysis_free(&cuts[i]);
}

static struct pz_stats *at(int i, int p)
{
    return &cuts[i].nodes[0].procs[p];
}

TestSuite(extrapolate, .fini = release);

Test(extrapolate, every_sum_grows_at_its_rate_over_the_last_span)
{
    static const uint64_t k[3] = { 2, 4, 8 };

    /* two processes alike: 1 s before the loop and 0.5 s a pass, 0.1 s of it in MPI, one
       execution of the whole run, 3 calls a pass of 100 bytes each, one message a pass */
    make(2);
    for (int i = 0; i < 3; i++) {
        for (int p = 0; p < 2; p++) {
            at(i, p)->count = 1;
            at(i, p)->exec = 1 + 0.5 * (double)k[i];
            at(i, p)->mpi = 0.1 * (double)k[i];
        }
        cuts[i].functions[0].calls = 3 * k[i];
        cuts[i].functions[0].bytes_sent = 300 * k[i];
        cuts[i].functions[0].max = 0.25;
        cuts[i].messages = k[i];
    }
    pz_analysis_extrapolate(cut, k, 100);
    /* 100 passes: 1 + 50 s, 10 s in MPI, 300 calls of 30000 bytes, 100 messages; the
       longest call stays */
    for (int p = 0; p < 2; p++) {
        cr_expect(NEAR(at(2, p)->exec, 51), "process %d: %g s", p, at(2, p)->exec);
        cr_expect(NEAR(at(2, p)->mpi, 10), "process %d: %g s in MPI", p, at(2, p)->mpi);
        cr_expect_eq(at(2, p)->count, 1);
    }
    cr_expect_eq(cuts[2].functions[0].calls, 300);
    cr_expect_eq(cuts[2].functions[0].bytes_sent, 30000);
    cr_expect(NEAR(cuts[2].functions[0].max, 0.25));
    cr_expect_eq(cuts[2].messages, 100);
}

Test(extrapolate, differences_that_repeat_are_kept_whole)
{
    static const uint64_t k[3] = { 2, 4, 8 };

    /* process 0 computes 2 s a pass, process 1 1 s, in every span: their differences
       from the mean (+0.5, -0.5 s a pass) are the same in both spans, kept whole: at 100
       passes 200 s and 100 s */
    make(2);
    for (int i = 0; i < 3; i++) {
        at(i, 0)->exec = 2 * (double)k[i];
        at(i, 1)->exec = (double)k[i];
    }
    pz_analysis_extrapolate(cut, k, 100);
    cr_expect(NEAR(at(2, 0)->exec, 200), "%g", at(2, 0)->exec);
    cr_expect(NEAR(at(2, 1)->exec, 100), "%g", at(2, 1)->exec);
}

Test(extrapolate, differences_that_do_not_repeat_grow_as_the_root_of_the_passes)
{
    static const uint64_t k[3] = { 2, 4, 8 };
    static const double first[4] = { 0.1, -0.1, 0.1, -0.1 }, second[4] = { 0.1, 0.1, -0.1, -0.1 };

    /* four processes computing 1 s a pass before k = 2 (2 s), then 1 s plus a draw a
       pass: first[p] from 2 to 4, second[p] from 4 to 8.  The draws of the two spans
       are uncorrelated (sum of first * second = 0): nothing repeats.  n = 108 is f = 25
       times the last span; each process's difference grows by 1 / sqrt(25) = 0.2 of
       it: process 0 at 8 has 2 + 2 * 1.1 + 4 * 1.1 = 8.6 s, and 25 * (4 + 0.2 * 0.4) =
       102 more: 110.6 s; process 2: 2 + 2.2 + 3.6 = 7.8, and 25 * (4 - 0.08) = 98: 105.8
       s */
    make(4);
    for (int p = 0; p < 4; p++) {
        at(0, p)->exec = 2;
        at(1, p)->exec = 2 + 2 * (1 + first[p]);
        at(2, p)->exec = at(1, p)->exec + 4 * (1 + second[p]);
    }
    pz_analysis_extrapolate(cut, k, 108);
    cr_expect(NEAR(at(2, 0)->exec, 110.6), "%g", at(2, 0)->exec);
    cr_expect(NEAR(at(2, 2)->exec, 105.8), "%g", at(2, 2)->exec);
    /* process 1: 2 + 1.8 + 4.4 = 8.2, and 102: 110.2; process 3: 2 + 1.8 + 3.6 = 7.4,
       and 98: 105.4 */
    cr_expect(NEAR(at(2, 1)->exec, 110.2), "%g", at(2, 1)->exec);
    cr_expect(NEAR(at(2, 3)->exec, 105.4), "%g", at(2, 3)->exec);
}

Test(extrapolate, the_rate_change_compares_the_two_spans)
{
    static const uint64_t k[3] = { 2, 4, 8 };

    /* two processes: the whole run's execution time summed 4, 8 and 16.8 s: 2 s a pass
       from 2 to 4, 2.2 from 4 to 8: a change of 0.2 / 2.2; MPI time 0.2 s a pass in both
       spans, synchronization none */
    make(2);
    for (int p = 0; p < 2; p++) {
        at(0, p)->exec = 2;
        at(1, p)->exec = 4;
        at(2, p)->exec = 8.4;
        at(0, p)->mpi = 0.2;
        at(1, p)->mpi = 0.4;
        at(2, p)->mpi = 0.8;
    }
    double change = pz_analysis_rate_change(cut[0], cut[1], cut[2], k[0], k[1], k[2]);

    cr_expect(NEAR(change, 0.2 / 2.2), "%g", change);
    /* MPI time summed 0.8 then 2.0 s at 8: 0.2 s a pass, then 0.3, a change of 0.1 / 2.2,
       less than the execution time's */
    for (int p = 0; p < 2; p++)
        at(2, p)->mpi = 1.0;
    change = pz_analysis_rate_change(cut[0], cut[1], cut[2], k[0], k[1], k[2]);
    cr_expect(NEAR(change, 0.2 / 2.2), "%g", change);
    for (int p = 0; p < 2; p++)
        at(2, p)->mpi = 1.6;
    change = pz_analysis_rate_change(cut[0], cut[1], cut[2], k[0], k[1], k[2]);
    /* MPI time summed 3.2 s at 8: 0.2 s a pass, then 0.6, a change of 0.4 / 2.2 */
    cr_expect(NEAR(change, 0.4 / 2.2), "%g", change);
}

Test(extrapolate, runs_of_other_intervals_or_processes_are_not_alike)
{
    make(2);
    cr_expect(pz_analysis_alike(cut[0], cut[1]));
    cuts[1].nodes[0].line = 7;
    cr_expect_not(pz_analysis_alike(cut[0], cut[1]));
    cuts[1].nodes[0].line = 0;
    free(cuts[1].functions[0].name);
    cr_assert_not_null(cuts[1].functions[0].name = strdup("MPI_Recv"));
    cr_expect_not(pz_analysis_alike(cut[0], cut[1]));
    pz_analysis_free(&cuts[2]);
    cut_run(&cuts[2], 3);
    cr_expect_not(pz_analysis_alike(cut[0], cut[2]));
}

Test(extrapolate, a_repeating_difference_in_mpi_time_is_kept_whole_beside_draws)
{
    static const uint64_t k[3] = { 32, 64, 128 };
    static const double first[4] = { 0.1, -0.1, 0.1, -0.1 }, second[4] = { 0.1, 0.1, -0.1, -0.1 };

    /* four processes computing 1 s a pass before 32, then 1 s plus draws that do not
       repeat (first[p] from 32 to 64, second[p] from 64 to 128); in MPI 0.2 s a pass at
       process 0 (a root), 0.1 s at the others, every pass.  At n = 10000 (f = 9872 / 64 =
       154.25 times the last span): the MPI time's differences repeat, kept whole: 0.2 *
       10000 = 2000 s at process 0, 1000 s at the others.  The computation of process 0
       at 128: 32 + 32 * 1.1 + 64 * 1.1 = 137.6 s, then 154.25 * (64 + 6.4 / sqrt(154.25))
       more; its execution the two together */
    make(4);
    for (int p = 0; p < 4; p++) {
        double mpi = p == 0 ? 0.2 : 0.1, c32 = 32, c64 = c32 + 32 * (1 + first[p]);
        double c128 = c64 + 64 * (1 + second[p]);

        at(0, p)->mpi = 32 * mpi;
        at(1, p)->mpi = 64 * mpi;
        at(2, p)->mpi = 128 * mpi;
        at(0, p)->exec = c32 + at(0, p)->mpi;
        at(1, p)->exec = c64 + at(1, p)->mpi;
        at(2, p)->exec = c128 + at(2, p)->mpi;
    }
    pz_analysis_extrapolate(cut, k, 10000);
    cr_expect(fabs(at(2, 0)->mpi - 2000) < 1e-6, "%g", at(2, 0)->mpi);
    for (int p = 1; p < 4; p++)
        cr_expect(fabs(at(2, p)->mpi - 1000) < 1e-6, "process %d: %g", p, at(2, p)->mpi);
    double computed = 137.6 + 154.25 * (64 + 6.4 / sqrt(154.25));

    cr_expect(fabs(at(2, 0)->exec - (computed + 2000)) < 1e-6, "%g", at(2, 0)->exec);
}

Test(extrapolate, cuts_out_of_order_are_left_alone)
{
    static const uint64_t k[3] = { 4, 4, 8 };

    make(1);
    at(2, 0)->exec = 8;
    pz_analysis_extrapolate(cut, k, 100);
    cr_expect(NEAR(at(2, 0)->exec, 8));
    cr_expect(NEAR(pz_analysis_rate_change(cut[0], cut[1], cut[2], k[0], k[1], k[2]), 1));
}
