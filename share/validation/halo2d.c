/* halo2d: Jacobi iteration of a 5-point stencil on a 1024^2 grid (or N^2) split on a 2-D
 * process grid (MPI_Dims_create, MPI_Cart_create, not periodic: zero beyond the
 * edges).  Every iteration exchanges the four halos with the neighbours MPI_Cart_shift
 * names (rows directly, columns packed; MPI_Irecv and MPI_Isend of each, one MPI_Waitall;
 * with 2 ranks the grid is 2x1: one row of 8 KiB each way) and relaxes the block; every
 * 10th iteration the squared change is summed over all ranks (MPI_Allreduce).  Intervals:
 * the iterations (1), the exchange (2), the relaxation (3), the residual (4).  Part of the
 * validation harness (scripts/validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o halo2d halo2d.c && mpiexec -n 2 ./halo2d [ITERATIONS [N]]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#define EVERY 10  /* iterations between two residuals */

struct block {
    int n[2];           /* local points along x (rows) and y (columns) */
    int nb[2][2];       /* the neighbours below and above along each dimension */
    double *col[2];     /* the packed columns to send (y = 1, y = n[1]) */
    double *recv[2];    /* the columns received (for y = 0, y = n[1] + 1) */
    MPI_Comm grid;
};

/* Index of (x, y) in a block with one halo layer all around. */
static size_t idx(const struct block *b, int x, int y)
{
    return (size_t)x * (b->n[1] + 2) + y;
}

/* Copies between column y of u and buf (to_buf: into buf, else out of it). */
static void copy_column(const struct block *b, double *u, int y, double *buf, int to_buf)
{
    for (int x = 1; x <= b->n[0]; x++) {
        double *cell = &u[idx(b, x, y)];
        if (to_buf)
            buf[x - 1] = *cell;
        else
            *cell = buf[x - 1];
    }
}

/* The four halos of u: rows straight into and out of u, columns through buffers.  The
 * halo from below arrives with tag 2d, from above with tag 2d+1. */
static void exchange(struct block *b, double *u)
{
    MPI_Request req[8];
    MPI_Status st[8];
    int r = 0, row_len = b->n[1], col_len = b->n[0];

    copy_column(b, u, 1, b->col[0], 1);
    copy_column(b, u, b->n[1], b->col[1], 1);
    MPI_Irecv(&u[idx(b, 0, 1)], row_len, MPI_DOUBLE, b->nb[0][0], 0, b->grid, &req[r++]);
    MPI_Irecv(&u[idx(b, b->n[0] + 1, 1)], row_len, MPI_DOUBLE, b->nb[0][1], 1, b->grid, &req[r++]);
    MPI_Isend(&u[idx(b, 1, 1)], row_len, MPI_DOUBLE, b->nb[0][0], 1, b->grid, &req[r++]);
    MPI_Isend(&u[idx(b, b->n[0], 1)], row_len, MPI_DOUBLE, b->nb[0][1], 0, b->grid, &req[r++]);
    for (int s = 0; s < 2; s++) {
        MPI_Irecv(b->recv[s], col_len, MPI_DOUBLE, b->nb[1][s], 2 + s, b->grid, &req[r++]);
        MPI_Isend(b->col[s], col_len, MPI_DOUBLE, b->nb[1][s], 3 - s, b->grid, &req[r++]);
    }
    MPI_Waitall(r, req, st);
    if (b->nb[1][0] != MPI_PROC_NULL)
        copy_column(b, u, 0, b->recv[0], 0);
    if (b->nb[1][1] != MPI_PROC_NULL)
        copy_column(b, u, b->n[1] + 1, b->recv[1], 0);
}

/* v = the average of u's four neighbours plus a source; returns the squared change. */
static double relax(const struct block *b, const double *u, double *v)
{
    size_t sx = (size_t)b->n[1] + 2;
    double change = 0.0;

    for (int x = 1; x <= b->n[0]; x++)
        for (int y = 1; y <= b->n[1]; y++) {
            size_t k = idx(b, x, y);
            v[k] = (u[k - sx] + u[k + sx] + u[k - 1] + u[k + 1]) / 4.0 + 1e-4;
            change += (v[k] - u[k]) * (v[k] - u[k]);
        }
    return change;
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 600, order = argc > 2 ? atoi(argv[2]) : 1024;
    int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
    double change = 0.0;
    struct block b;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &b.grid);
    MPI_Comm_rank(b.grid, &rank);
    MPI_Cart_coords(b.grid, rank, 2, coords);
    for (int d = 0; d < 2; d++) {  /* the first order % dims[d] blocks have a point more */
        b.n[d] = order / dims[d] + (coords[d] < order % dims[d]);
        MPI_Cart_shift(b.grid, d, 1, &b.nb[d][0], &b.nb[d][1]);
    }
    size_t len = (size_t)(b.n[0] + 2) * (b.n[1] + 2);
    double *u = calloc(len, sizeof(double)), *v = calloc(len, sizeof(double));
    for (int s = 0; s < 2; s++) {
        b.col[s] = calloc((size_t)b.n[0], sizeof(double));
        b.recv[s] = calloc((size_t)b.n[0], sizeof(double));
    }

    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        exchange(&b, u);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        double step = relax(&b, u, v);
        PROGNOZ_END(3);
        if ((it + 1) % EVERY == 0) {
            PROGNOZ_BEGIN(4);
            MPI_Allreduce(&step, &change, 1, MPI_DOUBLE, MPI_SUM, b.grid);
            PROGNOZ_END(4);
        }
        double *t = u;
        u = v, v = t;
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("halo2d: %d ranks (%dx%d), %d^2 grid, %d iterations, last change %.6e\n",
               size, dims[0], dims[1], order, iters, change);
    for (int s = 0; s < 2; s++) {
        free(b.col[s]);
        free(b.recv[s]);
    }
    free(u);
    free(v);
    MPI_Comm_free(&b.grid);
    MPI_Finalize();
    return 0;
}
