/* validate_probe: the state of the transport between two ranks, measured in a fraction
 * of a second, for scripts/validate.sh, which runs it beside every measured run and
 * every calibration (bench/README.md, "The state of the TCP transport").  A ping-pong of
 * MPI_Send and MPI_Recv, as prognoz calibrate's, at 0 bytes and at 1 MiB, in ROUNDS
 * rounds that alternate the two sizes; each round times a batch of round trips, its
 * one-way time half the batch's mean round trip.  Rank 0 prints one line:
 *
 *   validate_probe: 0 B one way 5.02 us, 1 MiB one way 171.3 us (rounds 165.0 to 180.2 us)
 *
 * the medians of the rounds, and the range of the 1 MiB rounds, which shows a state that
 * changed during the probe.  The job ends in a barrier: MPICH 4.0.2 over UCX's tcp
 * transport may hang in MPI_Finalize after a last message one way (bench/README.md,
 * "The TCP transport").
 *
 *   mpicc -O2 -o validate_probe validate_probe.c && mpiexec -n 2 ./validate_probe
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 7
#define BIG (1 << 20)
#define SMALL_TRIPS 200 /* 2 ms in the fast state (5 us one way), 3 ms in the slow */
#define BIG_TRIPS 20    /* 7 ms in the fast state (170 us one way), 24 ms in the slow */
#define TAG 7

/* The one-way time in microseconds of TRIPS round trips of BYTES bytes between ranks 0
 * and 1: half their mean round trip, as rank 0 sees it (rank 1 answers). */
static double one_way(int rank, char *buf, int bytes, int trips)
{
    double start = MPI_Wtime();

    for (int i = 0; i < trips; i++) {
        if (rank == 0) {
            MPI_Send(buf, bytes, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, bytes, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
        }
    }
    return 1e6 * (MPI_Wtime() - start) / trips / 2;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the N values of V (sorted in place). */
static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int rank, size;
    double small[ROUNDS], big[ROUNDS];
    char *buf = malloc(BIG);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || !buf) {
        if (rank == 0)
            fprintf(stderr, "validate_probe: needs 2 ranks and 1 MiB (%d ranks)\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(buf, rank, BIG);
    /* warm-up: the endpoints connected, the rendezvous's buffers touched */
    one_way(rank, buf, 0, 20);
    one_way(rank, buf, BIG, 3);
    for (int r = 0; r < ROUNDS; r++) {
        small[r] = one_way(rank, buf, 0, SMALL_TRIPS);
        big[r] = one_way(rank, buf, BIG, BIG_TRIPS);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        /* median() sorts: big's ends are then its rounds' range */
        double s = median(small, ROUNDS), b = median(big, ROUNDS);
        printf("validate_probe: 0 B one way %.2f us, 1 MiB one way %.1f us (rounds %.1f to %.1f us)\n",
               s, b, big[0], big[ROUNDS - 1]);
        fflush(stdout);
    }
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
