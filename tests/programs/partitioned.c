/* MPI-4 partitioned communication between 2 ranks (integration/partitioned.sh): rank 0
 * sends 4 partitions of 2 ints, marking them ready one by one, by range and by list;
 * rank 1 receives them, asking once with MPI_Parrived whether the last one arrived. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, data[8] = { 0 }, flag, list[2] = { 2, 3 };
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Psend_init(data, 4, 2, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
        MPI_Start(&req);
        MPI_Pready(0, req);
        MPI_Pready_range(1, 1, req);
        MPI_Pready_list(2, list, req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Precv_init(data, 4, 2, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
        MPI_Start(&req);
        MPI_Parrived(req, 3, &flag);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&req);
    MPI_Finalize();
    return 0;
}
