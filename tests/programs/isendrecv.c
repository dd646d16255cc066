/* MPI-4's MPI_Isendrecv and MPI_Isendrecv_replace between 2 ranks
 * (integration/isendrecv.sh): each rank exchanges with the other, completing by
 * MPI_Wait and by MPI_Waitall, and once with MPI_PROC_NULL as its source. */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, other, out[4] = { 1, 2, 3, 4 }, in[4], buf[2] = { 5, 6 };
    double d = 1.0;
    MPI_Request req[2];
    MPI_Status statuses[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    MPI_Isendrecv(out, 4, MPI_INT, other, 7, in, 4, MPI_INT, other, 7, MPI_COMM_WORLD, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Isendrecv_replace(buf, 2, MPI_INT, other, 8, other, 8, MPI_COMM_WORLD, &req[0]);
    MPI_Isendrecv(&d, 1, MPI_DOUBLE, other, 9, NULL, 0, MPI_DOUBLE, MPI_PROC_NULL, 9,
                  MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, statuses);
    /* the double sent to the other, received by it */
    MPI_Recv(&d, 1, MPI_DOUBLE, other, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return in[0] == 1 && buf[0] == 5 ? 0 : 1;
}
