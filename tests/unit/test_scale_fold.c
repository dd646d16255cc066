/* Time steps whose two halves end with the call they begin with, folded into loops
 * (replay/scale_fold.c): a molecular dynamics code shaped like LAMMPS on a periodic grid
 * of MPI_Dims_create's layout (the last dimension fastest), recorded by hand
 * (trace_builder.h) in 2-D at 9, 12 and 16 processes (3 x 3, 4 x 3, 4 x 4) and in 3-D
 * at 27, 36 and 48 (3 x 3 x 3, 4 x 3 x 3, 4 x 4 x 3), synthesized at those counts and
 * at 25 and 36 in 2-D (5 x 5, 6 x 6), 64 in 3-D (4 x 4 x 4), and compared, process by
 * process, with the calls the program makes there.
 *
 * The program, per process, nb(d, s) its neighbour at s = -1 or +1 along dimension d:
 *   swap(d, s):  MPI_Irecv; MPI_Send to nb(d, s); MPI_Wait receiving from nb(d, -s)
 *   sr(d, s):    MPI_Sendrecv sending to nb(d, s), receiving from nb(d, -s)
 *   S_d = swap(d, -1) swap(d, +1): X, Y, Z along dimensions 0, 1, 2
 *   forward F = X Y (Z); reverse R = (Z) Y X (LAMMPS's reverse communication makes the
 *     swaps in the opposite order, each receiving from where the forward one sent:
 *     swap(d, +1) reversed sends to -1 and receives from +1, which is swap(d, -1))
 *   exchange E = sr(d, -1) sr(d, +1) S_d for each dimension d (counts, then atoms)
 *   borders B = sr(d, s) swap(d, s) for each dimension d and s = -1, +1
 *   T = MPI_Allreduce (thermodynamic output)
 *   the run: E B R T, then steps 1 to `steps`, each E B where the step is a multiple of
 *     `rebuild` (the neighbour lists rebuilt), else F, then R; then T.
 * Folding the shortest repeats first makes x x (and z z in 3-D) across every two time
 * steps (R ends with X, F begins with it), whose phase then differs where E comes.  With
 * 10 steps rebuilt every 4th, an inner loop of X ran twice at every pass but the last
 * before E, where it ran once, and the model synthesized it twice: 327 and 489 calls per
 * process where the program makes 326 and 488, the first difference at step 4 (an
 * MPI_Irecv where the program calls MPI_Sendrecv).  With 110 steps rebuilt every 20th,
 * as LAMMPS's recordings were made, the 3-D recordings were refused as LAMMPS's were
 * ("MPI_Sendrecv where the other processes and recordings make MPI_Irecv"); in 2-D,
 * folded widest first, the 10 steps after the last exchange were folded in that phase
 * (the repeat of whole steps there began inside the loop of the 5 periods before it, and
 * x x and y y were folded instead), one call too many per process.
 *
 * Calls per process, at every count, in D dimensions, n steps of which r rebuild: swap
 * 3, sr 1, S_d 6; F and R 6 D, E and B 8 D (2 sr and 2 swaps per dimension), T 1.  The
 * setup E B R T is 22 D + 1, each step E B R 22 D, each step F R 12 D, the last T 1:
 * 22 D + 1 + 22 D r + 12 D (n - r) + 1 (calls()); 326 in 2-D and 488 in 3-D for 10 steps
 * (r = 2), 2786 and 4178 for 110 (r = 5).  Each process's items (struct item) are its
 * calls, a send and a receive in each swap (2 D in each of E, B, R and F: 6 D in the
 * setup and in each step E B R, 4 D in each step F R) and in each sr (2 D in each of E
 * and B: 4 D in the setup and in each step E B R), and the end of each MPI_Allreduce
 * (items()): 576 in 2-D and 862 in 3-D for 10 steps. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program.h"
#include "scale_run.h"
#include "scale_traces.h"
#include "trace.h"
#include "tempdir_fixture.h"
#include "trace_builder.h"

#define ATOMS 240     /* bytes of a swap's message */
#define COUNT 4       /* bytes of a count */
#define MAX_ITEMS 8192

TestSuite(scale_fold, .init = setup, .fini = cleanup);

/* What a process does, item by item: a call (its name), or a message it sends or
 * receives (kind, the peer's world rank, bytes), or the end of a collective. */
struct item {
    uint8_t kind;              /* PZ_REC_ENTER, _SEND, _RECV, _IRECV, _COLL_END */
    const char *name;          /* ENTER */
    uint32_t peer;
    uint64_t bytes;
};

/* Where the program's calls go: a trace being written (b), or the list of what the
 * process does (items), or both. */
struct out {
    struct tb *b;
    int proc;
    uint64_t t, request;
    int ndims, dims[3];        /* MPI_Dims_create's layout, or its factors increasing */
    int steps, rebuild;        /* the time steps, the lists rebuilt every rebuild-th */
    struct item *items;
    int n;
};

static void item(struct out *o, uint8_t kind, const char *name, uint32_t peer, uint64_t bytes)
{
    cr_assert(o->n < MAX_ITEMS, "more than %d items", MAX_ITEMS);
    o->items[o->n++] = (struct item){kind, name, peer, bytes};
}

/* The world rank of the neighbour at s along dimension d (the last dimension fastest). */
static uint32_t nb(const struct out *o, int d, int s)
{
    int c[3], r = o->proc, rank = 0;

    for (int i = o->ndims; i-- > 0;) {
        c[i] = r % o->dims[i];
        r /= o->dims[i];
    }
    c[d] = (c[d] + s + o->dims[d]) % o->dims[d];
    for (int i = 0; i < o->ndims; i++)
        rank = rank * o->dims[i] + c[i];
    return (uint32_t)rank;
}

static uint32_t enter(struct out *o, const char *name)
{
    uint32_t region = o->b ? tb_mpi(o->b, name) : 0;

    item(o, PZ_REC_ENTER, name, 0, 0);
    if (o->b)
        tb_enter(o->b, o->proc, o->t += TB_MS(1), region);
    return region;
}

static void leave(struct out *o, uint32_t region)
{
    if (o->b)
        tb_leave(o->b, o->proc, o->t += TB_MS(1), region);
}

static void swap(struct out *o, int d, int s)
{
    uint32_t to = nb(o, d, s), from = nb(o, d, -s), r;
    uint64_t req = ++o->request;

    r = enter(o, "MPI_Irecv");
    if (o->b)
        tb_mpi_irecv_request(o->b, o->proc, o->t, req);
    leave(o, r);
    r = enter(o, "MPI_Send");
    item(o, PZ_REC_SEND, NULL, to, ATOMS);
    if (o->b)
        tb_mpi_send(o->b, o->proc, o->t, TB_WORLD, to, 0, ATOMS);
    leave(o, r);
    r = enter(o, "MPI_Wait");
    item(o, PZ_REC_IRECV, NULL, from, ATOMS);
    if (o->b)
        tb_mpi_irecv(o->b, o->proc, o->t, TB_WORLD, from, 0, ATOMS, req);
    leave(o, r);
}

static void sr(struct out *o, int d, int s)
{
    uint32_t to = nb(o, d, s), from = nb(o, d, -s), r = enter(o, "MPI_Sendrecv");

    item(o, PZ_REC_SEND, NULL, to, COUNT);
    item(o, PZ_REC_RECV, NULL, from, COUNT);
    if (o->b) {
        tb_mpi_send(o->b, o->proc, o->t, TB_WORLD, to, 0, COUNT);
        tb_mpi_recv(o->b, o->proc, o->t + TB_MS(1), TB_WORLD, from, 0, COUNT);
    }
    o->t += TB_MS(1);
    leave(o, r);
}

static void swaps(struct out *o, int d)
{
    swap(o, d, -1);
    swap(o, d, 1);
}

static void exchange(struct out *o)
{
    for (int d = 0; d < o->ndims; d++) {
        sr(o, d, -1);
        sr(o, d, 1);
        swaps(o, d);
    }
}

static void borders(struct out *o)
{
    for (int d = 0; d < o->ndims; d++)
        for (int s = -1; s <= 1; s += 2) {
            sr(o, d, s);
            swap(o, d, s);
        }
}

static void forward(struct out *o)
{
    for (int d = 0; d < o->ndims; d++)
        swaps(o, d);
}

static void reverse(struct out *o)
{
    for (int d = o->ndims; d-- > 0;)
        swaps(o, d);
}

static void thermo(struct out *o)
{
    uint32_t r = enter(o, "MPI_Allreduce");

    item(o, PZ_REC_COLL_END, NULL, 0, 8);
    if (o->b) {
        tb_collective_begin(o->b, o->proc, o->t);
        tb_collective_end(o->b, o->proc, o->t + TB_MS(1), OTF2_COLLECTIVE_OP_ALLREDUCE,
                          TB_WORLD, TB_NO_ROOT, 8, 8);
    }
    o->t += TB_MS(1);
    leave(o, r);
}

static void run(struct out *o)
{
    exchange(o);
    borders(o);
    reverse(o);
    thermo(o);
    for (int step = 1; step <= o->steps; step++) {
        if (step % o->rebuild == 0) {
            exchange(o);
            borders(o);
        } else {
            forward(o);
        }
        reverse(o);
    }
    thermo(o);
}

/* MPI_Dims_create's layout of the counts used here in ndims dimensions, or (ascending)
 * its factors in increasing order, as LAMMPS lays out a cubic box (3 x 4 at 12). */
static void layout(struct out *o, int nprocs, int ndims, int ascending)
{
    static const int two[][3] = {{9, 3, 3}, {12, 4, 3}, {16, 4, 4}, {24, 6, 4}, {25, 5, 5},
                                 {36, 6, 6}};
    static const int three[][4] = {{27, 3, 3, 3}, {36, 4, 3, 3}, {48, 4, 4, 3}, {64, 4, 4, 4},
                                   {96, 6, 4, 4}};
    static const int two_up[][3] = {{9, 3, 3}, {12, 3, 4}, {16, 4, 4}, {24, 4, 6}};
    static const int three_up[][4] = {{27, 3, 3, 3}, {36, 3, 3, 4}, {48, 3, 4, 4},
                                      {96, 4, 4, 6}};
    const int(*t2)[3] = ascending ? two_up : two;
    const int(*t3)[4] = ascending ? three_up : three;
    size_t n2 = ascending ? sizeof(two_up) / sizeof(two_up[0]) : sizeof(two) / sizeof(two[0]);
    size_t n3 = ascending ? sizeof(three_up) / sizeof(three_up[0])
                          : sizeof(three) / sizeof(three[0]);

    o->ndims = ndims;
    for (size_t i = 0; ndims == 2 && i < n2; i++)
        if (t2[i][0] == nprocs)
            memcpy(o->dims, t2[i] + 1, 2 * sizeof(int));
    for (size_t i = 0; ndims == 3 && i < n3; i++)
        if (t3[i][0] == nprocs)
            memcpy(o->dims, t3[i] + 1, 3 * sizeof(int));
}

/* The calls of each process of the program in ndims dimensions, for steps steps rebuilt
 * every rebuild-th (above). */
static int calls(int ndims, int steps, int rebuild)
{
    int r = steps / rebuild;

    return 22 * ndims + 1 + 22 * ndims * r + 12 * ndims * (steps - r) + 1;
}

/* Its items: calls, and 2 per swap, 2 per sr, 1 per MPI_Allreduce (above). */
static int items(int ndims, int steps, int rebuild)
{
    int r = steps / rebuild, swaps = 6 * ndims * (1 + r) + 4 * ndims * (steps - r),
        srs = 4 * ndims * (1 + r);

    return calls(ndims, steps, rebuild) + 2 * swaps + 2 * srs + 2;
}

/* A program: its dimensions, time steps and rebuilds; whether it lays its grid out
 * smallest side first and defines it by MPI_Cart_create (on which it sends nothing). */
struct shape {
    int ndims, steps, rebuild, ascending;
};

/* What process proc does at nprocs, into o (o->items: MAX_ITEMS). */
static void expected(struct out *o, const struct shape *h, int nprocs, int proc)
{
    o->b = NULL;
    o->proc = proc;
    o->n = 0;
    o->steps = h->steps;
    o->rebuild = h->rebuild;
    layout(o, nprocs, h->ndims, h->ascending);
    run(o);
}

/* The grid as MPI_Cart_create's topology of a communicator of every process in the
 * world's order, periodic in every dimension. */
static void define_grid(struct out *o, int nprocs)
{
    static const int periodic[3] = {1, 1, 1};
    uint32_t dims[3];
    int world[96];

    cr_assert_leq(nprocs, 96);
    for (int p = 0; p < nprocs; p++)
        world[p] = p;
    for (int d = 0; d < o->ndims; d++)
        dims[d] = (uint32_t)o->dims[d];
    tb_cart(o->b, tb_comm(o->b, "cart", nprocs, world), o->ndims, dims, periodic, 1);
}

static void record(const char *dir, const struct shape *h, int nprocs)
{
    struct item *v = malloc(MAX_ITEMS * sizeof(*v));
    struct out o = {.b = tb_open(dir, nprocs), .items = v, .steps = h->steps,
                    .rebuild = h->rebuild};

    cr_assert_not_null(o.b, "cannot open a trace in %s", dir);
    layout(&o, nprocs, h->ndims, h->ascending);
    if (h->ascending)
        define_grid(&o, nprocs);
    for (int p = 0; p < nprocs; p++) {
        o.proc = p;
        o.t = 0;
        o.request = 0;
        o.n = 0;
        run(&o);
    }
    cr_assert_eq(tb_close(o.b), 0, "cannot write the trace");
    free(v);
}

/* The synthesized run, checked as it streams: each process's records of the kinds
 * struct item has against what the program does there. */
struct check {
    const struct pz_scale_run *names;    /* the recording the regions refer to */
    const struct shape *h;
    int nprocs, proc, at, calls, wrong;
    struct out want;
    char first[256];
};

static int no_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    (void)ctx, (void)comms, (void)n;
    return 0;
}

static void differs(struct check *k, const char *what)
{
    if (!k->wrong++)
        snprintf(k->first, sizeof(k->first), "at %d, process %d, item %d: %s", k->nprocs,
                 k->proc, k->at, what);
}

static void finish(struct check *k)
{
    if (k->proc >= 0 && k->at != k->want.n)
        differs(k, "ends early");
}

static int check_record(void *ctx, int proc, const struct pz_rec *r)
{
    struct check *k = ctx;
    const struct item *w;

    if (r->kind != PZ_REC_ENTER && r->kind != PZ_REC_SEND && r->kind != PZ_REC_RECV &&
        r->kind != PZ_REC_IRECV && r->kind != PZ_REC_COLL_END)
        return 0;
    if (proc != k->proc) {
        finish(k);
        k->proc = proc;
        k->at = 0;
        expected(&k->want, k->h, k->nprocs, proc);
    }
    if (k->at >= k->want.n) {
        differs(k, "more records than calls");
        return 0;
    }
    w = &k->want.items[k->at++];
    if (r->kind != w->kind)
        differs(k, "another kind of record");
    else if (r->kind == PZ_REC_ENTER && strcmp(k->names->names[r->region], w->name))
        differs(k, k->names->names[r->region]);
    else if (r->kind != PZ_REC_ENTER && r->kind != PZ_REC_COLL_END && r->peer != w->peer)
        differs(k, "another peer");
    else if (r->kind != PZ_REC_ENTER && r->bytes != w->bytes)
        differs(k, "another size");
    k->calls += r->kind == PZ_REC_ENTER;
    return 0;
}

static void expect_run(const struct st_model *md, const struct shape *h, int nprocs)
{
    struct check k = {.names = md->list[2], .h = h, .nprocs = nprocs, .proc = -1,
                      .want.items = malloc(MAX_ITEMS * sizeof(struct item))};
    struct pz_scale_sink sink = {no_comms, check_record, &k};
    int want = calls(h->ndims, h->steps, h->rebuild);

    cr_assert_eq(pz_scale_synthesize(md->m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    finish(&k);
    cr_expect_eq(k.wrong, 0, "%d records differ, the first %s", k.wrong, k.first);
    cr_expect_eq(k.calls, nprocs * want, "at %d, %d calls, expected %d per process", nprocs,
                 k.calls, want);
    free(k.want.items);
}

/* The program recorded at counts[0..2], its model built and synthesized at the counts
 * of at[0..nat-1], every process checked. */
static void expect_model(const struct shape *h, const int *counts, const int *at, size_t nat)
{
    char dirs[3][4200];
    const char *const list[3] = {dirs[0], dirs[1], dirs[2]};
    struct st_model md;

    for (int i = 0; i < 3; i++) {
        snprintf(dirs[i], sizeof(dirs[i]), "%s/md%d", top, counts[i]);
        record(dirs[i], h, counts[i]);
    }
    st_model_read(&md, list, 0, 0, err, sizeof(err));
    cr_assert_not_null(md.m, "%s", err);
    for (size_t i = 0; i < nat; i++)
        expect_run(&md, h, at[i]);
    st_model_free(&md);
}

/* Process proc's items at nprocs: items() of them, the first MPI_Sendrecv sending to
 * first_to and receiving from first_from, the last swap (of X at the end of the last
 * step's R) sending to last_to and receiving from last_from, then the MPI_Allreduce. */
static void expect_items(const struct shape *h, int nprocs, int proc, uint32_t first_to,
                         uint32_t first_from, uint32_t last_to, uint32_t last_from)
{
    struct item *v = malloc(MAX_ITEMS * sizeof(*v));
    struct out o = {.items = v};

    expected(&o, h, nprocs, proc);
    cr_assert_eq(o.n, items(h->ndims, h->steps, h->rebuild));
    cr_expect(!strcmp(v[0].name, "MPI_Sendrecv") && v[1].kind == PZ_REC_SEND &&
              v[1].peer == first_to && v[2].kind == PZ_REC_RECV && v[2].peer == first_from);
    cr_expect(v[o.n - 5].kind == PZ_REC_SEND && v[o.n - 5].peer == last_to &&
              v[o.n - 3].kind == PZ_REC_IRECV && v[o.n - 3].peer == last_from &&
              !strcmp(v[o.n - 2].name, "MPI_Allreduce"));
    free(v);
}

static const int recorded2[3] = {9, 12, 16}, at2[] = {9, 12, 16, 25, 36};
static const int recorded3[3] = {27, 36, 48}, at3[] = {27, 36, 48, 64};

/* In 2-D, 10 steps: 326 calls and 576 items per process.  At 25 (5 x 5, rank 5 x + y),
 * process 0 at (0, 0) first sends its count to (4, 0), rank 20, and receives from
 * (1, 0), rank 5; its last swap, swap(0, +1), sends to (1, 0), rank 5, and receives
 * from (4, 0), rank 20.  At 36 (6 x 6) process 7 at (1, 1) first sends to (0, 1), rank
 * 1, receives from (2, 1), rank 13, and last sends to 13 and receives from 1.  The model
 * is built, and every process at every count makes the calls of the program, each
 * message to and from its neighbours there with its size. */
Test(scale_fold, time_steps_whose_halves_end_as_they_begin_2d)
{
    static const struct shape h = {2, 10, 4, 0};

    cr_assert_eq(calls(2, 10, 4), 326);
    cr_assert_eq(items(2, 10, 4), 576);
    expect_items(&h, 25, 0, 20, 5, 5, 20);
    expect_items(&h, 36, 7, 1, 13, 13, 1);
    expect_model(&h, recorded2, at2, sizeof(at2) / sizeof(at2[0]));
}

/* In 3-D, 10 steps: 488 calls and 862 items per process.  At 64 (4 x 4 x 4, rank 16 x +
 * 4 y + z), process 0 at (0, 0, 0) first sends to (3, 0, 0), rank 48, and receives from
 * (1, 0, 0), rank 16; last, to 16 and from 48.  Process 21 at (1, 1, 1) first sends to
 * (0, 1, 1), rank 5, receives from (2, 1, 1), rank 37; last, to 37 and from 5.  At 36
 * (4 x 3 x 3, rank 9 x + 3 y + z) process 13 at (1, 1, 1) first sends to (0, 1, 1),
 * rank 4, and receives from (2, 1, 1), rank 22. */
Test(scale_fold, time_steps_whose_halves_end_as_they_begin_3d)
{
    static const struct shape h = {3, 10, 4, 0};

    cr_assert_eq(calls(3, 10, 4), 488);
    cr_assert_eq(items(3, 10, 4), 862);
    expect_items(&h, 64, 0, 48, 16, 16, 48);
    expect_items(&h, 64, 21, 5, 37, 37, 5);
    expect_items(&h, 36, 13, 4, 22, 22, 4);
    expect_model(&h, recorded3, at3, sizeof(at3) / sizeof(at3[0]));
}

/* 110 steps rebuilt every 20th, as LAMMPS's recordings were made (r = 5): 2786 calls
 * per process in 2-D, 4178 in 3-D, the peers as above. */
Test(scale_fold, a_hundred_and_ten_steps_rebuilt_every_twentieth_2d)
{
    static const struct shape h = {2, 110, 20, 0};

    cr_assert_eq(calls(2, 110, 20), 2786);
    expect_items(&h, 25, 0, 20, 5, 5, 20);
    expect_model(&h, recorded2, at2, sizeof(at2) / sizeof(at2[0]));
}

Test(scale_fold, a_hundred_and_ten_steps_rebuilt_every_twentieth_3d)
{
    static const struct shape h = {3, 110, 20, 0};

    cr_assert_eq(calls(3, 110, 20), 4178);
    expect_items(&h, 64, 21, 5, 37, 37, 5);
    expect_model(&h, recorded3, at3, sizeof(at3) / sizeof(at3[0]));
}

/* Laid out smallest side first (3 x 4 at 12, 3 x 3 x 4 at 36, 3 x 4 x 4 at 48) and
 * defined by MPI_Cart_create, as LAMMPS does: every count synthesized is laid out so,
 * where MPI_Dims_create's order differs (4 x 6 at 24, 4 x 4 x 6 at 96).  At 24 (rank
 * 6 x + y) process 0 first sends its count to (3, 0), rank 18, and receives from (1, 0),
 * rank 6; in MPI_Dims_create's 6 x 4 it would send to rank 20 and receive from 4.  At 96
 * (rank 24 x + 6 y + z) process 0 sends to (3, 0, 0), rank 72, and receives from
 * (1, 0, 0), rank 24. */
Test(scale_fold, a_grid_laid_out_smallest_side_first_stays_so)
{
    static const struct shape h2 = {2, 10, 4, 1}, h3 = {3, 10, 4, 1};
    static const int at2_up[] = {9, 12, 16, 24}, at3_up[] = {27, 36, 48, 96};

    expect_items(&h2, 24, 0, 18, 6, 6, 18);
    expect_items(&h3, 96, 0, 72, 24, 24, 72);
    expect_model(&h2, recorded2, at2_up, sizeof(at2_up) / sizeof(at2_up[0]));
    expect_model(&h3, recorded3, at3_up, sizeof(at3_up) / sizeof(at3_up[0]));
}
