/* A job that starts two more processes with MPI_Comm_spawn (integration/openmpi.sh, (h)):
 * the parents, 2 ranks, spawn 2 copies of this program; parent rank 0 sends 42 to child
 * rank 0 on the intercommunicator; the parents then meet in MPI_Barrier and the children
 * in MPI_Allreduce, so that a trace shows whose calls it holds.  Each prints one line. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Comm parent, children;
    int rank, x = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (parent == MPI_COMM_NULL) {
        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                       &children, MPI_ERRCODES_IGNORE);
        if (rank == 0) {
            x = 42;
            MPI_Send(&x, 1, MPI_INT, 0, 7, children);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Comm_disconnect(&children);
        printf("parent %d\n", rank);
    } else {
        if (rank == 0)
            MPI_Recv(&x, 1, MPI_INT, 0, 7, parent, MPI_STATUS_IGNORE);
        MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Comm_disconnect(&parent);
        printf("child %d: %d\n", rank, x);
    }
    MPI_Finalize();
    return 0;
}
