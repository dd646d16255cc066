/* Call sites of MPI calls made from C (integration/callsites.sh, on 2 processes): the
 * return address of the wrapper, in this file.  Each call the test checks carries a
 * comment "@NAME" by which the test finds its line. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 7, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank); /* @c_rank */
    if (rank == 0)
        MPI_Send(&value, 1, MPI_INT, 1, 3, MPI_COMM_WORLD); /* @c_send */
    else
        MPI_Recv(&value, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @c_recv */
    MPI_Allreduce(&value, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* @c_allreduce */
    if (rank == 0)
        printf("csites: %d\n", total);
    MPI_Finalize();
    return 0;
}
