/* clover: a 2-D explicit hydrodynamics step shaped like CloverLeaf or miniFE, written as
 * such codes are: the processes form a PX x PY grid (PX >= PY, the most square split),
 * numbered x first, whose neighbours are computed from the rank (no MPI_Cart_create, no
 * neighbour at the edges: MPI_PROC_NULL); each holds N x N cells (128 by default; weak
 * scaling) with one halo cell around.  The reductions run on a duplicate of the world
 * (MPI_Comm_dup), as a library's own communicator.  Every iteration the stable timestep
 * is the smallest over all ranks (MPI_Allreduce MPI_MIN), the halos are traded by one
 * MPI_Sendrecv pair per direction (east then west, north then south; the columns as one
 * MPI_Type_vector, the rows contiguous), and the cells are updated; every 10th iteration
 * rank 0 receives the sums of mass, energy and volume (MPI_Reduce).  Intervals: the
 * iterations (1), the timestep (2), the halo exchange (3), the update (4), the summary (5).
 * Part of the scaling validation (programs shaped like others' codes, docs/predict.md).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o clover clover.c -lm && mpiexec -n 4 ./clover [ITERATIONS [N]]
 */
#include <math.h>
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#define EVERY 10   /* iterations between two summaries */
#define SUMMED 3   /* mass, energy, volume */

/* The processes' grid: the largest PY not above sqrt(size) that divides it. */
static void split(int size, int *px, int *py)
{
    int y = 1;
    for (int d = 1; d * d <= size; d++)
        if (size % d == 0)
            y = d;
    *py = y;
    *px = size / y;
}

/* The smallest stable timestep of the local cells (a CFL condition on the sound speed). */
static double local_timestep(const double *e, int n)
{
    int w = n + 2;
    double dt = 1.0e30;
    for (int j = 1; j <= n; j++)
        for (int i = 1; i <= n; i++) {
            double c = sqrt(1.4 * 0.4 * fabs(e[j * w + i]) + 1.0e-12);
            double d = 0.5 / (n * c);
            if (d < dt)
                dt = d;
        }
    return dt;
}

/* The halo exchange: one MPI_Sendrecv pair per direction, the columns strided. */
static void exchange(double *e, int n, MPI_Datatype column, const int nb[4])
{
    int w = n + 2;
    enum { EAST, WEST, NORTH, SOUTH };
    MPI_Sendrecv(&e[w + n], 1, column, nb[EAST], 1, &e[w], 1, column, nb[WEST], 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&e[w + 1], 1, column, nb[WEST], 2, &e[w + n + 1], 1, column, nb[EAST], 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&e[n * w + 1], n, MPI_DOUBLE, nb[NORTH], 3, &e[1], n, MPI_DOUBLE, nb[SOUTH], 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&e[w + 1], n, MPI_DOUBLE, nb[SOUTH], 4, &e[(n + 1) * w + 1], n, MPI_DOUBLE,
                 nb[NORTH], 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* One explicit update: each cell relaxes towards its neighbours at the timestep's rate. */
static void update(double *e, double *next, int n, double dt)
{
    int w = n + 2;
    double rate = dt * n * 0.5;
    for (int j = 1; j <= n; j++)
        for (int i = 1; i <= n; i++) {
            double lap = e[j * w + i - 1] + e[j * w + i + 1] + e[(j - 1) * w + i] +
                         e[(j + 1) * w + i] - 4.0 * e[j * w + i];
            next[j * w + i] = e[j * w + i] + rate * lap;
        }
    for (int j = 1; j <= n; j++)
        for (int i = 1; i <= n; i++)
            e[j * w + i] = next[j * w + i];
}

int main(int argc, char **argv)
{
    int rank, size, px, py, iters = argc > 1 ? atoi(argv[1]) : 100, n = argc > 2 ? atoi(argv[2]) : 128;
    MPI_Comm reductions;
    MPI_Datatype column;
    double sums[SUMMED], totals[SUMMED] = {0.0, 0.0, 0.0}, time = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &reductions);
    split(size, &px, &py);
    int x = rank % px, y = rank / px;
    int nb[4] = {x + 1 < px ? rank + 1 : MPI_PROC_NULL, x > 0 ? rank - 1 : MPI_PROC_NULL,
                 y + 1 < py ? rank + px : MPI_PROC_NULL, y > 0 ? rank - px : MPI_PROC_NULL};
    int w = n + 2;
    MPI_Type_vector(n, 1, w, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    double *e = calloc((size_t)w * w, sizeof(double)), *next = calloc((size_t)w * w, sizeof(double));
    for (int j = 1; j <= n; j++)
        for (int i = 1; i <= n; i++)
            e[j * w + i] = 1.0 + 0.5 * sin(0.01 * (x * n + i)) * cos(0.01 * (y * n + j));

    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        double dt = local_timestep(e, n);
        MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MIN, reductions);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        exchange(e, n, column, nb);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        update(e, next, n, dt);
        PROGNOZ_END(4);
        time += dt;
        if (it % EVERY == EVERY - 1) {
            PROGNOZ_BEGIN(5);
            sums[0] = sums[1] = 0.0;
            for (int j = 1; j <= n; j++)
                for (int i = 1; i <= n; i++)
                    sums[0] += 1.0, sums[1] += e[j * w + i];
            sums[2] = (double)n * n;
            MPI_Reduce(sums, totals, SUMMED, MPI_DOUBLE, MPI_SUM, 0, reductions);
            PROGNOZ_END(5);
        }
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("clover: %d ranks (%d x %d), %d x %d cells each, %d iterations, time %.6g, energy %.9g\n",
               size, px, py, n, n, iters, time, totals[1]);
    free(e);
    free(next);
    MPI_Type_free(&column);
    MPI_Comm_free(&reductions);
    MPI_Finalize();
    return 0;
}
