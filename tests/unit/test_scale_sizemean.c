/* Point-to-point sizes that differ between the processes of a recording
 * (replay/scale_numbers.c): a pipeline recorded by hand (scale_runs.h) at 2, 4 and 8
 * processes, each process sending one size to the next in every iteration, a size of its
 * own.  Where the sizes of a recording spread over more than two neighbouring multiples
 * of their common divisor, the data decide them: every process is given their mean over
 * the processes, fitted over P, in whole bytes (the datatype's size is not recorded);
 * where they are two neighbouring multiples (an uneven split's ceil and floor blocks),
 * the largest stays. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "scale_runs.h"
#include "trace.h"
#include "model_notes.h"

#define C 0.004     /* s: the computation of one iteration on one process; C / P at P */
#define ITERS 3
#define TAG 5

static const int counts_2_4_8[3] = {2, 4, 8};

/* The size process p sends at P processes (p < P - 1), the same in every iteration. */
typedef uint64_t (*size_rule)(int nprocs, int p);

/* Sizes that spread by the data, whose mean over the senders is 640 / P:
 *   at 2: 320 (one sender; mean 320);
 *   at 4: 80, 160, 240 (mean 480 / 3 = 160);
 *   at 8: 40, 80, 120, 40, 88, 96, 96 (mean 560 / 7 = 80).
 * Their greatest common divisor is 8 (gcd(40, 88) = 8, and 8 divides every one); at 4
 * the sizes spread over 160 bytes, more than their divisor there (80). */
static uint64_t spread(int nprocs, int p)
{
    static const uint64_t at4[3] = {80, 160, 240};
    static const uint64_t at8[7] = {40, 80, 120, 40, 88, 96, 96};

    return nprocs == 2 ? 320 : nprocs == 4 ? at4[p] : at8[p];
}

/* Sizes around a mean of 250 bytes at every count, 100 to 400 at 8:
 *   at 2: 250; at 4: 100, 250, 400 (750 / 3 = 250);
 *   at 8: 100, 200, 300, 400, 250, 150, 350 (1750 / 7 = 250).
 * At 4 they spread over 300 bytes, more than their divisor there, 50. */
static uint64_t around_250(int nprocs, int p)
{
    static const uint64_t at4[3] = {100, 250, 400};
    static const uint64_t at8[7] = {100, 200, 300, 400, 250, 150, 350};

    return nprocs == 2 ? 250 : nprocs == 4 ? at4[p] : at8[p];
}

/* An uneven split's blocks: one process one row of 8 bytes more than the others:
 *   at 2: 808; at 4: 408, 400, 400; at 8: 208 then 200 six times.
 * Each recording's sizes are two neighbouring multiples of their divisor (8). */
static uint64_t uneven(int nprocs, int p)
{
    uint64_t base = nprocs == 2 ? 808 : nprocs == 4 ? 400 : 200;

    return p == 0 && nprocs > 2 ? base + 8 : base;
}

/* Process p's stage of a pipeline: per iteration a receive from the previous process
 * (but at the first) of its size, a computation of C / P and a send to the next one (but
 * at the last) of p's size, by the rule arg. */
static void chain(struct sr_run *b, int p, const int *c, void *arg)
{
    size_rule size = (size_rule)(uintptr_t)arg;
    int P = b->run.nprocs;

    (void)c;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++) {
        struct sr_truth ts = {p + 1, 0, P, 1, -1}, tr = {p - 1, 0, P, 1, -1};

        if (p > 0) {
            struct pz_scale_event r = sr_message_along(PZ_REC_RECV, -1, TAG, size(P, p - 1));

            sr_step(b, p, PZ_SCALE_CALL, SR_RECV, 0);
            sr_event(b, p, &r, &tr);
        }
        if (p < P - 1) {
            struct pz_scale_event s = sr_message_along(PZ_REC_SEND, 1, TAG, size(P, p));

            sr_step(b, p, PZ_SCALE_CALL, SR_SEND, C / P);
            sr_event(b, p, &s, &ts);
        }
    }
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

/* The sizes of the sends and receives synthesized, each checked to be `want`. */
struct check {
    uint64_t want;
    size_t messages;
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
    k->messages++;
    return 0;
}

/* Synthesizes m at nprocs and checks that every message is of want bytes: ITERS sends
 * and as many receives per process but the last's and the first's. */
static void expect_sizes(const struct pz_scale_program *m, int nprocs, uint64_t want)
{
    struct check k = {want, 0};
    struct pz_scale_sink sink = {sr_no_comms, check_message, &k};
    char err[512] = "";

    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    cr_expect_eq(k.messages, (size_t)(nprocs - 1) * ITERS * 2);
}

Test(scale_sizemean, sizes_that_spread_between_processes_are_given_their_mean)
{
    struct sr_recorded r;

    sr_record_at(&r, counts_2_4_8, 1, NULL, chain, (void *)(uintptr_t)spread);
    /* means 320, 160, 80 at 2, 4, 8: exactly 640 / P, in whole bytes.
     * At 16: 640 / 16 = 40 (the largest, 320, 240, 120, falls more slowly).
     * At 12: 640 / 12 = 53.33: 53 (56 in whole multiples of the divisor, 8 bytes).
     * At 48: 640 / 48 = 13.33: 13.
     * The note gives the spread at the most processes: 40 to 120 bytes at 8. */
    expect_sizes(r.m, 16, 40);
    expect_sizes(r.m, 12, 53);
    expect_sizes(r.m, 48, 13);
    cr_expect(scale_noted(r.m, "differs between processes of a recording as the data decide "
                         "(from 40 to 120 bytes at 8 processes): the mean is used"));
    cr_expect(!scale_noted(r.m, "the largest is used"));
    sr_recorded_free(&r);
}

Test(scale_sizemean, sizes_of_100_to_400_bytes_give_their_mean_not_400)
{
    struct sr_recorded r;

    sr_record_at(&r, counts_2_4_8, 1, NULL, chain, (void *)(uintptr_t)around_250);
    /* the means, 250 at 2, 4 and 8, are the constant 250: 250 at every count (the
     * largest, 250, 400, 400, would give about 400). */
    expect_sizes(r.m, 16, 250);
    expect_sizes(r.m, 64, 250);
    cr_expect(scale_noted(r.m, "(from 100 to 400 bytes at 8 processes): the mean is used, 250"));
    sr_recorded_free(&r);
}

Test(scale_sizemean, an_uneven_split_keeps_the_largest)
{
    struct sr_recorded r;

    sr_record_at(&r, counts_2_4_8, 1, NULL, chain, (void *)(uintptr_t)uneven);
    /* the largest, 808, 408, 208 at 2, 4, 8, is exactly 8 + 1600 / P:
     * at 16: 8 + 100 = 108; at 5: 8 + 320 = 328.  (The means, 808, 405.3 and 201.1,
     * would give other sizes; the blocks 8 ceil(201 / P) fit the three as exactly and
     * would give 104 at 16, but they are tried only where no form of P fits exactly,
     * replay/scale_numbers.c.) */
    expect_sizes(r.m, 16, 108);
    expect_sizes(r.m, 5, 328);
    cr_expect(scale_noted(r.m, "differs between processes of a recording: the largest is used"));
    cr_expect(!scale_noted(r.m, "the mean is used"));
    sr_recorded_free(&r);
}
