/* Butterflies whose passes follow each other in a time step loop with no other call
 * between (scale_xor.c, sp_xor_enclose): a reduction by recursive doubling written by
 * hand with MPI_Sendrecv, for (mask = 1; mask < size; mask <<= 1) MPI_Sendrecv(rank ^
 * mask).  Recorded by hand (trace_builder.h) at 2, 4 and 8 processes, whose grids 2 x 1
 * x 1, 2 x 2 x 1 and 2 x 2 x 2 a halo exchange fits as well; synthesized at 16 and 64,
 * every process's messages are the program's (plan(): their kind, peer, tag and bytes,
 * in order).  The comment of the test works a few processes out by hand. */
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
#define TAG 7u
#define BYTES 4096u
#define WORK 10.0     /* ms of computation before each pass */
#define ADD 1.0       /* ms before each stage but the first (adding what it received) */
#define MAX_STAGE_MSGS 16

TestSuite(scale_rankorder, .init = setup, .fini = cleanup);

/* How the program exchanges at each stage. */
enum form {
    UP,           /* mask 1, 2, 4 ...: the process below its partner MPI_Send first, then
                     MPI_Recv; the other MPI_Recv first */
    LOW_RECEIVES, /* the same, the process below its partner receiving first */
    DOWN,         /* mask P / 2, P / 4 ... 1, as UP orders each stage */
    SENDRECV,     /* mask 1, 2, 4 ...: one MPI_Sendrecv (its send, then its receive) */
    HALO          /* a halo exchange over the dimensions d = 0, 1, 2 of MPI_Dims_create's
                     3-D grid, ranks in row-major order: where the coordinate along d is
                     even, MPI_Send to the upper neighbour then MPI_Recv from it, then the
                     same with the lower one; where it is odd, MPI_Recv from the lower
                     neighbour then MPI_Send to it, then the same with the upper one;
                     neighbours beyond the grid's ends left out */
};

static int log2_of(int n)
{
    int l = 0;

    while ((1 << l) < n)
        l++;
    return l;
}

/* MPI_Dims_create's 3-D layout of 2, 4, 8 and 16 processes. */
static void dims3(int nprocs, int *dims)
{
    static const int at[5][3] = { {1, 1, 1}, {2, 1, 1}, {2, 2, 1}, {2, 2, 2}, {4, 2, 2} };

    memcpy(dims, at[log2_of(nprocs)], sizeof(at[0]));
}

static void add(struct sm_message *out, int *n, uint8_t kind, int peer)
{
    out[(*n)++] = (struct sm_message){kind, peer, TAG, BYTES};
}

/* One exchange with q: the send first or the receive first. */
static void exchange(struct sm_message *out, int *n, int q, int send_first)
{
    add(out, n, send_first ? PZ_REC_SEND : PZ_REC_RECV, q);
    add(out, n, send_first ? PZ_REC_RECV : PZ_REC_SEND, q);
}

/* HALO's messages of process p at nprocs, into out. */
static int halo_plan(int nprocs, int p, struct sm_message *out)
{
    int dims[3], c[3], n = 0;

    dims3(nprocs, dims);
    c[0] = p / (dims[1] * dims[2]);
    c[1] = p / dims[2] % dims[1];
    c[2] = p % dims[2];
    for (int d = 0; d < 3; d++)
        for (int side = 0; side < 2; side++) {
            /* even: the upper neighbour first; odd: the lower one first */
            int step = (c[d] % 2 == 0) == (side == 0) ? 1 : -1, nb[3] = {c[0], c[1], c[2]};

            nb[d] += step;
            if (nb[d] < 0 || nb[d] >= dims[d])
                continue;
            exchange(out, &n, (nb[0] * dims[1] + nb[1]) * dims[2] + nb[2], c[d] % 2 == 0);
        }
    return n;
}

/* The program's definition: the messages process p makes in one pass at nprocs, in
 * order, into out; their number. */
static int plan(enum form form, int nprocs, int p, struct sm_message *out)
{
    int bits = log2_of(nprocs), n = 0;

    if (form == HALO)
        return halo_plan(nprocs, p, out);
    for (int i = 0; i < bits; i++) {
        int q = p ^ (1 << (form == DOWN ? bits - 1 - i : i));

        exchange(out, &n, q, form == SENDRECV || (p < q) == (form != LOW_RECEIVES));
    }
    return n;
}

/* The program recorded at nprocs into DIR/NAME<nprocs>: MPI_Init, then PASSES passes
 * back to back, no interval nor other call between them, WORK ms of computation before
 * each and ADD ms before each stage but the first; each call takes 1 ms, an
 * MPI_Sendrecv making a stage's two messages. */
static void record(const char *name, int nprocs, enum form form, char *dir, size_t len)
{
    struct tb *b;
    uint32_t send, recv, both;

    snprintf(dir, len, "%s/%s%d", top, name, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    send = tb_mpi(b, "MPI_Send");
    recv = tb_mpi(b, "MPI_Recv");
    both = tb_mpi(b, "MPI_Sendrecv");
    for (int p = 0; p < nprocs; p++) {
        uint64_t t = MS(1);

        tb_call(b, p, "MPI_Init", 0, t);
        for (int pass = 0; pass < PASSES; pass++) {
            struct sm_message msg[MAX_STAGE_MSGS];
            int n = plan(form, nprocs, p, msg);

            t += MS(WORK);
            for (int j = 0; j < n; j++) {
                int send_it = msg[j].kind == PZ_REC_SEND, stage_first = j % 2 == 0;
                uint32_t call = form == SENDRECV ? both : send_it ? send : recv;

                if (stage_first && j > 0)
                    t += MS(ADD);
                if (form != SENDRECV || stage_first)
                    tb_enter(b, p, t, call);
                if (send_it)
                    tb_mpi_send(b, p, t, TB_WORLD, (uint32_t)msg[j].peer, TAG, BYTES);
                else
                    tb_mpi_recv(b, p, t + MS(1), TB_WORLD, (uint32_t)msg[j].peer, TAG, BYTES);
                if (form != SENDRECV || !stage_first)
                    tb_leave(b, p, t += MS(1), call);
            }
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* The program recorded at counts[0..2] and its model (sm_model_read), which must build. */
static void model_of(const char *name, const int *counts, enum form form,
                     struct st_model *md)
{
    char dirs[3][4200];

    for (int i = 0; i < 3; i++)
        record(name, counts[i], form, dirs[i], sizeof(dirs[i]));
    sm_model_read(md, (const char *const[]){dirs[0], dirs[1], dirs[2]}, err, sizeof(err));
    cr_assert_not_null(md->m, "%s", err);
}

static struct sm_run got;

/* The run synthesized at nprocs is the program's (plan()): every process makes PASSES
 * times its messages in order. */
static void expect_run(const struct pz_scale_program *m, int nprocs, enum form form)
{
    sm_synthesize(m, nprocs, &got, err, sizeof(err));
    for (int p = 0; p < nprocs; p++) {
        struct sm_message want[MAX_STAGE_MSGS];
        int n = plan(form, nprocs, p, want), j = 0;

        cr_assert_eq(got.n[p], PASSES * n, "at %d, process %d: %d messages, expected %d",
                     nprocs, p, got.n[p], PASSES * n);
        for (int pass = 0; pass < PASSES; pass++)
            for (int i = 0; i < n; i++)
                sm_expect_message(&got, nprocs, p, j++, &want[i]);
    }
}


#define S PZ_REC_SEND
#define R PZ_REC_RECV
#define M(kind, peer) {kind, peer, TAG, BYTES}

/* One MPI_Sendrecv per stage, the passes back to back: at 2 every process's calls are
 * the same one again and again, at 8 the stages of bits 0, 1, 2 again and again; each
 * pass is one run of the loop of stages (1, 2 and 3 iterations), not one loop of every
 * stage of every pass (3, 6 and 9 iterations, which no law of P gives).  At 16, process
 * 5 sends to 4, 7, 1 and 13 in each pass, at 64 process 63 to 62, 61, 59, 55, 47, 31. */
Test(scale_rankorder, sendrecv_stages_back_to_back_at_16_and_64)
{
    static const int counts[] = {2, 4, 8};
    static const struct sm_message p5[] = {M(S, 4), M(R, 4), M(S, 7), M(R, 7),
                                           M(S, 1), M(R, 1), M(S, 13), M(R, 13),
                                           M(S, 4), M(R, 4)};
    static const struct sm_message p63[] = {M(S, 62), M(R, 62), M(S, 61), M(R, 61),
                                            M(S, 59), M(R, 59), M(S, 55), M(R, 55),
                                            M(S, 47), M(R, 47), M(S, 31), M(R, 31)};
    struct st_model md;

    model_of("sendrecv", counts, SENDRECV, &md);
    cr_assert_not_null(sm_note(md.m, "a butterfly (recursive doubling"), "no butterfly");
    expect_run(md.m, 16, SENDRECV);
    sm_expect_first(&got, 16, 5, p5, 10);
    expect_run(md.m, 64, SENDRECV);
    sm_expect_first(&got, 64, 63, p63, 12);
    st_model_free(&md);
}
