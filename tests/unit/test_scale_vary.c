/* The variation of the synthesized computations (replay/scale_vary.h): recorded
 * computations over their mean, and the deterministic draws among those ratios. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "scale_program.h"
#include "scale_runs.h"
#include "scale_vary.h"
#include "trace.h"

Test(scale_vary, ratios_to_the_mean)
{
    /* mean 2: 1 / 2 and 3 / 2 */
    double two[2] = {1, 3};
    /* mean 0.2: 0.5, 1 (made exactly 1), 1.5 */
    double three[3] = {0.1, 0.2, 0.3};

    pz_scale_ratios(two, 2);
    cr_expect_float_eq(two[0], 0.5, 1e-15);
    cr_expect_float_eq(two[1], 1.5, 1e-15);
    pz_scale_ratios(three, 3);
    cr_expect_float_eq(three[0], 0.5, 1e-12);
    cr_expect_eq(three[1], 1.0);
    cr_expect_float_eq(three[2], 1.5, 1e-12);
}

Test(scale_vary, equal_or_no_computations_do_not_vary)
{
    /* 0.1 three times: their mean may round, the ratios are exactly 1; a mean of 0 (no
     * computation) gives 1 too */
    double equal[3] = {0.1, 0.1, 0.1}, none[2] = {0, 0};

    pz_scale_ratios(equal, 3);
    pz_scale_ratios(none, 2);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(equal[i], 1.0, "ratio %d: %.17g", i, equal[i]);
    cr_expect_eq(none[0], 1.0);
    cr_expect_eq(none[1], 1.0);
    pz_scale_ratios(NULL, 0);
}

Test(scale_vary, no_ratios_draw_1)
{
    cr_expect_eq(pz_scale_draw(NULL, 0, 3, 7), 1.0);
}

Test(scale_vary, a_draw_is_a_ratio_and_the_same_every_time)
{
    static const double ratios[2] = {0.5, 1.5};

    for (uint32_t p = 0; p < 8; p++)
        for (uint64_t i = 0; i < 100; i++) {
            double d = pz_scale_draw(ratios, 2, p, i);

            cr_assert(d == 0.5 || d == 1.5, "process %u draw %llu: %g", p,
                      (unsigned long long)i, d);
            cr_assert_eq(d, pz_scale_draw(ratios, 2, p, i));
        }
}

Test(scale_vary, draws_are_uniform_over_the_ratios)
{
    /* 16 processes x 2500 draws among 4 ratios: 10000 of each expected, the binomial's
     * standard deviation sqrt(40000 * 1/4 * 3/4) = 87; 500 is more than 5 of it */
    static const double ratios[4] = {0, 1, 2, 3};
    int seen[4] = {0, 0, 0, 0};

    for (uint32_t p = 0; p < 16; p++)
        for (uint64_t i = 0; i < 2500; i++)
            seen[(int)pz_scale_draw(ratios, 4, p, i)]++;
    for (int j = 0; j < 4; j++)
        cr_expect(abs(seen[j] - 10000) < 500, "ratio %d drawn %d times of 40000", j,
                  seen[j]);
}

Test(scale_vary, processes_draw_apart_at_the_same_computation)
{
    /* 64 processes' first draws among 100 ratios: 100 * (1 - 0.99^64) = 47.4 distinct
     * ones expected (standard deviation about 3); all equal would keep them in step */
    double ratios[100];
    int drawn[100] = {0}, distinct = 0;

    for (int j = 0; j < 100; j++)
        ratios[j] = j;
    for (uint32_t p = 0; p < 64; p++)
        drawn[(int)pz_scale_draw(ratios, 100, p, 0)] = 1;
    for (int j = 0; j < 100; j++)
        distinct += drawn[j];
    cr_expect(distinct >= 35, "%d distinct ratios among 64 processes", distinct);
}

/* --- what a synthesized computation is varied by */

#define C 0.004   /* s: a process's computation per iteration at 2 processes, C / 2 */
#define ITERS 2

/* The short computation before the receive from the west, w(P) = 10 us at 4 and 9 us
 * at 8 (no form of P joins just these two exactly), recorded at 1.5 times that in the
 * first iteration and at 0.5 times in the second at every process. */
static double west_computation(int P, int iteration)
{
    return (P == 4 ? 10e-6 : 9e-6) * (iteration == 0 ? 1.5 : 0.5);
}

/* A wavefront's first column and the others, on MPI_Dims_create's grid (2 x 1, 2 x 2,
 * 4 x 2), an interval per iteration: a process with a west neighbour receives from it
 * after w(P, i), and reaches the barrier right after; one without computes
 * 2 C / P - w(P, i) before the barrier (C / P at 2, where none has a west neighbour).
 * The computations after the interval's begin average C / P at every count: in each
 * iteration half of the processes compute w(P, i), the other half 2 C / P - w(P, i). */
static void prog_west(struct sr_run *b, int p, const int *coords, void *arg)
{
    static const int west[3] = {0, -1, 0};
    struct pz_scale_event begin = {.kind = PZ_REC_COLL_BEGIN, .comm = SR_WORLD,
                                   .posted_by = -1},
                          end = begin, recv = begin;
    int P = b->run.nprocs, from = sr_rank_at(b, coords, west);
    struct sr_truth all = {-1, 0, P, 1, -1}, sender = {from, 0, P, 1, -1};

    (void)arg;
    end.kind = PZ_REC_COLL_END;
    recv.kind = PZ_REC_RECV;
    recv.peer.kind = PZ_SCALE_PEER_OFFSET;
    recv.peer.off[1] = -1;
    recv.bytes = 512;
    for (int i = 0; i < ITERS; i++) {
        double before_barrier = P == 2 ? C / P : 2 * C / P - west_computation(P, i);

        sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
        if (from >= 0) {
            sr_step(b, p, PZ_SCALE_CALL, SR_RECV, west_computation(P, i));
            sr_event(b, p, &recv, &sender);
            before_barrier = 0;
        }
        sr_step(b, p, PZ_SCALE_CALL, SR_BARRIER, before_barrier);
        sr_event(b, p, &begin, &all);
        sr_event(b, p, &end, &all);
        sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
    }
}

struct west_sink {
    int64_t before_recv[16][ITERS];   /* ns of computation before each MPI_Recv */
    int nrecv[16];
    uint64_t cpu[16];                 /* at the last call's Enter */
};

static int keep_recv_computation(void *ctx, int proc, const struct pz_rec *rec)
{
    struct west_sink *w = ctx;

    if (rec->kind != PZ_REC_ENTER || rec->cpu == PZ_NONE64)
        return 0;
    if (rec->region == SR_RECV && w->nrecv[proc] < ITERS)
        w->before_recv[proc][w->nrecv[proc]++] = (int64_t)(rec->cpu - w->cpu[proc]);
    w->cpu[proc] = rec->cpu;
    return 0;
}

Test(scale_vary, a_model_of_other_computations_is_not_varied_by_the_steps_ratios)
{
    /* At 16 (4 x 4) the processes of columns 1 and 2 have a west and an east neighbour,
     * a class no recording has, and the receive from the west is recorded at 4 and 8
     * only: too few for the pair of steps around it, so its computation is the model
     * of the computations after the step before (the interval's begin), C / P at 2, 4
     * and 8, at the level of the pair's: its mean w is 10 us at 4, where C / P is 1 ms,
     * and 9 us at 8, where it is 500 us, a mean ratio of (0.01 + 0.018) / 2 = 0.014,
     * and 0.014 * 250 us = 3.5 us at 16.  Those computations after the begin are
     * mostly the other column's 2 C / P - w(P, i): the ratios of w(P, i), 1.5 in the
     * first iteration and 0.5 in the second, are not the model's; drawn, they would
     * make it 5.25 us then 1.75 us.  It stays 3.5 us in both iterations, at every
     * process with a west neighbour (12 of 16). */
    static const int counts[3] = {2, 4, 8};
    struct sr_recorded r;
    struct west_sink w = {{{0}}, {0}, {0}};
    struct pz_scale_sink sink = {sr_no_comms, keep_recv_computation, &w};
    char err[512] = "";
    int receivers = 0;

    sr_record_at(&r, counts, 2, NULL, prog_west, NULL);
    cr_assert_eq(pz_scale_synthesize(r.m, 16, &sink, err, sizeof(err)), 0, "%s", err);
    for (int p = 0; p < 16; p++) {
        if (!w.nrecv[p])
            continue;
        receivers++;
        cr_expect_eq(w.nrecv[p], ITERS, "process %d: %d receives", p, w.nrecv[p]);
        for (int i = 0; i < w.nrecv[p]; i++)
            cr_expect(llabs(w.before_recv[p][i] - 3500) <= 1,
                      "process %d iteration %d: %lld ns of computation before MPI_Recv, "
                      "expected 3500", p, i, (long long)w.before_recv[p][i]);
    }
    cr_expect_eq(receivers, 12);
    sr_recorded_free(&r);
}
