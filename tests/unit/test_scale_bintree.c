/* A broadcast and a reduction written by hand as MPICH's binomial tree, root 0
 * (scale_tree.c): process r receives from its parent, r less its lowest set bit, then
 * sends to its children r + mask for mask from the one below that bit down to 1 (every
 * mask below P at rank 0) while r + mask < P; the reduction receives from the same
 * children from mask 1 up, then sends to the parent.  Recorded by hand (trace_builder.h)
 * at 2, 4 and 8 processes, at 3, 6 and 12 and at 6, 12 and 16; synthesized at 16 and
 * 64, every process's messages are the program's (plan(): their kind, peer, tag and
 * bytes, in order).  A count that is not a power of two is refused where every
 * recording is of one.  Each test's comment works a few processes out by hand. */
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
#define BCAST_TAG 1u
#define REDUCE_TAG 2u
#define BYTES 16384u
#define WORK 10.0     /* ms of computation between the broadcast and the reduction */
#define MAX_MSGS 32

TestSuite(scale_bintree, .init = setup, .fini = cleanup);

static void add(struct sm_message *out, int *n, uint8_t kind, int peer, uint32_t tag)
{
    out[(*n)++] = (struct sm_message){kind, peer, tag, BYTES};
}

/* The broadcast's messages of process p at nprocs, into out from *n on, as the program
 * makes them. */
static void bcast_plan(int nprocs, int p, struct sm_message *out, int *n)
{
    int mask = 1;

    while (mask < nprocs) {
        if (p & mask) {
            add(out, n, PZ_REC_RECV, p - mask, BCAST_TAG);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (p + mask < nprocs)
            add(out, n, PZ_REC_SEND, p + mask, BCAST_TAG);
}

/* The reduction's, the same way. */
static void reduce_plan(int nprocs, int p, struct sm_message *out, int *n)
{
    for (int mask = 1; mask < nprocs; mask <<= 1) {
        if (p & mask) {
            add(out, n, PZ_REC_SEND, p - mask, REDUCE_TAG);
            return;
        }
        if (p + mask < nprocs)
            add(out, n, PZ_REC_RECV, p + mask, REDUCE_TAG);
    }
}

/* The program's definition: the messages process p makes in one pass at nprocs, in
 * order, into out; their number.  The broadcast's end is *bcast. */
static int plan(int nprocs, int p, struct sm_message *out, int *bcast)
{
    int n = 0;

    bcast_plan(nprocs, p, out, &n);
    *bcast = n;
    reduce_plan(nprocs, p, out, &n);
    return n;
}

/* The program recorded at nprocs into DIR/NAME<nprocs>: MPI_Init, then PASSES passes,
 * each the broadcast, WORK ms of computation and the reduction; each call takes 1 ms. */
static void record(const char *name, int nprocs, char *dir, size_t len)
{
    struct tb *b;
    uint32_t send, recv;

    snprintf(dir, len, "%s/%s%d", top, name, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    send = tb_mpi(b, "MPI_Send");
    recv = tb_mpi(b, "MPI_Recv");
    for (int p = 0; p < nprocs; p++) {
        uint64_t t = MS(1);

        tb_call(b, p, "MPI_Init", 0, t);
        for (int pass = 0; pass < PASSES; pass++) {
            struct sm_message msg[MAX_MSGS];
            int bcast, n = plan(nprocs, p, msg, &bcast);

            for (int j = 0; j < n; j++) {
                int send_it = msg[j].kind == PZ_REC_SEND;
                uint32_t call = send_it ? send : recv;

                if (j == bcast)
                    t += MS(WORK);
                tb_enter(b, p, t, call);
                if (send_it)
                    tb_mpi_send(b, p, t, TB_WORLD, (uint32_t)msg[j].peer, msg[j].tag, BYTES);
                else
                    tb_mpi_recv(b, p, t + MS(1), TB_WORLD, (uint32_t)msg[j].peer, msg[j].tag,
                                BYTES);
                tb_leave(b, p, t += MS(1), call);
            }
            if (bcast == n)
                t += MS(WORK);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

static struct sm_run got;

/* The run synthesized at nprocs is the program's (plan()): every process makes PASSES
 * times its messages in order. */
static void expect_run(const struct pz_scale_program *m, int nprocs)
{
    sm_synthesize(m, nprocs, &got, err, sizeof(err));
    for (int p = 0; p < nprocs; p++) {
        struct sm_message want[MAX_MSGS];
        int bcast, n = plan(nprocs, p, want, &bcast);

        sm_expect_passes(&got, nprocs, p, want, n, PASSES);
    }
}

#define S PZ_REC_SEND
#define R PZ_REC_RECV
#define B(kind, peer) {kind, peer, BCAST_TAG, BYTES}
#define D(kind, peer) {kind, peer, REDUCE_TAG, BYTES}

/* Recorded at 2, 4 and 8, whose grids 2 x 1 x 1, 2 x 2 x 1 and 2 x 2 x 2 the partners
 * also fit (every partner is rank XOR 2^i), the tree is taken, a note says so.  At 16,
 * process 0 sends to 8, 4, 2, 1 and receives from 1, 2, 4, 8; process 12 (1100)
 * receives from 8, sends to 14 and 13, receives from 13 and 14 and sends to 8; process
 * 5 (0101) receives from 4 and sends to 4.  At 64, process 48 (110000) receives from 32,
 * sends to 56, 52, 50, 49, receives from 49, 50, 52, 56, sends to 32; process 0 has 6
 * children (32 .. 1). */
Test(scale_bintree, recorded_at_powers_of_two_at_16_and_64)
{
    static const int counts[] = {2, 4, 8};
    static const struct sm_message p0[] = {B(S, 8), B(S, 4), B(S, 2), B(S, 1),
                                           D(R, 1), D(R, 2), D(R, 4), D(R, 8)};
    static const struct sm_message p12[] = {B(R, 8), B(S, 14), B(S, 13), D(R, 13), D(R, 14),
                                            D(S, 8)};
    static const struct sm_message p5[] = {B(R, 4), D(S, 4), B(R, 4)};
    static const struct sm_message p48[] = {B(R, 32), B(S, 56), B(S, 52), B(S, 50),
                                            B(S, 49), D(R, 49), D(R, 50), D(R, 52),
                                            D(R, 56), D(S, 32)};
    static const struct sm_message p0_64[] = {B(S, 32), B(S, 16), B(S, 8), B(S, 4),
                                              B(S, 2), B(S, 1), D(R, 1)};
    struct st_model md;
    const char *note;

    sm_model_of(&md, "pow", counts, record);
    note = sm_note(md.m, "binomial tree");
    cr_assert_not_null(note, "no note of the tree");
    cr_expect(strstr(note, "(2, 4, 8)") && strstr(note, "are refused"), "note '%s'", note);
    cr_expect_null(sm_note(md.m, "the grid's neighbours are taken"), "the grid's note");
    expect_run(md.m, 16);
    sm_expect_first(&got, 16, 0, p0, 8);
    sm_expect_first(&got, 16, 12, p12, 6);
    sm_expect_first(&got, 16, 5, p5, 3);
    expect_run(md.m, 64);
    sm_expect_first(&got, 64, 48, p48, 10);
    sm_expect_first(&got, 64, 0, p0_64, 7);
    st_model_free(&md);
}

/* Recorded at powers of two only, the children a process has where P is not one (at
 * 12, process 8 has 10 and 9, not 12) are not shown: 12 is refused in one line naming
 * the call. */
Test(scale_bintree, a_count_not_a_power_of_two_from_powers_refused)
{
    static const int counts[] = {2, 4, 8};
    struct st_model md;

    sm_model_of(&md, "pow12_", counts, record);
    cr_expect_eq(sm_synthesize_none(md.m, 12, err, sizeof(err)), -1);
    cr_expect(strstr(err, "binomial tree's children") && strstr(err, "MPI_Send") &&
                  strstr(err, "at 12") && !strchr(err, '\n'),
              "err '%s'", err);
    st_model_free(&md);
}

/* Recorded at 3, 6 and 12, where the children beyond P are left out (at 12, process 8
 * sends to 10 and 9 only, at 6 process 4 to 5 alone and process 0 to 4, 2, 1): at 16
 * every process has all of its children, as at powers of two; at 64 too.  At 12 itself
 * the run is the recording's: process 8 receives from 0, sends to 10, 9, receives from
 * 9, 10, sends to 0. */
Test(scale_bintree, recorded_at_3_6_12_at_12_16_and_64)
{
    static const int counts[] = {3, 6, 12};
    static const struct sm_message p8[] = {B(R, 0), B(S, 10), B(S, 9), D(R, 9), D(R, 10),
                                           D(S, 0)};
    static const struct sm_message p12[] = {B(R, 8), B(S, 14), B(S, 13), D(R, 13), D(R, 14),
                                            D(S, 8)};
    struct st_model md;
    const char *note;

    sm_model_of(&md, "three", counts, record);
    note = sm_note(md.m, "binomial tree");
    cr_assert_not_null(note, "no note of the tree");
    cr_expect(strstr(note, "(3, 6, 12)") && !strstr(note, "are refused"), "note '%s'", note);
    expect_run(md.m, 12);
    sm_expect_first(&got, 12, 8, p8, 6);
    expect_run(md.m, 16);
    sm_expect_first(&got, 16, 12, p12, 6);
    expect_run(md.m, 64);
    cr_expect_eq(sm_synthesize_none(md.m, 24, err, sizeof(err)), 0, "%s", err);
    st_model_free(&md);
}

/* Recorded at 6, 12 and 16: the partners read as offsets in the grids of 3 x 2 and 4 x 3
 * wrap around (at 6, process 4's parent 0 is 2 rows up, the short way round), in 4 x 4
 * not, which a grid's model refuses; the tree's partners are ranks, and at 64 every
 * process makes the program's messages. */
Test(scale_bintree, recorded_at_6_12_16_whose_grids_wrap_differently_at_64)
{
    static const int counts[] = {6, 12, 16};
    struct st_model md;

    sm_model_of(&md, "wrap", counts, record);
    cr_assert_not_null(sm_note(md.m, "binomial tree"), "no note of the tree");
    expect_run(md.m, 64);
    st_model_free(&md);
}
