/* A run that ends without MPI_Finalize (integration/partial.sh), as argv[1] says:
 * "abort": rank 1 calls MPI_Abort with error code 3; "segv": rank 1 writes through a
 * null pointer; "exit": rank 1 calls exit(5).  Before that every rank makes exactly
 * MPI_Init, MPI_Comm_rank and three MPI_Barrier; then rank 0 waits in a fourth barrier
 * for a rank that never comes, until mpiexec kills it. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 3; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1 && (argc < 2 || !strcmp(argv[1], "exit")))
        exit(5);
    if (rank == 1 && !strcmp(argv[1], "abort"))
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (rank == 1 && !strcmp(argv[1], "segv"))
        *(volatile int *)(uintptr_t)(argc - 2) = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
