/* Exchanges with every member in turn over the ranks (scale_pairs*.c): an all-to-all
 * written by hand as a loop over the other ranks of a communicator in ascending order
 * (for (q = 0; q < n; q++) if (q != rank) ...) or descending, by MPI_Irecv and MPI_Isend
 * and one MPI_Waitall after the loops or one per step, by MPI_Sendrecv, or by blocking
 * MPI_Send and MPI_Recv ordered by rank (the send first where the rank is below the
 * partner's, the receive first above), with the other ranks in order or rank XOR i; a
 * gather written by hand after it (rank 0 receives from 1 .. n - 1 in turn, the others
 * send to 0), alone or beside a ring ordered by parity.  Recorded by hand
 * (trace_builder.h) at 2, 4 and 8 processes, where every process is also a neighbour of
 * every other in the grid of 2 x 2 x 2, at 3, 6 and 12, and on the rows of
 * MPI_Cart_create's grids at 6, 12 and 24; synthesized at 16 and 64, every process's
 * calls, partners, tags and bytes are the program's, worked out in the comments from its
 * definition; a pairwise schedule asked at 12 is refused in one line, and a halo
 * exchange with 26 neighbours, whose messages differ in size by direction, is not taken
 * for an exchange with every member. */
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
#define PASSES 2
#define TOTAL 196608u    /* bytes a process sends in one exchange, split between members:
                            3 * 65536, which 2, 3, 4, 6, 8, 12, 16 and 64 divide */
#define TAG 7u
#define GATHER_TAG 4u
#define GATHER_BYTES 8u
#define RING_BYTES 64u

TestSuite(scale_allranks, .init = setup, .fini = cleanup);

/* How the program exchanges: its calls and its partners. */
enum how {
    UP_WAITALL,      /* MPI_Irecv from every other rank in ascending order, then MPI_Isend
                        to each, tagged TAG, then one MPI_Waitall; then the gather */
    UP_SENDRECV,     /* MPI_Sendrecv with every other rank in ascending order */
    DOWN_WAITEACH,   /* MPI_Irecv and MPI_Isend with every other rank in descending order,
                        each step's two requests completed by an MPI_Waitall of its own */
    UP_ORDERED,      /* with every other rank in ascending order, MPI_Send then MPI_Recv
                        where the rank is below the partner's, else MPI_Recv then
                        MPI_Send */
    XOR_ORDERED,     /* the same with rank XOR i at step i, and no interval around the
                        passes: nothing between one pass's exchanges and the next's */
    XOR_SEND_FIRST,  /* rank XOR i, MPI_Send then MPI_Recv everywhere (small messages,
                        sent eagerly) */
    UP_ROWS,         /* UP_SENDRECV within the rows of a 2-D grid (MPI_Cart_sub's) */
    GATHER_ONLY,     /* the gather alone, no exchange before it */
    RING_GATHER      /* a ring ordered by parity, then the gather: even ranks MPI_Send
                        RING_BYTES tagged TAG to rank + 1 then MPI_Recv from rank - 1, odd
                        ranks the other way round */
};

/* The communicator an exchange of process p runs on at nprocs: its members n, p's rank
 * in it, and the world rank of its member j (first + j). */
struct on {
    int n, me, first;
};

static struct on comm_of(enum how how, int nprocs, int p)
{
    int rows, cols;

    if (how != UP_ROWS)
        return (struct on){nprocs, p, 0};
    sm_dims2(nprocs, &rows, &cols);
    return (struct on){cols, p % cols, p - p % cols};
}

/* The partner of step i (from 1) in communicator ranks, as the program's loop has it:
 * me XOR i, or the i-th rank q of `for (q = 0; q < n; q++) if (q != me)` (from n - 1
 * down for DOWN_WAITEACH). */
static int partner(enum how how, const struct on *c, int i)
{
    int seen = 0;

    if (how == XOR_ORDERED || how == XOR_SEND_FIRST)
        return c->me ^ i;
    for (int k = 0; k < c->n; k++) {
        int q = how == DOWN_WAITEACH ? c->n - 1 - k : k;

        if (q != c->me && ++seen == i)
            return q;
    }
    return -1;
}

/* The regions of the program's calls. */
struct calls {
    uint32_t interval, sendrecv, send, recv, irecv, isend, waitall;
};

/* A blocking call `region` of process p making one message to or from q (a SEND or a
 * RECV on comm), at *t. */
static void one(struct tb *b, int p, uint64_t *t, uint32_t region, int send, uint32_t comm,
                int q, uint32_t tag, uint64_t bytes)
{
    tb_enter(b, p, *t += MS(1), region);
    if (send)
        tb_mpi_send(b, p, *t, comm, (uint32_t)q, tag, bytes);
    else
        tb_mpi_recv(b, p, *t + MS(1), comm, (uint32_t)q, tag, bytes);
    tb_leave(b, p, *t += MS(1), region);
}

/* The requests of steps 1 .. n - 1 posted (*req the next id): a receive, and a send
 * tagged TAG; each step's completed by an MPI_Waitall of its own when each is set. */
static void post_all(struct tb *b, const struct calls *k, enum how how, int p,
                     const struct on *c, uint64_t *t, uint64_t *req, int each)
{
    uint64_t bytes = TOTAL / (uint32_t)c->n;

    for (int i = 1; i < c->n; i++) {
        tb_enter(b, p, *t += MS(1), k->irecv);
        tb_mpi_irecv_request(b, p, *t, (*req)++);
        tb_leave(b, p, *t += MS(1), k->irecv);
        if (how == UP_WAITALL)
            continue;
        tb_enter(b, p, *t += MS(1), k->isend);
        tb_mpi_isend(b, p, *t, TB_WORLD, (uint32_t)partner(how, c, i), TAG, bytes, (*req)++);
        tb_leave(b, p, *t += MS(1), k->isend);
        if (!each)
            continue;
        tb_enter(b, p, *t += MS(1), k->waitall);
        tb_mpi_irecv(b, p, *t, TB_WORLD, (uint32_t)partner(how, c, i), TAG, bytes, *req - 2);
        tb_mpi_isend_complete(b, p, *t, *req - 1);
        tb_leave(b, p, *t += MS(1), k->waitall);
    }
}

/* UP_WAITALL's sends after its receives and its MPI_Waitall. */
static void waitall_and_gather(struct tb *b, const struct calls *k, enum how how, int p,
                               const struct on *c, uint64_t *t, uint64_t *req)
{
    uint64_t bytes = TOTAL / (uint32_t)c->n, first = *req - (uint64_t)(c->n - 1);

    for (int i = 1; i < c->n; i++) {
        tb_enter(b, p, *t += MS(1), k->isend);
        tb_mpi_isend(b, p, *t, TB_WORLD, (uint32_t)partner(how, c, i), TAG, bytes, (*req)++);
        tb_leave(b, p, *t += MS(1), k->isend);
    }
    tb_enter(b, p, *t += MS(1), k->waitall);
    for (int i = 1; i < c->n; i++) {
        tb_mpi_irecv(b, p, *t, TB_WORLD, (uint32_t)partner(how, c, i), TAG, bytes,
                     first + (uint64_t)(i - 1));
        tb_mpi_isend_complete(b, p, *t, first + (uint64_t)(c->n - 2 + i));
    }
    tb_leave(b, p, *t += MS(1), k->waitall);
}

/* The gather written by hand: rank 0 receives from 1 .. n - 1 in turn, the others send
 * to 0. */
static void gather(struct tb *b, const struct calls *k, int p, const struct on *c,
                   uint64_t *t)
{
    for (int q = 1; p == 0 && q < c->n; q++)
        one(b, p, t, k->recv, 0, TB_WORLD, q, GATHER_TAG, GATHER_BYTES);
    if (p)
        one(b, p, t, k->send, 1, TB_WORLD, 0, GATHER_TAG, GATHER_BYTES);
}

/* RING_GATHER's ring: process p's neighbour to the right and to the left, and whether
 * it sends first. */
static void ring_of(const struct on *c, int *right, int *left, int *sends_first)
{
    *right = (c->me + 1) % c->n;
    *left = (c->me + c->n - 1) % c->n;
    *sends_first = c->me % 2 == 0;
}

/* One pass of process p's exchange on communicator comm. */
static void exchange(struct tb *b, const struct calls *k, enum how how, int p,
                     const struct on *c, uint32_t comm, uint64_t *t, uint64_t *req)
{
    uint64_t bytes = TOTAL / (uint32_t)c->n;

    if (how == RING_GATHER) {
        int right, left, first;

        ring_of(c, &right, &left, &first);
        one(b, p, t, first ? k->send : k->recv, first, comm, first ? right : left, TAG,
            RING_BYTES);
        one(b, p, t, first ? k->recv : k->send, !first, comm, first ? left : right, TAG,
            RING_BYTES);
    }
    if (how == GATHER_ONLY || how == RING_GATHER) {
        gather(b, k, p, c, t);
        return;
    }
    if (how == UP_WAITALL || how == DOWN_WAITEACH) {
        post_all(b, k, how, p, c, t, req, how == DOWN_WAITEACH);
        if (how == UP_WAITALL) {
            waitall_and_gather(b, k, how, p, c, t, req);
            gather(b, k, p, c, t);
        }
        return;
    }
    for (int i = 1; i < c->n; i++) {
        int q = partner(how, c, i), below = c->me < q || how == XOR_SEND_FIRST;

        if (how == UP_SENDRECV || how == UP_ROWS) {
            tb_enter(b, p, *t += MS(1), k->sendrecv);
            tb_mpi_send(b, p, *t, comm, (uint32_t)q, TAG, bytes);
            tb_mpi_recv(b, p, *t + MS(1), comm, (uint32_t)q, TAG, bytes);
            tb_leave(b, p, *t += MS(1), k->sendrecv);
            continue;
        }
        one(b, p, t, below ? k->send : k->recv, below, comm, q, TAG, bytes);
        one(b, p, t, below ? k->recv : k->send, !below, comm, q, TAG, bytes);
    }
}

/* The program recorded at nprocs into DIR/NAME<nprocs>: PASSES passes, each in interval
 * 1 (but for XOR_ORDERED), exchanging TOTAL / n bytes each way with every other member
 * as how says. */
static void record(const char *name, int nprocs, enum how how, char *dir, size_t len)
{
    struct tb *b;
    struct calls k;
    uint32_t rowcomm[SM_MAX_PROCS] = {0};

    snprintf(dir, len, "%s/%s%d", top, name, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    if (how == UP_ROWS)
        sm_cart_rows(b, nprocs, rowcomm);
    k = (struct calls){tb_interval(b, 1, "alltoall.c", 10), tb_mpi(b, "MPI_Sendrecv"),
                       tb_mpi(b, "MPI_Send"), tb_mpi(b, "MPI_Recv"), tb_mpi(b, "MPI_Irecv"),
                       tb_mpi(b, "MPI_Isend"), tb_mpi(b, "MPI_Waitall")};
    for (int p = 0; p < nprocs; p++) {
        struct on c = comm_of(how, nprocs, p);
        uint32_t comm = how == UP_ROWS ? rowcomm[p / c.n] : TB_WORLD;
        uint64_t t = MS(1), req = 1;

        for (int pass = 0; pass < PASSES; pass++) {
            if (how != XOR_ORDERED)
                tb_enter(b, p, t += MS(2), k.interval);
            t += MS(2);
            exchange(b, &k, how, p, &c, comm, &t, &req);
            if (how != XOR_ORDERED)
                tb_leave(b, p, t += MS(1), k.interval);
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

/* The note of the assumption that the grid's neighbours are not meant, or NULL. */
static const char *grid_note(const struct pz_scale_program *m)
{
    return sm_note(m, "not a halo exchange with the grid's neighbours");
}

/* The synthesized run: every process's messages, posted receives and completed sends. */
static struct sm_run got;

/* The messages the program makes at nprocs, in order, as record() writes them. */
struct want {
    int n;
    struct sm_message m[SM_MAX_RECS];
};

static void add(struct want *w, uint8_t kind, int peer, uint32_t tag, uint64_t bytes)
{
    cr_assert_lt(w->n, SM_MAX_RECS, "more messages than kept");
    w->m[w->n++] = (struct sm_message){kind, peer, tag, bytes};
}

/* One pass of process p's messages (world ranks): UP_WAITALL's sends, then its
 * receives as its MPI_Waitall completes them in the order they were posted, then the
 * gather (at 0 a RECV from each other rank in turn, elsewhere a SEND to 0); with a
 * Waitall per step, each step's send then receive; with MPI_Sendrecv a SEND and a RECV;
 * ordered by rank, SEND then RECV where p's rank is below the partner's, else RECV then
 * SEND. */
static void pass_of(enum how how, const struct on *c, struct want *w)
{
    uint64_t bytes = TOTAL / (uint32_t)c->n;
    int gathers = how == UP_WAITALL || how == GATHER_ONLY || how == RING_GATHER;

    if (how == RING_GATHER) {
        int right, left, first;

        ring_of(c, &right, &left, &first);
        add(w, first ? PZ_REC_SEND : PZ_REC_RECV, first ? right : left, TAG, RING_BYTES);
        add(w, first ? PZ_REC_RECV : PZ_REC_SEND, first ? left : right, TAG, RING_BYTES);
    }
    for (int i = 1; how != GATHER_ONLY && how != RING_GATHER && i < c->n; i++) {
        int q = partner(how, c, i), below = c->me < q || how == XOR_SEND_FIRST;

        if (how == UP_WAITALL || how == DOWN_WAITEACH) {
            add(w, PZ_REC_ISEND, c->first + q, TAG, bytes);
            if (how == DOWN_WAITEACH)
                add(w, PZ_REC_IRECV, c->first + q, TAG, bytes);
            continue;
        }
        add(w, below || how == UP_SENDRECV || how == UP_ROWS ? PZ_REC_SEND : PZ_REC_RECV,
            c->first + q, TAG, bytes);
        add(w, below || how == UP_SENDRECV || how == UP_ROWS ? PZ_REC_RECV : PZ_REC_SEND,
            c->first + q, TAG, bytes);
    }
    for (int i = 1; how == UP_WAITALL && i < c->n; i++)
        add(w, PZ_REC_IRECV, partner(how, c, i), TAG, bytes);
    for (int q = 1; gathers && c->me == 0 && q < c->n; q++)
        add(w, PZ_REC_RECV, q, GATHER_TAG, GATHER_BYTES);
    if (gathers && c->me)
        add(w, PZ_REC_SEND, 0, GATHER_TAG, GATHER_BYTES);
}

/* The run synthesized at nprocs is the program's (pass_of, PASSES times), process by
 * process, message by message, with its n - 1 receives posted and sends completed per
 * pass where it posts them. */
static void expect_run(const struct pz_scale_program *m, int nprocs, enum how how)
{
    sm_synthesize(m, nprocs, &got, err, sizeof(err));
    for (int p = 0; p < nprocs; p++) {
        struct on c = comm_of(how, nprocs, p);
        int posts = how == UP_WAITALL || how == DOWN_WAITEACH;
        struct want w = {0};

        for (int pass = 0; pass < PASSES; pass++)
            pass_of(how, &c, &w);
        cr_assert_eq(got.n[p], w.n, "at %d, process %d: %d messages, expected %d", nprocs, p,
                     got.n[p], w.n);
        cr_expect_eq(got.requests[p], posts ? PASSES * (c.n - 1) : 0,
                     "at %d, process %d posts %d receives", nprocs, p, got.requests[p]);
        cr_expect_eq(got.completed_sends[p], posts ? PASSES * (c.n - 1) : 0,
                     "at %d, process %d completes %d sends", nprocs, p, got.completed_sends[p]);
        for (int j = 0; j < w.n; j++)
            sm_expect_message(&got, nprocs, p, j, &w.m[j]);
    }
}

/* Recorded at 2, 4 and 8 (at 4 process 1 receives from and sends to 0, 2, 3; process 2
 * to 0, 1, 3: each process its own order of offsets in the grid, every partner also a
 * neighbour of 2 x 2 x 2 at 8), the loops over the ranks are taken, with a note, and so
 * is the gather: at 16 process 5 posts 15 receives, sends to 0, 1, 2, 3, 4, 6, .., 15
 * 12288 bytes each (196608 / 16) tagged 7, its MPI_Waitall completes the receives from
 * the same ranks in that order and its 15 sends, then it sends 8 bytes tagged 4 to 0;
 * process 0 sends to and receives from 1 .. 15, then receives 8 bytes from 1, 2, .., 15
 * in turn; at 64 the same over 63 partners, 3072 bytes each (expect_run). */
Test(scale_allranks, a_loop_over_the_ranks_and_a_gather_are_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;
    const char *note;

    model_of("up", counts, UP_WAITALL, &md);
    cr_assert_not_null(md.m, "%s", err);
    note = pairs_note(md.m);
    cr_assert_not_null(note, "no note of the exchange with every member");
    cr_expect(strstr(note, "the i-th other member in ascending rank order") != NULL,
              "note '%s'", note);
    cr_expect_not_null(grid_note(md.m), "no note that the grid's neighbours are not taken");
    expect_run(md.m, 16, UP_WAITALL);
    expect_run(md.m, 64, UP_WAITALL);
    st_model_free(&md);
}

/* The gather alone, recorded at 2, 4 and 8: rank 0's loop over the other ranks is the
 * only run reaching every member, and the recordings of 3 processes or more show it at
 * rank 0 alone (before, no run of every process reaching every member was found, the
 * calls to rank 0 stayed offsets in the grid of 2 x 2 x 2, and at 16 rank 0 received 7
 * times, ranks 4 and 8 too).  At 16 rank 0 receives 8 bytes tagged 4 from 1, 2, ..,
 * 15 in turn and every other rank sends 8 bytes to 0, twice; at 64 the same over 63
 * (expect_run). */
Test(scale_allranks, a_gather_written_by_hand_alone_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("gather", counts, GATHER_ONLY, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_expect_not_null(pairs_note(md.m), "no note of the exchange with every member");
    expect_run(md.m, 16, GATHER_ONLY);
    expect_run(md.m, 64, GATHER_ONLY);
    st_model_free(&md);
}

/* The gather beside a ring ordered by parity, recorded at 2, 4 and 8.  Rank 0's run of
 * receives tagged 4 is the exchange with every member; steps of its shapes (partners and
 * tags left out) that reach fewer members are not: the ring's receive from the left,
 * one step where the communicator has more than 2 members, at 2 tagged 7 where every
 * run begins with 4; at process 1 of 8 the ring's send to 2 and the gather's to 0, the
 * 6th and 7th other members in descending order.  Before, they were rewritten as such
 * exchanges, at distances that differ from one recording to the next (P - 1, or 6 and
 * 7), and the recordings were refused.  At 16 process 4 sends 64 bytes tagged 7 to 5,
 * receives them from 3, then sends 8 bytes tagged 4 to 0; process 5 receives from 4
 * first and sends to 6; process 0 sends to 1, receives from 15, then receives 8 bytes
 * from 1, 2, .., 15 in turn; twice; at 64 the same around the ring of 64 (expect_run). */
Test(scale_allranks, a_gather_beside_a_ring_ordered_by_parity_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("ringgather", counts, RING_GATHER, &md);
    cr_assert_not_null(md.m, "%s", err);
    expect_run(md.m, 16, RING_GATHER);
    expect_run(md.m, 64, RING_GATHER);
    st_model_free(&md);
}

/* MPI_Sendrecv over the other ranks in ascending order at 3, 6 and 12 (2, 5 and 11 steps,
 * 65536, 32768 and 16384 bytes; 3 is no grid of 2 along every dimension, so no note of
 * the grid's neighbours): at 16 process 5 exchanges with 0, .., 4, 6, .., 15 in turn,
 * 12288 bytes each way; at 64 with every other rank, 3072 bytes. */
Test(scale_allranks, sendrecv_over_the_ranks_at_3_6_12_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 3, 6, 12 };
    struct st_model md;

    model_of("up3_", counts, UP_SENDRECV, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_assert_not_null(pairs_note(md.m), "no note of the exchange with every member");
    cr_expect_null(grid_note(md.m), "note '%s'", grid_note(md.m));
    expect_run(md.m, 16, UP_SENDRECV);
    expect_run(md.m, 64, UP_SENDRECV);
    st_model_free(&md);
}

/* The ranks in descending order, an MPI_Waitall in every step: at 16 process 5 sends to
 * 15, 14, .., 6, 4, .., 0 and completes the receive from the same partner in each step;
 * at 64 from 63 down. */
Test(scale_allranks, descending_ranks_waited_each_step_are_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;
    const char *note;

    model_of("down", counts, DOWN_WAITEACH, &md);
    cr_assert_not_null(md.m, "%s", err);
    note = pairs_note(md.m);
    cr_assert_not_null(note, "no note of the exchange with every member");
    cr_expect(strstr(note, "descending rank order") != NULL, "note '%s'", note);
    expect_run(md.m, 16, DOWN_WAITEACH);
    expect_run(md.m, 64, DOWN_WAITEACH);
    st_model_free(&md);
}

/* MPI_Send and MPI_Recv ordered by rank over the ranks in ascending order: at 4 process
 * 2 receives from 0 then sends to it, the same with 1, then sends to 3 and receives
 * from it, where process 0 sends first to everyone and 3 receives first from everyone.
 * At 16 process 5 receives first from 0 .. 4 and sends first to 6 .. 15, 12288 bytes;
 * at 64 the same around 5 over 63 partners, 3072 bytes. */
Test(scale_allranks, sends_and_receives_ordered_by_rank_are_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;
    const char *note;

    model_of("ordered", counts, UP_ORDERED, &md);
    cr_assert_not_null(md.m, "%s", err);
    note = pairs_note(md.m);
    cr_assert_not_null(note, "no note of the exchange with every member");
    cr_expect(strstr(note, "ordered by rank, MPI_Send first where the process's rank is below "
                           "its partner's") != NULL, "note '%s'", note);
    expect_run(md.m, 16, UP_ORDERED);
    expect_run(md.m, 64, UP_ORDERED);
    st_model_free(&md);
}

/* Rank XOR i ordered by rank, nothing between one pass's 7 steps and the next's at 8: at
 * 16 process 5 receives first from 4, sends first to 7 and 6, receives first from 1, 0,
 * 3, 2, sends first to 13, 12, 15, 14, 9, 8, 11, 10 (5 XOR 1 .. 5 XOR 15), 15 steps in
 * each pass, not 30 in one; at 64, 63 steps of 3072 bytes. */
Test(scale_allranks, a_pairwise_schedule_ordered_by_rank_is_synthesized_at_16_and_64)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("xorord", counts, XOR_ORDERED, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_assert_not_null(pairs_note(md.m), "no note of the exchange with every member");
    expect_run(md.m, 16, XOR_ORDERED);
    expect_run(md.m, 64, XOR_ORDERED);
    st_model_free(&md);
}

/* Rank XOR i, the send first everywhere: at 4 process 3 sends to 2 and then receives
 * from it, as process 0 does with 1, one order whatever the ranks; at 16 process 5 sends
 * to and then receives from 4, 7, 6, .., 10 (5 XOR 1 .. 5 XOR 15), 12288 bytes; no note
 * of an order by rank. */
Test(scale_allranks, a_pairwise_schedule_sending_first_everywhere_keeps_its_order)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;
    const char *note;

    model_of("xorsend", counts, XOR_SEND_FIRST, &md);
    cr_assert_not_null(md.m, "%s", err);
    note = pairs_note(md.m);
    cr_assert_not_null(note, "no note of the exchange with every member");
    cr_expect(strstr(note, "ordered by rank") == NULL, "note '%s'", note);
    expect_run(md.m, 16, XOR_SEND_FIRST);
    expect_run(md.m, 64, XOR_SEND_FIRST);
    st_model_free(&md);
}

/* At 12, rank 4's partner at step 8 would be 4 XOR 8 = 12, which does not exist: refused
 * in one line naming the call and the count. */
Test(scale_allranks, a_pairwise_schedule_ordered_by_rank_at_12_is_refused)
{
    static const int counts[] = { 2, 4, 8 };
    struct st_model md;

    model_of("xorord12_", counts, XOR_ORDERED, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_expect_eq(sm_synthesize_none(md.m, 12, err, sizeof(err)), -1);
    cr_expect(strstr(err, "rank XOR i") != NULL && strstr(err, "not 12") != NULL &&
                  !strchr(err, '\n'),
              "err '%s'", err);
    st_model_free(&md);
}

/* On the rows of MPI_Cart_create's grids of 3 x 2, 4 x 3 and 6 x 4 at 6, 12 and 24,
 * MPI_Sendrecv with the other members of the row in ascending order: at 16 (4 x 4)
 * process 5, rank 1 of row 1 (world ranks 4 .. 7), exchanges with 4, 6, 7, 49152 bytes
 * each (196608 / 4); at 64 (8 x 8) process 5 with 0, .., 4, 6, 7, 24576 bytes. */
Test(scale_allranks, the_ranks_of_each_row_are_synthesized_at_16_and_64)
{
    static const int counts[] = { 6, 12, 24 };
    struct st_model md;

    model_of("rows", counts, UP_ROWS, &md);
    cr_assert_not_null(md.m, "%s", err);
    cr_assert_not_null(pairs_note(md.m), "no note of the exchange with every member");
    expect_run(md.m, 16, UP_ROWS);
    expect_run(md.m, 64, UP_ROWS);
    st_model_free(&md);
}

/* --- a halo exchange with 26 neighbours, which at 2, 4 and 8 processes reaches every
 * other process too, in ascending rank order at 8 */

#define SIDE 8u          /* a block's values along each dimension */

/* The neighbours of process p at nprocs (2, 4 or 8) in MPI_Dims_create's 3-D grid of 2 x
 * 1 x 1, 2 x 2 x 1 or 2 x 2 x 2 as LULESH and HPCG find them (share/validation/block26.h):
 * rank x + d0 (y + d1 z), the offsets dz, dy, dx each from -1 to 1, the neighbours that
 * exist in that order into rank[], the bytes traded with each into bytes[] (a face of
 * SIDE^2 doubles, an edge of SIDE, a corner of 1); how many. */
static int neighbours(int nprocs, int p, int *rank, uint64_t *bytes)
{
    int d[3] = {2, nprocs >= 4 ? 2 : 1, nprocs >= 8 ? 2 : 1};
    int c[3] = {p % d[0], p / d[0] % d[1], p / (d[0] * d[1])}, m = 0;

    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int off[3] = {dx, dy, dz}, at[3], inside = 1, zeros = 0;

                for (int i = 0; i < 3; i++) {
                    at[i] = c[i] + off[i];
                    inside &= at[i] >= 0 && at[i] < d[i];
                    zeros += !off[i];
                }
                if (!inside || zeros == 3)
                    continue;
                rank[m] = at[0] + d[0] * (at[1] + d[1] * at[2]);
                bytes[m++] = 8u * (zeros == 2 ? SIDE * SIDE : zeros == 1 ? SIDE : 1u);
            }
    return m;
}

/* The halo exchange recorded at nprocs into DIR/halo<nprocs>: PASSES passes in interval
 * 1, each an MPI_Irecv from every neighbour, an MPI_Isend to each, tagged TAG, and one
 * MPI_Waitall. */
static void record_halo(int nprocs, char *dir, size_t len)
{
    struct tb *b;
    uint32_t interval, irecv, isend, waitall;

    snprintf(dir, len, "%s/halo%d", top, nprocs);
    cr_assert_not_null(b = tb_open(dir, nprocs), "cannot open a trace in %s", dir);
    interval = tb_interval(b, 1, "halo.c", 10);
    irecv = tb_mpi(b, "MPI_Irecv");
    isend = tb_mpi(b, "MPI_Isend");
    waitall = tb_mpi(b, "MPI_Waitall");
    for (int p = 0; p < nprocs; p++) {
        int rank[26], m;
        uint64_t bytes[26], t = MS(1), req = 1;

        m = neighbours(nprocs, p, rank, bytes);
        for (int pass = 0; pass < PASSES; pass++, req += 2 * (uint64_t)m) {
            tb_enter(b, p, t += MS(2), interval);
            for (int i = 0; i < m; i++) {
                tb_enter(b, p, t += MS(1), irecv);
                tb_mpi_irecv_request(b, p, t, req + (uint64_t)i);
                tb_leave(b, p, t += MS(1), irecv);
            }
            for (int i = 0; i < m; i++) {
                tb_enter(b, p, t += MS(1), isend);
                tb_mpi_isend(b, p, t, TB_WORLD, (uint32_t)rank[i], TAG, bytes[i],
                             req + (uint64_t)(m + i));
                tb_leave(b, p, t += MS(1), isend);
            }
            tb_enter(b, p, t += MS(1), waitall);
            for (int i = 0; i < m; i++) {
                tb_mpi_irecv(b, p, t, TB_WORLD, (uint32_t)rank[i], TAG, bytes[i],
                             req + (uint64_t)i);
                tb_mpi_isend_complete(b, p, t, req + (uint64_t)(m + i));
            }
            tb_leave(b, p, t += MS(1), waitall);
            tb_leave(b, p, t += MS(1), interval);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* Recorded at 2, 4 and 8, every process exchanges with every other, at 8 in ascending
 * rank order (process 3, at (1, 1, 0), with 0, 1, 2, 4, 5, 6, 7), as a loop over the
 * ranks would; but a face (512 bytes) is not an edge (64) nor a corner (8): the
 * messages are not of one size to every partner, so they stay the grid's neighbours as
 * they always were.  No note of an exchange with every member; at 8 every process makes
 * its recorded messages (process 3: sends of 512, 512, 64, 512, 64, 64 and 8 bytes to 0,
 * 1, 2, 4, 5, 6, 7 in order, then receives as much from each); at 16 no process sends to
 * all 15 others. */
Test(scale_allranks, a_halo_of_26_neighbours_of_other_sizes_is_not_taken_for_one)
{
    char dirs[3][4200];
    struct st_model md;

    for (int i = 0; i < 3; i++)
        record_halo(2 << i, dirs[i], sizeof(dirs[i]));
    sm_model_read(&md, (const char *const[]){dirs[0], dirs[1], dirs[2]}, err, sizeof(err));
    cr_assert_not_null(md.m, "%s", err);
    cr_expect_null(pairs_note(md.m), "note '%s'", pairs_note(md.m));
    sm_synthesize(md.m, 8, &got, err, sizeof(err));
    for (int p = 0; p < 8; p++) {
        int rank[26], j = 0;
        uint64_t bytes[26];
        int m = neighbours(8, p, rank, bytes);

        cr_assert_eq(got.n[p], PASSES * 2 * m, "process %d: %d messages", p, got.n[p]);
        for (int pass = 0; pass < PASSES; pass++) {
            for (int i = 0; i < m; i++)
                sm_expect_message(&got, 8, p, j++,
                                  &(struct sm_message){PZ_REC_ISEND, rank[i], TAG, bytes[i]});
            for (int i = 0; i < m; i++)
                sm_expect_message(&got, 8, p, j++,
                                  &(struct sm_message){PZ_REC_IRECV, rank[i], TAG, bytes[i]});
        }
    }
    sm_synthesize(md.m, 16, &got, err, sizeof(err));
    for (int p = 0; p < 16; p++) {
        int to[16] = {0}, n = 0;

        for (int j = 0; j < got.n[p]; j++)
            if (got.m[p][j].kind == PZ_REC_ISEND && !to[got.m[p][j].peer]++)
                n++;
        cr_expect_lt(n, 15, "at 16, process %d sends to every other process", p);
    }
    st_model_free(&md);
}
