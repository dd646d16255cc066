/* Forms of P for the program model (scale_program_int.h).  Trip counts and message sizes
 * are exact functions of P in the programs the scaling is for, and so, in synthetic
 * tests, are computations: the exact forms are tried first, simplest first, and one is
 * taken when it gives every recorded value (whole values exactly once rounded, others
 * within 1e-9 relative):
 *     c;  c * P^a and c / P^a for a in {1, 2, 1/2, 3, 1/3, 2/3, 1/4, 3/4, 3/2};
 *     c * log2(P);  and with 3 counts or more c0 + c1 * P^a, c0 + c1 / P^a, c0 + c1 * log2(P).
 * Else scale_fit.h's model (3 counts or more), else the constant of the largest count. */
#include <math.h>

#include "scale_program_int.h"

static const int powers[][2] = {
    {1, 1}, {2, 1}, {1, 2}, {3, 1}, {1, 3}, {2, 3}, {1, 4}, {3, 4}, {3, 2}
};
#define NPOWERS (sizeof(powers) / sizeof(powers[0]))
#define EXACT 1e-9

static double term(const struct pz_scale_model *m, double procs)
{
    return pow(procs, pz_scale_model_a(m)) * pow(log2(procs), m->b);
}

static int gives(const struct pz_scale_model *m, const struct pz_scale_point *p, size_t n,
                 int integer)
{
    for (size_t i = 0; i < n; i++) {
        double v = m->c0 + m->c1 * term(m, p[i].procs);

        if (integer ? llround(v) != llround(p[i].time)
                    : fabs(v - p[i].time) > EXACT * fabs(p[i].time) + 1e-300)
            return 0;
    }
    return 1;
}

/* c1 of c1 * term through the largest count's value. */
static int one_term(struct pz_scale_model *m, const struct pz_scale_point *p, size_t n,
                    size_t top, int integer)
{
    double x = term(m, p[top].procs);

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
    double xl = term(m, p[low].procs), xt = term(m, p[top].procs);

    if (xl == xt)
        return 0;
    m->c1 = (p[top].time - p[low].time) / (xt - xl);
    m->c0 = p[top].time - m->c1 * xt;
    return gives(m, p, n, integer);
}

static int exact(const struct pz_scale_point *p, size_t n, int integer,
                 struct pz_scale_model *m)
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
    for (int pass = 0; pass < 2; pass++) {
        if (pass && n < 3)
            break;
        for (size_t i = 0; i < 2 * NPOWERS + 1; i++) {
            *m = (struct pz_scale_model){.a_den = 1};
            if (i == 2 * NPOWERS) {
                m->b = 1;
            } else {
                m->a_num = powers[i / 2][0] * (i % 2 ? -1 : 1);
                m->a_den = powers[i / 2][1];
            }
            if (pass ? two_terms(m, p, n, low, top, integer) : one_term(m, p, n, top, integer))
                return 1;
        }
    }
    return 0;
}

static void measure(struct pz_scale_model *m, const struct pz_scale_point *p, size_t n)
{
    double sum = 0;

    m->max_error = 0;
    for (size_t i = 0; i < n; i++) {
        double v = pz_scale_model_at(m, p[i].procs);
        double e = p[i].time != 0 ? 100 * fabs(v - p[i].time) / fabs(p[i].time) : 0;

        sum += e;
        if (e > m->max_error)
            m->max_error = e;
    }
    m->mean_error = n ? sum / n : 0;
    m->cv_error = 0;
    m->npoints = (int)n;
}

int sp_fit(const struct pz_scale_point *p, size_t n, int integer, struct pz_scale_model *out)
{
    char err[128];
    size_t top = 0;

    if (n == 0) {
        *out = (struct pz_scale_model){.a_den = 1};
        return -1;
    }
    if (exact(p, n, integer, out)) {
        measure(out, p, n);
        return 1;
    }
    if (n >= 3 && pz_scale_fit(p, n, out, err, sizeof(err)) == PZ_SCALE_FIT_OK)
        return 0;
    for (size_t i = 1; i < n; i++)
        if (p[i].procs > p[top].procs)
            top = i;
    *out = (struct pz_scale_model){.c0 = p[top].time, .a_den = 1};
    measure(out, p, n);
    return -1;
}
