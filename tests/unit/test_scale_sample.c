/* The loop a long run is sampled by, and the run cut to a few of its passes
 * (replay/scale_sample.h): a program recorded by hand (scale_runs.h) at 2, 4 and 8
 * processes, 800 MPI_Allreduce in a loop, then an interval of 600 iterations of a ring
 * (MPI_Isend east, MPI_Recv from the west, MPI_Wait), synthesized at 16.  The records
 * are worked out by hand from sp_step_records's definition. */
#include <criterion/criterion.h>
#include <math.h>
#include <otf2/OTF2_Events.h>
#include <stdint.h>
#include <stdlib.h>

#include "scale_runs.h"
#include "scale_sample.h"
#include "trace.h"

#define REDUCTIONS 800
#define ITERS 600
#define TAG 7

static const int counts_2_4_8[3] = {2, 4, 8};

static struct pz_scale_event event(uint8_t kind)
{
    return (struct pz_scale_event){.kind = kind, .comm = SR_WORLD, .posted_by = -1};
}

static void allreduce(struct sr_run *b, int p)
{
    struct pz_scale_event e = event(PZ_REC_COLL_BEGIN);
    struct sr_truth t = {-1, 0, b->run.nprocs, 1, -1};

    sr_step(b, p, PZ_SCALE_CALL, SR_ALLREDUCE, 1e-5);
    sr_event(b, p, &e, &t);
    e.kind = PZ_REC_COLL_END;
    e.coll_op = OTF2_COLLECTIVE_OP_ALLREDUCE;
    e.bytes = e.bytes2 = 8;
    sr_event(b, p, &e, &t);
}

static void ring(struct sr_run *b, int p, const int *c)
{
    sr_ring_iteration(b, p, c, TAG, 1024, 1e-4);
}

static void prog(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    for (int i = 0; i < REDUCTIONS; i++)
        allreduce(b, p);
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++)
        ring(b, p, c);
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

static struct sr_recorded recorded;

static void record(void)
{
    static const uint8_t periodic[3] = {1, 0, 0};

    sr_record_at(&recorded, counts_2_4_8, 1, periodic, prog, NULL);
}

static void release(void)
{
    sr_recorded_free(&recorded);
}

TestSuite(scale_sample, .init = record, .fini = release);

Test(scale_sample, the_loop_of_the_most_records_is_sampled)
{
    struct pz_scale_sample s;

    /* the template: the reductions' loop (node 0) and its step, the interval's
     * beginning, the ring's loop (node 3) and its 3 steps, the interval's end.  A
     * reduction makes 4 records (Enter, its begin and end, Leave), an iteration of the
     * ring 9 (3 a call: Enter, its event, Leave; MPI_Wait's completion is its event):
     * 3200 and 5400, the interval's Enter and Leave 2 more.  The ring holds the most. */
    cr_assert(pz_scale_sample_loop(recorded.m, 16, 512, &s));
    cr_expect_eq(s.loop, 3);
    cr_expect_eq(s.passes, ITERS);
    cr_expect_eq(s.in_loop, 5400);
    cr_expect_eq(s.records, 3200 + 2 + 5400);
    /* a loop of fewer passes than asked for is not sampled: the reductions' then */
    cr_assert(pz_scale_sample_loop(recorded.m, 16, ITERS + 1, &s));
    cr_expect_eq(s.loop, 0);
    cr_expect_eq(s.passes, REDUCTIONS);
    cr_expect_eq(s.in_loop, 3200);
    cr_expect_not(pz_scale_sample_loop(recorded.m, 16, REDUCTIONS + 1, &s));
}

/* Records of each kind at each of 16 processes. */
struct tally {
    int sends[16], reductions[16];
};

static int count(void *ctx, int proc, const struct pz_rec *rec)
{
    struct tally *t = ctx;

    t->sends[proc] += rec->kind == PZ_REC_ISEND;
    t->reductions[proc] += rec->kind == PZ_REC_COLL_END;
    return 0;
}

static void tally_at_16(uint64_t cut, struct tally *t)
{
    char err[512] = "";
    struct pz_scale_synth *s = pz_scale_synth_new(recorded.m, 16, err, sizeof(err));

    cr_assert_not_null(s, "%s", err);
    if (cut)
        pz_scale_synth_cut(s, 3, cut);
    cr_assert_eq(pz_scale_synth_all(s, count, t, err, sizeof(err)), 0, "%s", err);
    pz_scale_synth_free(s);
}

Test(scale_sample, a_cut_run_makes_the_loop_s_passes_it_is_cut_to)
{
    struct tally whole = {{0}, {0}}, cut = {{0}, {0}};

    /* every process sends east once an iteration and reduces 800 times; cut to 5
       passes of the ring, 5 sends and the same reductions */
    tally_at_16(0, &whole);
    tally_at_16(5, &cut);
    for (int p = 0; p < 16; p++) {
        cr_expect_eq(whole.sends[p], ITERS, "process %d", p);
        cr_expect_eq(cut.sends[p], 5, "process %d", p);
        cr_expect_eq(whole.reductions[p], REDUCTIONS, "process %d", p);
        cr_expect_eq(cut.reductions[p], REDUCTIONS, "process %d", p);
    }
}

/* The ring alone, its computation before MPI_Isend growing over the run: (1 + i / ITERS)
 * x 0.1 ms at iteration i. */
static void prog_trend(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++)
        sr_ring_iteration(b, p, c, TAG, 1024, 1e-4 * (1 + (double)i / ITERS));
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

Test(scale_sample, a_trend_of_the_computation_is_seen_beyond_the_cuts)
{
    static const uint8_t periodic[3] = {1, 0, 0};
    struct sr_recorded trend;
    struct pz_scale_sample s;
    double drift;

    /* each computation before MPI_Isend is drawn with the ratio the recording at 8 shows
       at the same pass, (1 + i / 600) over their mean: from 64 to 127 their mean is
       1 + 95.5 / 600, from 128 to 599 1 + 363.5 / 600, (363.5 - 95.5) / (600 + 95.5) =
       0.385335... more; the ring of the suite's program computes alike every pass: 0 */
    sr_record_at(&trend, counts_2_4_8, 1, periodic, prog_trend, NULL);
    cr_assert(pz_scale_sample_loop(trend.m, 16, 512, &s));
    drift = pz_scale_sample_drift(trend.m, 16, &s, 64, 128);
    cr_expect(fabs(drift - 268.0 / 695.5) < 1e-9, "%.12f", drift);
    sr_recorded_free(&trend);
    cr_assert(pz_scale_sample_loop(recorded.m, 16, 512, &s));
    cr_expect(fabs(pz_scale_sample_drift(recorded.m, 16, &s, 64, 128)) < 1e-12);
}

/* Twice: the ring's 600 iterations, then an MPI_Allreduce. */
static void prog_twice(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < ITERS; i++)
            ring(b, p, c);
        allreduce(b, p);
    }
}

Test(scale_sample, a_loop_inside_a_loop_of_two_passes_is_not_sampled)
{
    static const uint8_t periodic[3] = {1, 0, 0};
    struct sr_recorded twice;
    struct pz_scale_sample s;

    /* the ring's loop runs in each of the outer loop's 2 passes: a run cut to K of its
       passes would make the second pass's draws at the numbers K to 2K - 1 where the
       whole run's are 600 to 1199; the outer loop makes 2 passes, fewer than 512 */
    sr_record_at(&twice, counts_2_4_8, 1, periodic, prog_twice, NULL);
    cr_expect_not(pz_scale_sample_loop(twice.m, 16, 512, &s));
    cr_expect(pz_scale_sample_loop(twice.m, 16, 2, &s));
    cr_expect_eq(s.passes, 2);
    sr_recorded_free(&twice);
}
