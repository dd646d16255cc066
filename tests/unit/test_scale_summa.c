/* A SUMMA-like matrix product (scale_turns.c, scale_turns_law.c, scale_slice_laws.c,
 * scale_groups_resolve.c): the processes of MPI_Dims_create's 2-D grid, rows x cols with
 * ranks row-major, split into their rows and their columns by MPI_Comm_split (or made
 * by MPI_Cart_create and MPI_Cart_sub), and at each of the rows x cols steps k of a pass
 * a block broadcast along every row from member k mod cols and one along every column
 * from member k mod rows, then a reduction of 8 bytes along each.  Recorded by hand
 * (trace_builder.h) at 2, 4 and 8 and at 3, 6 and 12 processes without a message, read
 * in that grid as prognoz scale reads a program whose processes talk along rows and
 * columns by collectives alone, and synthesized at 16 and 64: every process's
 * collectives, with their communicators' members, roots and bytes, are the program's,
 * worked out in the comments from its definition.  So are broadcasts and reductions on
 * the world whose root is the step, and prognoz scale takes the recordings end to end. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_messages.h"
#include "scale_program.h"
#include "scale_run.h"
#include "tempdir_fixture.h"
#include "trace.h"
#include "trace_builder.h"

#define MS TB_MS
#define PASSES 2
#define AREA 294912u   /* bytes of a 192 x 192 matrix of doubles */
#define BLOCK 1024u    /* bytes a world broadcast moves to each other process */

TestSuite(scale_summa, .init = setup, .fini = cleanup);

/* How the program makes its communicators, or talks on the world. */
enum how {
    SPLIT,       /* rows and columns by MPI_Comm_split (colour: the row, key: the column;
                    then colour: the column, key: the row) */
    CART,        /* MPI_Cart_create's grid of rows x cols, MPI_Cart_sub's rows and columns */
    WORLD_STEP,  /* at step k of P, MPI_Bcast and MPI_Reduce on the world from root k */
    TWICE,       /* at step k of P, two MPI_Bcast alike on the world from root k */
    IBCAST       /* at step k of P, MPI_Ibcast on the world from root k, then MPI_Wait */
};

/* The row's broadcast block at nprocs: a block of AREA / rows rows and AREA / P columns,
 * AREA / (rows * P) bytes; the column's, AREA / (cols * P). */
static uint64_t row_block(int nprocs)
{
    int rows, cols;

    sm_dims2(nprocs, &rows, &cols);
    return AREA / (uint64_t)(rows * nprocs);
}

static uint64_t column_block(int nprocs)
{
    int rows, cols;

    sm_dims2(nprocs, &rows, &cols);
    return AREA / (uint64_t)(cols * nprocs);
}

/* The communicators of the grid: row[y] of members y * cols + x, column[x] of members y
 * * cols + x, named as the recorder names those the program creates; the one they are
 * made of (the world, or MPI_Cart_create's) returned. */
static uint32_t grid_comms(struct tb *b, int nprocs, enum how how, uint32_t *row,
                           uint32_t *column)
{
    int rows, cols, members[64], n = 2;
    uint32_t parent = TB_WORLD;
    const char *by = how == CART ? "MPI_Cart_sub" : "MPI_Comm_split";
    char name[64];

    sm_dims2(nprocs, &rows, &cols);
    if (how == CART) {
        for (int p = 0; p < nprocs; p++)
            members[p] = p;
        parent = tb_comm(b, "Comm 2 (MPI_Cart_create)", nprocs, members);
        tb_cart(b, parent, 2, (const uint32_t[]){(uint32_t)rows, (uint32_t)cols}, NULL, 1);
        n++;
    }
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < cols; x++)
            members[x] = y * cols + x;
        snprintf(name, sizeof(name), "Comm %d (%s)", n++, by);
        row[y] = tb_comm(b, name, cols, members);
        if (how == CART)
            tb_cart(b, row[y], 1, (const uint32_t[]){(uint32_t)cols}, NULL, 1);
    }
    for (int x = 0; x < cols; x++) {
        for (int y = 0; y < rows; y++)
            members[y] = y * cols + x;
        snprintf(name, sizeof(name), "Comm %d (%s)", n++, by);
        column[x] = tb_comm(b, name, rows, members);
        if (how == CART)
            tb_cart(b, column[x], 1, (const uint32_t[]){(uint32_t)rows}, NULL, 1);
    }
    return parent;
}

/* A rooted collective of process p, rank `me` of a communicator of n members, from root
 * `root`: op moves `block` bytes out of the root (MPI_Bcast) or into it (MPI_Reduce), as
 * the recorder counts them (docs/trace-format.md): the root (n - 1) blocks, the others
 * one. */
static void rooted(struct tb *b, int p, uint64_t *t, OTF2_CollectiveOp op, uint32_t comm,
                   int n, int me, int root, uint64_t block)
{
    uint64_t root_moves = (uint64_t)(n - 1) * block, out, in;

    if (op == OTF2_COLLECTIVE_OP_BCAST) {
        out = me == root ? root_moves : 0;
        in = me == root ? 0 : block;
    } else {
        out = me == root ? 0 : block;
        in = me == root ? root_moves : 0;
    }
    tb_collective_call_bytes(b, p, op == OTF2_COLLECTIVE_OP_BCAST ? "MPI_Bcast" : "MPI_Reduce",
                             *t + MS(1), *t + MS(2), op, comm, (uint32_t)root, out, in);
    *t += MS(3);
}

/* A reduction of 8 bytes on a communicator of n members: nothing moves where n is 1. */
static void allreduce(struct tb *b, int p, uint64_t *t, uint32_t comm, int n)
{
    uint64_t bytes = n > 1 ? 8 : 0;

    tb_collective_call_bytes(b, p, "MPI_Allreduce", *t + MS(1), *t + MS(2),
                             OTF2_COLLECTIVE_OP_ALLREDUCE, comm, TB_NO_ROOT, bytes, bytes);
    *t += MS(3);
}

/* Step k of process p on the world (WORLD_STEP, TWICE, IBCAST: its request number k). */
static void world_step(struct tb *b, int nprocs, int p, enum how how, int k, uint64_t *t)
{
    uint64_t block = p == k ? (uint64_t)(nprocs - 1) * BLOCK : 0, req = (uint64_t)k + 1;

    if (how == IBCAST) {
        tb_enter(b, p, *t + MS(1), tb_mpi(b, "MPI_Ibcast"));
        tb_nbc_request(b, p, *t + MS(1), req);
        tb_leave(b, p, *t + MS(2), tb_mpi(b, "MPI_Ibcast"));
        tb_enter(b, p, *t + MS(3), tb_mpi(b, "MPI_Wait"));
        tb_nbc_complete(b, p, *t + MS(4), OTF2_COLLECTIVE_OP_BCAST, TB_WORLD, (uint32_t)k,
                        block, p == k ? 0 : BLOCK, req);
        tb_leave(b, p, *t + MS(4), tb_mpi(b, "MPI_Wait"));
        *t += MS(5);
        return;
    }
    rooted(b, p, t, OTF2_COLLECTIVE_OP_BCAST, TB_WORLD, nprocs, p, k, BLOCK);
    rooted(b, p, t, how == TWICE ? OTF2_COLLECTIVE_OP_BCAST : OTF2_COLLECTIVE_OP_REDUCE,
           TB_WORLD, nprocs, p, k, BLOCK);
}

/* The intervals of share/validation/summa.c: the passes, a step's broadcasts, its
 * multiplication; and the communicator the rows and columns are made of. */
struct intervals {
    uint32_t passes, step, multiply, parent;
};

/* The collectives that make the rows and columns (CREATE_HANDLE), as the recorder counts
 * their bytes: MPI_Comm_split's two on the world (SPLIT), MPI_Cart_create's on the
 * world and MPI_Cart_sub's two on its communicator (CART); none on the world alone. */
static int ncreations(enum how how)
{
    return how == SPLIT ? 2 : how == CART ? 3 : 0;
}

static void creations(struct tb *b, int nprocs, int p, enum how how, uint32_t parent,
                      uint64_t *t)
{
    for (int i = 0; i < ncreations(how); i++, *t += MS(2))
        tb_collective_call_bytes(b, p, how == SPLIT ? "MPI_Comm_split" : i ? "MPI_Cart_sub"
                                                                       : "MPI_Cart_create",
                                 *t + MS(1), *t + MS(2), OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                                 how == CART && i ? parent : TB_WORLD, TB_NO_ROOT, 264,
                                 256 + 8 * (uint64_t)nprocs);
}

/* Process p's PASSES passes of the product (SPLIT, CART) or of the steps on the world,
 * in interval in->passes; each step's collectives in interval in->step, followed by an
 * interval in->multiply of computation alone. */
static void passes(struct tb *b, int nprocs, int p, enum how how, const uint32_t *row,
                   const uint32_t *column, const struct intervals *in)
{
    int rows, cols, y, x, grid = how == SPLIT || how == CART;
    uint64_t t = MS(1);

    sm_dims2(nprocs, &rows, &cols);
    y = p / cols;
    x = p % cols;
    tb_call(b, p, "MPI_Init", t, t + MS(1));
    t += MS(2);
    creations(b, nprocs, p, how, in->parent, &t);
    tb_enter(b, p, t += MS(2), in->passes);
    for (int pass = 0; pass < PASSES; pass++) {
        for (int k = 0; k < nprocs; k++) {
            tb_enter(b, p, t += MS(1), in->step);
            if (!grid) {
                world_step(b, nprocs, p, how, k, &t);
            } else {
                rooted(b, p, &t, OTF2_COLLECTIVE_OP_BCAST, row[y], cols, x, k % cols,
                       row_block(nprocs));
                rooted(b, p, &t, OTF2_COLLECTIVE_OP_BCAST, column[x], rows, y, k % rows,
                       column_block(nprocs));
            }
            tb_leave(b, p, t += MS(1), in->step);
            tb_enter(b, p, t += MS(1), in->multiply);
            tb_leave(b, p, t += MS(5), in->multiply);
        }
        if (grid) {
            allreduce(b, p, &t, row[y], cols);
            allreduce(b, p, &t, column[x], rows);
        }
    }
    tb_leave(b, p, t += MS(1), in->passes);
}

/* The program recorded at nprocs into DIR/NAME<nprocs>. */
static void record(const char *name, int nprocs, enum how how, char *dir, size_t len)
{
    uint32_t row[64], column[64];
    struct intervals in;
    struct tb *b;

    snprintf(dir, len, "%s/%s%d", top, name, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    in.parent = how == SPLIT || how == CART ? grid_comms(b, nprocs, how, row, column)
                                            : TB_WORLD;
    in.passes = tb_interval(b, 1, "summa.c", 51);
    in.step = tb_interval(b, 2, "summa.c", 59);
    in.multiply = tb_interval(b, 3, "summa.c", 63);
    for (int p = 0; p < nprocs; p++)
        passes(b, nprocs, p, how, row, column, &in);
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* The recordings in dirs[0..2] read with ndims and first_fastest as
 * pz_scale_run_read_layout takes them, their communicators classed across them, and
 * their model (NULL, err saying why, when it cannot be built). */
static void read_model(char dirs[3][4200], int ndims, int first_fastest, struct st_model *md)
{
    memset(md, 0, sizeof(*md));
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(pz_scale_run_read_layout(dirs[i], ndims, first_fastest, &md->runs[i],
                                              err, sizeof(err)), 0, "%s", err);
        md->list[i] = &md->runs[i];
    }
    pz_scale_runs_resolve_groups(md->runs, 3);
    md->m = pz_scale_program_build(md->list, 3, 0, err, sizeof(err));
}

/* The program recorded at counts[0..2] and its model, the recordings read as prognoz
 * scale reads them: in MPI_Cart_create's grid where its rows are used; MPI_Comm_split's
 * rows and columns, which no message shows a grid for, in MPI_Dims_create's 2-D grid,
 * ranks row-major. */
static void model_of(const char *name, const int *counts, enum how how, struct st_model *md)
{
    char dirs[3][4200];

    for (int i = 0; i < 3; i++)
        record(name, counts[i], how, dirs[i], sizeof(dirs[i]));
    read_model(dirs, how == SPLIT ? 2 : 0, 0, md);
}

static struct sm_run got;

/* Expects collective j of process p at nprocs to be op on the communicator of members
 * first + i * stride (i < n), from world root `root` (-1: none), moving sent and
 * received bytes. */
static void expect_collective(int nprocs, int p, int j, uint8_t op, int first, int stride,
                              int n, int root, uint64_t sent, uint64_t received)
{
    const struct sm_collective *c = &got.coll[p][j];
    int members = 1;

    for (int i = 0; i < n; i++)
        members &= c->comm < got.ncomms && (int)got.comms[c->comm].size == n &&
                   sm_world_rank(&got, c->comm, (uint32_t)i) == first + i * stride;
    cr_expect(c->op == op && members && c->root == root && c->sent == sent &&
                  c->received == received,
              "at %d, process %d, collective %d: op %u on %u members from root %d, %lu and "
              "%lu bytes; expected op %u on %d members from %d by %d (%s), from root %d, "
              "%lu and %lu bytes", nprocs, p, j, c->op, got.comms[c->comm].size, c->root,
              (unsigned long)c->sent, (unsigned long)c->received, op, n, first, stride,
              members ? "so" : "not so", root, (unsigned long)sent, (unsigned long)received);
}

/* A broadcast of process p (rank me of n members first + i * stride) from rank root:
 * the root sends (n - 1) blocks, every other member receives one. */
static void expect_bcast(int nprocs, int p, int j, int first, int stride, int n, int me,
                         int root, uint64_t block)
{
    expect_collective(nprocs, p, j, OTF2_COLLECTIVE_OP_BCAST, first, stride, n,
                      first + root * stride, me == root ? (uint64_t)(n - 1) * block : 0,
                      me == root ? 0 : block);
}

/* The product at nprocs as the program makes it (passes()): process p at row y = p / cols,
 * column x = p % cols; first the collectives making the rows and columns (creations());
 * in each pass, for k = 0 .. P - 1, a broadcast on its row (members y * cols + i) from
 * member k mod cols of row_block(P) bytes, then one on its column (members i * cols +
 * x) from member k mod rows of column_block(P) bytes; then 8 bytes reduced on the row
 * and on the column (none where one has 1 member). */
static void expect_product(const struct pz_scale_program *m, enum how how, int nprocs)
{
    int rows, cols, made = ncreations(how), all = made + PASSES * (2 * nprocs + 2);

    sm_dims2(nprocs, &rows, &cols);
    sm_synthesize(m, nprocs, &got, err, sizeof(err));
    for (int p = 0; p < nprocs; p++) {
        int y = p / cols, x = p % cols, j = made;

        cr_assert_eq(got.collectives[p], all, "at %d, process %d: %d collectives, expected "
                     "%d", nprocs, p, got.collectives[p], all);
        for (int i = 0; i < made; i++)
            cr_expect_eq(got.coll[p][i].op, OTF2_COLLECTIVE_OP_CREATE_HANDLE, "at %d, "
                         "process %d, collective %d: op %u", nprocs, p, i, got.coll[p][i].op);
        for (int pass = 0; pass < PASSES; pass++) {
            for (int k = 0; k < nprocs; k++) {
                expect_bcast(nprocs, p, j++, y * cols, 1, cols, x, k % cols, row_block(nprocs));
                expect_bcast(nprocs, p, j++, x, cols, rows, y, k % rows,
                             column_block(nprocs));
            }
            expect_collective(nprocs, p, j++, OTF2_COLLECTIVE_OP_ALLREDUCE, y * cols, 1, cols,
                              -1, cols > 1 ? 8 : 0, cols > 1 ? 8 : 0);
            expect_collective(nprocs, p, j++, OTF2_COLLECTIVE_OP_ALLREDUCE, x, cols, rows, -1,
                              rows > 1 ? 8 : 0, rows > 1 ? 8 : 0);
        }
    }
}

/* Recorded at 2, 4 and 8 (grids of 2 x 1, 2 x 2, 4 x 2): a row is process 0 alone at 2,
 * the world is its column, and rows of 2 consecutive ranks at 4 and 8 are no groups
 * class of one k with the columns (ranks equal modulo 2 at both): read in the 2-D grid
 * they are its rows and columns, those at 2 too (the class the others show at the same
 * call).  Step k's roots are k mod 2 on the rows at 4 and 8, k mod 2 and k mod 4 on the
 * columns: turning with the step.  The rows' blocks are seen at 4 and 8 alone (at 2 a
 * row of 1 moves nothing), 36864 and 9216 bytes, which c / P^2 fits too (2304 at 16);
 * the columns' at all three, 147456, 36864 and 18432 = 294912 / (dims[0] dims[1]^2),
 * whose law with the dimensions exchanged gives the rows' (294912 / (dims[0]^2
 * dims[1])).  At 16 (4 x 4): 16 steps a pass, process 5 (row 1, column 1) broadcasting
 * on {4, 5, 6, 7} from 4, 5, 6, 7, 4 ... (sending 3 x 4608 = 13824 bytes at steps 1, 5,
 * 9, 13, receiving 4608 at the others) and on {1, 5, 9, 13} from 1, 5, 9, 13, 1 ...;
 * at 64 (8 x 8) blocks of 576 bytes, the roots sending 7 x 576; at 2, as recorded (a
 * row of 1 moving nothing).  A note says that the rows, of at most 2 members in every
 * recording, are taken to turn over every member. */
Test(scale_summa, rows_and_columns_split_from_2_4_8_are_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("split", counts, SPLIT, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_expect_not_null(sm_note(md.m, "the root of MPI_Bcast turns with the iteration"),
                       "no note of the roots that turn");
    cr_expect_not_null(sm_note(md.m, "on a communicator of at most 2 members in every "
                                     "recording"), "no note of the rows of 2 members");
    cr_expect_not_null(sm_note(md.m, "take their law with the two dimensions exchanged"),
                       "no note of the rows' law");
    expect_product(md.m, SPLIT, 2);
    expect_product(md.m, SPLIT, 16);
    expect_product(md.m, SPLIT, 64);
    st_model_free(&md);
}

/* Recorded at 3, 6 and 12 (3 x 1, 3 x 2, 4 x 3): the rows' blocks, seen at 6 and 12
 * (16384 and 6144 bytes), fit 294912 / (dims[0]^2 dims[1]); their roots at 12 send 2
 * blocks, 12288 bytes, which 49152 / dims[0] fits as a whole too (12288 at 16 where
 * the root sends 3 x 4608 = 13824): the columns' law per other member, exchanged, gives
 * them.  At 16 and 64 as above; no row is of 2 members at most in every recording. */
Test(scale_summa, rows_and_columns_split_from_3_6_12_are_synthesized_at_16_and_64)
{
    static const int counts[] = { 3, 6, 12 };
    struct st_model md;

    model_of("split3_", counts, SPLIT, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_expect_null(sm_note(md.m, "on a communicator of at most 2 members"),
                   "a note of a communicator of 2 members at most");
    expect_product(md.m, SPLIT, 16);
    expect_product(md.m, SPLIT, 64);
    st_model_free(&md);
}

/* Recorded at 2, 3 and 4 (2 x 1, 3 x 1, 2 x 2), the grid's two numberings are the same
 * at 2 and 3 and each other's transpose at 4: read with the first dimension fastest
 * (prognoz scale's first reading in 2-D, for NAS FT's grid), the rows of 1 process at 2
 * and 3 would be slices along the first dimension, of 2 and 3, and the columns along
 * the second, of 1: no class, and no model is built (before, one was, whose steps on the
 * process alone and on the world were made where the second dimension has 1 process,
 * and whose broadcasts on the rows kept their size at 4).  Read row-major they are the
 * rows and columns, and at 16 and 64 the run is the program's: the rows' blocks, seen
 * at 4 alone (36864 bytes), take the columns' law exchanged, 294912 / (dims[0]^2
 * dims[1]), whose columns' form is told by 2, 3 and 4 (147456, 98304, 36864 = 294912
 * / (2 x 1), / (3 x 1), / (2 x 4)). */
Test(scale_summa, rows_and_columns_split_from_2_3_4_are_read_row_major)
{
    static const int counts[] = { 2, 3, 4 };
    char dirs[3][4200];
    struct st_model md;

    for (int i = 0; i < 3; i++)
        record("small", counts[i], SPLIT, dirs[i], sizeof(dirs[i]));
    read_model(dirs, 2, 1, &md);
    cr_expect_null(md.m, "a model of the recordings read with the first dimension fastest");
    st_model_free(&md);
    read_model(dirs, 2, 0, &md);
    cr_assert_not_null(md.m, "%s", err);
    expect_product(md.m, SPLIT, 16);
    expect_product(md.m, SPLIT, 64);
    st_model_free(&md);
}

/* The same on MPI_Cart_create's grid and MPI_Cart_sub's rows and columns, from 2, 4
 * and 8 and from 3, 6 and 12 (refused before: "the steps cannot be merged with the other
 * processes'", process 0 the root of the first step and not of the second). */
Test(scale_summa, rows_and_columns_of_cart_sub_are_synthesized_at_16_and_64)
{
    static const int small[] = { 2, 4, 8 }, odd[] = { 3, 6, 12 };
    struct st_model md;

    model_of("cart", small, CART, &md);
    cr_assert_not_null(md.m, "%s", err);
    expect_product(md.m, CART, 16);
    expect_product(md.m, CART, 64);
    st_model_free(&md);
    model_of("cart3_", odd, CART, &md);
    cr_assert_not_null(md.m, "%s", err);
    expect_product(md.m, CART, 16);
    expect_product(md.m, CART, 64);
    st_model_free(&md);
}

/* At step k of P, an MPI_Bcast and an MPI_Reduce of BLOCK bytes on the world from root k
 * (the root of the broadcast sending (P - 1) x 1024 bytes, the others receiving 1024;
 * the root of the reduction receiving (P - 1) x 1024, the others sending 1024): at 16,
 * process 3 is the root of both at step 3 of each pass, sending 15360 bytes in the
 * broadcast and receiving 15360 in the reduction, and takes the others' part at the
 * other 15 steps; at 64 the roots move 63 x 1024 = 64512 bytes. */
Test(scale_summa, a_root_that_is_the_step_on_the_world_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    static const int at[] = { 16, 64 };
    struct st_model md;

    model_of("step", counts, WORLD_STEP, &md);
    cr_assert_not_null(md.m, "%s", err);
    for (int i = 0; i < 2; i++) {
        int n = at[i];
        uint64_t root_moves = (uint64_t)(n - 1) * BLOCK;

        sm_synthesize(md.m, n, &got, err, sizeof(err));
        for (int p = 0; p < n; p++) {
            int j = 0;

            cr_assert_eq(got.collectives[p], PASSES * 2 * n, "at %d, process %d: %d "
                         "collectives", n, p, got.collectives[p]);
            for (int pass = 0; pass < PASSES; pass++)
                for (int k = 0; k < n; k++) {
                    expect_bcast(n, p, j++, 0, 1, n, p, k, BLOCK);
                    expect_collective(n, p, j++, OTF2_COLLECTIVE_OP_REDUCE, 0, 1, n, k,
                                      p == k ? 0 : BLOCK, p == k ? root_moves : 0);
                }
        }
    }
    st_model_free(&md);
}

/* The same broadcast from root k at step k by MPI_Ibcast, completed by MPI_Wait: the
 * completion carries the root and the sizes, the request the root its completion's (as
 * the template takes it); at 16 and 64 process 3 completes in each pass 16 (64)
 * broadcasts from roots 0, 1, 2 ..., sending (P - 1) x 1024 bytes in the one from 3. */
Test(scale_summa, a_nonblocking_broadcast_from_the_step_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    static const int at[] = { 16, 64 };
    struct st_model md;

    model_of("ibcast", counts, IBCAST, &md);
    cr_assert_not_null(md.m, "%s", err);
    for (int i = 0; i < 2; i++) {
        int n = at[i];

        sm_synthesize(md.m, n, &got, err, sizeof(err));
        cr_assert_eq(got.collectives[3], PASSES * n, "at %d, process 3: %d broadcasts", n,
                     got.collectives[3]);
        for (int j = 0; j < PASSES * n; j++)
            expect_bcast(n, 3, j, 0, 1, n, 3, j % n, BLOCK);
    }
    st_model_free(&md);
}

/* prognoz scale itself on the product split at 2, 4 and 8: with no message to show a
 * grid the recordings are read in one dimension first, where rows of 1, 2 and 2
 * consecutive ranks are no class of one k and the model cannot be built; read in
 * MPI_Dims_create's 2-D grid they are its rows and columns, and the runs at 16 and 64
 * are synthesized and replayed, the report noting the roots that turn. */
Test(scale_summa, prognoz_scale_takes_the_split_product_end_to_end)
{
    static const int counts[] = { 2, 4, 8 };
    char cmd[20000], dirs[3][4200], out[4200];

    for (int i = 0; i < 3; i++)
        record("cmd", counts[i], SPLIT, dirs[i], sizeof(dirs[i]));
    snprintf(out, sizeof(out), "%s/synth", top);
    snprintf(cmd, sizeof(cmd), "%s scale %s %s %s --ranks 16,64 --machine %s --trace-out %s "
             "-o %s/report.txt", PROGNOZ_PATH, dirs[0], dirs[1], dirs[2], MACHINE_PATH, out,
             top);
    cr_assert_eq(system(cmd), 0, "prognoz scale refused the recordings (above): %s", cmd);
    snprintf(cmd, sizeof(cmd), "test -f %s/P16/traces.otf2 && grep -q 'turns with the "
             "iteration' %s/report.txt", out, top);
    cr_expect_eq(system(cmd), 0, "no run synthesized at 16 in %s, or no note of the roots "
                 "that turn in %s/report.txt", out, top);
}

/* Two broadcasts alike from root k at step k of P: rewritten into one step each, the
 * folding makes of them one loop of 2 P iterations, whose iteration would turn the root
 * at every broadcast (0, 1, 2, 3 ... where the program broadcasts from 0, 0, 1, 1 ...).
 * Where the folding does not give back every recorded root the steps stay as recorded
 * (scale_turns_law.c): either no model, or one whose roots at 16 are the program's. */
Test(scale_summa, two_broadcasts_alike_per_step_turn_their_root_once_a_step)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("twice", counts, TWICE, &md);
    if (md.m) {
        sm_synthesize(md.m, 16, &got, err, sizeof(err));
        for (int j = 0; j < 2 * 16; j++)
            expect_bcast(16, 5, j, 0, 1, 16, 5, j / 2, BLOCK);
    }
    st_model_free(&md);
}
