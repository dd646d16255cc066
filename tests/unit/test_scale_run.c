/* A recording read relatively (replay/scale_run.h) on traces built by hand
 * (trace_builder.h): the grid inferred from the messages, peers as offsets in it,
 * communicators as classes, roots as ranks from the first or the last, completions back
 * to the calls that posted their requests, interval boundaries, the computation between
 * steps with the buffer flushes left out; the errors; and the balanced layout against
 * MPICH's MPI_Dims_create.  Expected values are worked out in the comments from the
 * contract's rules.
 *
 * The grid rule: of MPI_Dims_create's layouts in 1, 2 and 3 dimensions (ranks row-major,
 * dims[0] slowest), the one in which every peer is -1, 0 or +1 per dimension (or across
 * the ends of a dimension longer than 2, then periodic) with the fewest distinct offsets,
 * the fewer dimensions winning a tie.  Built from recordings at two counts, the model's
 * grid is periodic in a dimension as every recording that shows it is: a torus recorded
 * with 2 columns at the larger count and 3 at the smaller keeps its columns' wrap.  In a
 * periodic dimension of 2 processes in every recording the neighbours on either side are
 * one process: which one a message meant is unknown, and a run where the dimension is
 * longer is refused (halo3d.c recorded at 2, 4 and 8); a recording where it has 3 tells. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program.h"
#include "scale_run.h"
#include "singleton.h"
#include "trace.h"
#include "trace_builder.h"

#define MS TB_MS
#define EPS 1e-12

static char *top;
static char rec[4096];
static char err[1024];
static struct pz_scale_run run;

static void setup(void)
{
    top = tb_tempdir();
    cr_assert_not_null(top, "cannot make a temporary directory");
    snprintf(rec, sizeof(rec), "%s/rec", top);
    err[0] = '\0';
    memset(&run, 0, sizeof(run));
}

static void cleanup(void)
{
    pz_scale_run_free(&run);
    tb_remove(top);
    free(top);
    top = NULL;
}

TestSuite(scale_run, .init = setup, .fini = cleanup);

static struct tb *trace(int nprocs)
{
    struct tb *b = tb_open(rec, nprocs);

    cr_assert_not_null(b, "cannot open a trace in %s", rec);
    return b;
}

static void read_back(struct tb *b)
{
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    cr_assert_eq(pz_scale_run_read(rec, &run, err, sizeof(err)), 0, "%s", err);
}

static const struct pz_scale_step *step(int p, size_t i)
{
    cr_assert_lt(i, run.procs[p].nsteps, "process %d has %zu steps, not %zu", p,
                 run.procs[p].nsteps, i + 1);
    return &run.procs[p].steps[i];
}

static const struct pz_scale_event *event(int p, size_t s, uint32_t i)
{
    const struct pz_scale_step *st = step(p, s);

    cr_assert_lt(i, st->n, "step %zu of process %d has %u events", s, p, st->n);
    return &run.procs[p].events[st->first + i];
}

static const char *name_of(const struct pz_scale_step *s)
{
    cr_assert_lt(s->region, run.nnames);
    cr_assert_not_null(run.names[s->region]);
    return run.names[s->region];
}

static void expect_call(int p, size_t s, const char *name, uint32_t nevents)
{
    cr_expect_eq(step(p, s)->kind, PZ_SCALE_CALL, "process %d step %zu", p, s);
    cr_expect_str_eq(name_of(step(p, s)), name, "process %d step %zu", p, s);
    cr_expect_eq(step(p, s)->n, nevents, "process %d step %zu: %u events", p, s,
                 step(p, s)->n);
}

static void expect_offset(const struct pz_scale_event *e, int o0, int o1, int o2)
{
    cr_expect_eq(e->peer.kind, PZ_SCALE_PEER_OFFSET, "peer kind %d", e->peer.kind);
    cr_expect(e->peer.off[0] == o0 && e->peer.off[1] == o1 && e->peer.off[2] == o2,
              "offset (%d,%d,%d), expected (%d,%d,%d)", e->peer.off[0], e->peer.off[1],
              e->peer.off[2], o0, o1, o2);
}

static void expect_peer(const struct pz_scale_event *e, int kind, int rank)
{
    cr_expect_eq(e->peer.kind, kind, "peer kind %d, expected %d", e->peer.kind, kind);
    cr_expect_eq(e->peer.rank, rank, "peer rank %d, expected %d", e->peer.rank, rank);
}

static void expect_grid(int ndims, int d0, int d1, int d2, int per0, int per1, int per2)
{
    const struct pz_scale_grid *g = &run.grid;

    cr_expect_eq(g->ndims, ndims, "grid of %d dimensions, expected %d", g->ndims, ndims);
    cr_expect(g->dims[0] == d0 && g->dims[1] == d1 && g->dims[2] == d2,
              "grid %dx%dx%d, expected %dx%dx%d", g->dims[0], g->dims[1], g->dims[2], d0,
              d1, d2);
    cr_expect(g->periodic[0] == per0 && g->periodic[1] == per1 && g->periodic[2] == per2,
              "periodic %d,%d,%d, expected %d,%d,%d", g->periodic[0], g->periodic[1],
              g->periodic[2], per0, per1, per2);
    cr_expect_eq(g->from_topology, 0);
}

/* The same for a grid taken from a recorded topology. */
static void expect_topology_grid(int ndims, int d0, int d1, int per0, int per1)
{
    const struct pz_scale_grid *g = &run.grid;

    cr_expect_eq(g->ndims, ndims, "grid of %d dimensions, expected %d", g->ndims, ndims);
    cr_expect(g->dims[0] == d0 && g->dims[1] == d1 && g->dims[2] == 1,
              "grid %dx%dx%d, expected %dx%dx1", g->dims[0], g->dims[1], g->dims[2], d0, d1);
    cr_expect(g->periodic[0] == per0 && g->periodic[1] == per1,
              "periodic %d,%d, expected %d,%d", g->periodic[0], g->periodic[1], per0, per1);
    cr_expect_eq(g->from_topology, 1);
}

static const struct pz_scale_comm *comm_of(const struct pz_scale_event *e)
{
    cr_assert_lt(e->comm, run.ncomms, "class %u of %u", e->comm, run.ncomms);
    return &run.comms[e->comm];
}

static void near(double got, double want, const char *what)
{
    cr_expect(got > want - EPS && got < want + EPS, "%s: %.9g, expected %.9g", what, got, want);
}

/* A chain of 4: process p computes 2 ms after MPI_Init ([0, 1] ms), sends to p + 1 in
 * [3, 4], receives from p - 1 in [5, 6] and calls MPI_Finalize in [8, 9]. */
static void chain_trace(void)
{
    struct tb *b = trace(4);

    for (int p = 0; p < 4; p++) {
        tb_call(b, p, "MPI_Init", 0, MS(1));
        if (p < 3)
            tb_send_call(b, p, "MPI_Send", MS(3), MS(4), TB_WORLD, (uint32_t)p + 1, 7);
        if (p > 0)
            tb_recv_call(b, p, "MPI_Recv", MS(5), MS(6), TB_WORLD, (uint32_t)p - 1, 7);
        tb_call(b, p, "MPI_Finalize", MS(8), MS(9));
    }
    read_back(b);
}

/* 1-D 4: the peers are +1 and -1, 2 distinct offsets.  2-D 2x2 (rank = 2 x + y): 0->1
 * is (0,+1) but 1->2 is (+1,-1), so 4 distinct offsets (and 3-D 2x2x1 the same): the
 * 1-D grid wins, and no message goes from 3 to 0 or back: not periodic. */
Test(scale_run, chain_of_4_is_a_1d_grid_with_offsets_of_one)
{
    chain_trace();
    cr_assert_eq(run.nprocs, 4);
    expect_grid(1, 4, 1, 1, 0, 0, 0);
    for (int p = 0; p < 4; p++)
        cr_expect_eq(run.procs[p].coords[0], p);
    /* process 1: Init, Send (+1), Recv (-1), Finalize */
    cr_assert_eq(run.procs[1].nsteps, 4);
    expect_call(1, 0, "MPI_Init", 0);
    expect_call(1, 1, "MPI_Send", 1);
    expect_call(1, 2, "MPI_Recv", 1);
    expect_call(1, 3, "MPI_Finalize", 0);
    cr_expect_eq(event(1, 1, 0)->kind, PZ_REC_SEND);
    expect_offset(event(1, 1, 0), 1, 0, 0);
    cr_expect_eq(event(1, 1, 0)->tag, 7);
    cr_expect_eq(event(1, 1, 0)->bytes, 8);     /* the builder's 8 bytes */
    cr_expect_eq(event(1, 1, 0)->posted_by, -1);
    cr_expect_eq(event(1, 2, 0)->kind, PZ_REC_RECV);
    expect_offset(event(1, 2, 0), -1, 0, 0);
    /* the ends: 0 only sends, 3 only receives */
    cr_expect_eq(run.procs[0].nsteps, 3);
    expect_call(0, 1, "MPI_Send", 1);
    cr_expect_eq(run.procs[3].nsteps, 3);
    expect_call(3, 1, "MPI_Recv", 1);
    /* the world is the only communicator */
    cr_expect_eq(run.ncomms, 1);
    cr_expect_eq(comm_of(event(1, 1, 0))->kind, PZ_SCALE_COMM_WORLD);
    cr_expect_eq(run.cpu_times, 0);
}

/* Without CPU times: the gaps of process 1 are 3 - 1 = 2 ms, 5 - 4 = 1 ms, 8 - 6 = 2 ms,
 * its calls last 1 ms, nothing follows MPI_Finalize's Leave. */
Test(scale_run, chain_gaps_are_the_times_between_calls)
{
    chain_trace();
    near(step(1, 0)->gap_wall, 0, "gap before Init");
    near(step(1, 1)->gap_wall, 2e-3, "gap before Send");
    near(step(1, 2)->gap_wall, 1e-3, "gap before Recv");
    near(step(1, 3)->gap_wall, 2e-3, "gap before Finalize");
    near(step(1, 1)->duration, 1e-3, "Send");
    cr_expect_lt(step(1, 1)->gap_cpu, 0, "no CPU time recorded");
    near(run.procs[1].tail_wall, 0, "tail");
    cr_expect_lt(run.procs[1].tail_cpu, 0);
}

/* A ring of 4: p sends to (p + 1) % 4 and receives from (p + 3) % 4.  1-D 4: 3->0 is -3
 * = -(4 - 1), across the ends, so +1 the short way; 0 receiving from 3 is +3, so -1:
 * still 2 distinct offsets, and the dimension is periodic.  2-D 2x2 has (+1,-1) and
 * (-1,-1) among others: more. */
Test(scale_run, ring_of_4_is_periodic)
{
    struct tb *b = trace(4);

    for (int p = 0; p < 4; p++) {
        tb_send_call(b, p, "MPI_Send", MS(1), MS(2), TB_WORLD, (uint32_t)(p + 1) % 4, 0);
        tb_recv_call(b, p, "MPI_Recv", MS(3), MS(4), TB_WORLD, (uint32_t)(p + 3) % 4, 0);
    }
    read_back(b);
    expect_grid(1, 4, 1, 1, 1, 0, 0);
    expect_offset(event(3, 0, 0), 1, 0, 0);     /* 3 -> 0 */
    expect_offset(event(0, 1, 0), -1, 0, 0);    /* 0 <- 3 */
    expect_offset(event(1, 0, 0), 1, 0, 0);
    expect_offset(event(1, 1, 0), -1, 0, 0);
}

/* A pair exchanging is a 1-D grid of 2 (the fewer dimensions win the tie); read in 2
 * dimensions it is MPI_Dims_create's 2x1, the peer of process 0 one step along the
 * first dimension. */
Test(scale_run, a_pair_is_read_in_the_dimensions_asked)
{
    struct tb *b = trace(2);

    for (int p = 0; p < 2; p++) {
        tb_send_call(b, p, "MPI_Send", MS(1), MS(2), TB_WORLD, (uint32_t)(1 - p), 0);
        tb_recv_call(b, p, "MPI_Recv", MS(3), MS(4), TB_WORLD, (uint32_t)(1 - p), 0);
    }
    read_back(b);
    expect_grid(1, 2, 1, 1, 0, 0, 0);
    pz_scale_run_free(&run);
    cr_assert_eq(pz_scale_run_read_grid(rec, 2, &run, err, sizeof(err)), 0, "%s", err);
    expect_grid(2, 2, 1, 1, 0, 0, 0);
    expect_offset(event(0, 0, 0), 1, 0, 0);
    expect_offset(event(1, 0, 0), -1, 0, 0);
}

/* A ring of 4 on a communicator MPI_Cart_create made 2x2, periodic in its first
 * dimension: the topology is the grid, though the messages alone would make a periodic
 * 1-D ring.  In 2x2 (rank = 2 x + y), 1 -> 2 is (0,1) -> (1,0): (+1,-1); 3 -> 0 is
 * (1,1) -> (0,0): (-1,-1), and -1 in the periodic dimension 0 of size 2 is -1 the short
 * way (2 * -1 = -2 is not below -2). */
Test(scale_run, a_world_topology_is_the_grid)
{
    static const uint32_t dims[2] = { 2, 2 };
    static const int periodic[2] = { 1, 0 };
    static const int world[4] = { 0, 1, 2, 3 };
    struct tb *b = trace(4);
    uint32_t cart = tb_comm(b, "cart", 4, world);

    tb_cart(b, cart, 2, dims, periodic, 1);
    for (int p = 0; p < 4; p++) {
        tb_send_call(b, p, "MPI_Send", MS(1), MS(2), cart, (uint32_t)(p + 1) % 4, 0);
        tb_recv_call(b, p, "MPI_Recv", MS(3), MS(4), cart, (uint32_t)(p + 3) % 4, 0);
    }
    read_back(b);
    expect_topology_grid(2, 2, 2, 1, 0);
    expect_offset(event(1, 0, 0), 1, -1, 0);
    expect_offset(event(3, 0, 0), -1, -1, 0);
}

/* 6 processes of a 2x3 topology (rank = 3 x + y, periodic along y) that no message
 * uses: each sends on MPI_COMM_WORLD to y + 1 and receives from y - 1 (as LAMMPS sends to
 * the neighbours MPI_Cart_shift gave it).  MPI_Dims_create's 3x2 (rank = 2 x + y) fits
 * the messages too: 0 -> 1 (0,+1), 1 -> 2 (+1,-1), 2 -> 0 (-1,0), ..., 6 distinct offsets
 * with the receives'; the topology has 2, (0,+1) and (0,-1), 2 -> 0 being (0,2) -> (0,0)
 * across the ends of y.  So the grid is the topology's. */
static void sends_along_y_of_2x3(int ring)
{
    static const uint32_t dims[2] = { 2, 3 };
    static const int periodic[2] = { 0, 1 }, world[6] = { 0, 1, 2, 3, 4, 5 };
    struct tb *b = trace(6);

    tb_cart(b, tb_comm(b, "cart", 6, world), 2, dims, periodic, 1);
    for (int p = 0; p < 6; p++) {
        int x = p / 3, y = p % 3;
        uint32_t to = ring ? (uint32_t)(p + 1) % 6 : (uint32_t)(3 * x + (y + 1) % 3);
        uint32_t from = ring ? (uint32_t)(p + 5) % 6 : (uint32_t)(3 * x + (y + 2) % 3);

        tb_send_call(b, p, "MPI_Send", MS(1), MS(2), TB_WORLD, to, 0);
        tb_recv_call(b, p, "MPI_Recv", MS(3), MS(4), TB_WORLD, from, 0);
    }
    read_back(b);
}

Test(scale_run, a_topology_no_message_uses_is_the_grid_where_the_messages_fit_it_better)
{
    sends_along_y_of_2x3(0);
    expect_topology_grid(2, 2, 3, 0, 1);
    expect_offset(event(2, 0, 0), 0, 1, 0);     /* 2 -> 0 */
    expect_offset(event(0, 1, 0), 0, -1, 0);    /* 0 <- 2 */
    expect_offset(event(4, 0, 0), 0, 1, 0);     /* 4 -> 5 */
}

/* The same topology with a ring of the world's ranks (p -> p + 1): in 1-D 6 two offsets,
 * +1 and -1; in the topology 2 -> 3 is (0,2) -> (1,0), (+1,+1) across the ends of y,
 * besides (0,+1) and (-1,+1) (5 -> 0): more.  The ring stays a ring. */
Test(scale_run, a_topology_no_message_uses_is_not_the_grid_where_the_messages_fit_it_worse)
{
    sends_along_y_of_2x3(1);
    expect_grid(1, 6, 1, 1, 1, 0, 0);
    expect_offset(event(5, 0, 0), 1, 0, 0);     /* 5 -> 0 */
}

/* The 5-point stencil of 8 processes laid out 4x2 (rank = 2 x + y): to each neighbour
 * that exists, in the order (-1,0), (+1,0), (0,-1), (0,+1), a send then a receive. */
static const int stencil[4][2] = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } };

static void stencil_calls(struct tb *b, int p, uint64_t *t)
{
    int x = p / 2, y = p % 2;

    for (int k = 0; k < 4; k++) {
        int nx = x + stencil[k][0], ny = y + stencil[k][1];

        if (nx < 0 || nx >= 4 || ny < 0 || ny >= 2)
            continue;
        tb_send_call(b, p, "MPI_Send", *t, *t + MS(1), TB_WORLD, (uint32_t)(2 * nx + ny), 1);
        tb_recv_call(b, p, "MPI_Recv", *t + MS(2), *t + MS(3), TB_WORLD,
                     (uint32_t)(2 * nx + ny), 1);
        *t += MS(4);
    }
}

/* 1-D 8: the x neighbours are 2 ranks away: no fit.  2-D 4x2: 4 distinct offsets.  3-D
 * 2x2x2 (rank = 4 a + 2 b + c): rank 2 -> 4 is (0,1,0) -> (1,0,0), (+1,-1,0), besides
 * (0,+-1,0) and (0,0,+-1): 6.  So 4x2; process 3 = (1,1) has the neighbours (0,1) = 1,
 * (2,1) = 5 and (1,0) = 2, so three sends: (-1,0), (+1,0), (0,-1). */
Test(scale_run, stencil_of_8_is_a_4x2_grid)
{
    struct tb *b = trace(8);

    for (int p = 0; p < 8; p++) {
        uint64_t t = MS(1);

        stencil_calls(b, p, &t);
    }
    read_back(b);
    expect_grid(2, 4, 2, 1, 0, 0, 0);
    cr_expect(run.procs[3].coords[0] == 1 && run.procs[3].coords[1] == 1,
              "process 3 at (%d,%d)", run.procs[3].coords[0], run.procs[3].coords[1]);
    cr_assert_eq(run.procs[3].nsteps, 6);
    expect_offset(event(3, 0, 0), -1, 0, 0);
    expect_offset(event(3, 1, 0), -1, 0, 0);
    expect_offset(event(3, 2, 0), 1, 0, 0);
    expect_offset(event(3, 4, 0), 0, -1, 0);
    expect_offset(event(3, 5, 0), 0, -1, 0);
    /* process 0 = (0,0): (+1,0) then (0,+1) */
    cr_assert_eq(run.procs[0].nsteps, 4);
    expect_offset(event(0, 0, 0), 1, 0, 0);
    expect_offset(event(0, 2, 0), 0, 1, 0);
}

/* The same stencil on nx x ny processes numbered x + nx y, the first dimension fastest
 * (as HPCG numbers its blocks), into dir. */
static void record_first_fastest(const char *dir, int nx, int ny)
{
    struct tb *b = tb_open(dir, nx * ny);

    cr_assert_not_null(b, "cannot open a trace in %s", dir);
    for (int p = 0; p < nx * ny; p++) {
        int x = p % nx, y = p / nx;
        uint64_t t = MS(1);

        for (int k = 0; k < 4; k++) {
            int px = x + stencil[k][0], py = y + stencil[k][1];
            uint32_t q = (uint32_t)(px + nx * py);

            if (px < 0 || px >= nx || py < 0 || py >= ny)
                continue;
            tb_send_call(b, p, "MPI_Send", t, t + MS(1), TB_WORLD, q, 1);
            tb_recv_call(b, p, "MPI_Recv", t + MS(2), t + MS(3), TB_WORLD, q, 1);
            t += MS(4);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* 6 processes of 3 x 2 numbered x + 3 y.  Read numbered so, the 2-D layout 3 x 2 has
 * coordinates (r mod 3, r / 3): the 4 offsets of the stencil, nothing across the ends
 * (the 1-D layout does not fit: 0 -> 3 is 3 away in 6); process 4 at (1, 1) sends west
 * to 3, east to 5 and south to 1, then receives, steps 0, 2 and 4.  Read in
 * MPI_Cart_create's numbering (rank 2 a + b), 1 -> 4, from (0, 1) to (2, 0), crosses
 * the ends of dimension 0: the grid wraps around where the program's does not. */
Test(scale_run, a_grid_numbered_first_dimension_fastest_is_read_so_when_asked)
{
    record_first_fastest(rec, 3, 2);
    cr_assert_eq(pz_scale_run_read_layout(rec, 0, 1, &run, err, sizeof(err)), 0, "%s", err);
    expect_grid(2, 3, 2, 1, 0, 0, 0);
    cr_expect_eq(run.grid.first_fastest, 1);
    cr_expect(run.procs[4].coords[0] == 1 && run.procs[4].coords[1] == 1,
              "process 4 at (%d,%d)", run.procs[4].coords[0], run.procs[4].coords[1]);
    cr_assert_eq(run.procs[4].nsteps, 6);
    expect_offset(event(4, 0, 0), -1, 0, 0);
    expect_offset(event(4, 2, 0), 1, 0, 0);
    expect_offset(event(4, 4, 0), 0, -1, 0);
    pz_scale_run_free(&run);
    cr_assert_eq(pz_scale_run_read(rec, &run, err, sizeof(err)), 0, "%s", err);
    expect_grid(2, 3, 2, 1, 1, 0, 0);
    cr_expect_eq(run.grid.first_fastest, 0);
}

/* The same program at 2 (2 x 1), 4 (2 x 2) and 8 (4 x 2), read in 2 dimensions.  In
 * MPI_Cart_create's numbering each recording fits, but the program's step to x + 1 (rank
 * + 1) is along dimension 0 at 2 and along dimension 1 at 4 (rank 2 a + b: 0 -> 1 is
 * (0, +1)): process 0's first send differs, and no model is built.  Numbered the first
 * dimension fastest, rank + 1 is along dimension 0 at every count, and the model is. */
Test(scale_run, recordings_numbered_first_dimension_fastest_merge_read_so)
{
    static const int sides[3][2] = { { 2, 1 }, { 2, 2 }, { 4, 2 } };
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3] = { &runs[0], &runs[1], &runs[2] };
    struct pz_scale_program *m;
    char dirs[3][4200];

    for (int i = 0; i < 3; i++) {
        snprintf(dirs[i], sizeof(dirs[i]), "%s/ff%d", top, sides[i][0] * sides[i][1]);
        record_first_fastest(dirs[i], sides[i][0], sides[i][1]);
    }
    for (int ff = 0; ff <= 1; ff++) {
        memset(runs, 0, sizeof(runs));
        for (int i = 0; i < 3; i++)
            cr_assert_eq(pz_scale_run_read_layout(dirs[i], 2, ff, &runs[i], err, sizeof(err)),
                         0, "%s", err);
        m = pz_scale_program_build(list, 3, 0, err, sizeof(err));
        if (ff)
            cr_expect_not_null(m, "numbered the first dimension fastest: %s", err);
        else
            cr_expect_null(m, "built in MPI_Cart_create's numbering");
        pz_scale_program_free(m);
        for (int i = 0; i < 3; i++)
            pz_scale_run_free(&runs[i]);
    }
}

/* In a 3 x 2 x 2 grid numbered the first dimension fastest, rank 7 is (7 mod 3,
 * (7 / 3) mod 2, 7 / 6) = (1, 0, 1) and (2, 0, 1) is rank 2 + 3 (0 + 2 * 1) = 8; in
 * MPI_Cart_create's numbering (rank 4 a + 2 b + c) rank 7 is (1, 1, 1) and (2, 0, 1) is
 * 9.  Outside a grid not periodic: -1. */
Test(scale_grid, ranks_numbered_first_dimension_fastest)
{
    struct pz_scale_grid g = { .ndims = 3, .dims = { 3, 2, 2 }, .first_fastest = 1 };
    static const int at[3] = { 2, 0, 1 }, out[3] = { 3, 0, 0 };
    int c[3];

    pz_scale_grid_coords(&g, 7, c);
    cr_expect(c[0] == 1 && c[1] == 0 && c[2] == 1, "rank 7 at (%d,%d,%d)", c[0], c[1], c[2]);
    cr_expect_eq(pz_scale_grid_rank(&g, at), 8);
    cr_expect_eq(pz_scale_grid_rank(&g, out), -1);
    g.first_fastest = 0;
    pz_scale_grid_coords(&g, 7, c);
    cr_expect(c[0] == 1 && c[1] == 1 && c[2] == 1, "rank 7 at (%d,%d,%d)", c[0], c[1], c[2]);
    cr_expect_eq(pz_scale_grid_rank(&g, at), 9);
}

/* The stencil plus rows, columns and an irregular pair.  Rows as MPI_Comm_split(world,
 * x, rank) gives them: row x = world ranks {2x, 2x+1}, sharing dimension 0, keeping
 * dimension 1 (keep = 2); columns {y, y+2, y+4, y+6} keep dimension 0 (keep = 1).  In its
 * row each process sends to the other member (offset (1 - y) - y in the kept dimension)
 * and takes part in an Allreduce; each column broadcasts from its rank 0; processes 0
 * and 3, (0,0) and (1,1), are no slice: their Barrier's communicator is OTHER. */
Test(scale_run, row_and_column_communicators_are_slices)
{
    struct tb *b = trace(8);
    uint32_t row[4], col[2], pair;
    const int pair_ranks[2] = { 0, 3 };

    for (int x = 0; x < 4; x++) {
        int m[2] = { 2 * x, 2 * x + 1 };
        char name[32];

        snprintf(name, sizeof(name), "row %d", x);
        row[x] = tb_comm(b, name, 2, m);
    }
    for (int y = 0; y < 2; y++) {
        int m[4] = { y, y + 2, y + 4, y + 6 };
        char name[32];

        snprintf(name, sizeof(name), "column %d", y);
        col[y] = tb_comm(b, name, 4, m);
    }
    pair = tb_comm(b, "pair", 2, pair_ranks);
    for (int p = 0; p < 8; p++) {
        uint64_t t = MS(1);
        int x = p / 2, y = p % 2;

        stencil_calls(b, p, &t);
        tb_send_call(b, p, "MPI_Send", t, t + MS(1), row[x], (uint32_t)(1 - y), 2);
        tb_collective_call(b, p, "MPI_Allreduce", t + MS(2), t + MS(3),
                           OTF2_COLLECTIVE_OP_ALLREDUCE, row[x], TB_NO_ROOT);
        tb_collective_call(b, p, "MPI_Bcast", t + MS(4), t + MS(5), OTF2_COLLECTIVE_OP_BCAST,
                           col[y], 0);
        if (p == 0 || p == 3)
            tb_collective_call(b, p, "MPI_Barrier", t + MS(6), t + MS(7),
                               OTF2_COLLECTIVE_OP_BARRIER, pair, TB_NO_ROOT);
    }
    read_back(b);
    expect_grid(2, 4, 2, 1, 0, 0, 0);
    /* process 3 = (1,1): 6 stencil steps, then the row's send to its rank 0, offset -1 */
    expect_call(3, 6, "MPI_Send", 1);
    cr_expect_eq(comm_of(event(3, 6, 0))->kind, PZ_SCALE_COMM_SLICE);
    cr_expect_eq(comm_of(event(3, 6, 0))->keep, 2);
    expect_offset(event(3, 6, 0), -1, 0, 0);
    /* process 2 = (1,0) sends to its row's rank 1: +1 */
    expect_offset(event(2, 6, 0), 1, 0, 0);
    /* the Allreduce: COLL_BEGIN without a communicator, COLL_END on the row, no root */
    expect_call(3, 7, "MPI_Allreduce", 2);
    cr_expect_eq(event(3, 7, 0)->kind, PZ_REC_COLL_BEGIN);
    cr_expect_eq(event(3, 7, 0)->comm, PZ_SCALE_NO_COMM);
    cr_expect_eq(event(3, 7, 1)->kind, PZ_REC_COLL_END);
    cr_expect_eq(event(3, 7, 1)->coll_op, OTF2_COLLECTIVE_OP_ALLREDUCE);
    cr_expect_eq(comm_of(event(3, 7, 1))->keep, 2);
    cr_expect_eq(event(3, 7, 1)->peer.kind, PZ_SCALE_PEER_NONE);
    /* the column's Bcast from rank 0 */
    cr_expect_eq(comm_of(event(3, 8, 1))->kind, PZ_SCALE_COMM_SLICE);
    cr_expect_eq(comm_of(event(3, 8, 1))->keep, 1);
    expect_peer(event(3, 8, 1), PZ_SCALE_PEER_RANK, 0);
    /* the pair */
    expect_call(3, 9, "MPI_Barrier", 2);
    cr_expect_eq(comm_of(event(3, 9, 1))->kind, PZ_SCALE_COMM_OTHER);
    /* the classes: world, rows, columns, other; the four rows are one class */
    cr_expect_eq(run.ncomms, 4);
    cr_expect_eq(event(0, 6, 0)->comm, event(6, 6, 0)->comm, "rows 0 and 3, one class");
}

/* Collectives of 4 on the world: Bcast from 0 is RANK 0, Reduce to 3 = size - 1 is LAST
 * 0, Gather to 1 is RANK 1.  No message: the 1-D grid. */
Test(scale_run, roots_count_from_the_first_or_the_last)
{
    struct tb *b = trace(4);

    for (int p = 0; p < 4; p++) {
        tb_collective_call(b, p, "MPI_Bcast", MS(1), MS(2), OTF2_COLLECTIVE_OP_BCAST,
                           TB_WORLD, 0);
        tb_collective_call(b, p, "MPI_Reduce", MS(3), MS(4), OTF2_COLLECTIVE_OP_REDUCE,
                           TB_WORLD, 3);
        tb_collective_call(b, p, "MPI_Gather", MS(5), MS(6), OTF2_COLLECTIVE_OP_GATHER,
                           TB_WORLD, 1);
    }
    read_back(b);
    expect_grid(1, 4, 1, 1, 0, 0, 0);
    for (int p = 0; p < 4; p++) {
        expect_peer(event(p, 0, 1), PZ_SCALE_PEER_RANK, 0);
        expect_peer(event(p, 1, 1), PZ_SCALE_PEER_LAST, 0);
        expect_peer(event(p, 2, 1), PZ_SCALE_PEER_RANK, 1);
        cr_expect_eq(comm_of(event(p, 2, 1))->kind, PZ_SCALE_COMM_WORLD);
    }
}

/* Two processes exchange with Irecv (request 1), Isend (request 2), an interval begins,
 * then Waitall completes both, a Test without records follows and the interval ends.
 * Steps of process 0: 0 Irecv, 1 Isend, 2 BEGIN, 3 Waitall, 4 Test, 5 END: the IRECV
 * in the Waitall was posted 3 - 0 = 3 steps before, the ISEND_COMPLETE 3 - 1 = 2. */
Test(scale_run, completions_point_back_to_their_posting_calls)
{
    struct tb *b = trace(2);
    uint32_t irecv = tb_mpi(b, "MPI_Irecv"), isend = tb_mpi(b, "MPI_Isend");
    uint32_t waitall = tb_mpi(b, "MPI_Waitall");
    uint32_t i1 = tb_interval(b, 1, "x.c", 10);

    for (int p = 0; p < 2; p++) {
        uint32_t other = (uint32_t)(1 - p);

        tb_enter(b, p, MS(1), irecv);
        tb_mpi_irecv_request(b, p, MS(1), 1);
        tb_leave(b, p, MS(2), irecv);
        tb_enter(b, p, MS(2), isend);
        tb_mpi_isend(b, p, MS(2), TB_WORLD, other, 5, 64, 2);
        tb_leave(b, p, MS(3), isend);
        tb_enter(b, p, MS(4), i1);
        tb_enter(b, p, MS(5), waitall);
        tb_mpi_irecv(b, p, MS(6), TB_WORLD, other, 5, 64, 1);
        tb_mpi_isend_complete(b, p, MS(6), 2);
        tb_leave(b, p, MS(6), waitall);
        tb_call(b, p, "MPI_Test", MS(7), MS(8));
        tb_leave(b, p, MS(9), i1);
    }
    read_back(b);
    cr_assert_eq(run.procs[0].nsteps, 6);
    expect_call(0, 0, "MPI_Irecv", 1);
    cr_expect_eq(event(0, 0, 0)->kind, PZ_REC_IRECV_REQUEST);
    cr_expect_eq(event(0, 0, 0)->posted_by, -1);
    cr_expect_eq(event(0, 1, 0)->kind, PZ_REC_ISEND);
    expect_offset(event(0, 1, 0), 1, 0, 0);
    cr_expect_eq(event(0, 1, 0)->posted_by, -1);
    cr_expect_eq(step(0, 2)->kind, PZ_SCALE_BEGIN);
    expect_call(0, 3, "MPI_Waitall", 2);
    cr_expect_eq(event(0, 3, 0)->kind, PZ_REC_IRECV);
    cr_expect_eq(event(0, 3, 0)->posted_by, 3);
    expect_offset(event(0, 3, 0), 1, 0, 0);
    cr_expect_eq(event(0, 3, 1)->kind, PZ_REC_ISEND_COMPLETE);
    cr_expect_eq(event(0, 3, 1)->posted_by, 2);
    cr_expect_eq(event(0, 3, 1)->comm, PZ_SCALE_NO_COMM);
    expect_call(0, 4, "MPI_Test", 0);
    cr_expect_eq(step(0, 5)->kind, PZ_SCALE_END);
    /* process 1's Isend goes to process 0: -1 */
    expect_offset(event(1, 1, 0), -1, 0, 0);
}

/* A request nobody posted: its completion has posted_by -1. */
Test(scale_run, a_completion_without_its_posting_is_minus_one)
{
    struct tb *b = trace(1);
    uint32_t wait = tb_mpi(b, "MPI_Wait");

    tb_enter(b, 0, MS(1), wait);
    tb_mpi_isend_complete(b, 0, MS(2), 42);
    tb_leave(b, 0, MS(2), wait);
    read_back(b);
    cr_expect_eq(event(0, 0, 0)->posted_by, -1);
}

/* One process with CPU times (ns; recorded wall times in ms):
 *   MPI_Init       Enter 0 (cpu 0), Leave 1 (cpu 0.5)
 *   interval 1     Enter 3 (cpu 2.0)
 *   "work"         Enter 4, Leave 6 (the program's own region: computation)
 *   flush          6 to 7 (the recorder's)
 *   MPI_Barrier    Enter 8 (cpu 5.5), a flush 8.2 to 8.4 inside, Leave 9 (cpu 6.0)
 *   interval 1     Leave 10 (cpu 6.8)
 *   MPI_Finalize   Enter 12 (cpu 8.0), Leave 13 (cpu 8.2)
 *   "work"         Enter 14, Leave 15.5 (after the last step)
 * Steps: Init (gap 0, cpu 0, 1 ms), BEGIN (gap 3 - 1 = 2 ms, cpu 1.5 ms), Barrier (gap
 * 8 - 3 - 1 = 4 ms, cpu 3.5 ms, 1 - 0.2 = 0.8 ms inside), END (gap 1 ms, cpu 0.8 ms),
 * Finalize (gap 2 ms, cpu 1.2 ms, 1 ms); the tail is 15.5 - 13 = 2.5 ms, its CPU time
 * not recorded ("work" has none). */
Test(scale_run, gaps_leave_flushes_out_and_take_cpu_times)
{
    struct tb *b = trace(1);
    uint32_t init = tb_mpi(b, "MPI_Init"), barrier = tb_mpi(b, "MPI_Barrier");
    uint32_t fin = tb_mpi(b, "MPI_Finalize"), work = tb_user(b, "work");
    uint32_t i1 = tb_interval(b, 1, "x.c", 10);

    tb_enter_cpu(b, 0, 0, init, 0);
    tb_leave_cpu(b, 0, MS(1), init, MS(0.5));
    tb_enter_cpu(b, 0, MS(3), i1, MS(2.0));
    tb_enter(b, 0, MS(4), work);
    tb_leave(b, 0, MS(6), work);
    tb_flush(b, 0, MS(6), MS(7));
    tb_enter_cpu(b, 0, MS(8), barrier, MS(5.5));
    tb_collective_begin(b, 0, MS(8));
    tb_flush(b, 0, MS(8.2), MS(8.4));
    tb_collective_end(b, 0, MS(9), OTF2_COLLECTIVE_OP_BARRIER, TB_WORLD, TB_NO_ROOT, 0, 0);
    tb_leave_cpu(b, 0, MS(9), barrier, MS(6.0));
    tb_leave_cpu(b, 0, MS(10), i1, MS(6.8));
    tb_enter_cpu(b, 0, MS(12), fin, MS(8.0));
    tb_leave_cpu(b, 0, MS(13), fin, MS(8.2));
    tb_enter(b, 0, MS(14), work);
    tb_leave(b, 0, MS(15.5), work);
    read_back(b);
    cr_expect_eq(run.cpu_times, 1);
    cr_assert_eq(run.procs[0].nsteps, 5);
    expect_call(0, 0, "MPI_Init", 0);
    cr_expect_eq(step(0, 1)->kind, PZ_SCALE_BEGIN);
    cr_expect_str_eq(name_of(step(0, 1)), "interval 1 at x.c:10");
    expect_call(0, 2, "MPI_Barrier", 2);
    cr_expect_eq(step(0, 3)->kind, PZ_SCALE_END);
    cr_expect_eq(step(0, 3)->region, step(0, 1)->region);
    expect_call(0, 4, "MPI_Finalize", 0);
    near(step(0, 0)->gap_wall, 0, "Init gap");
    near(step(0, 0)->gap_cpu, 0, "Init CPU gap");
    near(step(0, 0)->duration, 1e-3, "Init");
    near(step(0, 1)->gap_wall, 2e-3, "BEGIN gap");
    near(step(0, 1)->gap_cpu, 1.5e-3, "BEGIN CPU gap");
    near(step(0, 1)->duration, 0, "BEGIN");
    near(step(0, 2)->gap_wall, 4e-3, "Barrier gap");
    near(step(0, 2)->gap_cpu, 3.5e-3, "Barrier CPU gap");
    near(step(0, 2)->duration, 0.8e-3, "Barrier");
    near(step(0, 3)->gap_wall, 1e-3, "END gap");
    near(step(0, 3)->gap_cpu, 0.8e-3, "END CPU gap");
    near(step(0, 4)->gap_wall, 2e-3, "Finalize gap");
    near(step(0, 4)->gap_cpu, 1.2e-3, "Finalize CPU gap");
    near(run.procs[0].tail_wall, 2.5e-3, "tail");
    cr_expect_lt(run.procs[0].tail_cpu, 0, "tail CPU not recorded");
    /* the user region is no step; its name is not needed */
    cr_expect(work >= run.nnames || !run.names[work]);
    /* computations of 0 + 2 + 4 + 1 + 2 = 9 ms that took 0 + 1.5 + 3.5 + 0.8 + 1.2 = 7 ms
     * of CPU time (the tail has none): stretched 9 / 7 */
    near(pz_scale_run_stretch(&run), 9.0 / 7.0, "stretch");
}

/* Without CPU times nothing tells how stretched the computations are. */
Test(scale_run, a_stretch_needs_cpu_times)
{
    struct tb *b = trace(1);

    tb_call(b, 0, "MPI_Init", 0, MS(1));
    tb_call(b, 0, "MPI_Finalize", MS(3), MS(4));
    read_back(b);
    cr_expect_eq(run.cpu_times, 0);
    cr_expect_eq(pz_scale_run_stretch(&run), -1.0);
}

Test(scale_run, a_missing_recording_is_named)
{
    char missing[4200];

    snprintf(missing, sizeof(missing), "%s/none", top);
    cr_expect_eq(pz_scale_run_read(missing, &run, err, sizeof(err)), -1);
    cr_expect(strstr(err, missing) != NULL, "error '%s' does not name %s", err, missing);
    cr_expect(strchr(err, '\n') == NULL, "error on more than one line: '%s'", err);
}

Test(scale_run, a_second_thread_is_refused)
{
    struct tb *b = trace(2);
    int th = tb_thread(b, 1);

    tb_call(b, 0, "MPI_Init", 0, MS(1));
    tb_call(b, 1, "MPI_Init", 0, MS(1));
    tb_call(b, th, "MPI_Barrier", MS(2), MS(3));
    cr_assert_eq(tb_close(b), 0);
    cr_expect_eq(pz_scale_run_read(rec, &run, err, sizeof(err)), -1);
    cr_expect(strstr(err, rec) != NULL, "error '%s' does not name %s", err, rec);
    cr_expect(strstr(err, "process 1") != NULL, "error '%s' does not name process 1", err);
    cr_expect(strstr(err, "thread") != NULL, "error '%s' does not say why", err);
}

Test(scale_run, an_intercommunicator_is_refused)
{
    struct tb *b = trace(2);
    const int a[1] = { 0 }, bb[1] = { 1 };
    uint32_t inter = tb_intercomm(b, "inter", 1, a, 1, bb);

    tb_send_call(b, 0, "MPI_Send", MS(1), MS(2), inter, 0, 0);
    tb_recv_call(b, 1, "MPI_Recv", MS(1), MS(2), inter, 0, 0);
    cr_assert_eq(tb_close(b), 0);
    cr_expect_eq(pz_scale_run_read(rec, &run, err, sizeof(err)), -1);
    cr_expect(strstr(err, rec) && strstr(err, "process 0") && strstr(err, "MPI_Send") &&
              strstr(err, "intercommunicator"), "error '%s'", err);
}

/* The one-sided event of kind `kind` that is the n-th of process p (0: the first). */
static const struct pz_scale_event *rma_event(int p, uint8_t kind, int n)
{
    for (size_t i = 0; i < run.procs[p].nevents; i++)
        if (run.procs[p].events[i].kind == kind && n-- == 0)
            return &run.procs[p].events[i];
    cr_assert_fail("process %d has no one-sided event %u", p, kind);
    return NULL;
}

/* Process p's MPI_Put of bytes to target (a rank of the window's communicator), entered
 * at `at` and left 1 ms later. */
static void put_call(struct tb *b, int p, uint64_t at, uint32_t target, uint64_t bytes)
{
    tb_enter(b, p, at, tb_mpi(b, "MPI_Put"));
    tb_rma_put(b, p, at, target, bytes);
    tb_leave(b, p, at + MS(1), tb_mpi(b, "MPI_Put"));
}

/* A put on a window of the world whose making the trace does not have (made where it is
 * first used): read on the world's class, its target, process 1, at offset +1 in the
 * grid of 2, its window's slot 0 (tag 0), 8 bytes. */
Test(scale_run, a_put_is_read_with_its_target_an_offset_in_the_grid)
{
    struct tb *b = trace(2);
    const struct pz_scale_event *e;

    tb_rma_window(b);
    for (int p = 0; p < 2; p++)
        tb_call(b, p, "MPI_Init", 0, MS(1));
    put_call(b, 0, MS(2), 1, 8);
    cr_assert_eq(tb_close(b), 0);
    cr_assert_eq(pz_scale_run_read(rec, &run, err, sizeof(err)), 0, "%s", err);
    e = rma_event(0, PZ_REC_RMA_PUT, 0);
    cr_expect_eq(run.comms[e->comm].kind, PZ_SCALE_COMM_WORLD);
    cr_expect_eq(e->peer.kind, PZ_SCALE_PEER_OFFSET);
    cr_expect_eq(e->peer.off[0], 1);
    cr_expect_eq(e->tag, 0);
    cr_expect_eq(e->bytes, 8);
}

/* Windows on the world, each made and freed as the recorder writes it: windows 0 and 1
 * alive at once take slots 0 and 1 (the tag's PZ_SCALE_WINDOW_SLOT units, the recorded
 * level of synchronicity below: PROCESS, 1, for a window's making and freeing); window
 * 2, made once both are freed, slot 0 again, as a window made and freed in every
 * iteration is one window of the program. */
Test(scale_run, windows_alive_at_once_take_slots_and_freed_ones_give_them_back)
{
    struct tb *b = trace(2);
    const struct pz_scale_event *e;
    uint32_t w[3];

    for (int i = 0; i < 3; i++)
        w[i] = tb_rma_window_on(b, TB_WORLD);
    for (int p = 0; p < 2; p++) {
        tb_rma_use(b, w[0]);
        tb_win_create_call(b, p, MS(1), MS(2));
        tb_rma_use(b, w[1]);
        tb_win_create_call(b, p, MS(3), MS(4));
        put_call(b, p, MS(5), (uint32_t)(1 - p), 16);
        tb_win_free_call(b, p, MS(7), MS(8));
        tb_rma_use(b, w[0]);
        tb_win_free_call(b, p, MS(9), MS(10));
        tb_rma_use(b, w[2]);
        tb_win_create_call(b, p, MS(11), MS(12));
        put_call(b, p, MS(13), (uint32_t)(1 - p), 16);
    }
    cr_assert_eq(tb_close(b), 0);
    cr_assert_eq(pz_scale_run_read(rec, &run, err, sizeof(err)), 0, "%s", err);
    cr_expect_eq(rma_event(1, PZ_REC_RMA_WIN_CREATE, 0)->tag, 0, "window 0's slot");
    cr_expect_eq(rma_event(1, PZ_REC_RMA_WIN_CREATE, 1)->tag, PZ_SCALE_WINDOW_SLOT,
                 "window 1's slot");
    cr_expect_eq(rma_event(1, PZ_REC_RMA_PUT, 0)->tag, PZ_SCALE_WINDOW_SLOT,
                 "the put on window 1");
    /* the collective ending MPI_Win_free follows the window's destruction: still slot 1 */
    e = rma_event(1, PZ_REC_RMA_COLL_END, 2);
    cr_expect_eq(e->tag, PZ_SCALE_WINDOW_SLOT + OTF2_RMA_SYNC_LEVEL_PROCESS,
                 "the end of window 1's freeing: tag %#x", e->tag);
    cr_expect_eq(rma_event(1, PZ_REC_RMA_WIN_CREATE, 2)->tag, 0, "window 2's slot");
    cr_expect_eq(rma_event(1, PZ_REC_RMA_PUT, 1)->tag, 0, "the put on window 2");
    cr_expect_eq(rma_event(1, PZ_REC_RMA_PUT, 1)->peer.off[0], -1, "the put's target");
}

/* --- periodicity taken from every recording (pz_scale_grid_periodicity) */

/* The peers, as world ranks, of process proc's sends and receives in the run the
 * program synthesizes, in order, and their tags. */
struct peers_of {
    int proc;
    uint32_t sends[8], recvs[8];
    uint32_t send_tags[8], recv_tags[8];
    int nsends, nrecvs;
};

static int no_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    (void)ctx, (void)comms, (void)n;
    return 0;
}

static int keep_peers(void *ctx, int proc, const struct pz_rec *r)
{
    struct peers_of *k = ctx;

    if (proc != k->proc)
        return 0;
    if ((r->kind == PZ_REC_SEND || r->kind == PZ_REC_ISEND) && k->nsends < 8) {
        k->send_tags[k->nsends] = r->tag;
        k->sends[k->nsends++] = r->peer;
    } else if ((r->kind == PZ_REC_RECV || r->kind == PZ_REC_IRECV) && k->nrecvs < 8) {
        k->recv_tags[k->nrecvs] = r->tag;
        k->recvs[k->nrecvs++] = r->peer;
    }
    return 0;
}

static struct peers_of synthesized_peers(const struct pz_scale_program *m, int nprocs,
                                         int proc)
{
    struct peers_of k = { .proc = proc };
    struct pz_scale_sink sink = { no_comms, keep_peers, &k };

    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    return k;
}

/* The directions of a halo exchange: north, south, west, east. */
static const int halo[4][2] = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } };

/* A halo exchange on a rows x columns grid periodic in both dimensions (rank = row *
 * columns + column), recorded at rows * columns processes in dir: for each direction of
 * halo, a send to the neighbour there (tag: the direction's index) and a receive from
 * the neighbour on the other side. */
static void record_torus(const char *dir, int rows, int columns)
{
    struct tb *b = tb_open(dir, rows * columns);

    cr_assert_not_null(b, "cannot open a trace in %s", dir);
    for (int p = 0; p < rows * columns; p++)
        for (uint32_t i = 0; i < 4; i++) {
            int x = p / columns, y = p % columns, dx = halo[i][0], dy = halo[i][1];
            uint32_t to = (uint32_t)((x + dx + rows) % rows * columns +
                                     (y + dy + columns) % columns);
            uint32_t from = (uint32_t)((x - dx + rows) % rows * columns +
                                       (y - dy + columns) % columns);

            tb_send_call(b, p, "MPI_Send", MS(4 * i + 1), MS(4 * i + 2), TB_WORLD, to, i);
            tb_recv_call(b, p, "MPI_Recv", MS(4 * i + 3), MS(4 * i + 4), TB_WORLD, from, i);
        }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

static void read_at(const char *name, struct pz_scale_run *r)
{
    char dir[4200];

    snprintf(dir, sizeof(dir), "%s/%s", top, name);
    cr_assert_eq(pz_scale_run_read(dir, r, err, sizeof(err)), 0, "%s", err);
}

/* The program record writes, recorded at counts[0..2] processes (as PREFIX<count>) and
 * read into runs. */
static void record_three(const char *prefix, void (*record)(const char *, int),
                         const int *counts, struct pz_scale_run *runs)
{
    for (int i = 0; i < 3; i++) {
        char name[16];

        snprintf(name, sizeof(name), "%s%d", prefix, counts[i]);
        record(name, counts[i]);
        read_at(name, &runs[i]);
    }
}

static const int two_to_four[3] = {2, 3, 4};

/* A torus recorded at 9 processes (3 x 3) and 10 (5 x 2).  At 10 the columns are 2: the
 * west and east neighbours are one process, no message crosses the ends of dimension 1
 * and the recording alone cannot tell it wraps (read: periodic in dimension 0 only);
 * at 9 the messages cross both ends.  Taken from the largest recording, 10, alone,
 * dimension 1 was not periodic and the messages of the 9 across its ends followed no
 * pattern of the grid: the model was refused.  From both recordings it is periodic.
 * At 16, rank = 4 x + y: process 0 at (0, 0) sends north to (-1, 0) = (3, 0), rank 12;
 * south to (1, 0), 4; west to (0, -1) = (0, 3), 3; east to (0, 1), 1; and receives from
 * the other sides: 4, 12, 1, 3.  Process 15 at (3, 3) sends to (2, 3) = 11, (0, 3) = 3,
 * (3, 2) = 14, (3, 0) = 12. */
Test(scale_run, periodicity_comes_from_every_recording)
{
    static const uint32_t sends0[4] = { 12, 4, 3, 1 }, recvs0[4] = { 4, 12, 1, 3 };
    static const uint32_t sends15[4] = { 11, 3, 14, 12 };
    struct pz_scale_run runs[2];
    const struct pz_scale_run *list[2] = { &runs[0], &runs[1] };
    struct pz_scale_program *m;
    struct peers_of k;
    char dir[4200];

    memset(runs, 0, sizeof(runs));
    snprintf(dir, sizeof(dir), "%s/torus9", top);
    record_torus(dir, 3, 3);
    snprintf(dir, sizeof(dir), "%s/torus10", top);
    record_torus(dir, 5, 2);
    read_at("torus9", &runs[0]);
    read_at("torus10", &runs[1]);
    cr_expect(runs[0].grid.dims[0] == 3 && runs[0].grid.dims[1] == 3 &&
              runs[0].grid.periodic[0] && runs[0].grid.periodic[1], "9: 3 x 3, periodic");
    cr_expect(runs[1].grid.dims[0] == 5 && runs[1].grid.dims[1] == 2 &&
              runs[1].grid.periodic[0] && !runs[1].grid.periodic[1],
              "10: 5 x 2, only dimension 0 seen periodic");
    m = pz_scale_program_build(list, 2, 0, err, sizeof(err));
    cr_assert_not_null(m, "%s", err);
    k = synthesized_peers(m, 16, 0);
    cr_assert_eq(k.nsends, 4, "process 0 makes %d sends at 16, expected 4", k.nsends);
    cr_assert_eq(k.nrecvs, 4, "process 0 makes %d receives at 16, expected 4", k.nrecvs);
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(k.sends[i], sends0[i], "send %d of process 0 to %u, expected %u", i,
                     k.sends[i], sends0[i]);
        cr_expect_eq(k.recvs[i], recvs0[i], "receive %d of process 0 from %u, expected %u",
                     i, k.recvs[i], recvs0[i]);
    }
    k = synthesized_peers(m, 16, 15);
    cr_assert_eq(k.nsends, 4, "process 15 makes %d sends at 16, expected 4", k.nsends);
    for (int i = 0; i < 4; i++)
        cr_expect_eq(k.sends[i], sends15[i], "send %d of process 15 to %u, expected %u", i,
                     k.sends[i], sends15[i]);
    pz_scale_program_free(m);
    pz_scale_run_free(&runs[0]);
    pz_scale_run_free(&runs[1]);
}

/* A ring of 4 (p sends to p + 1 around, receives from p - 1) crosses the ends of its
 * dimension of 4; a chain of 8 (the same without 7 -> 0) does not, in a dimension of 8:
 * both show whether it wraps, and they disagree.  Refused, naming both and the
 * dimension. */
Test(scale_run, recordings_that_wrap_and_do_not_are_refused)
{
    struct pz_scale_run runs[2];
    const struct pz_scale_run *list[2] = { &runs[0], &runs[1] };
    char dir[4200], want[9000];

    memset(runs, 0, sizeof(runs));
    for (int i = 0; i < 2; i++) {
        int n = 4 << i;
        struct tb *b;

        snprintf(dir, sizeof(dir), "%s/%s%d", top, i ? "chain" : "ring", n);
        cr_assert_not_null(b = tb_open(dir, n));
        for (int p = 0; p < n; p++) {
            if (!i || p < n - 1)
                tb_send_call(b, p, "MPI_Send", MS(1), MS(2), TB_WORLD,
                             (uint32_t)((p + 1) % n), 0);
            if (!i || p > 0)
                tb_recv_call(b, p, "MPI_Recv", MS(3), MS(4), TB_WORLD,
                             (uint32_t)((p + n - 1) % n), 0);
        }
        cr_assert_eq(tb_close(b), 0);
        read_at(i ? "chain8" : "ring4", &runs[i]);
    }
    cr_assert_null(pz_scale_program_build(list, 2, 0, err, sizeof(err)));
    snprintf(want, sizeof(want), "recordings differ: dimension 0 of the process grid wraps "
             "around in %s/ring4 (4 processes long) but not in %s/chain8 (8)", top, top);
    cr_expect_str_eq(err, want);
    pz_scale_run_free(&runs[0]);
    pz_scale_run_free(&runs[1]);
}

/* --- a gather written by hand beside a ring */

/* A ring of 8 processes by MPI_Sendrecv (to rank + 1, from rank - 1, tag 0), then a
 * gather written by hand: every rank but 0 sends 8 bytes tagged 9 to rank 0, which
 * receives them from 1, 2, .., 7 in turn.  Every process is a partner of rank 0, and
 * only the grid of 2 x 2 x 2 has them all as neighbours; the ring's is 1-D of 8,
 * periodic.  Tag 9 carries only messages to and from rank 0: left out of the choice,
 * the grid is the ring's, process 3's gather message at offset -3 in it. */
Test(scale_run, a_gather_written_by_hand_leaves_the_grid_to_the_other_messages)
{
    struct tb *b = trace(8);

    for (int p = 0; p < 8; p++) {
        uint32_t sendrecv = tb_mpi(b, "MPI_Sendrecv");

        tb_enter(b, p, MS(1), sendrecv);
        tb_mpi_send(b, p, MS(1), TB_WORLD, (uint32_t)(p + 1) % 8, 0, 64);
        tb_mpi_recv(b, p, MS(2), TB_WORLD, (uint32_t)(p + 7) % 8, 0, 64);
        tb_leave(b, p, MS(2), sendrecv);
        for (int q = 1; p == 0 && q < 8; q++)
            tb_recv_call(b, p, "MPI_Recv", MS(2 + q), MS(3 + q), TB_WORLD, (uint32_t)q, 9);
        if (p)
            tb_send_call(b, p, "MPI_Send", MS(3), MS(4), TB_WORLD, 0, 9);
    }
    read_back(b);
    expect_grid(1, 8, 1, 1, 1, 0, 0);
    expect_offset(event(3, 1, 0), -3, 0, 0);
}

/* --- neighbours along a periodic dimension of 2 processes (share/validation/halo3d.c) */

/* Whether halo3d's exchange posts its receives first: MPI_Irecv from every neighbour, then
 * MPI_Isend to every neighbour, in the same order, then one MPI_Waitall. */
static int posted_first;

/* The rank of the neighbour of the process at c on side s (0: -1, 1: +1) along
 * dimension d of halo3d's grid dims (periodic along dimension 0 only); -1 for none. */
static int halo3d_neighbour(const uint32_t *dims, const int *c, int d, int s)
{
    int nb[3] = { c[0], c[1], c[2] }, len = (int)dims[d];

    nb[d] += s ? 1 : -1;
    if (d == 0)
        nb[0] = (nb[0] + len) % len;
    else if (nb[d] < 0 || nb[d] >= len)
        return -1;
    return (nb[0] * (int)dims[1] + nb[1]) * (int)dims[2] + nb[2];
}

/* Process p's exchange as posted_first has it, from *t on: request 2 i + 1 receives
 * from and 2 i + 2 sends to the i-th neighbour. */
static void posted_exchange(struct tb *b, int p, uint32_t cart, const uint32_t *dims,
                            const int *c, uint64_t *t)
{
    uint32_t irecv = tb_mpi(b, "MPI_Irecv"), isend = tb_mpi(b, "MPI_Isend"),
             waitall = tb_mpi(b, "MPI_Waitall");

    for (int way = 0; way < 2; way++)
        for (int i = 0; i < 6; i++) {
            int q = halo3d_neighbour(dims, c, i / 2, i % 2);

            if (q < 0)
                continue;
            tb_enter(b, p, *t += MS(1), way ? isend : irecv);
            if (way)
                tb_mpi_isend(b, p, *t, cart, (uint32_t)q, (uint32_t)(i / 2 * 2 + 1 - i % 2), 8,
                             (uint64_t)(2 * i + 2));
            else
                tb_mpi_irecv_request(b, p, *t, (uint64_t)(2 * i + 1));
            tb_leave(b, p, *t += MS(1), way ? isend : irecv);
        }
    tb_enter(b, p, *t += MS(1), waitall);
    for (int i = 0; i < 6; i++) {
        int q = halo3d_neighbour(dims, c, i / 2, i % 2);

        if (q < 0)
            continue;
        tb_mpi_irecv(b, p, *t, cart, (uint32_t)q, (uint32_t)i, 8, (uint64_t)(2 * i + 1));
        tb_mpi_isend_complete(b, p, *t, (uint64_t)(2 * i + 2));
    }
    tb_leave(b, p, *t += MS(1), waitall);
}

/* The halo exchange of halo3d.c on a 3-D grid of dims[0] x dims[1] x dims[2] processes
 * (rank = (x * dims[1] + y) * dims[2] + z) that MPI_Cart_create made, periodic along
 * dimension 0 only, recorded in top/NAME: in interval 3 at halo3d.c:120, for
 * each dimension d and each side s (0: the neighbour at -1, 1: at +1) whose neighbour
 * exists, a send of the face to it with tag 2d + 1 - s and a receive from it with tag
 * 2d + s (the face from below arrives with tag 2d, from above 2d + 1); or, when
 * posted_first, the receives first (posted_exchange). */
static void record_halo3d(const char *name, const uint32_t *dims)
{
    static const int periodic[3] = { 1, 0, 0 };
    int n = (int)(dims[0] * dims[1] * dims[2]), world[32];
    char dir[4200];
    struct tb *b;
    uint32_t cart, interval;

    cr_assert_leq(n, 32);
    snprintf(dir, sizeof(dir), "%s/%s", top, name);
    cr_assert_not_null(b = tb_open(dir, n), "cannot open a trace in %s", dir);
    for (int p = 0; p < n; p++)
        world[p] = p;
    cart = tb_comm(b, "cart", n, world);
    tb_cart(b, cart, 3, dims, periodic, 1);
    interval = tb_interval(b, 3, "halo3d.c", 120);
    for (int p = 0; p < n; p++) {
        int c[3] = { p / (int)(dims[1] * dims[2]), p / (int)dims[2] % (int)dims[1],
                     p % (int)dims[2] };
        uint64_t t = MS(1);

        tb_enter(b, p, t, interval);
        if (posted_first)
            posted_exchange(b, p, cart, dims, c, &t);
        for (int d = 0; d < 3 && !posted_first; d++)
            for (int s = 0; s < 2; s++) {
                int q = halo3d_neighbour(dims, c, d, s);

                if (q < 0)
                    continue;
                tb_send_call(b, p, "MPI_Send", t + MS(1), t + MS(2), cart, (uint32_t)q,
                             (uint32_t)(2 * d + 1 - s));
                tb_recv_call(b, p, "MPI_Recv", t + MS(3), t + MS(4), cart, (uint32_t)q,
                             (uint32_t)(2 * d + s));
                t += MS(4);
            }
        tb_leave(b, p, t + MS(1), interval);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* halo3d recorded at 3 counts and its model, which points into the list of runs. */
struct halo3d {
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3];
    struct pz_scale_program *m;
};

/* Records halo3d at the 3 layouts given (MPI_Dims_create's in 3-D) and builds h->m. */
static void model_halo3d(const uint32_t (*dims)[3], struct halo3d *h)
{
    memset(h, 0, sizeof(*h));
    for (int i = 0; i < 3; i++) {
        char name[32];

        snprintf(name, sizeof(name), "h%u", dims[i][0] * dims[i][1] * dims[i][2]);
        record_halo3d(name, dims[i]);
        read_at(name, &h->runs[i]);
        h->list[i] = &h->runs[i];
    }
    h->m = pz_scale_program_build(h->list, 3, 0, err, sizeof(err));
    cr_assert_not_null(h->m, "%s", err);
}

static void free_halo3d(struct halo3d *h)
{
    pz_scale_program_free(h->m);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&h->runs[i]);
}

/* Process proc's sends and receives at nprocs against the peers and tags expected. */
static void expect_halo3d(const struct pz_scale_program *m, int nprocs, int proc,
                          const uint32_t (*sends)[2], const uint32_t (*recvs)[2], int n)
{
    struct peers_of k = synthesized_peers(m, nprocs, proc);

    cr_assert_eq(k.nsends, n, "at %d, process %d makes %d sends, expected %d", nprocs, proc,
                 k.nsends, n);
    cr_assert_eq(k.nrecvs, n, "at %d, process %d makes %d receives, expected %d", nprocs,
                 proc, k.nrecvs, n);
    for (int i = 0; i < n; i++) {
        cr_expect(k.sends[i] == sends[i][0] && k.send_tags[i] == sends[i][1],
                  "at %d, send %d of process %d: to %u with tag %u, expected %u with %u",
                  nprocs, i, proc, k.sends[i], k.send_tags[i], sends[i][0], sends[i][1]);
        cr_expect(k.recvs[i] == recvs[i][0] && k.recv_tags[i] == recvs[i][1],
                  "at %d, receive %d of process %d: from %u with tag %u, expected %u with %u",
                  nprocs, i, proc, k.recvs[i], k.recv_tags[i], recvs[i][0], recvs[i][1]);
    }
}

/* The program's calls at 16 (4 x 2 x 2, rank 4 x + 2 y + z) of processes 0 and 13, as
 * the comment of neighbours_along_a_periodic_dimension_are_told_by_a_recording_of_3
 * works them out: (peer, tag) of each send and receive in order. */
static void expect_halo3d_at_16(const struct pz_scale_program *m)
{
    static const uint32_t sends0[4][2] = { { 12, 1 }, { 4, 0 }, { 2, 2 }, { 1, 4 } };
    static const uint32_t recvs0[4][2] = { { 12, 0 }, { 4, 1 }, { 2, 3 }, { 1, 5 } };
    static const uint32_t sends13[4][2] = { { 9, 1 }, { 1, 0 }, { 15, 2 }, { 12, 5 } };
    static const uint32_t recvs13[4][2] = { { 9, 0 }, { 1, 1 }, { 15, 3 }, { 12, 4 } };

    expect_halo3d(m, 16, 0, sends0, recvs0, 4);
    expect_halo3d(m, 16, 13, sends13, recvs13, 4);
}

/* MPI_Dims_create's 3-D layouts at 2, 4 and 8. */
static const uint32_t dims_2_4_8[3][3] = { { 2, 1, 1 }, { 2, 2, 1 }, { 2, 2, 2 } };

/* Recorded at 2 (2 x 1 x 1), 4 (2 x 2 x 1) and 8 (2 x 2 x 2), dimension 0 is periodic
 * and of 2 processes in every recording: both neighbours of a process along it are the
 * other process, read at +1 from x = 0 and at -1 from x = 1, whichever side the program
 * meant.  Process 0 shows its four messages along dimension 0 all at +1 (sends with tags
 * 1 and 0, receives with tags 0 and 1), process 4 at 8 all at -1: the recordings fit the
 * program (tag 1 sent down, tag 0 up) as well as its mirror, or all sent up, and they
 * differ at 16 (4 x 2 x 2), where x - 1 and x + 1 are two processes.  Taking process 0's
 * offsets made every process send both faces to x + 1 and wait for both from x + 1,
 * which sends its own to x + 2: no receive met its send (a false deadlock), and the run
 * was refused.  Directions are taken (replay/scale_untold_dir.c): of the MPI_Send calls
 * along dimension 0 in its stretch, the first to the lower neighbour, the second to the
 * upper; the receive of tag 0 from the side opposite to the send of tag 0 (the second,
 * up): from below; that of tag 1 from above.  That is the program, and at 16 process 0
 * makes the calls the test below derives from a recording at 12 (the same program):
 * down along x, round to 12, tag 1 sent and tag 0 received; up to 4, tags 0 and 1; up
 * along y to 2, tags 2 and 3; up along z to 1, tags 4 and 5; and process 13 at (3, 0,
 * 1): to 9 (tags 1, 0), round to 1 (0, 1), to 15 (2, 3), down along z to 12 (5, 4).  At
 * 8 the neighbours are one process: process 0 at (0, 0, 0) (rank 4 x + 2 y + z) sends
 * down and up along x to 4 with tags 1 and 0, to (0, 1, 0) = 2 with tag 2, to (0, 0, 1)
 * = 1 with tag 4, and receives from them with tags 0, 1, 3 and 5. */
Test(scale_run, neighbours_along_a_periodic_dimension_of_2_in_every_recording_take_directions)
{
    static const uint32_t sends8[4][2] = { { 4, 1 }, { 4, 0 }, { 2, 2 }, { 1, 4 } };
    static const uint32_t recvs8[4][2] = { { 4, 0 }, { 4, 1 }, { 2, 3 }, { 1, 5 } };
    struct halo3d h;

    posted_first = 0;
    model_halo3d(dims_2_4_8, &h);
    expect_halo3d_at_16(h.m);
    expect_halo3d(h.m, 8, 0, sends8, recvs8, 4);
    free_halo3d(&h);
}

/* The same exchange with its receives posted first (posted_exchange: MPI_Irecv from the
 * neighbours below and above along x, then along y and z, then MPI_Isend to them in the
 * same order, then MPI_Waitall), recorded at 2, 4 and 8: the stretch of the two receives
 * along dimension 0 has no send, so the loop's body is the stretch.  Of its two sends
 * along x, the first (tag 1) to the lower neighbour, the second (tag 0) to the upper;
 * the receive of tag 0 from the side opposite to that send's, below, that of tag 1 from
 * above: at 16 process 0 receives from 12 with tag 0 and from 4 with tag 1, from 2 with
 * tag 3 and from 1 with tag 5, and sends to 12 with tag 1, 4 with 0, 2 with 2 and 1 with
 * 4, as the program does (refused before: which neighbour MPI_Irecv addresses along
 * dimension 0 could not be told); process 13 as above. */
Test(scale_run, receives_posted_first_along_a_periodic_dimension_of_2_take_directions)
{
    struct halo3d h;

    posted_first = 1;
    model_halo3d(dims_2_4_8, &h);
    expect_halo3d_at_16(h.m);
    free_halo3d(&h);
}

/* Recorded at 4 (2 x 2 x 1), 8 (2 x 2 x 2) and 12 (3 x 2 x 2): at 12 the neighbours
 * along dimension 0 are two processes, and the exchange is the program's.  At 16
 * (4 x 2 x 2, rank 4 x + 2 y + z), process 0 at (0, 0, 0): down along x, round to
 * (3, 0, 0) = 12, it sends tag 1 and receives tag 0; up, to (1, 0, 0) = 4, tag 0 and
 * tag 1; no neighbour below along y or z; up along y (0, 1, 0) = 2: tags 2 and 3; up
 * along z (0, 0, 1) = 1: tags 4 and 5.  Process 13 at (3, 0, 1): down along x
 * (2, 0, 1) = 9, tags 1 and 0; up, round to (0, 0, 1) = 1, tags 0 and 1; up along y
 * (3, 1, 1) = 15, tags 2 and 3; down along z (3, 0, 0) = 12, tags 5 (2 * 2 + 1 - 0) and
 * 4; none above along z.  At 32 (4 x 4 x 2, rank 8 x + 2 y + z), process 0: down along
 * x (3, 0, 0) = 24, up 8, then 2 and 1 as at 16. */
Test(scale_run, neighbours_along_a_periodic_dimension_are_told_by_a_recording_of_3)
{
    static const uint32_t dims[3][3] = { { 2, 2, 1 }, { 2, 2, 2 }, { 3, 2, 2 } };
    static const uint32_t sends0_32[4][2] = { { 24, 1 }, { 8, 0 }, { 2, 2 }, { 1, 4 } };
    static const uint32_t recvs0_32[4][2] = { { 24, 0 }, { 8, 1 }, { 2, 3 }, { 1, 5 } };
    struct halo3d h;

    posted_first = 0;
    model_halo3d(dims, &h);
    expect_halo3d_at_16(h.m);
    expect_halo3d(h.m, 32, 0, sends0_32, recvs0_32, 4);
    free_halo3d(&h);
}

/* --- loops whose body begins as what follows them */

/* A V-cycle of 2 levels on a chain of n processes (not periodic), recorded in top/NAME:
 * per level a smoothing of 2 sweeps, each a halo exchange (a send of tag 1 to p + 1, a
 * receive of tag 1 from p - 1, where they exist) then interval 3, and a restriction, a
 * halo exchange then interval 4; after the levels interval 5.  Each call and each
 * interval boundary 1 ms after the previous one. */
static void record_vcycle(const char *name, int n)
{
    char dir[4200];
    struct tb *b;
    uint32_t smooth, restrict_, coarse;

    snprintf(dir, sizeof(dir), "%s/%s", top, name);
    cr_assert_not_null(b = tb_open(dir, n), "cannot open a trace in %s", dir);
    smooth = tb_interval(b, 3, "mg.c", 70);
    restrict_ = tb_interval(b, 4, "mg.c", 80);
    coarse = tb_interval(b, 5, "mg.c", 90);
    for (int p = 0; p < n; p++) {
        uint64_t t = 0;

        for (int level = 0; level < 2; level++)
            for (int sweep = 0; sweep < 3; sweep++) {
                uint32_t interval = sweep < 2 ? smooth : restrict_;

                if (p + 1 < n)
                    tb_send_call(b, p, "MPI_Send", t + MS(1), t + MS(2), TB_WORLD,
                                 (uint32_t)p + 1, 1);
                if (p > 0)
                    tb_recv_call(b, p, "MPI_Recv", t + MS(3), t + MS(4), TB_WORLD,
                                 (uint32_t)p - 1, 1);
                tb_enter(b, p, t + MS(5), interval);
                tb_leave(b, p, t + MS(6), interval);
                t += MS(6);
            }
        tb_enter(b, p, t + MS(1), coarse);
        tb_leave(b, p, t + MS(2), coarse);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* Process proc's messages at nprocs: nsends sends to `to` and nrecvs receives from
 * `from`, all of tag 1. */
static void expect_vcycle(const struct pz_scale_program *m, int nprocs, int proc,
                          int nsends, uint32_t to, int nrecvs, uint32_t from)
{
    struct peers_of k = synthesized_peers(m, nprocs, proc);

    cr_expect_eq(k.nsends, nsends, "at %d, process %d makes %d sends, expected %d", nprocs,
                 proc, k.nsends, nsends);
    cr_expect_eq(k.nrecvs, nrecvs, "at %d, process %d makes %d receives, expected %d",
                 nprocs, proc, k.nrecvs, nrecvs);
    for (int i = 0; i < k.nsends; i++)
        cr_expect(k.sends[i] == to && k.send_tags[i] == 1, "send %d of process %d: to %u "
                  "with tag %u, expected %u with 1", i, proc, k.sends[i], k.send_tags[i], to);
    for (int i = 0; i < k.nrecvs; i++)
        cr_expect(k.recvs[i] == from && k.recv_tags[i] == 1, "receive %d of process %d: "
                  "from %u with tag %u, expected %u with 1", i, proc, k.recvs[i],
                  k.recv_tags[i], from);
}

/* With H the halo exchange, every process folds its steps into
 * ((H I3) x 2, H I4) x 2, I5: the smoothing loop is followed by the restriction's H,
 * which begins as its body does.  Walking a process through that template, a third
 * smoothing iteration matched the restriction's H and passed over I3: the restriction's
 * H was never made, its guard held nowhere, and the check failed at every process (the
 * level loop not matching, the template expected interval 5 where the first exchange
 * is).  A process makes a step in every iteration or in none, so that iteration is not
 * one.  Recorded at 2, 3 and 4, synthesized at 6: per level 3 exchanges, 6 in all;
 * process 2 sends 6 messages to 3 and receives 6 from 1, process 0 only sends, to 1,
 * process 5 only receives, from 4. */
Test(scale_run, a_loop_stops_where_its_body_would_pass_over_a_step_it_makes)
{
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3] = { &runs[0], &runs[1], &runs[2] };
    struct pz_scale_program *m;

    record_three("v", record_vcycle, two_to_four, runs);
    m = pz_scale_program_build(list, 3, 0, err, sizeof(err));
    cr_assert_not_null(m, "%s", err);
    expect_vcycle(m, 6, 2, 6, 3, 6, 1);
    expect_vcycle(m, 6, 0, 6, 1, 0, 0);
    expect_vcycle(m, 6, 5, 0, 0, 6, 4);
    pz_scale_program_free(m);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
}

/* Multigrid levels on a chain of n processes (not periodic), recorded in top/NAME: per
 * level l of 3 a smoothing of 2 sweeps, each a halo exchange of a row of 4096 >> l bytes
 * (a send of tag 1 to p + 1, a receive of tag 1 from p - 1, where they exist) then
 * interval 3; after the levels interval 5.  The rows do not depend on n. */
static void record_levels(const char *name, int n)
{
    char dir[4200];
    struct tb *b;
    uint32_t smooth, coarse, send, recv;

    snprintf(dir, sizeof(dir), "%s/%s", top, name);
    cr_assert_not_null(b = tb_open(dir, n), "cannot open a trace in %s", dir);
    smooth = tb_interval(b, 3, "mg.c", 70);
    coarse = tb_interval(b, 5, "mg.c", 90);
    send = tb_mpi(b, "MPI_Send");
    recv = tb_mpi(b, "MPI_Recv");
    for (int p = 0; p < n; p++) {
        uint64_t t = 0;

        for (int level = 0; level < 3; level++)
            for (int sweep = 0; sweep < 2; sweep++) {
                uint64_t row = 4096u >> level;

                if (p + 1 < n) {
                    tb_enter(b, p, t + MS(1), send);
                    tb_mpi_send(b, p, t + MS(1), TB_WORLD, (uint32_t)p + 1, 1, row);
                    tb_leave(b, p, t + MS(2), send);
                }
                if (p > 0) {
                    tb_enter(b, p, t + MS(3), recv);
                    tb_mpi_recv(b, p, t + MS(4), TB_WORLD, (uint32_t)p - 1, 1, row);
                    tb_leave(b, p, t + MS(4), recv);
                }
                tb_enter(b, p, t + MS(5), smooth);
                tb_leave(b, p, t + MS(6), smooth);
                t += MS(6);
            }
        tb_enter(b, p, t + MS(1), coarse);
        tb_leave(b, p, t + MS(2), coarse);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* The sizes of process proc's sends and receives, in order. */
struct sizes_of {
    int proc;
    uint64_t sends[8], recvs[8];
    int nsends, nrecvs;
};

static int keep_sizes(void *ctx, int proc, const struct pz_rec *r)
{
    struct sizes_of *k = ctx;

    if (proc != k->proc)
        return 0;
    if (r->kind == PZ_REC_SEND && k->nsends < 8)
        k->sends[k->nsends++] = r->bytes;
    else if (r->kind == PZ_REC_RECV && k->nrecvs < 8)
        k->recvs[k->nrecvs++] = r->bytes;
    return 0;
}

/* Folding by signatures alone, the six exchanges were one loop (H I3) x 6 whose sizes,
 * 4096 at the first level down to 1024 at the last, were fitted into the largest, 4096,
 * at every level.  A call made with other sizes at a process being another step, each
 * level is a loop (H_l I3) x 2 of its own.  Recorded at 2, 3 and 4, synthesized at 6:
 * process 2 sends to 3 and receives from 1 rows of 4096, 4096, 2048, 2048, 1024, 1024
 * bytes (4096 >> l, twice per level l); process 0 only sends them, process 5 only
 * receives them. */
Test(scale_run, each_level_of_a_loop_whose_messages_shrink_keeps_its_size)
{
    static const uint64_t rows[6] = { 4096, 4096, 2048, 2048, 1024, 1024 };
    static const struct { int proc, nsends, nrecvs; } at6[3] = { {2, 6, 6}, {0, 6, 0}, {5, 0, 6} };
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3] = { &runs[0], &runs[1], &runs[2] };
    struct pz_scale_program *m;

    record_three("levels", record_levels, two_to_four, runs);
    m = pz_scale_program_build(list, 3, 0, err, sizeof(err));
    cr_assert_not_null(m, "%s", err);
    for (int c = 0; c < 3; c++) {
        struct sizes_of k = { .proc = at6[c].proc };
        struct pz_scale_sink sink = { no_comms, keep_sizes, &k };

        cr_assert_eq(pz_scale_synthesize(m, 6, &sink, err, sizeof(err)), 0, "%s", err);
        cr_expect_eq(k.nsends, at6[c].nsends, "process %d makes %d sends, expected %d",
                     k.proc, k.nsends, at6[c].nsends);
        cr_expect_eq(k.nrecvs, at6[c].nrecvs, "process %d makes %d receives, expected %d",
                     k.proc, k.nrecvs, at6[c].nrecvs);
        for (int i = 0; i < k.nsends && i < 6; i++)
            cr_expect_eq(k.sends[i], rows[i], "send %d of process %d: %llu bytes, expected "
                         "%llu", i, k.proc, (unsigned long long)k.sends[i],
                         (unsigned long long)rows[i]);
        for (int i = 0; i < k.nrecvs && i < 6; i++)
            cr_expect_eq(k.recvs[i], rows[i], "receive %d of process %d: %llu bytes, "
                         "expected %llu", i, k.proc, (unsigned long long)k.recvs[i],
                         (unsigned long long)rows[i]);
    }
    pz_scale_program_free(m);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
}

/* A chain of n processes, recorded in top/NAME, whose time steps i = 0 .. n + 1 each
 * send 8 (i + 1) bytes to p + 1 and receive them from p - 1 (tag 1, where they exist):
 * the sizes grow with the data, step by step, and the steps are more with more
 * processes. */
static void record_growing(const char *name, int n)
{
    char dir[4200];
    struct tb *b;
    uint32_t send, recv;

    snprintf(dir, sizeof(dir), "%s/%s", top, name);
    cr_assert_not_null(b = tb_open(dir, n), "cannot open a trace in %s", dir);
    send = tb_mpi(b, "MPI_Send");
    recv = tb_mpi(b, "MPI_Recv");
    for (int p = 0; p < n; p++)
        for (int i = 0; i < n + 2; i++) {
            uint64_t t = (uint64_t)i * MS(4), bytes = 8 * (uint64_t)(i + 1);

            if (p + 1 < n) {
                tb_enter(b, p, t + MS(1), send);
                tb_mpi_send(b, p, t + MS(1), TB_WORLD, (uint32_t)p + 1, 1, bytes);
                tb_leave(b, p, t + MS(2), send);
            }
            if (p > 0) {
                tb_enter(b, p, t + MS(3), recv);
                tb_mpi_recv(b, p, t + MS(4), TB_WORLD, (uint32_t)p - 1, 1, bytes);
                tb_leave(b, p, t + MS(4), recv);
            }
        }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* Told apart by their sizes, the steps of the chain are 4, 5 and 6 different calls at
 * 2, 3 and 4 processes, which no template of all three recordings makes: the calls are
 * told apart by their signatures alone, one loop of n + 2 exchanges whose size is the
 * mean over the passes and processes, and a note says that it changes from one iteration to the next: at 2
 * processes (the first recording), process 0 sends 8 bytes then 16. */
Test(scale_run, a_size_changing_from_one_iteration_to_the_next_is_noted)
{
    static const char expected[] = "changes from one iteration of the loop around "
                                   "MPI_Send";
    static const char sizes[] = "(from 8 to 16 bytes at 2 processes): every pass is given "
                                "the mean";
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3] = { &runs[0], &runs[1], &runs[2] };
    struct pz_scale_program *m;
    int found = 0;

    record_three("growing", record_growing, two_to_four, runs);
    m = pz_scale_program_build(list, 3, 0, err, sizeof(err));
    cr_assert_not_null(m, "%s", err);
    for (size_t i = 0; i < pz_scale_program_nnotes(m); i++) {
        const char *note = pz_scale_program_note(m, i);

        cr_expect_null(strstr(note, "differs between processes"), "%s", note);
        found += strstr(note, expected) && strstr(note, sizes);
    }
    cr_expect_gt(found, 0, "no note says that the size changes between iterations");
    pz_scale_program_free(m);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
}

/* pz_scale_grid_balanced is MPI_Dims_create's layout: MPICH's own, for 1 to 1024
 * processes in 1 to 3 dimensions. */
Test(scale_grid, balanced_is_mpich_dims_create)
{
    singleton_up();
    for (int n = 1; n <= 1024; n++)
        for (int nd = 1; nd <= PZ_SCALE_MAX_DIMS; nd++) {
            int dims[PZ_SCALE_MAX_DIMS] = { 0 };
            struct pz_scale_grid g;

            cr_assert_eq(MPI_Dims_create(n, nd, dims), MPI_SUCCESS);
            pz_scale_grid_balanced(&g, n, nd);
            for (int d = 0; d < nd; d++)
                cr_expect_eq(g.dims[d], dims[d], "n = %d, %d dimensions: dims[%d] = %d, "
                             "MPICH %d", n, nd, d, g.dims[d], dims[d]);
        }
    singleton_down();
}

/* The order of a layout among MPI_Dims_create's: 36 in 3-D is 4 x 3 x 3, so 3 x 3 x 4 is
 * it increasing, 3 x 3 x 3 both orders of 27, 2 x 6 neither of 12 (4 x 3); recordings
 * continue increasing when one is so and none is decreasing or other; 24 in 2-D laid
 * out so is 4 x 6. */
/* Whether recordings whose grids are a (na dimensions) and b (nb; none when nb is 0)
 * continue smallest side first. */
static int ascending(const int *a, int na, const int *b, int nb)
{
    struct pz_scale_run ra = {.grid.ndims = na}, rb = {.grid.ndims = nb};
    const struct pz_scale_run *runs[2] = {&ra, &rb};

    memcpy(ra.grid.dims, a, (size_t)na * sizeof(*a));
    if (nb)
        memcpy(rb.grid.dims, b, (size_t)nb * sizeof(*b));
    return pz_scale_grid_ascending(runs, nb ? 2 : 1);
}

Test(scale_grid, a_layout_smallest_side_first_is_told_and_continued)
{
    struct pz_scale_grid g;
    static const int up[3] = {3, 3, 4}, down[3] = {4, 3, 3}, cube[3] = {3, 3, 3},
                     other[2] = {2, 6};

    cr_expect_eq(pz_scale_grid_order(up, 3), PZ_SCALE_GRID_ASCENDING);
    cr_expect_eq(pz_scale_grid_order(down, 3), PZ_SCALE_GRID_DESCENDING);
    cr_expect_eq(pz_scale_grid_order(cube, 3), PZ_SCALE_GRID_EITHER);
    cr_expect_eq(pz_scale_grid_order(other, 2), PZ_SCALE_GRID_OTHER);
    cr_expect(ascending(cube, 3, up, 3));
    cr_expect_not(ascending(up, 3, down, 3));
    cr_expect_not(ascending(cube, 3, NULL, 0));
    cr_expect_not(ascending(up, 3, other, 2));
    pz_scale_grid_layout(&g, 24, 2, 1);
    cr_expect(g.dims[0] == 4 && g.dims[1] == 6 && g.ascending, "%d x %d", g.dims[0], g.dims[1]);
    pz_scale_grid_layout(&g, 24, 2, 0);
    cr_expect(g.dims[0] == 6 && g.dims[1] == 4 && !g.ascending, "%d x %d", g.dims[0], g.dims[1]);
}

/* One process waits on a request that is null (no event) in [0, 0.5] ms, a call it
 * makes whatever the timing, then polls a nonblocking sum: MPI_Iallreduce in [1, 2] ms
 * (request 1), two MPI_Test finding it incomplete in [3, 4] and [5, 6], one completing
 * it in [7, 8], an MPI_Wait on the request the test completed (no event) in [9, 10],
 * MPI_Finalize in [12, 13].  The incomplete tests and the wait after the completing test
 * complete nothing: 3 calls left out (polls), their time computation.  Steps: the first
 * wait; Iallreduce; the completing test, its gap 7 - 2 = 5 ms (the polls inside);
 * Finalize, its gap 12 - 8 = 4 ms (the wait inside). */
Test(scale_run, polls_are_no_steps_their_time_is_computation)
{
    struct tb *b = trace(1);
    uint32_t iall = tb_mpi(b, "MPI_Iallreduce"), test = tb_mpi(b, "MPI_Test");

    tb_call(b, 0, "MPI_Wait", 0, MS(0.5));
    tb_enter(b, 0, MS(1), iall);
    tb_nbc_request(b, 0, MS(1), 1);
    tb_leave(b, 0, MS(2), iall);
    for (int i = 0; i < 2; i++) {
        tb_enter(b, 0, MS(3 + 2 * i), test);
        tb_request_test(b, 0, MS(4 + 2 * i), 1);
        tb_leave(b, 0, MS(4 + 2 * i), test);
    }
    tb_enter(b, 0, MS(7), test);
    tb_nbc_complete(b, 0, MS(8), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT, 0, 0, 1);
    tb_leave(b, 0, MS(8), test);
    tb_call(b, 0, "MPI_Wait", MS(9), MS(10));
    tb_call(b, 0, "MPI_Finalize", MS(12), MS(13));
    read_back(b);
    cr_expect_eq(run.polls, 3);
    cr_assert_eq(run.procs[0].nsteps, 4);
    expect_call(0, 0, "MPI_Wait", 0);
    expect_call(0, 1, "MPI_Iallreduce", 1);
    expect_call(0, 2, "MPI_Test", 1);
    cr_expect_eq(event(0, 2, 0)->kind, PZ_REC_NBC_COMPLETE);
    cr_expect_eq(event(0, 2, 0)->posted_by, 1);
    near(step(0, 2)->gap_wall, 0.005, "the completing test's gap");
    expect_call(0, 3, "MPI_Finalize", 0);
    near(step(0, 3)->gap_wall, 0.004, "Finalize's gap");
}

/* A sum overlapped with work at 2, 3 and 4 processes, 3 iterations: MPI_Iallreduce,
 * then process p, in iteration i, tests (p + i) mod 3 times without completing, and
 * completes the sum in a test followed by a wait on the request done when p + i is even,
 * in the wait otherwise.  The steps of each iteration differ from process to process and
 * from one iteration to the next; without the polls, and with the completing test the
 * wait, every iteration is Iallreduce then one MPI_Wait: the model is built, and one note
 * says that the polls are not synthesized.  At 2 processes, (p + i) for p = 0 is 0, 1, 2:
 * 0 + 1 + 2 incomplete tests and 2 empty waits (i = 0, 2); for p = 1 it is 1, 2, 3:
 * 1 + 2 + 0 tests and 1 empty wait (i = 1): 9 polls. */
static void record_polling(const char *name, int n)
{
    char dir[4200];
    struct tb *b;
    uint32_t iall, test, wait;

    snprintf(dir, sizeof(dir), "%s/%s", top, name);
    cr_assert_not_null(b = tb_open(dir, n), "cannot open a trace in %s", dir);
    iall = tb_mpi(b, "MPI_Iallreduce");
    test = tb_mpi(b, "MPI_Test");
    wait = tb_mpi(b, "MPI_Wait");
    for (int p = 0; p < n; p++) {
        uint64_t t = MS(1);

        for (int i = 0; i < 3; i++) {
            uint64_t req = (uint64_t)i + 1;

            tb_enter(b, p, t, iall);
            tb_nbc_request(b, p, t, req);
            tb_leave(b, p, t += MS(1), iall);
            for (int k = 0; k < (p + i) % 3; k++) {
                tb_enter(b, p, t += MS(1), test);
                tb_request_test(b, p, t, req);
                tb_leave(b, p, t += MS(1), test);
            }
            tb_enter(b, p, t += MS(1), (p + i) % 2 ? wait : test);
            tb_nbc_complete(b, p, t += MS(1), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD,
                            TB_NO_ROOT, 8 * (uint64_t)(n - 1), 8 * (uint64_t)(n - 1), req);
            tb_leave(b, p, t, (p + i) % 2 ? wait : test);
            if ((p + i) % 2 == 0)
                tb_call(b, p, "MPI_Wait", t + MS(1), t + MS(2));
            t += MS(3);
        }
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

Test(scale_run, a_request_polled_as_the_timing_decides_is_one_wait)
{
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3] = { &runs[0], &runs[1], &runs[2] };
    struct pz_scale_program *m;
    int found = 0;

    record_three("polling", record_polling, two_to_four, runs);
    cr_expect_eq(runs[0].polls, 9);
    m = pz_scale_program_build(list, 3, 0, err, sizeof(err));
    cr_assert_not_null(m, "%s", err);
    for (size_t i = 0; i < pz_scale_program_nnotes(m); i++)
        found += strstr(pz_scale_program_note(m, i), "calls of MPI_Test finding their request "
                                                      "incomplete") != NULL;
    cr_expect_eq(found, 1, "no one note names the polls");
    pz_scale_program_free(m);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
}

/* Two processes trade halos with MPI_Neighbor_alltoallv (recorded as an Alltoallv)
 * whose records have no per-peer lists to name the neighbours: refused in one line
 * naming the recording, the process and the call, and saying why. */
Test(scale_run, a_neighbourhood_collective_without_lists_is_refused)
{
    struct tb *b = trace(2);

    for (int p = 0; p < 2; p++)
        tb_collective_call(b, p, "MPI_Neighbor_alltoallv", MS(1), MS(2),
                           OTF2_COLLECTIVE_OP_ALLTOALLV, TB_WORLD, TB_NO_ROOT);
    cr_assert_eq(tb_close(b), 0);
    cr_expect_eq(pz_scale_run_read(rec, &run, err, sizeof(err)), -1);
    cr_expect(strstr(err, rec) && strstr(err, "process 0") &&
              strstr(err, "MPI_Neighbor_alltoallv") && strstr(err, "neighbourhood collective") &&
              strstr(err, "lists") && !strchr(err, '\n'), "error '%s'", err);
}

/* Every process reduces to the first of its pair at 2, 4 and 8 processes, and all sum
 * over the world.  At 2 the pair is MPI_COMM_WORLD itself, no communicator the program
 * created; at 4 and 8 the pairs are blocks of 2 consecutive ranks (MPI_Comm_split of the
 * world by rank / 2): the MPI_Reduce of 2 processes is not the one of 4 and 8, and the
 * refusal says which class each recording's MPI_Reduce is on. */
static void record_pairs(const char *name, int n)
{
    char dir[4200];
    struct tb *b;
    uint32_t pair[4];

    snprintf(dir, sizeof(dir), "%s/%s", top, name);
    cr_assert_not_null(b = tb_open(dir, n), "cannot open a trace in %s", dir);
    for (int g = 0; g < n / 2; g++) {
        const int members[2] = { 2 * g, 2 * g + 1 };
        char comm[16];

        snprintf(comm, sizeof(comm), "pair%d", g);
        pair[g] = n == 2 ? TB_WORLD : tb_comm(b, comm, 2, members);
    }
    for (int p = 0; p < n; p++) {
        tb_collective_call(b, p, "MPI_Reduce", MS(1), MS(2), OTF2_COLLECTIVE_OP_REDUCE,
                           pair[p / 2], 0);
        tb_collective_call(b, p, "MPI_Allreduce", MS(3), MS(4),
                           OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT);
    }
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

Test(scale_run, a_call_on_a_communicator_of_another_class_elsewhere_is_named)
{
    static const int two_to_eight[3] = {2, 4, 8};
    struct pz_scale_run runs[3];
    const struct pz_scale_run *list[3] = { &runs[0], &runs[1], &runs[2] };
    struct pz_scale_program *m;

    record_three("pairs", record_pairs, two_to_eight, runs);
    m = pz_scale_program_build(list, 3, 0, err, sizeof(err));
    cr_expect_null(m);
    cr_expect(strstr(err, "MPI_Reduce") &&
              strstr(err, "which makes MPI_Reduce on blocks of 2 consecutive ranks") &&
              strstr(err, "instead of the world") && !strchr(err, '\n'), "error '%s'", err);
    pz_scale_program_free(m);
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
}

/* Process p of n calls MPI_Neighbor_alltoallv, sending (and receiving as much) bytes[q]
 * to each process q, 0 to none. */
static void neighbour_call(struct tb *b, int p, int n, const uint64_t *bytes)
{
    char list[512];
    uint64_t total = 0;
    size_t at = 0;
    uint32_t r = tb_mpi(b, "MPI_Neighbor_alltoallv");

    for (int q = 0; q < n; q++) {
        at += (size_t)snprintf(list + at, sizeof(list) - at, q ? ",%llu" : "%llu",
                               (unsigned long long)bytes[q]);
        total += bytes[q];
    }
    tb_enter(b, p, MS(1), r);
    tb_collective_begin(b, p, MS(1));
    tb_collective_end_lists(b, p, MS(2), OTF2_COLLECTIVE_OP_ALLTOALLV, TB_WORLD, total, total,
                            list, list);
    tb_leave(b, p, MS(2), r);
}

/* The list text of bytes[0 .. n-1] into list, their sum returned. */
static uint64_t list_of(const uint64_t *bytes, int n, char *list, size_t len)
{
    uint64_t total = 0;
    size_t at = 0;

    for (int q = 0; q < n; q++) {
        at += (size_t)snprintf(list + at, len - at, q ? ",%llu" : "%llu",
                               (unsigned long long)bytes[q]);
        total += bytes[q];
    }
    return total;
}

/* Process p of n starts MPI_Ineighbor_alltoallv in [1, 2] ms (request 1) and completes
 * it with MPI_Waitall in [3, 4] ms, sending (and receiving as much) bytes[q] to each
 * process q, 0 to none. */
static void ineighbour_call(struct tb *b, int p, int n, const uint64_t *bytes)
{
    char list[512];
    uint64_t total = list_of(bytes, n, list, sizeof(list));
    uint32_t start = tb_mpi(b, "MPI_Ineighbor_alltoallv"), wait = tb_mpi(b, "MPI_Waitall");

    tb_enter(b, p, MS(1), start);
    tb_nbc_request(b, p, MS(1), 1);
    tb_leave(b, p, MS(2), start);
    tb_enter(b, p, MS(3), wait);
    tb_nbc_complete_lists(b, p, MS(4), OTF2_COLLECTIVE_OP_ALLTOALLV, TB_WORLD, total, total,
                          list, list, 1);
    tb_leave(b, p, MS(4), wait);
}

/* A trace builder's call of a neighbourhood collective by process p of n, with its
 * per-peer bytes. */
typedef void neighbour_call_fn(struct tb *b, int p, int n, const uint64_t *bytes);

/* Records a neighbourhood collective made by call (blocking or not) by each of 6
 * processes of the 2-D stencil below: 100 bytes to the neighbours along the first
 * dimension of MPI_Dims_create's 3 x 2 grid (rank 2 x + y), 10 along the second; reads
 * it back and expects that grid. */
static void read_stencil_of_six(neighbour_call_fn *call)
{
    struct tb *b = trace(6);

    for (int p = 0; p < 6; p++) {
        uint64_t bytes[6] = {0};
        int x = p / 2, y = p % 2;

        if (x > 0)
            bytes[p - 2] = 100;
        if (x < 2)
            bytes[p + 2] = 100;
        bytes[y ? p - 1 : p + 1] = 10;
        call(b, p, 6, bytes);
    }
    read_back(b);
    cr_expect(run.grid.ndims == 2 && run.grid.dims[0] == 3 && run.grid.dims[1] == 2,
              "grid %d-D %d x %d", run.grid.ndims, run.grid.dims[0], run.grid.dims[1]);
}

/* Process 2 of that stencil, at (1, 0): 100 bytes both ways at offset codes 4 and 22,
 * 10 at 16, none elsewhere, 210 in all, in the event e that holds its lists. */
static void expect_offsets_of_process_2(const struct pz_scale_event *e)
{
    const struct pz_scale_nbr *t;

    cr_assert_eq(e->peer.kind, PZ_SCALE_PEER_NEIGHBOURS);
    cr_assert(e->peer.rank >= 0 && (size_t)e->peer.rank < run.procs[2].nnbrs);
    t = &run.procs[2].nbrs[e->peer.rank];
    for (int o = 0; o < PZ_SCALE_OFFSETS; o++) {
        uint64_t want = o == 4 || o == 22 ? 100 : o == 16 ? 10 : 0;

        cr_expect(t->sent[o] == want && t->received[o] == want, "offset %d: %llu/%llu, not %llu",
                  o, (unsigned long long)t->sent[o], (unsigned long long)t->received[o],
                  (unsigned long long)want);
    }
    cr_expect_eq(e->bytes, 210);
}

/* 5 processes exchanging 64 bytes with the ones 2 ranks away round the world by call:
 * refused in one line naming process 0's call that holds the lists (named) and its
 * neighbour 2, which is not next to it in any grid. */
static void expect_distant_ring_of_five_refused(neighbour_call_fn *call, const char *named)
{
    struct tb *b = trace(5);
    char want[128];

    for (int p = 0; p < 5; p++) {
        uint64_t bytes[5] = {0};

        bytes[(p + 2) % 5] = bytes[(p + 3) % 5] = 64;
        call(b, p, 5, bytes);
    }
    cr_assert_eq(tb_close(b), 0);
    cr_expect_eq(pz_scale_run_read(rec, &run, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "process 0, %s: a neighbourhood collective", named);
    cr_expect(strstr(err, want) &&
              strstr(err, "its neighbour, process 2, is not next to it in the process grid") &&
              !strchr(err, '\n'), "error '%s'", err);
}

/* A 2-D stencil of 6 processes whose halos are one MPI_Neighbor_alltoallv: 100 bytes to
 * the neighbours along the first dimension, 10 along the second, in MPI_Dims_create's 3
 * x 2 grid (rank 2 x + y).  No message says so, but the lists' neighbours fit the 2-D
 * grid (3 x 2 x 1 as well, with as many offsets: the fewer dimensions win) and not the
 * 1-D one (0 to 2 is +2); process 2 at (1, 0) has 0 at (-1, 0), 4 at (+1, 0) and 3 at
 * (0, +1): offset codes (dx + 1) 9 + (dy + 1) 3 + 1 = 4, 22 and 16. */
Test(scale_run, a_neighbourhood_collective_s_neighbours_are_offsets_in_the_grid)
{
    const struct pz_scale_event *e;

    read_stencil_of_six(neighbour_call);
    e = event(2, 0, 1);
    cr_assert_eq(e->kind, PZ_REC_COLL_END);
    expect_offsets_of_process_2(e);
}

/* MPI_Cart_create's periodic grid of rows x cols (rank cols x + y) whose processes
 * exchange 100 bytes each way with their neighbours along the first dimension and 10
 * along the second by MPI_Neighbor_alltoallv: along a dimension of 2 the neighbour
 * forward is the one back, and its list entry holds both (200, 20); along one of 1 it
 * is the process itself, twice.  Read, process 0's table is each neighbour's own: 100
 * at (-1, 0) and (+1, 0), offset codes 4 and 22, 10 at (0, -1) and (0, +1), codes 10
 * and 16, nothing at the process itself (13) nor elsewhere. */
static void expect_wrapped_neighbours_split(int rows, int cols)
{
    const uint32_t dims[2] = {(uint32_t)rows, (uint32_t)cols};
    static const int periodic[2] = {1, 1}, world[4] = {0, 1, 2, 3};
    const struct pz_scale_nbr *t;
    const struct pz_scale_event *e;
    int n = rows * cols;
    struct tb *b = trace(n);

    tb_cart(b, tb_comm(b, "cart", n, world), 2, dims, periodic, 1);
    for (int p = 0; p < n; p++) {
        uint64_t bytes[4] = {0};
        int x = p / cols, y = p % cols;

        bytes[((x + 1) % rows) * cols + y] += 200;
        bytes[x * cols + (y + 1) % cols] += 20;
        neighbour_call(b, p, n, bytes);
    }
    read_back(b);
    e = event(0, 0, 1);
    cr_assert_eq(e->peer.kind, PZ_SCALE_PEER_NEIGHBOURS);
    t = &run.procs[0].nbrs[e->peer.rank];
    for (int o = 0; o < PZ_SCALE_OFFSETS; o++) {
        uint64_t want = o == 4 || o == 22 ? 100 : o == 10 || o == 16 ? 10 : 0;

        cr_expect(t->sent[o] == want && t->received[o] == want,
                  "%d x %d, offset %d: %llu/%llu, not %llu", rows, cols, o,
                  (unsigned long long)t->sent[o], (unsigned long long)t->received[o],
                  (unsigned long long)want);
    }
    cr_expect_eq(e->bytes, 220);
    pz_scale_run_free(&run);
    tb_remove(rec);
}

Test(scale_run, a_neighbour_both_ways_round_a_periodic_dimension_is_split_between_them)
{
    expect_wrapped_neighbours_split(2, 2);
    expect_wrapped_neighbours_split(2, 1);
}

/* 5 processes (a count no grid of more than one dimension has) exchange with the ones
 * 2 ranks away round the world: no neighbour is next in the grid, refused in one line
 * saying which. */
Test(scale_run, a_neighbourhood_collective_of_distant_neighbours_is_refused)
{
    expect_distant_ring_of_five_refused(neighbour_call, "MPI_Neighbor_alltoallv");
}

/* The same 2-D stencil of 6 processes with MPI_Ineighbor_alltoallv completed by
 * MPI_Waitall: the completion, one step after its posting, holds the lists, whose
 * neighbours are the same offsets: process 2 at (1, 0) has 100 bytes at codes 4 and 22,
 * 10 at 16 (above), 210 in all. */
Test(scale_run, a_nonblocking_neighbourhood_collective_s_completion_names_its_offsets)
{
    const struct pz_scale_event *e;

    read_stencil_of_six(ineighbour_call);
    expect_call(2, 0, "MPI_Ineighbor_alltoallv", 1);
    expect_call(2, 1, "MPI_Waitall", 1);
    e = event(2, 1, 0);
    cr_assert_eq(e->kind, PZ_REC_NBC_COMPLETE);
    cr_expect_eq(e->posted_by, 1);
    expect_offsets_of_process_2(e);
}

/* 5 processes exchange with the ones 2 ranks away round the world by
 * MPI_Ineighbor_alltoallv and MPI_Waitall: still refused, in one line naming the call
 * whose completion holds the lists and the neighbour that is not next in the grid. */
Test(scale_run, a_nonblocking_neighbourhood_collective_of_distant_neighbours_is_refused)
{
    expect_distant_ring_of_five_refused(ineighbour_call, "MPI_Waitall");
}

/* Two processes start MPI_Ineighbor_alltoallv and complete it with MPI_Waitall, whose
 * record has no per-peer lists to name the neighbours: refused, naming the completing
 * call. */
Test(scale_run, a_nonblocking_neighbourhood_collective_without_lists_is_refused)
{
    struct tb *b = trace(2);
    uint32_t start = tb_mpi(b, "MPI_Ineighbor_alltoallv"), wait = tb_mpi(b, "MPI_Waitall");

    for (int p = 0; p < 2; p++) {
        tb_enter(b, p, MS(1), start);
        tb_nbc_request(b, p, MS(1), 1);
        tb_leave(b, p, MS(2), start);
        tb_enter(b, p, MS(3), wait);
        tb_nbc_complete(b, p, MS(4), OTF2_COLLECTIVE_OP_ALLTOALLV, TB_WORLD, TB_NO_ROOT, 64,
                        64, 1);
        tb_leave(b, p, MS(4), wait);
    }
    cr_assert_eq(tb_close(b), 0);
    cr_expect_eq(pz_scale_run_read(rec, &run, err, sizeof(err)), -1);
    cr_expect(strstr(err, "process 0, MPI_Waitall: a neighbourhood collective") &&
              strstr(err, "lists") && !strchr(err, '\n'), "error '%s'", err);
}

/* A run cut short: process 1's trace ends inside interval 1 (begun at 1 ms, its
 * MPI_Barrier left at 3 ms, nothing after), process 0 ended it at 4 ms.  Refused in
 * one line saying that the recording was cut, naming process 1 and its 1 open interval,
 * not that the recordings differ. */
Test(scale_run, a_recording_cut_short_is_refused_as_such)
{
    struct tb *b = trace(2);
    uint32_t i1 = tb_interval(b, 1, "x.c", 10);

    for (int p = 0; p < 2; p++) {
        tb_enter(b, p, MS(1), i1);
        tb_call(b, p, "MPI_Barrier", MS(2), MS(3));
    }
    tb_leave(b, 0, MS(4), i1);
    cr_assert_eq(tb_close(b), 0);
    cr_expect_eq(pz_scale_run_read(rec, &run, err, sizeof(err)), -1);
    cr_expect(strstr(err, "process 1: its trace ends inside 1 interval(s): the recording was "
                          "cut short") && !strchr(err, '\n'), "error '%s'", err);
}
