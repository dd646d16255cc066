/* Completions of requests that share a handle, on 2 ranks (integration/proc_null_waits.sh).
 * MPICH gives an MPI_Isend to MPI_PROC_NULL and a small MPI_Isend that completed at once
 * the same prebuilt handle.  Each rank, at the edge of a 1-D grid whose other neighbour
 * is MPI_PROC_NULL, makes a stencil's halo exchange completed by one MPI_Waitall; then
 * two exchanges with the other rank whose handles it copies into another array before
 * the MPI_Waitall. */
#include <mpi.h>
#include <string.h>

/* Receives from and sends to north and south, as a stencil's halo exchange does. */
static void halo(int north, int south, int tag, int *in, const int *out)
{
    MPI_Request req[4];
    MPI_Status statuses[4];

    MPI_Irecv(&in[0], 1, MPI_INT, north, tag, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(&out[0], 1, MPI_INT, north, tag, MPI_COMM_WORLD, &req[1]);
    MPI_Irecv(&in[1], 1, MPI_INT, south, tag, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&out[1], 1, MPI_INT, south, tag, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, statuses);
}

/* Two exchanges with other, waited for through a copy of their handles. */
static void copied(int other, int *in, const int *out)
{
    MPI_Request req[4], copy[4];
    MPI_Status statuses[4];

    MPI_Irecv(&in[0], 1, MPI_INT, other, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(&out[0], 1, MPI_INT, other, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Irecv(&in[1], 1, MPI_INT, other, 3, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&out[1], 1, MPI_INT, other, 3, MPI_COMM_WORLD, &req[3]);
    memcpy(copy, req, sizeof(req));
    MPI_Waitall(4, copy, statuses);
}

int main(int argc, char **argv)
{
    int rank, other, in[2] = { 0, 0 }, out[2] = { 7, 8 }, ok;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    halo(MPI_PROC_NULL, other, 1, in, out);
    ok = in[1] == 8;
    copied(other, in, out);
    ok = ok && in[0] == 7 && in[1] == 8;
    MPI_Finalize();
    return ok ? 0 : 1;
}
