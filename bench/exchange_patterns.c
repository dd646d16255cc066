/* exchange_patterns: small exchanges in the patterns real programs make, to record over
 * TCP and predict on a calibration of the same transport (docs/predict.md, "Loopback
 * TCP: the communication model alone").  Not built by make; an MPI program of its own:
 *
 *   mpicc.mpich -O2 -o /tmp/exchange_patterns bench/exchange_patterns.c
 *   UCX_TLS=tcp,self prognoz record -o /tmp/x -- \
 *       mpiexec.mpich -n 2 /tmp/exchange_patterns MODE ITERATIONS BYTES MESSAGES COMPUTE_US
 *   prognoz predict /tmp/x --machine tcp.conf
 *
 * Both ranks repeat ITERATIONS times: spin COMPUTE_US on the clock (none at 0), then,
 * unless MODE is r, post MESSAGES receives of BYTES from the other rank, send it
 * MESSAGES messages of BYTES and wait for all of them (MPI_Waitall); then, unless MODE
 * is x, an MPI_Allreduce of one double (MODE a: exchange and allreduce, x: the exchange
 * alone, r: the allreduce alone).  The recording's whole run against the prediction's
 * is the communication model's error: the computation is the run's own. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_MESSAGES 32

/* Spins for us microseconds on the clock. */
static void spin(double us)
{
    double t0 = MPI_Wtime();

    while ((MPI_Wtime() - t0) * 1e6 < us)
        ;
}

/* MESSAGES messages of bytes each way between the two ranks, other the peer. */
static void exchange(char *out, char *in, int bytes, int messages, int other)
{
    MPI_Request req[2 * MAX_MESSAGES];
    MPI_Status status[2 * MAX_MESSAGES];   /* gcc 12 warns on MPI_STATUSES_IGNORE here */

    for (int k = 0; k < messages; k++)
        MPI_Irecv(in + (size_t)k * (size_t)bytes, bytes, MPI_BYTE, other, k, MPI_COMM_WORLD,
                  &req[k]);
    for (int k = 0; k < messages; k++)
        MPI_Isend(out + (size_t)k * (size_t)bytes, bytes, MPI_BYTE, other, k, MPI_COMM_WORLD,
                  &req[messages + k]);
    MPI_Waitall(2 * messages, req, status);
}

int main(int argc, char **argv)
{
    int rank, size, iterations, bytes, messages;
    double compute, x = 1;
    char mode, *out, *in;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mode = argc > 1 ? argv[1][0] : 0;
    if (argc != 6 || size != 2 || (mode != 'a' && mode != 'x' && mode != 'r')) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2 exchange_patterns a|x|r ITERATIONS BYTES "
                            "MESSAGES COMPUTE_US\n");
        MPI_Finalize();
        return 2;
    }
    iterations = atoi(argv[2]);
    bytes = atoi(argv[3]);
    messages = atoi(argv[4]);
    compute = atof(argv[5]);
    if (messages < 1 || messages > MAX_MESSAGES || bytes < 0)
        messages = 1;
    out = calloc((size_t)messages, (size_t)bytes + 1);
    in = calloc((size_t)messages, (size_t)bytes + 1);
    for (int i = 0; i < iterations && out && in; i++) {
        if (compute > 0)
            spin(compute);
        if (mode != 'r')
            exchange(out, in, bytes, messages, 1 - rank);
        if (mode != 'x') {
            double y;

            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            x = y / 2;
        }
    }
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
