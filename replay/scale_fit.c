/* The scaling model of a computation's time: every candidate of the normal form fitted
 * by least squares, the one that predicts left-out recordings best chosen (scale_fit.h
 * says why). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scale_fit.h"
#include "scale_run.h"

_Static_assert(PZ_SCALE_FIT_DIMS == PZ_SCALE_MAX_DIMS, "a model's grid is a run's grid");

/* The exponents of P, as fractions, from the simplest up; each is tried as a growth
 * (P^a) and as a fall (P^-a). */
static const int exponents[][2] = {
    {0, 1}, {1, 4}, {1, 3}, {1, 2}, {2, 3}, {3, 4}, {1, 1}, {5, 4}, {4, 3}, {3, 2},
    {5, 3}, {7, 4}, {2, 1}, {9, 4}, {7, 3}, {5, 2}, {8, 3}, {11, 4}, {3, 1}
};
#define NEXPONENTS (sizeof(exponents) / sizeof(exponents[0]))
#define MAX_LOG_POWER 2

/* Errors closer than this (percentage points) are a tie, kept by the simpler model. */
#define TIE 1e-9

/* The growing term P^a * log2(P)^b of a candidate. */
static double term(const struct pz_scale_model *m, double procs)
{
    return pow(procs, pz_scale_model_a(m)) * pow(log2(procs), m->b);
}

double pz_scale_model_a(const struct pz_scale_model *m)
{
    return (double)m->a_num / m->a_den;
}

double pz_scale_model_term(const struct pz_scale_model *m, double procs, const int *dims)
{
    struct pz_scale_grid g;
    double x = 1;

    if (m->cols)
        procs = exp2(ceil(log2(procs) / 2));
    if (m->grid_ndims == 0)
        return term(m, procs);
    if (!dims) {
        pz_scale_grid_layout(&g, (int)procs, m->grid_ndims, m->ascending);
        dims = g.dims;
    }
    for (int d = 0; d < PZ_SCALE_FIT_DIMS; d++)
        x *= pow(dims[d], m->grid[d]);
    return x;
}

/* The formula's value at procs, below 0 as well. */
static double value(const struct pz_scale_model *m, double procs)
{
    return m->c1 == 0 ? m->c0 : m->c0 + m->c1 * pz_scale_model_term(m, procs, NULL);
}

double pz_scale_model_at(const struct pz_scale_model *m, double procs)
{
    double t = value(m, procs);

    return t > 0 ? t : 0;
}

/* Beyond the smallest count a time can reach 0 only by a growing term with a negative
 * coefficient, a falling term with one (c0 - c1 * log2(P) / P dips before it rises to
 * c0), or a falling term over a negative c0, which it approaches.  Without them the
 * model is monotone from the smallest count on, or c0 >= 0 plus a positive term: its
 * value at the smallest count settles the rest, whatever count is asked.  (Extra-P's
 * multi-parameter modeler fits coefficients by non-negative least squares unless its
 * option negative_coefficients is set, and its single-parameter modeler tries negative
 * exponents only with allow_negative_exponents.  Here every fall is tried, and a
 * candidate breaking the rule is dropped, not refitted under a constraint, so that
 * what is cross-validated is what is chosen.) */
int pz_scale_model_stays_positive(const struct pz_scale_model *m,
                                  const struct pz_scale_point *p, size_t n)
{
    size_t smallest = 0, largest = 0;
    double t;

    for (size_t i = 1; i < n; i++) {
        if (p[i].procs < p[smallest].procs)
            smallest = i;
        if (p[i].procs > p[largest].procs)
            largest = i;
    }
    if (p[largest].time == 0)
        return 1;
    t = value(m, p[smallest].procs);
    if (isnan(t) || t < 0 || (t == 0 && p[smallest].time > 0))
        return 0;
    if (m->c1 == 0)
        return 1;
    if (m->c1 < 0)
        return 0;
    return pz_scale_model_a(m) > 0 || (m->a_num == 0 && m->grid_ndims == 0) || m->c0 >= 0;
}

/* Least squares c1 of the fall through the origin m on the points but skip. */
static void fit_origin(struct pz_scale_model *m, const struct pz_scale_point *p, size_t n,
                       size_t skip)
{
    double sxy = 0, sxx = 0;

    for (size_t i = 0; i < n; i++)
        if (i != skip) {
            double x = term(m, p[i].procs);

            sxy += x * p[i].time;
            sxx += x * x;
        }
    m->c0 = 0;
    m->c1 = sxy / sxx;
}

/* Least squares c0 and c1 of m on the points but skip (n for none).  The constant is
 * the mean.  Centred sums: the growing terms span many orders of magnitude. */
static void fit_line(struct pz_scale_model *m, const struct pz_scale_point *p, size_t n,
                     size_t skip)
{
    double xbar = 0, ybar = 0, sxy = 0, sxx = 0, used = 0;
    size_t i;

    if (m->origin) {
        fit_origin(m, p, n, skip);
        return;
    }
    for (i = 0; i < n; i++)
        if (i != skip) {
            xbar += m->b || m->a_num ? term(m, p[i].procs) : 0;
            ybar += p[i].time;
            used++;
        }
    xbar /= used;
    ybar /= used;
    m->c0 = ybar;
    m->c1 = 0;
    if (!m->b && !m->a_num)
        return;
    for (i = 0; i < n; i++)
        if (i != skip) {
            double dx = term(m, p[i].procs) - xbar;

            sxy += dx * (p[i].time - ybar);
            sxx += dx * dx;
        }
    m->c1 = sxy / sxx;
    m->c0 = ybar - m->c1 * xbar;
}

/* |pred - t| / ((|pred| + |t|) / 2) in %; 0 when both are 0. */
static double smape(double pred, double t)
{
    double scale = (fabs(pred) + fabs(t)) / 2;

    return scale > 0 ? 100 * fabs(pred - t) / scale : 0;
}

/* The leave-one-out error of the candidate m (its form) on the n >= 3 points. */
static double cross_validate(const struct pz_scale_model *m, const struct pz_scale_point *p,
                             size_t n)
{
    struct pz_scale_model fold = *m;
    double sum = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        fit_line(&fold, p, n, i);
        sum += smape(pz_scale_model_at(&fold, p[i].procs), p[i].time);
    }
    return sum / n;
}

/* The index of the largest count among the n points. */
static size_t largest_count(const struct pz_scale_point *p, size_t n)
{
    size_t top = 0;

    for (size_t i = 1; i < n; i++)
        if (p[i].procs > p[top].procs)
            top = i;
    return top;
}

/* The candidate m (its form) fitted to the n >= 3 points but the largest count's (the
 * fold of cross_validate going forwards): into *error its error predicting that count,
 * into *change how much it changes between the smallest and the largest of the other
 * counts (SMAPE of the two values, %), or how much the recordings there do, whichever
 * is less (a form of one coefficient changes between two equal recordings). */
static void forward_fold(const struct pz_scale_model *m, const struct pz_scale_point *p,
                         size_t n, double *error, double *change)
{
    struct pz_scale_model fold = *m;
    size_t top = largest_count(p, n), low = top, high = top;

    for (size_t i = 0; i < n; i++)
        if (i != top) {
            if (low == top || p[i].procs < p[low].procs)
                low = i;
            if (high == top || p[i].procs > p[high].procs)
                high = i;
        }
    fit_line(&fold, p, n, top);
    *error = smape(pz_scale_model_at(&fold, p[top].procs), p[top].time);
    *change = fmin(smape(pz_scale_model_at(&fold, p[high].procs),
                         pz_scale_model_at(&fold, p[low].procs)),
                   smape(p[high].time, p[low].time));
}

/* Whether the growth of the growing candidate shows below the largest count
 * (scale_fit.h): fitted without it, the form changes by more than
 * PZ_SCALE_FIT_TOLERANCE percent over the other counts, and predicts the largest with
 * at most PZ_SCALE_FIT_FORWARD of the constant's error.  A time that has ended (0 at
 * the largest count) is exempt, as from the rule of signs. */
static int growth_shows_below_the_largest(const struct pz_scale_model *growing,
                                          const struct pz_scale_point *p, size_t n)
{
    struct pz_scale_model constant = {.a_den = 1};
    double error, change, constant_error, none;

    if (p[largest_count(p, n)].time == 0)
        return 1;
    forward_fold(growing, p, n, &error, &change);
    forward_fold(&constant, p, n, &constant_error, &none);
    return change > PZ_SCALE_FIT_TOLERANCE && error <= PZ_SCALE_FIT_FORWARD * constant_error;
}

/* The fit's relative errors on the recordings (scale_fit.h: max_error, mean_error). */
static void measure_errors(struct pz_scale_model *m, const struct pz_scale_point *p,
                           size_t n)
{
    double mean_time = 0, sum = 0;
    size_t i;

    for (i = 0; i < n; i++)
        mean_time += p[i].time / n;
    m->max_error = 0;
    for (i = 0; i < n; i++) {
        double scale = p[i].time > 0 ? p[i].time : mean_time;
        double diff = fabs(pz_scale_model_at(m, p[i].procs) - p[i].time);
        double e = scale > 0 ? 100 * diff / scale : 0;

        sum += e;
        if (e > m->max_error)
            m->max_error = e;
    }
    m->mean_error = sum / n;
}

struct pz_scale_model pz_scale_fit_class(const struct pz_scale_point *p,
                                         const struct pz_scale_point *all, size_t n,
                                         const struct pz_scale_model *own,
                                         const struct pz_scale_model *shared)
{
    struct pz_scale_model level = *shared, kept = *own;
    double ratios = 0;
    size_t used = 0;

    for (size_t i = 0; i < n; i++)
        if (all[i].time > 0) {
            ratios += p[i].time / all[i].time;
            used++;
        }
    if (used) {
        level.c0 *= ratios / used;
        level.c1 *= ratios / used;
    }
    measure_errors(&level, p, n);
    level.npoints = (int)n;
    measure_errors(&kept, p, n);
    return level.mean_error < kept.mean_error - TIE ? level : *own;
}

/* How complex a candidate's term reads: each power of the logarithm 2, a fractional
 * exponent 1 (a half) or 2 (a third, a quarter), an exponent beyond 2 one more. */
static int complexity(const struct pz_scale_model *m)
{
    int num = m->a_num < 0 ? -m->a_num : m->a_num;

    return 2 * m->b + (m->a_den == 1 ? 0 : m->a_den == 2 ? 1 : 2) + (num > 2 * m->a_den);
}

/* Fits the candidate m to every point and, if it stays positive (scale_fit.h),
 * cross-validates it into all[*count]; *lowest is the lowest error so far. */
static void try_candidate(struct pz_scale_model m, const struct pz_scale_point *p, size_t n,
                          struct pz_scale_model *all, size_t *count, double *lowest)
{
    fit_line(&m, p, n, n);
    if (!pz_scale_model_stays_positive(&m, p, n))
        return;
    m.cv_error = cross_validate(&m, p, n);
    if (m.cv_error < *lowest)
        *lowest = m.cv_error;
    all[(*count)++] = m;
}

/* How steep a fit may be: the largest |a| of a fall and of a growth (HUGE_VAL: any). */
struct steepest {
    double fall, growth;
};

/* An amount's limits, or a time's (scale_fit.h): no fall steeper than 1 / P^(1 +
 * loops), loops the growth of the trip counts of the loops the time is made in each
 * iteration of, and no growth steeper than P. */
static struct steepest steepest_of(enum pz_scale_quantity q, double loops)
{
    return q == PZ_SCALE_AMOUNT ? (struct steepest){HUGE_VAL, HUGE_VAL}
                                : (struct steepest){1 + loops, 1};
}

/* Whether a fall by P^-(num / den) may be fitted under the limits s. */
static int may_fall(struct steepest s, int num, int den)
{
    return num != 0 && num <= s.fall * den + TIE;
}

/* Whether a growth by P^(num / den) may be fitted under the limits s, times a power of
 * log2(P). */
static int may_grow(struct steepest s, int num, int den)
{
    return num <= s.growth * den + TIE;
}

/* Among the growing candidates the limits q allow whose fit stays positive
 * (scale_fit.h), the simplest whose leave-one-out error is within PZ_SCALE_FIT_SIMPLER
 * points of the lowest; the lower error breaks a tie.  Its cv_error is HUGE_VAL when no
 * candidate stays positive. */
static struct pz_scale_model best_growing(const struct pz_scale_point *p, size_t n,
                                          struct steepest q)
{
    struct pz_scale_model all[NEXPONENTS * 3 * (MAX_LOG_POWER + 1)], m = {0}, best;
    size_t i, count = 0;
    double lowest = HUGE_VAL;

    for (i = 0; i < NEXPONENTS; i++)
        for (int sign = 1; sign >= (may_fall(q, exponents[i][0], exponents[i][1]) ? -1 : 1);
             sign -= 2)
            for (m.b = 0; m.b <= MAX_LOG_POWER; m.b++) {
                m.a_num = sign * exponents[i][0];
                m.a_den = exponents[i][1];
                if ((!m.a_num && !m.b) ||
                    (sign > 0 && !may_grow(q, exponents[i][0], exponents[i][1])))
                    continue;
                m.origin = 0;
                try_candidate(m, p, n, all, &count, &lowest);
                if (sign > 0)
                    continue;
                m.origin = 1;
                try_candidate(m, p, n, all, &count, &lowest);
            }
    best = (struct pz_scale_model){.a_den = 1, .cv_error = HUGE_VAL};
    for (i = 0; i < count; i++) {
        int simpler = complexity(&all[i]) < complexity(&best);

        if (all[i].cv_error <= lowest + PZ_SCALE_FIT_SIMPLER &&
            (best.cv_error == HUGE_VAL || simpler ||
             (complexity(&all[i]) == complexity(&best) &&
              all[i].cv_error < best.cv_error - TIE)))
            best = all[i];
    }
    return best;
}

/* Whether the smallest count's recording breaks the trend of a share of a fixed problem
 * (scale_fit.h): the fall through the origin 1 / P, fitted to the others, predicts each
 * of them within PZ_SCALE_FIT_TOLERANCE percent and misses the smallest by more.  If
 * so, that fall is *share. */
static int smallest_breaks_the_share(const struct pz_scale_point *p, size_t n,
                                     struct pz_scale_model *share)
{
    size_t low = 0, i;

    for (i = 1; i < n; i++)
        if (p[i].procs < p[low].procs)
            low = i;
    *share = (struct pz_scale_model){.origin = 1, .a_num = -1, .a_den = 1};
    fit_line(share, p, n, low);
    if (!(share->c1 > 0))
        return 0;
    for (i = 0; i < n; i++)
        if (i != low && smape(pz_scale_model_at(share, p[i].procs), p[i].time) >
                            PZ_SCALE_FIT_TOLERANCE)
            return 0;
    return smape(pz_scale_model_at(share, p[low].procs), p[low].time) >
           PZ_SCALE_FIT_TOLERANCE;
}

/* Checks every recording; returns the status and says what is wrong in err. */
static int check_points(const struct pz_scale_point *p, size_t n, char *err, size_t errlen)
{
    size_t i, j;

    if (n == 0) {
        snprintf(err, errlen, "no recording to fit");
        return PZ_SCALE_FIT_NO_POINTS;
    }
    for (i = 0; i < n; i++) {
        if (p[i].procs < 1) {
            snprintf(err, errlen, "recording %zu: process count %d: expected at least 1",
                     i + 1, p[i].procs);
            return PZ_SCALE_FIT_BAD_COUNT;
        }
        if (!isfinite(p[i].time) || p[i].time < 0) {
            snprintf(err, errlen, "recording %zu (%d processes): time %g: expected a "
                     "finite time of at least 0", i + 1, p[i].procs, p[i].time);
            return PZ_SCALE_FIT_BAD_TIME;
        }
        for (j = 0; j < i; j++)
            if (p[j].procs == p[i].procs) {
                snprintf(err, errlen, "recordings %zu and %zu: both at %d processes",
                         j + 1, i + 1, p[i].procs);
                return PZ_SCALE_FIT_REPEATED_COUNT;
            }
    }
    if (n == 2) {
        snprintf(err, errlen, "2 process counts (%d and %d): at least 3 are needed to "
                 "choose how the time grows", p[0].procs, p[1].procs);
        return PZ_SCALE_FIT_TOO_FEW;
    }
    return PZ_SCALE_FIT_OK;
}

/* pz_scale_fit under the limits q. */
static int fit_under(const struct pz_scale_point *points, size_t n, struct steepest q,
                     struct pz_scale_model *out, char *err, size_t errlen)
{
    struct pz_scale_model constant = {.a_den = 1}, chosen;
    int status = check_points(points, n, err, errlen);

    if (status != PZ_SCALE_FIT_OK)
        return status;
    if (n > 2 && smallest_breaks_the_share(points, n, &chosen)) {
        chosen.cv_error = cross_validate(&chosen, points, n);
        measure_errors(&chosen, points, n);
        chosen.npoints = (int)n;
        *out = chosen;
        return PZ_SCALE_FIT_OK;
    }
    if (n > 1)
        constant.cv_error = cross_validate(&constant, points, n);
    chosen = constant;
    if (n > 1) {
        struct pz_scale_model growing = best_growing(points, n, q);

        if (growing.cv_error < constant.cv_error - PZ_SCALE_FIT_TOLERANCE &&
            growth_shows_below_the_largest(&growing, points, n))
            chosen = growing;
    }
    fit_line(&chosen, points, n, n);
    measure_errors(&chosen, points, n);
    chosen.npoints = (int)n;
    *out = chosen;
    return PZ_SCALE_FIT_OK;
}

int pz_scale_fit(const struct pz_scale_point *points, size_t n, enum pz_scale_quantity q,
                 struct pz_scale_model *out, char *err, size_t errlen)
{
    return fit_under(points, n, steepest_of(q, 0), out, err, errlen);
}

int pz_scale_fit_in_loops(const struct pz_scale_point *points, size_t n, double loops,
                          struct pz_scale_model *out, char *err, size_t errlen)
{
    return fit_under(points, n, steepest_of(PZ_SCALE_TIME, loops > 0 ? loops : 0), out, err,
                     errlen);
}

/* A coefficient with 3 significant digits, the exponent without leading zeros or '+'
 * ("4.5e-5", not "4.5e-05"); a whole number below 10^7 in full (a block distribution of
 * 1001 items is not one of "1e3", nor a message of 8192 bytes one of "8.19e3"). */
static void format_number(char *buf, size_t len, double v)
{
    char raw[32], *e;

    if (fabs(v) < 1e7 && fabs(v - round(v)) <= 1e-9 * fabs(v)) {
        snprintf(buf, len, "%.0f", round(v));
        return;
    }
    snprintf(raw, sizeof(raw), "%.3g", v);
    e = strchr(raw, 'e');
    if (e) {
        char sign = e[1] == '-' ? '-' : 0;
        char *digits = e + 2;

        while (*digits == '0' && digits[1])
            digits++;
        snprintf(buf, len, "%.*se%s%s", (int)(e - raw), raw, sign ? "-" : "", digits);
    } else {
        snprintf(buf, len, "%s", raw);
    }
}

/* "P", "P^2" or "P^(3/2)" of |a|; empty for a = 0. */
static void format_power(char *buf, size_t len, const struct pz_scale_model *m)
{
    int num = m->a_num < 0 ? -m->a_num : m->a_num;

    if (!num)
        buf[0] = 0;
    else if (m->a_den == 1 && num == 1)
        snprintf(buf, len, "P");
    else if (m->a_den == 1)
        snprintf(buf, len, "P^%d", num);
    else
        snprintf(buf, len, "P^(%d/%d)", num, m->a_den);
}

/* "dims[1]", "dims[1] * dims[2]" or "dims[0]^2 * dims[1]": the dimensions of a grid
 * model whose exponents have the sign of `sign`, each with its power when beyond 1; how
 * many in *n. */
static void format_dims(char *buf, size_t len, const struct pz_scale_model *m, int sign, int *n)
{
    size_t used = 0;

    buf[0] = 0;
    *n = 0;
    for (int d = 0; d < PZ_SCALE_FIT_DIMS; d++) {
        int power = m->grid[d] * sign;

        if (power <= 0 || used >= len)
            continue;
        used += (size_t)snprintf(buf + used, len - used, "%sdims[%d]", (*n)++ ? " * " : "", d);
        if (power > 1 && used < len)
            used += (size_t)snprintf(buf + used, len - used, "^%d", power);
    }
}

/* "16 + 800 * dims[0] / (dims[1] * dims[2])". */
static void format_grid(char *buf, size_t len, const struct pz_scale_model *m,
                        const char *c0, const char *c1)
{
    char up[48], down[48];
    int nup, ndown;

    format_dims(up, sizeof(up), m, 1, &nup);
    format_dims(down, sizeof(down), m, -1, &ndown);
    snprintf(buf, len, "%s %c %s%s%s%s%s%s%s", c0, m->c1 < 0 ? '-' : '+', c1,
             nup ? " * " : "", up, ndown ? " / " : "", ndown > 1 ? "(" : "", down,
             ndown > 1 ? ")" : "");
}

void pz_scale_model_format(const struct pz_scale_model *m, char *buf, size_t len)
{
    char c0[32], c1[32], power[24], log[24] = "";

    format_number(c0, sizeof(c0), m->c0);
    if (m->grid_ndims > 0 && m->c1 != 0) {
        format_number(c1, sizeof(c1), fabs(m->c1));
        format_grid(buf, len, m, c0, c1);
        return;
    }
    if (!m->a_num && !m->b) {
        snprintf(buf, len, "%s", c0);
        return;
    }
    format_number(c1, sizeof(c1), fabs(m->c1));
    format_power(power, sizeof(power), m);
    if (m->b == 1)
        snprintf(log, sizeof(log), "log2(P)");
    else if (m->b > 1)
        snprintf(log, sizeof(log), "log2(P)^%d", m->b);
    if (m->origin)         /* "8 / P", "8 * log2(P) / P^2" */
        snprintf(buf, len, "%s%s%s / %s", c1, log[0] ? " * " : "", log, power);
    else if (m->a_num < 0) /* a fall: "0.5 + 8 / P", "0.5 + 8 * log2(P) / P^2" */
        snprintf(buf, len, "%s %c %s%s%s / %s", c0, m->c1 < 0 ? '-' : '+', c1,
                 log[0] ? " * " : "", log, power);
    else
        snprintf(buf, len, "%s %c %s * %s%s%s", c0, m->c1 < 0 ? '-' : '+', c1, power,
                 power[0] && log[0] ? " * " : "", log);
}
