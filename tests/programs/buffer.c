/* Many small calls (tests/integration/buffer.sh): on 2 ranks, ROUNDS Sendrecv calls
 * with tag i % 100 and i % 7 + 1 ints, then a barrier, enough to fill a 64K record
 * buffer several times. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 5000

int main(int argc, char **argv)
{
    int rank, size, peer, a[8] = { 0 }, b[8] = { 0 };

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "buffer: run me on 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    peer = 1 - rank;
    for (int i = 0; i < ROUNDS; i++)
        MPI_Sendrecv(b, i % 7 + 1, MPI_INT, peer, i % 100, a, 8, MPI_INT, peer, i % 100,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
