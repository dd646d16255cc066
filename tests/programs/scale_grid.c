/* A 2-D halo exchange on the grid MPI_Dims_create and MPI_Cart_create lay out
 * (non-periodic), for prognoz scale (tests/integration/scale.sh): ITERATIONS times
 * (argument, default 20) each process exchanges one halo of 256 doubles with each
 * neighbour that exists (MPI_Irecv and MPI_Isend in the order west, east, north, south
 * of MPI_Cart_shift, one MPI_Waitall), computes a share of a fixed amount of work
 * (1/size of it), and every 5th iteration sums a residual over all processes
 * (MPI_Allreduce).  The loop is interval 1, the exchange interval 2.  With a second
 * argument "nodes" the residual is first summed over the processes sharing a node
 * (MPI_Comm_split_type), whose communicator prognoz scale lays out by the machines'
 * nodes. */
#include <mpi.h>
#include <prognoz.h>
#include <stdlib.h>
#include <string.h>

#define HALO 256
#define WORK 4000000.0

/* Work that the compiler cannot drop: about n multiply-adds. */
static double compute(double n)
{
    volatile double x = 1.0;

    for (double i = 0; i < n; i++)
        x = x * 0.999999 + 1e-6;
    return x;
}

int main(int argc, char **argv)
{
    int size, dims[2] = { 0, 0 }, periods[2] = { 0, 0 }, nb[4];
    int iterations = argc > 1 ? atoi(argv[1]) : 20;
    int by_node = argc > 2 && !strcmp(argv[2], "nodes");
    double out[4][HALO] = { { 0 } }, in[4][HALO], residual = 0;
    MPI_Request req[8];
    MPI_Status statuses[8];
    MPI_Comm grid, node = MPI_COMM_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    MPI_Cart_shift(grid, 1, 1, &nb[0], &nb[1]);
    MPI_Cart_shift(grid, 0, 1, &nb[2], &nb[3]);
    if (by_node)
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iterations; it++) {
        int n = 0;

        PROGNOZ_BEGIN(2);
        for (int k = 0; k < 4; k++)
            if (nb[k] != MPI_PROC_NULL) {
                MPI_Irecv(in[k], HALO, MPI_DOUBLE, nb[k], k ^ 1, grid, &req[n++]);
                MPI_Isend(out[k], HALO, MPI_DOUBLE, nb[k], k, grid, &req[n++]);
            }
        MPI_Waitall(n, req, statuses);
        PROGNOZ_END(2);
        residual += compute(WORK / size);
        if (it % 5 == 4 && by_node)
            MPI_Allreduce(MPI_IN_PLACE, &residual, 1, MPI_DOUBLE, MPI_SUM, node);
        if (it % 5 == 4)
            MPI_Allreduce(MPI_IN_PLACE, &residual, 1, MPI_DOUBLE, MPI_SUM, grid);
    }
    PROGNOZ_END(1);
    MPI_Comm_free(&grid);
    if (by_node)
        MPI_Comm_free(&node);
    MPI_Finalize();
    return residual < 0;
}
