/* MPI 4.0's communicator constructors from groups on 2 ranks
 * (tests/integration/fromgroups.sh): MPI_Comm_create_from_group of the world's group,
 * then one message from rank 0 to rank 1 over it (tag 1, 1 int); then
 * MPI_Intercomm_create_from_groups of each rank alone against the other, and one
 * message from rank 0 to rank 1, the other group's rank 0, over it (tag 2, 2 ints). */
#include <mpi.h>
#include <stdio.h>

/* The group of MPI_COMM_WORLD's rank alone. */
static MPI_Group group_of(MPI_Group world, int rank)
{
    MPI_Group g;

    MPI_Group_incl(world, 1, &rank, &g);
    return g;
}

/* Sends count ints (1 or 2) from world rank 0 to world rank 1 over comm, where the
 * receiver is dest and the sender 0 (on the intercommunicator, each the other group's
 * only process); 0 if they arrive. */
static int message(MPI_Comm comm, int rank, int dest, int tag, int count)
{
    int buf[2] = { 0, 0 };

    if (rank == 0) {
        buf[0] = 40 + tag;
        buf[1] = 50 + tag;
        MPI_Send(buf, count, MPI_INT, dest, tag, comm);
        return 0;
    }
    MPI_Recv(buf, count, MPI_INT, 0, tag, comm, MPI_STATUS_IGNORE);
    return buf[0] != 40 + tag || (count == 2 && buf[1] != 50 + tag);
}

int main(int argc, char **argv)
{
    int rank, size, wrong = 0;
    MPI_Group world, self, other;
    MPI_Comm comm, inter;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "fromgroups: run me on 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Comm_create_from_group(world, "org.prognoz.fromgroups", MPI_INFO_NULL,
                               MPI_ERRORS_ARE_FATAL, &comm);
    wrong |= message(comm, rank, 1, 1, 1);

    self = group_of(world, rank);
    other = group_of(world, 1 - rank);
    MPI_Intercomm_create_from_groups(self, 0, other, 0, "org.prognoz.fromgroups.inter",
                                     MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &inter);
    wrong |= message(inter, rank, 0, 2, 2);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&comm);
    MPI_Group_free(&other);
    MPI_Group_free(&self);
    MPI_Group_free(&world);
    if (wrong)
        fprintf(stderr, "fromgroups: rank %d: a message arrived wrong\n", rank);
    MPI_Finalize();
    return wrong;
}
