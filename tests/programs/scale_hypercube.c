/* A sum over all ranks by recursive doubling written by hand, as codes without
 * MPI_Allreduce (or a hand-made hypercube reduction) write it, for prognoz scale
 * (tests/integration/scale_hypercube.sh): ITERATIONS times (default 10), a relaxation of
 * a local vector (N / P doubles, N = 160000 by default), then for mask = 1, 2, 4 ... <
 * P the exchange of 512 doubles with partner rank XOR mask by blocking MPI_Send and
 * MPI_Recv, tag 7: the process below its partner sends first and receives, the other
 * receives first and sends (else both would wait in MPI_Send for a message too large
 * to be buffered), and adds what it received.  P must be a power of two.
 *
 *   mpicc -O2 -o scale_hypercube scale_hypercube.c
 *   mpiexec -n 4 ./scale_hypercube [ITERATIONS [N]]
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

/* v summed over every rank, w its scratch. */
static void sum_by_doubling(double *v, double *w, int rank, int size)
{
    for (int mask = 1; mask < size; mask <<= 1) {
        int partner = rank ^ mask;

        if (rank < partner) {
            MPI_Send(v, WIDTH, MPI_DOUBLE, partner, 7, MPI_COMM_WORLD);
            MPI_Recv(w, WIDTH, MPI_DOUBLE, partner, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(w, WIDTH, MPI_DOUBLE, partner, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(v, WIDTH, MPI_DOUBLE, partner, 7, MPI_COMM_WORLD);
        }
        for (int i = 0; i < WIDTH; i++)
            v[i] += w[i];
    }
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 10;
    int n = argc > 2 ? atoi(argv[2]) : 160000;
    double v[WIDTH], w[WIDTH], *a;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size & (size - 1)) {
        if (rank == 0)
            fprintf(stderr, "scale_hypercube: %d processes, not a power of two\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    a = calloc((size_t)(n / size), sizeof(*a));
    for (int it = 0; it < iters; it++) {
        relax(a, n / size, it);
        for (int i = 0; i < WIDTH; i++)
            v[i] = a[i % (n / size)] + rank;
        sum_by_doubling(v, w, rank, size);
    }
    if (rank == 0)
        printf("scale_hypercube: %d ranks, %d iterations, v[0] %.6e\n", size, iters, v[0]);
    free(a);
    MPI_Finalize();
    return 0;
}
