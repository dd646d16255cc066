/* Time steps with collectives of different periods (replay/scale_walk.c,
 * follows_instead): a solver of STEPS steps, each an exchange around a periodic ring
 * (MPI_Sendrecv to rank + 1, from rank - 1), with the residual reduced by MPI_Allreduce
 * after every 10th step and a summary gathered to rank 0 by MPI_Gather after every 25th,
 * both after the 50th and the 100th, the Allreduce first.  Each 50 steps fold into
 * 2 x (10 steps, Allreduce), 5 steps, Gather, 5 steps, 2 x (Allreduce, 10 steps),
 * Allreduce, Gather; the Allreduce after the last loop, followed by no step, was taken
 * for a third iteration of it, whose steps the synthesis then made: 120 steps at 16
 * where the program makes 100.  Recorded by hand (trace_builder.h) at 4, 8 and 12
 * processes and synthesized at 16 and 64, every process makes the program's 100
 * exchanges, 10 reductions and 4 gathers in the program's order. */
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
#define STEPS 100
#define BYTES 4096u

TestSuite(scale_periods, .init = setup, .fini = cleanup);

/* Process p's program at nprocs. */
static void solve(struct tb *b, int p, int nprocs)
{
    uint32_t sendrecv = tb_mpi(b, "MPI_Sendrecv");
    uint64_t t = MS(1);

    for (int s = 1; s <= STEPS; s++) {
        tb_enter(b, p, t += MS(2), sendrecv);
        tb_mpi_send(b, p, t, TB_WORLD, (uint32_t)((p + 1) % nprocs), 0, BYTES);
        tb_mpi_recv(b, p, t + MS(1), TB_WORLD, (uint32_t)((p + nprocs - 1) % nprocs), 0,
                    BYTES);
        tb_leave(b, p, t += MS(1), sendrecv);
        if (s % 10 == 0)
            tb_collective_call(b, p, "MPI_Allreduce", t + MS(1), t + MS(2),
                               OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT);
        if (s % 25 == 0)
            tb_collective_call(b, p, "MPI_Gather", t + MS(2), t + MS(3),
                               OTF2_COLLECTIVE_OP_GATHER, TB_WORLD, 0);
        t += MS(3);
    }
}

static void record(const char *name, int nprocs, char *dir, size_t len)
{
    sm_write(top, name, nprocs, solve, dir, len);
}

static struct sm_run got;

/* At nprocs, each process sends 4096 bytes to rank + 1 and receives them from rank - 1
 * 100 times (200 messages); its 14 collectives are, in order, after steps 10 and 20 an
 * Allreduce, after 25 a Gather, after 30, 40 and 50 an Allreduce, after 50 a Gather, ...
 * (the first 7 every 50 steps: A A G A A A G). */
static void expect_run(const struct pz_scale_program *m, int nprocs)
{
    static const uint8_t order[] = {
        OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_COLLECTIVE_OP_GATHER,
        OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_COLLECTIVE_OP_ALLREDUCE,
        OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_COLLECTIVE_OP_GATHER};

    sm_synthesize(m, nprocs, &got, err, sizeof(err));
    for (int p = 0; p < nprocs; p++) {
        cr_expect_eq(got.n[p], 2 * STEPS, "at %d, process %d makes %d messages", nprocs, p,
                     got.n[p]);
        cr_assert_eq(got.collectives[p], 14, "at %d, process %d makes %d collectives",
                     nprocs, p, got.collectives[p]);
        for (int i = 0; i < 14; i++)
            cr_expect_eq(got.coll[p][i].op, order[i % 7], "at %d, process %d: collective %d",
                         nprocs, p, i);
    }
}

Test(scale_periods, collectives_every_10_and_25_steps_keep_the_100_steps_at_16_and_64)
{
    static const int counts[] = {4, 8, 12};
    struct st_model md;

    sm_model_of(&md, "periods", counts, record);
    expect_run(md.m, 16);
    expect_run(md.m, 64);
    st_model_free(&md);
}
