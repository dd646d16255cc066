/* MPI-4's large-count forms between 2 ranks (integration/largecount.sh): blocking and
 * nonblocking sends and receives, a broadcast, an allreduce and an alltoallv whose
 * counts are MPI_Count and displacements MPI_Aint. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, other, ints[3] = { 1, 2, 3 }, in[3], sum[2], two[2] = { 1, 1 };
    int vs[5] = { 0 }, vr[5] = { 0 };
    double d[5] = { 0 };
    MPI_Count scounts[2], rcounts[2];
    MPI_Aint sdispls[2], rdispls[2];
    MPI_Request req[2];
    MPI_Status statuses[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    if (rank == 0) {
        MPI_Send_c(d, 5, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
        MPI_Recv_c(d, 5, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv_c(d, 5, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send_c(d, 5, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Irecv_c(in, 3, MPI_INT, other, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Isend_c(ints, 3, MPI_INT, other, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, statuses);
    MPI_Bcast_c(d, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Allreduce_c(two, sum, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    /* rank i sends rank j i+j+1 ints */
    for (int j = 0; j < 2; j++) {
        scounts[j] = rank + j + 1;
        rcounts[j] = j + rank + 1;
        sdispls[j] = rdispls[j] = 3 * j;
    }
    MPI_Alltoallv_c(vs, scounts, sdispls, MPI_INT, vr, rcounts, rdispls, MPI_INT,
                    MPI_COMM_WORLD);
    MPI_Finalize();
    return in[0] == 1 && sum[0] == 2 ? 0 : 1;
}
