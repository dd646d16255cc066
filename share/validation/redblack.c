/* redblack: Jacobi iteration of the 1-D heat equation on a ring of CELLS cells split
 * between the ranks (periodic), its halo of HALO doubles exchanged with both neighbours
 * by blocking MPI_Send and MPI_Recv in an order by the parity of the rank, as programs
 * of blocking calls order them so that two neighbours never both wait in MPI_Send for
 * the other (a red-black ordering): an even rank sends its last cells to the right
 * (tag 1), receives its left neighbour's (tag 1), sends its first cells to the left
 * (tag 2) and receives its right neighbour's (tag 2); an odd rank receives from the
 * left, sends to the right, receives from the right and sends to the left.  On an odd
 * number of ranks the last rank and rank 0 are both even: the last one's send to the
 * right waits for rank 0, which receives once its own send to rank 1 is done, so the
 * exchange still completes, one neighbour after the other.  Every iteration then relaxes
 * the cells and, every 10th, sums the change over all ranks (MPI_Allreduce).
 * Intervals: the iterations (1), the exchange (2), the relaxation (3).  Part of the
 * scaling validation harness (scripts/scale_validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o redblack redblack.c && mpiexec -n 4 ./redblack [ITERATIONS [CELLS]]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HALO 1024
#define RIGHTWARD 1   /* the tag of cells going to the right neighbour */
#define LEFTWARD 2    /* ... and to the left one */

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

/* Both halos of u (HALO cells before and after the block of `cells`) from the
 * neighbours, the even ranks sending first, the odd ones receiving first. */
static void exchange(double *u, int cells, int rank, int left, int right)
{
    double *first = u + HALO, *last = u + cells, *below = u, *above = u + HALO + cells;

    if (rank % 2 == 0) {
        MPI_Send(last, HALO, MPI_DOUBLE, right, RIGHTWARD, MPI_COMM_WORLD);
        MPI_Recv(below, HALO, MPI_DOUBLE, left, RIGHTWARD, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(first, HALO, MPI_DOUBLE, left, LEFTWARD, MPI_COMM_WORLD);
        MPI_Recv(above, HALO, MPI_DOUBLE, right, LEFTWARD, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(below, HALO, MPI_DOUBLE, left, RIGHTWARD, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(last, HALO, MPI_DOUBLE, right, RIGHTWARD, MPI_COMM_WORLD);
        MPI_Recv(above, HALO, MPI_DOUBLE, right, LEFTWARD, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(first, HALO, MPI_DOUBLE, left, LEFTWARD, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 200;
    long total = argc > 2 ? atol(argv[2]) : 1 << 22;
    double change = 0.0, sum = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int cells = (int)(total / size), n = cells + 2 * HALO;
    double *u = calloc((size_t)n, sizeof(double)), *v = calloc((size_t)n, sizeof(double));
    int left = (rank + size - 1) % size, right = (rank + 1) % size;

    if (!u || !v || cells < HALO) {
        fprintf(stderr, "redblack: %ld cells over %d ranks: fewer than %d each, or no memory\n",
                total, size, HALO);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < n; i++)
        u[i] = (double)((rank * cells + i) % 97);
    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        if (size > 1) {
            exchange(u, cells, rank, left, right);
        } else {   /* alone on the ring: its own cells on both sides */
            memcpy(u, u + cells, HALO * sizeof(double));
            memcpy(u + HALO + cells, u + HALO, HALO * sizeof(double));
        }
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
    if (rank == 0)
        printf("redblack: %d ranks, %d iterations, change %g\n", size, iters, sum);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
