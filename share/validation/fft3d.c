/* fft3d: the data movement of a distributed 3-D FFT on a 128^3 grid of doubles in slabs.
 * A rank holds N/size planes of x; every iteration transforms each pencil along z and
 * along y with a stand-in for a 1-D FFT (log2 N butterfly passes of real arithmetic),
 * transposes the grid with MPI_Alltoall so that the rank holds planes of y (with 2
 * ranks, 4 MiB to the other rank), transforms along x, and transposes back.
 * Intervals: the iterations (1), the transforms along z and y (2), the packing (3), the
 * all-to-all (4), the unpacking and the transform along x (5), the transpose back (6).
 * Part of the validation harness (scripts/validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o fft3d fft3d.c && mpiexec -n 2 ./fft3d [ITERATIONS]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 128
#define LOG2N 7

/* The stand-in transform of one pencil of N values in place: at every stride, each pair
 * (a, b) becomes half of (a + w b, a - w b), the weights w fixed and below 1. */
static void butterflies(double *x)
{
    for (int s = 1, pass = 0; pass < LOG2N; s *= 2, pass++) {
        double w = 1.0 - 1.0 / (pass + 2);
        for (int i = 0; i < N; i++)
            if (!(i & s)) {
                double a = x[i], b = x[i + s];
                x[i] = 0.5 * (a + w * b);
                x[i + s] = 0.5 * (a - w * b) + 1e-3;
            }
    }
}

/* Transforms the pencils of `planes` planes of N x N along the stride `stride` (1: the
 * contiguous last index; N: the middle one), a pencil copied out and back when strided. */
static void transform(double *g, int planes, int stride)
{
    double pencil[N];

    for (int p = 0; p < planes; p++)
        for (int q = 0; q < N; q++) {
            double *first = stride == 1 ? &g[((size_t)p * N + q) * N] : &g[(size_t)p * N * N + q];
            for (int i = 0; i < N; i++)
                pencil[i] = first[(size_t)i * stride];
            butterflies(pencil);
            for (int i = 0; i < N; i++)
                first[(size_t)i * stride] = pencil[i];
        }
}

/* g holds b planes [a][c][z] of the first index; block r of send gets c = r*b..r*b+b-1. */
static void pack(const double *g, double *send, int b, int size)
{
    for (int r = 0; r < size; r++)
        for (int a = 0; a < b; a++)
            for (int c = 0; c < b; c++)
                memcpy(&send[(((size_t)r * b + a) * b + c) * N],
                       &g[((size_t)a * N + r * b + c) * N], N * sizeof(double));
}

/* Block r came from rank r: its [a][c][z] is (r*b+a, me*b+c, z), which becomes
 * [c][r*b+a][z] of the transposed grid. */
static void unpack(double *g, const double *recv, int b, int size)
{
    for (int r = 0; r < size; r++)
        for (int a = 0; a < b; a++)
            for (int c = 0; c < b; c++)
                memcpy(&g[((size_t)c * N + r * b + a) * N],
                       &recv[(((size_t)r * b + a) * b + c) * N], N * sizeof(double));
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 50;
    double sum = 0.0, total = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int b = N / size;
    size_t len = (size_t)b * N * N;
    double *g = malloc(len * sizeof(double));
    double *send = malloc(len * sizeof(double)), *recv = malloc(len * sizeof(double));

    for (size_t k = 0; k < len; k++)
        g[k] = (double)((k * 7 + (size_t)rank * 13) % 1013) / 1013.0;
    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        transform(g, b, 1);
        transform(g, b, N);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        pack(g, send, b, size);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        MPI_Alltoall(send, b * b * N, MPI_DOUBLE, recv, b * b * N, MPI_DOUBLE, MPI_COMM_WORLD);
        PROGNOZ_END(4);
        PROGNOZ_BEGIN(5);
        unpack(g, recv, b, size);
        transform(g, b, N);
        PROGNOZ_END(5);
        PROGNOZ_BEGIN(6);
        pack(g, send, b, size);
        MPI_Alltoall(send, b * b * N, MPI_DOUBLE, recv, b * b * N, MPI_DOUBLE, MPI_COMM_WORLD);
        unpack(g, recv, b, size);
        PROGNOZ_END(6);
    }
    PROGNOZ_END(1);
    for (size_t k = 0; k < len; k++)
        sum += g[k];
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("fft3d: %d ranks, %d^3 grid, %d iterations, sum %.6f\n", size, N, iters, total);
    free(g);
    free(send);
    free(recv);
    MPI_Finalize();
    return 0;
}
