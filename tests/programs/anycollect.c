/* A collection from MPI_ANY_SOURCE (integration/anycollect.sh): at each of 3 steps every
 * rank but 0 sends 8 bytes to rank 0 (tag 7), which receives them from MPI_ANY_SOURCE
 * with MPI_Recv, then broadcasts 8 bytes; at the end the same once more with MPI_Irecv
 * from MPI_ANY_SOURCE (tag 9) completed by MPI_Waitall. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size;
    double v = 0;
    MPI_Request *req;
    MPI_Status *st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int step = 0; step < 3; step++) {
        if (rank == 0)
            for (int i = 1; i < size; i++)
                MPI_Recv(&v, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        else
            MPI_Send(&v, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
        MPI_Bcast(&v, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    req = malloc((size_t)size * sizeof(*req));
    st = malloc((size_t)size * sizeof(*st));
    if (rank == 0) {
        double *got = malloc((size_t)size * sizeof(*got));

        for (int i = 1; i < size; i++)
            MPI_Irecv(&got[i], 1, MPI_DOUBLE, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &req[i - 1]);
        MPI_Waitall(size - 1, req, st);
        free(got);
    } else {
        MPI_Send(&v, 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
    }
    free(req);
    free(st);
    MPI_Finalize();
    return 0;
}
