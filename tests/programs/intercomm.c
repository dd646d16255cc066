/* Collectives on an intercommunicator (tests/integration/intercomm.sh): MPI_COMM_WORLD
 * of 4 ranks split into group A = {world 0} and group B = {worlds 1, 2, 3}, joined by
 * MPI_Intercomm_create, then on it a Barrier, a Bcast of 4 ints from A's rank 0 and one
 * of 2 ints from B's rank 1, world 2 (MPI_ROOT at the root, MPI_PROC_NULL at the rest of its
 * group, the root's rank in the other), an Allreduce, an Allgather and an Alltoall of
 * one int, and a Reduce of one int to A's rank 0. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, in_a, local_rank, one = 1, sum = 0, buf[4] = { 0 }, all[3] = { 0 };
    int each[3] = { 1, 1, 1 };
    MPI_Comm local, inter;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        fprintf(stderr, "intercomm: run me on 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    in_a = rank == 0;
    MPI_Comm_split(MPI_COMM_WORLD, in_a, rank, &local);
    MPI_Comm_rank(local, &local_rank);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? 1 : 0, 7, &inter);

    MPI_Barrier(inter);
    if (in_a)
        MPI_Bcast(buf, 4, MPI_INT, MPI_ROOT, inter);
    else
        MPI_Bcast(buf, 4, MPI_INT, 0, inter);
    if (in_a)
        MPI_Bcast(buf, 2, MPI_INT, 1, inter);
    else
        MPI_Bcast(buf, 2, MPI_INT, local_rank == 1 ? MPI_ROOT : MPI_PROC_NULL, inter);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, inter);
    MPI_Allgather(&one, 1, MPI_INT, all, 1, MPI_INT, inter);
    MPI_Alltoall(each, 1, MPI_INT, all, 1, MPI_INT, inter);
    if (in_a)
        MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_ROOT, inter);
    else
        MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, 0, inter);
    if (in_a && sum != 3) {
        fprintf(stderr, "intercomm: the Reduce gave %d, expected 3\n", sum);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
