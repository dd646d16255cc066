/* pipeline: CHUNKS chunks of 128 KiB flow from rank 0 through every rank to the last;
 * each rank is a stage that filters a chunk and passes it on.  Communication overlaps
 * computation: a stage posts the receive of the next chunk (MPI_Irecv) before it filters
 * the current one, and sends the filtered chunk with MPI_Isend, completed (MPI_Wait) only
 * before the next send, two buffers each way.  Rank 0 generates the chunks, the last
 * rank sums them.  Intervals: the whole stream (1), the filtering (2), the wait for the
 * next chunk (3), the wait for the previous send (4).  Part of the validation harness
 * (scripts/validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o pipeline pipeline.c && mpiexec -n 2 ./pipeline [CHUNKS]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN 16384  /* doubles of a chunk */
#define PASSES 20  /* of the filter over a chunk */

static void generate(double *c, int chunk)
{
    for (int i = 0; i < LEN; i++)
        c[i] = (double)((chunk * 131 + i * 17) % 1009) / 1009.0;
}

/* out = in smoothed PASSES times (a 3-point filter, the ends fixed). */
static void filter(const double *in, double *out, int stage)
{
    for (int i = 0; i < LEN; i++)
        out[i] = in[i];
    for (int pass = 0; pass < PASSES; pass++) {
        double prev = out[0];
        for (int i = 1; i < LEN - 1; i++) {
            double here = out[i];
            out[i] = 0.25 * prev + 0.5 * here + 0.25 * out[i + 1] + 1e-6 * stage;
            prev = here;
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size, chunks = argc > 1 ? atoi(argv[1]) : 700;
    double *in[2], *out[2], sum = 0.0;
    MPI_Request rreq = MPI_REQUEST_NULL, sreq = MPI_REQUEST_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int k = 0; k < 2; k++) {
        in[k] = malloc(LEN * sizeof(double));
        out[k] = malloc(LEN * sizeof(double));
    }
    int prev = rank - 1, next = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;

    PROGNOZ_BEGIN(1);
    if (rank > 0)
        MPI_Irecv(in[0], LEN, MPI_DOUBLE, prev, 0, MPI_COMM_WORLD, &rreq);
    for (int c = 0; c < chunks; c++) {
        double *cur = in[c % 2], *res = out[c % 2];
        if (rank > 0) {
            PROGNOZ_BEGIN(3);
            MPI_Wait(&rreq, MPI_STATUS_IGNORE);
            PROGNOZ_END(3);
            if (c + 1 < chunks)
                MPI_Irecv(in[(c + 1) % 2], LEN, MPI_DOUBLE, prev, c + 1, MPI_COMM_WORLD, &rreq);
        } else {
            generate(cur, c);
        }
        PROGNOZ_BEGIN(2);
        filter(cur, res, rank);
        PROGNOZ_END(2);
        if (next != MPI_PROC_NULL) {
            PROGNOZ_BEGIN(4);
            MPI_Wait(&sreq, MPI_STATUS_IGNORE);
            PROGNOZ_END(4);
            MPI_Isend(res, LEN, MPI_DOUBLE, next, c, MPI_COMM_WORLD, &sreq);
        } else {
            for (int i = 0; i < LEN; i++)
                sum += res[i];
        }
    }
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    PROGNOZ_END(1);
    if (rank == size - 1)
        printf("pipeline: %d ranks, %d chunks, sum %.6f\n", size, chunks, sum);
    for (int k = 0; k < 2; k++) {
        free(in[k]);
        free(out[k]);
    }
    MPI_Finalize();
    return 0;
}
