/* heat: 1-D heat equation by Jacobi iteration over a block-distributed rod.  Each step
 * exchanges halo cells with the neighbours (nonblocking), computes, and every tenth step
 * agrees on the largest change with an allreduce; rank 0 gathers the final profile.
 *
 * The time steps, the halo exchange and the computation are marked as intervals (see
 * include/prognoz.h); without prognoz the markers do nothing.
 *
 *   mpicc -g -O2 -I$PREFIX/include -o heat heat.c && mpiexec -n 4 ./heat [cells-per-rank] [steps]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

static void exchange_halo(double *u, int n, int left, int right)
{
    MPI_Request req[4];

    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[3]);
    MPI_Status st[4];

    MPI_Waitall(4, req, st);
}

static double relax(const double *u, double *v, int n)
{
    double change = 0.0;

    for (int i = 1; i <= n; i++) {
        v[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
        if (v[i] - u[i] > change)
            change = v[i] - u[i];
        if (u[i] - v[i] > change)
            change = u[i] - v[i];
    }
    return change;
}

int main(int argc, char **argv)
{
    int rank, size, n = argc > 1 ? atoi(argv[1]) : 100000, steps = argc > 2 ? atoi(argv[2]) : 200;
    double *u, *v, *t, change = 0.0, *profile = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    u = calloc((size_t)n + 2, sizeof(double));
    v = calloc((size_t)n + 2, sizeof(double));
    if (rank == 0)
        u[0] = v[0] = 100.0;  /* the hot end of the rod */
    PROGNOZ_BEGIN(1);
    for (int step = 0; step < steps; step++) {
        PROGNOZ_BEGIN(2);
        exchange_halo(u, n, rank > 0 ? rank - 1 : MPI_PROC_NULL,
                      rank < size - 1 ? rank + 1 : MPI_PROC_NULL);
        PROGNOZ_END(2);
        if (rank == 0)
            u[0] = 100.0;
        PROGNOZ_BEGIN(3);
        change = relax(u, v, n);
        PROGNOZ_END(3);
        t = u, u = v, v = t;
        if (step % 10 == 9)
            MPI_Allreduce(MPI_IN_PLACE, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        profile = malloc((size_t)size * sizeof(double));
    MPI_Gather(&u[1], 1, MPI_DOUBLE, profile, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("heat: %d ranks x %d cells, %d steps, last change %.3e\n", size, n, steps, change);
        for (int r = 0; r < size; r++)
            printf("  rank %d first cell %.4f\n", r, profile[r]);
    }
    free(profile);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
