/* Process grids of the scaling (scale_run.h): ranks and coordinates as MPI_Cart_create
 * numbers them, and MPI_Dims_create's balanced layout. */
#include <string.h>

#include "scale_run.h"

void pz_scale_grid_coords(const struct pz_scale_grid *g, int r, int *c)
{
    for (int d = PZ_SCALE_MAX_DIMS - 1; d >= 0; d--) {
        int n = d < g->ndims ? g->dims[d] : 1;

        c[d] = r % n;
        r /= n;
    }
}

int pz_scale_grid_rank(const struct pz_scale_grid *g, const int *c)
{
    int r = 0;

    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++) {
        int n = d < g->ndims ? g->dims[d] : 1, x = c[d];

        if (x < 0 || x >= n) {
            if (d >= g->ndims || !g->periodic[d])
                return -1;
            x = ((x % n) + n) % n;
        }
        r = r * n + x;
    }
    return r;
}

/* MPI_Dims_create: the factors of n spread so that the dimensions are as close as can
 * be, largest first.  Each prime factor, largest first, goes to the dimension with the
 * smallest product so far. */
void pz_scale_grid_balanced(struct pz_scale_grid *g, int n, int ndims)
{
    int factors[64], nf = 0;

    memset(g, 0, sizeof(*g));
    g->ndims = ndims;
    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
        g->dims[d] = 1;
    for (int f = 2; n > 1 && nf < 64;) {
        if (n % f == 0) {
            factors[nf++] = f;
            n /= f;
        } else {
            f++;
        }
    }
    for (int i = nf - 1; i >= 0; i--) {
        int smallest = 0;

        for (int d = 1; d < ndims; d++)
            if (g->dims[d] < g->dims[smallest])
                smallest = d;
        g->dims[smallest] *= factors[i];
    }
    for (int i = 0; i < ndims; i++)
        for (int j = i + 1; j < ndims; j++)
            if (g->dims[j] > g->dims[i]) {
                int t = g->dims[i];

                g->dims[i] = g->dims[j];
                g->dims[j] = t;
            }
}
