/* nasshapes: the communication shapes of the NAS Parallel Benchmarks MG, FT, EP and BT/SP
 * (MPI versions) that npbish.c does not imitate, written as those codes are: every process
 * grid is computed by the program's own arithmetic (no MPI_Cart_create).  One shape per run:
 *
 *   m  NPB MG: P = 2^k processes in a PX x PY x PZ grid, PX = 2^(k/3),
 *      PY = 2^((k - k/3)/2), PZ = P / (PX PY), rank = x + PX (y + PY z), periodic.  A V-cycle
 *      over the levels of an N^3 grid (N, N/2, ... down to 2 points a side): at each level,
 *      down then up, the faces are exchanged with the 6 neighbours, axis by axis (MPI_Irecv
 *      from both, MPI_Send to both, MPI_Wait on both; a neighbour may be the process itself),
 *      a face of (local extent)^2 doubles, a quarter of the level above's; on a level with
 *      fewer points along an axis than processes, only every S-th process along it
 *      (S = processes / points) holds a point, exchanges with the S-th next one, and the
 *      others have no work; then the residual's norms: MPI_Allreduce of a sum and of a max;
 *   f  NPB FT's 2-D layout: P = 2^k, NP1 = 2^(k/2) rows, NP2 = P / NP1, MPI_Comm_split of
 *      the world into rows (colour rank / NP2) and columns (colour rank % NP2); each
 *      iteration evolves the N^3/P complex values, transposes them by MPI_Alltoall on the
 *      rows (N^3/(P NP2) values to each), then on the columns (N^3/(P NP1) each), and sums
 *      a checksum to rank 0 (MPI_Reduce of one complex);
 *   e  NPB EP: a computation, then MPI_Allreduce of sx, of sy (one double each) and of the
 *      10 annulus counts;
 *   b  NPB BT/SP's multipartition: P = q^2, q cells per process, process (i, j) with
 *      rank i + q j; its successor and predecessor along x (i +- 1), y (j +- 1) and z
 *      (i -+ 1, j +- 1), all mod q; copy_faces: MPI_Irecv from and MPI_Isend to all six,
 *      q (N/q)^2 doubles each, one MPI_Waitall; then x, y and z solves: q stages forward
 *      (receive from the predecessor but at the first, compute the cell, send to the
 *      successor but at the last: MPI_Irecv + MPI_Wait, MPI_Isend) and q stages back the
 *      other way, (N/q)^2 doubles a message, the sends completed by MPI_Waitall at the end.
 *
 * Intervals: the iterations (1), the computation (2), then per shape: m: the V-cycle's
 * exchanges down (3) and up (4), the norms (5); f: the row transposes (3), the column
 * transposes (4), the checksum (5); e: the three sums (3); b: copy_faces (3), the x (4),
 * y (5) and z (6) solves.  Part of the scaling validation (programs shaped like others'
 * codes, docs/predict.md).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o nasshapes nasshapes.c -lm
 *   mpiexec -n 8 ./nasshapes m|f|e|b [ITERATIONS [N]]
 */
#include <math.h>
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#define WORK 32768 /* doubles relaxed by an iteration's own computation */

static int rank, size;
static double *work;

static int log2_of(int n)
{
    int l = 0;
    while ((1 << l) < n)
        l++;
    return l;
}

/* A few relaxations of the first N doubles of the work array. */
static double compute(int n, int sweeps)
{
    double s = 0.0;
    if (n > WORK)
        n = WORK;
    for (int k = 0; k < sweeps; k++)
        for (int i = 1; i < n - 1; i++) {
            work[i] = 0.5 * work[i] + 0.25 * (work[i - 1] + work[i + 1]);
            s += work[i];
        }
    return s;
}

static void *alloc(size_t n)
{
    void *p = calloc(n ? n : 1, 1);
    if (!p)
        MPI_Abort(MPI_COMM_WORLD, 2);
    return p;
}

/* ---- m: NPB MG ---- */

struct mg {
    int p[3], c[3];   /* processes along each axis, this process's coordinates */
};

static int mg_rank(const struct mg *g, const int *c)
{
    return c[0] + g->p[0] * (c[1] + g->p[1] * c[2]);
}

/* The exchange of one level's faces along the three axes: global extent `points` a side. */
static double mg_level(const struct mg *g, int points, double *buf, int tag)
{
    int stride[3], extent[3];
    for (int d = 0; d < 3; d++) {
        stride[d] = points >= g->p[d] ? 1 : g->p[d] / points;
        extent[d] = points >= g->p[d] ? points / g->p[d] : 1;
        if (g->c[d] % stride[d])
            return 0.0; /* no point of this level here */
    }
    for (int d = 0; d < 3; d++) {
        int face = extent[(d + 1) % 3] * extent[(d + 2) % 3], c[3] = {g->c[0], g->c[1], g->c[2]};
        c[d] = (g->c[d] + stride[d]) % g->p[d];
        int up = mg_rank(g, c);
        c[d] = (g->c[d] - stride[d] + g->p[d]) % g->p[d];
        int down = mg_rank(g, c);
        MPI_Request r[2];
        MPI_Irecv(buf + 2 * face, face, MPI_DOUBLE, down, tag + 2 * d, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(buf + 3 * face, face, MPI_DOUBLE, up, tag + 2 * d + 1, MPI_COMM_WORLD, &r[1]);
        MPI_Send(buf, face, MPI_DOUBLE, up, tag + 2 * d, MPI_COMM_WORLD);
        MPI_Send(buf + face, face, MPI_DOUBLE, down, tag + 2 * d + 1, MPI_COMM_WORLD);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    }
    return compute(extent[0] * extent[1] * extent[2], 1) * 1e-9;
}

static void shape_m(int iterations, int n)
{
    int k = log2_of(size), levels = log2_of(n);
    struct mg g;
    g.p[0] = 1 << (k / 3);
    g.p[1] = 1 << ((k - k / 3) / 2);
    g.p[2] = size / (g.p[0] * g.p[1]);
    g.c[0] = rank % g.p[0];
    g.c[1] = rank / g.p[0] % g.p[1];
    g.c[2] = rank / (g.p[0] * g.p[1]);
    int face = (n / g.p[0] + 1) * (n / g.p[1] + 1) * (n / g.p[2] + 1);
    double *buf = alloc(4 * (size_t)face * sizeof(double)), norms[2] = {0.0, 0.0}, sums[2];
    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iterations; it++) {
        PROGNOZ_BEGIN(2);
        buf[0] += compute(n * n * n / size, 4) * 1e-9;
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        for (int l = 0; l < levels; l++)
            norms[0] += mg_level(&g, n >> l, buf, 10);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        for (int l = levels - 1; l >= 0; l--)
            norms[0] += mg_level(&g, n >> l, buf, 20);
        PROGNOZ_END(4);
        PROGNOZ_BEGIN(5);
        norms[1] = buf[0];
        MPI_Allreduce(&norms[0], &sums[0], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&norms[1], &sums[1], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        PROGNOZ_END(5);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("nasshapes m: %d ranks (%d x %d x %d), %d levels, norm %.6g\n", size, g.p[0],
               g.p[1], g.p[2], levels, sums[0]);
    free(buf);
}

/* ---- f: NPB FT ---- */

static void shape_f(int iterations, int n)
{
    int k = log2_of(size), np1 = 1 << (k / 2), np2 = size / np1;
    int local = n * n * n / size; /* complex values */
    MPI_Comm rows, cols;
    MPI_Comm_split(MPI_COMM_WORLD, rank / np2, rank, &rows);
    MPI_Comm_split(MPI_COMM_WORLD, rank % np2, rank, &cols);
    double *u = alloc(2 * (size_t)local * sizeof(double));
    double *v = alloc(2 * (size_t)local * sizeof(double)), chk[2] = {0.0, 0.0}, all[2];
    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iterations; it++) {
        PROGNOZ_BEGIN(2);
        u[0] += compute(2 * local, 4) * 1e-9;
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        MPI_Alltoall(u, 2 * local / np2, MPI_DOUBLE, v, 2 * local / np2, MPI_DOUBLE, rows);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        MPI_Alltoall(v, 2 * local / np1, MPI_DOUBLE, u, 2 * local / np1, MPI_DOUBLE, cols);
        PROGNOZ_END(4);
        PROGNOZ_BEGIN(5);
        chk[0] += u[0];
        chk[1] += u[1];
        MPI_Reduce(chk, all, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, 0, MPI_COMM_WORLD);
        PROGNOZ_END(5);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("nasshapes f: %d ranks (%d x %d), checksum %.6g\n", size, np1, np2, all[0]);
    MPI_Comm_free(&rows);
    MPI_Comm_free(&cols);
    free(u);
    free(v);
}

/* ---- e: NPB EP ---- */

static void shape_e(int iterations, int n)
{
    double sx = 0.0, sy = 0.0, q[10] = {0.0}, sums[2], counts[10];
    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iterations; it++) {
        PROGNOZ_BEGIN(2);
        sx += compute(WORK, n) * 1e-9;
        sy += sx * 0.5;
        q[it % 10] += 1.0;
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        MPI_Allreduce(&sx, &sums[0], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&sy, &sums[1], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(q, counts, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        PROGNOZ_END(3);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("nasshapes e: %d ranks, sums %.6g %.6g, count %.6g\n", size, sums[0], sums[1],
               counts[0]);
}

/* ---- b: NPB BT/SP multipartition ---- */

/* One solve along a direction: q stages from the predecessor to the successor, then q
 * back; the sends completed at the end. */
static void bt_solve(int q, int pred, int succ, int cell, double *buf, int tag)
{
    MPI_Request *sends = alloc(2 * (size_t)q * sizeof(MPI_Request));
    int nsends = 0;
    for (int dir = 0; dir < 2; dir++) {
        int from = dir ? succ : pred, to = dir ? pred : succ;
        for (int s = 0; s < q; s++) {
            if (s > 0) {
                MPI_Request r;
                MPI_Irecv(buf + cell, cell, MPI_DOUBLE, from, tag + dir, MPI_COMM_WORLD, &r);
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            }
            buf[0] += compute(cell, 1) * 1e-9;
            if (s < q - 1) {
                MPI_Isend(buf + 2 * cell * (nsends + 2), cell, MPI_DOUBLE, to, tag + dir,
                          MPI_COMM_WORLD, &sends[nsends]);
                nsends++;
            }
        }
    }
    MPI_Waitall(nsends, sends, MPI_STATUSES_IGNORE);
    free(sends);
}

static void shape_b(int iterations, int n)
{
    int q = (int)lround(sqrt((double)size));
    if (q * q != size || n % q) {
        if (rank == 0)
            fprintf(stderr, "nasshapes b: %d processes: a square whose root divides %d is needed\n",
                    size, n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int i = rank % q, j = rank / q, cell = (n / q) * (n / q), faces = q * cell;
    int succ[3] = {(i + 1) % q + q * j, i + q * ((j + 1) % q), (i - 1 + q) % q + q * ((j + 1) % q)};
    int pred[3] = {(i - 1 + q) % q + q * j, i + q * ((j - 1 + q) % q),
                   (i + 1) % q + q * ((j - 1 + q) % q)};
    size_t room = (size_t)(12 * faces > 2 * cell * (2 * q + 2) ? 12 * faces : 2 * cell * (2 * q + 2));
    double *buf = alloc(room * sizeof(double));
    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iterations; it++) {
        PROGNOZ_BEGIN(2);
        buf[0] += compute(q * cell * (n / q), 2) * 1e-9;
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        MPI_Request r[12];
        for (int d = 0; d < 3; d++) {
            MPI_Irecv(buf + (size_t)(4 * d) * faces, faces, MPI_DOUBLE, pred[d], 100 + d,
                      MPI_COMM_WORLD, &r[4 * d]);
            MPI_Irecv(buf + (size_t)(4 * d + 1) * faces, faces, MPI_DOUBLE, succ[d], 200 + d,
                      MPI_COMM_WORLD, &r[4 * d + 1]);
            MPI_Isend(buf + (size_t)(4 * d + 2) * faces, faces, MPI_DOUBLE, succ[d], 100 + d,
                      MPI_COMM_WORLD, &r[4 * d + 2]);
            MPI_Isend(buf + (size_t)(4 * d + 3) * faces, faces, MPI_DOUBLE, pred[d], 200 + d,
                      MPI_COMM_WORLD, &r[4 * d + 3]);
        }
        MPI_Waitall(12, r, MPI_STATUSES_IGNORE);
        PROGNOZ_END(3);
        for (int d = 0; d < 3; d++) {
            PROGNOZ_BEGIN(4 + d);
            bt_solve(q, pred[d], succ[d], cell, buf, 300 + 10 * d);
            PROGNOZ_END(4 + d);
        }
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("nasshapes b: %d ranks (%d x %d), %.6g\n", size, q, q, buf[0]);
    free(buf);
}

int main(int argc, char **argv)
{
    char shape = argc > 1 ? argv[1][0] : 'e';
    int iterations = argc > 2 ? atoi(argv[2]) : 10, n = argc > 3 ? atoi(argv[3]) : 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (shape != 'b' && (size & (size - 1))) {
        if (rank == 0)
            fprintf(stderr, "nasshapes %c: %d processes: a power of two is needed\n", shape, size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    work = alloc(WORK * sizeof(double));
    for (int i = 0; i < WORK; i++)
        work[i] = sin(0.001 * (i + rank));
    switch (shape) {
    case 'm': shape_m(iterations, n ? n : 32); break;
    case 'f': shape_f(iterations, n ? n : 32); break;
    case 'e': shape_e(iterations, n ? n : 8); break;
    case 'b': shape_b(iterations, n ? n : 120); break;
    default:
        if (rank == 0)
            fprintf(stderr, "nasshapes: shape '%c': expected m, f, e or b\n", shape);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    free(work);
    MPI_Finalize();
    return 0;
}
