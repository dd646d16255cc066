/* transpose: a 1024 x 1024 (or N x N) matrix of doubles, its rows split between the
 * ranks, is transposed over and over, as in a distributed 2-D FFT: every iteration
 * applies a smoothing pass along each local row (the "row transform"), packs the local
 * rows into one block per rank, exchanges the blocks with MPI_Alltoall (with 2 ranks,
 * 2 MiB to the other rank), and transposes each received block into place.  Intervals: the
 * iterations (1), the row pass and packing (2), the all-to-all (3), the unpacking
 * transpose (4).  Part of the validation harness (scripts/validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o transpose transpose.c && mpiexec -n 2 ./transpose [ITERATIONS [N]]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

static int n = 1024;  /* the order, the second argument */

/* Smooths every local row in place, then packs: block r holds columns r*b..r*b+b-1. */
static void rows_and_pack(double *a, double *send, int b, int size)
{
    for (int i = 0; i < b; i++) {
        double *row = &a[(size_t)i * n], prev = row[n - 1];
        for (int j = 0; j < n; j++) {
            double here = row[j];
            row[j] = 0.5 * here + 0.25 * (prev + row[(j + 1) % n]);
            prev = here;
        }
    }
    for (int r = 0; r < size; r++)
        for (int i = 0; i < b; i++)
            for (int j = 0; j < b; j++)
                send[((size_t)r * b + i) * b + j] = a[(size_t)i * n + r * b + j];
}

/* Block r came from rank r: its (i, j) is element (r*b+i, me*b+j) of the whole matrix,
 * which becomes (me*b+j, r*b+i) of the transpose, local row j. */
static void unpack(double *a, const double *recv, int b, int size)
{
    for (int r = 0; r < size; r++)
        for (int i = 0; i < b; i++)
            for (int j = 0; j < b; j++)
                a[(size_t)j * n + r * b + i] = recv[((size_t)r * b + i) * b + j];
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 120;
    double sum = 0.0, total = 0.0;

    if (argc > 2)
        n = atoi(argv[2]);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int b = n / size;
    double *a = malloc((size_t)b * n * sizeof(double));
    double *send = malloc((size_t)b * n * sizeof(double));
    double *recv = malloc((size_t)b * n * sizeof(double));

    for (int i = 0; i < b; i++)
        for (int j = 0; j < n; j++)
            a[(size_t)i * n + j] = (double)(((rank * b + i) * 31 + j * 17) % 101);
    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        rows_and_pack(a, send, b, size);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        MPI_Alltoall(send, b * b, MPI_DOUBLE, recv, b * b, MPI_DOUBLE, MPI_COMM_WORLD);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        unpack(a, recv, b, size);
        PROGNOZ_END(4);
    }
    PROGNOZ_END(1);
    for (size_t k = 0; k < (size_t)b * n; k++)
        sum += a[k];
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("transpose: %d ranks, %dx%d matrix, %d iterations, sum %.6f\n", size, n, n, iters, total);
    free(a);
    free(send);
    free(recv);
    MPI_Finalize();
    return 0;
}
