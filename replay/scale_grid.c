/* Process grids of the scaling (scale_run.h): ranks and coordinates as MPI_Cart_create
 * numbers them (or the first dimension fastest), and MPI_Dims_create's balanced layout. */
#include <stdio.h>
#include <string.h>

#include "scale_run.h"

/* The i-th dimension from the one varying slowest in the ranks. */
static int slowest(const struct pz_scale_grid *g, int i)
{
    return g->first_fastest ? PZ_SCALE_MAX_DIMS - 1 - i : i;
}

void pz_scale_grid_coords(const struct pz_scale_grid *g, int r, int *c)
{
    for (int i = PZ_SCALE_MAX_DIMS - 1; i >= 0; i--) {
        int d = slowest(g, i), n = d < g->ndims ? g->dims[d] : 1;

        c[d] = r % n;
        r /= n;
    }
}

int pz_scale_grid_rank(const struct pz_scale_grid *g, const int *c)
{
    int r = 0;

    for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++) {
        int d = slowest(g, i), n = d < g->ndims ? g->dims[d] : 1, x = c[d];

        if (x < 0 || x >= n) {
            if (d >= g->ndims || !g->periodic[d])
                return -1;
            x = ((x % n) + n) % n;
        }
        r = r * n + x;
    }
    return r;
}

/* The best layout so far: the smallest spread (largest dimension less smallest), the
 * largest first dimension on a tie, as MPICH's MPI_Dims_create chooses. */
static int better(const int *cand, const int *best, int ndims)
{
    int spread = cand[0] - cand[ndims - 1], best_spread = best[0] - best[ndims - 1];

    return best[0] == 0 || spread < best_spread ||
           (spread == best_spread && cand[0] > best[0]);
}

/* Every non-increasing split of n into dims[d..ndims-1], each at most `most`. */
static void search(int n, int d, int most, int *dims, int *best, int ndims)
{
    if (d == ndims - 1) {
        if (n <= most) {
            dims[d] = n;
            if (better(dims, best, ndims))
                memcpy(best, dims, (size_t)ndims * sizeof(*dims));
        }
        return;
    }
    for (int f = 1; f <= most && f <= n; f++)
        if (n % f == 0) {
            dims[d] = f;
            search(n / f, d + 1, f, dims, best, ndims);
        }
}

/* MPI_Dims_create: of the non-increasing factorizations of n, the most balanced. */
void pz_scale_grid_balanced(struct pz_scale_grid *g, int n, int ndims)
{
    int dims[PZ_SCALE_MAX_DIMS], best[PZ_SCALE_MAX_DIMS] = { 0 };

    memset(g, 0, sizeof(*g));
    g->ndims = ndims;
    search(n, 0, n, dims, best, ndims);
    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
        g->dims[d] = d < ndims ? best[d] : 1;
}

void pz_scale_grid_layout(struct pz_scale_grid *g, int n, int ndims, int ascending)
{
    pz_scale_grid_balanced(g, n, ndims);
    for (int d = 0; ascending && d < ndims / 2; d++) {
        int t = g->dims[d];

        g->dims[d] = g->dims[ndims - 1 - d];
        g->dims[ndims - 1 - d] = t;
    }
    g->ascending = (uint8_t)(ascending != 0);
}

enum pz_scale_grid_order pz_scale_grid_order(const int *dims, int ndims)
{
    struct pz_scale_grid b;
    int n = 1, own = 1, reversed = 1;

    for (int d = 0; d < ndims; d++)
        n *= dims[d];
    pz_scale_grid_balanced(&b, n, ndims);
    for (int d = 0; d < ndims; d++) {
        own &= dims[d] == b.dims[d];
        reversed &= dims[d] == b.dims[ndims - 1 - d];
    }
    return own && reversed ? PZ_SCALE_GRID_EITHER
           : own          ? PZ_SCALE_GRID_DESCENDING
           : reversed     ? PZ_SCALE_GRID_ASCENDING : PZ_SCALE_GRID_OTHER;
}

int pz_scale_grid_ascending(const struct pz_scale_run *const *runs, size_t n)
{
    int some = 0;

    for (size_t r = 0; r < n; r++) {
        enum pz_scale_grid_order o = pz_scale_grid_order(runs[r]->grid.dims,
                                                         runs[r]->grid.ndims);

        if (o != PZ_SCALE_GRID_EITHER && o != PZ_SCALE_GRID_ASCENDING)
            return 0;
        some |= o == PZ_SCALE_GRID_ASCENDING;
    }
    return some;
}

/* Whether dimension d of run's grid shows its periodicity: a recorded topology says it
 * at any size; messages only across more than 2 processes, since in 2 the neighbours on
 * either side are one process (and in 1 the process itself). */
static int shows_periodicity(const struct pz_scale_run *run, int d)
{
    return run->grid.from_topology || run->grid.dims[d] > 2;
}

int pz_scale_grid_periodicity(const struct pz_scale_run *const *runs, size_t n,
                              size_t largest, uint8_t *periodic, char *err, size_t errlen)
{
    for (int d = 0; d < runs[largest]->grid.ndims; d++) {
        const struct pz_scale_run *witness = NULL;

        periodic[d] = runs[largest]->grid.periodic[d];
        for (size_t r = 0; r < n; r++) {
            const struct pz_scale_run *run = runs[r];

            if (!shows_periodicity(run, d))
                continue;
            if (!witness) {
                witness = run;
                periodic[d] = run->grid.periodic[d];
            } else if (run->grid.periodic[d] != periodic[d]) {
                const struct pz_scale_run *on = periodic[d] ? witness : run;
                const struct pz_scale_run *off = periodic[d] ? run : witness;

                snprintf(err, errlen, "recordings differ: dimension %d of the process grid "
                         "wraps around in %s (%d processes long) but not in %s (%d)", d,
                         on->path, on->grid.dims[d], off->path, off->grid.dims[d]);
                return -1;
            }
        }
    }
    return 0;
}
