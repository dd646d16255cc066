/* A ring pipeline tagged by its step, for prognoz scale (tests/integration/
 * scale_tagring.sh): PASSES times, every process's block of N / P doubles travels round
 * the ring by MPI_Sendrecv_replace to rank + 1 from rank - 1, P - 1 steps tagged by the
 * step, each followed by some work on it; then an MPI_Allreduce of one double. */
#include <mpi.h>
#include <stdlib.h>

#define PASSES 5
#define N 12288

static void work(double *a, int n)
{
    for (int r = 0; r < 20; r++)
        for (int i = 0; i < n; i++)
            a[i] = a[i] * 0.999 + 0.001 * (i % 7);
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = N / size, right = (rank + 1) % size, left = (rank + size - 1) % size;
    double *blk = calloc((size_t)n, sizeof(*blk)), sum = 0, total;

    for (int pass = 0; pass < PASSES; pass++) {
        for (int s = 0; s < size - 1; s++) {
            MPI_Sendrecv_replace(blk, n, MPI_DOUBLE, right, s, left, s, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE);
            work(blk, n);
        }
        sum += blk[0];
        MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    free(blk);
    MPI_Finalize();
    return 0;
}
