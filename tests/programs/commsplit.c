/* Communicators made by MPI_Comm_split and MPI_Comm_dup on 4 ranks
 * (tests/integration/commsplit.sh).  The first split puts the even and the odd world
 * ranks together, ordered by descending world rank (key -rank), so that ranks in the
 * new communicators differ from world ranks: world 2 and 0 become ranks 0 and 1 of one,
 * world 3 and 1 ranks 0 and 1 of the other.  The second split leaves world rank 3 out
 * (MPI_UNDEFINED).  Point-to-point and collective calls on each must be recorded on
 * that communicator with ranks in it. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, sub_rank, sub_size, a[8] = { 0 }, b[8] = { 0 };
    MPI_Comm half, dup, trio;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        fprintf(stderr, "commsplit: run me on 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    MPI_Comm_rank(half, &sub_rank);
    MPI_Comm_size(half, &sub_size);
    if (sub_size != 2 || sub_rank != (rank < 2)) {
        fprintf(stderr, "commsplit: world rank %d is rank %d of %d\n", rank, sub_rank, sub_size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* rank 0 of each half sends to its rank 1, which answers with a nonblocking send */
    if (sub_rank == 0) {
        MPI_Send(b, rank + 1, MPI_INT, 1, 7, half);
        MPI_Irecv(a, 8, MPI_INT, MPI_ANY_SOURCE, 8, half, &req);
    } else {
        MPI_Recv(a, 8, MPI_INT, 0, 7, half, MPI_STATUS_IGNORE);
        MPI_Isend(b, 2, MPI_INT, 0, 8, half, &req);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Bcast(a, 2, MPI_INT, 1, half);
    MPI_Comm_dup(half, &dup);
    MPI_Allreduce(b, a, 3, MPI_INT, MPI_SUM, dup);

    MPI_Comm_split(MPI_COMM_WORLD, rank == 3 ? MPI_UNDEFINED : 0, rank, &trio);
    if (trio != MPI_COMM_NULL) {
        MPI_Gather(b, 1, MPI_INT, a, 1, MPI_INT, 2, trio);
        MPI_Comm_free(&trio);
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
