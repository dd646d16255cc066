/* Butterflies written with blocking MPI_Send and MPI_Recv ordered by the partner's bit
 * (scale_order.c), and with MPI_Sendrecv, their passes back to back in a time step loop
 * with no other call between (scale_xor.c, sp_xor_enclose): a reduction by recursive
 * doubling written by hand, for (mask = 1; mask < size; mask <<= 1) { partner = rank ^
 * mask; if (rank < partner) { MPI_Send; MPI_Recv } else { MPI_Recv; MPI_Send } }.
 * Recorded by hand (trace_builder.h) at 2, 4 and 8 processes, whose grids 2 x 1 x 1,
 * 2 x 2 x 1 and 2 x 2 x 2 a halo exchange fits as well, and at 4, 8 and 16; synthesized
 * at 16 and 64, every process's messages are the program's (plan(): their kind, peer,
 * tag and bytes, in order), and the computation of a pass stays before its first
 * stage.  A halo exchange over the three dimensions of MPI_Dims_create's grid from the
 * first, ordered by the parity of the coordinate, records at 2, 4 and 8 the calls of
 * the butterfly going from the highest bit down: it keeps its grid, and a note says
 * why.  Each test's comment works a few processes out by hand. */
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
        int n = plan(form, nprocs, p, want);

        sm_expect_passes(&got, nprocs, p, want, n, PASSES);
    }
}


#define S PZ_REC_SEND
#define R PZ_REC_RECV
#define M(kind, peer) {kind, peer, TAG, BYTES}

/* The butterfly from bit 0 up, recorded at 2, 4 and 8: at 4, process 1 receives from 0
 * and sends to it (1 > 0), then sends to 3 and receives from it (1 < 3), where process
 * 0 sends first at both stages: no loop describes both, and before this the grid's
 * neighbours were taken (4 x 2 x 2 at 16).  Its model is the butterfly, and notes say
 * why: one loop of log2(P) stages at every recorded count, its send and receive ordered
 * by the partner's bit, from bit 0 up (a loop over the dimensions of MPI_Dims_create's
 * grid, numbered row-major, goes from the highest bit).  At 16, process 5 (0101)
 * receives from 4 and sends to it, sends to 7 and receives, receives from 1 and sends,
 * sends to 13 and receives; at 64, process 42 (101010) sends to 43 first, receives from
 * 40 first, sends to 46, receives from 34, sends to 58, receives from 10 (expect_run
 * checks every process, PASSES passes). */
Test(scale_rankorder, a_recursive_doubling_ordered_by_rank_at_16_and_64)
{
    static const int counts[] = {2, 4, 8};
    static const struct sm_message p5[] = {M(R, 4), M(S, 4), M(S, 7), M(R, 7),
                                           M(R, 1), M(S, 1), M(S, 13), M(R, 13)};
    static const struct sm_message p42[] = {M(S, 43), M(R, 43), M(R, 40), M(S, 40),
                                            M(S, 46), M(R, 46), M(R, 34), M(S, 34),
                                            M(S, 58), M(R, 58), M(R, 10), M(S, 10)};
    struct st_model md;
    const char *note;

    model_of("up", counts, UP, &md);
    cr_expect_null(sm_note(md.m, "at most 2 processes in every recording"),
                   "note of the grid");
    note = sm_note(md.m, "a butterfly (recursive doubling");
    cr_assert_not_null(note, "no butterfly");
    cr_expect(strstr(note, "in a loop of log2(P) iterations at every recorded count") &&
                  strstr(note, "its stages go from bit 0 up, which no loop over the "
                                "dimensions of that grid does"), "note '%s'", note);
    note = sm_note(md.m, "in the order the partner's bit decides");
    cr_assert_not_null(note, "no note of the order");
    cr_expect(strstr(note, "MPI_Send and MPI_Recv of each stage") &&
                  strstr(note, "makes MPI_Send first, the other MPI_Recv first"),
              "note '%s'", note);
    expect_run(md.m, 16, UP);
    sm_expect_first(&got, 16, 5, p5, 8);
    expect_run(md.m, 64, UP);
    sm_expect_first(&got, 64, 42, p42, 12);
    st_model_free(&md);
}

/* The process below its partner receiving first: at 16, process 5 sends to 4 first,
 * receives from 7 first, sends to 1 first, receives from 13 first. */
Test(scale_rankorder, the_process_below_receiving_first_at_16_and_64)
{
    static const int counts[] = {2, 4, 8};
    static const struct sm_message p5[] = {M(S, 4), M(R, 4), M(R, 7), M(S, 7),
                                           M(S, 1), M(R, 1), M(R, 13), M(S, 13)};
    struct st_model md;

    model_of("low", counts, LOW_RECEIVES, &md);
    cr_assert_not_null(sm_note(md.m, "a butterfly (recursive doubling"), "no butterfly");
    expect_run(md.m, 16, LOW_RECEIVES);
    sm_expect_first(&got, 16, 5, p5, 8);
    expect_run(md.m, 64, LOW_RECEIVES);
    st_model_free(&md);
}

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

/* From the highest bit down, recorded at 4, 8 and 16 (where partners 8 apart fit no grid
 * of at most 2 processes per dimension): the butterfly, ordered.  At 64, process 42
 * (101010) receives from 10 first (bit 5 set), sends to 58 first, receives from 34,
 * sends to 46, receives from 40, sends to 43. */
Test(scale_rankorder, from_the_highest_bit_down_recorded_at_4_8_16_at_64)
{
    static const int counts[] = {4, 8, 16};
    static const struct sm_message p42[] = {M(R, 10), M(S, 10), M(S, 58), M(R, 58),
                                            M(R, 34), M(S, 34), M(S, 46), M(R, 46),
                                            M(R, 40), M(S, 40), M(S, 43), M(R, 43)};
    struct st_model md;

    model_of("down", counts, DOWN, &md);
    cr_assert_not_null(sm_note(md.m, "a butterfly (recursive doubling"), "no butterfly");
    cr_expect_not_null(sm_note(md.m, "in the order the partner's bit decides"),
                       "no note of the order");
    expect_run(md.m, 64, DOWN);
    sm_expect_first(&got, 64, 42, p42, 12);
    st_model_free(&md);
}

/* At 2, 4 and 8 the halo exchange (HALO) makes the calls of the butterfly from the
 * highest bit down: dimension 0 is bit log2(P) - 1 of the rank, an even coordinate is a
 * 0 bit, the one neighbour per dimension its partner. */
static void expect_halo_is_down(void)
{
    for (int nprocs = 2; nprocs <= 8; nprocs *= 2)
        for (int p = 0; p < nprocs; p++) {
            struct sm_message halo[MAX_STAGE_MSGS], down[MAX_STAGE_MSGS];
            int n = plan(HALO, nprocs, p, halo);

            cr_assert_eq(n, plan(DOWN, nprocs, p, down), "at %d, process %d", nprocs, p);
            for (int j = 0; j < n; j++)
                cr_assert(halo[j].kind == down[j].kind && halo[j].peer == down[j].peer,
                          "at %d, process %d, message %d", nprocs, p, j);
        }
}

/* Process p's sends and receives at nprocs (sm_run), as sorted sets of peers: the order
 * of the calls of a process no recording shows (a middle one along dimension 0, which
 * had 2 processes) is the template's, not the program's. */
static void expect_peers(int nprocs, int p, const int *sends, const int *recvs, int n)
{
    int s[MAX_STAGE_MSGS], r[MAX_STAGE_MSGS], ns = 0, nr = 0;

    for (int j = 0; j < got.n[p] / PASSES && j < MAX_STAGE_MSGS; j++) {
        int *set = got.m[p][j].kind == PZ_REC_SEND ? s : r, *k = set == s ? &ns : &nr;
        int at = (*k)++;

        while (at > 0 && set[at - 1] > got.m[p][j].peer) {
            set[at] = set[at - 1];
            at--;
        }
        set[at] = got.m[p][j].peer;
    }
    cr_assert(ns == n && nr == n, "at %d, process %d: %d sends, %d receives a pass, expected "
              "%d", nprocs, p, ns, nr, n);
    for (int i = 0; i < n; i++)
        cr_expect(s[i] == sends[i] && r[i] == recvs[i], "at %d, process %d: send %d to %d, "
                  "receive from %d, expected %d and %d", nprocs, p, i, s[i], r[i], sends[i],
                  recvs[i]);
}

/* The halo exchange recorded at 2, 4 and 8 (the butterfly from the highest bit down,
 * expect_halo_is_down): the stages go from the highest bit down, as a loop over the
 * grid's dimensions from the first addresses them, in the order of the parity of the
 * position: its grid is kept, with the note of the grid's neighbours taken and one
 * saying why the butterfly is not.  At 16 (4 x 2 x 2, rank 4 x + 2 y + z), process 4
 * at (1, 0, 0) exchanges with 0 and 8 along x, 6 along y and 5 along z; process 15 at
 * (3, 1, 1) with 11, 13 and 14 (the butterfly would have process 4 exchange with 12, 0,
 * 6 and 5, not 8, and 15 with 7 too). */
Test(scale_rankorder, a_halo_exchange_at_2_4_8_keeps_its_grid)
{
    static const int counts[] = {2, 4, 8};
    static const int p4[] = {0, 5, 6, 8}, p15[] = {11, 13, 14};
    struct st_model md;
    const char *note;

    expect_halo_is_down();
    model_of("halo", counts, HALO, &md);
    cr_expect_null(sm_note(md.m, "a butterfly (recursive doubling"), "butterfly taken");
    cr_expect_not_null(sm_note(md.m, "at most 2 processes in every recording"),
                       "no note of the grid's neighbours");
    note = sm_note(md.m, "the grid is kept");
    cr_assert_not_null(note, "no note of why");
    cr_expect(strstr(note, "MPI_Send and MPI_Recv with partners rank XOR 2^i") &&
                  strstr(note, "go from the highest bit down"), "note '%s'", note);
    sm_synthesize(md.m, 16, &got, err, sizeof(err));
    expect_peers(16, 4, p4, p4, 4);
    expect_peers(16, 15, p15, p15, 3);
    st_model_free(&md);
}

/* The computation of process p at nprocs before its calls, in ms, in the order made. */
struct gaps {
    int proc, n;
    double ms[64];
    uint64_t last;
};

static int no_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    (void)ctx, (void)comms, (void)n;
    return 0;
}

static int keep_gap(void *ctx, int proc, const struct pz_rec *r)
{
    struct gaps *g = ctx;

    if (proc != g->proc || (r->kind != PZ_REC_ENTER && r->kind != PZ_REC_LEAVE))
        return 0;
    if (r->kind == PZ_REC_ENTER && g->last && g->n < 64)
        g->ms[g->n++] = (double)(r->time - g->last) / 1e6;
    g->last = r->time;
    return 0;
}

/* At 16 the computation of a pass (WORK ms at every count) stays before its first call,
 * ADD ms before each stage's first call but the first, none between a stage's two calls,
 * whichever call the process makes first: process 5's calls of the second pass (its
 * calls 9 to 16 after MPI_Init, g.ms[8] to g.ms[15]) follow 10, 0, 1, 0, 1, 0, 1, 0 ms
 * of computation. */
Test(scale_rankorder, the_computation_of_a_pass_stays_before_its_first_stage)
{
    static const int counts[] = {2, 4, 8};
    static const double want[8] = {WORK, 0, ADD, 0, ADD, 0, ADD, 0};
    struct gaps g = {.proc = 5};
    struct pz_scale_sink sink = {no_comms, keep_gap, &g};
    struct st_model md;

    model_of("gaps", counts, UP, &md);
    cr_assert_eq(pz_scale_synthesize(md.m, 16, &sink, err, sizeof(err)), 0, "%s", err);
    cr_assert_geq(g.n, 16, "%d calls", g.n);
    for (int i = 0; i < 8; i++)
        cr_expect(g.ms[8 + i] > want[i] - 0.01 && g.ms[8 + i] < want[i] + 0.01,
                  "call %d of the second pass after %.3f ms, expected %.3f", i, g.ms[8 + i],
                  want[i]);
    st_model_free(&md);
}
