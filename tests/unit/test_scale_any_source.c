/* Receives from MPI_ANY_SOURCE (docs/trace-format.md, prognoz:any_source): rank 0
 * collects one result of 512 bytes (tag 7) from every other process at each of STEPS
 * time steps, from whichever comes first, then broadcasts 512 bytes to them
 * (MPI_Bcast).  Recorded by hand (trace_builder.h) at 2, 4 and 8 processes, the senders
 * arriving in another order at each step: at step s, receive i (from 0) matched process
 * 1 + (i + s) mod (P - 1).  Expected calls are worked out in the comments from that
 * definition. */
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
#define STEPS 4
#define SYNTH_PROCS 16

TestSuite(scale_any_source, .init = setup, .fini = cleanup);

/* Each synthesized process's records as letters: S a send, R a receive, B a broadcast's
 * end; and the senders of rank 0's receives in order. */
struct letters {
    char v[SYNTH_PROCS][256];
    size_t n[SYNTH_PROCS];
    uint32_t senders[STEPS * SYNTH_PROCS];
    size_t nsenders;
};

static int as_letters(void *ctx, int proc, const struct pz_rec *r)
{
    struct letters *l = ctx;
    char c = r->kind == PZ_REC_SEND ? 'S' : r->kind == PZ_REC_RECV ? 'R'
           : r->kind == PZ_REC_COLL_END && r->coll_op == OTF2_COLLECTIVE_OP_BCAST ? 'B' : 0;

    if (c && proc >= 0 && proc < SYNTH_PROCS && l->n[proc] + 1 < sizeof(l->v[proc]))
        l->v[proc][l->n[proc]++] = c;
    if (c == 'R' && proc == 0 && l->nsenders < STEPS * SYNTH_PROCS)
        l->senders[l->nsenders++] = r->peer;
    return 0;
}

static void program(struct tb *b, int nprocs, int p, int marked)
{
    uint32_t send = tb_mpi(b, "MPI_Send"), recv = tb_mpi(b, "MPI_Recv"),
             bcast = tb_mpi(b, "MPI_Bcast");
    uint64_t t = MS(1);

    for (int s = 0; s < STEPS; s++) {
        for (int i = 0; p == 0 && i < nprocs - 1; i++) {
            uint32_t from = (uint32_t)(1 + (i + s) % (nprocs - 1));

            tb_enter(b, p, t + MS(1), recv);
            if (marked)
                tb_mpi_recv_any(b, p, t + MS(2), TB_WORLD, from, 7, 512);
            else
                tb_mpi_recv(b, p, t + MS(2), TB_WORLD, from, 7, 512);
            tb_leave(b, p, t + MS(2), recv);
            t += MS(2);
        }
        if (p != 0) {
            tb_enter(b, p, t + MS(1), send);
            tb_mpi_send(b, p, t + MS(1), TB_WORLD, 0, 7, 512);
            tb_leave(b, p, t + MS(2), send);
            t += MS(2);
        }
        tb_enter(b, p, t + MS(1), bcast);
        tb_collective_begin(b, p, t + MS(1));
        tb_collective_end(b, p, t + MS(2), OTF2_COLLECTIVE_OP_BCAST, TB_WORLD, 0,
                          p == 0 ? 512u * (uint64_t)(nprocs - 1) : 0, p == 0 ? 0 : 512);
        tb_leave(b, p, t + MS(2), bcast);
        t += MS(2);
    }
}

/* The program recorded at 2, 4 and 8 processes, its receives marked or not, its model
 * built into md (md->m NULL, err saying why, when it is refused). */
static void record(struct st_model *md, int marked, char dirs[3][4200])
{
    static const int counts[3] = { 2, 4, 8 };
    const char *const list[3] = { dirs[0], dirs[1], dirs[2] };

    for (int i = 0; i < 3; i++) {
        struct tb *b;

        snprintf(dirs[i], sizeof(dirs[i]), "%s/any%d", top, counts[i]);
        cr_assert_not_null(b = tb_open(dirs[i], counts[i]), "cannot open a trace in %s",
                           dirs[i]);
        for (int p = 0; p < counts[i]; p++)
            program(b, counts[i], p, marked);
        cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    }
    st_model_read(md, list, 0, 0, err, sizeof(err));
}

/* Marked, the receives are PZ_SCALE_PEER_ANY: at 16, rank 0 makes 15 receives then the
 * broadcast at each step (a loop of P - 1 trips), from 1, 2, ... 15 in turn (the
 * synthesis's order for such receives, not the recorded one); every other process
 * sends once to rank 0, then takes part in the broadcast. */
Test(scale_any_source, marked_receives_are_synthesized_as_p_minus_1_per_step)
{
    struct st_model md;
    struct pz_scale_synth *s;
    struct letters l = {0};
    char dirs[3][4200], master[256] = "", worker[256] = "";
    int noted = 0;

    record(&md, 1, dirs);
    cr_assert_not_null(md.m, "%s", err);
    for (size_t i = 0; i < pz_scale_program_nnotes(md.m); i++)
        noted |= strstr(pz_scale_program_note(md.m, i), "MPI_ANY_SOURCE") != NULL;
    cr_expect(noted, "no note of the receives from any source");
    cr_assert_not_null(s = pz_scale_synth_new(md.m, SYNTH_PROCS, err, sizeof(err)), "%s", err);
    cr_assert_eq(pz_scale_synth_all(s, as_letters, &l, err, sizeof(err)), 0, "%s", err);
    for (int step = 0; step < STEPS; step++) {
        strcat(master, "RRRRRRRRRRRRRRRB");
        strcat(worker, "SB");
    }
    cr_expect_str_eq(l.v[0], master);
    for (int p = 1; p < SYNTH_PROCS; p++)
        cr_expect_str_eq(l.v[p], worker, "process %d", p);
    cr_assert_eq(l.nsenders, (size_t)STEPS * (SYNTH_PROCS - 1));
    for (size_t i = 0; i < l.nsenders; i++)
        cr_expect_eq(l.senders[i], 1 + i % (SYNTH_PROCS - 1), "receive %zu", i);
    pz_scale_synth_free(s);
    st_model_free(&md);
}

/* Unmarked (a trace recorded before the mark), the same receives name the senders as
 * they came, a different order at each step: the steps do not merge, the model is
 * refused, in one line. */
Test(scale_any_source, unmarked_receives_in_arrival_order_are_refused)
{
    struct st_model md;
    char dirs[3][4200];

    record(&md, 0, dirs);
    cr_assert_null(md.m, "the model was built");
    cr_expect(strstr(err, "recordings differ") != NULL, "%s", err);
    cr_expect_null(strchr(err, '\n'), "%s", err);
}
