/* Every blocking point-to-point call family once, between 2 ranks, with distinct tags
 * and sizes so that each recorded message can be told apart (tests/integration/p2p.sh).
 * Rank 0 sends with each send mode and receives with each receive form; rank 1 mirrors
 * it.  Calls to MPI_PROC_NULL come last: they must leave no message event. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "p2p: %s\n", what);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

int main(int argc, char **argv)
{
    int rank, size, flag, ints[16] = { 0 };
    double doubles[4] = { 0 };
    char chars[16] = { 0 }, bsend_buf[MPI_BSEND_OVERHEAD + 64];
    short shorts[4] = { 0 };
    void *detached;
    MPI_Request req;
    MPI_Message msg;
    MPI_Status status;
    MPI_Datatype vector;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check(size == 2, "run me on 2 ranks");
    MPI_Type_vector(3, 2, 4, MPI_INT, &vector);
    MPI_Type_commit(&vector);

    if (rank == 0) {
        MPI_Send(ints, 3, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Buffer_attach(bsend_buf, (int)sizeof(bsend_buf));
        MPI_Bsend(doubles, 2, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
        MPI_Buffer_detach(&detached, &flag);
        MPI_Ssend(chars, 5, MPI_CHAR, 1, 3, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);             /* rank 1 has posted its receive */
        MPI_Rsend(ints, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
        MPI_Recv(ints, 16, MPI_INT, 1, 11, MPI_COMM_WORLD, &status);
        check(status.MPI_SOURCE == 1 && status.MPI_TAG == 11, "recv status");
        MPI_Sendrecv(ints, 2, MPI_INT, 1, 21, ints + 4, 16 - 4, MPI_INT, 1, 22, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv_replace(shorts, 4, MPI_SHORT, 1, 31, 1, 32, MPI_COMM_WORLD, &status);
        MPI_Probe(1, 41, MPI_COMM_WORLD, &status);
        MPI_Iprobe(1, 41, MPI_COMM_WORLD, &flag, &status);
        check(flag, "iprobe after probe");
        MPI_Recv(ints, 16, MPI_INT, 1, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Mprobe(MPI_ANY_SOURCE, 51, MPI_COMM_WORLD, &msg, &status);
        MPI_Mrecv(chars, 16, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
        MPI_Probe(1, 61, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Improbe(1, 61, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
        check(flag, "improbe after probe");
        MPI_Imrecv(doubles, 4, MPI_DOUBLE, &msg, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Send(ints, 1, vector, 1, 71, MPI_COMM_WORLD);
        MPI_Recv(ints, 1, vector, 1, 72, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(ints, 16, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(doubles, 4, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(chars, 16, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        check(status.MPI_SOURCE == 0 && status.MPI_TAG == 3, "recv any status");
        MPI_Irecv(ints, 16, MPI_INT, 0, 4, MPI_COMM_WORLD, &req);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Send(ints, 4, MPI_INT, 0, 11, MPI_COMM_WORLD);
        MPI_Sendrecv(ints, 3, MPI_INT, 0, 22, ints + 4, 16 - 4, MPI_INT, 0, 21, MPI_COMM_WORLD,
                     &status);
        MPI_Sendrecv_replace(shorts, 4, MPI_SHORT, 0, 32, 0, 31, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
        MPI_Send(ints, 6, MPI_INT, 0, 41, MPI_COMM_WORLD);
        MPI_Send(chars, 7, MPI_BYTE, 0, 51, MPI_COMM_WORLD);
        MPI_Send(doubles, 2, MPI_DOUBLE, 0, 61, MPI_COMM_WORLD);
        MPI_Recv(ints, 6, MPI_INT, 0, 71, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(ints, 6, MPI_INT, 0, 72, MPI_COMM_WORLD);
    }

    /* a message to oneself on MPI_COMM_SELF (a blocking send to oneself may wait for
     * its receive forever: MPICH over UCX does) */
    MPI_Sendrecv(ints, 2, MPI_INT, 0, 81, ints + 2, 2, MPI_INT, 0, 81, MPI_COMM_SELF,
                 MPI_STATUS_IGNORE);

    /* MPI_PROC_NULL: the calls are recorded, but no message */
    MPI_Send(ints, 1, MPI_INT, MPI_PROC_NULL, 91, MPI_COMM_WORLD);
    MPI_Recv(ints, 1, MPI_INT, MPI_PROC_NULL, 91, MPI_COMM_WORLD, &status);
    check(status.MPI_SOURCE == MPI_PROC_NULL, "recv from MPI_PROC_NULL");
    MPI_Sendrecv(ints, 1, MPI_INT, MPI_PROC_NULL, 92, ints + 1, 1, MPI_INT, MPI_PROC_NULL, 92,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Isend(ints, 1, MPI_INT, MPI_PROC_NULL, 93, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);

    MPI_Type_free(&vector);
    MPI_Finalize();
    return 0;
}
