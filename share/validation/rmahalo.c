/* rmahalo: Jacobi iteration of the 1-D heat equation on CELLS cells split between the
 * ranks, its halo exchanged by one-sided communication.  Each rank exposes its block,
 * with a halo cell of HALO doubles at each end, as a window (MPI_Win_create); every
 * iteration opens an epoch with MPI_Win_fence, puts its first HALO values into the
 * upper halo of its left neighbour and its last HALO values into the lower halo of its
 * right neighbour (MPI_Put, 8 * HALO bytes each; the first and last rank have one
 * neighbour, the grid is not periodic), closes the epoch with MPI_Win_fence, relaxes its
 * cells and, every 10th iteration, sums the change over all ranks (MPI_Allreduce).
 * Intervals: the iterations (1), the exchange (2), the relaxation (3).  Part of the
 * scaling validation harness (scripts/scale_validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o rmahalo rmahalo.c && mpiexec -n 2 ./rmahalo [ITERATIONS [CELLS]]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#define HALO 64

/* v = the 3-point average of u over the cells; returns the sum of squared changes. */
static double relax(const double *u, double *v, int cells)
{
    double change = 0.0;

    for (int i = HALO; i < HALO + cells; i++) {
        v[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0;
        change += (v[i] - u[i]) * (v[i] - u[i]);
    }
    return change;
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 200;
    long total = argc > 2 ? atol(argv[2]) : 1 << 22;
    double change = 0.0, sum = 0.0;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int cells = (int)(total / size), n = cells + 2 * HALO;
    double *u = calloc((size_t)n, sizeof(double)), *v = calloc((size_t)n, sizeof(double));
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

    for (int i = 0; i < n; i++)
        u[i] = (double)((rank * cells + i) % 97);
    MPI_Win_create(u, (MPI_Aint)n * sizeof(double), sizeof(double), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        MPI_Win_fence(0, win);
        if (left != MPI_PROC_NULL)   /* my first cells: the left neighbour's upper halo */
            MPI_Put(u + HALO, HALO, MPI_DOUBLE, left, HALO + cells, HALO, MPI_DOUBLE, win);
        if (right != MPI_PROC_NULL)  /* my last cells: the right neighbour's lower halo */
            MPI_Put(u + cells, HALO, MPI_DOUBLE, right, 0, HALO, MPI_DOUBLE, win);
        MPI_Win_fence(0, win);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        change = relax(u, v, cells);
        for (int i = HALO; i < HALO + cells; i++)
            u[i] = v[i];
        PROGNOZ_END(3);
        if (it % 10 == 9)
            MPI_Allreduce(&change, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    PROGNOZ_END(1);
    MPI_Win_free(&win);
    if (rank == 0)
        printf("rmahalo: %d ranks, %d iterations, change %g\n", size, iters, sum);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
