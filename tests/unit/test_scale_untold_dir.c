/* Recordings at 2, 4 and 8 processes of a 3-D decomposition (MPI_Dims_create's 2 x 1 x 1,
 * 2 x 2 x 1, 2 x 2 x 2, or MPI_Cart_create's 1 x 1 x 2, 1 x 2 x 2, 2 x 2 x 2 as LAMMPS
 * asks it) extrapolated to counts where the dimensions are longer
 * (replay/scale_guard.c, along_grown_dimension; replay/scale_untold_dir.c): the calls
 * made only where a dimension has more than 1 process are made wherever it has, and
 * along a periodic dimension of 2 processes in every recording, where the lower and the
 * upper neighbour are one process, the sends of one function go first to the lower
 * neighbour, then to the upper, alternately, each receive from the side opposite to the
 * send of its tag of the same rank; the faces along a dimension seen at fewer counts take
 * the law of those along another with the dimensions exchanged (replay/scale_faces.c).
 * Traces built by hand (trace_builder.h); the calls, peers and sizes expected at 12, 16
 * and 27 processes are worked out in the comments. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program.h"
#include "scale_run.h"
#include "trace.h"
#include "model_notes.h"
#include "tempdir_fixture.h"
#include "trace_builder.h"

#define MS TB_MS
#define PASSES 3
#define BYTES 64
#define MAXP 32
#define MAXREC 128

static struct pz_scale_run runs[3];

static void release(void)
{
    for (int i = 0; i < 3; i++)
        pz_scale_run_free(&runs[i]);
    cleanup();
}

TestSuite(scale_untold_dir, .init = setup, .fini = release);

/* The rank of (c[0] + o[0], ...) in a grid of dims, C order (the last dimension
 * fastest, as MPI_Cart_create numbers), around the ends of the periodic dimensions; -1
 * beyond the others. */
static int rank_at(const int *dims, const int *periodic, const int *c, const int *o)
{
    int r = 0;

    for (int d = 0; d < 3; d++) {
        int x = c[d] + o[d];

        if (x < 0 || x >= dims[d]) {
            if (!periodic[d])
                return -1;
            x = (x + dims[d]) % dims[d];
        }
        r = r * dims[d] + x;
    }
    return r;
}

static void coords_of(const int *dims, int p, int *c)
{
    c[2] = p % dims[2];
    c[1] = p / dims[2] % dims[1];
    c[0] = p / (dims[1] * dims[2]);
}

/* --- what a synthesized run sends and receives */

struct record {
    uint8_t kind;
    int peer;
    uint32_t tag;
    uint64_t bytes;
};

struct seen {
    struct record rec[MAXP][MAXREC];
    int n[MAXP];
};

static int no_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    (void)ctx;
    (void)comms;
    (void)n;
    return 0;
}

/* Every send posted (MPI_Send, MPI_Isend) and every receive completed, in order. */
static int keep_message(void *ctx, int proc, const struct pz_rec *rec)
{
    struct seen *s = ctx;

    if (rec->kind != PZ_REC_SEND && rec->kind != PZ_REC_ISEND && rec->kind != PZ_REC_RECV &&
        rec->kind != PZ_REC_IRECV)
        return 0;
    cr_assert_lt(s->n[proc], MAXREC, "too many messages at process %d", proc);
    s->rec[proc][s->n[proc]++] = (struct record){ rec->kind, (int)rec->peer, rec->tag, rec->bytes };
    return 0;
}

static void synthesize(const struct pz_scale_program *m, int nprocs, struct seen *s)
{
    struct pz_scale_sink sink = { no_comms, keep_message, s };

    memset(s, 0, sizeof(*s));
    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
}

static struct pz_scale_program *build(void)
{
    const struct pz_scale_run *list[3] = { &runs[0], &runs[1], &runs[2] };
    struct pz_scale_program *m = pz_scale_program_build(list, 3, 0, err, sizeof(err));

    cr_assert_not_null(m, "%s", err);
    return m;
}

/* --- LAMMPS's swaps */

/* LAMMPS's exchange of atoms with its neighbours (Comm::borders): along each dimension
 * of more than 1 process (none along one of 1: it copies to itself), a swap with the
 * lower neighbour (MPI_Sendrecv sending to it, receiving from the upper) then one with
 * the upper (sending to it, receiving from the lower), PASSES times; on the grid its
 * MPI_Cart_create makes, periodic, the process at (x, y, z) of rank z + nz (y + ny x).
 * With ways 1, the swap with the lower neighbour alone, as LAMMPS's exchange of atoms
 * makes along a dimension of 2 processes (the upper is the same process).  Each swap
 * along dimension d moves bytes[d]. */
static void swaps(struct tb *b, const int *dims, int p, int ways, const uint64_t *bytes)
{
    static const int periodic[3] = { 1, 1, 1 };
    uint32_t sendrecv = tb_mpi(b, "MPI_Sendrecv");
    uint64_t t = MS(1);
    int c[3];

    coords_of(dims, p, c);
    for (int pass = 0; pass < PASSES; pass++)
        for (int d = 0; d < 3; d++)
            for (int way = -1; way <= -1 + 2 * (ways - 1) && dims[d] > 1; way += 2) {
                int o[3] = { 0, 0, 0 }, to, from;

                o[d] = way;
                to = rank_at(dims, periodic, c, o);
                o[d] = -way;
                from = rank_at(dims, periodic, c, o);
                tb_enter(b, p, t += MS(1), sendrecv);
                tb_mpi_send(b, p, t, TB_WORLD, (uint32_t)to, 0, bytes[d]);
                tb_mpi_recv(b, p, t + MS(1), TB_WORLD, (uint32_t)from, 0, bytes[d]);
                tb_leave(b, p, t += MS(2), sendrecv);
            }
}

/* The swaps recorded at 2, 4 and 8 on grids[i] of ndims dimensions (2: the last two of
 * grids[i], its first 1). */
static const uint64_t same_bytes[3][3] = { { BYTES, BYTES, BYTES }, { BYTES, BYTES, BYTES },
                                            { BYTES, BYTES, BYTES } };

static void record_swaps(const uint32_t grids[3][3], int ndims, int ways,
                         const uint64_t bytes[3][3])
{
    static const int counts[3] = { 2, 4, 8 }, periodic[3] = { 1, 1, 1 };
    static const int world[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };

    for (int i = 0; i < 3; i++) {
        int dims[3] = { (int)grids[i][0], (int)grids[i][1], (int)grids[i][2] };
        char dir[4200];
        struct tb *b;

        snprintf(dir, sizeof(dir), "%s/swaps%d", top, counts[i]);
        cr_assert_not_null(b = tb_open(dir, counts[i]), "cannot open a trace in %s", dir);
        tb_cart(b, tb_comm(b, "cart", counts[i], world), ndims, grids[i] + 3 - ndims,
                periodic, 1);
        for (int p = 0; p < counts[i]; p++)
            swaps(b, dims, p, ways, bytes[i]);
        cr_assert_eq(tb_close(b), 0, "cannot write the trace");
        cr_assert_eq(pz_scale_run_read(dir, &runs[i], err, sizeof(err)), 0, "%s", err);
    }
}

/* What process p at (x, y, z) of a grid of dims sends and receives: the program itself
 * (swaps), along every dimension longer than 1. */
static void expect_swaps(const struct seen *s, const int *dims, int p)
{
    static const int periodic[3] = { 1, 1, 1 };
    int c[3], n = 0;

    coords_of(dims, p, c);
    for (int pass = 0; pass < PASSES; pass++)
        for (int d = 0; d < 3; d++)
            for (int way = -1; way <= 1 && dims[d] > 1; way += 2) {
                int o[3] = { 0, 0, 0 };

                o[d] = way;
                cr_assert_lt(n + 1, s->n[p], "process %d makes %d messages", p, s->n[p]);
                cr_expect_eq(s->rec[p][n].kind, PZ_REC_SEND, "process %d, message %d", p, n);
                cr_expect_eq(s->rec[p][n].peer, rank_at(dims, periodic, c, o),
                             "process %d, pass %d, dimension %d: sent to %d", p, pass, d,
                             s->rec[p][n].peer);
                o[d] = -way;
                cr_expect_eq(s->rec[p][n + 1].kind, PZ_REC_RECV, "process %d, message %d", p,
                             n + 1);
                cr_expect_eq(s->rec[p][n + 1].peer, rank_at(dims, periodic, c, o),
                             "process %d, pass %d, dimension %d: received from %d", p, pass,
                             d, s->rec[p][n + 1].peer);
                n += 2;
            }
    cr_expect_eq(s->n[p], n, "process %d makes %d messages, not %d", p, s->n[p], n);
}

/* Recorded at 2, 4 and 8 (1 x 1 x 2, 1 x 2 x 2, 2 x 2 x 2), the swaps along dimension 0
 * are made only at 8 and those along 1 at 4 and 8: calls along a dimension made where it
 * has more than 1 process.  Every dimension is periodic and of at most 2 processes: at 2
 * the lower and upper neighbour are one process, and the recordings show every swap to
 * it.  The directions taken: of the 2 MPI_Sendrecv sends along a dimension per pass, the
 * first to the lower neighbour, the second to the upper (6 per dimension over the 3
 * passes, alternately); the n-th receive (tag 0) from the side opposite to the n-th
 * send: from the upper neighbour, then from the lower.  That is the program.  At 27 (3 x
 * 3 x 3, every neighbour distinct) process p at (x, y, z) makes per pass 6 calls, along x,
 * y then z: sends to (x - 1, y, z) receiving from (x + 1, y, z), then sends to (x + 1, y,
 * z) receiving from (x - 1, y, z) ..., around the ends: process 0 sends first to 18 (2, 0,
 * 0) and receives from 9 (1, 0, 0).  At 12 the grid is laid out smallest side first, as
 * recorded: 2 x 2 x 3, dimension 2 the longer; process 0's swaps along it go to 2 then 1. */
Test(scale_untold_dir, lammps_swaps_at_2_4_8_extrapolate)
{
    static const uint32_t grids[3][3] = { { 1, 1, 2 }, { 1, 2, 2 }, { 2, 2, 2 } };
    static const int at27[3] = { 3, 3, 3 }, at12[3] = { 2, 2, 3 };
    struct pz_scale_program *m;
    struct seen *s = malloc(sizeof(*s));

    cr_assert_not_null(s);
    record_swaps(grids, 3, 2, same_bytes);
    m = build();
    cr_expect(scale_noted(m, "calls made only in recordings where dimension 0 of the process grid "
                       "has more than 1 process") == 1, "no note on dimension 0");
    cr_expect(scale_noted(m, "calls made only in recordings where dimension 1 of the process grid "
                       "has more than 1 process") == 1, "no note on dimension 1");
    cr_expect(scale_noted(m, "the first to the lower neighbour (-1), the next to the upper (+1)") ==
                  3, "not a note per dimension on the directions taken");
    cr_expect(scale_noted(m, "is the only call of its function in its stretch") == 0,
              "a swap is noted alone in its stretch");
    synthesize(m, 27, s);
    for (int p = 0; p < 27; p++)
        expect_swaps(s, at27, p);
    cr_expect_eq(s->rec[0][0].peer, 18, "process 0 sends first to %d", s->rec[0][0].peer);
    cr_expect_eq(s->rec[0][1].peer, 9, "process 0 receives first from %d", s->rec[0][1].peer);
    synthesize(m, 12, s);
    for (int p = 0; p < 12; p++)
        expect_swaps(s, at12, p);
    cr_expect_eq(s->rec[0][8].peer, 2, "process 0 sends along z first to %d",
                 s->rec[0][8].peer);
    cr_expect_eq(s->rec[0][10].peer, 1, "process 0 sends along z second to %d",
                 s->rec[0][10].peer);
    pz_scale_program_free(m);
    free(s);
}

/* The same swaps in 2-D, on LAMMPS's grids 1 x 2, 2 x 2 and 2 x 4 at 2, 4 and 8 (smallest
 * side first): dimension 0 has 1 process at 2 and 2 at 4 and 8, every swap along it at
 * 4 and 8 only, along a periodic dimension of 2 processes in every recording; dimension
 * 1 has 4 at 8, where the recording tells its neighbours apart.  The directions taken
 * along dimension 0 are as in 3-D (above): the program's.  At 16 (4 x 4) process p at
 * (x, y), rank 4 x + y, sends per pass to (x - 1, y) receiving from (x + 1, y), to (x +
 * 1, y) receiving from (x - 1, y), then the same along y: process 0 first to 12, from
 * 4.  At 12 (3 x 4, smallest side first) process 0 first to 8, from 4. */
Test(scale_untold_dir, lammps_swaps_in_2d_at_2_4_8_extrapolate)
{
    static const uint32_t grids[3][3] = { { 1, 1, 2 }, { 1, 2, 2 }, { 1, 2, 4 } };
    static const int at16[3] = { 1, 4, 4 }, at12[3] = { 1, 3, 4 };
    struct pz_scale_program *m;
    struct seen *s = malloc(sizeof(*s));

    cr_assert_not_null(s);
    record_swaps(grids, 2, 2, same_bytes);
    m = build();
    cr_expect(scale_noted(m, "calls made only in recordings where dimension 0 of the process grid "
                       "has more than 1 process") == 1, "no note on dimension 0");
    cr_expect(scale_noted(m, "dimension 0 is periodic and of at most 2 processes in every "
                       "recording") == 1, "no note on the directions along dimension 0");
    synthesize(m, 16, s);
    for (int p = 0; p < 16; p++)
        expect_swaps(s, at16, p);
    cr_expect_eq(s->rec[0][0].peer, 12, "process 0 sends first to %d", s->rec[0][0].peer);
    cr_expect_eq(s->rec[0][1].peer, 4, "process 0 receives first from %d", s->rec[0][1].peer);
    synthesize(m, 12, s);
    for (int p = 0; p < 12; p++)
        expect_swaps(s, at12, p);
    cr_expect_eq(s->rec[0][0].peer, 8, "process 0 sends first to %d", s->rec[0][0].peer);
    pz_scale_program_free(m);
    free(s);
}

/* LAMMPS's exchange of atoms: one swap per dimension of 2 processes, with the lower
 * neighbour, the only MPI_Sendrecv of its stretch along each dimension; the recordings
 * cannot show that the real program swaps with the upper one too where the dimension
 * has more than 2 processes.  A note per dimension says so, and at 27 each process makes
 * the one swap per dimension the recordings show: a send to the lower neighbour, the
 * receive from the upper (process 0: to 18 from 9, to 6 from 3, to 2 from 1). */
Test(scale_untold_dir, a_swap_alone_in_its_stretch_is_noted)
{
    static const uint32_t grids[3][3] = { { 1, 1, 2 }, { 1, 2, 2 }, { 2, 2, 2 } };
    static const int expected[6] = { 18, 9, 6, 3, 2, 1 };
    struct pz_scale_program *m;
    struct seen *s = malloc(sizeof(*s));

    cr_assert_not_null(s);
    record_swaps(grids, 3, 1, same_bytes);
    m = build();
    for (int d = 0; d < 3; d++) {
        char text[128];

        snprintf(text, sizeof(text), "is the only call of its function in its stretch of "
                 "calls along dimension %d", d);
        cr_expect(scale_noted(m, text) == 1, "no note on dimension %d", d);
    }
    synthesize(m, 27, s);
    cr_expect_eq(s->n[0], PASSES * 6, "process 0 makes %d messages", s->n[0]);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(s->rec[0][i].peer, expected[i], "process 0's message %d is with %d", i,
                     s->rec[0][i].peer);
    pz_scale_program_free(m);
    free(s);
}

/* Halos whose sizes are no face's (LAMMPS's, which the data decide), on the grids of
 * the swaps at 2, 4 and 8 (1 x 1 x 2, 1 x 2 x 2, 2 x 2 x 2).  Along z, recorded at all
 * three: 1000, 600 and 400 bytes, 200 + 800 / (dims[0] * dims[1]) exactly (dims[0]
 * dims[1] = 1, 2, 4).  Along y, at 4 and 8 only: 700 and 350 bytes; along x, at 8
 * only: 300.  Every dimension is periodic and of at most 2 processes in every
 * recording: y's and x's sizes take the law of the same swap along the nearest
 * dimension fitted over more recordings, z, its dimensions exchanged and scaled to their
 * size at 8 (where z's law gives 200 + 800 / 4 = 400): along y, 350 / 400 (200 + 800 /
 * (dims[0] * dims[2])) = 175 + 700 / (dims[0] dims[2]); along x, 300 / 400 (200 + 800 /
 * (dims[2] dims[1])) = 150 + 600 / (dims[1] dims[2]).  At 27 (3 x 3 x 3): x 150 + 600 /
 * 9 = 216.7, 217 bytes; y 175 + 700 / 9 = 252.8, 253; z 200 + 800 / 9 = 288.9, 289.
 * (Kept as fitted, x's would stay 300 and y's 350 / 2 of a form in dims[0], 233.) */
Test(scale_untold_dir, halos_along_few_counts_follow_the_nearest_dimension)
{
    static const uint32_t grids[3][3] = { { 1, 1, 2 }, { 1, 2, 2 }, { 2, 2, 2 } };
    static const uint64_t bytes[3][3] = { { 0, 0, 1000 }, { 0, 700, 600 },
                                          { 300, 350, 400 } };
    static const uint64_t at27[3] = { 217, 253, 289 };
    struct pz_scale_program *m;
    struct seen *s = malloc(sizeof(*s));

    cr_assert_not_null(s);
    record_swaps(grids, 3, 2, bytes);
    m = build();
    cr_expect(scale_noted(m, "the sizes of the messages along dimension 0 of the process grid, "
                       "recorded at fewer counts") == 1, "no note on dimension 0's sizes");
    cr_expect(scale_noted(m, "the sizes of the messages along dimension 1 of the process grid, "
                       "recorded at fewer counts") == 1, "no note on dimension 1's sizes");
    synthesize(m, 27, s);
    for (int p = 0; p < 27; p++) {
        cr_assert_eq(s->n[p], PASSES * 12, "process %d makes %d messages", p, s->n[p]);
        for (int i = 0; i < s->n[p]; i++)
            cr_expect_eq(s->rec[p][i].bytes, at27[i % 12 / 4],
                         "process %d, message %d: %llu bytes, not %llu", p, i,
                         (unsigned long long)s->rec[p][i].bytes,
                         (unsigned long long)at27[i % 12 / 4]);
    }
    pz_scale_program_free(m);
    free(s);
}

/* --- halo3d's faces */

/* The bytes of a face along dimension d of a block of SIDE^3 doubles split over dims: 8
 * times the block's sides along the two other dimensions. */
#define SIDE 24
static uint64_t face_bytes(const int *dims, int d)
{
    return 8u * (uint64_t)(SIDE / dims[(d + 1) % 3]) * (uint64_t)(SIDE / dims[(d + 2) % 3]);
}

/* halo3d's exchange, on MPI_Dims_create's grids (2 x 1 x 1, 2 x 2 x 1, 2 x 2 x 2 at 2, 4,
 * 8), periodic along dimension 0 only: for each dimension d and side s (0 below, 1
 * above) whose neighbour exists, MPI_Irecv from it with tag 2d + s and MPI_Isend to it
 * with tag 2d + 1 - s, each a face of a block of SIDE^3 doubles (face_bytes), then one
 * MPI_Waitall; PASSES times.  (halo3d itself calls
 * MPI_PROC_NULL where a neighbour does not exist; this one skips the call, so that along
 * dimensions 1 and 2, of 1 process at 2, there are no calls.)  Its MPI_Cart_create's
 * topology is recorded, which says the grid and that dimension 0 wraps around. */
static void faces(struct tb *b, const int *dims, int p)
{
    static const int periodic[3] = { 1, 0, 0 };
    uint32_t irecv = tb_mpi(b, "MPI_Irecv"), isend = tb_mpi(b, "MPI_Isend");
    uint32_t waitall = tb_mpi(b, "MPI_Waitall");
    uint64_t t = MS(1), req = 1;
    int c[3];

    coords_of(dims, p, c);
    for (int pass = 0; pass < PASSES; pass++) {
        struct { uint64_t req, bytes; int recv, peer; uint32_t tag; } posted[12];
        int n = 0;

        for (int d = 0; d < 3; d++)
            for (int side = 0; side < 2; side++) {
                int o[3] = { 0, 0, 0 }, q;

                o[d] = side ? 1 : -1;
                if ((q = rank_at(dims, periodic, c, o)) < 0)
                    continue;
                tb_enter(b, p, t += MS(1), irecv);
                tb_mpi_irecv_request(b, p, t, req);
                tb_leave(b, p, t += MS(1), irecv);
                posted[n].req = req++, posted[n].recv = 1, posted[n].peer = q;
                posted[n].bytes = face_bytes(dims, d);
                posted[n++].tag = (uint32_t)(2 * d + side);
                tb_enter(b, p, t += MS(1), isend);
                tb_mpi_isend(b, p, t, TB_WORLD, (uint32_t)q, (uint32_t)(2 * d + 1 - side),
                             face_bytes(dims, d), req);
                tb_leave(b, p, t += MS(1), isend);
                posted[n].req = req++, posted[n++].recv = 0;
            }
        tb_enter(b, p, t += MS(1), waitall);
        for (int i = 0; i < n; i++)
            if (posted[i].recv)
                tb_mpi_irecv(b, p, t, TB_WORLD, (uint32_t)posted[i].peer, posted[i].tag,
                             posted[i].bytes, posted[i].req);
            else
                tb_mpi_isend_complete(b, p, t, posted[i].req);
        tb_leave(b, p, t += MS(1), waitall);
    }
}

/* Recorded at 2, 4 and 8, dimension 0 is periodic and of 2 processes in every recording:
 * the MPI_Isend sends along it, per pass, go first to the lower neighbour, then to the
 * upper: the first (tag 1) to x - 1, the second (tag 0) to x + 1; the receive of tag 0
 * mirrors the send of tag 0 (to x + 1): from x - 1; that of tag 1 from x + 1.  That is
 * the program.  At 16 (4 x 2 x 2: dimension 0 of 4, around its ends; 1 and 2 of 2, not
 * periodic, every process with one neighbour along each) process p at (x, y, z) makes per
 * pass: an MPI_Isend to (x - 1, y, z) tagged 1 and one to (x + 1, y, z) tagged 0, one to
 * its neighbour along y tagged 3 if it is below it (y = 1), 2 if above (y = 0), the same
 * along z with 5 and 4; and receives from (x - 1) with tag 0, from (x + 1) with 1, from
 * the neighbour along y with 2 if below, 3 if above, along z 4 and 5.  Process 0 at (0,
 * 0, 0): sends to 12 (tag 1) and 4 (tag 0), to 2 (tag 2) and 1 (tag 4).
 * The faces: along x recorded at 2, 4 and 8, 8 * 24 * 24, 8 * 12 * 24, 8 * 12 * 12 =
 * 4608, 2304, 1152 bytes, c / (dims[1] * dims[2]) with c = 4608; along y at 4 and 8 only,
 * 2304 and 1152, where dims[0] is 2 in both (c / dims[2] fits too), along z at 8 only,
 * 1152.  The law along x with the dimensions exchanged gives them: 4608 / (dims[0] *
 * dims[2]) along y, 4608 / (dims[0] * dims[1]) along z.  At 16 (4 x 2 x 2): 4608 / 4 =
 * 1152 bytes along x (8 * 12 * 12), 4608 / 8 = 576 along y and z (8 * 6 * 12), sent and
 * received: face_bytes at 4 x 2 x 2.  (Kept as recorded, z's would be 1152, and y's by
 * c / dims[2] 1152 too.) */
Test(scale_untold_dir, halo3d_faces_at_2_4_8_extrapolate)
{
    static const int counts[3] = { 2, 4, 8 }, grids[3][3] = { { 2, 1, 1 }, { 2, 2, 1 },
                                                               { 2, 2, 2 } };
    static const int at16[3] = { 4, 2, 2 }, periodic[3] = { 1, 0, 0 };
    static const int world[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    struct pz_scale_program *m;
    struct seen *s = malloc(sizeof(*s));

    cr_assert_not_null(s);
    for (int i = 0; i < 3; i++) {
        uint32_t dims[3] = { (uint32_t)grids[i][0], (uint32_t)grids[i][1],
                             (uint32_t)grids[i][2] };
        char dir[4200];
        struct tb *b;

        snprintf(dir, sizeof(dir), "%s/faces%d", top, counts[i]);
        cr_assert_not_null(b = tb_open(dir, counts[i]), "cannot open a trace in %s", dir);
        tb_cart(b, tb_comm(b, "cart", counts[i], world), 3, dims, periodic, 1);
        for (int p = 0; p < counts[i]; p++)
            faces(b, grids[i], p);
        cr_assert_eq(tb_close(b), 0, "cannot write the trace");
        cr_assert_eq(pz_scale_run_read(dir, &runs[i], err, sizeof(err)), 0, "%s", err);
    }
    m = build();
    cr_expect(scale_noted(m, "dimension 0 is periodic and of at most 2 processes in every "
                       "recording") == 1, "no note on dimension 0");
    cr_expect(scale_noted(m, "the sizes of the messages along dimension 2 of the process grid") ==
                  1, "no note on the faces along dimension 2");
    synthesize(m, 16, s);
    for (int p = 0; p < 16; p++) {
        int c[3], sent = 0, received = 0;

        coords_of(at16, p, c);
        for (int d = 0; d < 3; d++)
            for (int side = 0; side < 2; side++) {
                int o[3] = { 0, 0, 0 }, q, send = 0, recv = 0;

                o[d] = side ? 1 : -1;
                if ((q = rank_at(at16, periodic, c, o)) < 0)
                    continue;
                for (int i = 0; i < s->n[p]; i++) {
                    const struct record *r = &s->rec[p][i];

                    send += r->kind == PZ_REC_ISEND && r->peer == q &&
                            r->tag == (uint32_t)(2 * d + 1 - side) &&
                            r->bytes == face_bytes(at16, d);
                    recv += r->kind == PZ_REC_IRECV && r->peer == q &&
                            r->tag == (uint32_t)(2 * d + side) &&
                            r->bytes == face_bytes(at16, d);
                }
                cr_expect_eq(send, PASSES, "process %d sends %d times to %d tagged %d", p,
                             send, q, 2 * d + 1 - side);
                cr_expect_eq(recv, PASSES, "process %d receives %d times from %d tagged %d",
                             p, recv, q, 2 * d + side);
                sent += send;
                received += recv;
            }
        cr_expect_eq(sent + received, s->n[p], "process %d makes %d messages, %d expected",
                     p, s->n[p], sent + received);
    }
    cr_expect_eq(s->rec[0][0].peer, 12, "process 0 sends first to %d", s->rec[0][0].peer);
    cr_expect_eq(s->rec[0][0].tag, 1u, "process 0's first send is tagged %u",
                 s->rec[0][0].tag);
    pz_scale_program_free(m);
    free(s);
}
