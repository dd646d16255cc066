/* One-sided communication between 2 ranks (integration/rma.sh): a window of 4 ints made
 * by MPI_Win_create, a fence epoch with a Put and a Get, a passive epoch of rank 0 on
 * rank 1 (lock, Accumulate, Fetch_and_op, Compare_and_swap, flush, unlock), a
 * lock_all epoch with an Rput, then a window from MPI_Win_allocate with a
 * post/start/complete/wait epoch. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, other, buf[4] = { 0 }, v[4] = { 1, 2, 3, 4 }, got[2], one = 1, old, cmp = 0;
    int *mem;
    MPI_Win win, alloc;
    MPI_Group world, peer;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Put(v, 2, MPI_INT, other, 0, 2, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Get(got, 2, MPI_INT, other, 2, 2, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Accumulate(v, 4, MPI_INT, 1, 0, 4, MPI_INT, MPI_SUM, win);
        MPI_Fetch_and_op(&one, &old, MPI_INT, 1, 0, MPI_SUM, win);
        MPI_Compare_and_swap(&one, &cmp, &old, MPI_INT, 1, 1, win);
        MPI_Win_flush(1, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Win_lock_all(0, win);
    MPI_Rput(v, 1, MPI_INT, other, 3, 1, MPI_INT, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);

    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &alloc);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &other, &peer);
    MPI_Win_post(peer, 0, alloc);
    MPI_Win_start(peer, 0, alloc);
    MPI_Put(&one, 1, MPI_INT, other, 0, 1, MPI_INT, alloc);
    MPI_Win_complete(alloc);
    MPI_Win_wait(alloc);
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
    MPI_Win_free(&alloc);
    MPI_Finalize();
    return 0;
}
