/* cg2d: conjugate gradients laid out like the CG of the NAS benchmarks: the N x N
 * matrix is cut into blocks over a 2-D process grid of prows x pcols (MPI_Dims_create,
 * pcols >= prows, MPI_Cart_create; the row and column communicators by MPI_Cart_sub).
 * The matrix is sparse, symmetric and diagonally dominant (so positive definite): row
 * i has -0.1 to -0.5 at the columns i +- 1, 17, 499 and N/3 (mod N) and on the
 * diagonal the sum of their magnitudes plus 0.01.  The vectors are cut into prows x
 * pcols segments, segment k owned by process (k / pcols, k % pcols).  Every iteration:
 *   - each process multiplies its block by the column block of p it holds;
 *   - the partial products are summed along the process row (MPI_Allreduce of N / prows
 *     doubles on the row communicator; with 2 ranks, the grid is 1 x 2 and that is N
 *     doubles both ways) and each process keeps its segment of q;
 *   - p's segments go to the processes that need them (MPI_Sendrecv with the
 *     transposition partner: (r, c) with (c, r) on a square grid, itself on 1 x 2) and
 *     each column assembles its column block (MPI_Allgather on the column communicator;
 *     with 2 ranks a communicator of one);
 *   - two dot products (MPI_Allreduce of one double on the grid) and three updates.
 * As in NAS CG's inverse power method, CG restarts every 25 iterations on b = x / |x|
 * (so that the residual never underflows).  The result is checked at the end: the
 * recursive residual against b - A x computed afresh (through intervals 2 to 4 once
 * more, outside the iterations); the exit status is 1 when they disagree or the
 * residual did not shrink.  Intervals: the iterations (1), the matrix
 * product (2), the row reduction (3), the transposition (4), the dot products p.q (5)
 * and r.r (7), the updates of x and r (6) and of p (8), the restarts (9).  Part of the
 * validation harness (scripts/validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o cg2d cg2d.c && mpiexec -n 2 ./cg2d [ITERATIONS [N]]
 *
 * ITERATIONS defaults to 300; N (default 131072) is rounded down to a multiple of the
 * number of processes.
 */
#include <math.h>
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CYCLE 25  /* iterations between two restarts */
#define OFFSETS 4
#define MAX_ROW (2 * OFFSETS + 1)  /* nonzeros of a row */

struct grid {
    int prows, pcols, row, col, rank;
    MPI_Comm all, rows, cols;  /* the grid, this process's row and column */
    long n, seg;               /* the order, the length of one segment */
    int to, from;              /* transposition: whom p's segment goes to, comes from */
};

/* The local block in compressed sparse rows: rows of row block `row`, columns local
 * to column block `col`. */
struct block {
    long nrows;
    long *start;
    int *colidx;
    double *val;
};

/* The off-diagonal value at (i, j): depends on i + j only, so the matrix is symmetric. */
static double off_value(long i, long j)
{
    return -0.1 * (double)(1 + (i + j) % 5);
}

/* The columns of row i; returns how many, the diagonal first. */
static int row_pattern(long i, long n, long *cols, double *vals)
{
    const long offsets[OFFSETS] = {1, 17, 499, n / 3};
    double diag = 0.01;
    int k = 1;

    for (int o = 0; o < OFFSETS; o++)
        for (int s = -1; s <= 1; s += 2) {
            long j = ((i + s * offsets[o]) % n + n) % n;
            cols[k] = j, vals[k] = off_value(i, j);
            diag += fabs(vals[k++]);
        }
    cols[0] = i, vals[0] = diag;
    return k;
}

static void block_init(struct block *a, const struct grid *g)
{
    long first_row = (long)g->row * g->pcols * g->seg, first_col = (long)g->col * g->prows * g->seg;
    long ncols = g->prows * g->seg, k = 0, cols[MAX_ROW];
    double vals[MAX_ROW];

    a->nrows = g->pcols * g->seg;
    a->start = malloc(((size_t)a->nrows + 1) * sizeof(long));
    a->colidx = malloc((size_t)a->nrows * MAX_ROW * sizeof(int));
    a->val = malloc((size_t)a->nrows * MAX_ROW * sizeof(double));
    for (long i = 0; i < a->nrows; i++) {
        int m = row_pattern(first_row + i, g->n, cols, vals);
        a->start[i] = k;
        for (int e = 0; e < m; e++)
            if (cols[e] >= first_col && cols[e] < first_col + ncols)
                a->colidx[k] = (int)(cols[e] - first_col), a->val[k++] = vals[e];
    }
    a->start[a->nrows] = k;
}

static void block_free(struct block *a)
{
    free(a->start);
    free(a->colidx);
    free(a->val);
}

static void grid_init(struct grid *g, long n)
{
    int size, dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2], keep[2];

    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    g->pcols = dims[0], g->prows = dims[1];  /* dims[0] >= dims[1] */
    dims[0] = g->prows, dims[1] = g->pcols;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &g->all);
    MPI_Comm_rank(g->all, &g->rank);
    MPI_Cart_coords(g->all, g->rank, 2, coords);
    g->row = coords[0], g->col = coords[1];
    keep[0] = 0, keep[1] = 1;
    MPI_Cart_sub(g->all, keep, &g->rows);
    keep[0] = 1, keep[1] = 0;
    MPI_Cart_sub(g->all, keep, &g->cols);
    g->seg = n / size, g->n = g->seg * size;
    /* Segment k = row * pcols + col is mine; column block c is segments c * prows to
     * c * prows + prows - 1, and process (r, c) of that column holds c * prows + r.
     * So mine goes to (k % prows, k / prows) and I get c * prows + r from its owner. */
    long k = (long)g->row * g->pcols + g->col, want = (long)g->col * g->prows + g->row;
    coords[0] = (int)(k % g->prows), coords[1] = (int)(k / g->prows);
    MPI_Cart_rank(g->all, coords, &g->to);
    coords[0] = (int)(want / g->pcols), coords[1] = (int)(want % g->pcols);
    MPI_Cart_rank(g->all, coords, &g->from);
}

static void grid_free(struct grid *g)
{
    MPI_Comm_free(&g->rows);
    MPI_Comm_free(&g->cols);
    MPI_Comm_free(&g->all);
}

/* q's segment = this segment of A p, from p_col (p's column block): the local product,
 * the sum along the row (interval 3), the segment cut out of the row block. */
static void product(const struct block *a, const struct grid *g, const double *p_col, double *w,
                    double *q)
{
    PROGNOZ_BEGIN(2);
    for (long i = 0; i < a->nrows; i++) {
        double s = 0.0;
        for (long k = a->start[i]; k < a->start[i + 1]; k++)
            s += a->val[k] * p_col[a->colidx[k]];
        w[i] = s;
    }
    PROGNOZ_END(2);
    PROGNOZ_BEGIN(3);
    MPI_Allreduce(MPI_IN_PLACE, w, (int)a->nrows, MPI_DOUBLE, MPI_SUM, g->rows);
    PROGNOZ_END(3);
    memcpy(q, &w[(size_t)g->col * g->seg], (size_t)g->seg * sizeof(double));
}

/* p_col = p's column block, from the segments p_seg of all processes (interval 4). */
static void transpose(const struct grid *g, const double *p_seg, double *mine, double *p_col)
{
    PROGNOZ_BEGIN(4);
    if (g->to == g->rank)
        memcpy(mine, p_seg, (size_t)g->seg * sizeof(double));
    else
        MPI_Sendrecv(p_seg, (int)g->seg, MPI_DOUBLE, g->to, 0, mine, (int)g->seg, MPI_DOUBLE,
                     g->from, 0, g->all, MPI_STATUS_IGNORE);
    MPI_Allgather(mine, (int)g->seg, MPI_DOUBLE, p_col, (int)g->seg, MPI_DOUBLE, g->cols);
    PROGNOZ_END(4);
}

static double dot(const double *x, const double *y, long n, MPI_Comm all)
{
    double s = 0.0;

    for (long i = 0; i < n; i++)
        s += x[i] * y[i];
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, all);
    return s;
}

/* A new start on b (whose segment is b): x = 0, r = p = b; returns r.r. */
static double restart(const double *b, double *x, double *r, double *p, long m, MPI_Comm all)
{
    memset(x, 0, (size_t)m * sizeof(double));
    memcpy(r, b, (size_t)m * sizeof(double));
    memcpy(p, b, (size_t)m * sizeof(double));
    return dot(r, r, m, all);
}

/* b = x / |x|: the next right-hand side of the inverse power method. */
static void normalize(const double *x, double *b, long m, MPI_Comm all)
{
    double scale = 1.0 / sqrt(dot(x, x, m, all));

    for (long i = 0; i < m; i++)
        b[i] = x[i] * scale;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 300;
    long order = argc > 2 ? atol(argv[2]) : 131072;
    struct grid g;
    struct block a;

    MPI_Init(&argc, &argv);
    grid_init(&g, order);
    block_init(&a, &g);
    long m = g.seg;
    double *x = malloc((size_t)m * sizeof(double)), *r = malloc((size_t)m * sizeof(double));
    double *p = malloc((size_t)m * sizeof(double)), *q = malloc((size_t)m * sizeof(double));
    double *b = malloc((size_t)m * sizeof(double)), *mine = malloc((size_t)m * sizeof(double));
    double *p_col = malloc((size_t)g.prows * m * sizeof(double));
    double *w = malloc((size_t)a.nrows * sizeof(double));

    long first = ((long)g.row * g.pcols + g.col) * m;
    for (long i = 0; i < m; i++)  /* the first b: a smooth bump */
        b[i] = 1.0 + sin(6.283185307179586 * (double)(first + i) / (double)g.n);
    double rr = restart(b, x, r, p, m, g.all), rr0 = rr;

    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        if (it > 0 && it % CYCLE == 0) {
            PROGNOZ_BEGIN(9);
            normalize(x, b, m, g.all);
            rr = rr0 = restart(b, x, r, p, m, g.all);
            PROGNOZ_END(9);
        }
        transpose(&g, p, mine, p_col);
        product(&a, &g, p_col, w, q);
        PROGNOZ_BEGIN(5);
        double alpha = rr / dot(p, q, m, g.all);
        PROGNOZ_END(5);
        PROGNOZ_BEGIN(6);
        for (long i = 0; i < m; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        PROGNOZ_END(6);
        PROGNOZ_BEGIN(7);
        double rr_new = dot(r, r, m, g.all);
        PROGNOZ_END(7);
        PROGNOZ_BEGIN(8);
        for (long i = 0; i < m; i++)
            p[i] = r[i] + rr_new / rr * p[i];
        rr = rr_new;
        PROGNOZ_END(8);
    }
    PROGNOZ_END(1);

    /* The check: b - A x afresh against the recursive r. */
    transpose(&g, x, mine, p_col);
    product(&a, &g, p_col, w, q);
    double diff = 0.0;
    for (long i = 0; i < m; i++)
        diff += (b[i] - q[i] - r[i]) * (b[i] - q[i] - r[i]);
    MPI_Allreduce(MPI_IN_PLACE, &diff, 1, MPI_DOUBLE, MPI_SUM, g.all);
    int ok = (iters == 0 || rr < rr0) && diff <= 1e-12 * rr0;
    if (g.rank == 0)
        printf("cg2d: %d x %d ranks, order %ld, %d iterations, residual reduced to %.6e, %s\n",
               g.prows, g.pcols, g.n, iters, rr / rr0, ok ? "checked" : "WRONG");
    free(x);
    free(r);
    free(p);
    free(q);
    free(b);
    free(mine);
    free(p_col);
    free(w);
    block_free(&a);
    grid_free(&g);
    MPI_Finalize();
    return ok ? 0 : 1;
}
