/* Nonblocking neighbourhood collectives of the scaling (replay/scale_nbrsizes.c): a halo
 * exchange whose every iteration starts one MPI_Ineighbor_alltoallv, computes, and
 * completes it with MPI_Waitall, recorded by hand (scale_runs.h) at 2, 4 and 8
 * processes as the reading makes it (the completion's neighbour table by offset, a
 * periodic dimension of 2 showing both neighbours at one offset), synthesized at 16.
 * Every process of the synthesized run must make exactly ITERS pairs of calls, each
 * completion completing the request of the call before it, with the per-peer lists of
 * the neighbours it has at 16 and their sums as its bytes, all worked out by hand below
 * on MPI_Dims_create's layouts (16: 16 in 1-D, 4 x 4 in 2-D, rank 4 x + y).  Then the
 * sizes of boundary processes that differ by their position are fitted per position
 * class. */
#include <criterion/criterion.h>
#include <otf2/OTF2_Events.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "scale_runs.h"
#include "trace.h"
#include "model_notes.h"

#define C 0.004       /* s: the computation of one iteration on one process; C / P at P */
#define ITERS 3
#define ROW_X 1024    /* bytes to and from each neighbour along dimension 0 */
#define ROW_Y 512     /* ... along dimension 1 */
#define P16 16

/* What the exchange moves: along dimension 1, the processes first along dimension 0
 * (x = 0) move `first_y` bytes instead of ROW_Y when nonzero (a boundary layer), which
 * their neighbours along dimension 1, first along dimension 0 too, move back; with
 * `odd_at_8`, at 8 processes those at x = 1 move 2 ROW_Y along dimension 1.  The
 * exchange is completed by MPI_Waitall, or by MPI_Wait with `by_wait`. */
struct shape {
    uint64_t first_y;
    int odd_at_8, by_wait;
};

static uint64_t size_to(const struct sr_run *b, const struct shape *sh, const int *c,
                        const int *off)
{
    if (off[0])
        return ROW_X;
    if (sh && sh->first_y && c[0] == 0)
        return sh->first_y;
    return sh && sh->odd_at_8 && b->run.nprocs == 8 && c[0] == 1 ? 2 * ROW_Y : ROW_Y;
}

/* Offset code (scale_run.h) of off. */
static int code_of(const int *off)
{
    return (off[0] + 1) * 9 + (off[1] + 1) * 3 + off[2] + 1;
}

/* One iteration at process p at c: the start (its request), C / P of computation, the
 * completion with the neighbour table of the neighbours p has, each at the offset a
 * recording shows. */
static void exchange(struct sr_run *b, int p, const int *c, const struct shape *sh)
{
    static const int steps[4][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}};
    struct pz_scale_process *proc = &b->run.procs[p];
    struct pz_scale_event e = {.kind = PZ_REC_NBC_REQUEST, .comm = SR_WORLD, .posted_by = -1};
    struct sr_truth truth = {-1, 0, b->run.nprocs, 1, -1};
    struct pz_scale_nbr *t;
    uint64_t total = 0;

    proc->nbrs = realloc(proc->nbrs, (proc->nnbrs + 1) * sizeof(*proc->nbrs));
    cr_assert_not_null(proc->nbrs);
    t = memset(&proc->nbrs[proc->nnbrs], 0, sizeof(*t));
    for (int s = 0; s < 2 * b->run.grid.ndims; s++) {
        int shown[3];

        if (sr_rank_at(b, c, steps[s]) < 0)
            continue;
        sr_recorded_offset(b, c, steps[s], shown);
        t->sent[code_of(shown)] += size_to(b, sh, c, steps[s]);
        t->received[code_of(shown)] += size_to(b, sh, c, steps[s]);
        total += size_to(b, sh, c, steps[s]);
    }
    sr_step(b, p, PZ_SCALE_CALL, SR_INEIGHBOR, C / b->run.nprocs);
    sr_event(b, p, &e, &truth);
    sr_step(b, p, PZ_SCALE_CALL, sh && sh->by_wait ? SR_WAIT : SR_WAITALL, C / b->run.nprocs);
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
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++)
        exchange(b, p, c, arg);
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

static const int counts_2_4_8[3] = {2, 4, 8};

/* --- a sink keeping every record of every process */

struct kept {
    struct pz_rec *recs[P16];
    size_t n[P16], cap[P16];
};

static int keep(void *ctx, int proc, const struct pz_rec *rec)
{
    struct kept *k = ctx;

    cr_assert(proc >= 0 && proc < P16, "process %d", proc);
    if (k->n[proc] == k->cap[proc]) {
        k->cap[proc] = k->cap[proc] * 2 + 16;
        k->recs[proc] = realloc(k->recs[proc], k->cap[proc] * sizeof(struct pz_rec));
        cr_assert_not_null(k->recs[proc]);
    }
    k->recs[proc][k->n[proc]++] = *rec;
    return 0;
}

/* The n entries of list i of s into v. */
static void parse_list(const struct pz_scale_synth *s, uint32_t i, uint64_t *v, int n)
{
    uint32_t nt;
    const char *const *texts = pz_scale_synth_lists(s, &nt);
    const char *text;
    char *end;

    cr_assert(i < nt, "list %u of %u", i, nt);
    text = texts[i];
    for (int j = 0; j < n; j++, text = end + (*end == ',')) {
        v[j] = strtoull(text, &end, 10);
        cr_assert(end != text, "entry %d of \"%s\"", j, texts[i]);
    }
    cr_assert_eq(*text, '\0', "more than %d entries in \"%s\"", n, texts[i]);
}

/* Record `at` of process p is the Enter or Leave of region. */
static void expect_region(const struct kept *k, int p, size_t at, uint8_t kind, uint32_t region)
{
    cr_assert(at < k->n[p], "process %d: %zu records, expected more", p, k->n[p]);
    cr_expect(k->recs[p][at].kind == kind && k->recs[p][at].region == region,
              "process %d record %zu: kind %u region %u, expected kind %u region %u", p, at,
              k->recs[p][at].kind, k->recs[p][at].region, kind, region);
}

/* The synthesized run of m at 16 against want[p][q]: what process p sends to and
 * receives from q at every completion.  Each process: the interval's Enter, ITERS times
 * (Enter, request, Leave) of MPI_Ineighbor_alltoallv and (Enter, completion of that
 * request, Leave) of `wait`, the interval's Leave, nothing else. */
static void check_run(const struct pz_scale_program *m, uint64_t want[P16][P16],
                      uint32_t wait)
{
    struct kept k = {0};
    struct pz_scale_synth *s;
    char err[512] = "";

    cr_assert_not_null(s = pz_scale_synth_new(m, P16, err, sizeof(err)), "%s", err);
    cr_assert_eq(pz_scale_synth_all(s, keep, &k, err, sizeof(err)), 0, "%s", err);
    for (int p = 0; p < P16; p++) {
        uint64_t total = 0;

        for (int q = 0; q < P16; q++)
            total += want[p][q];
        cr_expect_eq(k.n[p], 2 + 6 * ITERS, "process %d: %zu records", p, k.n[p]);
        expect_region(&k, p, 0, PZ_REC_ENTER, SR_INTERVAL);
        for (int i = 0; i < ITERS; i++) {
            size_t at = 1 + 6 * (size_t)i;
            const struct pz_rec *req = &k.recs[p][at + 1], *done = &k.recs[p][at + 4];
            uint64_t got[2][P16];

            expect_region(&k, p, at, PZ_REC_ENTER, SR_INEIGHBOR);
            expect_region(&k, p, at + 2, PZ_REC_LEAVE, SR_INEIGHBOR);
            expect_region(&k, p, at + 3, PZ_REC_ENTER, wait);
            expect_region(&k, p, at + 5, PZ_REC_LEAVE, wait);
            cr_assert_eq(req->kind, PZ_REC_NBC_REQUEST, "process %d iteration %d", p, i);
            cr_assert_eq(done->kind, PZ_REC_NBC_COMPLETE, "process %d iteration %d", p, i);
            cr_expect_eq(done->request, req->request, "process %d iteration %d", p, i);
            cr_expect_eq(done->comm, 0, "process %d: on the world", p);
            parse_list(s, done->send_list, got[0], P16);
            parse_list(s, done->recv_list, got[1], P16);
            for (int q = 0; q < P16; q++)
                cr_expect(got[0][q] == want[p][q] && got[1][q] == want[p][q],
                          "process %d to/from %d: %llu/%llu, not %llu", p, q,
                          (unsigned long long)got[0][q], (unsigned long long)got[1][q],
                          (unsigned long long)want[p][q]);
            cr_expect(done->bytes == total && done->bytes2 == total,
                      "process %d: %llu/%llu bytes, not %llu", p,
                      (unsigned long long)done->bytes, (unsigned long long)done->bytes2,
                      (unsigned long long)total);
        }
        expect_region(&k, p, 1 + 6 * ITERS, PZ_REC_LEAVE, SR_INTERVAL);
        free(k.recs[p]);
    }
    pz_scale_synth_free(s);
}

/* Records prog at 2, 4 and 8 in ndims dimensions (periodic as given) and checks its
 * run at 16 against want; no note says a size was taken as the largest. */
static void check_exchange(int ndims, const uint8_t *periodic, struct shape *sh,
                           uint64_t want[P16][P16])
{
    struct sr_recorded r;

    sr_record_at(&r, counts_2_4_8, ndims, periodic, prog_exchange, sh);
    cr_expect(!scale_noted(r.m, "the largest is used"), "a size was taken as the largest");
    check_run(r.m, want, sh && sh->by_wait ? SR_WAIT : SR_WAITALL);
    sr_recorded_free(&r);
}

/* The 1-D exchange, not periodic, at 16: process p sends ROW_X to p - 1 and p + 1
 * where they exist. */
static void want_1d_not_periodic(uint64_t want[P16][P16])
{
    for (int p = 0; p < P16; p++) {
        if (p > 0)
            want[p][p - 1] = ROW_X;
        if (p < P16 - 1)
            want[p][p + 1] = ROW_X;
    }
}

/* 1-D, not periodic: process p sends ROW_X to p - 1 and p + 1 where they exist: 0 to 1
 * only, 15 to 14 only (ROW_X in all), 1 .. 14 to both (2 ROW_X). */
Test(scale_nbr, a_1d_exchange_not_periodic)
{
    uint64_t want[P16][P16] = {{0}};

    want_1d_not_periodic(want);
    cr_expect(want[0][1] == ROW_X && want[0][15] == 0 && want[15][14] == ROW_X);
    check_exchange(1, NULL, NULL, want);
}

/* The same completed by MPI_Wait, whose completion is part of its step: the same. */
Test(scale_nbr, a_1d_exchange_completed_by_mpi_wait)
{
    struct shape sh = {0, 0, 1};
    uint64_t want[P16][P16] = {{0}};

    want_1d_not_periodic(want);
    check_exchange(1, NULL, &sh, want);
}

/* 1-D, periodic: at 2 processes both neighbours of each are the other, shown at one
 * offset with 2 ROW_X (+1 from process 0, -1 from process 1): that recording does not
 * tell the offsets' sizes and is left out; 4 and 8 show ROW_X at each.  At 16 process
 * p sends ROW_X to (p + 15) mod 16 and (p + 1) mod 16: 0 to 15 and 1, 15 to 14 and 0. */
Test(scale_nbr, a_1d_exchange_periodic)
{
    static const uint8_t periodic[3] = {1, 0, 0};
    uint64_t want[P16][P16] = {{0}};

    for (int p = 0; p < P16; p++) {
        want[p][(p + P16 - 1) % P16] = ROW_X;
        want[p][(p + 1) % P16] = ROW_X;
    }
    cr_expect(want[0][15] == ROW_X && want[15][0] == ROW_X);
    check_exchange(1, periodic, NULL, want);
}

/* The neighbours at 16 in the 4 x 4 grid (rank 4 x + y) of process p: ROW_X to x - 1
 * and x + 1 (wrapped round when periodic_x), y_size(x) to y - 1 and y + 1 where they
 * exist. */
static void grid_4x4(uint64_t want[P16][P16], int periodic_x, const uint64_t *y_size)
{
    for (int p = 0; p < P16; p++) {
        int x = p / 4, y = p % 4;

        for (int dx = -1; dx <= 1; dx += 2)
            if (periodic_x || (x + dx >= 0 && x + dx < 4))
                want[p][(x + dx + 4) % 4 * 4 + y] = ROW_X;
        for (int dy = -1; dy <= 1; dy += 2)
            if (y + dy >= 0 && y + dy < 4)
                want[p][p + dy] = y_size[x];
    }
}

/* 2-D, not periodic, recorded in 2 x 1, 2 x 2 and 4 x 2: at 16 process 5 at (1, 1)
 * sends ROW_X to 1 and 9, ROW_Y to 4 and 6; process 0 at (0, 0) ROW_X to 4, ROW_Y to 1;
 * process 15 at (3, 3) ROW_X to 11, ROW_Y to 14. */
Test(scale_nbr, a_2d_exchange_not_periodic)
{
    static const uint64_t y_size[4] = {ROW_Y, ROW_Y, ROW_Y, ROW_Y};
    uint64_t want[P16][P16] = {{0}};

    grid_4x4(want, 0, y_size);
    cr_expect(want[5][1] == ROW_X && want[5][9] == ROW_X && want[5][4] == ROW_Y &&
              want[5][6] == ROW_Y && want[0][4] == ROW_X && want[0][1] == ROW_Y &&
              want[15][11] == ROW_X && want[15][14] == ROW_Y && want[0][12] == 0);
    check_exchange(2, NULL, NULL, want);
}

/* 2-D, periodic along dimension 0 only: it has 2 processes at 2 and 4 (2 x 1, 2 x 2),
 * which do not tell the sizes along it, and 4 at 8 (4 x 2), which shows ROW_X.  At 16
 * process 0 at (0, 0) sends ROW_X to 4 and round to 12, ROW_Y to 1; process 13 at
 * (3, 1) ROW_X to 9 and round to 1, ROW_Y to 12 and 14. */
Test(scale_nbr, a_2d_exchange_periodic_along_one_dimension)
{
    static const uint8_t periodic[3] = {1, 0, 0};
    static const uint64_t y_size[4] = {ROW_Y, ROW_Y, ROW_Y, ROW_Y};
    uint64_t want[P16][P16] = {{0}};

    grid_4x4(want, 1, y_size);
    cr_expect(want[0][4] == ROW_X && want[0][12] == ROW_X && want[0][1] == ROW_Y &&
              want[13][9] == ROW_X && want[13][1] == ROW_X && want[13][12] == ROW_Y &&
              want[13][14] == ROW_Y);
    check_exchange(2, periodic, NULL, want);
}

/* 2-D, not periodic, the processes first along dimension 0 (x = 0) moving 3 ROW_Y to
 * their neighbours along dimension 1, the others ROW_Y.  At 4 (2 x 2) process 0 at
 * (0, 0) moves 3 ROW_Y to +1 along dimension 1, process 2 at (1, 0) ROW_Y: the sizes
 * differ, and the classes of position along dimension 0 alone tell them apart (first:
 * 3 ROW_Y at 4 and 8; last: ROW_Y at 4 and 8; middle: ROW_Y at 8 only, a third of the
 * largest there, 3 ROW_Y).  At 16 the first row (processes 0 to 3) moves 3 ROW_Y along
 * dimension 1, the middle rows (4 to 11) a third of the largest, 3 ROW_Y / 3 = ROW_Y,
 * the last (12 to 15) ROW_Y; one value for all would have given 3 ROW_Y everywhere. */
Test(scale_nbr, boundary_sizes_are_fitted_per_position_class)
{
    static const uint64_t y_size[4] = {3 * ROW_Y, ROW_Y, ROW_Y, ROW_Y};
    struct shape sh = {3 * ROW_Y, 0, 0};
    uint64_t want[P16][P16] = {{0}};

    grid_4x4(want, 0, y_size);
    cr_expect(want[1][0] == 3 * ROW_Y && want[1][2] == 3 * ROW_Y && want[5][4] == ROW_Y &&
              want[13][14] == ROW_Y && want[1][5] == ROW_X);
    check_exchange(2, NULL, &sh, want);
}

/* The 2-D exchange whose sizes at 8 differ within every class of position: processes
 * 2 and 3 at (1, 0) and (1, 1) move 2 ROW_Y to each other, processes 4 and 5 at (2, 0)
 * and (2, 1) ROW_Y, both in the middle along dimension 0 and at the same places along
 * dimension 1.  No classes tell them apart: the mean over the processes is used, with a
 * note giving the spread at 8, ROW_Y to 2 ROW_Y (test_scale_nbrmean.c checks the
 * sizes). */
Test(scale_nbr, sizes_that_differ_within_a_class_take_the_mean)
{
    struct sr_recorded r;
    struct shape sh = {0, 1, 0};

    sr_record_at(&r, counts_2_4_8, 2, NULL, prog_exchange, &sh);
    cr_expect(scale_noted(r.m, "(from 512 to 1024 bytes at 8 processes): the mean over the "
                         "processes is used at each"), "no note of the mean");
    cr_expect(!scale_noted(r.m, "the largest is used"));
    sr_recorded_free(&r);
}
