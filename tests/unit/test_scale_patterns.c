/* Patterns of others' codes read for the scaling (replay/scale_run.h) and synthesized
 * (replay/scale_program.h): the tests over many requests (MPI_Testall ...) that find
 * them incomplete and the probes for a message (MPI_Iprobe), whose numbers the timing
 * decides, are no steps of the program, and a completing test is the wait of its form;
 * each request an MPI_Waitsome completes is a call of its own; the first member of a
 * prefix reduction receives nothing and the last sends nothing; a program talking along
 * MPI_Cart_sub's rows and columns by collectives alone has its Cartesian grid; an
 * MPI_Waitany per neighbour of a chain or a grid is a loop whose trip count follows the
 * position; a persistent neighbourhood collective exchanges with its neighbours.  Traces
 * built by hand (trace_builder.h) on a chain of n processes (not periodic) recorded at
 * 2, 3 and 4, a ring recorded at 3, 4 and 6, or a grid recorded at 2, 4 and 8 (or 6, 9
 * and 12), synthesized at 8 or 16; expected values worked out in the comments. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <otf2/OTF2_Events.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program.h"
#include "scale_run.h"
#include "trace.h"
#include "trace_builder.h"
#include "model_notes.h"

#define MS TB_MS
#define ITERS 3

static char *top;
static char err[1024];
static struct pz_scale_run runs[3];
static const int counts[3] = {2, 3, 4};
static const int counts3[3] = {2, 4, 8};

static void setup(void)
{
    top = tb_tempdir();
    cr_assert_not_null(top, "cannot make a temporary directory");
    err[0] = '\0';
    memset(runs, 0, sizeof(runs));
}

static void cleanup(void)
{
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
    tb_remove(top);
    free(top);
    top = NULL;
}

TestSuite(scale_patterns, .init = setup, .fini = cleanup);

static struct tb *open_at(const char *name, int n, char *dir, size_t len)
{
    struct tb *b;

    snprintf(dir, len, "%s/%s%d", top, name, n);
    cr_assert_not_null(b = tb_open(dir, n), "cannot open a trace in %s", dir);
    return b;
}

static void read_at(const char *dir, struct pz_scale_run *run)
{
    cr_assert_eq(pz_scale_run_read(dir, run, err, sizeof(err)), 0, "%s", err);
}

/* --- synthesized calls counted by name */

struct tally {
    const struct pz_scale_run *names;  /* the run whose region references the records use */
    int nprocs;
    int *calls;     /* [proc]: enters of the region counted */
    int *events;    /* [proc]: records inside it */
    const char *region;
    int inside;
};

static int no_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    (void)ctx;
    (void)comms;
    (void)n;
    return 0;
}

static int count_event(void *ctx, int proc, const struct pz_rec *rec)
{
    struct tally *t = ctx;
    int named = rec->region < t->names->nnames && t->names->names[rec->region] &&
                !strcmp(t->names->names[rec->region], t->region);

    if (rec->kind == PZ_REC_ENTER && named) {
        t->calls[proc]++;
        t->inside = 1;
    } else if (rec->kind == PZ_REC_LEAVE && named) {
        t->inside = 0;
    } else if (t->inside && rec->kind != PZ_REC_ENTER && rec->kind != PZ_REC_LEAVE) {
        t->events[proc]++;
    }
    return 0;
}

/* The calls of region each process makes at nprocs, and the records inside them. */
static void tally(const struct pz_scale_program *m, const struct pz_scale_run *largest,
                  int nprocs, const char *region, int *calls, int *events)
{
    struct tally t = {largest, nprocs, calls, events, region, 0};
    struct pz_scale_sink sink = {no_comms, count_event, &t};

    memset(calls, 0, (size_t)nprocs * sizeof(*calls));
    memset(events, 0, (size_t)nprocs * sizeof(*events));
    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
}

static struct pz_scale_program *build(void)
{
    const struct pz_scale_run *list[3] = {&runs[0], &runs[1], &runs[2]};
    struct pz_scale_program *m = pz_scale_program_build(list, 3, 0, err, sizeof(err));

    cr_assert_not_null(m, "%s", err);
    return m;
}

/* --- MPI_Testall */

/* A chain of n: in each of ITERS iterations process p trades 64 bytes with each
 * neighbour it has, p - 1 then p + 1 (an MPI_Irecv from it, an MPI_Isend to it: 4
 * requests at most, numbered from 4i + 1), then polls them with MPI_Testall:
 * (p + i) mod 3 calls finding them incomplete (a test record per request), then one
 * completing them all.  When `wait` is set, a completing Testall at an even p + i is
 * followed by an MPI_Waitall on the requests done (no record), as a program that polls
 * and then waits makes it. */
static void record_testall(const char *name, int n, int wait, struct pz_scale_run *run)
{
    char dir[4200];
    struct tb *b = open_at(name, n, dir, sizeof(dir));
    uint32_t irecv = tb_mpi(b, "MPI_Irecv"), isend = tb_mpi(b, "MPI_Isend");
    uint32_t testall = tb_mpi(b, "MPI_Testall");

    for (int p = 0; p < n; p++) {
        uint64_t t = MS(1);

        for (int i = 0; i < ITERS; i++) {
            int peers[2], npeers = 0;
            uint64_t req = 4 * (uint64_t)i + 1;

            if (p > 0)
                peers[npeers++] = p - 1;
            if (p < n - 1)
                peers[npeers++] = p + 1;
            for (int k = 0; k < npeers; k++) {
                tb_enter(b, p, t, irecv);
                tb_mpi_irecv_request(b, p, t, req + 2 * (uint64_t)k);
                tb_leave(b, p, t += MS(1), irecv);
                tb_enter(b, p, t, isend);
                tb_mpi_isend(b, p, t, TB_WORLD, (uint32_t)peers[k], 5, 64,
                             req + 2 * (uint64_t)k + 1);
                tb_leave(b, p, t += MS(1), isend);
            }
            for (int k = 0; k < (p + i) % 3; k++) {
                tb_enter(b, p, t += MS(1), testall);
                for (uint64_t r = 0; r < 2 * (uint64_t)npeers; r++)
                    tb_request_test(b, p, t, req + r);
                tb_leave(b, p, t += MS(1), testall);
            }
            tb_enter(b, p, t += MS(1), testall);
            for (int k = 0; k < npeers; k++) {
                tb_mpi_irecv(b, p, t + MS(1), TB_WORLD, (uint32_t)peers[k], 5, 64,
                             req + 2 * (uint64_t)k);
                tb_mpi_isend_complete(b, p, t + MS(1), req + 2 * (uint64_t)k + 1);
            }
            tb_leave(b, p, t += MS(1), testall);
            if (wait && (p + i) % 2 == 0)
                tb_call(b, p, "MPI_Waitall", t + MS(1), t + MS(2));
            t += MS(3);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    read_at(dir, run);
}

/* At 2 processes, p + i over i = 0, 1, 2 is 0, 1, 2 for p = 0 and 1, 2, 3 for p = 1:
 * (0 + 1 + 2) + (1 + 2 + 0) = 6 incomplete tests, none of them an MPI_Test (polls 0).
 * Synthesized at 8, every process completes its requests once per iteration in one
 * MPI_Testall (the program never calls MPI_Waitall, so the step is the test completing
 * them at its first call): 3 calls each; process 0 and 7 complete a receive and a send
 * (2 records per call), 3 two of each (4). */
Test(scale_patterns, a_testall_loop_is_one_completing_call_per_iteration)
{
    struct pz_scale_program *m;
    int calls[8], events[8];

    for (int i = 0; i < 3; i++)
        record_testall("testall", counts[i], 0, &runs[i]);
    cr_expect_eq(runs[0].polls_many, 6);
    cr_expect_eq(runs[0].polls, 0);
    cr_expect_eq(runs[0].probes, 0);
    m = build();
    cr_expect_eq(scale_noted(m, "calls of MPI_Testall, MPI_Testany or MPI_Testsome finding their "
                          "requests incomplete"), 1, "no one note names the polls");
    tally(m, &runs[2], 8, "MPI_Testall", calls, events);
    for (int p = 0; p < 8; p++)
        cr_expect_eq(calls[p], ITERS, "process %d: %d MPI_Testall", p, calls[p]);
    cr_expect_eq(events[0], 2 * ITERS);
    cr_expect_eq(events[7], 2 * ITERS);
    cr_expect_eq(events[3], 4 * ITERS);
    tally(m, &runs[2], 8, "MPI_Waitall", calls, events);
    for (int p = 0; p < 8; p++)
        cr_expect_eq(calls[p], 0, "process %d: %d MPI_Waitall", p, calls[p]);
    pz_scale_program_free(m);
}

/* The same with an MPI_Waitall after the completing tests at even p + i: at 2 processes
 * (p = 0, i = 0 and 2; p = 1, i = 1) 3 waits on requests done, left out too: 6 + 3 = 9.
 * The program calls MPI_Waitall: each iteration's completion is synthesized as one
 * MPI_Waitall (whether the test or the wait completed the requests, the timing decided),
 * and no MPI_Testall remains. */
Test(scale_patterns, a_testall_loop_then_a_waitall_is_one_waitall_per_iteration)
{
    struct pz_scale_program *m;
    int calls[8], events[8];

    for (int i = 0; i < 3; i++)
        record_testall("testwait", counts[i], 1, &runs[i]);
    cr_expect_eq(runs[0].polls_many, 9);
    m = build();
    tally(m, &runs[2], 8, "MPI_Waitall", calls, events);
    for (int p = 0; p < 8; p++)
        cr_expect_eq(calls[p], ITERS, "process %d: %d MPI_Waitall", p, calls[p]);
    cr_expect_eq(events[3], 4 * ITERS);
    tally(m, &runs[2], 8, "MPI_Testall", calls, events);
    for (int p = 0; p < 8; p++)
        cr_expect_eq(calls[p], 0, "process %d: %d MPI_Testall, %d records", p, calls[p], events[p]);
    pz_scale_program_free(m);
}

/* --- MPI_Iprobe */

/* A chain of n: in each of ITERS iterations process p < n - 1 sends 32 bytes to p + 1
 * (MPI_Send), and process p > 0 polls for the message with (p + i) mod 3 + 1 calls of
 * MPI_Iprobe (no record: the recorder writes none, found or not), then receives it
 * (MPI_Recv). */
static void record_iprobe(const char *name, int n, struct pz_scale_run *run)
{
    char dir[4200];
    struct tb *b = open_at(name, n, dir, sizeof(dir));
    uint32_t recv = tb_mpi(b, "MPI_Recv");

    for (int p = 0; p < n; p++) {
        uint64_t t = MS(1);

        for (int i = 0; i < ITERS; i++) {
            if (p < n - 1)
                tb_send_call(b, p, "MPI_Send", t, t + MS(1), TB_WORLD, (uint32_t)p + 1, 3);
            t += MS(2);
            if (p > 0) {
                for (int k = 0; k < (p + i) % 3 + 1; k++, t += MS(2))
                    tb_call(b, p, "MPI_Iprobe", t, t + MS(1));
                tb_enter(b, p, t, recv);
                tb_mpi_recv(b, p, t + MS(1), TB_WORLD, (uint32_t)p - 1, 3, 32);
                tb_leave(b, p, t += MS(1), recv);
            }
            t += MS(2);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    read_at(dir, run);
}

/* At 2 processes only process 1 probes: (1 + i) mod 3 + 1 for i = 0, 1, 2 is 2, 3, 1: 6
 * probes left out.  Synthesized at 8, no process probes, and every process but 0
 * receives once per iteration (3 MPI_Recv, 1 record each). */
Test(scale_patterns, an_iprobe_loop_is_left_out_and_the_receive_waits)
{
    struct pz_scale_program *m;
    int calls[8], events[8];

    for (int i = 0; i < 3; i++)
        record_iprobe("iprobe", counts[i], &runs[i]);
    cr_expect_eq(runs[0].probes, 6);
    cr_expect_eq(runs[0].polls + runs[0].polls_many, 0);
    m = build();
    cr_expect_eq(scale_noted(m, "calls of MPI_Iprobe or MPI_Improbe"), 1, "no one note names them");
    tally(m, &runs[2], 8, "MPI_Iprobe", calls, events);
    for (int p = 0; p < 8; p++)
        cr_expect_eq(calls[p], 0, "process %d: %d MPI_Iprobe", p, calls[p]);
    tally(m, &runs[2], 8, "MPI_Recv", calls, events);
    cr_expect_eq(calls[0], 0);
    for (int p = 1; p < 8; p++) {
        cr_expect_eq(calls[p], ITERS, "process %d: %d MPI_Recv", p, calls[p]);
        cr_expect_eq(events[p], ITERS, "process %d: %d receives", p, events[p]);
    }
    pz_scale_program_free(m);
}

/* --- MPI_Waitsome */

/* A ring of n: in each of ITERS iterations process p trades 64 bytes with p - 1 (tag 5)
 * and p + 1 (tag 6) around the ring (an MPI_Irecv from each, an MPI_Isend to each),
 * completes the receives by MPI_Waitsome in a loop and the sends by one MPI_Waitall.
 * Where p + i is even, one Waitsome completes both receives; where it is odd, each has
 * a Waitsome of its own, as the timing decides. */
static void record_waitsome(const char *name, int n, struct pz_scale_run *run)
{
    char dir[4200];
    struct tb *b = open_at(name, n, dir, sizeof(dir));
    uint32_t irecv = tb_mpi(b, "MPI_Irecv"), isend = tb_mpi(b, "MPI_Isend");
    uint32_t some = tb_mpi(b, "MPI_Waitsome"), all = tb_mpi(b, "MPI_Waitall");

    for (int p = 0; p < n; p++) {
        uint64_t t = MS(1);
        uint32_t peers[2] = {(uint32_t)((p + n - 1) % n), (uint32_t)((p + 1) % n)};

        for (int i = 0; i < ITERS; i++) {
            uint64_t req = 4 * (uint64_t)i + 1;
            int whole = (p + i) % 2 == 0;

            for (int k = 0; k < 2; k++) {
                tb_enter(b, p, t, irecv);
                tb_mpi_irecv_request(b, p, t, req + 2 * (uint64_t)k);
                tb_leave(b, p, t += MS(1), irecv);
            }
            for (int k = 0; k < 2; k++) {
                tb_enter(b, p, t, isend);
                tb_mpi_isend(b, p, t, TB_WORLD, peers[1 - k], 5 + (uint32_t)k, 64,
                             req + 2 * (uint64_t)k + 1);
                tb_leave(b, p, t += MS(1), isend);
            }
            for (int k = 0; k < 2; k++) {
                if (k == 0 || !whole)
                    tb_enter(b, p, t += MS(1), some);
                tb_mpi_irecv(b, p, t + MS(1), TB_WORLD, peers[k], 5 + (uint32_t)k, 64,
                             req + 2 * (uint64_t)k);
                if (k == 1 || !whole)
                    tb_leave(b, p, t += MS(1), some);
            }
            tb_enter(b, p, t += MS(1), all);
            for (int k = 0; k < 2; k++)
                tb_mpi_isend_complete(b, p, t + MS(1), req + 2 * (uint64_t)k + 1);
            tb_leave(b, p, t += MS(1), all);
            t += MS(3);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    read_at(dir, run);
}

/* Recorded at 3, 4 and 6 processes.  Read, every MPI_Waitsome step completes one
 * receive: process 0 at 3 made one call completing both in iterations 0 and 2 (p + i
 * even) and two in iteration 1: 6 Waitsome steps of one completion each.  Synthesized
 * at 8, every process makes 2 Waitsome per iteration (6), each completing one
 * receive. */
Test(scale_patterns, each_completion_of_a_waitsome_loop_is_a_call)
{
    static const int ring_counts[3] = {3, 4, 6};
    struct pz_scale_program *m;
    int calls[8], events[8];
    size_t made = 0;

    for (int i = 0; i < 3; i++)
        record_waitsome("waitsome", ring_counts[i], &runs[i]);
    for (size_t s = 0; s < runs[0].procs[0].nsteps; s++) {
        const struct pz_scale_step *st = &runs[0].procs[0].steps[s];

        if (!strcmp(runs[0].names[st->region], "MPI_Waitsome")) {
            made++;
            cr_expect_eq(st->n, 1, "step %zu: %u records", s, st->n);
        }
    }
    cr_expect_eq(made, 2 * ITERS);
    m = build();
    tally(m, &runs[2], 8, "MPI_Waitsome", calls, events);
    for (int p = 0; p < 8; p++) {
        cr_expect_eq(calls[p], 2 * ITERS, "process %d: %d MPI_Waitsome", p, calls[p]);
        cr_expect_eq(events[p], calls[p], "process %d: %d calls, %d records", p, calls[p],
                     events[p]);
    }
    pz_scale_program_free(m);
}

/* --- prefix reductions */

/* Every process of n calls MPI_Exscan of one int (4 bytes) ITERS times, recorded as the
 * recorder writes it (docs/trace-format.md): rank 0 sends 4 and receives 0, the last
 * rank sends 0 and receives 4, the others send and receive 4.  At 2 processes there is
 * no middle rank. */
static void record_exscan(const char *name, int n, struct pz_scale_run *run)
{
    char dir[4200];
    struct tb *b = open_at(name, n, dir, sizeof(dir));
    uint32_t exscan = tb_mpi(b, "MPI_Exscan");

    for (int p = 0; p < n; p++)
        for (int i = 0; i < ITERS; i++) {
            uint64_t t = MS(1 + 4 * i);

            tb_enter(b, p, t, exscan);
            tb_collective_begin(b, p, t);
            tb_collective_end(b, p, t + MS(1), OTF2_COLLECTIVE_OP_EXSCAN, TB_WORLD,
                              TB_NO_ROOT, p < n - 1 ? 4 : 0, p > 0 ? 4 : 0);
            tb_leave(b, p, t + MS(1), exscan);
        }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    read_at(dir, run);
}

struct ends {
    const struct pz_scale_run *names;
    uint64_t sent[8], received[8];
    int seen[8];
};

static int keep_ends(void *ctx, int proc, const struct pz_rec *rec)
{
    struct ends *e = ctx;

    if (rec->kind == PZ_REC_COLL_END) {
        e->sent[proc] = rec->bytes;
        e->received[proc] = rec->bytes2;
        e->seen[proc]++;
    }
    return 0;
}

/* Synthesized at 8: rank 0 sends 4 and receives nothing, rank 7 sends nothing and
 * receives 4, ranks 1 to 6 send and receive 4 (the fitted size, the largest over the
 * members, 4 at every count), ITERS times each. */
Test(scale_patterns, the_ends_of_an_exscan_move_half)
{
    struct ends e = {0};
    struct pz_scale_sink sink = {no_comms, keep_ends, &e};
    struct pz_scale_program *m;

    for (int i = 0; i < 3; i++)
        record_exscan("exscan", counts[i], &runs[i]);
    m = build();
    cr_assert_eq(pz_scale_synthesize(m, 8, &sink, err, sizeof(err)), 0, "%s", err);
    for (int p = 0; p < 8; p++) {
        cr_expect_eq(e.seen[p], ITERS, "process %d: %d collectives", p, e.seen[p]);
        cr_expect_eq(e.sent[p], p < 7 ? 4u : 0u, "process %d sends %" PRIu64, p, e.sent[p]);
        cr_expect_eq(e.received[p], p > 0 ? 4u : 0u, "process %d receives %" PRIu64, p,
                     e.received[p]);
    }
    /* the ends' sizes are the operation's, not a difference the largest stands for */
    for (size_t i = 0; i < pz_scale_program_nnotes(m); i++)
        cr_expect_null(strstr(pz_scale_program_note(m, i), "differs between processes"),
                       "%s", pz_scale_program_note(m, i));
    pz_scale_program_free(m);
}

/* --- the rows and columns of a Cartesian grid */

/* A grid of dx x dy processes made by MPI_Cart_create (not periodic; rank = dy x + y)
 * at n = 2, 4, 8 (2 x 1, 2 x 2, 4 x 2), its rows and columns by MPI_Cart_sub (1-D
 * topologies of dy and dx processes), and no message: every process sums over its row
 * then over its column (MPI_Allreduce of 8 bytes, 0 on a row of one process), ITERS
 * times. */
static void record_rows(const char *name, int n, struct pz_scale_run *run)
{
    static const int shapes[][3] = {{2, 2, 1}, {4, 2, 2}, {8, 4, 2}};
    char dir[4200];
    struct tb *b = open_at(name, n, dir, sizeof(dir));
    int dx = 0, dy = 0, all[8], members[8];
    uint32_t grid, rows[4], cols[2], dims[2], one[1];
    uint32_t allreduce = tb_mpi(b, "MPI_Allreduce");

    for (int s = 0; s < 3; s++)
        if (shapes[s][0] == n) {
            dx = shapes[s][1];
            dy = shapes[s][2];
        }
    for (int p = 0; p < n; p++)
        all[p] = p;
    grid = tb_comm(b, "grid", n, all);
    for (int x = 0; x < dx; x++) {
        for (int y = 0; y < dy; y++)
            members[y] = dy * x + y;
        rows[x] = tb_comm(b, "row", dy, members);
    }
    for (int y = 0; y < dy; y++) {
        for (int x = 0; x < dx; x++)
            members[x] = dy * x + y;
        cols[y] = tb_comm(b, "column", dx, members);
    }
    dims[0] = (uint32_t)dx;
    dims[1] = (uint32_t)dy;
    tb_cart(b, grid, 2, dims, NULL, 1);
    one[0] = (uint32_t)dy;
    for (int x = 0; x < dx; x++)
        tb_cart(b, rows[x], 1, one, NULL, 1);
    one[0] = (uint32_t)dx;
    for (int y = 0; y < dy; y++)
        tb_cart(b, cols[y], 1, one, NULL, 1);
    for (int p = 0; p < n; p++)
        for (int i = 0; i < ITERS; i++)
            for (int k = 0; k < 2; k++) {
                uint64_t t = MS(1 + 4 * i + 2 * k), bytes = (k ? dx : dy) > 1 ? 8 : 0;

                tb_enter(b, p, t, allreduce);
                tb_collective_begin(b, p, t);
                tb_collective_end(b, p, t + MS(1), OTF2_COLLECTIVE_OP_ALLREDUCE,
                                  k ? cols[p % dy] : rows[p / dy], TB_NO_ROOT, bytes, bytes);
                tb_leave(b, p, t + MS(1), allreduce);
            }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    read_at(dir, run);
}

struct sizes {
    uint32_t comm_size[64];
    uint32_t ncomms;
    int bad, seen;
};

static int keep_sizes(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    struct sizes *z = ctx;

    z->ncomms = n;
    for (uint32_t i = 0; i < n && i < 64; i++)
        z->comm_size[i] = comms[i].size;
    return 0;
}

static int count_rows(void *ctx, int proc, const struct pz_rec *rec)
{
    struct sizes *z = ctx;

    (void)proc;
    if (rec->kind == PZ_REC_COLL_END) {
        z->seen++;
        z->bad += rec->comm >= z->ncomms || z->comm_size[rec->comm] != 4 ||
                  rec->bytes != 8 || rec->bytes2 != 8;
    }
    return 0;
}

/* Read, each recording's grid is its topology, though no message uses it: 2 x 1 at 2,
 * where the row of one process is the slice keeping dimension 1 (keep 2), not the
 * process alone, and the column of both the slice keeping dimension 0 (keep 1), not the
 * world.  Synthesized at 16 (4 x 4), every process sums over a row and a column of 4
 * processes, 8 bytes each: 16 processes x 2 x ITERS collectives. */
Test(scale_patterns, rows_and_columns_used_by_collectives_alone_give_the_grid)
{
    struct sizes z = {0};
    struct pz_scale_sink sink = {keep_sizes, count_rows, &z};
    struct pz_scale_program *m;

    for (int i = 0; i < 3; i++)
        record_rows("rows", counts3[i], &runs[i]);
    for (int i = 0; i < 3; i++)
        cr_expect(runs[i].grid.from_topology && runs[i].grid.ndims == 2,
                  "%d processes: a grid of %d dimensions, from a topology: %d", counts3[i],
                  runs[i].grid.ndims, runs[i].grid.from_topology);
    cr_expect(runs[0].grid.dims[0] == 2 && runs[0].grid.dims[1] == 1);
    cr_assert_eq(runs[0].procs[0].nsteps, 2 * ITERS);
    {
        const struct pz_scale_step *first = &runs[0].procs[0].steps[0];
        const struct pz_scale_step *second = &runs[0].procs[0].steps[1];
        /* each step's last record is its collective's end, which names the communicator */
        const struct pz_scale_event *row = &runs[0].procs[0].events[first->first + first->n - 1];
        const struct pz_scale_event *col =
            &runs[0].procs[0].events[second->first + second->n - 1];

        cr_assert_eq(row->kind, PZ_REC_COLL_END);
        cr_assert_eq(col->kind, PZ_REC_COLL_END);
        cr_expect_eq(runs[0].comms[row->comm].kind, PZ_SCALE_COMM_SLICE);
        cr_expect_eq(runs[0].comms[row->comm].keep, 2);
        cr_expect_eq(runs[0].comms[col->comm].kind, PZ_SCALE_COMM_SLICE);
        cr_expect_eq(runs[0].comms[col->comm].keep, 1);
    }
    m = build();
    cr_assert_eq(pz_scale_synthesize(m, 16, &sink, err, sizeof(err)), 0, "%s", err);
    cr_expect_eq(z.seen, 16 * 2 * ITERS);
    cr_expect_eq(z.bad, 0, "%d collectives not on 4 processes of 8 bytes", z.bad);
    pz_scale_program_free(m);
}

/* --- MPI_Waitany over the receives of a chain */

/* A process's neighbours: peers[k] sends it tag received[k] and gets tag sent[k]. */
struct exchange {
    const uint32_t *peers, *received, *sent;
    int n;
};

/* One iteration of process p from *t: an MPI_Irecv from each neighbour of x, an
 * MPI_Isend of 64 bytes to each, one MPI_Waitany per receive (in the order posted, or the
 * last first when reversed), one MPI_Waitall of the sends; requests from req on, the
 * receive of neighbour k req + 2k, its send req + 2k + 1. */
static void waitany_iteration(struct tb *b, int p, uint64_t *t, const struct exchange *x,
                              uint64_t req, int reversed)
{
    uint32_t irecv = tb_mpi(b, "MPI_Irecv"), isend = tb_mpi(b, "MPI_Isend");
    uint32_t any = tb_mpi(b, "MPI_Waitany"), all = tb_mpi(b, "MPI_Waitall");

    for (int k = 0; k < x->n; k++) {
        tb_enter(b, p, *t, irecv);
        tb_mpi_irecv_request(b, p, *t, req + 2 * (uint64_t)k);
        tb_leave(b, p, *t += MS(1), irecv);
    }
    for (int k = 0; k < x->n; k++) {
        tb_enter(b, p, *t, isend);
        tb_mpi_isend(b, p, *t, TB_WORLD, x->peers[k], x->sent[k], 64, req + 2 * (uint64_t)k + 1);
        tb_leave(b, p, *t += MS(1), isend);
    }
    for (int j = 0; j < x->n; j++) {
        int k = reversed ? x->n - 1 - j : j;

        tb_enter(b, p, *t += MS(1), any);
        tb_mpi_irecv(b, p, *t + MS(1), TB_WORLD, x->peers[k], x->received[k], 64,
                     req + 2 * (uint64_t)k);
        tb_leave(b, p, *t += MS(1), any);
    }
    tb_enter(b, p, *t += MS(1), all);
    for (int k = 0; k < x->n; k++)
        tb_mpi_isend_complete(b, p, *t + MS(1), req + 2 * (uint64_t)k + 1);
    tb_leave(b, p, *t += MS(1), all);
    *t += MS(3);
}

/* A chain of n (not periodic): in each of ITERS iterations process p posts an MPI_Irecv
 * from each neighbour it has (p - 1, tag 5, then p + 1, tag 6: 64 bytes each) and an
 * MPI_Isend of 64 bytes to each, then completes the receives one at a time by
 * MPI_Waitany, one call per neighbour (the ends make 1, the others 2), in the order the
 * timing decides: the left one first where p + i is even, else the right one; then the
 * sends by one MPI_Waitall. */
static void record_waitany(const char *name, int n, struct pz_scale_run *run)
{
    char dir[4200];
    struct tb *b = open_at(name, n, dir, sizeof(dir));

    for (int p = 0; p < n; p++) {
        uint64_t t = MS(1);
        uint32_t peers[2], tags[2], sent[2];
        int npeers = 0;

        if (p > 0) {
            peers[npeers] = (uint32_t)p - 1;
            tags[npeers++] = 5;
        }
        if (p < n - 1) {
            peers[npeers] = (uint32_t)p + 1;
            tags[npeers++] = 6;
        }
        /* what p sends to p + 1 the latter receives from its left (tag 5) */
        for (int k = 0; k < npeers; k++)
            sent[k] = peers[k] > (uint32_t)p ? 5 : 6;
        for (int i = 0; i < ITERS; i++)
            waitany_iteration(b, p, &t, &(struct exchange){ peers, tags, sent, npeers },
                              4 * (uint64_t)i + 1, (p + i) % 2 == 1);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    read_at(dir, run);
}

/* Recorded at 2, 3 and 4 processes.  Synthesized at 8, the ends (0 and 7) have one
 * neighbour and make one MPI_Waitany per iteration (ITERS = 3 calls), the others two
 * (6 calls); each call completes one receive (one record). */
Test(scale_patterns, a_waitany_loop_over_a_chain_s_neighbours_follows_their_number)
{
    struct pz_scale_program *m;
    int calls[8], events[8];

    for (int i = 0; i < 3; i++)
        record_waitany("waitany", counts[i], &runs[i]);
    m = build();
    tally(m, &runs[2], 8, "MPI_Waitany", calls, events);
    for (int p = 0; p < 8; p++) {
        int want = p == 0 || p == 7 ? ITERS : 2 * ITERS;

        cr_expect_eq(calls[p], want, "process %d: %d MPI_Waitany, not %d", p, calls[p], want);
        cr_expect_eq(events[p], calls[p], "process %d: %d calls, %d records", p, calls[p],
                     events[p]);
    }
    pz_scale_program_free(m);
}

/* --- a persistent neighbourhood collective */

/* A chain of n (not periodic) whose halo is one MPI_Neighbor_alltoall_init made once:
 * in each of ITERS iterations every process starts it (MPI_Start: a request, nothing
 * else) and completes it (MPI_Wait), exchanging 64 bytes with each neighbour it has.
 * The completion is on the request's own communicator, of every process, that the
 * recorder names after the init call ("Comm 2 (MPI_Neighbor_alltoall_init)": the world
 * and MPI_COMM_SELF are 0 and 1), with the per-peer lists naming the neighbours. */
static void record_persistent_halo(const char *name, int n, struct pz_scale_run *run)
{
    char dir[4200];
    struct tb *b = open_at(name, n, dir, sizeof(dir));
    uint32_t start = tb_mpi(b, "MPI_Start"), wait = tb_mpi(b, "MPI_Wait"), comm;
    int ranks[8];

    for (int p = 0; p < n; p++)
        ranks[p] = p;
    comm = tb_comm(b, "Comm 2 (MPI_Neighbor_alltoall_init)", n, ranks);
    cr_assert_eq(comm, 2);
    for (int p = 0; p < n; p++) {
        uint64_t t = MS(1), total = 64 * (uint64_t)((p > 0) + (p < n - 1));
        char list[64];
        size_t at = 0;

        for (int q = 0; q < n; q++)
            at += (size_t)snprintf(list + at, sizeof(list) - at, q ? ",%d" : "%d",
                                   q == p - 1 || q == p + 1 ? 64 : 0);
        for (int i = 0; i < ITERS; i++) {
            tb_enter(b, p, t, start);
            tb_nbc_request(b, p, t, (uint64_t)i + 1);
            tb_leave(b, p, t += MS(1), start);
            tb_enter(b, p, t += MS(1), wait);
            tb_nbc_complete_lists(b, p, t + MS(1), OTF2_COLLECTIVE_OP_ALLTOALLV, comm, total,
                                  total, list, list, (uint64_t)i + 1);
            tb_leave(b, p, t += MS(1), wait);
            t += MS(2);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    read_at(dir, run);
}

/* The records of every process of a synthesized run (up to 8 processes). */
struct every {
    struct pz_rec *recs[8];
    size_t n[8], cap[8];
};

static int keep_every(void *ctx, int proc, const struct pz_rec *rec)
{
    struct every *k = ctx;

    cr_assert(proc >= 0 && proc < 8, "process %d", proc);
    if (k->n[proc] == k->cap[proc]) {
        k->cap[proc] = 2 * k->cap[proc] + 16;
        cr_assert_not_null(k->recs[proc] = realloc(k->recs[proc],
                                                   k->cap[proc] * sizeof(struct pz_rec)));
    }
    k->recs[proc][k->n[proc]++] = *rec;
    return 0;
}

/* Read, each completion (MPI_Wait's only record) is a neighbourhood collective's whose
 * neighbour table has 64 bytes at the offsets of the neighbours: process 1 of 3 at -1
 * and +1 (offset codes (off + 1) 9 + 3 + 1: 4 and 22).  Synthesized at 8, every process
 * makes ITERS completions, each with per-peer lists of 64 bytes at p - 1 and p + 1
 * where they exist ("0,64,0,0,0,0,0,0" at process 0, "0,0,0,0,0,0,64,0" at 7,
 * "0,0,64,0,64,0,0,0" at 3) and their sums as its bytes (64 at the ends, 128 inside),
 * not the whole world's. */
Test(scale_patterns, a_persistent_neighbourhood_collective_exchanges_with_its_neighbours)
{
    static const char *want[8] = {
        "0,64,0,0,0,0,0,0", "64,0,64,0,0,0,0,0", "0,64,0,64,0,0,0,0", "0,0,64,0,64,0,0,0",
        "0,0,0,64,0,64,0,0", "0,0,0,0,64,0,64,0", "0,0,0,0,0,64,0,64", "0,0,0,0,0,0,64,0"};
    struct pz_scale_program *m;
    struct pz_scale_synth *s;
    struct every k = {0};
    const struct pz_scale_process *mid;
    const char *const *texts;
    uint32_t ntexts;

    for (int i = 0; i < 3; i++)
        record_persistent_halo("pnbr", counts[i], &runs[i]);
    mid = &runs[1].procs[1];
    for (size_t i = 0; i < mid->nevents; i++)
        if (mid->events[i].kind == PZ_REC_NBC_COMPLETE) {
            const struct pz_scale_nbr *t;

            cr_assert_eq(mid->events[i].peer.kind, PZ_SCALE_PEER_NEIGHBOURS);
            t = &mid->nbrs[mid->events[i].peer.rank];
            for (int o = 0; o < PZ_SCALE_OFFSETS; o++)
                cr_expect_eq(t->sent[o], o == 4 || o == 22 ? 64 : 0, "offset %d", o);
        }
    m = build();
    cr_assert_not_null(s = pz_scale_synth_new(m, 8, err, sizeof(err)), "%s", err);
    cr_assert_eq(pz_scale_synth_all(s, keep_every, &k, err, sizeof(err)), 0, "%s", err);
    texts = pz_scale_synth_lists(s, &ntexts);
    for (int p = 0; p < 8; p++) {
        int done = 0;
        uint64_t total = p == 0 || p == 7 ? 64 : 128;

        for (size_t i = 0; i < k.n[p]; i++) {
            const struct pz_rec *r = &k.recs[p][i];

            if (r->kind != PZ_REC_NBC_COMPLETE)
                continue;
            done++;
            cr_assert(r->send_list < ntexts && r->recv_list < ntexts,
                      "process %d: no per-peer lists", p);
            cr_expect_str_eq(texts[r->send_list], want[p], "process %d", p);
            cr_expect_str_eq(texts[r->recv_list], want[p], "process %d", p);
            cr_expect(r->bytes == total && r->bytes2 == total, "process %d: %llu/%llu bytes",
                      p, (unsigned long long)r->bytes, (unsigned long long)r->bytes2);
        }
        cr_expect_eq(done, ITERS, "process %d: %d completions", p, done);
        free(k.recs[p]);
    }
    pz_scale_synth_free(s);
    pz_scale_program_free(m);
}

/* A grid of dx x dy processes (not periodic; rank dy x + y, MPI_Dims_create's layout
 * for 6, 9, 12 and 16: 3 x 2, 3 x 3, 4 x 3, 4 x 4): in each of ITERS iterations process
 * p posts an MPI_Irecv from each neighbour it has, in the order -x, +x, -y, +y, an
 * MPI_Isend of 64 bytes to each (tag: the direction it goes, 0 to 3), then completes the
 * receives by one MPI_Waitany per neighbour, the last posted first, and the sends by one
 * MPI_Waitall. */
static void record_waitany_grid(const char *name, int dx, int dy, struct pz_scale_run *run)
{
    static const int step[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    char dir[4200];
    struct tb *b = open_at(name, dx * dy, dir, sizeof(dir));

    for (int p = 0; p < dx * dy; p++) {
        uint64_t t = MS(1);
        uint32_t peers[4], tags[4], sent[4];
        int npeers = 0;

        for (int k = 0; k < 4; k++) {
            int x = p / dy + step[k][0], y = p % dy + step[k][1];

            if (x < 0 || x >= dx || y < 0 || y >= dy)
                continue;
            peers[npeers] = (uint32_t)(x * dy + y);
            tags[npeers++] = (uint32_t)(k ^ 1);   /* it sends towards p: the opposite way */
        }
        for (int k = 0; k < npeers; k++)
            sent[k] = tags[k] ^ 1;
        for (int i = 0; i < ITERS; i++)
            waitany_iteration(b, p, &t, &(struct exchange){ peers, tags, sent, npeers },
                              8 * (uint64_t)i + 1, 1);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    read_at(dir, run);
}

/* Recorded at 6 (3 x 2: corners with 2 neighbours, the middle of the long sides 3), 9
 * (3 x 3: one interior process with 4) and 12 (4 x 3: two interior ones).  Synthesized
 * at 16 (4 x 4, rank 4 x + y), the corners 0, 3, 12 and 15 make 2 MPI_Waitany per
 * iteration (6 calls), the other processes of the border 3 (9), the interior 5, 6, 9
 * and 10 4 (12); each call completes one receive. */
Test(scale_patterns, a_waitany_loop_over_a_grid_s_neighbours_follows_their_number)
{
    static const int dims[3][2] = {{3, 2}, {3, 3}, {4, 3}};
    struct pz_scale_program *m;
    int calls[16], events[16];

    for (int i = 0; i < 3; i++)
        record_waitany_grid("waitgrid", dims[i][0], dims[i][1], &runs[i]);
    cr_expect(runs[2].grid.ndims == 2 && runs[2].grid.dims[0] == 4 &&
              runs[2].grid.dims[1] == 3, "grid %d-D %d x %d", runs[2].grid.ndims,
              runs[2].grid.dims[0], runs[2].grid.dims[1]);
    m = build();
    tally(m, &runs[2], 16, "MPI_Waitany", calls, events);
    for (int p = 0; p < 16; p++) {
        int x = p / 4, y = p % 4, want = ITERS * ((x > 0) + (x < 3) + (y > 0) + (y < 3));

        cr_expect_eq(calls[p], want, "process %d: %d MPI_Waitany, not %d", p, calls[p], want);
        cr_expect_eq(events[p], calls[p], "process %d: %d calls, %d records", p, calls[p],
                     events[p]);
    }
    pz_scale_program_free(m);
}
