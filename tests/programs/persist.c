/* Persistent requests on 2 ranks (tests/integration/persist.sh): Send_init, Bsend_init,
 * Ssend_init, Rsend_init and Recv_init, started with Start and Startall several times,
 * completed with Wait and Waitall, then freed; every start is a new request in the
 * trace.  A last persistent receive is freed without having been started. */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 3

int main(int argc, char **argv)
{
    int rank, size, peer, a[8] = { 0 }, b[8] = { 0 }, bsize;
    char bbuf[MPI_BSEND_OVERHEAD + 64];
    void *detached;
    MPI_Request req[4];
    MPI_Status st[4];
    MPI_Comm w = MPI_COMM_WORLD;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(w, &rank);
    MPI_Comm_size(w, &size);
    if (size != 2) {
        fprintf(stderr, "persist: run me on 2 ranks\n");
        MPI_Abort(w, 2);
    }
    peer = 1 - rank;

    /* a standard send and a receive, started together ROUNDS times */
    MPI_Recv_init(a, 2, MPI_INT, peer, 1, w, &req[0]);
    MPI_Send_init(b, 2, MPI_INT, peer, 1, w, &req[1]);
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Startall(2, req);
        MPI_Waitall(2, req, st);
    }
    /* the same requests started one by one */
    MPI_Start(&req[0]);
    MPI_Start(&req[1]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);

    /* buffered and synchronous sends */
    MPI_Buffer_attach(bbuf, (int)sizeof(bbuf));
    MPI_Recv_init(a, 3, MPI_INT, peer, 2, w, &req[0]);
    MPI_Recv_init(a + 3, 4, MPI_INT, peer, 3, w, &req[1]);
    MPI_Bsend_init(b, 3, MPI_INT, peer, 2, w, &req[2]);
    MPI_Ssend_init(b, 4, MPI_INT, peer, 3, w, &req[3]);
    MPI_Startall(4, req);
    MPI_Waitall(4, req, st);
    for (int i = 0; i < 4; i++)
        MPI_Request_free(&req[i]);
    MPI_Buffer_detach(&detached, &bsize);

    /* a ready send: the peer's receive is started before the barrier */
    MPI_Recv_init(a, 1, MPI_INT, peer, 4, w, &req[0]);
    MPI_Rsend_init(b, 1, MPI_INT, peer, 4, w, &req[1]);
    MPI_Start(&req[0]);
    MPI_Barrier(w);
    MPI_Start(&req[1]);
    MPI_Waitall(2, req, st);
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);

    /* never started */
    MPI_Recv_init(a, 1, MPI_INT, peer, 5, w, &req[0]);
    MPI_Request_free(&req[0]);

    MPI_Finalize();
    return 0;
}
