/* alltoallp: the transpose of share/validation/transpose.c with its all-to-all written
 * by hand, as FFTW's MPI transposes and codes built on them (MPB) write it: a loop over
 * every other rank in turn, step i = 1 .. P - 1 sending block (rank + i) mod P to that
 * rank and receiving block (rank - i) mod P from that one with one MPI_Sendrecv (a ring
 * schedule), the process's own block copied in place with the packing.  An N x N matrix of doubles (1024,
 * or the second argument, rounded down to a multiple of the ranks), its rows split
 * between the ranks, is transposed over and over: every iteration smooths each local
 * row, packs the rows into one block per rank, exchanges the blocks, and transposes each
 * received block into place.  Intervals: the iterations (1), the row pass, packing and
 * the copy of the process's own block (2), the exchange with the others (3), the
 * unpacking transpose (4).  Part of the scaling harness
 * (scripts/scale_validate.sh).
 *
 * The third argument writes the exchange as other codes do, over the other ranks in
 * ascending order (for q = 0 .. P - 1 but the process's own): "ranks", an MPI_Irecv
 * from each, an MPI_Isend to each, one MPI_Waitall; "ordered", with each a blocking
 * MPI_Send and MPI_Recv ordered by rank (the send first where the rank is below the
 * partner's, the receive first where it is above, so that no two wait for each other).
 * With either, each iteration then gathers a residual to rank 0 by hand (interval 5):
 * rank 0 receives one double from 1, 2, .., P - 1 in turn, the others send theirs.
 *
 *   mpicc -g -O2 -I$PREFIX/include -o alltoallp alltoallp.c && mpiexec -n 4 ./alltoallp [ITERATIONS [N [ring|ranks|ordered]]]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG 7

static int n = 1024;  /* the order, the second argument, a multiple of the ranks */

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

/* The process's own block, from its packed blocks to its received ones (with the packing,
 * so that the exchange's interval holds the messages alone). */
static void keep_own(const double *send, double *recv, int b, int rank)
{
    size_t block = (size_t)b * b;

    memcpy(recv + rank * block, send + rank * block, block * sizeof(double));
}

/* Every other block to its rank and from it: rank + i and rank - i at step i, as a ring
 * schedule goes. */
static void exchange(const double *send, double *recv, int b, int rank, int size)
{
    size_t block = (size_t)b * b;

    for (int i = 1; i < size; i++) {
        int to = (rank + i) % size, from = (rank - i + size) % size;

        MPI_Sendrecv(send + to * block, b * b, MPI_DOUBLE, to, TAG, recv + from * block,
                     b * b, MPI_DOUBLE, from, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

/* Every other block to its rank and from it, over the ranks in ascending order: every
 * receive posted, every send, then one wait for all. */
static void exchange_ranks(const double *send, double *recv, int b, int rank, int size,
                           MPI_Request *req, MPI_Status *st)
{
    size_t block = (size_t)b * b;
    int k = 0;

    for (int q = 0; q < size; q++)
        if (q != rank)
            MPI_Irecv(recv + q * block, b * b, MPI_DOUBLE, q, TAG, MPI_COMM_WORLD, &req[k++]);
    for (int q = 0; q < size; q++)
        if (q != rank)
            MPI_Isend(send + q * block, b * b, MPI_DOUBLE, q, TAG, MPI_COMM_WORLD, &req[k++]);
    MPI_Waitall(k, req, st);
}

/* The same by blocking calls: the lower rank of each pair sends first. */
static void exchange_ordered(const double *send, double *recv, int b, int rank, int size)
{
    size_t block = (size_t)b * b;

    for (int q = 0; q < size; q++) {
        const double *out = send + q * block;
        double *in = recv + q * block;

        if (q == rank)
            continue;
        if (rank < q) {
            MPI_Send(out, b * b, MPI_DOUBLE, q, TAG, MPI_COMM_WORLD);
            MPI_Recv(in, b * b, MPI_DOUBLE, q, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(in, b * b, MPI_DOUBLE, q, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(out, b * b, MPI_DOUBLE, q, TAG, MPI_COMM_WORLD);
        }
    }
}

/* The first local row's sum gathered to rank 0 by hand, from each other rank in turn. */
static void gather_residual(const double *a, int rank, int size)
{
    double mine = 0.0, theirs;

    for (int j = 0; j < n; j++)
        mine += a[j];
    if (rank) {
        MPI_Send(&mine, 1, MPI_DOUBLE, 0, TAG + 1, MPI_COMM_WORLD);
        return;
    }
    for (int q = 1; q < size; q++)
        MPI_Recv(&theirs, 1, MPI_DOUBLE, q, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
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
    const char *schedule = argc > 3 ? argv[3] : "ring";
    int ranks = !strcmp(schedule, "ranks"), ordered = !strcmp(schedule, "ordered");
    double sum = 0.0, total = 0.0;

    if (argc > 2)
        n = atoi(argv[2]);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int b = n / size;
    n = b * size;
    double *a = malloc((size_t)b * n * sizeof(double));
    double *send = malloc((size_t)b * n * sizeof(double));
    double *recv = malloc((size_t)b * n * sizeof(double));
    MPI_Request *req = malloc(2 * (size_t)size * sizeof(MPI_Request));
    MPI_Status *st = malloc(2 * (size_t)size * sizeof(MPI_Status));

    for (int i = 0; i < b; i++)
        for (int j = 0; j < n; j++)
            a[(size_t)i * n + j] = (double)(((rank * b + i) * 31 + j * 17) % 101);
    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        rows_and_pack(a, send, b, size);
        keep_own(send, recv, b, rank);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        if (ranks)
            exchange_ranks(send, recv, b, rank, size, req, st);
        else if (ordered)
            exchange_ordered(send, recv, b, rank, size);
        else
            exchange(send, recv, b, rank, size);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        unpack(a, recv, b, size);
        PROGNOZ_END(4);
        if (ranks || ordered) {
            PROGNOZ_BEGIN(5);
            gather_residual(a, rank, size);
            PROGNOZ_END(5);
        }
    }
    PROGNOZ_END(1);
    for (size_t k = 0; k < (size_t)b * n; k++)
        sum += a[k];
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("alltoallp: %d ranks, %dx%d matrix, %d iterations (%s), sum %.6f\n", size, n,
               n, iters, schedule, total);
    free(req);
    free(st);
    free(a);
    free(send);
    free(recv);
    MPI_Finalize();
    return 0;
}
