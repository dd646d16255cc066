/* Steps made by one and the same rank alone in every recording (scale_guard.c,
 * at_one_rank): a latency benchmark's ping-pong, where rank 0 sends to rank 1 and
 * receives its answer while the other processes wait at the barrier that begins each
 * pass.  Its only messages join ranks 0 and 1, and a position of the grid inferred from
 * them that holds rank 1 alone in every recording may hold other processes at other
 * counts.  Recorded by hand (trace_builder.h) at 2, 4 and 8 processes and synthesized at
 * 16 and 64, ranks 0 and 1 alone exchange, each the program's messages in order, and
 * the others make none. */
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
#define PASSES 3
#define ROUNDS 4       /* ping-pongs in a pass */
#define TAG 1u
#define BYTES 8u       /* tb_send_call's */

TestSuite(scale_onerank, .init = setup, .fini = cleanup);

/* Process p's pass from *t on: the barrier, then at rank 0 ROUNDS sends to 1 each
 * followed by the receive of its answer, at rank 1 the receive first. */
static void pass(struct tb *b, int p, uint64_t *t)
{
    tb_collective_call(b, p, "MPI_Barrier", *t, *t + MS(1), OTF2_COLLECTIVE_OP_BARRIER,
                       TB_WORLD, TB_NO_ROOT);
    *t += MS(2);
    for (int i = 0; p < 2 && i < ROUNDS; i++) {
        if (p == 0)
            tb_send_call(b, p, "MPI_Send", *t, *t + MS(1), TB_WORLD, 1, TAG);
        tb_recv_call(b, p, "MPI_Recv", *t + MS(1), *t + MS(2), TB_WORLD, (uint32_t)!p, TAG);
        if (p == 1)
            tb_send_call(b, p, "MPI_Send", *t + MS(2), *t + MS(3), TB_WORLD, 0, TAG);
        *t += MS(4);
    }
}

/* Process p's program: PASSES passes. */
static void pingpong(struct tb *b, int p, int nprocs)
{
    uint64_t t = MS(1);

    (void)nprocs;
    for (int i = 0; i < PASSES; i++)
        pass(b, p, &t);
}

static void record(const char *name, int nprocs, char *dir, size_t len)
{
    sm_write(top, name, nprocs, pingpong, dir, len);
}

static struct sm_run got;

/* At nprocs, rank 0 sends 8 bytes tagged 1 to rank 1 and receives them from it, 4
 * times a pass, rank 1 receives then sends, 3 passes; every other process makes no
 * message.  Before, no position gave rank 1 alone in every recording, and the
 * recordings were refused ("the processes making MPI_Recv follow no pattern of the
 * process grid"); a benchmark doing the same for messages of 1 B to 64 KiB was taken
 * by the parity of the position instead, and at 16 ranks 0 to 3 exchanged in a chain. */
static void expect_run(const struct pz_scale_program *m, int nprocs)
{
    static const struct sm_message zero[] = {{PZ_REC_SEND, 1, TAG, BYTES},
                                             {PZ_REC_RECV, 1, TAG, BYTES}};
    static const struct sm_message one[] = {{PZ_REC_RECV, 0, TAG, BYTES},
                                            {PZ_REC_SEND, 0, TAG, BYTES}};

    sm_synthesize(m, nprocs, &got, err, sizeof(err));
    sm_expect_passes(&got, nprocs, 0, zero, 2, PASSES * ROUNDS);
    sm_expect_passes(&got, nprocs, 1, one, 2, PASSES * ROUNDS);
    for (int p = 2; p < nprocs; p++)
        cr_expect_eq(got.n[p], 0, "at %d, process %d makes %d messages", nprocs, p, got.n[p]);
}

Test(scale_onerank, a_ping_pong_of_ranks_0_and_1_stays_theirs_at_16_and_64)
{
    static const int counts[] = {2, 4, 8};
    struct st_model md;

    sm_model_of(&md, "pingpong", counts, record);
    expect_run(md.m, 16);
    expect_run(md.m, 64);
    st_model_free(&md);
}
