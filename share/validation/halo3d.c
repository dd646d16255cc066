/* halo3d: Jacobi iteration of a 7-point stencil on a 128^3 grid (or N^3) split on a 3-D
 * process grid (MPI_Dims_create, MPI_Cart_create), periodic along the first dimension
 * (the one split first) and zero beyond the other faces.  Every iteration packs the six
 * faces of the local block, exchanges them with the neighbours (MPI_Irecv and MPI_Isend
 * of each, one MPI_Waitall; with 2 ranks both x neighbours are the other rank: two faces
 * of 128 KiB each way), unpacks them into the halo and relaxes the block; every 10th
 * iteration the squared change is summed over all ranks (MPI_Allreduce).  Intervals: the
 * iterations (1), the packing (2), the exchange (3), the unpacking (4), the relaxation
 * (5), the residual (6).  Part of the validation harness (scripts/validate.sh).
 *
 *   mpicc -g -O2 -I$PREFIX/include -o halo3d halo3d.c && mpiexec -n 2 ./halo3d [ITERATIONS [N]]
 */
#include <mpi.h>
#include <prognoz.h>
#include <stdio.h>
#include <stdlib.h>

#define EVERY 10  /* iterations between two residuals */

struct block {
    int n[3];           /* local points along x, y, z */
    int nb[3][2];       /* the neighbours below and above along each dimension */
    double *face[3][2]; /* packed faces to send and, in recv, received */
    double *recv[3][2];
    MPI_Comm grid;
};

/* Index of (x, y, z) in a block with one halo layer all around. */
static size_t idx(const struct block *b, int x, int y, int z)
{
    return ((size_t)x * (b->n[1] + 2) + y) * (b->n[2] + 2) + z;
}

/* Copies between layer `at` of dimension d of u and the packed face buf (to_face: into
 * buf, else out of it). */
static void copy_face(const struct block *b, double *u, int d, int at, double *buf, int to_face)
{
    int a = d == 0 ? 1 : 0, c = d == 2 ? 1 : 2;  /* the two other dimensions */
    size_t k = 0;

    for (int i = 1; i <= b->n[a]; i++)
        for (int j = 1; j <= b->n[c]; j++, k++) {
            int p[3];
            p[d] = at, p[a] = i, p[c] = j;
            double *cell = &u[idx(b, p[0], p[1], p[2])];
            if (to_face)
                buf[k] = *cell;
            else
                *cell = buf[k];
        }
}

static int face_len(const struct block *b, int d)
{
    return d == 0 ? b->n[1] * b->n[2] : d == 1 ? b->n[0] * b->n[2] : b->n[0] * b->n[1];
}

static void exchange(struct block *b)
{
    MPI_Request req[12];
    MPI_Status st[12];
    int r = 0;

    for (int d = 0; d < 3; d++)
        for (int s = 0; s < 2; s++) {  /* the face from below arrives with tag 2d, from above 2d+1 */
            MPI_Irecv(b->recv[d][s], face_len(b, d), MPI_DOUBLE, b->nb[d][s], 2 * d + s, b->grid, &req[r++]);
            MPI_Isend(b->face[d][s], face_len(b, d), MPI_DOUBLE, b->nb[d][s], 2 * d + 1 - s, b->grid, &req[r++]);
        }
    MPI_Waitall(r, req, st);
}

/* v = the average of u's six neighbours plus a source; returns the squared change. */
static double relax(const struct block *b, const double *u, double *v)
{
    size_t sx = (size_t)(b->n[1] + 2) * (b->n[2] + 2), sy = (size_t)b->n[2] + 2;
    double change = 0.0;

    for (int x = 1; x <= b->n[0]; x++)
        for (int y = 1; y <= b->n[1]; y++)
            for (int z = 1; z <= b->n[2]; z++) {
                size_t k = idx(b, x, y, z);
                v[k] = (u[k - sx] + u[k + sx] + u[k - sy] + u[k + sy] + u[k - 1] + u[k + 1]) / 6.0 + 1e-4;
                change += (v[k] - u[k]) * (v[k] - u[k]);
            }
    return change;
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 600, order = argc > 2 ? atoi(argv[2]) : 128;
    int dims[3] = {0, 0, 0}, periods[3] = {1, 0, 0};
    double change = 0.0;
    struct block b;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 3, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &b.grid);
    MPI_Comm_rank(b.grid, &rank);
    for (int d = 0; d < 3; d++) {
        b.n[d] = order / dims[d];
        MPI_Cart_shift(b.grid, d, 1, &b.nb[d][0], &b.nb[d][1]);
    }
    size_t len = (size_t)(b.n[0] + 2) * (b.n[1] + 2) * (b.n[2] + 2);
    double *u = calloc(len, sizeof(double)), *v = calloc(len, sizeof(double));
    for (int d = 0; d < 3; d++)
        for (int s = 0; s < 2; s++) {
            b.face[d][s] = calloc((size_t)face_len(&b, d), sizeof(double));
            b.recv[d][s] = calloc((size_t)face_len(&b, d), sizeof(double));
        }

    PROGNOZ_BEGIN(1);
    for (int it = 0; it < iters; it++) {
        PROGNOZ_BEGIN(2);
        for (int d = 0; d < 3; d++) {
            copy_face(&b, u, d, 1, b.face[d][0], 1);
            copy_face(&b, u, d, b.n[d], b.face[d][1], 1);
        }
        PROGNOZ_END(2);
        PROGNOZ_BEGIN(3);
        exchange(&b);
        PROGNOZ_END(3);
        PROGNOZ_BEGIN(4);
        for (int d = 0; d < 3; d++) {
            if (b.nb[d][0] != MPI_PROC_NULL)
                copy_face(&b, u, d, 0, b.recv[d][0], 0);
            if (b.nb[d][1] != MPI_PROC_NULL)
                copy_face(&b, u, d, b.n[d] + 1, b.recv[d][1], 0);
        }
        PROGNOZ_END(4);
        PROGNOZ_BEGIN(5);
        double step = relax(&b, u, v);
        PROGNOZ_END(5);
        if ((it + 1) % EVERY == 0) {
            PROGNOZ_BEGIN(6);
            MPI_Allreduce(&step, &change, 1, MPI_DOUBLE, MPI_SUM, b.grid);
            PROGNOZ_END(6);
        }
        double *t = u;
        u = v, v = t;
    }
    PROGNOZ_END(1);
    if (rank == 0)
        printf("halo3d: %d ranks (%dx%dx%d), %d^3 grid, %d iterations, last change %.6e\n",
               size, dims[0], dims[1], dims[2], order, iters, change);
    for (int d = 0; d < 3; d++)
        for (int s = 0; s < 2; s++) {
            free(b.face[d][s]);
            free(b.recv[d][s]);
        }
    free(u);
    free(v);
    MPI_Comm_free(&b.grid);
    MPI_Finalize();
    return 0;
}
