/* ring: every rank sends a message to its right neighbour and receives one from its left
 * (MPI_Irecv, MPI_Isend, MPI_Waitall), for every size from 1 byte to 1 MiB in powers of
 * two, REPS times each (REPS / 4 + 1 times from 128 KiB on); after each exchange it sums
 * what it received, so the computation grows with the message.  The sizes fall in three
 * intervals: up to 1 KiB (latency bound), 2 KiB to 64 KiB (around the eager threshold),
 * 128 KiB to 1 MiB (bandwidth bound).  Part of the validation harness
 * (scripts/validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o ring ring.c && mpiexec -n 2 ./ring [REPS]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BYTES (1 << 20)

/* One exchange of n bytes around the ring, then a pass over what was received, a word
 * at a time (a byte at a time for the smallest). */
static unsigned long exchange(unsigned char *out, unsigned char *in, int n, int left, int right)
{
    MPI_Request req[2];
    MPI_Status st[2];  /* not MPI_STATUSES_IGNORE: gcc 12 warns of it wrongly */
    unsigned long sum = 0;

    MPI_Irecv(in, n, MPI_BYTE, left, n, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out, n, MPI_BYTE, right, n, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, st);
    for (int i = 0; i + 8 <= n; i += 8) {
        unsigned long w;
        memcpy(&w, &in[i], 8);
        sum = sum * 31 + w;
    }
    for (int i = n & ~7; i < n; i++)
        sum = sum * 31 + in[i];
    out[0] = (unsigned char)sum;
    return sum;
}

int main(int argc, char **argv)
{
    int rank, size, reps = argc > 1 ? atoi(argv[1]) : 800;
    unsigned char *out, *in;
    unsigned long sum = 0, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    out = malloc(MAX_BYTES);
    in = malloc(MAX_BYTES);
    for (int i = 0; i < MAX_BYTES; i++)
        out[i] = (unsigned char)(i * 7 + rank);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;

    PROGNOZ_BEGIN(1);
    for (int n = 1; n <= 1024; n *= 2)
        for (int r = 0; r < reps; r++)
            sum += exchange(out, in, n, left, right);
    PROGNOZ_END(1);
    PROGNOZ_BEGIN(2);
    for (int n = 2048; n <= 65536; n *= 2)
        for (int r = 0; r < reps; r++)
            sum += exchange(out, in, n, left, right);
    PROGNOZ_END(2);
    PROGNOZ_BEGIN(3);
    for (int n = 131072; n <= MAX_BYTES; n *= 2)
        for (int r = 0; r < reps / 4 + 1; r++)
            sum += exchange(out, in, n, left, right);
    PROGNOZ_END(3);

    MPI_Reduce(&sum, &total, 1, MPI_UNSIGNED_LONG, MPI_BXOR, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ring: %d ranks, %d repetitions, checksum %lx\n", size, reps, total);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
