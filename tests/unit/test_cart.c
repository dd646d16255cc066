/* Cartesian topologies in the definitions reader (trace/defs.h): a communicator's
 * topology found by communicator, its sizes, periodicities and the coordinates of its
 * ranks; coordinates optional, sorted by rank; damaged topologies refused with a
 * one-line error naming the trace.  The traces are written by trace_builder.h, whose
 * tb_cart gives each grid's ranks their coordinates in row-major order (dims[0] varying
 * slowest): in a 2x2 grid rank r is at (r / 2, r % 2). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <otf2/otf2.h>

#include "defs.h"
#include "trace_builder.h"

static char *dir;
static char anchor[4096];
static OTF2_Reader *otf;
static struct pz_defs defs;

static void cleanup(void)
{
    pz_defs_release(&defs);
    if (otf)
        OTF2_Reader_Close(otf);
    otf = NULL;
    if (dir) {
        tb_remove(dir);
        free(dir);
        dir = NULL;
    }
}

TestSuite(cart, .fini = cleanup);

static struct tb *trace(int nprocs)
{
    struct tb *b;

    dir = tb_tempdir();
    cr_assert_not_null(dir, "cannot make a temporary directory");
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    b = tb_open(dir, nprocs);
    cr_assert_not_null(b, "cannot open an OTF2 archive in %s", dir);
    return b;
}

/* Closes the trace (an MPI_Init on each process first) and reads its definitions;
 * returns pz_defs_read's result. */
static int close_and_read(struct tb *b, int nprocs)
{
    for (int p = 0; p < nprocs; p++)
        tb_call(b, p, "MPI_Init", 0, TB_MS(1));
    cr_assert_eq(tb_close(b), 0, "the trace builder failed");
    otf = OTF2_Reader_Open(anchor);
    cr_assert_not_null(otf, "cannot open %s", anchor);
    cr_assert_eq(OTF2_Reader_SetSerialCollectiveCallbacks(otf), OTF2_SUCCESS);
    return pz_defs_read(&defs, otf, anchor);
}

/* The trace is refused with the error "ANCHOR: what". */
static void expect_refused(struct tb *b, int nprocs, const char *what)
{
    char want[4096 + 256];

    cr_assert_eq(close_and_read(b, nprocs), -1, "read without error, expected '%s'", what);
    snprintf(want, sizeof(want), "%s: %s", anchor, what);
    cr_expect_str_eq(defs.error, want);
}

static void expect_coords(const struct pz_cart_def *t, uint32_t rank, const uint32_t *want)
{
    const uint32_t *c = pz_cart_coords(t, rank);

    cr_assert_not_null(c, "rank %u has no coordinates", rank);
    for (uint32_t d = 0; d < t->ndims; d++)
        cr_expect_eq(c[d], want[d], "rank %u, dimension %u: %u, expected %u", rank, d, c[d],
                     want[d]);
}

/* The world as a 2x2 grid periodic along dimension 0, and its rows {0, 1} and {2, 3}
 * as MPI_Cart_sub keeps dimension 1: 1-D grids of 2, not periodic. */
Test(cart, grid_and_rows)
{
    struct tb *b = trace(4);
    const uint32_t grid[2] = { 2, 2 }, row[1] = { 2 };
    const int periodic[2] = { 1, 0 }, ranks0[2] = { 0, 1 }, ranks1[2] = { 2, 3 };
    uint32_t row0 = tb_comm(b, "row 0", 2, ranks0), row1 = tb_comm(b, "row 1", 2, ranks1);
    const struct pz_cart_def *t;

    tb_cart(b, TB_WORLD, 2, grid, periodic, 1);
    tb_cart(b, row0, 1, row, NULL, 1);
    tb_cart(b, row1, 1, row, NULL, 1);
    cr_assert_eq(close_and_read(b, 4), 0, "pz_defs_read: %s", defs.error);

    t = pz_defs_cart(&defs, TB_WORLD);
    cr_assert_not_null(t);
    cr_expect_eq(t->comm, TB_WORLD);
    cr_assert_eq(t->ndims, 2);
    cr_expect(t->dims[0] == 2 && t->dims[1] == 2);
    cr_expect(t->periodic[0] == 1 && t->periodic[1] == 0);
    cr_expect_eq(t->ncoords, 4);
    /* rank r at (r / 2, r % 2) */
    expect_coords(t, 0, (const uint32_t[]){ 0, 0 });
    expect_coords(t, 1, (const uint32_t[]){ 0, 1 });
    expect_coords(t, 2, (const uint32_t[]){ 1, 0 });
    expect_coords(t, 3, (const uint32_t[]){ 1, 1 });
    cr_expect_null(pz_cart_coords(t, 4), "a 2x2 grid has no rank 4");

    t = pz_defs_cart(&defs, row1);
    cr_assert_not_null(t);
    cr_expect_eq(t->comm, row1);
    cr_assert_eq(t->ndims, 1);
    cr_expect(t->dims[0] == 2 && t->periodic[0] == 0);
    /* rank 1 of row 1 (world rank 3) is at (1) */
    expect_coords(t, 1, (const uint32_t[]){ 1 });
    cr_expect_not_null(pz_defs_cart(&defs, row0));
    /* MPI_COMM_SELF and a communicator that does not exist have none */
    cr_expect_null(pz_defs_cart(&defs, TB_SELF));
    cr_expect_null(pz_defs_cart(&defs, 77));
}

/* A topology without coordinates, and one whose coordinates come out of order, one of
 * them twice alike: sorted by rank, each once. */
Test(cart, coordinates_optional_and_sorted)
{
    struct tb *b = trace(3);
    const uint32_t line[1] = { 3 }, at2[1] = { 2 }, at0[1] = { 0 };
    const int ranks[2] = { 0, 1 };
    uint32_t pair = tb_comm(b, "pair", 2, ranks), bare;
    const struct pz_cart_def *t;

    tb_cart(b, pair, 1, (const uint32_t[]){ 2 }, NULL, 0);
    bare = tb_cart(b, TB_WORLD, 1, line, (const int[]){ 1 }, 0);
    tb_cart_coordinate(b, bare, 2, 1, at2);
    tb_cart_coordinate(b, bare, 0, 1, at0);
    tb_cart_coordinate(b, bare, 2, 1, at2);
    cr_assert_eq(close_and_read(b, 3), 0, "pz_defs_read: %s", defs.error);

    t = pz_defs_cart(&defs, pair);
    cr_assert_not_null(t);
    cr_expect_eq(t->ncoords, 0);
    cr_expect_null(pz_cart_coords(t, 0));

    t = pz_defs_cart(&defs, TB_WORLD);
    cr_assert_not_null(t);
    cr_expect(t->dims[0] == 3 && t->periodic[0] == 1);
    cr_expect_eq(t->ncoords, 2, "ranks 0 and 2, rank 2 once: %u", t->ncoords);
    expect_coords(t, 0, at0);
    expect_coords(t, 2, at2);
    cr_expect_null(pz_cart_coords(t, 1));
}

/* 32 dimensions of 1 are a grid of one position; ranks near 2^32 in a grid of
 * (2^32 - 1)^3 positions are counted without wrapping. */
Test(cart, limits)
{
    struct tb *b = trace(1);
    uint32_t ones[PZ_CART_MAX_DIMS], huge[3] = { UINT32_MAX, UINT32_MAX, UINT32_MAX };
    uint32_t far[3] = { UINT32_MAX - 1, 0, 7 };
    const struct pz_cart_def *t;

    for (int d = 0; d < PZ_CART_MAX_DIMS; d++)
        ones[d] = 1;
    tb_cart(b, TB_SELF, PZ_CART_MAX_DIMS, ones, NULL, 1);
    tb_cart_coordinate(b, tb_cart(b, TB_WORLD, 3, huge, NULL, 0), UINT32_MAX, 3, far);
    cr_assert_eq(close_and_read(b, 1), 0, "pz_defs_read: %s", defs.error);
    t = pz_defs_cart(&defs, TB_SELF);
    cr_assert_not_null(t);
    cr_expect_eq(t->ndims, PZ_CART_MAX_DIMS);
    cr_expect_eq(t->ncoords, 1);
    t = pz_defs_cart(&defs, TB_WORLD);
    cr_assert_not_null(t);
    expect_coords(t, UINT32_MAX, far);
}

Test(cart, no_dimension_refused)
{
    struct tb *b = trace(1);

    tb_cart(b, TB_WORLD, 0, NULL, NULL, 0);
    expect_refused(b, 1, "cart topology 0 has 0 dimensions, expected 1 to 32");
}

Test(cart, too_many_dimensions_refused)
{
    struct tb *b = trace(1);
    uint32_t ones[PZ_CART_MAX_DIMS + 1];

    for (int d = 0; d <= PZ_CART_MAX_DIMS; d++)
        ones[d] = 1;
    tb_cart(b, TB_WORLD, PZ_CART_MAX_DIMS + 1, ones, NULL, 0);
    expect_refused(b, 1, "cart topology 0 has 33 dimensions, expected 1 to 32");
}

Test(cart, empty_dimension_refused)
{
    struct tb *b = trace(1);

    tb_cart(b, TB_WORLD, 2, (const uint32_t[]){ 1, 0 }, NULL, 0);
    expect_refused(b, 1, "cart dimension 1 has size 0");
}

/* In a 2x2 grid: a coordinate of 2, rank 4, one coordinate for two dimensions. */
Test(cart, coordinate_beyond_grid_refused)
{
    struct tb *b = trace(4);

    tb_cart_coordinate(b, tb_cart(b, TB_WORLD, 2, (const uint32_t[]){ 2, 2 }, NULL, 0), 3, 2,
                       (const uint32_t[]){ 0, 2 });
    expect_refused(b, 4, "cart coordinate of rank 3 in topology 0 is beyond its grid");
}

Test(cart, rank_beyond_grid_refused)
{
    struct tb *b = trace(4);

    tb_cart_coordinate(b, tb_cart(b, TB_WORLD, 2, (const uint32_t[]){ 2, 2 }, NULL, 0), 4, 2,
                       (const uint32_t[]){ 0, 0 });
    expect_refused(b, 4, "cart coordinate of rank 4 in topology 0 has a rank beyond its grid");
}

Test(cart, coordinate_of_other_dimensions_refused)
{
    struct tb *b = trace(4);

    tb_cart_coordinate(b, tb_cart(b, TB_WORLD, 2, (const uint32_t[]){ 2, 2 }, NULL, 0), 1, 1,
                       (const uint32_t[]){ 1 });
    expect_refused(b, 4,
                   "cart coordinate of rank 1 in topology 0 has another number of dimensions "
                   "than its topology");
}

Test(cart, coordinate_of_undefined_topology_refused)
{
    struct tb *b = trace(2);

    tb_cart(b, TB_WORLD, 1, (const uint32_t[]){ 2 }, NULL, 1);
    tb_cart_coordinate(b, 7, 0, 1, (const uint32_t[]){ 0 });
    expect_refused(b, 2, "cart coordinate of rank 0: topology 7 is not defined");
}

/* Rank 1 of a line of 2 is at (1), then at (0). */
Test(cart, rank_with_two_coordinates_refused)
{
    struct tb *b = trace(2);

    tb_cart(b, TB_WORLD, 1, (const uint32_t[]){ 2 }, NULL, 1);
    tb_cart_coordinate(b, 0, 1, 1, (const uint32_t[]){ 0 });
    expect_refused(b, 2, "cart topology 0 gives rank 1 two coordinates");
}

static OTF2_FlushType flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                            void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { flush, NULL };

/* An archive of a clock, dimension 0 (size 2) and topology `id` of the given
 * dimensions, written with OTF2's writer directly (the builder numbers definitions
 * itself). */
static void write_topology(uint32_t id, const OTF2_CartDimensionRef *dims)
{
    OTF2_Archive *archive;
    OTF2_GlobalDefWriter *w;

    dir = tb_tempdir();
    cr_assert_not_null(dir);
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    cr_assert_not_null(archive);
    cr_assert_eq(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL),
                 OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_SetSerialCollectiveCallbacks(archive), OTF2_SUCCESS);
    w = OTF2_Archive_GetGlobalDefWriter(archive);
    cr_assert_not_null(w);
    OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, 0, 1, 0);
    OTF2_GlobalDefWriter_WriteString(w, 0, "x");
    OTF2_GlobalDefWriter_WriteCartDimension(w, 0, 0, 2, OTF2_CART_PERIODIC_FALSE);
    OTF2_GlobalDefWriter_WriteCartTopology(w, id, 0, 0, 2, dims);
    cr_assert_eq(OTF2_Archive_Close(archive), OTF2_SUCCESS);
    otf = OTF2_Reader_Open(anchor);
    cr_assert_not_null(otf);
    cr_assert_eq(OTF2_Reader_SetSerialCollectiveCallbacks(otf), OTF2_SUCCESS);
}

Test(cart, undefined_dimension_refused)
{
    char want[4096 + 64];

    write_topology(0, (const OTF2_CartDimensionRef[]){ 0, 5 });
    cr_assert_eq(pz_defs_read(&defs, otf, anchor), -1);
    snprintf(want, sizeof(want), "%s: cart topology 0: dimension 5 is not defined", anchor);
    cr_expect_str_eq(defs.error, want);
}

Test(cart, topology_id_out_of_range)
{
    char want[4096 + 64];

    /* above PZ_DEFS_MAX_ID (2^24), as every definition's id */
    write_topology(1u << 30, (const OTF2_CartDimensionRef[]){ 0, 0 });
    cr_assert_eq(pz_defs_read(&defs, otf, anchor), -1);
    snprintf(want, sizeof(want), "%s: definition id 1073741824 out of range", anchor);
    cr_expect_str_eq(defs.error, want);
}
