/* overlap: a sum over all ranks overlapped with computation, as codes hide a reduction's
 * latency behind independent work.  Every iteration relaxes a local vector of N doubles
 * (4096 by default; weak scaling), starts the sum of its first 64 values over all ranks
 * (MPI_Iallreduce), then does the independent work in 16 chunks, calling MPI_Test after
 * each chunk until the sum has arrived (the number of MPI_Test calls depends on how fast
 * the sum and the chunks run: it varies from one iteration and one process to the next),
 * the chunks left without testing, and MPI_Wait on the request (at once complete when
 * MPI_Test saw it done).  Every 10th iteration a blocking MPI_Allreduce of one double
 * checks convergence.  Intervals: the iterations (1), the relaxation (2), the overlapped
 * work from the start of the sum to its wait (3), the check (4).
 * Part of the scaling validation (scripts/scale_validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o overlap overlap.c && mpiexec -n 4 ./overlap [ITERATIONS [N]]
 */
#include <math.h>
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#define SUMMED 64  /* values summed by the nonblocking reduction */
#define CHUNKS 16  /* pieces of the overlapped work, MPI_Test after each */
#define EVERY 10   /* iterations between two convergence checks */

/* A piece of the independent work: a few sweeps over part of w. */
static void work(double *w, int from, int to)
{
    for (int s = 0; s < 8; s++)
        for (int i = from; i < to; i++)
            w[i] = 0.5 * w[i] + 0.25 * sin(w[i] + s);
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 100, n = argc > 2 ? atoi(argv[2]) : 4096;
    long tests = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (n < SUMMED)
        n = SUMMED;
    double *u = malloc((size_t)n * sizeof(double)), *w = malloc((size_t)n * sizeof(double));
    double sum[SUMMED], change = 0.0;
    for (int i = 0; i < n; i++)
        u[i] = w[i] = (double)(rank + i % 7) / (size + 7);

    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        double local = 0.0;
        for (int i = 1; i + 1 < n; i++) {
            double v = (u[i - 1] + u[i + 1]) / 2.0;
            local += (v - u[i]) * (v - u[i]);
            u[i] = v;
        }
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        MPI_Request req;
        int done = 0, c = 0;
        MPI_Iallreduce(u, sum, SUMMED, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
        for (; c < CHUNKS && !done; c++) {
            work(w, c * n / CHUNKS, (c + 1) * n / CHUNKS);
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            tests++;
        }
        for (; c < CHUNKS; c++)
            work(w, c * n / CHUNKS, (c + 1) * n / CHUNKS);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        u[0] = sum[it % SUMMED] / (size * (double)n);
        PROGNOZ_END(3);
        if ((it + 1) % EVERY == 0) {
            PROGNOZ_BEGIN(4);
            MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            PROGNOZ_END(4);
        }
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("overlap: %d ranks, %d values each, %d iterations, change %.6e, tests on rank 0 %ld\n",
               size, n, iters, change, tests);
    free(u), free(w);
    MPI_Finalize();
    return 0;
}
