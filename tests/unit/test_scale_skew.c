/* Cannon's matrix product's skews (scale_skew.c): on MPI_Cart_create's periodic grid of
 * rows x cols (MPI_Dims_create's), process (y, x) of rank y * cols + x sends its block
 * of A to (y, x - y mod cols) and receives from (y, x + y mod cols), then its block of B
 * to (y - x mod rows, x) and from (y + x mod rows, x), each with MPI_Sendrecv_replace,
 * then STEPS times shifts A by one along the row ((y, x - 1) and from (y, x + 1)) and B
 * along the column ((y - 1, x), from (y + 1, x)).  Recorded by hand (trace_builder.h) at 1, 4 and
 * 9 processes (square grids, where a constant offset per class of position fits the
 * skews as well), at 4, 6 and 12 (3 x 2, 4 x 3: grids whose extents differ) and with A's
 * calls on the rows (MPI_Cart_sub's), and synthesized at 16, 24 and 64: every process's
 * messages are the program's (plan(): kind, peer, tag and bytes, in order), a few of
 * them worked out by hand.  A sent 2y along the row, neither a skew nor a constant per
 * class, is refused; B's skew recorded where no count tells it is noted.  As the
 * textbook writes it, every call has one tag and two more restore the blocks at the
 * end: A to (y, x + y), B to (y + x, x). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "scale_messages.h"
#include "scale_program.h"
#include "scale_run.h"
#include "tempdir_fixture.h"
#include "trace.h"
#include "trace_builder.h"

#define MS TB_MS
#define BYTES 32768u   /* a block of 64 x 64 doubles */
#define SKEW_A 1u
#define SKEW_B 2u
#define SHIFT_A 3u
#define SHIFT_B 4u
#define ONE_TAG 1u     /* the textbook's tag of every call */
#define STEPS 3        /* shifts by one after the skews */
#define MAX_CALLS (4 + 2 * STEPS)   /* MPI_Sendrecv_replace of a run, A's and B's in turn */

TestSuite(scale_skew, .init = setup, .fini = cleanup);

/* The world rank at (y, x) of the periodic grid of rows x cols. */
static int at(int rows, int cols, int y, int x)
{
    return ((y % rows + rows) % rows) * cols + (x % cols + cols) % cols;
}

/* How far along its row a process of row y sends A: y (Cannon's), 2 y (no skew), or
 * 0 (to itself). */
static int (*a_by)(int y);

static int by_row(int y)
{
    return y;
}

static int by_twice(int y)
{
    return 2 * y;
}

static int by_none(int y)
{
    return 0 * y;
}

/* Whether the program is the textbook's: one tag, and the blocks restored at the end. */
static int textbook;

/* The tag of a call that the program's own tags tell apart. */
static uint32_t tag(uint32_t own)
{
    return textbook ? ONE_TAG : own;
}

/* The program's definition: process p's messages at nprocs, in order, into out (2 *
 * MAX_CALLS at most: each call's send, then its receive); how many. */
static int plan(int nprocs, int p, struct sm_message *out)
{
    int rows, cols, y, x, n = 0;

    sm_dims2(nprocs, &rows, &cols);
    y = p / cols;
    x = p % cols;
    out[n++] = (struct sm_message){PZ_REC_SEND, at(rows, cols, y, x - a_by(y)), tag(SKEW_A), BYTES};
    out[n++] = (struct sm_message){PZ_REC_RECV, at(rows, cols, y, x + a_by(y)), tag(SKEW_A), BYTES};
    out[n++] = (struct sm_message){PZ_REC_SEND, at(rows, cols, y - x, x), tag(SKEW_B), BYTES};
    out[n++] = (struct sm_message){PZ_REC_RECV, at(rows, cols, y + x, x), tag(SKEW_B), BYTES};
    for (int step = 0; step < STEPS; step++) {
        out[n++] = (struct sm_message){PZ_REC_SEND, at(rows, cols, y, x - 1), tag(SHIFT_A), BYTES};
        out[n++] = (struct sm_message){PZ_REC_RECV, at(rows, cols, y, x + 1), tag(SHIFT_A), BYTES};
        out[n++] = (struct sm_message){PZ_REC_SEND, at(rows, cols, y - 1, x), tag(SHIFT_B), BYTES};
        out[n++] = (struct sm_message){PZ_REC_RECV, at(rows, cols, y + 1, x), tag(SHIFT_B), BYTES};
    }
    if (textbook) {
        out[n++] = (struct sm_message){PZ_REC_SEND, at(rows, cols, y, x + y), ONE_TAG, BYTES};
        out[n++] = (struct sm_message){PZ_REC_RECV, at(rows, cols, y, x - y), ONE_TAG, BYTES};
        out[n++] = (struct sm_message){PZ_REC_SEND, at(rows, cols, y + x, x), ONE_TAG, BYTES};
        out[n++] = (struct sm_message){PZ_REC_RECV, at(rows, cols, y - x, x), ONE_TAG, BYTES};
    }
    return n;
}

/* Whether A's calls are on the process's row (MPI_Cart_sub's, periodic), the partner
 * its rank there, rather than on the grid's communicator. */
static int a_on_rows;

/* Row y's communicator of the grid of rows x cols into row[y], when A's calls are on
 * it. */
static void rows_of(struct tb *b, int rows, int cols, uint32_t *row)
{
    for (int y = 0; a_on_rows && y < rows; y++) {
        int members[SM_MAX_PROCS];
        char name[32];

        for (int x = 0; x < cols; x++)
            members[x] = y * cols + x;
        snprintf(name, sizeof(name), "Comm %d (MPI_Cart_sub)", 3 + y);
        row[y] = tb_comm(b, name, cols, members);
        tb_cart(b, row[y], 1, (const uint32_t[]){(uint32_t)cols}, (const int[]){1}, 1);
    }
}

/* The program the next recordings make: A sent by `by` along its row, on the rows or
 * not, the textbook's or not. */
static void program(int (*by)(int), int on_rows, int book)
{
    a_by = by;
    a_on_rows = on_rows;
    textbook = book;
}

/* The program recorded at nprocs into DIR/NAME<nprocs>: MPI_Init, the grid, then its
 * calls on the grid's communicator (A's on the rows when a_on_rows), each 1 ms after 5
 * ms of computation. */
static void record(const char *name, int nprocs, char *dir, size_t len)
{
    int rows, cols, members[SM_MAX_PROCS];
    uint32_t cart, call, row[SM_MAX_PROCS];
    struct tb *b;

    snprintf(dir, len, "%s/%s%d", top, name, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    sm_dims2(nprocs, &rows, &cols);
    for (int p = 0; p < nprocs; p++)
        members[p] = p;
    cart = tb_comm(b, "Comm 2 (MPI_Cart_create)", nprocs, members);
    tb_cart(b, cart, 2, (const uint32_t[]){(uint32_t)rows, (uint32_t)cols}, (const int[]){1, 1},
            1);
    rows_of(b, rows, cols, row);
    call = tb_mpi(b, "MPI_Sendrecv_replace");
    for (int p = 0; p < nprocs; p++) {
        uint64_t t = MS(1);
        struct sm_message msg[2 * MAX_CALLS];
        int n;

        tb_call(b, p, "MPI_Init", 0, t);
        n = plan(nprocs, p, msg);
        for (int j = 0; j < n; j += 2) {
            int rowwise = a_on_rows && j / 2 % 2 == 0;   /* A's calls and B's in turn */
            uint32_t comm = rowwise ? row[p / cols] : cart;
            int to = rowwise ? msg[j].peer % cols : msg[j].peer;
            int from = rowwise ? msg[j + 1].peer % cols : msg[j + 1].peer;

            tb_enter(b, p, t += MS(5), call);
            tb_mpi_send(b, p, t, comm, (uint32_t)to, msg[j].tag, BYTES);
            tb_mpi_recv(b, p, t + MS(1), comm, (uint32_t)from, msg[j + 1].tag, BYTES);
            tb_leave(b, p, t += MS(1), call);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

static struct sm_run got;

/* The run synthesized at nprocs is the program's (plan()): every process makes its
 * messages in order. */
static void expect_run(const struct pz_scale_program *m, int nprocs)
{
    sm_synthesize(m, nprocs, &got, err, sizeof(err));
    for (int p = 0; p < nprocs; p++) {
        struct sm_message want[2 * MAX_CALLS];
        int n = plan(nprocs, p, want);

        sm_expect_passes(&got, nprocs, p, want, n, 1);
    }
}

#define S PZ_REC_SEND
#define R PZ_REC_RECV
#define A(kind, peer) {kind, peer, SKEW_A, BYTES}
#define B(kind, peer) {kind, peer, SKEW_B, BYTES}

/* Recorded at 1, 4 and 9: at 3 x 3 row y sends A by -y along its row, 0, -1 and -2 =
 * +1 the short way round, which a constant offset per class of position (first, middle,
 * last row) fits too but would give rows 1 and 2 of 4 x 4 one offset; the skew is
 * taken, a note says so for both dimensions.  At 16 (4 x 4), process 10 = (2, 2) sends
 * A to (2, 2 - 2) = 8 and receives it from (2, 2 + 2 = 4 = 0) = 8, sends B to (2 - 2,
 * 2) = 2 and receives it from (4 = 0, 2) = 2; process 9 = (2, 1) sends A to (2, 1 - 2 =
 * -1 = 3) = 11, receives from (2, 3) = 11, sends B to (2 - 1, 1) = 5, receives from (3,
 * 1) = 13; process 7 = (1, 3): A to (1, 2) = 6, from (1, 4 = 0) = 4; B to (1 - 3 = -2 =
 * 2, 3) = 11, from (4 = 0, 3) = 3.  At 64 (8 x 8), process 29 = (3, 5): A to (3, 2) =
 * 26, from (3, 8 = 0) = 24; B to (3 - 5 = -2 = 6, 5) = 53, from (8 = 0, 5) = 5; process
 * 63 = (7, 7): A to (7, 0) = 56, from (7, 14 = 6) = 62; B to (0, 7) = 7, from (14 = 6,
 * 7) = 55. */
Test(scale_skew, square_grids_at_16_and_64)
{
    static const int counts[] = {1, 4, 9};
    static const struct sm_message p10[] = {A(S, 8), A(R, 8), B(S, 2), B(R, 2)};
    static const struct sm_message p9[] = {A(S, 11), A(R, 11), B(S, 5), B(R, 13)};
    static const struct sm_message p7[] = {A(S, 6), A(R, 4), B(S, 11), B(R, 3)};
    static const struct sm_message p29[] = {A(S, 26), A(R, 24), B(S, 53), B(R, 5)};
    static const struct sm_message p63[] = {A(S, 56), A(R, 62), B(S, 7), B(R, 55)};
    struct st_model md;
    const char *note;

    program(by_row, 0, 0);
    sm_model_of(&md, "square", counts, record);
    note = sm_note(md.m, "along dimension 1 equal to minus the coordinate along dimension 0");
    cr_expect(note && strstr(note, "a skew, as Cannon's algorithm makes") &&
                  strstr(note, "(1, 4, 9)"),
              "note of the skew of A '%s'", note ? note : "(none)");
    cr_expect_not_null(sm_note(md.m, "along dimension 1 equal to plus the coordinate along "
                                     "dimension 0"), "no note of A's receive");
    cr_expect_not_null(sm_note(md.m, "along dimension 0 equal to minus the coordinate along "
                                     "dimension 1"), "no note of the skew of B");
    expect_run(md.m, 16);
    sm_expect_first(&got, 16, 10, p10, 4);
    sm_expect_first(&got, 16, 9, p9, 4);
    sm_expect_first(&got, 16, 7, p7, 4);
    expect_run(md.m, 64);
    sm_expect_first(&got, 64, 29, p29, 4);
    sm_expect_first(&got, 64, 63, p63, 4);
    st_model_free(&md);
}

/* The textbook's program, recorded at 1, 4 and 9: one tag for the skews, the shifts and
 * the shifts back, so that no law holds for the calls taken together (every shift goes
 * by -1).  The 1st and 2nd calls at each process are the skews of A and B, the 2nd to
 * last and the last restore them, each taken on its own, with a note.  At 16 (4 x 4),
 * process 9 = (2, 1) sends A to 11 and receives from 11, sends B to 5 and receives from
 * 13 as in square_grids_at_16_and_64, then shifts, then sends A back to (2, 1 + 2) = 11,
 * receives from (2, 1 - 2 = 3) = 11, sends B to (2 + 1, 1) = 13 and receives from (1,
 * 1) = 5; process 0 makes all four with itself. */
Test(scale_skew, one_tag_with_the_blocks_restored_at_16_and_64)
{
    static const int counts[] = {1, 4, 9};
    static const struct sm_message p9[] = {
        {S, 11, ONE_TAG, BYTES}, {R, 11, ONE_TAG, BYTES}, {S, 5, ONE_TAG, BYTES},
        {R, 13, ONE_TAG, BYTES}};
    static const struct sm_message p9_back[] = {
        {S, 11, ONE_TAG, BYTES}, {R, 11, ONE_TAG, BYTES}, {S, 13, ONE_TAG, BYTES},
        {R, 5, ONE_TAG, BYTES}};
    struct st_model md;

    program(by_row, 0, 1);
    sm_model_of(&md, "textbook", counts, record);
    cr_expect_not_null(sm_note(md.m, "sent by the 1st MPI_Sendrecv_replace of its kind at each "
                                     "process are at an offset along dimension 1 equal to "
                                     "minus the coordinate along dimension 0"), "no note");
    cr_expect_not_null(sm_note(md.m, "sent by the last MPI_Sendrecv_replace of its kind at "
                                     "each process are at an offset along dimension 0 equal "
                                     "to plus the coordinate along dimension 1"), "no note");
    expect_run(md.m, 16);
    sm_expect_first(&got, 16, 9, p9, 4);
    for (int j = 0; j < 4; j++)
        sm_expect_message(&got, 16, 9, got.n[9] - 4 + j, &p9_back[j]);
    expect_run(md.m, 64);
    st_model_free(&md);
}

/* Recorded at 4, 6 and 12 (2 x 2, 3 x 2, 4 x 3), the skews are told at 4 x 3 (A by -y
 * modulo 3 columns, B by -x modulo 4 rows) and taken modulo each dimension's own extent.
 * At 24 (6 x 4), process 22 = (5, 2) sends A to (5, 2 - 5 = -3 = 1) = 21, receives from
 * (5, 7 = 3) = 23, sends B to (5 - 2, 2) = 14, receives from (7 = 1, 2) = 6; process 13
 * = (3, 1): A to (3, -2 = 2) = 14, from (3, 4 = 0) = 12; B to (2, 1) = 9, from (4, 1) =
 * 17.  At 16 and 64 every process too. */
Test(scale_skew, grids_of_unequal_extents_at_24)
{
    static const int counts[] = {4, 6, 12};
    static const struct sm_message p22[] = {A(S, 21), A(R, 23), B(S, 14), B(R, 6)};
    static const struct sm_message p13[] = {A(S, 14), A(R, 12), B(S, 9), B(R, 17)};
    struct st_model md;

    program(by_row, 0, 0);
    sm_model_of(&md, "unequal", counts, record);
    cr_expect_not_null(sm_note(md.m, "a skew, as Cannon's algorithm makes"), "no note");
    expect_run(md.m, 24);
    sm_expect_first(&got, 24, 22, p22, 4);
    sm_expect_first(&got, 24, 13, p13, 4);
    expect_run(md.m, 16);
    expect_run(md.m, 64);
    st_model_free(&md);
}

/* A's calls on the process's row (MPI_Cart_sub's), recorded at 4, 9 and 25 (at 1 the
 * row's topology is the world's too): the skew is along the row's one dimension, by
 * the coordinate along the grid's first, which the row does not keep;
 * the partners are the same processes as on the grid (at 16, process 9 = (2, 1) sends
 * A to rank 3 of row 2, world rank 11, and receives from it; at 64, process 29 = (3, 5)
 * to rank 2 of row 3, 26, from rank 0, 24). */
Test(scale_skew, a_along_the_rows_at_16_and_64)
{
    static const int counts[] = {4, 9, 25};
    static const struct sm_message p9[] = {A(S, 11), A(R, 11), B(S, 5), B(R, 13)};
    static const struct sm_message p29[] = {A(S, 26), A(R, 24), B(S, 53), B(R, 5)};
    struct st_model md;

    program(by_row, 1, 0);
    sm_model_of(&md, "rows", counts, record);
    cr_expect_not_null(sm_note(md.m, "along dimension 1 equal to minus the coordinate along "
                                     "dimension 0"), "no note of the skew of A");
    expect_run(md.m, 16);
    sm_expect_first(&got, 16, 9, p9, 4);
    expect_run(md.m, 64);
    sm_expect_first(&got, 64, 29, p29, 4);
    st_model_free(&md);
}

/* A sent to the process itself (by 0 along the row) and recorded at 2, 4 and 8 (2 x 1,
 * 2 x 2, 4 x 2): no count has 3 processes along both dimensions, and B's offsets along
 * the rows (columns 0 and 1: 0 and -1) fit a skew and a constant per class alike.  The
 * offsets per class are taken, as before, and a note says the partners may not be
 * extrapolated faithfully and what would tell; A's, at offset 0 everywhere, have none. */
Test(scale_skew, no_recording_tells_a_skew_noted)
{
    static const int counts[] = {2, 4, 8};
    struct st_model md;
    const char *note;

    program(by_none, 0, 0);
    sm_model_of(&md, "untold", counts, record);
    cr_expect_null(sm_note(md.m, "a skew, as Cannon's algorithm makes, is taken"), "taken");
    note = sm_note(md.m, "may be at an offset along dimension 0 equal to plus or minus the "
                         "coordinate along dimension 1");
    cr_expect(note && strstr(note, "no recorded count (2, 4, 8)") &&
                  strstr(note, "may not extrapolate the partners faithfully"),
              "note '%s'", note ? note : "(none)");
    cr_expect_null(sm_note(md.m, "along dimension 1 equal to plus or minus"), "A's note");
    st_model_free(&md);
}

/* A to -2y along the row, recorded at 4, 9 and 16, is no skew (s is +1 or -1) and no
 * constant offset per class either: at 4 x 4 the middle rows 1 and 2 send A by -2 and -4
 * = 0.  The model is refused, naming the call, rather than built with partners it would
 * not extrapolate faithfully. */
Test(scale_skew, offsets_by_twice_the_row_refused)
{
    static const int counts[] = {4, 9, 16};
    struct st_model md;
    char dirs[3][4200];

    program(by_twice, 0, 0);
    for (int i = 0; i < 3; i++)
        record("twice", counts[i], dirs[i], sizeof(dirs[i]));
    sm_model_read(&md, (const char *const[]){dirs[0], dirs[1], dirs[2]}, err, sizeof(err));
    cr_expect_null(md.m, "a model was built");
    cr_expect(strstr(err, "MPI_Sendrecv_replace") && !strchr(err, '\n'), "err '%s'", err);
    st_model_free(&md);
}
