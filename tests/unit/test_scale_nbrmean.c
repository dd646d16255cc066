/* Neighbourhood collectives whose sizes differ within every class of position
 * (replay/scale_nbrsizes.c): a 1-D halo exchange, not periodic, each iteration one
 * MPI_Ineighbor_alltoallv completed by MPI_Waitall, recorded by hand (scale_runs.h) at 4,
 * 8 and 16 processes, in which the pair of processes p and p + 1 exchange a size of
 * their own both ways (as a particle code's halos, the atoms near the face between
 * them).  The first process and the middle ones move different amounts to +1 and the
 * middle ones differ among themselves: no class of position (first, middle, last)
 * explains them, and each offset takes the mean over the processes that have that
 * neighbour, fitted over P, in whole bytes. */
#include <criterion/criterion.h>
#include <otf2/OTF2_Events.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "scale_runs.h"
#include "trace.h"
#include "model_notes.h"

#define C 0.004     /* s: the computation of one iteration on one process; C / P at P */
#define ITERS 2

static const int counts_4_8_16[3] = {4, 8, 16};

/* The size the pair (p, p + 1) of a run of P processes exchanges, each way.  The mean
 * over the P - 1 pairs is 2048 / P:
 *   at 4: 256, 512, 768 (1536 / 3 = 512);
 *   at 8: 128, 384, 256, 256, 128, 384, 256 (1792 / 7 = 256);
 *   at 16: 64 and 192 alternating, 7 of each, then 128 (1920 / 15 = 128).
 */
static uint64_t pair_size(int nprocs, int p)
{
    static const uint64_t at4[3] = {256, 512, 768};
    static const uint64_t at8[7] = {128, 384, 256, 256, 128, 384, 256};

    if (nprocs == 4)
        return at4[p];
    if (nprocs == 8)
        return at8[p];
    return p == 14 ? 128 : p % 2 ? 192 : 64;
}

/* Offset code (scale_run.h) of an offset along dimension 0 of a 1-D grid. */
static int code_of(int off)
{
    return (off + 1) * 9 + 1 * 3 + 1;
}

/* One iteration at process p: the start, C / P of computation, the completion with the
 * table of its neighbours, p - 1 and p + 1 where they exist. */
static void exchange(struct sr_run *b, int p, const int *c)
{
    struct pz_scale_process *proc = &b->run.procs[p];
    struct pz_scale_event e = {.kind = PZ_REC_NBC_REQUEST, .comm = SR_WORLD, .posted_by = -1};
    struct sr_truth truth = {-1, 0, b->run.nprocs, 1, -1};
    struct pz_scale_nbr *t;
    uint64_t total = 0;

    proc->nbrs = realloc(proc->nbrs, (proc->nnbrs + 1) * sizeof(*proc->nbrs));
    cr_assert_not_null(proc->nbrs);
    t = memset(&proc->nbrs[proc->nnbrs], 0, sizeof(*t));
    for (int off = -1; off <= 1; off += 2) {
        int step[3] = {off, 0, 0}, shown[3];
        uint64_t size;

        if (sr_rank_at(b, c, step) < 0)
            continue;
        sr_recorded_offset(b, c, step, shown);
        size = pair_size(b->run.nprocs, off < 0 ? p - 1 : p);
        t->sent[code_of(shown[0])] += size;
        t->received[code_of(shown[0])] += size;
        total += size;
    }
    sr_step(b, p, PZ_SCALE_CALL, SR_INEIGHBOR, C / b->run.nprocs);
    sr_event(b, p, &e, &truth);
    sr_step(b, p, PZ_SCALE_CALL, SR_WAITALL, C / b->run.nprocs);
    e.kind = PZ_REC_NBC_COMPLETE;
    e.coll_op = OTF2_COLLECTIVE_OP_ALLTOALLV;
    e.bytes = e.bytes2 = total;
    e.peer = (struct pz_scale_peer){.kind = PZ_SCALE_PEER_NEIGHBOURS,
                                    .rank = (int32_t)proc->nnbrs++};
    e.posted_by = truth.posted_by = 1;
    sr_event(b, p, &e, &truth);
}

static void prog_exchange(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++)
        exchange(b, p, c);
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

/* Every completion synthesized must total `each` bytes per neighbour both ways: `each`
 * at the two ends, 2 `each` in the middle. */
struct check {
    int nprocs;
    uint64_t each;
    size_t completions;
};

static int check_completion(void *ctx, int proc, const struct pz_rec *rec)
{
    struct check *k = ctx;
    uint64_t want = (proc == 0 || proc == k->nprocs - 1 ? 1 : 2) * k->each;

    if (rec->kind != PZ_REC_NBC_COMPLETE)
        return 0;
    cr_expect(rec->bytes == want && rec->bytes2 == want, "process %d: %llu/%llu, not %llu",
              proc, (unsigned long long)rec->bytes, (unsigned long long)rec->bytes2,
              (unsigned long long)want);
    k->completions++;
    return 0;
}

static void expect_each(const struct pz_scale_program *m, int nprocs, uint64_t each)
{
    struct check k = {nprocs, each, 0};
    struct pz_scale_sink sink = {sr_no_comms, check_completion, &k};
    char err[512] = "";

    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    cr_expect_eq(k.completions, (size_t)nprocs * ITERS);
}

Test(scale_nbrmean, sizes_that_differ_within_every_class_take_their_mean)
{
    struct sr_recorded r;

    sr_record_at(&r, counts_4_8_16, 1, NULL, prog_exchange, NULL);
    /* at +1 the processes 0 .. P - 2 send (and receive) the pairs' sizes, at -1 the
     * processes 1 .. P - 1 the same sizes: means 512, 256, 128 at 4, 8, 16 both ways,
     * exactly 2048 / P.
     * At 32: 2048 / 32 = 64 bytes to each neighbour.
     * At 12: 2048 / 12 = 170.67: 171 bytes (the largest, 768, 384, 192 = 3072 / P,
     *   would give 256).
     * The note gives the spread at 16: 64 to 192 bytes. */
    expect_each(r.m, 32, 64);
    expect_each(r.m, 12, 171);
    cr_expect(scale_noted(r.m, "which no position in the grid explains (from 64 to 192 bytes at "
                         "16 processes): the mean over the processes is used at each"));
    cr_expect(!scale_noted(r.m, "the largest is used"));
    sr_recorded_free(&r);
}
