/* Partners by rank arithmetic the recordings cannot tell from neighbours in the grid
 * (scale_untold.c, sp_untold_hypercube): a recursive doubling (step i with partner rank
 * XOR 2^i, the reductions of the NAS benchmarks) recorded at 2, 4 and 8 processes, on
 * traces built by hand (trace_builder.h), against a 2-D halo exchange recorded at the same
 * counts and a 3-D one on the grid of MPI_Cart_create.  Expected values are worked out in the comments from the contract's rules
 * (docs/predict.md, "Scaling: the model"). */
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

#define MS TB_MS

TestSuite(scale_hypercube, .init = setup, .fini = cleanup);

/* The program: a process's messages on communicator comm, in order, at nprocs
 * processes. */
typedef void (*program)(struct tb *b, int nprocs, int proc, uint32_t comm, uint32_t interval);

/* Step i of log2(nprocs): a send to rank XOR 2^i tagged i, then a receive from it. */
static void butterfly(struct tb *b, int nprocs, int p, uint32_t comm, uint32_t interval)
{
    uint64_t t = MS(1);

    tb_enter(b, p, t, interval);
    for (int i = 0; (1 << i) < nprocs; i++) {
        uint32_t partner = (uint32_t)(p ^ (1 << i));

        tb_send_call(b, p, "MPI_Send", t + MS(1), t + MS(2), comm, partner, (uint32_t)i);
        tb_recv_call(b, p, "MPI_Recv", t + MS(3), t + MS(4), comm, partner, (uint32_t)i);
        t += MS(4);
    }
    tb_leave(b, p, t + MS(1), interval);
}

/* A halo exchange on MPI_Dims_create's 2-D layout (2 x 1, 2 x 2, 4 x 2; rank = 2 x +
 * y when there are 2 columns), no wrap: to each neighbour north, south, west, east that
 * exists, a send tagged with the direction, then a receive from it. */
static void halo2d(struct tb *b, int nprocs, int p, uint32_t comm, uint32_t interval)
{
    static const int dir[4][2] = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } };
    int cols = nprocs >= 4 ? 2 : 1, rows = nprocs / cols, x = p / cols, y = p % cols;
    uint64_t t = MS(1);

    tb_enter(b, p, t, interval);
    for (uint32_t i = 0; i < 4; i++) {
        int nx = x + dir[i][0], ny = y + dir[i][1];

        if (nx < 0 || nx >= rows || ny < 0 || ny >= cols)
            continue;
        tb_send_call(b, p, "MPI_Send", t + MS(1), t + MS(2), comm,
                     (uint32_t)(nx * cols + ny), i);
        tb_recv_call(b, p, "MPI_Recv", t + MS(3), t + MS(4), comm,
                     (uint32_t)(nx * cols + ny), i);
        t += MS(4);
    }
    tb_leave(b, p, t + MS(1), interval);
}

/* MPI_Dims_create's 3-D layout of 2, 4 or 8 processes. */
static void layout_3d(int nprocs, uint32_t *dims)
{
    dims[0] = 2;
    dims[1] = nprocs >= 4 ? 2 : 1;
    dims[2] = nprocs >= 8 ? 2 : 1;
}

/* A halo exchange on the communicator of MPI_Cart_create's 3-D grid of layout_3d (rank
 * 4 x + 2 y + z at 8), no wrap: to each neighbour that exists, dimension by dimension,
 * down then up, a send tagged 2 d + (0 down, 1 up), then a receive from it. */
static void cart_halo(struct tb *b, int nprocs, int p, uint32_t cart, uint32_t interval)
{
    uint32_t dims[3];
    int c[3];
    uint64_t t = MS(1);

    layout_3d(nprocs, dims);
    c[0] = p / (int)(dims[1] * dims[2]);
    c[1] = p / (int)dims[2] % (int)dims[1];
    c[2] = p % (int)dims[2];
    tb_enter(b, p, t, interval);
    for (int d = 0; d < 3; d++)
        for (int s = 0; s < 2; s++) {
            int nb[3] = { c[0], c[1], c[2] };

            nb[d] += s ? 1 : -1;
            if (nb[d] < 0 || nb[d] >= (int)dims[d])
                continue;
            tb_send_call(b, p, "MPI_Send", t + MS(1), t + MS(2), cart,
                         (uint32_t)((nb[0] * (int)dims[1] + nb[1]) * (int)dims[2] + nb[2]),
                         (uint32_t)(2 * d + s));
            tb_recv_call(b, p, "MPI_Recv", t + MS(3), t + MS(4), cart,
                         (uint32_t)((nb[0] * (int)dims[1] + nb[1]) * (int)dims[2] + nb[2]),
                         (uint32_t)(2 * d + s));
            t += MS(4);
        }
    tb_leave(b, p, t + MS(1), interval);
}

/* The program recorded at 2, 4 and 8 processes (as TOP/NAME2 ...), on the world or,
 * cartesian, on a communicator of every process with layout_3d's topology, not periodic;
 * read in ndims dimensions numbered first_fastest or not (as prognoz scale reads them:
 * in the largest recording's dimensions, and where the model cannot be built so, again
 * with the first dimension fastest); the model built. */
static void model_of(const char *name, program prog, int cartesian, int ndims,
                     int first_fastest, struct st_model *md)
{
    char dirs[3][4200];
    const char *const list[3] = { dirs[0], dirs[1], dirs[2] };

    for (int i = 0; i < 3; i++) {
        int n = 2 << i;
        struct tb *b;
        uint32_t interval, comm = TB_WORLD;

        snprintf(dirs[i], sizeof(dirs[i]), "%s/%s%d", top, name, n);
        cr_assert_not_null(b = tb_open(dirs[i], n), "cannot open a trace in %s", dirs[i]);
        if (cartesian) {
            static const int periodic[3] = { 0, 0, 0 };
            int world[8];
            uint32_t dims[3];

            for (int q = 0; q < n; q++)
                world[q] = q;
            layout_3d(n, dims);
            comm = tb_comm(b, "cart", n, world);
            tb_cart(b, comm, 3, dims, periodic, 1);
        }
        interval = tb_interval(b, 3, "npbish.c", 96);
        for (int p = 0; p < n; p++)
            prog(b, n, p, comm, interval);
        cr_assert_eq(tb_close(b), 0, "cannot write the trace");
    }
    st_model_read(md, list, ndims, first_fastest, err, sizeof(err));
    cr_assert_not_null(md->m, "%s", err);
}

/* Whether m has a note saying text. */
static int note_with(const struct pz_scale_program *m, const char *text)
{
    for (size_t i = 0; i < pz_scale_program_nnotes(m); i++)
        if (strstr(pz_scale_program_note(m, i), text))
            return 1;
    return 0;
}

/* The note of the hypercube, or NULL. */
static const char *hypercube_note(const struct pz_scale_program *m)
{
    for (size_t i = 0; i < pz_scale_program_nnotes(m); i++)
        if (strstr(pz_scale_program_note(m, i), "at most 2 processes in every recording"))
            return pz_scale_program_note(m, i);
    return NULL;
}

/* Process proc's sends at nprocs in the synthesized run: peer * 100 + tag, in order. */
struct sends {
    int proc, n;
    uint32_t to[16];
};

static int no_comms(void *ctx, const struct pz_synth_comm *comms, uint32_t n)
{
    (void)ctx, (void)comms, (void)n;
    return 0;
}

static int keep_sends(void *ctx, int proc, const struct pz_rec *r)
{
    struct sends *k = ctx;

    if (proc == k->proc && r->kind == PZ_REC_SEND && k->n < 16)
        k->to[k->n++] = r->peer * 100 + r->tag;
    return 0;
}

static int by_value(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return (x > y) - (x < y);
}

/* Process proc's sends at nprocs, as a set (the order of steps no recording has one
 * process make together is the template's, not the program's), against want[0..n-1]
 * (peer * 100 + tag, ascending). */
static void expect_sends(const struct pz_scale_program *m, int nprocs, int proc,
                         const uint32_t *want, int n)
{
    struct sends k = { .proc = proc };
    struct pz_scale_sink sink = { no_comms, keep_sends, &k };

    cr_assert_eq(pz_scale_synthesize(m, nprocs, &sink, err, sizeof(err)), 0, "%s", err);
    qsort(k.to, (size_t)k.n, sizeof(uint32_t), by_value);
    cr_assert_eq(k.n, n, "at %d, process %d makes %d sends, expected %d", nprocs, proc, k.n, n);
    for (int i = 0; i < n; i++)
        cr_expect_eq(k.to[i], want[i], "at %d, process %d: send to %u tag %u, expected %u tag %u",
                     nprocs, proc, k.to[i] / 100, k.to[i] % 100, want[i] / 100, want[i] % 100);
}

/* Recorded at 2, 4 and 8, the butterfly's partners are the neighbours of MPI_Dims_create's
 * 3-D layouts 2 x 1 x 1, 2 x 2 x 1 and 2 x 2 x 2 (at 4, 2 x 2 has 4 distinct offsets as
 * 2 x 2 x 1 does, and 4 x 1 does not fit: 0 XOR 2 is 2 ahead; the model's grid has the
 * largest recording's 3 dimensions), and the partners rank XOR 2^i of its stages: the
 * stages are a loop of log2(P) iterations at every count (1, 2, 3), no grid was made by
 * MPI_Cart_create, and the butterfly is taken (scale_xor_law.c), a note saying so in
 * place of the grid's.  At 16 every process makes 4 stages, step i to rank XOR 2^i with
 * tag i: process 0 sends to 1, 2, 4, 8 with tags 0 to 3, process 1 to 0, 3, 5, 9 (the
 * grid's neighbours of 4 x 2 x 2 would have it send to both 0 and 2 with tag 0).  At 64,
 * 6 stages: process 21 (binary 010101) sends to 20, 23, 17, 29, 5, 53 with tags 0 to 5,
 * process 63 to 62, 61, 59, 55, 47, 31. */
Test(scale_hypercube, a_recursive_doubling_at_2_4_8_is_taken_for_one)
{
    static const uint32_t p0_16[] = { 100, 201, 402, 803 };
    static const uint32_t p1_16[] = { 0, 301, 502, 903 };
    static const uint32_t p21_64[] = { 504, 1702, 2000, 2301, 2903, 5305 };
    static const uint32_t p63_64[] = { 3105, 4704, 5503, 5902, 6101, 6200 };
    struct st_model md;

    model_of("bfly", butterfly, 0, 3, 1, &md);
    cr_expect_null(hypercube_note(md.m), "note '%s'", hypercube_note(md.m));
    cr_expect(note_with(md.m, "a butterfly (recursive doubling"), "no note of the butterfly");
    expect_sends(md.m, 16, 0, p0_16, 4);
    expect_sends(md.m, 16, 1, p1_16, 4);
    expect_sends(md.m, 64, 21, p21_64, 6);
    expect_sends(md.m, 64, 63, p63_64, 6);
    st_model_free(&md);
}

/* A 2-D halo exchange recorded at 2, 4 and 8 (2 x 1, 2 x 2, 4 x 2): the first dimension
 * has 4 processes at 8, where its middle processes send both ways, which no partner rank
 * XOR 2^i does: no note.  At 16 (4 x 4, rank 4 x + y) process 5 at (1, 1) sends north to
 * 1 (tag 0), south to 9 (tag 1), west to 4 (tag 2), east to 6 (tag 3). */
Test(scale_hypercube, a_grid_with_a_longer_dimension_is_not_noted)
{
    static const uint32_t p5_16[] = { 100, 402, 603, 901 };
    struct st_model md;

    model_of("halo", halo2d, 0, 2, 0, &md);
    cr_expect_null(hypercube_note(md.m), "note '%s'", hypercube_note(md.m));
    expect_sends(md.m, 16, 5, p5_16, 4);
    st_model_free(&md);
}

/* The same messages as the recursive doubling's, at 2, 4 and 8 (2 x 2 x 2 has one
 * neighbour per dimension), on a grid the program made by MPI_Cart_create: its
 * neighbours are the grid's, and there is no note.  At 16 (4 x 2 x 2, rank 4 x + 2 y + z)
 * process 4 at (1, 0, 0) sends down along x to 0 (tag 0), up to 8 (tag 1), up along y to
 * 6 (tag 3) and along z to 5 (tag 5). */
Test(scale_hypercube, a_grid_made_by_mpi_cart_create_is_not_noted)
{
    static const uint32_t p4_16[] = { 0, 505, 603, 801 };
    struct st_model md;

    model_of("cart", cart_halo, 1, 3, 0, &md);
    cr_expect_null(hypercube_note(md.m), "note '%s'", hypercube_note(md.m));
    expect_sends(md.m, 16, 4, p4_16, 4);
    st_model_free(&md);
}
