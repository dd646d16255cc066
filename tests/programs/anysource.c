/* Wildcard receives on 3 ranks (tests/integration/anysource.sh): rank 0 receives with
 * MPI_ANY_SOURCE and MPI_ANY_TAG and ignores the statuses, through Recv, Irecv with
 * Waitall and Wait, Mprobe with Mrecv, and Sendrecv.  The senders take turns, each
 * starting only when told to, so which rank each wildcard receive gets is fixed: the
 * trace must show that real sender and tag. */
#include <mpi.h>
#include <stdio.h>

#define ANY MPI_ANY_SOURCE, MPI_ANY_TAG

int main(int argc, char **argv)
{
    int rank, size, a[8] = { 0 }, b[8] = { 0 };
    MPI_Request req[2];
    MPI_Message msg;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Status *volatile statuses_ignore = MPI_STATUSES_IGNORE;  /* see requests.c */

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(w, &rank);
    MPI_Comm_size(w, &size);
    if (size != 3) {
        fprintf(stderr, "anysource: run me on 3 ranks\n");
        MPI_Abort(w, 2);
    }
    if (rank == 0) {
        MPI_Recv(a, 8, MPI_INT, ANY, w, MPI_STATUS_IGNORE);           /* from 2 */
        MPI_Send(b, 0, MPI_INT, 1, 1, w);                             /* 1: go */
        MPI_Recv(a, 8, MPI_INT, ANY, w, MPI_STATUS_IGNORE);           /* from 1 */
        MPI_Irecv(a, 8, MPI_INT, ANY, w, &req[0]);                    /* from 2 */
        MPI_Irecv(b, 8, MPI_INT, ANY, w, &req[1]);                    /* from 1 */
        MPI_Send(b, 0, MPI_INT, 2, 4, w);                             /* 2: go */
        MPI_Waitall(2, req, statuses_ignore);
        MPI_Irecv(a, 8, MPI_INT, ANY, w, &req[0]);                    /* from 1 */
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        MPI_Send(b, 0, MPI_INT, 2, 3, w);                             /* 2: go */
        MPI_Mprobe(ANY, w, &msg, MPI_STATUS_IGNORE);                  /* from 2 */
        MPI_Mrecv(a, 8, MPI_INT, &msg, MPI_STATUS_IGNORE);
        MPI_Sendrecv(b, 1, MPI_INT, 1, 41, a, 8, MPI_INT, ANY, w, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(a, 0, MPI_INT, 0, 1, w, MPI_STATUS_IGNORE);
        MPI_Send(b, 2, MPI_INT, 0, 11, w);
        MPI_Recv(a, 0, MPI_INT, 2, 2, w, MPI_STATUS_IGNORE);
        MPI_Send(b, 5, MPI_INT, 0, 21, w);
        MPI_Send(b, 1, MPI_INT, 0, 31, w);
        MPI_Recv(a, 1, MPI_INT, 0, 41, w, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(b, 3, MPI_INT, 0, 12, w);
        MPI_Recv(a, 0, MPI_INT, 0, 4, w, MPI_STATUS_IGNORE);
        MPI_Ssend(b, 4, MPI_INT, 0, 22, w);   /* returns once rank 0 matched it */
        MPI_Send(b, 0, MPI_INT, 1, 2, w);     /* 1: go */
        MPI_Recv(a, 0, MPI_INT, 0, 3, w, MPI_STATUS_IGNORE);
        MPI_Send(b, 6, MPI_INT, 0, 32, w);
        MPI_Send(b, 7, MPI_INT, 0, 42, w);
    }
    MPI_Finalize();
    return 0;
}
