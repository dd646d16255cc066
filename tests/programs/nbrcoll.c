/* Neighborhood collectives on a 2x2 Cartesian grid of 4 ranks, periodic along
 * dimension 0 only (integration/nbrcoll.sh): blocking, nonblocking and persistent.
 * Rank r is at (r / 2, r % 2); its neighbours in MPI's order are those of dimension 0
 * (the other row, twice: the grid is periodic and 2 wide) and of dimension 1 (the other
 * column on one side, MPI_PROC_NULL on the other). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int dims[2] = { 2, 2 }, periods[2] = { 1, 0 };
    int send[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, recv[8];
    /* alltoallv: one int to each neighbour of dimension 0, two to each of dimension 1 */
    int counts[4] = { 1, 1, 2, 2 }, displs[4] = { 0, 1, 2, 4 };
    MPI_Comm grid;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    MPI_Neighbor_allgather(send, 1, MPI_INT, recv, 1, MPI_INT, grid);
    MPI_Neighbor_alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, grid);
    MPI_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, grid, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Neighbor_allgather_init(send, 1, MPI_INT, recv, 1, MPI_INT, grid, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Request_free(&req);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return 0;
}
