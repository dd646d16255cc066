/* The v collectives of the scaling (replay/scale_vsizes.c) whose members move different
 * amounts, or even shares of a block distribution that larger counts split unevenly:
 * programs recorded by hand (scale_runs.h), an iteration loop of ITERS trips
 * of a Gatherv or a Scatterv rooted at rank 0, synthesized at larger counts and checked
 * process by process against what the program does there, the root's total against
 * the sum of what the others move, and a few sizes worked out by hand below.  Sizes
 * that differ within a class of position follow the data: their mean is fitted and the
 * recorded spread drawn around it, with a note; sizes that follow the classes where
 * some class was never recorded keep the largest.  The synthesized records carry the
 * per-peer lists of each collective's pairs, whose making from the members' sizes is
 * checked on sizes worked out by hand.  A neighbourhood collective (an Alltoallv whose
 * lists name the neighbours in the grid) gets lists with its sizes at the neighbours
 * each process has in the larger grid, worked out by hand. */
#include <criterion/criterion.h>
#include <otf2/OTF2_Events.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "scale_runs.h"
#include "trace.h"
#include "model_notes.h"

#define C 0.004     /* s: the computation of one iteration on one process; C / P at P */
#define ITERS 3

/* --- a sink keeping every process's collective ends */

struct collected {
    struct pz_rec **ends;      /* [proc]: its COLL_END records in order */
    size_t *n, *cap;
    int nprocs;
};

static int keep_end(void *ctx, int proc, const struct pz_rec *rec)
{
    struct collected *c = ctx;

    if (rec->kind != PZ_REC_COLL_END)
        return 0;
    if (c->n[proc] == c->cap[proc]) {
        c->cap[proc] = c->cap[proc] * 2 + 4;
        c->ends[proc] = realloc(c->ends[proc], c->cap[proc] * sizeof(struct pz_rec));
    }
    c->ends[proc][c->n[proc]++] = *rec;
    return 0;
}

static struct collected *synthesize(const struct pz_scale_program *m, int nprocs)
{
    struct collected *c = calloc(1, sizeof(*c));
    struct pz_scale_sink sink = {sr_no_comms, keep_end, c};
    char err[512] = "";

    c->nprocs = nprocs;
    c->ends = calloc((size_t)nprocs, sizeof(*c->ends));
    c->n = calloc((size_t)nprocs, sizeof(size_t));
    c->cap = calloc((size_t)nprocs, sizeof(size_t));
    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    return c;
}

/* The same, with the synthesis's per-peer lists: *s, to be freed. */
static struct collected *synthesize_lists(const struct pz_scale_program *m, int nprocs,
                                          struct pz_scale_synth **s)
{
    struct collected *c = calloc(1, sizeof(*c));
    char err[512] = "";

    c->nprocs = nprocs;
    c->ends = calloc((size_t)nprocs, sizeof(*c->ends));
    c->n = calloc((size_t)nprocs, sizeof(size_t));
    c->cap = calloc((size_t)nprocs, sizeof(size_t));
    cr_assert_not_null(*s = pz_scale_synth_new(m, nprocs, err, sizeof(err)), "%s", err);
    cr_assert_eq(pz_scale_synth_all(*s, keep_end, c, err, sizeof(err)), 0, "%s", err);
    return c;
}

/* The text of list number i of s. */
static const char *list_text(const struct pz_scale_synth *s, uint32_t i)
{
    uint32_t n;
    const char *const *texts = pz_scale_synth_lists(s, &n);

    cr_assert(i < n, "list %u of %u", i, n);
    return texts[i];
}

/* The n entries of list text into v. */
static void parse_list(const char *text, uint64_t *v, uint32_t n)
{
    char *end;

    for (uint32_t j = 0; j < n; j++, text = end + (*end == ',')) {
        v[j] = strtoull(text, &end, 10);
        cr_assert(end != text, "entry %u of \"%s\"", j, text);
    }
    cr_assert_eq(*text, '\0', "more than %u entries", n);
}

static void collected_free(struct collected *c)
{
    for (int p = 0; p < c->nprocs; p++)
        free(c->ends[p]);
    free(c->ends);
    free(c->n);
    free(c->cap);
    free(c);
}

/* --- recording and checking */

/* Every process's collective ends in c against the program's at c's count: the same
 * sizes sent and received. */
static void check_sizes(const struct collected *c, int ndims, sr_program prog)
{
    struct sr_run *truth = sr_build("truth", c->nprocs, ndims, NULL, prog, NULL);

    for (int p = 0; p < c->nprocs; p++) {
        const struct pz_scale_process *tp = &truth->run.procs[p];
        size_t at = 0;

        for (size_t i = 0; i < tp->nevents; i++) {
            const struct pz_scale_event *e = &tp->events[i];

            if (e->kind != PZ_REC_COLL_END)
                continue;
            cr_assert(at < c->n[p], "process %d: %zu collectives, expected more", p, c->n[p]);
            cr_expect_eq(c->ends[p][at].bytes, e->bytes, "process %d of %d, collective %zu: "
                         "sends %llu, expected %llu", p, c->nprocs, at,
                         (unsigned long long)c->ends[p][at].bytes,
                         (unsigned long long)e->bytes);
            cr_expect_eq(c->ends[p][at].bytes2, e->bytes2, "process %d of %d, collective "
                         "%zu: receives %llu, expected %llu", p, c->nprocs, at,
                         (unsigned long long)c->ends[p][at].bytes2,
                         (unsigned long long)e->bytes2);
            at++;
        }
        cr_expect_eq(at, c->n[p], "process %d: %zu collectives, expected %zu", p, c->n[p], at);
    }
    sr_free(truth);
}

/* The root's total in the first collective of c: the sum of what the others moved (w:
 * 0 they sent it, 1 they received it). */
static void check_root_total(const struct collected *c, int w)
{
    uint64_t sum = 0, total = w ? c->ends[0][0].bytes : c->ends[0][0].bytes2;

    for (int p = 1; p < c->nprocs; p++)
        sum += w ? c->ends[p][0].bytes2 : c->ends[p][0].bytes;
    cr_expect_eq(total, sum, "at %d: the root moves %llu, the others %llu", c->nprocs,
                 (unsigned long long)total, (unsigned long long)sum);
}

/* A collective of operation op over the world rooted at rank 0, of the sizes given. */
static void rooted(struct sr_run *b, int p, uint32_t region, uint8_t op, uint64_t sent,
                   uint64_t received)
{
    struct pz_scale_event e = {.kind = PZ_REC_COLL_BEGIN, .comm = SR_WORLD, .posted_by = -1};
    struct sr_truth t = {-1, 0, b->run.nprocs, 1, -1};

    sr_step(b, p, PZ_SCALE_CALL, region, C / b->run.nprocs);
    sr_event(b, p, &e, &t);
    e.kind = PZ_REC_COLL_END;
    e.coll_op = op;
    e.bytes = sent;
    e.bytes2 = received;
    e.peer.kind = PZ_SCALE_PEER_RANK;
    e.peer.rank = 0;
    t.peer = 0;
    sr_event(b, p, &e, &t);
}

/* A program of ITERS calls of body in an interval. */
static void iterations(struct sr_run *b, int p, const int *c,
                       void (*body)(struct sr_run *, int, const int *))
{
    sr_step(b, p, PZ_SCALE_BEGIN, SR_INTERVAL, 0);
    for (int i = 0; i < ITERS; i++)
        body(b, p, c);
    sr_step(b, p, PZ_SCALE_END, SR_INTERVAL, 0);
}

static const int counts_2_4_8[3] = {2, 4, 8};

/* --- a block distribution gathered: ROWS rows of ROW bytes over P processes, rank i
 * holding ROWS / P rows and one more when i < ROWS mod P; the root gathers the others'
 * (the region's name does not matter to the model: MPI_Reduce's stands for
 * MPI_Gatherv's) */

#define ROWS 103
#define ROW 8

/* The rows of `total` that rank holds of nprocs in a block distribution. */
static uint64_t block_rows(int total, int rank, int nprocs)
{
    return (uint64_t)(total / nprocs + (rank < total % nprocs));
}

static uint64_t rows_of(int rank, int nprocs)
{
    return block_rows(ROWS, rank, nprocs);
}

static void gather_rows(struct sr_run *b, int p, const int *c)
{
    int P = b->run.nprocs;
    uint64_t others = ROW * (ROWS - rows_of(0, P));

    (void)c;
    rooted(b, p, SR_REDUCE, OTF2_COLLECTIVE_OP_GATHERV, p ? ROW * rows_of(p, P) : 0,
           p ? 0 : others);
}

static void prog_gather_rows(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, gather_rows);
}

Test(scale_vsizes, a_gatherv_of_a_block_distribution_gives_each_rank_its_rows)
{
    struct sr_recorded r;

    /* recorded: at 2, 103 = 51 * 2 + 1: rank 1 sends 51 rows, 408 bytes, the root gets
     * 408 (one size among the others: it tells no distribution, only checks it).  At 4,
     * 103 = 25 * 4 + 3: ranks 1, 2 send 26 rows (208 bytes), rank 3 25 (200): the unit
     * is 208 - 200 = 8 bytes, 25 rows each and one more for ranks 0 to 2, N = 25 * 4 +
     * 3 = 103; the root gets 616.  At 8, 103 = 12 * 8 + 7: ranks 1 to 6 send 13 rows
     * (104 bytes), rank 7 12 (96): N = 12 * 8 + 7 = 103, the root gets 6 * 104 + 96 =
     * 720.  N is 103 at every count */
    sr_record_at(&r, counts_2_4_8, 1, NULL, prog_gather_rows, NULL);
    cr_expect(scale_noted(r.m, "block distribution of N = 103 items of 8 bytes"));
    cr_expect(!scale_noted(r.m, "the largest is used"));
    for (int P = 16; P <= 64; P *= 4) {
        struct collected *c = synthesize(r.m, P);

        check_sizes(c, 1, prog_gather_rows);
        check_root_total(c, 0);
        if (P == 16) {
            /* 103 = 6 * 16 + 7: ranks 1 to 6 send 7 rows, 56 bytes, ranks 7 to 15 6 rows,
             * 48 bytes; the root gets 6 * 56 + 9 * 48 = 336 + 432 = 768 = 8 * 103 - 56,
             * its own 7 rows left out */
            cr_expect_eq(c->ends[6][0].bytes, 56);
            cr_expect_eq(c->ends[7][0].bytes, 48);
            cr_expect_eq(c->ends[15][0].bytes, 48);
            cr_expect_eq(c->ends[0][0].bytes, 0);
            cr_expect_eq(c->ends[0][0].bytes2, 768);
        } else {
            /* 103 = 1 * 64 + 39: ranks 1 to 38 send 2 rows, 16 bytes, ranks 39 to 63 one,
             * 8 bytes; the root gets 38 * 16 + 25 * 8 = 608 + 200 = 808 = 824 - 16 */
            cr_expect_eq(c->ends[38][0].bytes, 16);
            cr_expect_eq(c->ends[39][0].bytes, 8);
            cr_expect_eq(c->ends[63][2].bytes, 8);
            cr_expect_eq(c->ends[0][2].bytes2, 808);
        }
        collected_free(c);
    }
    sr_recorded_free(&r);
}

/* `total` rows in a block distribution gathered by every process (MPI_Allgatherv, no
 * root): each sends its rows to each of the P - 1 others and receives all the
 * others' */
static void allgather_block(struct sr_run *b, int p, int total)
{
    struct pz_scale_event e = {.kind = PZ_REC_COLL_BEGIN, .comm = SR_WORLD, .posted_by = -1};
    int P = b->run.nprocs;
    struct sr_truth t = {-1, 0, P, 1, -1};
    uint64_t own = block_rows(total, p, P);

    sr_step(b, p, PZ_SCALE_CALL, SR_ALLTOALL, C / P);
    sr_event(b, p, &e, &t);
    e.kind = PZ_REC_COLL_END;
    e.coll_op = OTF2_COLLECTIVE_OP_ALLGATHERV;
    e.bytes = (uint64_t)(P - 1) * ROW * own;
    e.bytes2 = ROW * ((uint64_t)total - own);
    sr_event(b, p, &e, &t);
}

/* The same ROWS rows gathered by every process. */
static void allgather_rows(struct sr_run *b, int p, const int *c)
{
    (void)c;
    allgather_block(b, p, ROWS);
}

static void prog_allgather_rows(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, allgather_rows);
}

Test(scale_vsizes, an_allgatherv_of_a_block_distribution_gives_each_rank_its_rows)
{
    struct sr_recorded r;
    struct collected *c;

    /* recorded: at 4, ranks 0 to 2 send 26 rows to 3 others, 624 bytes, and receive 103
     * - 26 = 77 rows, 616 bytes; rank 3 sends 25 * 3 * 8 = 600 and receives 78 rows, 624
     * bytes; the rows 26 and 25, 13 and 12 at 8, tell N = 103 as for the Gatherv */
    sr_record_at(&r, counts_2_4_8, 1, NULL, prog_allgather_rows, NULL);
    cr_expect(scale_noted(r.m, "block distribution of N = 103 items of 8 bytes"));
    c = synthesize(r.m, 16);
    check_sizes(c, 1, prog_allgather_rows);
    /* at 16: rank 6 sends its 7 rows to 15 others, 7 * 8 * 15 = 840 bytes, and receives
     * 96 rows, 768 bytes; rank 7 sends 6 * 8 * 15 = 720 and receives 97 rows, 776 */
    cr_expect(c->ends[6][0].bytes == 840 && c->ends[6][0].bytes2 == 768);
    cr_expect(c->ends[7][0].bytes == 720 && c->ends[7][0].bytes2 == 776);
    collected_free(c);
    sr_recorded_free(&r);
}

/* --- a block distribution of EVEN_ROWS rows, which 2, 4 and 8 divide: at every
 * recorded count each process gathers the same number of rows from each */

#define EVEN_ROWS 1000

static void allgather_even(struct sr_run *b, int p, const int *c)
{
    (void)c;
    allgather_block(b, p, EVEN_ROWS);
}

static void prog_allgather_even(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, allgather_even);
}

Test(scale_vsizes, an_allgatherv_split_evenly_where_recorded_gives_blocks_where_not)
{
    struct sr_recorded r;
    struct collected *c;

    /* recorded: 500, 250 and 125 rows of 8 bytes each at 2, 4 and 8, every share
     * 4000, 2000 and 1000 bytes, which 8 divides: N = 500 * 2 = 250 * 4 = 125 * 8 = 1000
     * items of 8 bytes (before, the shares were 8000 / P bytes: 500 at 16, 62.5 rows) */
    sr_record_at(&r, counts_2_4_8, 1, NULL, prog_allgather_even, NULL);
    cr_expect(scale_noted(r.m, "even share in every recording, taken as a block "
                               "distribution of N = 1000 items of 8 bytes"));
    c = synthesize(r.m, 16);
    check_sizes(c, 1, prog_allgather_even);
    /* at 16, 1000 = 62 * 16 + 8: rank 7 sends its 63 rows to 15 others, 63 * 8 * 15 =
     * 7560 bytes, and receives 937 rows, 7496; rank 8 sends 62 * 8 * 15 = 7440 and
     * receives 938 rows, 7504 */
    cr_expect(c->ends[7][0].bytes == 7560 && c->ends[7][0].bytes2 == 7496);
    cr_expect(c->ends[8][0].bytes == 7440 && c->ends[8][0].bytes2 == 7504);
    collected_free(c);
    c = synthesize(r.m, 64);
    check_sizes(c, 1, prog_allgather_even);
    /* at 64, 1000 = 15 * 64 + 40: rank 39 sends 16 rows to 63 others, 8064 bytes, and
     * receives 984 rows, 7872; rank 40 sends 15 * 8 * 63 = 7560 and receives 7880 */
    cr_expect(c->ends[39][0].bytes == 8064 && c->ends[39][0].bytes2 == 7872);
    cr_expect(c->ends[40][0].bytes == 7560 && c->ends[40][0].bytes2 == 7880);
    collected_free(c);
    sr_recorded_free(&r);
}

/* --- edge and interior blocks scattered: a 1-D domain of 65536 bytes per process's
 * share whose two edge processes own half a block (the boundary is not distributed):
 * 65536 / P bytes to each interior process, 32768 / P to the last; the root, the
 * first, keeps its own half block and sends the others theirs */

static uint64_t block_at(int p, int nprocs)
{
    return p == 0 || p == nprocs - 1 ? 32768 / (uint64_t)nprocs : 65536 / (uint64_t)nprocs;
}

static void scatter_blocks(struct sr_run *b, int p, const int *c)
{
    int P = b->run.nprocs;
    uint64_t others = 0;

    (void)c;
    for (int q = 1; q < P; q++)
        others += block_at(q, P);
    rooted(b, p, SR_BCAST, OTF2_COLLECTIVE_OP_SCATTERV, p ? 0 : others,
           p ? block_at(p, P) : 0);
}

static void prog_scatter_blocks(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, scatter_blocks);
}

Test(scale_vsizes, a_scatterv_of_edge_and_interior_blocks_gives_each_class_its_own)
{
    struct sr_recorded r;

    /* recorded: at 2, the last (rank 1) receives 16384; at 4, the interior ranks 1 and 2
     * 16384 and the last 8192; at 8, ranks 1 to 6 8192 and the last 4096: the interior
     * 65536 / P (at 4 and 8), the last 32768 / P (at 2, 4, 8), the first only the
     * root.  The root sends 16384, 40960 and 53248 */
    sr_record_at(&r, counts_2_4_8, 1, NULL, prog_scatter_blocks, NULL);
    cr_expect(scale_noted(r.m, "by their position in the grid"));
    cr_expect(!scale_noted(r.m, "the largest is used"));
    for (int P = 16; P <= 64; P *= 4) {
        struct collected *c = synthesize(r.m, P);

        check_sizes(c, 1, prog_scatter_blocks);
        check_root_total(c, 1);
        if (P == 16) {
            /* ranks 1 to 14 receive 65536 / 16 = 4096, rank 15 2048; the root sends
             * 14 * 4096 + 2048 = 59392 */
            cr_expect_eq(c->ends[1][0].bytes2, 4096);
            cr_expect_eq(c->ends[14][0].bytes2, 4096);
            cr_expect_eq(c->ends[15][0].bytes2, 2048);
            cr_expect_eq(c->ends[0][0].bytes, 59392);
            cr_expect_eq(c->ends[0][0].bytes2, 0);
        } else {
            /* ranks 1 to 62 receive 1024, rank 63 512; the root sends 62 * 1024 + 512 =
             * 64000 */
            cr_expect_eq(c->ends[62][1].bytes2, 1024);
            cr_expect_eq(c->ends[63][1].bytes2, 512);
            cr_expect_eq(c->ends[0][1].bytes, 64000);
        }
        collected_free(c);
    }
    sr_recorded_free(&r);
}

/* --- edges in two dimensions: a 2-D grid whose processes on an edge (first or last in
 * one dimension) gather 73728 / P bytes to the root, a corner's 36864 / P, the
 * interior's 147456 / P (147456 = 576 * 256, whole at every count below); recorded at 9
 * (3 x 3), 16 (4 x 4) and 36 (6 x 6), where every class has processes, synthesized at
 * 64 (8 x 8) */

static uint64_t cells_at(const struct sr_run *b, const int *c)
{
    int P = b->run.nprocs, edges = 0;

    for (int d = 0; d < 2; d++)
        edges += c[d] == 0 || c[d] == b->run.grid.dims[d] - 1;
    return (uint64_t)(147456 >> edges) / (uint64_t)P;
}

static void gather_cells(struct sr_run *b, int p, const int *c)
{
    uint64_t others = 0;

    for (int q = 1; q < b->run.nprocs; q++) {
        int at[3];

        pz_scale_grid_coords(&b->run.grid, q, at);
        others += cells_at(b, at);
    }
    rooted(b, p, SR_REDUCE, OTF2_COLLECTIVE_OP_GATHERV, p ? cells_at(b, c) : 0,
           p ? 0 : others);
}

static void prog_gather_cells(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, gather_cells);
}

Test(scale_vsizes, a_gatherv_of_a_2d_grid_gives_corners_edges_and_interior_their_own)
{
    static const int counts[3] = {9, 16, 36};
    struct sr_recorded r;
    struct collected *c;

    sr_record_at(&r, counts, 2, NULL, prog_gather_cells, NULL);
    cr_expect(scale_noted(r.m, "by their position in the grid"));
    c = synthesize(r.m, 64);
    check_sizes(c, 2, prog_gather_cells);
    check_root_total(c, 0);
    /* recorded at 9: the interior 16384, an edge 8192, a corner 4096; at 16: 9216, 4608,
     * 2304; at 36: 4096, 2048, 1024.  At 64, 8 x 8: the interior (rank 9, at 1,1)
     * 147456 / 64 = 2304 bytes, an edge (rank 1, at 0,1) 1152, a corner (rank 7, at
     * 0,7) 576.  The root (a corner) gets 3 corners' 576, 24 edges' 1152 (6 on each
     * side) and 36 interior 2304s: 1728 + 27648 + 82944 = 112320 */
    cr_expect_eq(c->ends[9][0].bytes, 2304);
    cr_expect_eq(c->ends[1][0].bytes, 1152);
    cr_expect_eq(c->ends[7][0].bytes, 576);
    cr_expect_eq(c->ends[0][0].bytes2, 112320);
    collected_free(c);
    sr_recorded_free(&r);
}

Test(scale_vsizes, a_2d_grid_recorded_without_a_middle_keeps_the_largest)
{
    struct sr_recorded r;

    /* at 2, 4 and 8 the grid is 2 x 1, 2 x 2 and 4 x 2: its second dimension is never
     * longer than 2, so that the interior and the edges across it are never recorded,
     * although they exist at 16 (4 x 4) */
    sr_record_at(&r, counts_2_4_8, 2, NULL, prog_gather_cells, NULL);
    cr_expect(scale_noted(r.m, "differs between processes of a recording: the largest is used"));
    cr_expect(!scale_noted(r.m, "by their position in the grid"));
    /* the processes of a class move one amount in each recording: their place, not the
       data, decides it */
    cr_expect(!scale_noted(r.m, "as the data decide"));
    sr_recorded_free(&r);
}

/* --- sizes of no pattern: the last rank gathers 12 bytes to the root, the other odd
 * ranks 8 and the even ones 16, 12 on the mean at every count (at 4: 8, 16, 12; at 8:
 * 8, 16, 8, 16, 8, 16, 12): neither a distribution (three amounts) nor one size per
 * class (the interior ranks 1 and 2 move 8 and 16) */

static uint64_t odd_size(int p, int nprocs)
{
    return p == nprocs - 1 ? 12 : p % 2 ? 8 : 16;
}

static void gather_odd(struct sr_run *b, int p, const int *c)
{
    uint64_t others = 0;

    (void)c;
    for (int q = 1; q < b->run.nprocs; q++)
        others += odd_size(q, b->run.nprocs);
    rooted(b, p, SR_REDUCE, OTF2_COLLECTIVE_OP_GATHERV, p ? odd_size(p, b->run.nprocs) : 0,
           p ? 0 : others);
}

static void prog_gather_odd(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, gather_odd);
}

Test(scale_vsizes, sizes_of_no_pattern_draw_the_recorded_spread_around_their_mean)
{
    struct sr_recorded r;
    struct collected *c;
    int seen[17] = {0};

    sr_record_at(&r, counts_2_4_8, 1, NULL, prog_gather_odd, NULL);
    cr_expect(scale_noted(r.m, "as the data decide"));
    cr_expect(scale_noted(r.m, "other than the root sends the mean, 12 bytes"),
              "the mean is 12 at 2, 4, 8");
    cr_expect(scale_noted(r.m, "at 8 processes the largest is 2 times the smallest"));
    cr_expect(!scale_noted(r.m, "the largest is used"));
    cr_expect(!scale_noted(r.m, "block distribution"));
    cr_expect(!scale_noted(r.m, "by their position in the grid"));
    /* at 16: 12 times a ratio of the recording at 8, 2/3, 4/3 or 1: 8, 16 or 12 bytes
       from each rank but the root, which receives their sum */
    c = synthesize(r.m, 16);
    for (int p = 1; p < 16; p++) {
        uint64_t sent = c->ends[p][0].bytes;

        cr_expect(sent == 8 || sent == 12 || sent == 16, "process %d: %llu", p,
                  (unsigned long long)sent);
        seen[sent < 17 ? sent : 0] = 1;
    }
    cr_expect(seen[8] && seen[16], "both the smaller and the larger are drawn");
    check_root_total(c, 0);
    collected_free(c);
    sr_recorded_free(&r);
}

/* --- an Alltoallv whose sizes the data decide: K / P bytes per pair on the mean, the
 * even ranks sending half that to each other member and receiving one and a half
 * times it, the odd ones the other way round (K = 65536: whole at 2, 4 and 8) */

#define K 65536

static void exchange_skewed(struct sr_run *b, int p, const int *c)
{
    struct pz_scale_event e = {.kind = PZ_REC_COLL_BEGIN, .comm = SR_WORLD, .posted_by = -1};
    int P = b->run.nprocs;
    struct sr_truth t = {-1, 0, P, 1, -1};
    uint64_t pairs = (uint64_t)(P - 1) * (K / P);

    (void)c;
    sr_step(b, p, PZ_SCALE_CALL, SR_ALLTOALL, C / P);
    sr_event(b, p, &e, &t);
    e.kind = PZ_REC_COLL_END;
    e.coll_op = OTF2_COLLECTIVE_OP_ALLTOALLV;
    e.bytes = p % 2 ? pairs * 3 / 2 : pairs / 2;
    e.bytes2 = p % 2 ? pairs / 2 : pairs * 3 / 2;
    sr_event(b, p, &e, &t);
}

static void prog_exchange_skewed(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, exchange_skewed);
}

/* Whether x is within 5% of y. */
static int near(double x, double y)
{
    return x > 0.95 * y && x < 1.05 * y;
}

Test(scale_vsizes, an_alltoallv_of_data_dependent_sizes_draws_the_recorded_spread_around_the_mean)
{
    struct sr_recorded r;
    struct pz_scale_synth *s;
    struct collected *c, *again;
    int low_sent = 0, high_sent = 0, low_received = 0, high_received = 0;
    uint64_t all_sent = 0, all_received = 0, least = UINT64_MAX;
    static uint64_t rows[64][64], columns[64][64];

    sr_record_at(&r, counts_2_4_8, 1, NULL, prog_exchange_skewed, NULL);
    cr_expect(scale_noted(r.m, "as the data decide"));
    cr_expect(scale_noted(r.m, "65536 / P bytes"), "the mean per pair is K / P");
    cr_expect(scale_noted(r.m, "at 8 processes the largest total is 3 times the smallest sent, 3 "
                         "received"));
    cr_expect(!scale_noted(r.m, "the largest is used"));
    /* at 64: K / 64 = 1024 bytes per pair, 63 other members, ratios 0.5 or 1.5 (those
       of the recording at 8): 32256 or 96768 bytes sent, drawn for each member, and as
       much drawn to be received */
    c = synthesize_lists(r.m, 64, &s);
    again = synthesize(r.m, 64);
    for (int p = 0; p < 64; p++) {
        const struct pz_rec *end = &c->ends[p][0];
        uint64_t sent = end->bytes;

        cr_expect(sent == 32256 || sent == 96768, "process %d sends %llu", p,
                  (unsigned long long)sent);
        low_sent += sent == 32256;
        high_sent += sent == 96768;
        cr_expect_eq(end->bytes, again->ends[p][0].bytes, "process %d", p);
        cr_expect_eq(end->bytes2, again->ends[p][0].bytes2, "process %d", p);
        /* the same sizes and lists in every iteration of the loop */
        cr_expect_eq(c->ends[p][ITERS - 1].bytes, sent, "process %d", p);
        cr_expect_eq(c->ends[p][ITERS - 1].send_list, end->send_list, "process %d", p);
        parse_list(list_text(s, end->send_list), rows[p], 64);
        parse_list(list_text(s, end->recv_list), columns[p], 64);
        all_sent += sent;
        all_received += end->bytes2;
        least = end->bytes2 < least ? end->bytes2 : least;
    }
    /* each pair as both its ends see it; a row sums to what its member sends (nothing to
       itself), a column to what it receives */
    for (int p = 0; p < 64; p++) {
        uint64_t row = 0, column = 0;

        for (int q = 0; q < 64; q++) {
            cr_expect_eq(rows[p][q], columns[q][p], "%d to %d", p, q);
            row += rows[p][q];
            column += columns[p][q];
        }
        cr_expect_eq(rows[p][p], 0);
        cr_expect_eq(row, c->ends[p][0].bytes, "process %d", p);
        cr_expect_eq(column, c->ends[p][0].bytes2, "process %d", p);
    }
    cr_expect_eq(all_received, all_sent, "all receive what all send");
    /* what j receives is R_j * sum over i != j of S_i / (R - R_i), R_j the drawn 32256 or
       96768 and R their sum: a factor the same for every j but for the one term i = j
       left out, a 64th of the sum, less than 2% of it: the received totals keep the
       drawn ratio of 3 to within 5% */
    for (int p = 0; p < 64; p++) {
        double received = (double)c->ends[p][0].bytes2;

        cr_expect(near(received, (double)least) || near(received, 3.0 * (double)least),
                  "process %d receives %.0f, the least %llu", p, received,
                  (unsigned long long)least);
        low_received += near(received, (double)least);
        high_received += near(received, 3.0 * (double)least);
    }
    /* both ratios drawn, each way (a uniform draw of 64 misses one with odds 2^-63) */
    cr_expect(low_sent && high_sent && low_received && high_received);
    collected_free(c);
    collected_free(again);
    pz_scale_synth_free(s);
    sr_recorded_free(&r);
}

/* --- the pairs of each v collective, from its members' sizes */

/* e: the end of a collective of OTF2 operation op over the world, rooted at rank `root`
 * counted from the first (or the last, when last). */
static struct sp_event v_event(uint8_t op, int root, int last)
{
    struct sp_event e = {.kind = PZ_REC_COLL_END, .coll_op = op};

    e.comm.kind = PZ_SCALE_COMM_WORLD;
    e.peer.kind = root < 0 ? PZ_SCALE_PEER_NONE : last ? PZ_SCALE_PEER_LAST : PZ_SCALE_PEER_RANK;
    e.peer.rank = root;
    return e;
}

static void expect_pairs(const uint64_t *got, const uint64_t *expected, uint32_t n)
{
    for (uint32_t i = 0; i < n * n; i++)
        cr_expect_eq(got[i], expected[i], "%u to %u: %llu, expected %llu", i / n, i % n,
                     (unsigned long long)got[i], (unsigned long long)expected[i]);
}

Test(scale_vsizes, an_alltoallv_spreads_each_total_over_what_the_others_receive)
{
    /* 0 sends 6, 1 and 2 send 3; they receive 2, 4, 6.  Row 0 over 4 + 6 = 10, from
       member 1 on: 6 * 4 / 10 = 2.4, rounded 2, then the rest, 4.  Row 1 over 6 + 2 = 8,
       from member 2 on: 3 * 6 / 8 = 2.25, 2, then 1 to member 0.  Row 2 over 2 + 4 = 6,
       from member 0: 3 * 2 / 6 = 1, then 2.  The columns sum to 2, 4, 6 */
    const uint64_t sent[3] = {6, 3, 3}, received[3] = {2, 4, 6};
    const uint64_t expected[9] = {0, 2, 4, 1, 0, 2, 1, 2, 0};
    uint64_t pairs[9];

    sp_alltoallv_pairs(sent, received, 3, pairs);
    expect_pairs(pairs, expected, 3);
}

Test(scale_vsizes, an_alltoallv_s_rounding_goes_round_the_communicator)
{
    /* each sends 5 over two others receiving alike, 2.5 each: the running total after
       the first is 2.5, rounded 3, then 2; each row begins at the next member, so each
       member gets 3 from one and 2 from the other: 5 each */
    const uint64_t sent[3] = {5, 5, 5}, received[3] = {1, 1, 1};
    const uint64_t expected[9] = {0, 3, 2, 2, 0, 3, 3, 2, 0};
    uint64_t pairs[9];

    sp_alltoallv_pairs(sent, received, 3, pairs);
    expect_pairs(pairs, expected, 3);
}

Test(scale_vsizes, an_alltoallv_s_members_receive_what_all_send)
{
    /* sent 10, 0, 0, 2 (12 in all), received 0, 1, 1, 2 (4): row 0 over 1 + 1 + 2 = 4:
       10 / 4 = 2.5, 3; 10 * 2 / 4 = 5, 2 more; then 5.  Row 3 over 0 + 1 + 1 = 2: 0,
       then 2 * 1 / 2 = 1, then 1.  The columns, 0, 4, 3, 5, sum to the 12 sent: the
       drawn 0, 1, 1, 2 times 3 but for 3, which sends nothing to itself */
    const uint64_t sent[4] = {10, 0, 0, 2}, received[4] = {0, 1, 1, 2};
    const uint64_t expected[16] = {0, 3, 2, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0};
    uint64_t pairs[16];

    sp_alltoallv_pairs(sent, received, 4, pairs);
    expect_pairs(pairs, expected, 4);
}

Test(scale_vsizes, an_alltoallv_whose_others_receive_nothing_sends_evenly)
{
    /* only 0 receives: 0's 4 bytes go 2 and 2 to the others */
    const uint64_t sent[3] = {4, 0, 0}, received[3] = {9, 0, 0};
    const uint64_t expected[9] = {0, 2, 2, 0, 0, 0, 0, 0, 0};
    uint64_t pairs[9];

    sp_alltoallv_pairs(sent, received, 3, pairs);
    expect_pairs(pairs, expected, 3);
}

Test(scale_vsizes, rooted_pairs_are_the_members_sizes)
{
    /* a Gatherv into rank 1: 0 sends 5, 2 sends 7, the root's column; a Scatterv out of
       the last (rank 2): 3 to 0, 4 to 1, its row */
    const uint64_t gsent[3] = {5, 0, 7}, greceived[3] = {0, 12, 0};
    const uint64_t gather[9] = {0, 5, 0, 0, 0, 0, 0, 7, 0};
    const uint64_t ssent[3] = {0, 0, 7}, sreceived[3] = {3, 4, 0};
    const uint64_t scatter[9] = {0, 0, 0, 0, 0, 0, 3, 4, 0};
    struct sp_event g = v_event(OTF2_COLLECTIVE_OP_GATHERV, 1, 0);
    struct sp_event sc = v_event(OTF2_COLLECTIVE_OP_SCATTERV, 0, 1);
    uint64_t pairs[9];

    sp_vsizes_pairs(&g, 3, gsent, greceived, pairs);
    expect_pairs(pairs, gather, 3);
    cr_expect_eq(sp_vsizes_lists(&g, 3, 1), SP_RECV_LIST);
    cr_expect_eq(sp_vsizes_lists(&g, 3, 0), 0);
    sp_vsizes_pairs(&sc, 3, ssent, sreceived, pairs);
    expect_pairs(pairs, scatter, 3);
    cr_expect_eq(sp_vsizes_lists(&sc, 3, 2), SP_SEND_LIST);
    cr_expect_eq(sp_vsizes_lists(&sc, 3, 1), 0);
}

Test(scale_vsizes, allgatherv_pairs_are_each_member_s_block)
{
    /* blocks: 16 / 2 = 8, 11 / 2 = 5.5 rounded 6, 10 / 2 = 5, to everyone, itself
       included: every column (each member's list) is 8, 6, 5 */
    const uint64_t sent[3] = {16, 11, 10}, received[3] = {11, 13, 14};
    const uint64_t expected[9] = {8, 8, 8, 6, 6, 6, 5, 5, 5};
    struct sp_event e = v_event(OTF2_COLLECTIVE_OP_ALLGATHERV, -1, 0);
    struct sp_event a = v_event(OTF2_COLLECTIVE_OP_ALLTOALLV, -1, 0);
    uint64_t pairs[9];

    sp_vsizes_pairs(&e, 3, sent, received, pairs);
    expect_pairs(pairs, expected, 3);
    cr_expect_eq(sp_vsizes_lists(&e, 3, 0), SP_RECV_LIST);
    cr_expect_eq(sp_vsizes_lists(&a, 3, 2), SP_SEND_LIST | SP_RECV_LIST);
}

/* --- the lists of a synthesized run */

Test(scale_vsizes, a_gatherv_s_root_lists_what_each_member_sends)
{
    struct sr_recorded r;
    struct pz_scale_synth *s;
    struct collected *c;
    char expected[256] = "0";
    uint32_t n;

    sr_record_at(&r, counts_2_4_8, 1, NULL, prog_gather_rows, NULL);
    c = synthesize_lists(r.m, 16, &s);
    /* at 16 ranks 1 to 6 send 56 bytes, 7 to 15 48 (above); the root's own entry 0 */
    for (int p = 1; p < 16; p++)
        strcat(expected, p < 7 ? ",56" : ",48");
    cr_expect_str_eq(list_text(s, c->ends[0][0].recv_list), expected);
    cr_expect_eq(c->ends[0][0].send_list, PZ_NONE32);
    for (int p = 1; p < 16; p++)
        cr_expect(c->ends[p][0].send_list == PZ_NONE32 && c->ends[p][0].recv_list == PZ_NONE32,
                  "process %d carries no list", p);
    /* the one list, in every iteration */
    pz_scale_synth_lists(s, &n);
    cr_expect_eq(n, 1);
    cr_expect_eq(c->ends[0][ITERS - 1].recv_list, c->ends[0][0].recv_list);
    collected_free(c);
    pz_scale_synth_free(s);
    sr_recorded_free(&r);
}

Test(scale_vsizes, an_allgatherv_s_members_share_one_list_of_the_blocks)
{
    struct sr_recorded r;
    struct pz_scale_synth *s;
    struct collected *c;
    char expected[256] = "";
    uint32_t n;

    sr_record_at(&r, counts_2_4_8, 1, NULL, prog_allgather_rows, NULL);
    c = synthesize_lists(r.m, 16, &s);
    /* at 16 ranks 0 to 6 hold 7 rows, 56 bytes, ranks 7 to 15 6 rows, 48 */
    for (int p = 0; p < 16; p++)
        strcat(expected, p == 0 ? "56" : p < 7 ? ",56" : ",48");
    for (int p = 0; p < 16; p++) {
        cr_expect_eq(c->ends[p][0].send_list, PZ_NONE32);
        cr_expect_str_eq(list_text(s, c->ends[p][0].recv_list), expected, "process %d", p);
    }
    pz_scale_synth_lists(s, &n);
    cr_expect_eq(n, 1);
    collected_free(c);
    pz_scale_synth_free(s);
    sr_recorded_free(&r);
}

/* --- a 2-D stencil whose halo exchange is one MPI_Neighbor_alltoallv on a graph of the
 * grid's neighbours (not periodic): ROW_X bytes to and from each neighbour along
 * dimension 0, ROW_Y along dimension 1, recorded at 2 (2 x 1), 4 (2 x 2) and 8 (4 x 2) */

#define ROW_X 1024
#define ROW_Y 512

/* Offset code (scale_run.h) of (dx, dy). */
static int code_of(int dx, int dy)
{
    return (dx + 1) * 9 + (dy + 1) * 3 + 1;
}

static void exchange_halos(struct sr_run *b, int p, const int *c)
{
    static const int step[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    struct pz_scale_event e = {.kind = PZ_REC_COLL_BEGIN, .comm = SR_WORLD, .posted_by = -1};
    struct pz_scale_process *proc = &b->run.procs[p];
    struct pz_scale_nbr *t;
    struct sr_truth truth = {-1, 0, b->run.nprocs, 1, -1};
    uint64_t total = 0;

    proc->nbrs = realloc(proc->nbrs, (proc->nnbrs + 1) * sizeof(*proc->nbrs));
    cr_assert_not_null(proc->nbrs);
    t = memset(&proc->nbrs[proc->nnbrs], 0, sizeof(*t));
    for (int s = 0; s < 4; s++)
        if (sr_rank_at(b, c, (const int[3]){step[s][0], step[s][1], 0}) >= 0) {
            uint64_t size = step[s][0] ? ROW_X : ROW_Y;

            t->sent[code_of(step[s][0], step[s][1])] = size;
            t->received[code_of(step[s][0], step[s][1])] = size;
            total += size;
        }
    sr_step(b, p, PZ_SCALE_CALL, SR_ALLTOALL, C / b->run.nprocs);
    sr_event(b, p, &e, &truth);
    e.kind = PZ_REC_COLL_END;
    e.coll_op = OTF2_COLLECTIVE_OP_ALLTOALLV;
    e.bytes = e.bytes2 = total;
    e.peer = (struct pz_scale_peer){.kind = PZ_SCALE_PEER_NEIGHBOURS,
                                    .rank = (int32_t)proc->nnbrs++};
    sr_event(b, p, &e, &truth);
}

static void prog_exchange_halos(struct sr_run *b, int p, const int *c, void *arg)
{
    (void)arg;
    iterations(b, p, c, exchange_halos);
}

/* Process p's lists at the last iteration in c (of s) against the sizes expected at
 * each rank, given as (rank, size) pairs, every other rank 0: sent and received alike,
 * the totals their sums. */
static void expect_halos(const struct collected *c, const struct pz_scale_synth *s, int p,
                         const int *at, size_t n)
{
    const struct pz_rec *end = &c->ends[p][ITERS - 1];
    uint64_t got[2][64], want[64] = {0}, total = 0;

    cr_assert_eq(c->n[p], ITERS, "process %d", p);
    for (size_t i = 0; i < n; i++) {
        want[at[2 * i]] = (uint64_t)at[2 * i + 1];
        total += (uint64_t)at[2 * i + 1];
    }
    parse_list(list_text(s, end->send_list), got[0], (uint32_t)c->nprocs);
    parse_list(list_text(s, end->recv_list), got[1], (uint32_t)c->nprocs);
    for (int j = 0; j < c->nprocs; j++)
        cr_expect(got[0][j] == want[j] && got[1][j] == want[j],
                  "process %d to/from %d: %llu/%llu, not %llu", p, j,
                  (unsigned long long)got[0][j], (unsigned long long)got[1][j],
                  (unsigned long long)want[j]);
    cr_expect(end->bytes == total && end->bytes2 == total, "process %d: %llu/%llu, not %llu",
              p, (unsigned long long)end->bytes, (unsigned long long)end->bytes2,
              (unsigned long long)total);
}

Test(scale_vsizes, a_neighbourhood_collective_of_grid_neighbours_sends_each_its_offset_s_size)
{
    struct sr_recorded r;
    struct pz_scale_synth *s;
    struct collected *c;

    sr_record_at(&r, counts_2_4_8, 2, NULL, prog_exchange_halos, NULL);
    cr_expect(!scale_noted(r.m, "the largest is used"));
    /* at 16, 4 x 4, rank 4 x + y: process 5 at (1, 1) has x neighbours 1 and 9, y
       neighbours 4 and 6; process 0 at (0, 0) has 4 and 1; process 15 at (3, 3) has 11
       and 14 */
    c = synthesize_lists(r.m, 16, &s);
    expect_halos(c, s, 5, (const int[]){1, ROW_X, 9, ROW_X, 4, ROW_Y, 6, ROW_Y}, 4);
    expect_halos(c, s, 0, (const int[]){4, ROW_X, 1, ROW_Y}, 2);
    expect_halos(c, s, 15, (const int[]){11, ROW_X, 14, ROW_Y}, 2);
    collected_free(c);
    pz_scale_synth_free(s);
    /* at 64, 8 x 8, rank 8 x + y: process 9 at (1, 1) has 1 and 17, 8 and 10; process 7
       at (0, 7) has 15 and 6; process 60 at (7, 4) has 52, 59 and 61 */
    c = synthesize_lists(r.m, 64, &s);
    expect_halos(c, s, 9, (const int[]){1, ROW_X, 17, ROW_X, 8, ROW_Y, 10, ROW_Y}, 4);
    expect_halos(c, s, 7, (const int[]){15, ROW_X, 6, ROW_Y}, 2);
    expect_halos(c, s, 60, (const int[]){52, ROW_X, 59, ROW_Y, 61, ROW_Y}, 3);
    collected_free(c);
    pz_scale_synth_free(s);
    sr_recorded_free(&r);
}
