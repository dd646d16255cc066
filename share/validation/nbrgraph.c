/* nbrgraph: Jacobi iteration of a 5-point stencil on an N^2 block per process (256^2 by
 * default; weak scaling), the processes on a 2-D grid of MPI_Dims_create's shape, not
 * periodic, whose neighbours are declared as a distributed graph
 * (MPI_Dist_graph_create_adjacent: up to four, fewer at the boundary, none beyond the
 * edges).  Every iteration trades the halos with one MPI_Neighbor_alltoallv (rows of N
 * doubles to the neighbours along x, packed columns of N along y) and relaxes the block;
 * every 10th iteration the squared change is summed over all ranks (MPI_Allreduce).
 * Intervals: the iterations (1), the exchange (2), the relaxation (3), the residual (4).
 * With a third argument `overlap` the halos travel while the block's interior is relaxed:
 * the exchange starts one MPI_Ineighbor_alltoallv, the relaxation relaxes the points that
 * need no halo, completes the exchange with MPI_Waitall, unpacks the halos and relaxes
 * the block's outer ring (the same block as without it).
 * Part of the scaling validation (scripts/scale_validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o nbrgraph nbrgraph.c &&
 *       mpiexec -n 6 ./nbrgraph [ITERATIONS [N [overlap]]]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVERY 10  /* iterations between two residuals */

static int n;  /* the block's side */

static size_t at(int x, int y)
{
    return (size_t)x * (n + 2) + y;
}

/* Relaxes point (x, y) of u into v; its squared change. */
static double relax(const double *u, double *v, int x, int y)
{
    double w = 0.25 * (u[at(x - 1, y)] + u[at(x + 1, y)] + u[at(x, y - 1)] + u[at(x, y + 1)]);

    v[at(x, y)] = w;
    return (w - u[at(x, y)]) * (w - u[at(x, y)]);
}

/* The squared change of relaxing the points of u at rows x0..x1, columns y0..y1 into v. */
static double relax_rect(const double *u, double *v, int x0, int x1, int y0, int y1)
{
    double change = 0.0;

    for (int x = x0; x <= x1; x++)
        for (int y = y0; y <= y1; y++)
            change += relax(u, v, x, y);
    return change;
}

/* The squared change of relaxing the outer ring of the block (rows 1 and n, columns 1
 * and n), whose points need the halos. */
static double relax_ring(const double *u, double *v)
{
    double change = relax_rect(u, v, 1, 1, 1, n);

    if (n > 1)
        change += relax_rect(u, v, n, n, 1, n) + relax_rect(u, v, 2, n - 1, 1, 1) +
                  relax_rect(u, v, 2, n - 1, n, n);
    return change;
}

/* Side s of the block (0: x = 1, 1: x = n, 2: y = 1, 3: y = n) into buf, or out of buf
 * into the halo beyond that side. */
static void side(double *u, int s, double *buf, int to_buf)
{
    for (int i = 1; i <= n; i++) {
        int x = s == 0 ? (to_buf ? 1 : 0) : s == 1 ? (to_buf ? n : n + 1) : i;
        int y = s == 2 ? (to_buf ? 1 : 0) : s == 3 ? (to_buf ? n : n + 1) : i;
        if (to_buf)
            buf[i - 1] = u[at(x, y)];
        else
            u[at(x, y)] = buf[i - 1];
    }
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 100;
    int overlap = argc > 3 && !strcmp(argv[3], "overlap");
    int dims[2] = {0, 0}, nb[4], sides[4], m = 0;
    int counts[4], displs[4];
    MPI_Comm graph;

    n = argc > 2 ? atoi(argv[2]) : 256;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    int cx = rank / dims[1], cy = rank % dims[1];
    int step[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (int s = 0; s < 4; s++) {
        int x = cx + step[s][0], y = cy + step[s][1];
        if (x < 0 || x >= dims[0] || y < 0 || y >= dims[1])
            continue;
        nb[m] = x * dims[1] + y;
        sides[m] = s;
        counts[m] = n;
        displs[m] = m * n;
        m++;
    }
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, m, nb, MPI_UNWEIGHTED, m, nb, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 0, &graph);
    size_t len = (size_t)(n + 2) * (n + 2);
    double *u = calloc(len, sizeof(double)), *v = calloc(len, sizeof(double));
    double *out = malloc(4 * (size_t)n * sizeof(double)), *in = malloc(4 * (size_t)n * sizeof(double));
    double change = 0.0, total = 0.0;
    for (int x = 1; x <= n; x++)
        for (int y = 1; y <= n; y++)
            u[at(x, y)] = (double)((rank + x + y) % 5);

    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        for (int i = 0; i < m; i++)
            side(u, sides[i], out + (size_t)i * n, 1);
        if (overlap) {
            MPI_Request req;
            MPI_Status done;

            MPI_Ineighbor_alltoallv(out, counts, displs, MPI_DOUBLE, in, counts, displs,
                                    MPI_DOUBLE, graph, &req);
            PROGNOZ_END(2);
            PROGNOZ_BEGIN(3);
            change = relax_rect(u, v, 2, n - 1, 2, n - 1);
            MPI_Waitall(1, &req, &done);
            for (int i = 0; i < m; i++)
                side(u, sides[i], in + (size_t)i * n, 0);
            change += relax_ring(u, v);
        } else {
            MPI_Neighbor_alltoallv(out, counts, displs, MPI_DOUBLE, in, counts, displs,
                                   MPI_DOUBLE, graph);
            for (int i = 0; i < m; i++)
                side(u, sides[i], in + (size_t)i * n, 0);
            PROGNOZ_END(2);
            PROGNOZ_BEGIN(3);
            change = 0.0;
            for (int x = 1; x <= n; x++)
                for (int y = 1; y <= n; y++)
                    change += relax(u, v, x, y);
        }
        memcpy(u, v, len * sizeof(double));
        PROGNOZ_END(3);
        if ((it + 1) % EVERY == 0) {
            PROGNOZ_BEGIN(4);
            MPI_Allreduce(&change, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            PROGNOZ_END(4);
        }
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("nbrgraph: %d ranks (%dx%d), %d^2 each, %d iterations, change %.6e\n",
               size, dims[0], dims[1], n, iters, total);
    free(u), free(v), free(out), free(in);
    MPI_Comm_free(&graph);
    MPI_Finalize();
    return 0;
}
