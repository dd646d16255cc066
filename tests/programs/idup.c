/* MPI_Comm_idup and MPI_Comm_idup_with_info on 2 ranks (integration/idup.sh): a
 * duplicate of the world used by an Allreduce once its request completed, a duplicate
 * of it by a Barrier, and two duplicates of the world made at once, used in the order
 * they were made. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int in = 1, out = 0;
    MPI_Comm dup, dupdup, a, b;
    MPI_Request req[2];
    MPI_Status statuses[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, dup);
    MPI_Comm_idup_with_info(dup, MPI_INFO_NULL, &dupdup, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Barrier(dupdup);
    MPI_Comm_idup(MPI_COMM_WORLD, &a, &req[0]);
    MPI_Comm_idup(MPI_COMM_WORLD, &b, &req[1]);
    MPI_Waitall(2, req, statuses);
    MPI_Barrier(a);
    MPI_Barrier(b);
    MPI_Comm_free(&b);
    MPI_Comm_free(&a);
    MPI_Comm_free(&dupdup);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return out == 2 ? 0 : 1;
}
