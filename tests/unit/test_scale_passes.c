/* Replaying a long run by a sample of its passes (tools/scale_passes.h), with replays
 * made by hand: one process whose pass j costs cost(j) seconds; the cuts asked for and
 * the result worked out in the comments. */
#include <criterion/criterion.h>
#include <math.h>

#include "cut_runs.h"
#include "scale_passes.h"

struct fake {
    double (*cost)(uint64_t pass);
    int fail_at;                  /* the replay of this number (from 1) fails; 0: none */
    uint64_t asked[16];
    int nasked;
    uint64_t new_interval_from;   /* cuts of this many passes or more have a second
                                     interval; 0: never */
};

static int replay(void *ctx, uint64_t passes, struct pz_analysis *out)
{
    struct fake *f = ctx;

    cr_assert_lt(f->nasked, 16);
    f->asked[f->nasked++] = passes;
    if (f->nasked == f->fail_at)
        return -1;
    cut_run(out, 1);
    for (uint64_t j = 0; j < passes; j++)
        out->nodes[0].procs[0].exec += f->cost(j);
    if (f->new_interval_from && passes >= f->new_interval_from)
        out->nodes[0].line = 9;
    return 0;
}

static double halves(uint64_t j)
{
    return j < 100 ? 2 : 1;
}

static double growing(uint64_t j)
{
    return 1 + (double)j / 1000;
}

static void expect_asked(const struct fake *f, const uint64_t *want, int n)
{
    cr_assert_eq(f->nasked, n, "%d cuts asked for, %d expected", f->nasked, n);
    for (int i = 0; i < n; i++)
        cr_expect_eq(f->asked[i], want[i], "cut %d: %llu passes", i,
                     (unsigned long long)f->asked[i]);
}

Test(scale_passes, the_cuts_double_until_a_pass_costs_the_same)
{
    /* 2 s a pass up to pass 99, then 1 s: from 32 to 64 2 s a pass, from 64 to 128
       (36 * 2 + 28) / 64 = 1.5625, from 128 to 256 1, from 256 to 512 1: settled at
       the cut to 512.  The run of 5000: 200 + 4900 s */
    struct fake f = { halves, 0, { 0 }, 0, 0 };
    struct pz_passes_outcome o;
    struct pz_analysis a;
    static const uint64_t want[5] = { 32, 64, 128, 256, 512 };

    cr_assert_eq(pz_replay_by_passes(replay, NULL, &f, 5000, &a, &o), 0);
    expect_asked(&f, want, 5);
    cr_expect_eq(o.k1, 256);
    cr_expect_eq(o.k2, 512);
    cr_expect_eq(o.replayed, 992);
    cr_expect(fabs(o.change) < 1e-12);
    cr_expect(fabs(a.nodes[0].procs[0].exec - 5100) < 1e-6, "%g", a.nodes[0].procs[0].exec);
    pz_analysis_free(&a);
}

Test(scale_passes, a_pass_that_never_settles_replays_every_pass)
{
    /* 1 + j / 1000 s a pass: the rate grows by a tenth from span to span, more than 1%;
       after 32, 64, 128, 256 and 512 the next cut (1024) would pass 2048 / 4: every one
       of the 2048 passes is replayed, 2048 + 2047 * 2048 / 2000 s */
    struct fake f = { growing, 0, { 0 }, 0, 0 };
    struct pz_passes_outcome o;
    struct pz_analysis a;
    static const uint64_t want[6] = { 32, 64, 128, 256, 512, 2048 };

    cr_assert_eq(pz_replay_by_passes(replay, NULL, &f, 2048, &a, &o), 0);
    expect_asked(&f, want, 6);
    cr_expect_eq(o.k2, 0);
    cr_expect_eq(o.replayed, 3040);
    cr_expect(fabs(a.nodes[0].procs[0].exec - (2048 + 2047.0 * 2048 / 2000)) < 1e-6);
    pz_analysis_free(&a);
}

Test(scale_passes, a_short_loop_is_replayed_whole)
{
    struct fake f = { halves, 0, { 0 }, 0, 0 };
    struct pz_passes_outcome o;
    struct pz_analysis a;
    static const uint64_t want[1] = { PZ_PASSES_LEAST - 1 };

    cr_assert_eq(pz_replay_by_passes(replay, NULL, &f, PZ_PASSES_LEAST - 1, &a, &o), 0);
    expect_asked(&f, want, 1);
    cr_expect_eq(o.replayed, PZ_PASSES_LEAST - 1);
    pz_analysis_free(&a);
}

Test(scale_passes, cuts_with_different_intervals_are_not_compared)
{
    /* 1 s a pass, settled from the start, but the cut to 128 has an interval the others
       have not: not alike; then 64, 128, 256 not alike either (64 has not), 128, 256,
       512 alike and settled */
    struct fake f = { halves, 0, { 0 }, 0, 128 };
    struct pz_passes_outcome o;
    struct pz_analysis a;
    static const uint64_t want[5] = { 32, 64, 128, 256, 512 };

    cr_assert_eq(pz_replay_by_passes(replay, NULL, &f, 5000, &a, &o), 0);
    expect_asked(&f, want, 5);
    cr_expect_eq(o.k2, 512);
    pz_analysis_free(&a);
    /* the same cuts where a pass never settles (1 + j / 1000 s): after 512 the next cut,
       1024, passes 3000 / 4, and every pass is replayed */
    struct fake g = { halves, 0, { 0 }, 0, 128 };
    static const uint64_t whole[6] = { 32, 64, 128, 256, 512, 3000 };

    g.cost = growing;
    cr_assert_eq(pz_replay_by_passes(replay, NULL, &g, 3000, &a, &o), 0);
    expect_asked(&g, whole, 6);
    cr_expect_eq(o.k2, 0);
    pz_analysis_free(&a);
}

Test(scale_passes, a_failing_replay_fails_the_whole)
{
    /* the second cut's replay fails, then (never settling) the fourth's: -1 both times,
       the cuts made before freed (run under valgrind or ASan to see it) */
    for (int at = 2; at <= 4; at += 2) {
        struct fake f = { growing, at, { 0 }, 0, 0 };
        struct pz_passes_outcome o;
        struct pz_analysis a;

        cr_expect_eq(pz_replay_by_passes(replay, NULL, &f, 5000, &a, &o), -1, "at %d", at);
        cr_expect_eq(f.nasked, at);
    }
}
