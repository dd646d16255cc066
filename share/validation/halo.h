/* The halo exchange the stencil and the CG-like solver share: a grid of `rows` local
 * rows of `cols` values, with a halo row before and after them, trades its first and
 * last rows with the processes above (up) and below (down); MPI_PROC_NULL at the ends. */
#ifndef VALIDATION_HALO_H
#define VALIDATION_HALO_H

#include <mpi.h>
#include <stddef.h>

static inline void exchange_halo(double *u, int rows, int cols, int up, int down)
{
    MPI_Request req[4];
    MPI_Status st[4];  /* not MPI_STATUSES_IGNORE: gcc 12 warns of it wrongly */

    MPI_Irecv(&u[0], cols, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[(size_t)(rows + 1) * cols], cols, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[cols], cols, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[(size_t)rows * cols], cols, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, st);
}

#endif
