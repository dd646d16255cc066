/* MPI_THREAD_MULTIPLE on 2 ranks (tests/integration/threads.sh): each rank starts 4
 * threads that talk at the same time with the same thread of the other rank, thread t
 * with tag 100 + t only.  Each thread does ROUNDS rounds of an Irecv/Isend pair
 * completed by Waitall and a Sendrecv; the main thread only initialises, waits for the
 * threads and finalises.  Every call of every thread must be in the trace. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 4
#define ROUNDS 20

static int peer;

static void *talk(void *arg)
{
    int tag = 100 + (int)(long)arg, a[2], b[2] = { 1, 2 }, x = 0, y = 0;
    MPI_Request req[2];
    MPI_Status st[2];

    for (int i = 0; i < ROUNDS; i++) {
        MPI_Irecv(a, 2, MPI_INT, peer, tag, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(b, 2, MPI_INT, peer, tag, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, st);
        if (st[0].MPI_TAG != tag || st[0].MPI_SOURCE != peer) {
            fprintf(stderr, "threads: tag %d got a message with tag %d\n", tag, st[0].MPI_TAG);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        MPI_Sendrecv(&x, 1, MPI_INT, peer, tag, &y, 1, MPI_INT, peer, tag, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    pthread_t threads[THREADS];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided != MPI_THREAD_MULTIPLE || size != 2) {
        fprintf(stderr, "threads: needs MPI_THREAD_MULTIPLE and 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    peer = 1 - rank;
    for (long t = 0; t < THREADS; t++)
        if (pthread_create(&threads[t], NULL, talk, (void *)t) != 0) {
            fprintf(stderr, "threads: pthread_create failed\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
