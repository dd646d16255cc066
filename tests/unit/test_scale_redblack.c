/* Steps ordered by the parity of the position (a red-black ordering, scale_guard.c): a
 * program of blocking sends and receives avoids waiting on itself by letting the
 * processes of one parity send first and the others receive first.  Recorded by hand
 * (trace_builder.h) on a ring and a chain at 2, 4 and 8 processes (the grid inferred
 * from the messages, as prognoz scale reads recordings), on MPI_Cart_create's 2-D grids
 * at 4, 8 and 12 ordered by the parity of the first coordinate, and as a checkerboard
 * (the parity of the sum of both coordinates) at 6, 9 and 12; synthesized at 16 and 64
 * (and at odd counts on the ring), every process's messages are the program's: their
 * kind, peer, tag and bytes in order, and one MPI_Allreduce per iteration.  The
 * program's definition (plan()) is what a run at P really does, and each test's comment
 * works out a few processes by hand; a program ordered by the rank modulo 3 is
 * refused in one line; and prognoz scale, asked for a count where the program's run
 * cannot complete, leaves no trace of it. */
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
#define ITERS 3
#define MAX_CALLS 8                  /* messages of one iteration, at most */
#define X_BYTES 8192u                /* a message along dimension 0 */
#define Y_BYTES 4096u                /* one along dimension 1 */

TestSuite(scale_redblack, .init = setup, .fini = cleanup);

/* How the program orders its exchange with its neighbours. */
enum shape {
    RING,      /* 1-D periodic: even ranks MPI_Send to r + 1 then MPI_Recv from r - 1,
                  odd ranks the other way round; tag 1 */
    CHAIN,     /* the same without the wrap: no send from the last, no receive at the
                  first */
    BOTH,      /* a ring both ways: even ranks send right (tag 1), receive from the
                  left (tag 1), send left (tag 2), receive from the right (tag 2); odd
                  ranks receive from the left, send right, receive from the right, send
                  left */
    GRID_X,    /* MPI_Cart_create's 2-D grid, not periodic: by the parity of x (the first
                  coordinate) as CHAIN along x (8192 bytes); then, whatever the parity,
                  MPI_Send to y + 1 and MPI_Recv from y - 1 where they exist (4096
                  bytes, tag 3) */
    CHECKER,   /* MPI_Cart_create's 2-D grid, not periodic, a checkerboard: where x + y is
                  even, MPI_Send to x + 1, x - 1, y + 1, y - 1 (tags 1, 2, 3, 4), then
                  MPI_Recv from x - 1, x + 1, y - 1, y + 1 (tags 1, 2, 3, 4); where it
                  is odd, the receives first, then the sends */
    MOD3,      /* RING with the ranks that are multiples of 3 sending first */
    TWO_SENDS  /* a ring both ways, even ranks sending first both ways: send right (tag
                  1), send left (tag 2), receive from the left (tag 1), from the right
                  (tag 2); odd ranks receive both, then send both; BIG_BYTES each */
};

#define BIG_BYTES 262144u    /* sent by rendezvous on gigabit-switch (eager: 64 KiB) */

static int two_d(enum shape shape)
{
    return shape == GRID_X || shape == CHECKER;
}

/* The neighbour of p at nprocs dx, dy away (dy on the 2-D grids only); -1 beyond an
 * edge.  The ring (RING, BOTH, MOD3) wraps. */
static int neighbour(enum shape shape, int nprocs, int p, int dx, int dy)
{
    int rows = nprocs, cols = 1, x, y;

    if (two_d(shape))
        sm_dims2(nprocs, &rows, &cols);
    x = p / cols + dx;
    y = p % cols + dy;
    if (shape == RING || shape == BOTH || shape == MOD3 || shape == TWO_SENDS)
        x = (x + rows) % rows;
    if (x < 0 || x >= rows || y < 0 || y >= cols)
        return -1;
    return x * cols + y;
}

/* Whether p sends first: the parity the program orders its calls by. */
static int sends_first(enum shape shape, int nprocs, int p)
{
    int rows = nprocs, cols = 1;

    if (two_d(shape))
        sm_dims2(nprocs, &rows, &cols);
    if (shape == MOD3)
        return p % 3 == 0;
    if (shape == CHECKER)
        return (p / cols + p % cols) % 2 == 0;
    return (p / cols) % 2 == 0;
}

static void add(struct sm_message *out, int *n, uint8_t kind, int peer, uint32_t tag,
                uint64_t bytes)
{
    if (peer >= 0)
        out[(*n)++] = (struct sm_message){kind, peer, tag, bytes};
}

/* The program's definition: the messages process p makes in one iteration at nprocs,
 * in order, into out; their number. */
static int plan(enum shape shape, int nprocs, int p, struct sm_message *out)
{
    int first = sends_first(shape, nprocs, p), n = 0;
    int right = neighbour(shape, nprocs, p, 1, 0), left = neighbour(shape, nprocs, p, -1, 0);

    if (shape == CHECKER) {
        static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};

        for (int half = 0; half < 2; half++)
            for (int i = 0; i < 4; i++) {
                int send = half == !first, sign = send ? 1 : -1;
                uint64_t bytes = i < 2 ? X_BYTES : Y_BYTES;

                add(out, &n, send ? PZ_REC_SEND : PZ_REC_RECV,
                    neighbour(shape, nprocs, p, sign * dx[i], sign * dy[i]), (uint32_t)i + 1,
                    bytes);
            }
        return n;
    }
    if (shape == TWO_SENDS) {
        for (int half = 0; half < 2; half++) {
            int send = half == !first;

            add(out, &n, send ? PZ_REC_SEND : PZ_REC_RECV, send ? right : left, 1, BIG_BYTES);
            add(out, &n, send ? PZ_REC_SEND : PZ_REC_RECV, send ? left : right, 2, BIG_BYTES);
        }
        return n;
    }
    for (int i = 0; i < 2; i++) {
        if (i == !first)
            add(out, &n, PZ_REC_SEND, right, 1, X_BYTES);
        else
            add(out, &n, PZ_REC_RECV, left, 1, X_BYTES);
    }
    for (int i = 0; shape == BOTH && i < 2; i++) {
        if (i == !first)
            add(out, &n, PZ_REC_SEND, left, 2, X_BYTES);
        else
            add(out, &n, PZ_REC_RECV, right, 2, X_BYTES);
    }
    if (shape == GRID_X) {
        add(out, &n, PZ_REC_SEND, neighbour(shape, nprocs, p, 0, 1), 3, Y_BYTES);
        add(out, &n, PZ_REC_RECV, neighbour(shape, nprocs, p, 0, -1), 3, Y_BYTES);
    }
    return n;
}

/* Whether the iterations are bare: no MPI_Allreduce, and interval 1 around all of them
 * rather than each, so that nothing but the messages separates one from the next. */
static int bare;

/* The program recorded at nprocs into DIR/NAME<nprocs>: ITERS iterations in interval 1,
 * each 2 ms of computation, the messages of plan() by MPI_Send and MPI_Recv, and an
 * MPI_Allreduce of 8 bytes (as bare says).  The 2-D shapes record MPI_Cart_create's grid
 * of the world (not periodic). */
static void record(const char *name, int nprocs, enum shape shape, char *dir, size_t len)
{
    struct tb *b;
    uint32_t interval, send, recv, allreduce;

    snprintf(dir, len, "%s/%s%d", top, name, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    if (two_d(shape)) {
        int rows, cols;

        sm_dims2(nprocs, &rows, &cols);
        tb_cart(b, TB_WORLD, 2, (const uint32_t[]){(uint32_t)rows, (uint32_t)cols}, NULL, 1);
    }
    interval = tb_interval(b, 1, "redblack.c", 10);
    send = tb_mpi(b, "MPI_Send");
    recv = tb_mpi(b, "MPI_Recv");
    allreduce = tb_mpi(b, "MPI_Allreduce");
    for (int p = 0; p < nprocs; p++) {
        uint64_t t = MS(1);

        for (int it = 0; it < ITERS; it++) {
            struct sm_message msg[MAX_CALLS];
            int n = plan(shape, nprocs, p, msg);

            t += MS(2);
            if (!bare || !it)
                tb_enter(b, p, t, interval);
            for (int i = 0; i < n; i++) {
                if (msg[i].kind == PZ_REC_SEND) {
                    tb_enter(b, p, t += MS(1), send);
                    tb_mpi_send(b, p, t, TB_WORLD, (uint32_t)msg[i].peer, msg[i].tag,
                                msg[i].bytes);
                    tb_leave(b, p, t += MS(1), send);
                } else {
                    tb_enter(b, p, t += MS(1), recv);
                    tb_mpi_recv(b, p, t + MS(1), TB_WORLD, (uint32_t)msg[i].peer,
                                msg[i].tag, msg[i].bytes);
                    tb_leave(b, p, t += MS(1), recv);
                }
            }
            if (!bare) {
                tb_enter(b, p, t += MS(1), allreduce);
                tb_collective_begin(b, p, t);
                tb_collective_end(b, p, t + MS(1), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD,
                                  TB_NO_ROOT, 8, 8);
                tb_leave(b, p, t += MS(1), allreduce);
            }
            if (!bare || it == ITERS - 1)
                tb_leave(b, p, t += MS(1), interval);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* The program recorded at counts[0..2] and its model (sm_model_read). */
static void model_of(const char *name, const int *counts, enum shape shape,
                     struct st_model *md)
{
    char dirs[3][4200];

    for (int i = 0; i < 3; i++)
        record(name, counts[i], shape, dirs[i], sizeof(dirs[i]));
    sm_model_read(md, (const char *const[]){dirs[0], dirs[1], dirs[2]}, err, sizeof(err));
}

/* The note of the parity ordering, or NULL. */
static const char *parity_note(const struct pz_scale_program *m)
{
    return sm_note(m, "an order of calls by the parity");
}

/* The synthesized run: every process's messages in order, its MPI_Allreduce calls. */
static struct sm_run got;

/* The run synthesized at nprocs is the program's (plan()): at every process, ITERS
 * times its messages in order, and one MPI_Allreduce per iteration unless bare. */
static void expect_run(const struct pz_scale_program *m, int nprocs, enum shape shape)
{
    sm_synthesize(m, nprocs, &got, err, sizeof(err));
    for (int p = 0; p < nprocs; p++) {
        struct sm_message want[MAX_CALLS];
        int n = plan(shape, nprocs, p, want), j = 0;

        cr_assert_eq(got.n[p], ITERS * n, "at %d, process %d: %d messages, expected %d",
                     nprocs, p, got.n[p], ITERS * n);
        cr_assert_eq(got.off_world[p], 0, "process %d: %d messages off the world", p,
                     got.off_world[p]);
        cr_expect_eq(got.collectives[p], bare ? 0 : ITERS,
                     "at %d, process %d: %d MPI_Allreduce calls",
                     nprocs, p, got.collectives[p]);
        for (int it = 0; it < ITERS; it++)
            for (int i = 0; i < n; i++)
                sm_expect_message(&got, nprocs, p, j++, &want[i]);
    }
}

/* Process p's first messages at nprocs are want[0..n-1] (worked out by hand). */
static void expect_first(int nprocs, int p, const struct sm_message *want, int n)
{
    sm_expect_first(&got, nprocs, p, want, n);
}

#define S PZ_REC_SEND
#define R PZ_REC_RECV

/* The ring recorded at 2, 4 and 8 (at 2, both neighbours of a process are the other
 * one; at 4 ranks 0 and 2 send first, 1 and 3 receive first: no position of the ring's
 * grid tells 0 and 2 from 1 and 3, and only the parity of the rank explains it at every
 * count; at 8 ranks 0, 2, 4, 6).  The note says the order is by the parity of the
 * coordinate along dimension 0, and that the recordings had only even lengths along the
 * periodic dimension.  At 16, process 6 sends to 7 then receives from 5, process 7
 * receives from 6 then sends to 8, process 15 receives from 14 then sends to 0, process
 * 0 sends to 1 then receives from 15; at 64, process 63 receives from 62 and sends to 0
 * (expect_run checks every process, 3 iterations of 8192 bytes tagged 1). */
Test(scale_redblack, a_ring_ordered_by_parity_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;
    const char *note;

    model_of("ring", counts, RING, &md);
    cr_assert_not_null(md.m, "%s", err);
    note = parity_note(md.m);
    cr_assert_not_null(note, "no note of the parity");
    cr_expect(strstr(note, "one parity of their coordinate along dimension 0") != NULL &&
                  strstr(note, "dimension 0 is periodic") != NULL &&
                  strstr(note, "an even number along it (2, 4, 8)") != NULL,
              "note '%s'", note);
    expect_run(md.m, 16, RING);
    expect_first(16, 6, (const struct sm_message[]){{S, 7, 1, X_BYTES}, {R, 5, 1, X_BYTES}}, 2);
    expect_first(16, 7, (const struct sm_message[]){{R, 6, 1, X_BYTES}, {S, 8, 1, X_BYTES}}, 2);
    expect_first(16, 15, (const struct sm_message[]){{R, 14, 1, X_BYTES}, {S, 0, 1, X_BYTES}}, 2);
    expect_first(16, 0, (const struct sm_message[]){{S, 1, 1, X_BYTES}, {R, 15, 1, X_BYTES}}, 2);
    expect_run(md.m, 64, RING);
    expect_first(64, 63, (const struct sm_message[]){{R, 62, 1, X_BYTES}, {S, 0, 1, X_BYTES}}, 2);
    st_model_free(&md);
}

/* The ring with nothing between its iterations (bare): the even processes make send,
 * receive, send, receive ..., the odd ones receive, send ...  The template's iteration
 * has the send on both sides of the receive, one made by each parity; a process sending
 * first took its next iteration's send for the one after its receive, its next
 * iteration then passed over its first send, and the recordings were refused ("the
 * steps cannot be merged").  Now that iteration is walked again without beginning
 * twice.  At 16, process 6 sends to 7 then receives from 5, process 15 receives from 14
 * then sends to 0, three times (expect_run checks every process). */
Test(scale_redblack, a_ring_ordered_by_parity_with_nothing_between_its_iterations)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    bare = 1;
    model_of("barering", counts, RING, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_expect_not_null(parity_note(md.m), "no note of the parity");
    expect_run(md.m, 16, RING);
    expect_first(16, 6, (const struct sm_message[]){{S, 7, 1, X_BYTES}, {R, 5, 1, X_BYTES}}, 2);
    expect_first(16, 15, (const struct sm_message[]){{R, 14, 1, X_BYTES}, {S, 0, 1, X_BYTES}}, 2);
    expect_run(md.m, 64, RING);
    bare = 0;
    st_model_free(&md);
}

/* The same ring at odd counts: at 5, ranks 0, 2 and 4 are even, and rank 4's right
 * neighbour, 0, is even too; each makes the calls of its parity, as the program would:
 * 4 sends to 0 then receives from 3, 0 sends to 1 then receives from 4 (small messages,
 * sent eagerly: the program completes).  At 17, 16 sends to 0 and receives from 15. */
Test(scale_redblack, a_ring_ordered_by_parity_at_an_odd_count)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("oddring", counts, RING, &md);
    cr_assert_not_null(md.m, "%s", err);
    expect_run(md.m, 5, RING);
    expect_first(5, 4, (const struct sm_message[]){{S, 0, 1, X_BYTES}, {R, 3, 1, X_BYTES}}, 2);
    expect_first(5, 0, (const struct sm_message[]){{S, 1, 1, X_BYTES}, {R, 4, 1, X_BYTES}}, 2);
    expect_first(5, 3, (const struct sm_message[]){{R, 2, 1, X_BYTES}, {S, 4, 1, X_BYTES}}, 2);
    expect_run(md.m, 17, RING);
    expect_first(17, 16, (const struct sm_message[]){{S, 0, 1, X_BYTES}, {R, 15, 1, X_BYTES}}, 2);
    st_model_free(&md);
}

/* The chain recorded at 2, 4 and 8: at 2, rank 0 only sends and rank 1 only receives
 * (one of each parity); at 4, rank 0 sends to 1, rank 1 receives from 0 then sends to
 * 2, rank 2 sends to 3 then receives from 1, rank 3 receives from 2.  No note of a
 * periodic dimension.  At 16, process 14 sends to 15 then receives from 13, process 15
 * (odd, the last) only receives from 14, process 0 only sends to 1; at 64 process 63
 * only receives from 62, process 62 sends to 63 then receives from 61. */
Test(scale_redblack, a_chain_ordered_by_parity_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;
    const char *note;

    model_of("chain", counts, CHAIN, &md);
    cr_assert_not_null(md.m, "%s", err);
    note = parity_note(md.m);
    cr_assert_not_null(note, "no note of the parity");
    cr_expect(strstr(note, "periodic") == NULL, "note '%s'", note);
    expect_run(md.m, 16, CHAIN);
    expect_first(16, 14, (const struct sm_message[]){{S, 15, 1, X_BYTES}, {R, 13, 1, X_BYTES}},
                 2);
    expect_first(16, 15, (const struct sm_message[]){{R, 14, 1, X_BYTES}, {R, 14, 1, X_BYTES}},
                 2);
    expect_first(16, 0, (const struct sm_message[]){{S, 1, 1, X_BYTES}, {S, 1, 1, X_BYTES}}, 2);
    expect_run(md.m, 64, CHAIN);
    expect_first(64, 62, (const struct sm_message[]){{S, 63, 1, X_BYTES}, {R, 61, 1, X_BYTES}},
                 2);
    st_model_free(&md);
}

/* The ring both ways, recorded at 2, 4 and 8: at 16 process 5 (odd) receives from 4
 * (tag 1), sends to 6 (tag 1), receives from 6 (tag 2), sends to 4 (tag 2); process 6
 * sends to 7, receives from 5, sends to 5, receives from 7; at 64 process 0 sends to 1,
 * receives from 63, sends to 63, receives from 1. */
Test(scale_redblack, a_ring_both_ways_ordered_by_parity_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("both", counts, BOTH, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_assert_not_null(parity_note(md.m), "no note of the parity");
    expect_run(md.m, 16, BOTH);
    expect_first(16, 5, (const struct sm_message[]){{R, 4, 1, X_BYTES}, {S, 6, 1, X_BYTES},
                                                 {R, 6, 2, X_BYTES}, {S, 4, 2, X_BYTES}}, 4);
    expect_first(16, 6, (const struct sm_message[]){{S, 7, 1, X_BYTES}, {R, 5, 1, X_BYTES},
                                                 {S, 5, 2, X_BYTES}, {R, 7, 2, X_BYTES}}, 4);
    expect_run(md.m, 64, BOTH);
    expect_first(64, 0, (const struct sm_message[]){{S, 1, 1, X_BYTES}, {R, 63, 1, X_BYTES},
                                                 {S, 63, 2, X_BYTES}, {R, 1, 2, X_BYTES}}, 4);
    st_model_free(&md);
}

/* MPI_Cart_create's grids of 2 x 2, 4 x 2 and 4 x 3 at 4, 8 and 12 (rank x * cols + y),
 * ordered by the parity of x: at 8, x = 0 and 2 (ranks 0, 1, 4, 5) send along x first,
 * x = 1 and 3 receive first, which no position along x tells apart (x = 1 and 2 are
 * both in the middle); the exchange along y is the same at every process.  (At 2, 4
 * and 8, 2 x 1, 2 x 2 and 4 x 2, no process has both neighbours along y, and which of
 * its send and receive along y comes first no recording tells: the model takes the
 * receive first, docs/predict.md.)  At 16 (4 x 4), process 9 (x = 2, y = 1) sends to 13 (x = 3), receives from 5 (x = 1), sends to
 * 10 (y = 2) and receives from 8 (y = 0); process 6 (x = 1, y = 2) receives from 2,
 * sends to 10, sends to 7, receives from 5; at 64 (8 x 8), process 60 (x = 7, y = 4)
 * receives from 52, sends to 61 and receives from 59 (no x + 1). */
Test(scale_redblack, a_grid_ordered_by_the_parity_of_x_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 4, 8, 12 };
    struct st_model md;
    const char *note;

    model_of("gridx", counts, GRID_X, &md);
    cr_assert_not_null(md.m, "%s", err);
    note = parity_note(md.m);
    cr_assert_not_null(note, "no note of the parity");
    cr_expect(strstr(note, "one parity of their coordinate along dimension 0") != NULL,
              "note '%s'", note);
    expect_run(md.m, 16, GRID_X);
    expect_first(16, 9, (const struct sm_message[]){{S, 13, 1, X_BYTES}, {R, 5, 1, X_BYTES},
                                                 {S, 10, 3, Y_BYTES}, {R, 8, 3, Y_BYTES}}, 4);
    expect_first(16, 6, (const struct sm_message[]){{R, 2, 1, X_BYTES}, {S, 10, 1, X_BYTES},
                                                 {S, 7, 3, Y_BYTES}, {R, 5, 3, Y_BYTES}}, 4);
    expect_run(md.m, 64, GRID_X);
    expect_first(64, 60, (const struct sm_message[]){{R, 52, 1, X_BYTES}, {S, 61, 3, Y_BYTES},
                                                  {R, 59, 3, Y_BYTES}}, 3);
    st_model_free(&md);
}

/* A checkerboard on MPI_Cart_create's grids of 3 x 2, 3 x 3 and 4 x 3 at 6, 9 and 12:
 * where x + y is even the sends come first (to x + 1, x - 1, y + 1, y - 1), else the
 * receives (from x - 1, x + 1, y - 1, y + 1); neither parity of x nor of y explains
 * it (at 3 x 3 ranks 0 and 4, (0, 0) and (1, 1), send first, 1 and 3 do not).  The
 * note names the sum of the coordinates along dimensions 0 and 1.  At 16 (4 x 4),
 * process 5 (1, 1: even) sends to 9, 1, 6, 4 (tags 1 to 4) and receives from 1, 9, 4,
 * 6; process 6 (1, 2: odd) receives from 2, 10, 5, 7, then sends to 10, 2, 7, 5; at
 * 64 (8 x 8) process 63 (7, 7: even) sends to 55 (tag 2) and 62 (tag 4), then receives
 * from 55 (tag 1) and 62 (tag 3). */
Test(scale_redblack, a_checkerboard_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 6, 9, 12 };
    struct st_model md;
    const char *note;

    model_of("checker", counts, CHECKER, &md);
    cr_assert_not_null(md.m, "%s", err);
    note = parity_note(md.m);
    cr_assert_not_null(note, "no note of the parity");
    cr_expect(strstr(note, "the sum of their coordinates along dimensions 0 and 1") != NULL,
              "note '%s'", note);
    expect_run(md.m, 16, CHECKER);
    expect_first(16, 5, (const struct sm_message[]){{S, 9, 1, X_BYTES}, {S, 1, 2, X_BYTES},
                                                 {S, 6, 3, Y_BYTES}, {S, 4, 4, Y_BYTES},
                                                 {R, 1, 1, X_BYTES}, {R, 9, 2, X_BYTES},
                                                 {R, 4, 3, Y_BYTES}, {R, 6, 4, Y_BYTES}}, 8);
    expect_first(16, 6, (const struct sm_message[]){{R, 2, 1, X_BYTES}, {R, 10, 2, X_BYTES},
                                                 {R, 5, 3, Y_BYTES}, {R, 7, 4, Y_BYTES},
                                                 {S, 10, 1, X_BYTES}, {S, 2, 2, X_BYTES},
                                                 {S, 7, 3, Y_BYTES}, {S, 5, 4, Y_BYTES}}, 8);
    expect_run(md.m, 64, CHECKER);
    expect_first(64, 63, (const struct sm_message[]){{S, 55, 2, X_BYTES}, {S, 62, 4, Y_BYTES},
                                                  {R, 55, 1, X_BYTES}, {R, 62, 3, Y_BYTES}},
                 4);
    st_model_free(&md);
}

/* The ring with the multiples of 3 sending first: at 4 ranks 0 and 3, at 8 ranks 0, 3
 * and 6, which neither a position (3 is in the middle at 8) nor a parity gives: refused
 * in one line naming MPI_Send. */
Test(scale_redblack, an_order_by_the_rank_modulo_3_is_refused)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("mod3", counts, MOD3, &md);
    cr_expect_null(md.m, "a model of an order no parity gives");
    cr_expect(strstr(err, "recordings differ") != NULL && strstr(err, "MPI_Send") != NULL &&
                  !strchr(err, '\n'),
              "err '%s'", err);
    st_model_free(&md);
}

/* The ring whose even ranks send both ways before they receive, recorded at 2, 4 and 8:
 * at 5, ranks 4 and 0 are both even and neighbours, and each waits in a blocking send
 * of 256 KiB to the other (rendezvous), as the program would.  prognoz scale --ranks 5
 * --trace-out DIR says in one line that the run cannot complete and that the trace
 * synthesized into DIR/P5 is removed, and DIR/P5 is gone; the runs at 2 and 4, which
 * completed, stay. */
Test(scale_redblack, a_run_that_cannot_complete_leaves_no_trace)
{
    static const int counts[] = { 2, 4, 8 };
    char dirs[3][4200], cmd[20000], out[4200], line[8192], *rest;
    FILE *f;

    for (int i = 0; i < 3; i++)
        record("sends", counts[i], TWO_SENDS, dirs[i], sizeof(dirs[i]));
    snprintf(out, sizeof(out), "%s/synth", top);
    snprintf(cmd, sizeof(cmd), "%s scale %s %s %s --ranks 5 --machine %s --trace-out %s "
             "--quiet >/dev/null 2>%s/err.txt", PROGNOZ_PATH, dirs[0], dirs[1], dirs[2],
             MACHINE_PATH, out, top);
    cr_expect_neq(system(cmd), 0, "prognoz scale predicted a run that cannot complete");
    snprintf(cmd, sizeof(cmd), "%s/err.txt", top);
    cr_assert_not_null(f = fopen(cmd, "r"), "no %s", cmd);
    cr_assert_not_null(fgets(line, sizeof(line), f), "nothing on the standard error");
    rest = fgets(cmd, sizeof(cmd), f);
    fclose(f);
    cr_expect_null(rest, "more than one line: '%s'", line);
    snprintf(cmd, sizeof(cmd), "the trace synthesized into %s/P5 is removed", out);
    cr_expect(strstr(line, "5 processes on ") != NULL &&
                  strstr(line, "the run cannot complete") != NULL && strstr(line, cmd) != NULL,
              "error '%s'", line);
    snprintf(cmd, sizeof(cmd), "test -e %s/P5", out);
    cr_expect_neq(system(cmd), 0, "%s/P5 is left", out);
    snprintf(cmd, sizeof(cmd), "test -f %s/P4/traces.otf2", out);
    cr_expect_eq(system(cmd), 0, "the run at 4 is not in %s", out);
}
