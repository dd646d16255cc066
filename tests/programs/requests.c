/* Nonblocking point-to-point calls on 2 ranks, completed by each member of the wait and
 * test families, so that tests/integration/requests.sh can check that every post is
 * linked to its completion by the request id.  Where a call could complete one request
 * or several depending on timing, the program orders the messages so that exactly one
 * outcome is possible:
 *   - Waitany/Waitsome are given one receive whose message was sent and one whose
 *     message the peer sends only after being told to;
 *   - the failing tests look at a receive whose message is sent after a barrier;
 *   - the succeeding tests look at a receive matched by a synchronous send that
 *     completed before a barrier. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "requests: %s\n", what);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

int main(int argc, char **argv)
{
    int rank, size, peer, flag, index, outcount, indices[4], a[8] = { 0 }, b[8] = { 0 };
    MPI_Request req[4];
    MPI_Status st[4];
    MPI_Comm w = MPI_COMM_WORLD;
    /* through a volatile pointer, so that GCC cannot see MPI_STATUSES_IGNORE (an address
     * of 1) and warn about writing to it (-Wstringop-overflow) */
    MPI_Status *volatile statuses_ignore = MPI_STATUSES_IGNORE;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(w, &rank);
    MPI_Comm_size(w, &size);
    check(size == 2, "run me on 2 ranks");
    peer = 1 - rank;

    /* 1. Wait, once with MPI_STATUS_IGNORE and once with a status */
    MPI_Irecv(a, 2, MPI_INT, peer, 1, w, &req[0]);
    MPI_Isend(b, 2, MPI_INT, peer, 1, w, &req[1]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], &st[0]);
    check(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL, "wait");

    /* 2. Waitall with statuses over every send mode that needs no buffer */
    MPI_Irecv(a, 3, MPI_INT, peer, 2, w, &req[0]);
    MPI_Irecv(a + 4, 1, MPI_INT, peer, 3, w, &req[1]);
    MPI_Barrier(w);     /* the peer's receives are posted: Irsend is allowed */
    MPI_Irsend(b, 3, MPI_INT, peer, 2, w, &req[2]);
    MPI_Issend(b, 1, MPI_INT, peer, 3, w, &req[3]);
    MPI_Waitall(4, req, st);
    check(st[0].MPI_SOURCE == peer && st[0].MPI_TAG == 2 && st[1].MPI_TAG == 3, "waitall");

    /* 3. Waitall with MPI_STATUSES_IGNORE over a wildcard receive, a send and a
     *    nonblocking barrier */
    MPI_Irecv(a, 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, w, &req[0]);
    MPI_Isend(b, 2, MPI_INT, peer, 4, w, &req[1]);
    MPI_Ibarrier(w, &req[2]);
    MPI_Waitall(3, req, statuses_ignore);

    /* 4. Waitany and Waitsome: rank 0 waits, rank 1 sends */
    if (rank == 0) {
        MPI_Irecv(a, 1, MPI_INT, 1, 5, w, &req[0]);
        MPI_Irecv(a + 1, 2, MPI_INT, 1, 6, w, &req[1]);
        MPI_Waitany(2, req, &index, &st[0]);
        check(index == 0 && st[0].MPI_TAG == 5, "waitany 1");
        MPI_Send(b, 0, MPI_INT, 1, 7, w);                    /* go on */
        MPI_Waitany(2, req, &index, MPI_STATUS_IGNORE);
        check(index == 1, "waitany 2");
        MPI_Irecv(a, 3, MPI_INT, 1, 8, w, &req[0]);
        MPI_Irecv(a + 3, 4, MPI_INT, 1, 9, w, &req[1]);
        MPI_Waitsome(2, req, &outcount, indices, st);
        check(outcount == 1 && indices[0] == 0, "waitsome 1");
        MPI_Send(b, 0, MPI_INT, 1, 10, w);                   /* go on */
        MPI_Waitsome(2, req, &outcount, indices, statuses_ignore);
        check(outcount == 1 && indices[0] == 1, "waitsome 2");
    } else {
        MPI_Send(b, 1, MPI_INT, 0, 5, w);
        MPI_Recv(a, 0, MPI_INT, 0, 7, w, MPI_STATUS_IGNORE);
        MPI_Send(b, 2, MPI_INT, 0, 6, w);
        MPI_Send(b, 3, MPI_INT, 0, 8, w);
        MPI_Recv(a, 0, MPI_INT, 0, 10, w, MPI_STATUS_IGNORE);
        MPI_Send(b, 4, MPI_INT, 0, 9, w);
    }

    /* 5. tests: rank 1 tests receives, rank 0 sends */
    if (rank == 1) {
        MPI_Irecv(a, 1, MPI_INT, 0, 11, w, &req[0]);
        MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
        check(!flag, "test before the send");
        MPI_Testall(1, req, &flag, st);
        check(!flag, "testall before the send");
        MPI_Testany(1, req, &index, &flag, &st[0]);
        check(!flag && index == MPI_UNDEFINED, "testany before the send");
        MPI_Testsome(1, req, &outcount, indices, st);
        check(outcount == 0, "testsome before the send");
        MPI_Barrier(w);
        MPI_Barrier(w);     /* rank 0's synchronous send has completed */
        MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
        check(flag, "test after the send");
        MPI_Irecv(a, 2, MPI_INT, 0, 12, w, &req[0]);
        MPI_Irecv(a + 2, 3, MPI_INT, 0, 13, w, &req[1]);
        MPI_Barrier(w);
        MPI_Barrier(w);
        MPI_Testall(2, req, &flag, statuses_ignore);
        check(flag, "testall after the sends");
        MPI_Irecv(a, 4, MPI_INT, 0, 14, w, &req[0]);
        MPI_Barrier(w);
        MPI_Barrier(w);
        MPI_Testany(1, req, &index, &flag, MPI_STATUS_IGNORE);
        check(flag && index == 0, "testany after the send");
        MPI_Irecv(a, 5, MPI_INT, 0, 15, w, &req[0]);
        MPI_Barrier(w);
        MPI_Barrier(w);
        MPI_Testsome(1, req, &outcount, indices, st);
        check(outcount == 1, "testsome after the send");
    } else {
        MPI_Barrier(w);
        MPI_Ssend(b, 1, MPI_INT, 1, 11, w);
        MPI_Barrier(w);
        MPI_Barrier(w);
        MPI_Ssend(b, 2, MPI_INT, 1, 12, w);
        MPI_Ssend(b, 3, MPI_INT, 1, 13, w);
        MPI_Barrier(w);
        MPI_Barrier(w);
        MPI_Ssend(b, 4, MPI_INT, 1, 14, w);
        MPI_Barrier(w);
        MPI_Barrier(w);
        MPI_Ssend(b, 5, MPI_INT, 1, 15, w);
        MPI_Barrier(w);
    }

    /* 6. a receive that is cancelled */
    MPI_Irecv(a, 1, MPI_INT, peer, 99, w, &req[0]);
    MPI_Cancel(&req[0]);
    MPI_Wait(&req[0], &st[0]);
    MPI_Test_cancelled(&st[0], &flag);
    check(flag, "cancelled");

    MPI_Finalize();
    return 0;
}
