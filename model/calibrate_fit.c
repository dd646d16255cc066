/* The cost models' parameters from ping-pong medians (shared/seeds/002's method; the
 * rules are written out in docs/calibrate.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate_fit.h"
#include "cost.h"

int pz_fit_robust_line(const struct pz_pingpong *p, int n, double from, double to, double *a,
                       double *b)
{
    int lo = n, hi = -1, k = 0, m;
    double *slopes, *heights;

    for (int i = 0; i < n; i++)
        if (p[i].bytes >= from && p[i].bytes <= to) {
            lo = i < lo ? i : lo;
            hi = i;
        }
    if ((m = hi - lo + 1) < 2)
        return m > 0 ? m : 0;
    slopes = malloc((size_t)m * (size_t)(m - 1) / 2 * sizeof(*slopes));
    heights = malloc((size_t)m * sizeof(*heights));
    if (!slopes || !heights) {
        free(slopes);
        free(heights);
        return -1;
    }
    for (int i = lo; i <= hi; i++)
        for (int j = i + 1; j <= hi; j++)
            slopes[k++] = (p[j].time - p[i].time) / (p[j].bytes - p[i].bytes);
    *b = pz_fit_median(slopes, k);
    for (int i = lo; i <= hi; i++)
        heights[i - lo] = p[i].time - *b * p[i].bytes;
    *a = pz_fit_median(heights, m);
    free(slopes);
    free(heights);
    return m;
}

/* ln(t / Hockney's time): how far a size lies above (> 0) or below the line. */
static double residual(const struct pz_fit *fit, const struct pz_pingpong *p)
{
    return log(p->time / pz_fit_model_c(fit, p->bytes));
}

static int check_points(const struct pz_pingpong *p, int n, double packet_size,
                        double packet_header, char *err, size_t errlen)
{
    if (n < 3) {
        snprintf(err, errlen, "%d message sizes: at least 3 are needed", n);
        return -1;
    }
    if (p[0].bytes != 0) {
        snprintf(err, errlen, "no 0-byte messages: the latency is their time");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (i > 0 && !(p[i].bytes > p[i - 1].bytes)) {
            snprintf(err, errlen, "message sizes out of order at %.0f B", p[i].bytes);
            return -1;
        }
        if (!(p[i].time > 0) || !isfinite(p[i].time)) {
            snprintf(err, errlen, "the time of %.0f B is not a positive number", p[i].bytes);
            return -1;
        }
    }
    if (!(packet_header >= 0 && packet_header < packet_size)) {
        snprintf(err, errlen, "the packet header (%g B) must be smaller than the packet (%g B)",
                 packet_header, packet_size);
        return -1;
    }
    return 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

double pz_fit_median(double *v, int n)
{
    if (n < 1)
        return NAN;
    qsort(v, (size_t)n, sizeof(*v), by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double pz_fit_quantile(double *v, int n, double q)
{
    double at;
    int i;

    if (n < 1)
        return NAN;
    qsort(v, (size_t)n, sizeof(*v), by_value);
    at = q * (n - 1);
    i = (int)floor(at);
    return i + 1 < n ? v[i] + (at - i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* The median of three. */
static double median3(double a, double b, double c)
{
    return fmax(fmin(a, b), fmin(fmax(a, b), c));
}

/* Bandwidth: 1 / the slope of time over the sizes from a sixteenth of the largest up
 * (at least the two largest, at most 64), Theil and Sen's (pz_fit_robust_line: one
 * slow size does not tilt it).  If that slope is not positive (noise), the highest rate bytes /
 * time among them, as 002 takes it. */
static void fit_bandwidth(const struct pz_pingpong *p, int n, struct pz_fit *fit)
{
    double from = p[n - 1].bytes / 16, a, b = 0, best = 0;
    int first = n - 1;

    if (p[n - 2].bytes < from)
        from = p[n - 2].bytes;
    while (first > 0 && p[first - 1].bytes >= from && n - first < 64)
        first--;
    fit->bandwidth_from = p[first].bytes;
    fit->bandwidth_points = n - first;
    fit->bandwidth_max_rate = pz_fit_robust_line(p, n, p[first].bytes, INFINITY, &a, &b) < 2 ||
                              !(b > 0) || !isfinite(1 / b);
    if (!fit->bandwidth_max_rate) {
        fit->bandwidth = 1 / b;
        return;
    }
    for (int i = first; i < n; i++)
        if (p[i].bytes / p[i].time > best)
            best = p[i].bytes / p[i].time;
    fit->bandwidth = best;
}

/* The packet model: t_k such that its slope for large messages, t_k * V_max / (V_max -
 * V_c), is the measured one; then Theil and Sen's line a + b * bytes over the sizes of
 * one packet (0 .. V_max - V_c, where model B is t0 + V_c t_k + bytes (t1 + t_k)) gives
 * t0 = a - V_c t_k and t1 = b - t_k, neither below 0. */
static void fit_packet(const struct pz_pingpong *p, int n, struct pz_fit *fit)
{
    double payload = fit->packet_size - fit->packet_header, tk, a = fit->latency, b = 0;
    int points;

    fit->wire_bandwidth = fit->bandwidth * fit->packet_size / payload;
    tk = 1 / fit->wire_bandwidth;
    points = pz_fit_robust_line(p, n, 0, payload, &a, &b);
    fit->startup_points = points > 0 ? points : 0;
    if (points < 2) {
        a = fit->latency;
        b = tk;
    }
    fit->start0 = fmax(0, a - fit->packet_header * tk);
    fit->start1 = fmax(0, b - tk);
}

/* How far size i lies above Hockney's line, in time. */
static double above(const struct pz_fit *fit, const struct pz_pingpong *p, int i)
{
    return p[i].time - pz_fit_model_c(fit, p[i].bytes);
}

/* What a rendezvous costs beyond an eager message, across the step after size i: the
 * rise of the time above Hockney's line (which has the bandwidth's share of the size
 * difference) from the median of sizes i - 2 .. i to the median of the
 * PZ_FIT_STEP_SIZES sizes after i (one disturbed size on either side moves neither) is
 * the two extra latencies (request-to-send, clear-to-send) and the protocol's own
 * handling; the latter is the overhead (0 if the rise is smaller). */
static double rendezvous_overhead(const struct pz_fit *fit, const struct pz_pingpong *p, int i)
{
    double rise = median3(above(fit, p, i + 1), above(fit, p, i + 2), above(fit, p, i + 3)) -
                  median3(above(fit, p, i - 2), above(fit, p, i - 1), above(fit, p, i));

    return fmax(0, rise - 2 * fit->latency);
}

/* The eager threshold, at the step in the curve.  The residual of a size against
 * Hockney's line is e = ln(t / C(bytes)); the step after size i is the rise from the
 * higher of e[i] and the median of e[i-2..i] to the lowest of e[i+1..i+3]: a slow size
 * after i cannot make a step (the lowest of three ignores it), nor one before i hide it
 * (the median), while size i must itself be below the step.  The largest step whose
 * size i lies in [PZ_FIT_STEP_FROM, PZ_FIT_STEP_TO] (with two sizes before it and three
 * after) counts when it is at least PZ_FIT_STEP_MIN; the threshold is size i. */
static void fit_step(const struct pz_pingpong *p, int n, struct pz_fit *fit)
{
    fit->eager_threshold = 0;
    fit->step = 0;
    fit->step_to = 0;
    for (int i = 2; i + PZ_FIT_STEP_SIZES < n; i++) {
        double e[6], before, after, rise;

        if (p[i].bytes < PZ_FIT_STEP_FROM || p[i].bytes > PZ_FIT_STEP_TO)
            continue;
        for (int j = 0; j < 6; j++)
            e[j] = residual(fit, &p[i - 2 + j]);
        before = fmax(e[2], median3(e[0], e[1], e[2]));
        after = fmin(e[3], fmin(e[4], e[5]));
        rise = after - before;
        if (rise >= PZ_FIT_STEP_MIN && rise > fit->step) {
            fit->step = rise;
            fit->eager_threshold = p[i].bytes;
            fit->step_to = p[i + 1].bytes;
            fit->rendezvous_overhead = rendezvous_overhead(fit, p, i);
        }
    }
}

/* The latency: the median over the sizes up to PZ_FIT_LATENCY_TO of the time less the
 * bandwidth's share (t(0) itself when the sizes agree). */
static void fit_latency(const struct pz_pingpong *p, int n, struct pz_fit *fit)
{
    double v[64];
    int k = 0;

    for (int i = 0; i < n && k < 64 && p[i].bytes <= PZ_FIT_LATENCY_TO; i++)
        v[k++] = p[i].time - p[i].bytes / fit->bandwidth;
    fit->latency = fmax(pz_fit_median(v, k), 0);
}

int pz_fit_pingpong(const struct pz_pingpong *p, int n, double packet_size,
                    double packet_header, struct pz_fit *fit, char *err, size_t errlen)
{
    memset(fit, 0, sizeof(*fit));
    if (check_points(p, n, packet_size, packet_header, err, errlen) != 0)
        return -1;
    fit->packet_size = packet_size;
    fit->packet_header = packet_header;
    fit_bandwidth(p, n, fit);
    if (!(fit->bandwidth > 0)) {
        snprintf(err, errlen, "no bandwidth: the largest messages took no time");
        return -1;
    }
    fit_latency(p, n, fit);
    fit_packet(p, n, fit);
    fit_step(p, n, fit);
    return 0;
}

double pz_fit_model_a(const struct pz_fit *fit, double bytes)
{
    return fit->latency + (bytes + fit->packet_header) / fit->bandwidth;
}

/* The packet model's parameters in a machine, so that the time is cost.c's own. */
static void packet_machine(const struct pz_fit *fit, struct pz_machine *m)
{
    pz_machine_defaults(m);
    m->cost_model = PZ_COST_PACKET;
    m->latency = fit->start0;
    m->latency_per_byte = fit->start1;
    m->bandwidth = fit->wire_bandwidth;
    m->packet_size = fit->packet_size;
    m->packet_header = fit->packet_header;
}

double pz_fit_model_b(const struct pz_fit *fit, double bytes)
{
    struct pz_machine m;

    packet_machine(fit, &m);
    return pz_message_time(&m, bytes);
}

double pz_fit_model_c(const struct pz_fit *fit, double bytes)
{
    return fit->latency + bytes / fit->bandwidth;
}

double pz_fit_error(double measured, double model)
{
    return (measured - model) / measured * 100;
}

double pz_fit_median_error(const struct pz_fit *fit, const struct pz_pingpong *p, int n,
                           double (*model)(const struct pz_fit *, double))
{
    double *e = malloc((size_t)(n > 0 ? n : 1) * sizeof(*e)), m;

    if (!e)
        return NAN;
    for (int i = 0; i < n; i++)
        e[i] = fabs(pz_fit_error(p[i].time, model(fit, p[i].bytes)));
    m = pz_fit_median(e, n);
    free(e);
    return m;
}

void pz_fit_to_machine(const struct pz_fit *fit, const struct pz_pingpong *p, int n,
                       int same_node, struct pz_machine *m)
{
    double hockney = pz_fit_median_error(fit, p, n, pz_fit_model_c);
    double packet = pz_fit_median_error(fit, p, n, pz_fit_model_b);

    if (packet < hockney) {
        struct pz_machine pm;

        packet_machine(fit, &pm);
        m->cost_model = PZ_COST_PACKET;
        m->latency = pm.latency;
        m->latency_per_byte = pm.latency_per_byte;
        m->bandwidth = pm.bandwidth;
    } else {
        m->cost_model = PZ_COST_HOCKNEY;
        m->latency = fit->latency;
        m->latency_per_byte = 0;
        m->bandwidth = fit->bandwidth;
    }
    m->packet_size = fit->packet_size;
    m->packet_header = fit->packet_header;
    if (fit->eager_threshold > 0) {
        m->eager_threshold = fit->eager_threshold;
        m->rendezvous_overhead = fit->rendezvous_overhead;
    }
    m->rendezvous_first_fragment = fit->first_fragment;
    if (same_node) {
        m->shm_latency = fit->latency;
        m->shm_bandwidth = fit->bandwidth;
    }
}
