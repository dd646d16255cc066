/* Sizes of a collective on the columns of a 2-D process grid whose form per other
 * member of the column is simpler than that of the whole (replay/scale_numbers.c,
 * fit_whole): recorded by hand (trace_builder.h) at 4, 8 and 16 processes, read in
 * MPI_Dims_create's 2-D grid with the first dimension fastest (as prognoz scale reads a
 * program that splits its processes into rows and columns it computes itself, NAS FT),
 * synthesized at 16, 32 and 64; expected values worked out in the comments. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "scale_program.h"
#include "scale_run.h"
#include "scale_traces.h"
#include "trace.h"
#include "tempdir_fixture.h"
#include "trace_builder.h"

#define MS TB_MS
#define UNIT 1024 /* bytes to each other member of the column per row of the grid */

TestSuite(scale_columns, .init = setup, .fini = cleanup);

/* MPI_Dims_create's 2-D grid of 4, 8, 16 processes: 2 x 2, 4 x 2, 4 x 4. */
static void dims_of(int nprocs, int *dims)
{
    dims[0] = nprocs >= 8 ? 4 : 2;
    dims[1] = nprocs / dims[0];
}

/* Every process's column (rank x + dims[0] y: the ranks equal modulo dims[0], dims[1] of
 * them) made by MPI_Comm_split; each process sends UNIT * dims[0] bytes to every other
 * member of its column by MPI_Alltoall (and, with rows, first UNIT bytes to every other
 * member of its row, the dims[0] consecutive ranks of its y, as NAS FT's transposes). */
static void record_program(const char *dir, int nprocs, int rows)
{
    int dims[2], members[16];
    uint32_t column[16], row[16];
    struct tb *b;
    uint32_t interval;

    dims_of(nprocs, dims);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    for (int x = 0; x < dims[0]; x++) {
        char name[64];

        for (int y = 0; y < dims[1]; y++)
            members[y] = x + dims[0] * y;
        snprintf(name, sizeof(name), "Comm %d (MPI_Comm_split)", x + 2);
        column[x] = tb_comm(b, name, dims[1], members);
    }
    for (int y = 0; rows && y < dims[1]; y++) {
        char name[64];

        for (int x = 0; x < dims[0]; x++)
            members[x] = x + dims[0] * y;
        snprintf(name, sizeof(name), "Comm %d (MPI_Comm_split)", dims[0] + y + 2);
        row[y] = tb_comm(b, name, dims[0], members);
    }
    interval = tb_interval(b, 4, "ft.c", 174);
    for (int p = 0; p < nprocs; p++) {
        uint64_t bytes = (uint64_t)UNIT * (uint64_t)dims[0] * (uint64_t)(dims[1] - 1);

        uint64_t along = (uint64_t)UNIT * (uint64_t)(dims[0] - 1);

        tb_enter(b, p, MS(1), interval);
        if (rows)
            tb_collective_call_bytes(b, p, "MPI_Alltoall", MS(1), MS(2),
                                     OTF2_COLLECTIVE_OP_ALLTOALL, row[p / dims[0]], TB_NO_ROOT,
                                     along, along);
        tb_collective_call_bytes(b, p, "MPI_Alltoall", MS(2), MS(3), OTF2_COLLECTIVE_OP_ALLTOALL,
                                 column[p % dims[0]], TB_NO_ROOT, bytes, bytes);
        tb_leave(b, p, MS(4), interval);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

static void record(const char *dir, int nprocs)
{
    record_program(dir, nprocs, 0);
}

static void model_of(struct st_model *md)
{
    static const int counts[3] = { 4, 8, 16 };
    char dirs[3][4200];
    const char *const list[3] = { dirs[0], dirs[1], dirs[2] };

    for (int i = 0; i < 3; i++) {
        snprintf(dirs[i], sizeof(dirs[i]), "%s/ft%d", top, counts[i]);
        record(dirs[i], counts[i]);
    }
    st_model_read(md, list, 2, 1, err, sizeof(err));
    cr_assert_not_null(md->m, "%s", err);
}

/* Every process's collectives at a count: how many, and how many moved other than
 * `want` bytes each way. */
struct tally {
    uint64_t want;
    int n[64], wrong;
};

static int no_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    (void)ctx, (void)comms, (void)n;
    return 0;
}

static int count(void *ctx, int proc, const struct pz_rec *r)
{
    struct tally *k = ctx;

    if (r->kind == PZ_REC_COLL_END) {
        k->n[proc]++;
        k->wrong += r->bytes != k->want || r->bytes2 != k->want;
    }
    return 0;
}

static void expect_bytes(const struct pz_scale_program *m, int nprocs, uint64_t want)
{
    struct tally k = { .want = want };
    struct pz_scale_sink sink = { no_comms, count, &k };

    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    for (int p = 0; p < nprocs; p++)
        cr_expect_eq(k.n[p], 1, "at %d, process %d makes %d collectives, expected 1", nprocs,
                     p, k.n[p]);
    cr_expect_eq(k.wrong, 0, "at %d, %d collectives move other than %llu bytes", nprocs,
                 k.wrong, (unsigned long long)want);
}

/* Sent (and received) per process: UNIT * dims[0] * (dims[1] - 1) = 1024 * 2 * 1, 1024 *
 * 4 * 1, 1024 * 4 * 3 = 2048, 4096, 12288 at 4, 8, 16.  Forms of two terms fit these
 * exactly, e.g. c0 + c1 * P^2 through 2048 at 4 and 12288 at 16 (c1 = 10240 / 240 = 42.67,
 * c0 = 2048 - 682.67 = 1365.33) gives 1365.33 + 2730.67 = 4096 at 8, and 1365.33 + 43690.67 = 45056 at 32
 * (the model took such a form before, wrong at 32 and 64); per other member they are
 * 2048, 4096, 4096 = 1024 * dims[0], one term, which is taken.  At 16 (4 x 4): 1024 * 4 * 3 = 12288; at 32 (8 x 4): 1024 * 8 * 3 = 24576; at
 * 64 (8 x 8): 1024 * 8 * 7 = 57344. */
Test(scale_columns, a_share_per_member_of_one_term_is_taken_before_a_total_of_two)
{
    struct st_model md;

    model_of(&md);
    expect_bytes(md.m, 16, 12288);
    expect_bytes(md.m, 32, 24576);
    expect_bytes(md.m, 64, 57344);
    st_model_free(&md);
}

/* prognoz scale itself on the rows and columns at 4, 8 and 16: rows of 2, 4, 4 consecutive
 * ranks and columns of the ranks equal modulo 2, 4, 4 are of no class whose k stays the
 * same, and with no message to show a grid the recordings are read in one dimension,
 * where the model cannot be built; read in MPI_Dims_create's 2-D grid with the first
 * dimension fastest they are its slices, and the run at 32 is synthesized: 32 processes
 * (8 x 4), every one in a row of 8 and a column of 4. */
Test(scale_columns, prognoz_scale_reads_rows_and_columns_as_the_grid_slices)
{
    static const int counts[3] = { 4, 8, 16 };
    char cmd[20000], dirs[3][4200], out[4200];

    for (int i = 0; i < 3; i++) {
        snprintf(dirs[i], sizeof(dirs[i]), "%s/ft%d", top, counts[i]);
        record_program(dirs[i], counts[i], 1);
    }
    snprintf(out, sizeof(out), "%s/synth", top);
    snprintf(cmd, sizeof(cmd), "%s scale %s %s %s --ranks 32 --machine %s --trace-out %s "
             "-o %s/report.txt", PROGNOZ_PATH, dirs[0], dirs[1], dirs[2], MACHINE_PATH, out,
             top);
    cr_assert_eq(system(cmd), 0, "prognoz scale refused the recordings (above): %s", cmd);
    snprintf(cmd, sizeof(cmd), "test -f %s/P32/traces.otf2", out);
    cr_expect_eq(system(cmd), 0, "no run synthesized at 32 in %s", out);
}
