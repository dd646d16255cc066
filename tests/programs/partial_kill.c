/* A run long enough for a checkpoint (integration/partial_kill.sh, run with
 * PROGNOZ_FLUSH_INTERVAL=1): every rank makes MPI_Init, MPI_Comm_rank and three
 * MPI_Barrier, sleeps 1.5 s, then makes three more MPI_Barrier, the first of which
 * ends past the interval and takes the checkpoint.  Then, as argv[1] says: "kill":
 * rank 1 kills itself with SIGKILL, and rank 0 waits in a seventh barrier until mpiexec
 * kills it; "term": the same with SIGTERM; "finalize": every rank calls MPI_Finalize. */
#include <mpi.h>
#include <signal.h>
#include <string.h>

#include "sleep_ms.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "finalize";
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 3; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    sleep_ms(1500);
    for (int i = 0; i < 3; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1 && !strcmp(mode, "kill"))
        raise(SIGKILL);
    if (rank == 1 && !strcmp(mode, "term"))
        raise(SIGTERM);
    if (strcmp(mode, "finalize") != 0)
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
