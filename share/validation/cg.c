/* cg: conjugate gradients on the 5-point Laplacian of a 1024 x 512 grid (plus a diagonal
 * shift, so that it converges slowly and the same every time), the matrix in compressed
 * sparse rows, the grid rows split between the ranks.  Every iteration exchanges one
 * halo row (8 KiB) with each neighbour (MPI_Irecv, MPI_Isend, MPI_Waitall), multiplies
 * by the matrix, takes two dot products summed over all ranks (MPI_Allreduce of one
 * double each) and updates three vectors.  Intervals: the iterations (1), the halo
 * exchange (2), the matrix product (3), the dot products p.q (4) and r.r (6), the
 * updates of x and r (5) and of p (7).
 * Part of the validation harness (scripts/validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o cg cg.c && mpiexec -n 2 ./cg [ITERATIONS]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#include "halo.h"

#define NX 1024
#define NY 512  /* rows of the whole grid */

struct csr {
    int n;         /* local rows */
    int *start;    /* n + 1 */
    int *col;      /* into the vector with one halo row before and after */
    double *val;
};

/* The local rows of the shifted Laplacian: 4.01 on the diagonal, -1 to each neighbour
 * that exists in the whole grid. */
static void csr_init(struct csr *a, int rows, int first_row)
{
    int k = 0;

    a->n = rows * NX;
    a->start = malloc(((size_t)a->n + 1) * sizeof(int));
    a->col = malloc((size_t)a->n * 5 * sizeof(int));
    a->val = malloc((size_t)a->n * 5 * sizeof(double));
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < NX; j++) {
            int row = (i + 1) * NX + j, global = first_row + i;
            a->start[i * NX + j] = k;
            if (global > 0)
                a->col[k] = row - NX, a->val[k++] = -1.0;
            if (j > 0)
                a->col[k] = row - 1, a->val[k++] = -1.0;
            a->col[k] = row, a->val[k++] = 4.01;
            if (j < NX - 1)
                a->col[k] = row + 1, a->val[k++] = -1.0;
            if (global < NY - 1)
                a->col[k] = row + NX, a->val[k++] = -1.0;
        }
    a->start[a->n] = k;
}

static void spmv(const struct csr *a, const double *x, double *y)
{
    for (int i = 0; i < a->n; i++) {
        double s = 0.0;
        for (int k = a->start[i]; k < a->start[i + 1]; k++)
            s += a->val[k] * x[a->col[k]];
        y[i] = s;
    }
}

static double dot(const double *x, const double *y, int n)
{
    double s = 0.0;

    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return s;
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 200;
    struct csr a;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rows = NY / size, n = rows * NX;
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    csr_init(&a, rows, rank * rows);
    double *x = calloc((size_t)n, sizeof(double)), *r = malloc((size_t)n * sizeof(double));
    double *p = calloc((size_t)n + 2 * NX, sizeof(double)), *q = malloc((size_t)n * sizeof(double));
    double *pl = p + NX;  /* p's local rows */

    for (int i = 0; i < n; i++)  /* b = a smooth bump; x = 0, so r = p = b */
        r[i] = pl[i] = 1.0 + (double)((i % NX) * (NX - i % NX)) / (NX * NX);
    double rr = dot(r, r, n), rr0 = rr;

    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        exchange_halo(p, rows, NX, up, down);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        spmv(&a, p, q);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        double alpha = rr / dot(pl, q, n);
        PROGNOZ_END(4);
        PROGNOZ_BEGIN(5);
        for (int i = 0; i < n; i++) {
            x[i] += alpha * pl[i];
            r[i] -= alpha * q[i];
        }
        PROGNOZ_END(5);
        PROGNOZ_BEGIN(6);
        double rr_new = dot(r, r, n);
        PROGNOZ_END(6);
        PROGNOZ_BEGIN(7);
        for (int i = 0; i < n; i++)
            pl[i] = r[i] + rr_new / rr * pl[i];
        rr = rr_new;
        PROGNOZ_END(7);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("cg: %d ranks, %dx%d grid, %d iterations, residual reduced to %.6e\n",
               size, NX, NY, iters, rr / rr0);
    free(a.start);
    free(a.col);
    free(a.val);
    free(x);
    free(r);
    free(p);
    free(q);
    MPI_Finalize();
    return 0;
}
