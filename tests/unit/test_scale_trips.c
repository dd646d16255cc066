/* Trip counts that are whole numbers of a form of P only near a simpler one: the solve
 * of NAS BT/SP's multipartition, on P = q^2 processes, passes a cell's face from each
 * process to its successor q - 1 times (replay/scale_numbers.c, fit_whole_numbers).
 * Recorded by hand (trace_builder.h) at 4, 9 and 16 processes, synthesized at 16, 25 and
 * 64; expected values are worked out in the comments from the program's definition. */
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
#define FACE 800 /* bytes of a cell's face */

TestSuite(scale_trips, .init = setup, .fini = cleanup);

static int root_of(int nprocs)
{
    int q = 1;

    while ((q + 1) * (q + 1) <= nprocs)
        q++;
    return q;
}

/* Process p of a q x q grid (rank q x + y): the stages of a solve along y, a send of a
 * face to its successor (x, y + 1 mod q) after each of the first q - 1 stages and a
 * receive from its predecessor (x, y - 1 mod q) before each of the last q - 1: sends and
 * receives alternate, q - 1 of each. */
static void solve(struct tb *b, int nprocs, int p, uint32_t interval)
{
    int q = root_of(nprocs), x = p / q, y = p % q;
    uint32_t succ = (uint32_t)(x * q + (y + 1) % q), pred = (uint32_t)(x * q + (y + q - 1) % q);
    uint32_t send = tb_mpi(b, "MPI_Send"), recv = tb_mpi(b, "MPI_Recv");
    uint64_t t = MS(1);

    tb_enter(b, p, t, interval);
    for (int s = 0; s < q - 1; s++) {
        tb_enter(b, p, t + MS(1), send);
        tb_mpi_send(b, p, t + MS(1), TB_WORLD, succ, 7, FACE);
        tb_leave(b, p, t + MS(2), send);
        tb_enter(b, p, t + MS(3), recv);
        tb_mpi_recv(b, p, t + MS(4), TB_WORLD, pred, 7, FACE);
        tb_leave(b, p, t + MS(4), recv);
        t += MS(4);
    }
    tb_leave(b, p, t + MS(1), interval);
}

static void model_of(struct st_model *md)
{
    static const int counts[3] = { 4, 9, 16 };
    char dirs[3][4200];
    const char *const list[3] = { dirs[0], dirs[1], dirs[2] };

    for (int i = 0; i < 3; i++) {
        struct tb *b;
        uint32_t interval;

        snprintf(dirs[i], sizeof(dirs[i]), "%s/bt%d", top, counts[i]);
        cr_assert_not_null(b = tb_open(dirs[i], counts[i]), "cannot open a trace in %s",
                           dirs[i]);
        interval = tb_interval(b, 4, "bt.c", 40);
        for (int p = 0; p < counts[i]; p++)
            solve(b, counts[i], p, interval);
        cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    }
    st_model_read(md, list, 2, 0, err, sizeof(err));
    cr_assert_not_null(md->m, "%s", err);
}

/* Every process's sends and receives at nprocs: how many, and whether each went to the
 * successor and came from the predecessor with FACE bytes and tag 7. */
struct tally {
    int q, sends[64], recvs[64], wrong;
};

static int no_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    (void)ctx, (void)comms, (void)n;
    return 0;
}

static int count(void *ctx, int proc, const struct pz_rec *r)
{
    struct tally *k = ctx;
    int q = k->q, x = proc / q, y = proc % q;

    if (r->kind == PZ_REC_SEND) {
        k->sends[proc]++;
        k->wrong += r->peer != (uint32_t)(x * q + (y + 1) % q) || r->bytes != FACE || r->tag != 7;
    } else if (r->kind == PZ_REC_RECV) {
        k->recvs[proc]++;
        k->wrong += r->peer != (uint32_t)(x * q + (y + q - 1) % q) || r->bytes != FACE || r->tag != 7;
    }
    return 0;
}

static void expect_stages(const struct pz_scale_program *m, int nprocs, int trips)
{
    struct tally k = { .q = root_of(nprocs) };
    struct pz_scale_sink sink = { no_comms, count, &k };

    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    for (int p = 0; p < nprocs; p++) {
        cr_expect_eq(k.sends[p], trips, "at %d, process %d sends %d times, expected %d",
                     nprocs, p, k.sends[p], trips);
        cr_expect_eq(k.recvs[p], trips, "at %d, process %d receives %d times, expected %d",
                     nprocs, p, k.recvs[p], trips);
    }
    cr_expect_eq(k.wrong, 0, "at %d, %d messages with a wrong peer, size or tag", nprocs,
                 k.wrong);
}

/* The loop's trip counts q - 1 are 1, 2, 3 at 4, 9, 16 processes: sqrt(P) - 1 exactly.
 * Forms that only come near them pass once rounded: the line through the smallest and
 * the largest, 1/3 + P / 6, gives 1.83 at 9, which rounds to 2, and 4.5 at 25 (rounded
 * to 5), 11 at 64 (the model chose a form of this kind before: 5, 7 and 12 stages at 25,
 * 36 and 64).  sqrt(P) - 1: 3 at 16 (q = 4: 3 sends to the successor, 3 receives from
 * the predecessor, 800 bytes, tag 7, on every process), 4 at 25 (q = 5), 7 at 64
 * (q = 8; process 9 at (1, 1) sends to 10 and receives from 8, process 63 at (7, 7)
 * sends to 56 and receives from 62). */
Test(scale_trips, a_loop_over_the_cells_of_a_row_runs_sqrt_p_minus_1_times)
{
    struct st_model md;

    model_of(&md);
    expect_stages(md.m, 16, 3);
    expect_stages(md.m, 25, 4);
    expect_stages(md.m, 64, 7);
    st_model_free(&md);
}
