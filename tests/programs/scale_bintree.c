/* A broadcast and a sum to rank 0 written by hand as MPICH's binomial tree, as codes
 * without MPI_Bcast and MPI_Reduce write them, for prognoz scale
 * (tests/integration/scale_bintree.sh): ITERATIONS times (default 10), 512 doubles
 * broadcast from rank 0 (tag 1: received from the parent, rank less its lowest set bit,
 * then sent to the children rank + mask, mask from below that bit down to 1, while
 * below P), a relaxation of a local vector (N / P doubles, N = 160000 by default), and
 * the 512 doubles summed to rank 0 along the same tree (tag 2: received from the
 * children, mask from 1 up, then sent to the parent), by blocking MPI_Send and
 * MPI_Recv.  Any number of processes.
 *
 *   mpicc -O2 -o scale_bintree scale_bintree.c
 *   mpiexec -n 4 ./scale_bintree [ITERATIONS [N]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define WIDTH 512

/* A few sweeps of averaging over the vector: the computation of an iteration. */
static void relax(double *a, int n, int it)
{
    for (int k = 0; k < 20; k++)
        for (int i = 1; i < n - 1; i++)
            a[i] = 0.5 * (a[i - 1] + a[i + 1]) + 1e-9 * (k + it);
}

static void tree_bcast(double *v, int rank, int size)
{
    int mask = 1;

    while (mask < size) {
        if (rank & mask) {
            MPI_Recv(v, WIDTH, MPI_DOUBLE, rank - mask, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rank + mask < size)
            MPI_Send(v, WIDTH, MPI_DOUBLE, rank + mask, 1, MPI_COMM_WORLD);
}

/* v summed over every rank into rank 0's, w its scratch. */
static void tree_reduce(double *v, double *w, int rank, int size)
{
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rank & mask) {
            MPI_Send(v, WIDTH, MPI_DOUBLE, rank - mask, 2, MPI_COMM_WORLD);
            return;
        }
        if (rank + mask < size) {
            MPI_Recv(w, WIDTH, MPI_DOUBLE, rank + mask, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < WIDTH; i++)
                v[i] += w[i];
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 10;
    int n = argc > 2 ? atoi(argv[2]) : 160000;
    double v[WIDTH] = {0}, w[WIDTH], *a;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    a = calloc((size_t)(n / size), sizeof(*a));
    for (int it = 0; it < iters; it++) {
        tree_bcast(v, rank, size);
        relax(a, n / size, it);
        for (int i = 0; i < WIDTH; i++)
            v[i] += a[i % (n / size)];
        tree_reduce(v, w, rank, size);
    }
    if (rank == 0)
        printf("scale_bintree: %d ranks, %d iterations, v[0] %.6e\n", size, iters, v[0]);
    free(a);
    MPI_Finalize();
    return 0;
}
