/* hpcg: conjugate gradients preconditioned by a two-level multigrid on the 27-point
 * operator of a 3-D grid, as HPCG runs it, on any number of processes: the processes
 * form a grid of MPI_Dims_create's shape (3x2x2 at 12), each owning a block of N^3 points
 * (16^3 by default, even; weak scaling) and finding its neighbours and what it trades
 * with each by rank arithmetic (block26.h): up to 26, faces of N^2 values, edges of N,
 * corners of 1, and on the coarse level (N/2)^3 blocks with faces of N^2/4, edges of
 * N/2; fewer neighbours on the boundary, no MPI_PROC_NULL.  A halo exchange posts every
 * receive (MPI_Irecv), sends every box (MPI_Send) and waits for all (MPI_Waitall).
 * Every iteration applies the V-cycle (a Gauss-Seidel sweep, the residual at the coarse
 * points, a sweep on the coarse level, the correction, a sweep: four exchanges), the
 * operator (one exchange), and two dot products summed over all ranks (MPI_Allreduce of
 * one double each).  Intervals: the iterations (1), the V-cycle (2) with its coarse
 * level (3), the operator (4), the dot products p.Ap (5) and r.z (6), the updates (7).
 * Part of the scaling validation (scripts/scale_validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o hpcg hpcg.c && mpiexec -n 6 ./hpcg [ITERATIONS [N]]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#include "block26.h"

struct level {
    int n[3];
    int m;                /* neighbours */
    struct nbr26 nb[26];
    MPI_Request req[26];
    MPI_Status st[26];
};

static double *vec(const struct level *l)
{
    return calloc((size_t)(l->n[0] + 2) * (l->n[1] + 2) * (l->n[2] + 2), sizeof(double));
}

static void level_init(struct level *l, int order, const int dims[3], const int c[3])
{
    for (int d = 0; d < 3; d++)
        l->n[d] = order;
    l->m = nbr26_list(dims, c, l->n, l->nb);
    for (int i = 0; i < l->m; i++) {
        l->nb[i].out = calloc((size_t)l->nb[i].len, sizeof(double));
        l->nb[i].in = calloc((size_t)l->nb[i].len, sizeof(double));
    }
}

static void exchange(struct level *l, double *u)
{
    for (int i = 0; i < l->m; i++)
        MPI_Irecv(l->nb[i].in, l->nb[i].len, MPI_DOUBLE, l->nb[i].rank, l->nb[i].tag_in,
                  MPI_COMM_WORLD, &l->req[i]);
    for (int i = 0; i < l->m; i++) {
        block_box(l->n, u, l->nb[i].off, l->nb[i].out, 0);
        MPI_Send(l->nb[i].out, l->nb[i].len, MPI_DOUBLE, l->nb[i].rank, l->nb[i].tag_out, MPI_COMM_WORLD);
    }
    MPI_Waitall(l->m, l->req, l->st);
    for (int i = 0; i < l->m; i++)
        block_box(l->n, u, l->nb[i].off, l->nb[i].in, 1);
}

/* The sum of u's 26 neighbours of point k (zero beyond the whole grid: the halo there
 * is never written). */
static double around(const int n[3], const double *u, size_t k)
{
    long sy = n[0] + 2, sz = sy * (n[1] + 2);
    double s = -u[k];

    for (long dz = -1; dz <= 1; dz++)
        for (long dy = -1; dy <= 1; dy++)
            for (long dx = -1; dx <= 1; dx++)
                s += u[(long)k + dz * sz + dy * sy + dx];
    return s;
}

/* One Gauss-Seidel sweep of A z = r, A = 26 on the diagonal and -1 to each neighbour. */
static void sweep(struct level *l, const double *r, double *z)
{
    exchange(l, z);
    for (int x = 1; x <= l->n[0]; x++)
        for (int y = 1; y <= l->n[1]; y++)
            for (int w = 1; w <= l->n[2]; w++) {
                size_t k = block_at(l->n, x, y, w);
                z[k] = (r[k] + around(l->n, z, k)) / 26.0;
            }
}

/* z = the V-cycle applied to r; zc and rc are the coarse level's vectors. */
static void vcycle(struct level *f, struct level *c, const double *r, double *z, double *rc, double *zc)
{
    size_t len = (size_t)(f->n[0] + 2) * (f->n[1] + 2) * (f->n[2] + 2);

    for (size_t k = 0; k < len; k++)
        z[k] = 0.0;
    sweep(f, r, z);
    PROGNOZ_BEGIN(3);
    exchange(f, z);
    for (int x = 1; x <= c->n[0]; x++)
        for (int y = 1; y <= c->n[1]; y++)
            for (int w = 1; w <= c->n[2]; w++) {
                size_t k = block_at(f->n, 2 * x, 2 * y, 2 * w), kc = block_at(c->n, x, y, w);
                rc[kc] = r[k] - (26.0 * z[k] - around(f->n, z, k));
                zc[kc] = 0.0;
            }
    sweep(c, rc, zc);
    for (int x = 1; x <= c->n[0]; x++)
        for (int y = 1; y <= c->n[1]; y++)
            for (int w = 1; w <= c->n[2]; w++)
                z[block_at(f->n, 2 * x, 2 * y, 2 * w)] += zc[block_at(c->n, x, y, w)];
    PROGNOZ_END(3);
    sweep(f, r, z);
}

/* The dot product of u and v over the whole grid. */
static double dot(const struct level *l, const double *u, const double *v)
{
    double mine = 0.0, all;

    for (int x = 1; x <= l->n[0]; x++)
        for (int y = 1; y <= l->n[1]; y++)
            for (int w = 1; w <= l->n[2]; w++) {
                size_t k = block_at(l->n, x, y, w);
                mine += u[k] * v[k];
            }
    MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 50, order = argc > 2 ? atoi(argv[2]) : 16;
    int dims[3] = {0, 0, 0};
    struct level fine, coarse;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 3, dims);
    int c[3] = {rank % dims[0], rank / dims[0] % dims[1], rank / (dims[0] * dims[1])};
    level_init(&fine, order, dims, c);
    level_init(&coarse, order / 2, dims, c);
    double *x = vec(&fine), *r = vec(&fine), *z = vec(&fine), *p = vec(&fine), *q = vec(&fine);
    double *rc = vec(&coarse), *zc = vec(&coarse);
    size_t len = (size_t)(order + 2) * (order + 2) * (order + 2);
    for (int i = 1; i <= order; i++)
        for (int j = 1; j <= order; j++)
            for (int k = 1; k <= order; k++)
                r[block_at(fine.n, i, j, k)] = 1.0;
    for (size_t k = 0; k < len; k++)  /* the first direction: the residual itself */
        p[k] = z[k] = r[k];
    double rz = dot(&fine, r, z);

    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(4);
        exchange(&fine, p);
        for (int i = 1; i <= order; i++)
            for (int j = 1; j <= order; j++)
                for (int k = 1; k <= order; k++) {
                    size_t at = block_at(fine.n, i, j, k);
                    q[at] = 26.0 * p[at] - around(fine.n, p, at);
                }
        PROGNOZ_END(4);
        PROGNOZ_BEGIN(5);
        double alpha = rz / dot(&fine, p, q);
        PROGNOZ_END(5);
        PROGNOZ_BEGIN(7);
        for (size_t k = 0; k < len; k++)
            x[k] += alpha * p[k], r[k] -= alpha * q[k];
        PROGNOZ_END(7);
        PROGNOZ_BEGIN(2);
        vcycle(&fine, &coarse, r, z, rc, zc);
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(6);
        double next = dot(&fine, r, z);
        PROGNOZ_END(6);
        for (size_t k = 0; k < len; k++)
            p[k] = z[k] + next / rz * p[k];
        rz = next;
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("hpcg: %d ranks (%dx%dx%d), %d^3 per rank, %d iterations, r.z %.6e\n",
               size, dims[0], dims[1], dims[2], order, iters, rz);
    free(x), free(r), free(z), free(p), free(q), free(rc), free(zc);
    for (int i = 0; i < fine.m; i++)
        free(fine.nb[i].out), free(fine.nb[i].in);
    for (int i = 0; i < coarse.m; i++)
        free(coarse.nb[i].out), free(coarse.nb[i].in);
    MPI_Finalize();
    return 0;
}
