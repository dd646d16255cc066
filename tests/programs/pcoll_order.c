/* Persistent collectives started in different orders (integration/pcoll_order.sh, 2
 * ranks), as MPICH's coll/p_order starts them: MPI matches each with the same request on
 * the other rank, so rank 0's Bcast then Barrier meet rank 1's Barrier then Bcast. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a = -1, rank;
    MPI_Request req[2];
    MPI_Status statuses[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast_init(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]);
    if (rank == 0) {
        a = 42;
        MPI_Start(&req[0]);
        MPI_Start(&req[1]);
    } else {
        MPI_Start(&req[1]);
        MPI_Start(&req[0]);
    }
    MPI_Waitall(2, req, statuses);
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    MPI_Finalize();
    return a == 42 ? 0 : 1;
}
