/* Point-to-point sizes the data decide (replay/scale_numbers.c): a pipeline recorded by
 * hand (scale_runs.h) at 2, 4 and 8 processes, each process receiving from the previous
 * one and sending to the next in ITERS iterations, synthesized at larger counts.  A size that
 * changes from one iteration to the next is given its mean over the iterations and
 * processes, fitted over P and rounded to the common divisor of the recorded sizes; a
 * size that never changes keeps its one value. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "scale_runs.h"
#include "trace.h"
#include "model_notes.h"

#define C 0.004     /* s: the computation of one iteration on one process; C / P at P */
#define ITERS 4
#define TAG 7

static const int counts_2_4_8[3] = {2, 4, 8};

/* The sizes of a pipeline's message at P processes in iteration i. */
typedef uint64_t (*size_rule)(int nprocs, int i);

/* Sizes with no pattern the recordings share, whose mean is 3200 / P bytes:
 *   at 2: 808, 2392, 1208, 1992 (mean 6400 / 4 = 1600);
 *   at 4: 408, 1192, 408, 1192 (mean 800); at 8: 208, 592, 208, 592 (mean 400).
 * (A pattern the same at every count, say small and large alternating everywhere, would
 * be told apart as steps of their own, each of one size; here the recordings disagree,
 * and the iterations are one step whose size changes from one pass to the next.)
 * Every size is a multiple of 8 (101, 299, 151, 249, 51, 149, 26, 74 times 8, whose
 * greatest common divisor is 1): the unit is 8 bytes. */
static uint64_t data_decided(int nprocs, int i)
{
    static const uint64_t at2[ITERS] = {808, 2392, 1208, 1992};

    switch (nprocs) {
    case 2:
        return at2[i];
    case 4:
        return i % 2 ? 1192 : 408;
    default:
        return i % 2 ? 592 : 208;
    }
}

static uint64_t constant(int nprocs, int i)
{
    (void)nprocs;
    (void)i;
    return 808;
}

/* Process p's stage of a pipeline: per iteration a receive from the previous process
 * (but at the first), a computation of C / P and a send to the next one (but at the
 * last), sized by the rule arg. */
static void chain(struct sr_run *b, int p, const int *c, void *arg)
{
    size_rule size = (size_rule)(uintptr_t)arg;
    int P = b->run.nprocs;

    (void)c;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++) {
        struct pz_scale_event s = sr_message_along(PZ_REC_SEND, 1, TAG, size(P, i));
        struct pz_scale_event r = sr_message_along(PZ_REC_RECV, -1, TAG, size(P, i));
        struct sr_truth ts = {p + 1, 0, P, 1, -1}, tr = {p - 1, 0, P, 1, -1};

        if (p > 0) {
            sr_step(b, p, PZ_SCALE_CALL, SR_RECV, 0);
            sr_event(b, p, &r, &tr);
        }
        if (p < P - 1) {
            sr_step(b, p, PZ_SCALE_CALL, SR_SEND, C / P);
            sr_event(b, p, &s, &ts);
        }
    }
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

/* The sizes of the sends and receives synthesized, each checked to be `want`. */
struct check {
    uint64_t want;
    size_t sends, recvs;
};

static int check_message(void *ctx, int proc, const struct pz_rec *rec)
{
    struct check *k = ctx;

    (void)proc;
    if (rec->kind != PZ_REC_SEND && rec->kind != PZ_REC_RECV)
        return 0;
    cr_expect_eq(rec->bytes, k->want, "a %s of %llu bytes, not %llu",
                 rec->kind == PZ_REC_SEND ? "send" : "receive",
                 (unsigned long long)rec->bytes, (unsigned long long)k->want);
    k->sends += rec->kind == PZ_REC_SEND;
    k->recvs += rec->kind == PZ_REC_RECV;
    return 0;
}

/* Synthesizes m at nprocs and checks that every message is of want bytes, ITERS sends
 * and receives per process but the last's and the first's. */
static void expect_sizes(const struct pz_scale_program *m, int nprocs, uint64_t want)
{
    struct check k = {want, 0, 0};
    struct pz_scale_sink sink = {sr_no_comms, check_message, &k};
    char err[512] = "";

    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    cr_expect_eq(k.sends, (size_t)(nprocs - 1) * ITERS);
    cr_expect_eq(k.recvs, (size_t)(nprocs - 1) * ITERS);
}

Test(scale_sizes, a_size_that_changes_between_iterations_as_the_data_decide_is_given_its_mean)
{
    struct sr_recorded r;

    sr_record_at(&r, counts_2_4_8, 1, NULL, chain, (void *)(uintptr_t)data_decided);
    /* means 1600, 800, 400 at 2, 4, 8: exactly 3200 / P.
     * At 16: 3200 / 16 = 200 = 25 * 8, a whole number of units: 200 (the largest recorded,
     *   2392, 1192 and 592, about 4750 / P, would have given about 297 at 16).
     * At 48: 3200 / 48 = 66.67 = 8.33 units: 8 units, 64 bytes.
     * At 5: 3200 / 5 = 640 = 80 units: 640. */
    expect_sizes(r.m, 16, 200);
    expect_sizes(r.m, 48, 64);
    expect_sizes(r.m, 5, 640);
    cr_expect(scale_noted(r.m, "to the next as the data decide"));
    cr_expect(scale_noted(r.m, "in whole multiples of 8 bytes"));
    sr_recorded_free(&r);
}

Test(scale_sizes, a_size_that_never_changes_is_kept)
{
    struct sr_recorded r;

    sr_record_at(&r, counts_2_4_8, 1, NULL, chain, (void *)(uintptr_t)constant);
    /* 808 bytes at every count, iteration and process: 808 everywhere */
    expect_sizes(r.m, 16, 808);
    expect_sizes(r.m, 48, 808);
    cr_expect(!scale_noted(r.m, "as the data decide"));
    sr_recorded_free(&r);
}
