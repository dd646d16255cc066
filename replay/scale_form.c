/* Forms of P for the program model (scale_program_int.h).  Trip counts and message sizes
 * are exact functions of P in the programs the scaling is for, and so, in synthetic
 * tests, are computations: the exact forms are tried first, simplest first, and one is
 * taken when it gives every recorded value (whole values exactly once rounded, others
 * within 1e-9 relative):
 *     c;  c * P^a and c / P^a for a in {1, 2, 1/2, 3, 1/3, 2/3, 1/4, 3/4, 3/2};
 *     c * log2(P);  and with 3 counts or more c0 + c1 * P^a, c0 + c1 / P^a, c0 + c1 * log2(P);
 *     last, with 3 counts or more, all powers of two, c * Q, c / Q and c * log2(Q), Q =
 *     2^ceil(log2(P) / 2) the columns of NPB CG's grid (struct pz_scale_model.cols).
 * Where the recordings' process grid is known, the grid forms as well: c * G and, with 3
 * counts or more, c0 + c1 * G, G the side of a block of a fixed problem (1 / dims[d]),
 * a face of it (1 / (dims[d] * dims[e])), or a growth or a ratio along dimensions
 * (dims[d], dims[d] / dims[e]): a halo of a 2-D block of an N x N problem is N / dims[1]
 * elements whatever P is.  They come after the forms of P with the same number of
 * terms, or before them for the sizes of messages between neighbours of the grid
 * (SP_GRID_FIRST).  A grid form is tried only on dimensions whose size varies between
 * the recordings: one recorded at a single size tells nothing of its part.
 * A form of a time (values not whole) is taken only if it stays above 0 beyond the
 * smallest count (scale_fit.h): -0.05 + 1 / P gives 0.45, 0.2 and 0.075 at 2, 4 and 8
 * exactly, and 0 at 20.
 * Else scale_fit.h's model (3 counts or more), else the constant of the largest count.
 *
 * Sizes of blocks of a fixed problem split unevenly are no such form: 1024 rows over 3
 * processes are blocks of 342, 341 and 341, and the largest block, ceil(N / d) for d
 * processes along its dimension, rounds up where N / d does not.  sp_fit_blocks gives
 * them as unit * ceil(N / d), unit bytes an item: the smallest common divisor of the
 * values that some N explains (the finest rounding they show: 8192, 4096 and 2736 bytes
 * at d = 1, 2 and 3 are 1024 items of 8 bytes, not of 1, 2 or 4), N the largest number
 * of items the blocks allow (exact where some d divides N), d = P or a dimension of the
 * grid that varies between the recordings. */
#include <stdint.h>
#include <math.h>

#include "scale_program_int.h"

static const int powers[][2] = {
    {1, 1}, {2, 1}, {1, 2}, {3, 1}, {1, 3}, {2, 3}, {1, 4}, {3, 4}, {3, 2}
};
#define NPOWERS (sizeof(powers) / sizeof(powers[0]))

/* The grid forms' exponents of dims[0], dims[1], dims[2], simplest first. */
static const int8_t grid_forms[][PZ_SCALE_FIT_DIMS] = {
    {-1, 0, 0}, {0, -1, 0}, {0, 0, -1},                 /* a block's side */
    {0, -1, -1}, {-1, 0, -1}, {-1, -1, 0},              /* a face of a 3-D block */
    {1, 0, 0}, {0, 1, 0}, {0, 0, 1},                    /* a growth */
    {1, -1, 0}, {-1, 1, 0}, {1, 0, -1}, {-1, 0, 1}, {0, 1, -1}, {0, -1, 1},  /* ratios */
    {-2, -1, 0}, {-1, -2, 0}   /* a 2-D block's share for each process of a row or column */
};
#define NGRID_FORMS (sizeof(grid_forms) / sizeof(grid_forms[0]))
#define EXACT 1e-9

static double term(const struct pz_scale_model *m, const struct pz_scale_point *p)
{
    return pz_scale_model_term(m, p->procs, p->dims);
}

static int gives(const struct pz_scale_model *m, const struct pz_scale_point *p, size_t n,
                 int integer)
{
    for (size_t i = 0; i < n; i++) {
        double v = m->c0 + m->c1 * term(m, &p[i]);

        if (integer ? llround(v) != llround(p[i].time)
                    : fabs(v - p[i].time) > EXACT * fabs(p[i].time) + 1e-300)
            return 0;
    }
    return integer || pz_scale_model_stays_positive(m, p, n);
}

/* c1 of c1 * term through the largest count's value. */
static int one_term(struct pz_scale_model *m, const struct pz_scale_point *p, size_t n,
                    size_t top, int integer)
{
    double x = term(m, &p[top]);

    if (x == 0)
        return 0;
    m->c0 = 0;
    m->c1 = p[top].time / x;
    return gives(m, p, n, integer);
}

/* c0 + c1 * term through the smallest and the largest counts. */
static int two_terms(struct pz_scale_model *m, const struct pz_scale_point *p, size_t n,
                     size_t low, size_t top, int integer)
{
    double xl = term(m, &p[low]), xt = term(m, &p[top]);

    if (xl == xt)
        return 0;
    m->c1 = (p[top].time - p[low].time) / (xt - xl);
    m->c0 = p[top].time - m->c1 * xt;
    return gives(m, p, n, integer);
}

/* The exact form of recordings p with terms (1 or 2) terms among the forms of P. */
static int of_p(const struct pz_scale_point *p, size_t n, int integer, int terms, size_t low,
                size_t top, struct pz_scale_model *m)
{
    for (size_t i = 0; i < 2 * NPOWERS + 1; i++) {
        *m = (struct pz_scale_model){.a_den = 1};
        if (i == 2 * NPOWERS) {
            m->b = 1;
        } else {
            m->a_num = powers[i / 2][0] * (i % 2 ? -1 : 1);
            m->a_den = powers[i / 2][1];
        }
        if (terms == 1 ? one_term(m, p, n, top, integer)
                       : two_terms(m, p, n, low, top, integer))
            return 1;
    }
    return 0;
}

/* Whether dimension d of the grid has more than one size among the recordings. */
static int varies(const struct pz_scale_point *p, size_t n, int d)
{
    for (size_t i = 1; i < n; i++)
        if (p[i].dims[d] != p[0].dims[d])
            return 1;
    return 0;
}

/* Whether grid form f uses only dimensions of the grid in ndims that vary. */
static int usable(const int8_t *f, const struct pz_scale_point *p, size_t n, int ndims)
{
    for (int d = 0; d < PZ_SCALE_FIT_DIMS; d++)
        if (f[d] && (d >= ndims || !varies(p, n, d)))
            return 0;
    return 1;
}

/* The exact form of recordings p with terms terms among the grid forms in ndims. */
static int of_grid(const struct pz_scale_point *p, size_t n, int integer, int terms,
                   int ndims, size_t low, size_t top, struct pz_scale_model *m)
{
    for (size_t i = 0; i < NGRID_FORMS; i++) {
        if (!usable(grid_forms[i], p, n, ndims))
            continue;
        *m = (struct pz_scale_model){.a_den = 1, .grid_ndims = ndims};
        for (int d = 0; d < PZ_SCALE_FIT_DIMS; d++)
            m->grid[d] = grid_forms[i][d];
        if (terms == 1 ? one_term(m, p, n, top, integer)
                       : two_terms(m, p, n, low, top, integer))
            return 1;
    }
    return 0;
}

/* Whether every recording is of a power of two processes, 2 or more. */
static int powers_of_two(const struct pz_scale_point *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        long long q = llround(p[i].procs);

        if (q < 2 || (q & (q - 1)))
            return 0;
    }
    return 1;
}

/* The exact form c * Q, c / Q or c * log2(Q) of recordings p, Q = 2^ceil(log2(P) / 2)
 * (struct pz_scale_model.cols): NPB CG's segments over a row of Q columns, its row sums'
 * log2(Q) stages; 65536, 65536 and 32768 bytes at 2, 4 and 8 processes are 131072 / Q
 * (Q = 2, 2, 4), which no form of P gives. */
static int of_columns(const struct pz_scale_point *p, size_t n, int integer, size_t top,
                      struct pz_scale_model *m)
{
    static const int forms[][3] = {{1, 1, 0}, {-1, 1, 0}, {0, 1, 1}};   /* a_num, a_den, b */

    if (!powers_of_two(p, n))
        return 0;
    for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
        *m = (struct pz_scale_model){.a_num = forms[i][0], .a_den = forms[i][1],
                                     .b = forms[i][2], .cols = 1};
        if (one_term(m, p, n, top, integer))
            return 1;
    }
    return 0;
}

static int exact(const struct pz_scale_point *p, size_t n, int integer,
                 const struct sp_grid_use *grid, struct pz_scale_model *m)
{
    size_t low = 0, top = 0;

    for (size_t i = 1; i < n; i++) {
        if (p[i].procs < p[low].procs)
            low = i;
        if (p[i].procs > p[top].procs)
            top = i;
    }
    *m = (struct pz_scale_model){.c0 = p[top].time, .a_den = 1};
    if (gives(m, p, n, integer))
        return 1;
    for (int terms = 1; terms <= 2 && (terms == 1 || n >= 3); terms++)
        for (int pass = 0; pass < 2; pass++) {
            int on_grid = (pass == 0) == (grid && grid->first);

            if (on_grid ? grid && grid->ndims > 0 &&
                              of_grid(p, n, integer, terms, grid->ndims, low, top, m)
                        : of_p(p, n, integer, terms, low, top, m)) {
                m->ascending = (uint8_t)(on_grid && grid->ascending);
                return 1;
            }
        }
    return n >= 3 && of_columns(p, n, integer, top, m);
}

static void measure(struct pz_scale_model *m, const struct pz_scale_point *p, size_t n)
{
    double sum = 0;

    m->max_error = 0;
    for (size_t i = 0; i < n; i++) {
        double v = fmax(0, m->c0 + m->c1 * term(m, &p[i]));
        double e = p[i].time != 0 ? 100 * fabs(v - p[i].time) / fabs(p[i].time) : 0;

        sum += e;
        if (e > m->max_error)
            m->max_error = e;
    }
    m->mean_error = n ? sum / n : 0;
    m->cv_error = 0;
    m->npoints = (int)n;
}

int sp_fit_exact(const struct pz_scale_point *p, size_t n, int integer,
                 const struct sp_grid_use *grid, struct pz_scale_model *out)
{
    if (!exact(p, n, integer, grid, out))
        return 0;
    measure(out, p, n);
    return 1;
}

/* sp_fit, a time's falls as steep as 1 / P^(1 + loops) (pz_scale_fit_in_loops). */
static int fit_values(const struct pz_scale_point *p, size_t n, enum sp_values what,
                      const struct sp_grid_use *grid, double loops,
                      struct pz_scale_model *out)
{
    char err[128];
    size_t top = 0;

    if (n == 0) {
        *out = (struct pz_scale_model){.a_den = 1};
        return -1;
    }
    if (sp_fit_exact(p, n, what == SP_WHOLE, grid, out))
        return 1;
    if (n >= 3 && (what == SP_TIME ? pz_scale_fit_in_loops(p, n, loops, out, err, sizeof(err))
                                   : pz_scale_fit(p, n, PZ_SCALE_AMOUNT, out, err,
                                                  sizeof(err))) == PZ_SCALE_FIT_OK)
        return 0;
    for (size_t i = 1; i < n; i++)
        if (p[i].procs > p[top].procs)
            top = i;
    *out = (struct pz_scale_model){.c0 = p[top].time, .a_den = 1};
    measure(out, p, n);
    return -1;
}

int sp_fit(const struct pz_scale_point *p, size_t n, enum sp_values what,
           const struct sp_grid_use *grid, struct pz_scale_model *out)
{
    return fit_values(p, n, what, grid, 0, out);
}

int sp_fit_time(const struct pz_scale_point *p, size_t n, double loops,
                struct pz_scale_model *out)
{
    return fit_values(p, n, SP_TIME, NULL, loops, out);
}

/* The margin below which N / d, computed in floating point, counts as a whole number:
 * far below 1 / d for any d a run has. */
#define ROUNDING 1e-6

uint64_t sp_block_at(const struct pz_scale_model *items, uint64_t unit, int nprocs)
{
    return unit * (uint64_t)ceil(pz_scale_model_at(items, nprocs) - ROUNDING);
}

/* The divisor d of point q: P (dim < 0) or dims[dim]. */
static int divisor(const struct pz_scale_point *q, int dim)
{
    return dim < 0 ? q->procs : q->dims[dim];
}

/* The model of N / d for dim (P when below 0) of a grid in ndims. */
static struct pz_scale_model items_of(double N, int dim, int ndims)
{
    struct pz_scale_model m = {.c1 = N, .a_num = -1, .a_den = 1};

    if (dim >= 0) {
        m.a_num = 0;
        m.grid_ndims = ndims;
        m.grid[dim] = -1;
    }
    return m;
}

/* Whether unit * ceil(N / d) along dim gives every value p, N the largest number of
 * items whose blocks they are (into *m). */
static int blocks_of(const struct pz_scale_point *p, size_t n, int dim, int ndims,
                     uint64_t unit, struct pz_scale_model *m)
{
    uint64_t N = UINT64_MAX;

    for (size_t i = 0; i < n; i++) {
        uint64_t v = (uint64_t)llround(p[i].time), d = (uint64_t)divisor(&p[i], dim);

        if (v % unit)
            return 0;
        if (v / unit <= N / d)
            N = v / unit * d;
    }
    *m = items_of((double)N, dim, ndims);
    for (size_t i = 0; i < n; i++)
        if (unit * (uint64_t)ceil(N * term(m, &p[i]) - ROUNDING) !=
            (uint64_t)llround(p[i].time))
            return 0;
    return 1;
}


/* The block form along dim of the values p, the smallest unit first (above). */
static int blocks_along(const struct pz_scale_point *p, size_t n, int dim, int ndims,
                        struct pz_scale_model *m, uint64_t *unit)
{
    uint64_t g = 0, i;

    for (size_t k = 0; k < n; k++) {
        if (p[k].time < 1 || divisor(&p[k], dim) < 1)
            return 0;
        g = sp_gcd((uint64_t)llround(p[k].time), g);
    }
    for (i = 1; i <= g / i; i++)
        if (g % i == 0 && blocks_of(p, n, dim, ndims, i, m)) {
            *unit = i;
            return 1;
        }
    while (--i > 0)
        if (g % i == 0 && g / i != i && blocks_of(p, n, dim, ndims, g / i, m)) {
            *unit = g / i;
            return 1;
        }
    return 0;
}

/* Whether the points' process counts differ. */
static int counts_vary(const struct pz_scale_point *p, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (p[i].procs != p[0].procs)
            return 1;
    return 0;
}

int sp_fit_blocks(const struct pz_scale_point *p, size_t n, const struct sp_grid_use *grid,
                  struct pz_scale_model *items, uint64_t *unit)
{
    int ndims = grid && grid->ndims < PZ_SCALE_FIT_DIMS ? grid->ndims
                : grid ? PZ_SCALE_FIT_DIMS : 0;
    struct pz_scale_model m;

    for (int pass = 0; pass < 2; pass++) {
        int on_grid = (pass == 0) == (grid && grid->first);

        for (int d = on_grid ? 0 : -1; d < (on_grid ? ndims : 0); d++)
            if ((d < 0 ? counts_vary(p, n) : varies(p, n, d)) &&
                blocks_along(p, n, d, ndims, &m, unit)) {
                m.npoints = (int)n;
                m.ascending = (uint8_t)(d >= 0 && grid->ascending);
                *items = m;
                return 1;
            }
    }
    return 0;
}
