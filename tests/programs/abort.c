/* A run that dies before MPI_Finalize (tests/integration/trace_dir.sh): every rank
 * meets in a barrier, then rank 0 aborts the job with status 4 while the others wait
 * for a message that never comes. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Abort(MPI_COMM_WORLD, 4);
    MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
