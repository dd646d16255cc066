/* stencil: Jacobi iteration of the 2-D Laplace equation on a 1024 x 2048 grid (or
 * COLUMNS / 2 x COLUMNS) whose rows are split between the ranks.  Every
 * iteration exchanges one halo row (16 KiB) with each neighbour (MPI_Irecv, MPI_Isend,
 * MPI_Waitall), relaxes the interior by the 5-point stencil and sums the squared change
 * over all ranks (MPI_Allreduce).  Intervals: the iterations (1), the halo exchange (2),
 * the relaxation (3), the allreduce (4).  Part of the validation harness
 * (scripts/validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o stencil stencil.c && mpiexec -n 2 ./stencil [ITERATIONS [COLUMNS]]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#include "halo.h"

static int cols = 2048;  /* of the whole grid, the second argument; it has half as many rows */

/* v = the 5-point average of u over the interior; returns the sum of squared changes. */
static double relax(const double *u, double *v, int rows)
{
    double change = 0.0;

    for (int i = 1; i <= rows; i++)
        for (int j = 1; j < cols - 1; j++) {
            size_t k = (size_t)i * cols + j;
            v[k] = 0.25 * (u[k - cols] + u[k + cols] + u[k - 1] + u[k + 1]);
            change += (v[k] - u[k]) * (v[k] - u[k]);
        }
    return change;
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 300;
    double change = 0.0;

    if (argc > 2)
        cols = atoi(argv[2]);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rows = cols / 2 / size;
    double *u = calloc((size_t)(rows + 2) * cols, sizeof(double));
    double *v = calloc((size_t)(rows + 2) * cols, sizeof(double));
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

    for (int i = 0; i < rows + 2; i++) {  /* hot left and right edges */
        u[(size_t)i * cols] = v[(size_t)i * cols] = 100.0;
        u[(size_t)i * cols + cols - 1] = v[(size_t)i * cols + cols - 1] = 50.0;
    }
    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        exchange_halo(u, rows, cols, up, down);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        change = relax(u, v, rows);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        MPI_Allreduce(MPI_IN_PLACE, &change, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        PROGNOZ_END(4);
        double *t = u;
        u = v, v = t;
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("stencil: %d ranks, %dx%d grid, %d iterations, last change %.6e\n",
               size, cols / 2, cols, iters, change);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
