/* multigrid: V-cycles for the 2-D Poisson equation on a 1024 x 1024 grid of cells (zero
 * on the outer faces) whose rows are split between the ranks, down to a 16 x 16 coarsest
 * grid (7 levels).  On the way down each level is smoothed (two damped Jacobi sweeps,
 * each after a halo exchange), its residual computed and restricted to the next level
 * by 2 x 2 averages; the coarsest grid is assembled on every rank (MPI_Allreduce) and
 * solved there by damped Jacobi; on the way up each correction is prolonged (bilinear,
 * after a halo exchange) and smoothed again.  The halo rows shrink by half per level,
 * from 8 KiB to 144 B.  Every cycle ends with the squared residual norm over all ranks
 * (MPI_Allreduce).  Intervals: the cycles (1), the halo exchanges (2), the smoothing
 * (3), the residual and restriction (4), the coarse grid (5), the prolongation (6), the
 * norm (7).  Part of the validation harness (scripts/validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o multigrid multigrid.c && mpiexec -n 2 ./multigrid [CYCLES]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "halo.h"

#define N 1024      /* rows and columns of the finest grid, zero all around it */
#define COARSEST 16
#define LEVELS 7    /* N / COARSEST = 2^(LEVELS - 1) */
#define COARSE_SWEEPS 200

struct level {
    int rows, cols;     /* local rows (without halos), columns (with a zero one each side) */
    double h2;          /* the squared mesh width */
    double *u, *f, *r;  /* (rows + 2) x cols: solution, right-hand side, residual */
};

static int up, down;

#define AT(a, l, i, j) (a)[(size_t)(i) * (l)->cols + (j)]

/* The halo rows from the neighbours; then, u being zero on the faces of the outer cells,
 * every cell outside the grid the negative of its neighbour inside. */
static void halo(double *a, const struct level *l)
{
    PROGNOZ_BEGIN(2);
    exchange_halo(a, l->rows, l->cols, up, down);
    PROGNOZ_END(2);
    for (int j = 1; j <= l->cols - 2; j++) {
        if (up == MPI_PROC_NULL)
            AT(a, l, 0, j) = -AT(a, l, 1, j);
        if (down == MPI_PROC_NULL)
            AT(a, l, l->rows + 1, j) = -AT(a, l, l->rows, j);
    }
    for (int i = 0; i <= l->rows + 1; i++) {
        AT(a, l, i, 0) = -AT(a, l, i, 1);
        AT(a, l, i, l->cols - 1) = -AT(a, l, i, l->cols - 2);
    }
}

/* The 5-point residual f + Laplacian(u) at (i, j). */
static double residual_at(const struct level *l, int i, int j)
{
    return AT(l->f, l, i, j) + (AT(l->u, l, i - 1, j) + AT(l->u, l, i + 1, j) +
                                AT(l->u, l, i, j - 1) + AT(l->u, l, i, j + 1) -
                                4.0 * AT(l->u, l, i, j)) / l->h2;
}

/* Two damped Jacobi sweeps (r holds the new values in between). */
static void smooth(struct level *l)
{
    for (int sweep = 0; sweep < 2; sweep++) {
        halo(l->u, l);
        PROGNOZ_BEGIN(3);
        for (int i = 1; i <= l->rows; i++)
            for (int j = 1; j <= l->cols - 2; j++)
                AT(l->r, l, i, j) = AT(l->u, l, i, j) + 0.2 * l->h2 * residual_at(l, i, j);
        for (int i = 1; i <= l->rows; i++)
            memcpy(&AT(l->u, l, i, 1), &AT(l->r, l, i, 1), (size_t)(l->cols - 2) * sizeof(double));
        PROGNOZ_END(3);
    }
}

/* The residual of fine, averaged over 2 x 2 blocks, becomes the right-hand side of
 * coarse, whose solution starts at zero. */
static void restrict_residual(struct level *fine, struct level *coarse)
{
    halo(fine->u, fine);
    PROGNOZ_BEGIN(4);
    for (int i = 1; i <= fine->rows; i++)
        for (int j = 1; j <= fine->cols - 2; j++)
            AT(fine->r, fine, i, j) = residual_at(fine, i, j);
    for (int i = 1; i <= coarse->rows; i++)
        for (int j = 1; j <= coarse->cols - 2; j++)
            AT(coarse->f, coarse, i, j) =
                0.25 * (AT(fine->r, fine, 2 * i - 1, 2 * j - 1) + AT(fine->r, fine, 2 * i, 2 * j - 1) +
                        AT(fine->r, fine, 2 * i - 1, 2 * j) + AT(fine->r, fine, 2 * i, 2 * j));
    memset(coarse->u, 0, (size_t)(coarse->rows + 2) * coarse->cols * sizeof(double));
    PROGNOZ_END(4);
}

/* Every rank assembles the whole coarsest right-hand side and solves it by Jacobi. */
static void solve_coarsest(struct level *l, int rank)
{
    static double f[COARSEST * COARSEST], u[2][COARSEST * COARSEST];

    PROGNOZ_BEGIN(5);
    memset(f, 0, sizeof f);
    for (int i = 1; i <= l->rows; i++)
        memcpy(&f[((size_t)rank * l->rows + i - 1) * COARSEST], &AT(l->f, l, i, 1),
               COARSEST * sizeof(double));
    MPI_Allreduce(MPI_IN_PLACE, f, COARSEST * COARSEST, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    memset(u, 0, sizeof u);
    for (int s = 0; s < COARSE_SWEEPS; s++) {
        const double *a = u[s % 2];
        double *b = u[(s + 1) % 2];
        for (int i = 0; i < COARSEST; i++)
            for (int j = 0; j < COARSEST; j++) {
                double here = a[i * COARSEST + j];
                double n = i > 0 ? a[(i - 1) * COARSEST + j] : -here;
                double s2 = i < COARSEST - 1 ? a[(i + 1) * COARSEST + j] : -here;
                double w = j > 0 ? a[i * COARSEST + j - 1] : -here;
                double e = j < COARSEST - 1 ? a[i * COARSEST + j + 1] : -here;
                b[i * COARSEST + j] = 0.5 * here + 0.125 * (n + s2 + w + e + l->h2 * f[i * COARSEST + j]);
            }
    }
    for (int i = 1; i <= l->rows; i++)
        memcpy(&AT(l->u, l, i, 1), &u[COARSE_SWEEPS % 2][((size_t)rank * l->rows + i - 1) * COARSEST],
               COARSEST * sizeof(double));
    PROGNOZ_END(5);
}

/* fine->u += the bilinear interpolation of coarse->u. */
static void prolong(struct level *coarse, struct level *fine)
{
    halo(coarse->u, coarse);
    PROGNOZ_BEGIN(6);
    for (int i = 1; i <= fine->rows; i++)
        for (int j = 1; j <= fine->cols - 2; j++) {
            int ci = (i + 1) / 2, cj = (j + 1) / 2;
            int ni = i % 2 ? ci - 1 : ci + 1, nj = j % 2 ? cj - 1 : cj + 1;
            AT(fine->u, fine, i, j) += 0.5625 * AT(coarse->u, coarse, ci, cj) +
                                       0.1875 * (AT(coarse->u, coarse, ni, cj) + AT(coarse->u, coarse, ci, nj)) +
                                       0.0625 * AT(coarse->u, coarse, ni, nj);
        }
    PROGNOZ_END(6);
}

static void v_cycle(struct level *lv, int rank)
{
    for (int k = 0; k < LEVELS - 1; k++) {
        smooth(&lv[k]);
        restrict_residual(&lv[k], &lv[k + 1]);
    }
    solve_coarsest(&lv[LEVELS - 1], rank);
    for (int k = LEVELS - 2; k >= 0; k--) {
        prolong(&lv[k + 1], &lv[k]);
        smooth(&lv[k]);
    }
}

/* The squared 2-norm of the residual over all ranks. */
static double residual_norm(struct level *l)
{
    double sum = 0.0;

    halo(l->u, l);
    PROGNOZ_BEGIN(7);
    for (int i = 1; i <= l->rows; i++)
        for (int j = 1; j <= l->cols - 2; j++)
            sum += residual_at(l, i, j) * residual_at(l, i, j);
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    PROGNOZ_END(7);
    return sum;
}

int main(int argc, char **argv)
{
    int rank, size, cycles = argc > 1 ? atoi(argv[1]) : 100;
    struct level lv[LEVELS];
    double norm = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (COARSEST % size != 0) {
        if (rank == 0)
            fprintf(stderr, "multigrid: %d ranks do not divide the %d rows of the coarsest grid\n",
                    size, COARSEST);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    for (int k = 0, n = N; k < LEVELS; k++, n /= 2) {
        size_t len = (size_t)(n / size + 2) * (n + 2);
        lv[k] = (struct level){n / size, n + 2, 1.0 / ((double)n * n), calloc(len, sizeof(double)),
                               calloc(len, sizeof(double)), calloc(len, sizeof(double))};
    }
    for (int i = 1; i <= lv[0].rows; i++)  /* a unit source in the middle band of rows */
        for (int j = N / 4; j <= 3 * N / 4; j++)
            if (abs(rank * lv[0].rows + i - N / 2) < N / 4)
                AT(lv[0].f, &lv[0], i, j) = 1.0;
    PROGNOZ_BEGIN(1);
    for (int c = 0; c < cycles; c++) {
        v_cycle(lv, rank);
        norm = residual_norm(&lv[0]);
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("multigrid: %d ranks, %dx%d grid, %d levels, %d cycles, squared residual %.6e\n",
               size, N, N, LEVELS, cycles, norm);
    for (int k = 0; k < LEVELS; k++) {
        free(lv[k].u);
        free(lv[k].f);
        free(lv[k].r);
    }
    MPI_Finalize();
    return 0;
}
