/* wavefront: a pipelined Gauss-Seidel (SSOR-like) sweep, shaped like the LU solver of
 * the NAS benchmarks: a 256 x 256 grid of 32 planes, the 256 x 256 split on a 2-D
 * process grid (MPI_Dims_create, MPI_Cart_create), every point depending on its
 * neighbours already updated in the sweep.  The forward sweep goes plane by plane: a
 * process receives the last row of the plane from the process to its north and the last
 * column from the one to its west (MPI_Recv), relaxes its part of the plane, and sends
 * its own last row south and last column east (MPI_Send), so that the processes work
 * on successive planes at once; the backward sweep goes the other way, from the south
 * east.  With 2 ranks, 32 messages of 2 KiB each way per sweep.  Every iteration ends
 * with the squared change summed over all ranks (MPI_Allreduce).  Intervals: the
 * iterations (1), the forward sweep (2), the backward sweep (3), the norm (4).  Part of
 * the validation harness (scripts/validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o wavefront wavefront.c && mpiexec -n 2 ./wavefront [ITERATIONS]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#define N 256     /* rows and columns of the whole grid */
#define PLANES 32
#define OMEGA 0.8 /* the relaxation factor */

struct block {
    int rows, cols;                  /* of this process's part of a plane */
    int north, south, west, east;    /* neighbours, MPI_PROC_NULL at the edges */
    double *u;                       /* PLANES + 2 planes of (rows + 2) x (cols + 2) */
    double *column;                  /* a packed column, sent or received */
    MPI_Comm grid;
};

static double *at(const struct block *b, int k, int i, int j)
{
    return &b->u[((size_t)k * (b->rows + 2) + i) * (b->cols + 2) + j];
}

/* Sends row `row` to `to` and column `col` to `across`, packing the column. */
static void send_edges(struct block *b, int k, int row, int col, int to, int across)
{
    MPI_Send(at(b, k, row, 1), b->cols, MPI_DOUBLE, to, k, b->grid);
    if (across == MPI_PROC_NULL)
        return;
    for (int i = 1; i <= b->rows; i++)
        b->column[i - 1] = *at(b, k, i, col);
    MPI_Send(b->column, b->rows, MPI_DOUBLE, across, k, b->grid);
}

/* Receives row `row` of plane k from `from` and column `col` from `across`. */
static void receive_edges(struct block *b, int k, int row, int col, int from, int across)
{
    MPI_Recv(at(b, k, row, 1), b->cols, MPI_DOUBLE, from, k, b->grid, MPI_STATUS_IGNORE);
    if (across == MPI_PROC_NULL)
        return;
    MPI_Recv(b->column, b->rows, MPI_DOUBLE, across, k, b->grid, MPI_STATUS_IGNORE);
    for (int i = 1; i <= b->rows; i++)
        *at(b, k, i, col) = b->column[i - 1];
}

/* One point relaxed towards the average of its six neighbours; returns the squared change. */
static double relax_point(struct block *b, int k, int i, int j)
{
    double *p = at(b, k, i, j), old = *p;
    double avg = (*at(b, k - 1, i, j) + *at(b, k + 1, i, j) + *at(b, k, i - 1, j) +
                  *at(b, k, i + 1, j) + *at(b, k, i, j - 1) + *at(b, k, i, j + 1)) / 6.0;
    *p = old + OMEGA * (avg + 1e-3 - old);
    return (*p - old) * (*p - old);
}

static double forward(struct block *b)
{
    double change = 0.0;

    for (int k = 1; k <= PLANES; k++) {
        receive_edges(b, k, 0, 0, b->north, b->west);
        for (int i = 1; i <= b->rows; i++)
            for (int j = 1; j <= b->cols; j++)
                change += relax_point(b, k, i, j);
        send_edges(b, k, b->rows, b->cols, b->south, b->east);
    }
    return change;
}

static double backward(struct block *b)
{
    double change = 0.0;

    for (int k = PLANES; k >= 1; k--) {
        receive_edges(b, k, b->rows + 1, b->cols + 1, b->south, b->east);
        for (int i = b->rows; i >= 1; i--)
            for (int j = b->cols; j >= 1; j--)
                change += relax_point(b, k, i, j);
        send_edges(b, k, 1, 1, b->north, b->west);
    }
    return change;
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 80;
    int dims[2] = {0, 0}, periods[2] = {0, 0};
    double change = 0.0;
    struct block b;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &b.grid);
    MPI_Comm_rank(b.grid, &rank);
    MPI_Cart_shift(b.grid, 0, 1, &b.north, &b.south);
    MPI_Cart_shift(b.grid, 1, 1, &b.west, &b.east);
    b.rows = N / dims[0], b.cols = N / dims[1];
    b.u = calloc((size_t)(PLANES + 2) * (b.rows + 2) * (b.cols + 2), sizeof(double));
    b.column = malloc((size_t)b.rows * sizeof(double));

    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        change = forward(&b);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        change += backward(&b);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        MPI_Allreduce(MPI_IN_PLACE, &change, 1, MPI_DOUBLE, MPI_SUM, b.grid);
        PROGNOZ_END(4);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("wavefront: %d ranks (%dx%d), %dx%dx%d grid, %d iterations, last change %.6e\n",
               size, dims[0], dims[1], N, N, PLANES, iters, change);
    free(b.u);
    free(b.column);
    MPI_Comm_free(&b.grid);
    MPI_Finalize();
    return 0;
}
