/* A library of the program's own through which it reaches MPI (integration/openmpi.sh,
 * (e)): the program is linked with this library alone, and only the library with MPI,
 * as a program linked with ScaLAPACK or PETSc is. */
#include <mpi.h>

int via_ring(int *argc, char ***argv);

/* Each rank sends its rank to the next and receives from the previous; returns what it
 * received, or -1 if MPI failed. */
int via_ring(int *argc, char ***argv)
{
    int rank, size, got = -1;

    if (MPI_Init(argc, argv) != MPI_SUCCESS)
        return -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return got;
}
