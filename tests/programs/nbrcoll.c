/* Neighborhood collectives on a 2x2 Cartesian grid of 4 ranks, periodic along
 * dimension 0 only (integration/nbrcoll.sh): blocking, nonblocking and persistent.
 * Rank r is at (r / 2, r % 2); its neighbours in MPI's order are those of dimension 0
 * (the other row, twice: the grid is periodic and 2 wide) and of dimension 1 (the other
 * column on one side, MPI_PROC_NULL on the other).  Then on a directed ring made by
 * MPI_Dist_graph_create_adjacent with weights, each rank receiving from rank - 1 and
 * sending to rank + 1: an Allgatherv and an Alltoallw. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int dims[2] = { 2, 2 }, periods[2] = { 1, 0 };
    int send[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, recv[8];
    /* alltoallv: one int to each neighbour of dimension 0, two to each of dimension 1 */
    int counts[4] = { 1, 1, 2, 2 }, displs[4] = { 0, 1, 2, 4 };
    int rank, size, from, to, weight = 1, two = 2, zero = 0;
    MPI_Aint zero_bytes = 0;
    MPI_Datatype ints = MPI_INT;
    MPI_Comm grid, ring;
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

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    from = (rank + size - 1) % size;
    to = (rank + 1) % size;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &from, &weight, 1, &to, &weight,
                                   MPI_INFO_NULL, 0, &ring);
    MPI_Neighbor_allgatherv(send, 2, MPI_INT, recv, &two, &zero, MPI_INT, ring);
    MPI_Neighbor_alltoallw(send, &two, &zero_bytes, &ints, recv, &two, &zero_bytes, &ints, ring);
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return 0;
}
