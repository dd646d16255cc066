/* lulesh: the communication of LULESH's time steps on a cube of processes (1, 8, 27,
 * 64...; any other count is refused), each owning a block of N^3 values (16^3 by
 * default: weak scaling, the work per process is the same at every count).  The blocks
 * find their neighbours by rank arithmetic (block26.h): up to 26, faces of N^2 values,
 * edges of N, corners of 1, fewer on the boundary of the cube.  Every step posts the
 * receives from every neighbour first (MPI_Irecv), computes the forces, packs and sends
 * the boxes next to each neighbour (MPI_Isend), waits for all (MPI_Waitall) and unpacks
 * them into the halo, updates the block and takes the smallest time step over all ranks
 * (MPI_Allreduce, MPI_MIN).  Intervals: the steps (1), posting the receives (2), the
 * forces (3), the exchange (4), the update (5), the time step (6).
 * A program of the scaling validation run at cubes only: not in scripts/scale_validate.sh,
 * whose counts are not cubes; recorded at 1, 8 and 27 by hand.
 *
 *   mpicc -g -O2 -I$PREFIX/include -o lulesh lulesh.c -lm && mpiexec -n 8 ./lulesh [STEPS [N]]
 */
#include <math.h>
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#include "block26.h"

/* f = a smoothed, nonlinear function of u's six neighbours (the "forces"). */
static void forces(const int n[3], const double *u, double *f)
{
    size_t sy = (size_t)n[0] + 2, sz = sy * (n[1] + 2);

    for (int z = 1; z <= n[2]; z++)
        for (int y = 1; y <= n[1]; y++)
            for (int x = 1; x <= n[0]; x++) {
                size_t k = block_at(n, x, y, z);
                double s = u[k - 1] + u[k + 1] + u[k - sy] + u[k + sy] + u[k - sz] + u[k + sz];
                f[k] = sqrt(fabs(s - 6.0 * u[k]) + 1.0) - 1.0;
            }
}

/* u += dt f on the block; returns the step the block allows. */
static double update(const int n[3], double *u, const double *f, double dt)
{
    double allowed = 1.0;

    for (int z = 1; z <= n[2]; z++)
        for (int y = 1; y <= n[1]; y++)
            for (int x = 1; x <= n[0]; x++) {
                size_t k = block_at(n, x, y, z);
                u[k] += dt * f[k];
                allowed = fmin(allowed, 0.5 / (1.0 + fabs(f[k])));
            }
    return allowed;
}

int main(int argc, char **argv)
{
    int rank, size, steps = argc > 1 ? atoi(argv[1]) : 100, order = argc > 2 ? atoi(argv[2]) : 16;
    int side = 1, n[3] = {order, order, order};
    struct nbr26 nb[26];
    MPI_Request req[52];
    MPI_Status st[52];
    double dt = 0.1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    while ((side + 1) * (side + 1) * (side + 1) <= size)
        side++;
    if (side * side * side != size) {
        if (rank == 0)
            fprintf(stderr, "lulesh: %d processes is not a cube (1, 8, 27, 64...)\n", size);
        MPI_Finalize();
        return 1;
    }
    int dims[3] = {side, side, side}, c[3] = {rank % side, rank / side % side, rank / (side * side)};
    int m = nbr26_list(dims, c, n, nb);
    size_t len = (size_t)(n[0] + 2) * (n[1] + 2) * (n[2] + 2);
    double *u = calloc(len, sizeof(double)), *f = calloc(len, sizeof(double));
    for (size_t k = 0; k < len; k++)
        u[k] = (double)((k * 7 + (size_t)rank) % 13) / 13.0;
    for (int i = 0; i < m; i++) {
        nb[i].out = calloc((size_t)nb[i].len, sizeof(double));
        nb[i].in = calloc((size_t)nb[i].len, sizeof(double));
    }

    PROGNOZ_BEGIN(1);
    for (int s = 0; s < steps; s++) {
        PROGNOZ_BEGIN(2);
        for (int i = 0; i < m; i++)
            MPI_Irecv(nb[i].in, nb[i].len, MPI_DOUBLE, nb[i].rank, nb[i].tag_in, MPI_COMM_WORLD, &req[i]);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        forces(n, u, f);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        for (int i = 0; i < m; i++) {
            block_box(n, u, nb[i].off, nb[i].out, 0);
            MPI_Isend(nb[i].out, nb[i].len, MPI_DOUBLE, nb[i].rank, nb[i].tag_out, MPI_COMM_WORLD, &req[m + i]);
        }
        MPI_Waitall(2 * m, req, st);
        for (int i = 0; i < m; i++)
            block_box(n, u, nb[i].off, nb[i].in, 1);
        PROGNOZ_END(4);
        PROGNOZ_BEGIN(5);
        double allowed = update(n, u, f, dt);
        PROGNOZ_END(5);
        PROGNOZ_BEGIN(6);
        MPI_Allreduce(&allowed, &dt, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        PROGNOZ_END(6);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("lulesh: %d ranks (%d^3), %d^3 per rank, %d steps, last step %.6e\n",
               size, side, order, steps, dt);
    for (int i = 0; i < m; i++) {
        free(nb[i].out);
        free(nb[i].in);
    }
    free(u);
    free(f);
    MPI_Finalize();
    return 0;
}
