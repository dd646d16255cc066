/* MPI-4 persistent collectives on 2 ranks (integration/pcoll.sh): an Allreduce started
 * twice by MPI_Start, then it with a Bcast and an Allgatherv by one MPI_Startall, each
 * completed by a wait and freed. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int in[4] = { 1, 2, 3, 4 }, out[4], gathered[4], rank;
    int counts[2] = { 1, 3 }, displs[2] = { 0, 1 };
    double block[8] = { 0 };
    MPI_Request req[3];
    MPI_Status statuses[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce_init(in, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
    MPI_Bcast_init(block, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]);
    MPI_Allgatherv_init(in, counts[rank], MPI_INT, gathered, counts, displs, MPI_INT,
                        MPI_COMM_WORLD, MPI_INFO_NULL, &req[2]);
    for (int i = 0; i < 2; i++) {
        MPI_Start(&req[0]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    }
    MPI_Startall(3, req);
    MPI_Waitall(3, req, statuses);
    for (int i = 0; i < 3; i++)
        MPI_Request_free(&req[i]);
    MPI_Finalize();
    return out[0] == 2 && gathered[0] == 1 ? 0 : 1;
}
