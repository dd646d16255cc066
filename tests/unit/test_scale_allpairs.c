/* Exchanges with every member in turn (scale_pairs.c, scale_pairs_law.c): an all-to-all
 * written by hand, as FFTW's MPI transposes write it, where at step i = 1 .. n - 1 of a
 * communicator of n members each process sends to (rank + i) mod n and receives from
 * (rank - i) mod n (a ring schedule), or exchanges with rank XOR i (a pairwise schedule,
 * n a power of two).  Recorded by hand (trace_builder.h) at 2, 4 and 8 processes, at 3,
 * 6 and 12, and on the rows of MPI_Cart_create's 2-D grids at 6, 12 and 24; synthesized
 * at 16 and 64, every process's calls, partners, tags and bytes are the program's,
 * worked out in the comments from its definition; a pairwise schedule asked at 12 is
 * refused in one line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_messages.h"
#include "scale_program.h"
#include "scale_run.h"
#include "scale_sample.h"
#include "tempdir_fixture.h"
#include "trace.h"
#include "trace_builder.h"

#define MS TB_MS
#define PASSES 2
#define TOTAL 196608u    /* bytes a process sends in one exchange, split between members:
                            3 * 65536, which 2, 3, 4, 6, 8, 12, 16 and 64 divide */
#define TAG 7u

TestSuite(scale_allpairs, .init = setup, .fini = cleanup);

/* How the program exchanges: its calls and its partners. */
enum how {
    RING_SENDRECV,   /* MPI_Sendrecv to (r + i) mod n, from (r - i) mod n, tagged TAG */
    RING_WAITALL,    /* MPI_Irecv from (r - i) mod n, MPI_Isend to (r + i) mod n, tagged
                        i, then one MPI_Waitall of every request */
    RING_WAITEACH,   /* the same, each step's two requests completed by an MPI_Waitall
                        of its own */
    RING_SEND_RECV,  /* MPI_Send to (r + i) mod n, then MPI_Recv from (r - i) mod n,
                        tagged TAG (small messages, sent eagerly) */
    XOR_SENDRECV,    /* MPI_Sendrecv with r XOR i both ways, tagged TAG */
    THREE_SENDRECV,  /* RING_SENDRECV for i = 1 .. 3 only, whatever n */
    ROWS_SENDRECV    /* RING_SENDRECV on the rows of a 2-D grid (MPI_Cart_sub's) */
};

/* The communicator an exchange of process p runs on at nprocs: its members n, p's rank
 * in it, and the world rank of its member j (first + j). */
struct on {
    int n, me, first;
};

static struct on comm_of(enum how how, int nprocs, int p)
{
    int rows, cols;

    if (how != ROWS_SENDRECV)
        return (struct on){nprocs, p, 0};
    sm_dims2(nprocs, &rows, &cols);
    return (struct on){cols, p % cols, p - p % cols};
}

/* The partners of step i (from 1) in communicator ranks: to and from. */
static void partners(enum how how, const struct on *c, int i, int *to, int *from)
{
    if (how == XOR_SENDRECV) {
        *to = *from = c->me ^ i;
        return;
    }
    *to = (c->me + i) % c->n;
    *from = (c->me - i + c->n) % c->n;
}

/* The steps of a pass on a communicator of n members: n - 1, or 3 for THREE_SENDRECV. */
static int steps_of(enum how how, int n)
{
    return how == THREE_SENDRECV ? 3 : n - 1;
}

/* The program recorded at nprocs into DIR/NAME<nprocs>: PASSES passes in interval 1,
 * each of steps_of() steps exchanging TOTAL / n bytes each way as how says. */
static void record(const char *name, int nprocs, enum how how, char *dir, size_t len)
{
    struct tb *b;
    uint32_t interval, sendrecv, send, recv, irecv, isend, waitall, rowcomm[SM_MAX_PROCS] = {0};

    snprintf(dir, len, "%s/%s%d", top, name, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    if (how == ROWS_SENDRECV)
        sm_cart_rows(b, nprocs, rowcomm);
    interval = tb_interval(b, 1, "alltoall.c", 10);
    sendrecv = tb_mpi(b, "MPI_Sendrecv");
    send = tb_mpi(b, "MPI_Send");
    recv = tb_mpi(b, "MPI_Recv");
    irecv = tb_mpi(b, "MPI_Irecv");
    isend = tb_mpi(b, "MPI_Isend");
    waitall = tb_mpi(b, "MPI_Waitall");
    for (int p = 0; p < nprocs; p++) {
        struct on c = comm_of(how, nprocs, p);
        uint32_t comm = how == ROWS_SENDRECV ? rowcomm[p / c.n] : TB_WORLD;
        uint64_t t = MS(1), req = 1, bytes = TOTAL / (uint32_t)c.n;

        for (int pass = 0; pass < PASSES; pass++) {
            uint64_t first = req;

            tb_enter(b, p, t += MS(2), interval);
            for (int i = 1; i <= steps_of(how, c.n); i++) {
                int to, from;

                partners(how, &c, i, &to, &from);
                if (how == RING_SEND_RECV) {
                    tb_enter(b, p, t += MS(1), send);
                    tb_mpi_send(b, p, t, comm, (uint32_t)to, TAG, bytes);
                    tb_leave(b, p, t += MS(1), send);
                    tb_enter(b, p, t += MS(1), recv);
                    tb_mpi_recv(b, p, t + MS(1), comm, (uint32_t)from, TAG, bytes);
                    tb_leave(b, p, t += MS(1), recv);
                    continue;
                }
                if (how != RING_WAITALL && how != RING_WAITEACH) {
                    tb_enter(b, p, t += MS(1), sendrecv);
                    tb_mpi_send(b, p, t, comm, (uint32_t)to, TAG, bytes);
                    tb_mpi_recv(b, p, t + MS(1), comm, (uint32_t)from, TAG, bytes);
                    tb_leave(b, p, t += MS(1), sendrecv);
                    continue;
                }
                tb_enter(b, p, t += MS(1), irecv);
                tb_mpi_irecv_request(b, p, t, req++);
                tb_leave(b, p, t += MS(1), irecv);
                tb_enter(b, p, t += MS(1), isend);
                tb_mpi_isend(b, p, t, comm, (uint32_t)to, (uint32_t)i, bytes, req++);
                tb_leave(b, p, t += MS(1), isend);
                if (how == RING_WAITEACH) {
                    tb_enter(b, p, t += MS(1), waitall);
                    tb_mpi_irecv(b, p, t, comm, (uint32_t)from, (uint32_t)i, bytes, req - 2);
                    tb_mpi_isend_complete(b, p, t, req - 1);
                    tb_leave(b, p, t += MS(1), waitall);
                }
            }
            if (how == RING_WAITALL) {
                tb_enter(b, p, t += MS(1), waitall);
                for (int i = 1; i < c.n; i++) {
                    int to, from;

                    partners(how, &c, i, &to, &from);
                    tb_mpi_irecv(b, p, t, comm, (uint32_t)from, (uint32_t)i, bytes,
                                 first + 2 * (uint64_t)(i - 1));
                    tb_mpi_isend_complete(b, p, t, first + 2 * (uint64_t)(i - 1) + 1);
                }
                tb_leave(b, p, t += MS(1), waitall);
            }
            tb_leave(b, p, t += MS(1), interval);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* The program recorded at counts[0..2] and its model (sm_model_read). */
static void model_of(const char *name, const int *counts, enum how how, struct st_model *md)
{
    char dirs[3][4200];

    for (int i = 0; i < 3; i++)
        record(name, counts[i], how, dirs[i], sizeof(dirs[i]));
    sm_model_read(md, (const char *const[]){dirs[0], dirs[1], dirs[2]}, err, sizeof(err));
}

/* The note of the exchange with every member, or NULL. */
static const char *pairs_note(const struct pz_scale_program *m)
{
    return sm_note(m, "an exchange with every member in turn");
}

/* The synthesized run: every process's messages, posted receives and completed sends. */
static struct sm_run got;

static void expect_message(int nprocs, int p, int j, uint8_t kind, int peer, uint32_t tag,
                           uint64_t bytes)
{
    sm_expect_message(&got, nprocs, p, j, &(struct sm_message){kind, peer, tag, bytes});
}

/* The run at nprocs as the program makes it (record's definition): every process p, on
 * its communicator of n members (the world, or its row: world ranks first .. first + n -
 * 1), in each of PASSES passes, for i = 1 .. n - 1: with MPI_Sendrecv a SEND to
 * partner `to` then a RECV from `from` (partners()), tagged TAG, TOTAL / n bytes each;
 * with MPI_Irecv and MPI_Isend an IRECV_REQUEST and an ISEND to `to` tagged i, and
 * after the loop one MPI_Waitall whose IRECV records come from `from` tagged i, in
 * the order the receives were posted, and n - 1 ISEND_COMPLETE records (with a Waitall
 * in each step, that step's IRECV right after its ISEND). */
static void expect_run(const struct pz_scale_program *m, int nprocs, enum how how)
{
    sm_synthesize(m, nprocs, &got, err, sizeof(err));
    for (int p = 0; p < nprocs; p++) {
        struct on c = comm_of(how, nprocs, p);
        uint64_t bytes = TOTAL / (uint32_t)c.n;
        int j = 0, waitall = how == RING_WAITALL || how == RING_WAITEACH;

        cr_assert_eq(got.n[p], 2 * PASSES * (c.n - 1), "at %d, process %d: %d messages, "
                     "expected %d", nprocs, p, got.n[p], 2 * PASSES * (c.n - 1));
        cr_expect_eq(got.requests[p], waitall ? PASSES * (c.n - 1) : 0,
                     "at %d, process %d posts %d receives", nprocs, p, got.requests[p]);
        cr_expect_eq(got.completed_sends[p], waitall ? PASSES * (c.n - 1) : 0,
                     "at %d, process %d completes %d sends", nprocs, p,
                     got.completed_sends[p]);
        for (int pass = 0; pass < PASSES; pass++) {
            for (int i = 1; i < c.n; i++) {
                int to, from;

                partners(how, &c, i, &to, &from);
                if (waitall) {
                    expect_message(nprocs, p, j++, PZ_REC_ISEND, c.first + to, (uint32_t)i,
                                   bytes);
                    if (how == RING_WAITEACH)
                        expect_message(nprocs, p, j++, PZ_REC_IRECV, c.first + from,
                                       (uint32_t)i, bytes);
                    continue;
                }
                expect_message(nprocs, p, j++, PZ_REC_SEND, c.first + to, TAG, bytes);
                expect_message(nprocs, p, j++, PZ_REC_RECV, c.first + from, TAG, bytes);
            }
            for (int i = 1; how == RING_WAITALL && i < c.n; i++) {
                int to, from;

                partners(how, &c, i, &to, &from);
                expect_message(nprocs, p, j++, PZ_REC_IRECV, c.first + from, (uint32_t)i,
                               bytes);
            }
        }
    }
}

/* Recorded at 2, 4 and 8 (1, 3 and 7 steps: at 4 process 1 sends to 2, 3, 0 and
 * receives from 0, 3, 2; every partner is also a neighbour of 2 x 2 x 2 at 8, in an
 * order that differs from one process to the next), the steps are one loop of P - 1
 * iterations and the note says so.  At 16 process 5 sends to 6, 7, ..., 15, 0, ..., 4
 * and receives from 4, 3, ..., 0, 15, ..., 6, 12288 bytes each (196608 / 16), tagged
 * 7; at 64, 63 steps of 3072 bytes (expect_run). */
Test(scale_allpairs, a_ring_of_sendrecv_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;
    const char *note;

    model_of("ring", counts, RING_SENDRECV, &md);
    cr_assert_not_null(md.m, "%s", err);
    note = pairs_note(md.m);
    cr_assert_not_null(note, "no note of the exchange with every member");
    cr_expect(strstr(note, "the messages of MPI_Sendrecv go to every other member of the "
                     "world in turn") != NULL &&
                  strstr(note, "(a ring schedule)") != NULL &&
                  strstr(note, "at every recorded count (2, 4, 8)") != NULL,
              "note '%s'", note);
    expect_run(md.m, 16, RING_SENDRECV);
    expect_run(md.m, 64, RING_SENDRECV);
    st_model_free(&md);
}

/* The same recorded at 3, 6 and 12, counts that are no powers of two (2, 5 and 11
 * steps of 65536, 32768 and 16384 bytes), synthesized at 16 and 64 as above. */
Test(scale_allpairs, a_ring_recorded_at_3_6_12_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 3, 6, 12 };
    struct st_model md;

    model_of("ring3_", counts, RING_SENDRECV, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_assert_not_null(pairs_note(md.m), "no note of the exchange with every member");
    expect_run(md.m, 16, RING_SENDRECV);
    expect_run(md.m, 64, RING_SENDRECV);
    st_model_free(&md);
}

/* MPI_Irecv from (r - i) mod P and MPI_Isend to (r + i) mod P tagged i, then one
 * MPI_Waitall: at 16, process 5 posts 15 receives and sends to 6 .. 15, 0 .. 4 tagged
 * 1 .. 15, then its Waitall completes the receives from 4, 3, .., 0, 15, .., 6 tagged 1
 * .. 15 in that order and its 15 sends, 12288 bytes each; at 64 the same over 63
 * partners, 3072 bytes; at 4 and 8, as recorded (49152 and 24576 bytes).  The receives'
 * sizes, which only their completions in the MPI_Waitall carry, are 196608 / P, not the
 * form of the grid of 2 x 2 x 2 that 2, 4 and 8 also fit (98304 / (dims[1] dims[2]),
 * 24576 at 16 where the program receives 12288). */
Test(scale_allpairs, a_ring_of_isend_irecv_and_waitall_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("waitall", counts, RING_WAITALL, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_assert_not_null(pairs_note(md.m), "no note of the exchange with every member");
    expect_run(md.m, 4, RING_WAITALL);
    expect_run(md.m, 8, RING_WAITALL);
    expect_run(md.m, 16, RING_WAITALL);
    expect_run(md.m, 64, RING_WAITALL);
    st_model_free(&md);
}

/* The same with an MPI_Waitall in every step: at 16 process 5's step i sends to (5 + i)
 * mod 16 tagged i, then completes the receive from (5 - i) mod 16 tagged i and its send,
 * 12288 bytes each way; at 64 over 63 partners, 3072 bytes. */
Test(scale_allpairs, a_ring_of_isend_irecv_waited_each_step_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("waiteach", counts, RING_WAITEACH, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_assert_not_null(pairs_note(md.m), "no note of the exchange with every member");
    expect_run(md.m, 16, RING_WAITEACH);
    expect_run(md.m, 64, RING_WAITEACH);
    st_model_free(&md);
}

/* MPI_Send to (r + i) mod P then MPI_Recv from (r - i) mod P, two calls per step: at
 * 16 and 64 the same messages as by MPI_Sendrecv (expect_run). */
Test(scale_allpairs, a_ring_of_send_and_recv_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("sendrecv2_", counts, RING_SEND_RECV, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_assert_not_null(pairs_note(md.m), "no note of the exchange with every member");
    expect_run(md.m, 16, RING_SEND_RECV);
    expect_run(md.m, 64, RING_SEND_RECV);
    st_model_free(&md);
}

/* Three steps at every count, to (r + i) mod P and from (r - i) mod P for i = 1, 2, 3:
 * at 4 every other process, at 8 and 16 not; the loop's trip count is no P - 1 at 8 and
 * 16, so no exchange with every member is taken, and whatever the model is, a refusal
 * is one line. */
Test(scale_allpairs, three_steps_at_every_count_are_no_exchange_with_every_member)
{
    static const int counts[] = { 4, 8, 16 };
    struct st_model md;

    model_of("three", counts, THREE_SENDRECV, &md);
    cr_expect_null(pairs_note(md.m), "note '%s'", pairs_note(md.m));
    if (!md.m)
        cr_expect(err[0] && !strchr(err, '\n'), "err '%s'", err);
    st_model_free(&md);
}

/* MPI_Sendrecv with r XOR i at step i: at 4 process 1 exchanges with 0, 3, 2 (1 XOR 1,
 * 1 XOR 2, 1 XOR 3), where a ring would send to 2, 3, 0.  At 16 process 5 exchanges
 * with 4, 7, 6, 1, 0, 3, 2, 13, 12, 15, 14, 9, 8, 11, 10, 12288 bytes each way; at
 * 64 with 5 XOR 1 .. 5 XOR 63, 3072 bytes.  The note names the pairwise schedule. */
Test(scale_allpairs, a_pairwise_schedule_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;
    const char *note;

    model_of("xor", counts, XOR_SENDRECV, &md);
    cr_assert_not_null(md.m, "%s", err);
    note = pairs_note(md.m);
    cr_assert_not_null(note, "no note of the exchange with every member");
    cr_expect(strstr(note, "rank XOR i (a pairwise schedule") != NULL, "note '%s'", note);
    expect_run(md.m, 16, XOR_SENDRECV);
    expect_run(md.m, 64, XOR_SENDRECV);
    st_model_free(&md);
}

static int no_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    (void)ctx, (void)comms, (void)n;
    return 0;
}

/* At 12, rank 4's partner at step 8 would be 4 XOR 8 = 12, which does not exist, and
 * rank 8's at step 4 would be 12: refused in one line naming the call and the count. */
Test(scale_allpairs, a_pairwise_schedule_at_12_is_refused)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("xor12_", counts, XOR_SENDRECV, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_expect_eq(sm_synthesize_none(md.m, 12, err, sizeof(err)), -1);
    cr_expect(strstr(err, "the partners of MPI_Sendrecv are rank XOR i") != NULL &&
                  strstr(err, "a power of two members, not 12") != NULL &&
                  !strchr(err, '\n'),
              "err '%s'", err);
    st_model_free(&md);
}

/* On the rows of MPI_Cart_create's grids of 3 x 2, 4 x 3 and 6 x 4 at 6, 12 and 24
 * (rows of 2, 3 and 4: 1, 2 and 3 steps), MPI_Sendrecv within the row communicator.  At
 * 16 (4 x 4) process 5, of row 1 (world ranks 4 .. 7, rank 1 in it), sends to 6, 7, 4
 * and receives from 4, 7, 6, 49152 bytes each (196608 / 4); at 64 (8 x 8) process 5 of
 * row 0 sends to 6, 7, 0, .., 4 and receives from 4, .., 0, 7, 6, 24576 bytes; a process
 * never exchanges outside its row. */
Test(scale_allpairs, a_ring_on_the_rows_of_a_grid_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 6, 12, 24 };
    struct st_model md;
    const char *note;

    model_of("rows", counts, ROWS_SENDRECV, &md);
    cr_assert_not_null(md.m, "%s", err);
    note = pairs_note(md.m);
    cr_assert_not_null(note, "no note of the exchange with every member");
    cr_expect(strstr(note, "every other member of a slice of the grid") != NULL,
              "note '%s'", note);
    expect_run(md.m, 16, ROWS_SENDRECV);
    expect_run(md.m, 64, ROWS_SENDRECV);
    st_model_free(&md);
}

static uint64_t records_of_0;

static int count_process_0(void *ctx, int proc, const struct pz_rec *r)
{
    (void)ctx, (void)r;
    records_of_0 += proc == 0;
    return 0;
}

/* The sampling counts the records the synthesis makes: on the rows of 4 and 8 members
 * at 16 and 64 processes (4 x 4, 8 x 8) the exchange runs 3 and 7 steps, not the count
 * its recordings' rows of 2, 3 and 4 members (6, 12, 24: 3 x 2, 4 x 3, 6 x 4) fit for
 * P (which gives 2 and 4), so process 0's records, every process's, are those of the
 * run synthesized. */
Test(scale_allpairs, the_sampling_counts_the_steps_on_the_rows)
{
    static const int counts[] = { 6, 12, 24 };
    struct st_model md;

    model_of("rowsampled", counts, ROWS_SENDRECV, &md);
    cr_assert_not_null(md.m, "%s", err);
    for (int nprocs = 16; nprocs <= 64; nprocs *= 4) {
        struct pz_scale_sample sample;
        struct pz_scale_sink sink = { no_comms, count_process_0, NULL };

        records_of_0 = 0;
        cr_assert_eq(pz_scale_synthesize(md.m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
        cr_assert(pz_scale_sample_loop(md.m, nprocs, 1, &sample), "no loop at %d", nprocs);
        cr_expect_eq(sample.records, records_of_0, "at %d: %llu records counted, %llu made",
                     nprocs, (unsigned long long)sample.records,
                     (unsigned long long)records_of_0);
    }
    st_model_free(&md);
}
