/* validate_probe: the state of the transport between two ranks, measured in a fraction
 * of a second, for scripts/validate.sh, which runs it beside every measured run and
 * every calibration (bench/README.md, "The state of the TCP transport").  A ping-pong of
 * MPI_Send and MPI_Recv, as prognoz calibrate's, at 0 bytes and at 1 MiB, in ROUNDS
 * rounds that alternate the two sizes, every round trip timed; a size's one-way time is
 * half the median of its round trips, so that a time slice lost now and then (a loaded
 * machine) does not move it, as calibrate leaves its stalls out.  Rank 0 prints one line:
 *
 *   validate_probe: 0 B one way 5.02 us, 1 MiB one way 171.3 us (rounds 165.0 to 180.2 us)
 *
 * and in parentheses the range of the 1 MiB rounds' own medians, which shows a state
 * that changed during the probe.  The job ends in a barrier: MPICH 4.0.2 over UCX's tcp
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
#define SMALL_TRIPS 200 /* a round: 2 ms in the fast state (5 us one way), 3 ms in the slow */
#define BIG_TRIPS 20    /* a round: 7 ms in the fast state (170 us one way), 24 ms in the slow */
#define LEAST_TRIPS 3   /* a round's fewest round trips, whatever its time */
#define ROUND_SECONDS 0.035 /* a size's round stops here once it has LEAST_TRIPS: the probe
                             * measures 0.5 s at most, even when the ranks take turns on
                             * one core (4 ms a round trip) */
#define TAG 7
#define STOP 8

/* Rank 0: at most MOST round trips of BYTES bytes with rank 1, fewer once ROUND_SECONDS
 * have passed; each one's time in microseconds in TOOK; returns how many. */
static int round_trips(char *buf, int bytes, int most, double *took)
{
    double begun = MPI_Wtime();
    int n = 0;

    while (n < most && (n < LEAST_TRIPS || MPI_Wtime() - begun < ROUND_SECONDS)) {
        double start = MPI_Wtime();
        MPI_Send(buf, bytes, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        took[n++] = 1e6 * (MPI_Wtime() - start);
    }
    return n;
}

/* Rank 1: sends every message of rank 0 back, until its STOP. */
static void answer(char *buf)
{
    for (;;) {
        MPI_Status st;
        int bytes;
        MPI_Recv(buf, BIG, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == STOP)
            return;
        MPI_Get_count(&st, MPI_BYTE, &bytes);
        MPI_Send(buf, bytes, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
    }
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

/* Rank 0: the probe, printed. */
static void probe(char *buf)
{
    static double small[ROUNDS * SMALL_TRIPS], big[ROUNDS * BIG_TRIPS];
    double rounds[ROUNDS];
    int ns = 0, nb = 0;

    /* warm-up: the endpoints connected, the rendezvous's buffers touched */
    round_trips(buf, 0, 20, small);
    round_trips(buf, BIG, LEAST_TRIPS, big);
    for (int r = 0; r < ROUNDS; r++) {
        int n;
        ns += round_trips(buf, 0, SMALL_TRIPS, small + ns);
        n = round_trips(buf, BIG, BIG_TRIPS, big + nb);
        rounds[r] = median(big + nb, n) / 2;
        nb += n;
    }
    MPI_Send(buf, 0, MPI_BYTE, 1, STOP, MPI_COMM_WORLD);
    double s = median(small, ns) / 2, b = median(big, nb) / 2;
    median(rounds, ROUNDS); /* sorted: its ends are the rounds' range */
    printf("validate_probe: 0 B one way %.2f us, 1 MiB one way %.1f us (rounds %.1f to %.1f us)\n",
           s, b, rounds[0], rounds[ROUNDS - 1]);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int rank, size;
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
    if (rank == 0)
        probe(buf);
    else
        answer(buf);
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
