/* The overheads' lines and the segments' breakpoints (docs/calibrate.md).  Every line
 * is weighted for relative error: the times span five orders of magnitude, and an
 * unweighted line would fit the largest sizes only. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "calibrate_segments.h"

/* The points a line is fitted to: sizes x, values y, each weighted 1 / scale^2 so that
 * the squared error is that of (y - line) / scale. */
struct series {
    const double *x, *y, *scale;
};

static double weighted_error(const struct series *s, int from, int to, double a, double b)
{
    double sse = 0;

    for (int i = from; i <= to; i++) {
        double r = (s->y[i] - a - b * s->x[i]) / s->scale[i];

        sse += r * r;
    }
    return sse;
}

/* The weighted least-squares line over points from..to with a >= 0 and b >= min_slope:
 * the unconstrained optimum if it is allowed, else the better of the optima along the
 * two bounds (the error is convex, so one of them is the constrained optimum).  Returns
 * its weighted squared error. */
static double constrained_line(const struct series *s, int from, int to, double min_slope,
                               double *a, double *b)
{
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, d, a1, b1, a2, b2, e1, e2;

    for (int i = from; i <= to; i++) {
        double w = 1 / (s->scale[i] * s->scale[i]);

        sw += w;
        sx += w * s->x[i];
        sy += w * s->y[i];
        sxx += w * s->x[i] * s->x[i];
        sxy += w * s->x[i] * s->y[i];
    }
    d = sw * sxx - sx * sx;
    if (d > 0) {
        *b = (sw * sxy - sx * sy) / d;
        *a = (sy - *b * sx) / sw;
        if (*a >= 0 && *b >= min_slope)
            return weighted_error(s, from, to, *a, *b);
    }
    b1 = min_slope;   /* along b = min_slope */
    a1 = fmax(0, (sy - b1 * sx) / sw);
    a2 = 0;           /* along a = 0 */
    b2 = sxx > 0 ? fmax(min_slope, sxy / sxx) : min_slope;
    e1 = weighted_error(s, from, to, a1, b1);
    e2 = weighted_error(s, from, to, a2, b2);
    *a = e1 <= e2 ? a1 : a2;
    *b = e1 <= e2 ? b1 : b2;
    return fmin(e1, e2);
}

/* Median and largest |error| in percent of model values m against measured t. */
static void errors_of(const double *t, const double *m, int n, double *median, double *max)
{
    double *e = malloc((size_t)(n > 0 ? n : 1) * sizeof(*e));

    *median = *max = NAN;
    if (!e)
        return;
    *max = 0;
    for (int i = 0; i < n; i++) {
        e[i] = fabs(pz_fit_error(t[i], m[i]));
        *max = fmax(*max, e[i]);
    }
    *median = pz_fit_median(e, n);
    free(e);
}

void pz_fit_overhead(const struct pz_pingpong *p, int n, struct pz_line_fit *fit)
{
    double *x = malloc((size_t)(n > 0 ? 4 * n : 1) * sizeof(*x)), *y = x + n, *m = x + 2 * n;
    double *scale = x + 3 * n;
    struct series s = { x, y, scale };

    *fit = (struct pz_line_fit){ .a = n > 0 ? p[0].time : 0, .points = n,
                                 .median_error = NAN, .max_error = NAN };
    if (!x || n < 2) {
        free(x);
        return;
    }
    for (int i = 0; i < n; i++) {
        x[i] = p[i].bytes;
        y[i] = p[i].time;
        scale[i] = fmax(p[i].time, 1e-12);   /* a time of 0 (a clock too coarse) */
    }
    constrained_line(&s, 0, n - 1, 0, &fit->a, &fit->b);
    for (int i = 0; i < n; i++)
        m[i] = fit->a + fit->b * x[i];
    errors_of(y, m, n, &fit->median_error, &fit->max_error);
    free(x);
}

double pz_segment_overheads(const struct pz_segment_base *base, double bytes)
{
    const struct pz_overhead *o = &base->overhead;
    double upto = base->copies_upto > 0 ? base->copies_upto : base->eager_threshold;
    int copied = !(upto > 0) || bytes <= upto;   /* an eager message's copies (cost.h) */

    return o->send + o->recv + (copied ? bytes * (o->send_per_byte + o->recv_per_byte) : 0);
}

static int rendezvous(const struct pz_segment_base *base, double bytes)
{
    return base->eager_threshold > 0 && bytes > base->eager_threshold;
}

int pz_segment_split(const struct pz_segment_base *base, double bytes)
{
    return base->first_fragment > 0 && rendezvous(base, bytes) && bytes > base->first_fragment;
}

double pz_segment_rest(const struct pz_segment_base *base, double bytes)
{
    return pz_segment_split(base, bytes) ? bytes - base->first_fragment : bytes;
}

double pz_segment_base_time(const struct pz_segment_base *base, double bytes,
                            double first_latency)
{
    double t = pz_segment_overheads(base, bytes);

    if (!rendezvous(base, bytes))
        return t;
    if (!(base->first_fragment > 0))
        return t + 2 * first_latency + base->rendezvous_overhead;
    /* the fragment carried the request; a message it held whole needs no more */
    return pz_segment_split(base, bytes) ? t + first_latency + base->rendezvous_overhead : t;
}

static const struct pz_segment *segment_of(const struct pz_segments *s, double bytes)
{
    for (int i = 0; i < s->n; i++)
        if (bytes <= s->seg[i].upto)
            return &s->seg[i];
    return s->n ? &s->seg[s->n - 1] : NULL;
}

/* One transfer of bytes by the segments (the last one beyond its bound). */
static double transfer_time(const struct pz_segments *s, double bytes)
{
    const struct pz_segment *g = segment_of(s, bytes);

    return g ? g->latency + bytes / g->bandwidth : 0;
}

double pz_segment_model(const struct pz_segments *s, const struct pz_segment_base *base,
                        double bytes)
{
    double first = s->n ? s->seg[0].latency : 0;
    double t = pz_segment_base_time(base, bytes, first) +
               transfer_time(s, pz_segment_rest(base, bytes));

    return pz_segment_split(base, bytes) ? t + transfer_time(s, base->first_fragment) : t;
}

/* The dynamic programme over one series: cost[i * n + j] is the error of one segment
 * over points i..j (DBL_MAX if too few), best[(k - 1) * n + j] that of k segments over
 * points 0..j, from[(k - 1) * n + j] where the last of them starts; every segment's
 * slope at least min_slope. */
struct programme {
    int n;
    const double *x;           /* the points' sizes */
    double *cost, *best;
    int *from;
    double min_slope;
};

static int programme_init(struct programme *g, const struct series *s, int n)
{
    g->n = n;
    g->x = s->x;
    g->cost = malloc((size_t)n * n * sizeof(*g->cost));
    g->best = malloc((size_t)PZ_MAX_SEGMENTS * n * sizeof(*g->best));
    g->from = malloc((size_t)PZ_MAX_SEGMENTS * n * sizeof(*g->from));
    if (!g->cost || !g->best || !g->from)
        return -1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double a, b;

            g->cost[i * n + j] = j - i + 1 >= PZ_SEG_MIN_POINTS
                                     ? constrained_line(s, i, j, g->min_slope, &a, &b)
                                     : DBL_MAX;
        }
    return 0;
}

static void programme_release(struct programme *g)
{
    free(g->cost);
    free(g->best);
    free(g->from);
}

/* best and from for k = 1 .. kmax segments, no segment beginning at a size the one
 * before ends at. */
static void programme_run(struct programme *g, int kmax)
{
    int n = g->n;

    for (int j = 0; j < n; j++) {
        g->best[j] = g->cost[j];
        g->from[j] = 0;
    }
    for (int k = 2; k <= kmax; k++) {
        double *best = g->best + (k - 1) * n, *prev = best - n;
        int *from = g->from + (k - 1) * n;

        for (int j = 0; j < n; j++) {
            best[j] = DBL_MAX;
            from[j] = -1;
            for (int i = 1; i <= j; i++) {
                double c;

                /* a bound between two points of one size would repeat it */
                if (prev[i - 1] == DBL_MAX || g->cost[i * n + j] == DBL_MAX ||
                    g->x[i] == g->x[i - 1])
                    continue;
                c = prev[i - 1] + g->cost[i * n + j];
                if (c < best[j]) {
                    best[j] = c;
                    from[j] = i;
                }
            }
        }
    }
}

/* The k segments of the programme over the series, refitted, into out. */
static void programme_segments(const struct programme *g, const struct series *s, int k,
                               struct pz_segments *out)
{
    int n = g->n, end = n - 1;

    out->n = k;
    for (int c = k; c >= 1; c--) {
        int start = g->from[(c - 1) * n + end];
        double a, b;

        constrained_line(s, start, end, g->min_slope, &a, &b);
        out->seg[c - 1] = (struct pz_segment){ .upto = s->x[end], .latency = a,
                                               .bandwidth = 1 / b };
        end = start - 1;
    }
}

/* Sorts the series' points by size, stably (the sizes of rests fall among the others). */
static void sort_by_size(double *x, double *y, double *t, int n)
{
    for (int i = 1; i < n; i++) {
        double xi = x[i], yi = y[i], ti = t[i];
        int j = i;

        for (; j > 0 && x[j - 1] > xi; j--) {
            x[j] = x[j - 1];
            y[j] = y[j - 1];
            t[j] = t[j - 1];
        }
        x[j] = xi;
        y[j] = yi;
        t[j] = ti;
    }
}

/* One fit of the segments with the handshake's control latency first_latency and, for a
 * message split in two, the fragment's time `fragment`. */
static void fit_once(const struct pz_pingpong *p, int n, const struct pz_segment_base *base,
                     double first_latency, double fragment, struct pz_segment_fit *fit)
{
    double *x = malloc((size_t)3 * n * sizeof(*x)), *y = x + n, *t = x + 2 * n;
    struct series s = { x, y, t };
    int chosen = 1;
    struct programme g = { .min_slope = 1 / fit->bandwidth_bound };

    fit->segments.n = 0;
    fit->tried = 0;
    if (!x)
        goto out;
    for (int i = 0; i < n; i++) {
        x[i] = pz_segment_rest(base, p[i].bytes);
        t[i] = p[i].time;
        y[i] = p[i].time - pz_segment_base_time(base, p[i].bytes, first_latency) -
               (pz_segment_split(base, p[i].bytes) ? fragment : 0);
    }
    sort_by_size(x, y, t, n);
    if (programme_init(&g, &s, n) != 0)
        goto out;
    fit->tried = n / PZ_SEG_MIN_POINTS < PZ_MAX_SEGMENTS ? n / PZ_SEG_MIN_POINTS
                                                         : PZ_MAX_SEGMENTS;
    programme_run(&g, fit->tried);
    for (int k = 1; k <= fit->tried; k++) {
        double sse = g.best[(k - 1) * n + n - 1];

        fit->sse[k - 1] = sse;
        fit->bic[k - 1] = n * log(fmax(sse, n * PZ_SEG_NOISE * PZ_SEG_NOISE) / n) +
                          (3 * k - 1) * log(n);
        if (fit->bic[k - 1] < fit->bic[chosen - 1])
            chosen = k;
    }
    programme_segments(&g, &s, chosen, &fit->segments);
    /* the last bound: the largest size, which a rest's may be below */
    fit->segments.seg[chosen - 1].upto = fmax(fit->segments.seg[chosen - 1].upto,
                                              p[n - 1].bytes);
    fit->bounded = 0;
    for (int i = 0; i < fit->segments.n; i++)
        fit->bounded += fit->segments.seg[i].bandwidth >= fit->bandwidth_bound * (1 - 1e-9);
out:
    programme_release(&g);
    free(x);
}

/* The fragment's time before any segment is fitted: the largest eager size's time less
 * base, in proportion to the fragment's size (0 without a fragment or an eager size). */
static double fragment_estimate(const struct pz_pingpong *p, int n,
                                const struct pz_segment_base *base)
{
    double estimate = 0;

    if (!(base->first_fragment > 0))
        return 0;
    for (int i = 0; i < n; i++)
        if (!rendezvous(base, p[i].bytes) && p[i].bytes > 0)
            estimate = fmax(0, p[i].time - pz_segment_base_time(base, p[i].bytes, 0)) *
                       base->first_fragment / p[i].bytes;
    return estimate;
}

void pz_fit_segments(const struct pz_pingpong *p, int n, const struct pz_segment_base *base,
                     struct pz_segment_fit *fit)
{
    double first = n > 0 ? fmax(0, p[0].time - pz_segment_base_time(base, p[0].bytes, 0)) : 0;
    int refits = !(base->eager_threshold > 0) ? 0
                 : base->first_fragment > 0   ? PZ_SEG_FRAGMENT_REFITS
                                              : 1;
    double *t, *m;

    *fit = (struct pz_segment_fit){ .median_error = NAN, .max_error = NAN };
    if (n < PZ_SEG_MIN_POINTS)
        return;
    for (int i = 0; i < n; i++)
        if (p[i].bytes > 0)
            fit->bandwidth_bound = fmax(fit->bandwidth_bound,
                                        PZ_SEG_RATE_BOUND * p[i].bytes / p[i].time);
    if (!(fit->bandwidth_bound > 0))
        return;
    fit_once(p, n, base, first, fragment_estimate(p, n, base), fit);
    for (int i = 0; i < refits && fit->segments.n > 0; i++)
        fit_once(p, n, base, fit->segments.seg[0].latency,
                 transfer_time(&fit->segments, base->first_fragment), fit);
    if (fit->segments.n == 0 || !(t = malloc((size_t)2 * n * sizeof(*t))))
        return;
    m = t + n;
    for (int i = 0; i < n; i++) {
        t[i] = p[i].time;
        m[i] = pz_segment_model(&fit->segments, base, p[i].bytes);
    }
    errors_of(t, m, n, &fit->median_error, &fit->max_error);
    free(t);
}
