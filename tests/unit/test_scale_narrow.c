/* A refusal that says why: a 3-D periodic halo exchange on power-of-two counts (NAS MG's
 * grids) recorded by hand (trace_builder.h) at 4, 8 and 16 processes, where its grid has
 * 2 x 2 x 1, 2 x 2 x 2 and 4 x 2 x 2 processes: along a dimension of 2 both neighbours
 * are one process, along one of 1 the process itself, so that the messages differ from
 * those at 4 processes along it and the recordings cannot be merged
 * (replay/scale_guard.c, narrow_dimension); LAMMPS's grids at 2, 4 and 8, along whose
 * dimensions of one process it makes no calls (one_process_dimension); and a 2-D
 * periodic halo by rank arithmetic at 2, 4 and 8, 2 x 1, 2 x 2 and 4 x 2, whose second
 * dimension is never longer than 2 (replay/scale_itself.c), which at 3, 6 and 12 is
 * synthesized at 16 as the program runs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "scale_messages.h"
#include "scale_program.h"
#include "scale_run.h"
#include "scale_traces.h"
#include "trace.h"
#include "tempdir_fixture.h"
#include "trace_builder.h"

#define MS TB_MS
#define ITERATIONS 3 /* of the exchange along the three axes */

TestSuite(scale_narrow, .init = setup, .fini = cleanup);

/* NAS MG's grid of P = 2^k processes: PX = 2^(k/3), PY = 2^((k - k/3)/2), PZ = P / (PX
 * PY): 1 x 2 x 2, 2 x 2 x 2, 2 x 2 x 4 at 4, 8, 16. */
static void dims_of(int nprocs, int *dims)
{
    int k = 0;

    while ((1 << k) < nprocs)
        k++;
    dims[0] = 1 << (k / 3);
    dims[1] = 1 << ((k - k / 3) / 2);
    dims[2] = nprocs / (dims[0] * dims[1]);
}

/* Process p at (x, y, z), rank x + PX (y + PY z), as MG numbers them: along each axis, a
 * send to the next process (around the end) tagged 2 d, one to the previous tagged
 * 2 d + 1, and the two receives. */
static void halo(struct tb *b, int nprocs, int p, uint32_t interval)
{
    int dims[3], c[3];
    uint64_t t = MS(1);

    dims_of(nprocs, dims);
    c[0] = p % dims[0];
    c[1] = p / dims[0] % dims[1];
    c[2] = p / (dims[0] * dims[1]);
    tb_enter(b, p, t, interval);
    for (int d = 0; d < 3 * ITERATIONS; d++) {
        int up[3] = { c[0], c[1], c[2] }, down[3] = { c[0], c[1], c[2] };

        up[d % 3] = (c[d % 3] + 1) % dims[d % 3];
        down[d % 3] = (c[d % 3] + dims[d % 3] - 1) % dims[d % 3];
        uint32_t u = (uint32_t)(up[0] + dims[0] * (up[1] + dims[1] * up[2]));
        uint32_t w = (uint32_t)(down[0] + dims[0] * (down[1] + dims[1] * down[2]));

        tb_send_call(b, p, "MPI_Send", t + MS(1), t + MS(2), TB_WORLD, u, (uint32_t)(2 * (d % 3)));
        tb_send_call(b, p, "MPI_Send", t + MS(3), t + MS(4), TB_WORLD, w,
                     (uint32_t)(2 * (d % 3) + 1));
        tb_recv_call(b, p, "MPI_Recv", t + MS(5), t + MS(6), TB_WORLD, w, (uint32_t)(2 * (d % 3)));
        tb_recv_call(b, p, "MPI_Recv", t + MS(7), t + MS(8), TB_WORLD, u,
                     (uint32_t)(2 * (d % 3) + 1));
        t += MS(8);
    }
    tb_leave(b, p, t + MS(1), interval);
}

/* At 16 the first dimension has 4 processes, around the end (process 0's neighbours
 * along it are 4 and 12): periodic.  At 4 and 8 it has 2, both neighbours one process.
 * The model cannot be built, and the reason names the dimension, its 4 processes at 16
 * and the 2 of a recording with fewer. */
Test(scale_narrow, a_periodic_dimension_of_2_then_4_is_named)
{
    static const int counts[3] = { 4, 8, 16 };
    char dirs[3][4200];
    const char *const list[3] = { dirs[0], dirs[1], dirs[2] };
    struct st_model md;

    for (int i = 0; i < 3; i++) {
        struct tb *b;
        uint32_t interval;

        snprintf(dirs[i], sizeof(dirs[i]), "%s/mg%d", top, counts[i]);
        cr_assert_not_null(b = tb_open(dirs[i], counts[i]), "cannot open a trace in %s",
                           dirs[i]);
        interval = tb_interval(b, 3, "mg.c", 134);
        for (int p = 0; p < counts[i]; p++)
            halo(b, counts[i], p, interval);
        cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    }
    st_model_read(&md, list, 3, 0, err, sizeof(err));
    cr_expect_null(md.m, "the model was built");
    cr_expect(strstr(err, "the grid's dimension 0 is periodic with 4 processes in ") != NULL &&
              strstr(err, "/mg16 and has 2 in ") != NULL &&
              strstr(err, "where both neighbours along it are one process") != NULL,
              "error '%s'", err);
    st_model_free(&md);
}

/* A halo exchange that makes no calls along a dimension of one process, as LAMMPS copies
 * to itself there, on the grids its MPI_Cart_create makes at 2, 4 and 8 processes: 1 x 1
 * x 2, 1 x 2 x 2, 2 x 2 x 2 (rank 4 x + 2 y + z), periodic; along each dimension of 2
 * processes a send to the next and a receive from the previous, on MPI_COMM_WORLD.  At
 * 4 process 2, (0, 1, 0), sends first along dimension 1, which at 2 has one process (its
 * first send there is along dimension 2).  Calls made only where a dimension is longer
 * than 1 are taken as calls along it (scale_guard.c, along_grown_dimension, and
 * test_scale_untold_dir.c), but this program receives from the neighbour it sends to, and
 * its calls are not placed at one step of the template at 4 and 8: the recordings cannot
 * be merged, and the reason names that dimension, its 1 process at 2 and its 2 at 4. */
Test(scale_narrow, a_dimension_of_1_then_2_is_named)
{
    static const int counts[3] = { 2, 4, 8 }, periodic[3] = { 1, 1, 1 };
    static const uint32_t grids[3][3] = { { 1, 1, 2 }, { 1, 2, 2 }, { 2, 2, 2 } };
    static const int world[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    char dirs[3][4200];
    const char *const list[3] = { dirs[0], dirs[1], dirs[2] };
    struct st_model md;

    for (int i = 0; i < 3; i++) {
        const uint32_t *g = grids[i];
        struct tb *b;

        snprintf(dirs[i], sizeof(dirs[i]), "%s/l%d", top, counts[i]);
        cr_assert_not_null(b = tb_open(dirs[i], counts[i]), "cannot open a trace in %s",
                           dirs[i]);
        tb_cart(b, tb_comm(b, "cart", counts[i], world), 3, g, periodic, 1);
        for (int p = 0; p < counts[i]; p++) {
            int c[3] = { p / (int)(g[1] * g[2]), p / (int)g[2] % (int)g[1], p % (int)g[2] };
            uint64_t t = MS(1);

            for (int d = 0; d < 3; d++) {
                int up[3] = { c[0], c[1], c[2] };

                if (g[d] < 2)
                    continue;
                up[d] = (c[d] + 1) % (int)g[d];
                uint32_t u = (uint32_t)(up[0] * (int)(g[1] * g[2]) + up[1] * (int)g[2] + up[2]);

                tb_send_call(b, p, "MPI_Send", t, t + MS(1), TB_WORLD, u, (uint32_t)d);
                tb_recv_call(b, p, "MPI_Recv", t + MS(2), t + MS(3), TB_WORLD, u, (uint32_t)d);
                t += MS(4);
            }
        }
        cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    }
    st_model_read(&md, list, 3, 0, err, sizeof(err));
    cr_expect_null(md.m, "the model was built");
    cr_expect(strstr(err, "the grid's dimension 1 has 1 process in ") != NULL &&
              strstr(err, "/l2 and 2 in ") != NULL && strstr(err, "/l4: a program may make "
                                                            "no calls along a dimension of "
                                                            "one process") != NULL,
              "error '%s'", err);
    st_model_free(&md);
}

/* MPI_Dims_create's grid (sm_dims2) of rows x cols, rank x cols + y, periodic by rank
 * arithmetic (each neighbour modulo the dimension's length): x - 1, x + 1, y - 1, y + 1
 * around the ends; 3 times, with each d = 0 .. 3 in turn, MPI_Sendrecv sending to
 * neighbour d tagged d and receiving from it tagged d ^ 1 (1024 bytes along x, 512
 * along y), then MPI_Allreduce. */
#define WRAP_ITERATIONS 3

static int wrapped_neighbour(int nprocs, int p, int d)
{
    int rows, cols, x, y;

    sm_dims2(nprocs, &rows, &cols);
    x = p / cols;
    y = p % cols;
    if (d < 2)
        x = (x + rows + (d ? 1 : -1)) % rows;
    else
        y = (y + cols + (d == 3 ? 1 : -1)) % cols;
    return x * cols + y;
}

static void record_wrapped(int nprocs, char *dir, size_t len)
{
    struct tb *b;
    uint32_t call;

    snprintf(dir, len, "%s/wrap%d", top, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    call = tb_mpi(b, "MPI_Sendrecv");
    for (int p = 0; p < nprocs; p++) {
        uint64_t t = MS(1);

        for (int it = 0; it < WRAP_ITERATIONS; it++) {
            for (int d = 0; d < 4; d++, t += MS(2)) {
                uint32_t q = (uint32_t)wrapped_neighbour(nprocs, p, d);

                tb_enter(b, p, t, call);
                tb_mpi_send(b, p, t, TB_WORLD, q, (uint32_t)d, d < 2 ? 1024 : 512);
                tb_mpi_recv(b, p, t + MS(1), TB_WORLD, q, (uint32_t)(d ^ 1), d < 2 ? 1024 : 512);
                tb_leave(b, p, t + MS(1), call);
            }
            tb_collective_call_bytes(b, p, "MPI_Allreduce", t, t + MS(1),
                                     OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT, 8, 8);
            t += MS(2);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

static char why[4096];

static void model_of_wrapped(const int *counts, struct st_model *md)
{
    char dirs[3][4200];

    for (int i = 0; i < 3; i++)
        record_wrapped(counts[i], dirs[i], sizeof(dirs[i]));
    sm_model_read(md, (const char *const[]){dirs[0], dirs[1], dirs[2]}, why, sizeof(why));
}

/* At 2 (2 x 1) the exchanges along y go to the process itself, at 4 and 8 (2 x 2, 4 x
 * 2) to the one neighbour along y, both sides at once: whether y wraps around, and
 * which neighbour each call addresses, no recording tells, and at 16 (4 x 4) they
 * differ.  Refused in one line naming the call at 2, the dimension and what would tell;
 * taken before as calls made by the processes of one parity of y where y has 1 process
 * (at 16, processes 1, 2, 5, 6 ... made the calls of both sides of y). */
Test(scale_narrow, a_wrapped_dimension_of_1_then_2_is_refused)
{
    static const int counts[3] = { 2, 4, 8 };
    struct st_model md;

    model_of_wrapped(counts, &md);
    cr_expect_null(md.m, "the model was built");
    cr_expect(strstr(why, "/wrap2: process 0, outside intervals, call 3 (MPI_Sendrecv): not "
                          "in ") != NULL &&
                  strstr(why, "its messages go to the process itself in ") != NULL &&
                  strstr(why, "where the grid's dimension 1 has 1 process") != NULL &&
                  strstr(why, "whether it wraps around, and which neighbour each call "
                              "addresses along it, cannot be told; a recording where it has "
                              "3 processes or more would tell") != NULL &&
                  !strchr(why, '\n'),
              "error '%s'", why);
    st_model_free(&md);
}

/* At 3, 6 and 12 (3 x 1, 3 x 2, 4 x 3) y wraps around at 12: at 16 (4 x 4) every
 * process makes the program's exchanges in order; process 6 (x 1, y 2) sends to 2
 * (tag 0), 10 (tag 1), 5 (tag 2), 7 (tag 3), receiving from each tagged d ^ 1;
 * process 12 (x 3, y 0) to 8, 0, 15, 13. */
Test(scale_narrow, a_wrapped_dimension_of_1_2_3_is_synthesized_at_16)
{
    static const int counts[3] = { 3, 6, 12 };
    static struct sm_run got;
    struct st_model md;

    model_of_wrapped(counts, &md);
    cr_assert_not_null(md.m, "%s", why);
    sm_synthesize(md.m, 16, &got, why, sizeof(why));
    for (int p = 0; p < 16; p++) {
        cr_assert_eq(got.n[p], WRAP_ITERATIONS * 8, "process %d: %d messages", p, got.n[p]);
        for (int j = 0; j < WRAP_ITERATIONS * 8; j++) {
            int d = j / 2 % 4;
            struct sm_message want = { j % 2 ? PZ_REC_RECV : PZ_REC_SEND,
                                       wrapped_neighbour(16, p, d),
                                       (uint32_t)(j % 2 ? d ^ 1 : d), d < 2 ? 1024 : 512 };

            sm_expect_message(&got, 16, p, j, &want);
        }
    }
    cr_expect_eq(wrapped_neighbour(16, 6, 0), 2);
    cr_expect_eq(wrapped_neighbour(16, 12, 1), 0);
    cr_expect_eq(wrapped_neighbour(16, 12, 2), 15);
    st_model_free(&md);
}
