/* The overheads and segments of a calibration together, and their keys (docs/calibrate.md). */
#include <math.h>
#include <stdlib.h>

#include "calibrate_segments.h"

/* The one-way time today's keys predict for a ping-pong of `bytes`: the chosen cost
 * model (B or C, as pz_fit_to_machine chooses), plus above the eager threshold the
 * rendezvous's two control messages (the model's 0-byte time) and its overhead. */
static double previous_time(const struct pz_fit *fit, int packet, double bytes)
{
    double (*model)(const struct pz_fit *, double) = packet ? pz_fit_model_b : pz_fit_model_c;
    double t = model(fit, bytes);

    if (fit->eager_threshold > 0 && bytes > fit->eager_threshold)
        t += 2 * model(fit, 0) + fit->rendezvous_overhead;
    return t;
}

static double previous_error(const struct pz_fit *fit, const struct pz_pingpong *p, int n)
{
    int packet = pz_fit_median_error(fit, p, n, pz_fit_model_b) <
                 pz_fit_median_error(fit, p, n, pz_fit_model_c);
    double *e = malloc((size_t)(n > 0 ? n : 1) * sizeof(*e)), median;

    if (!e)
        return NAN;
    for (int i = 0; i < n; i++)
        e[i] = fabs(pz_fit_error(p[i].time, previous_time(fit, packet, p[i].bytes)));
    median = pz_fit_median(e, n);
    free(e);
    return median;
}

/* The factor that brings sum down to at most limit (1 if it is within). */
static double scale_within(double sum, double limit)
{
    return sum > limit && sum > 0 ? fmax(0, limit) / sum : 1;
}

/* The most per byte the two overheads may take together: at no measured size from
 * PZ_OVERHEAD_LIMIT_FROM up may the overheads (per_message of them per message) exceed
 * the time, nor beyond the slope over the largest sizes. */
static double per_byte_limit(const struct pz_fit *fit, const struct pz_pingpong *p, int n,
                             double per_message)
{
    double limit = 1 / fit->bandwidth;

    for (int i = 0; i < n; i++)
        if (p[i].bytes >= PZ_OVERHEAD_LIMIT_FROM)
            limit = fmin(limit, (p[i].time - per_message) / p[i].bytes);
    return fmax(0, limit);
}

void pz_fit_transfer(const struct pz_fit *fit, const struct pz_pingpong *p, int n,
                     const struct pz_pingpong *send, int ns, const struct pz_pingpong *recv,
                     int nr, const struct pz_pingpong *loop, int nl,
                     struct pz_transfer_fit *out)
{
    struct pz_overhead *o = &out->base.overhead;

    pz_fit_overhead(send, ns, &out->send);
    pz_fit_overhead(recv, nr, &out->recv);
    pz_fit_overhead(loop, nl, &out->loop);
    out->scale = scale_within(out->send.a + out->recv.a, fit->latency);
    out->per_byte_scale = scale_within(out->send.b + out->recv.b,
                                       per_byte_limit(fit, p, n, out->scale *
                                                      (out->send.a + out->recv.a)));
    *o = (struct pz_overhead){ .send = out->send.a * out->scale,
                               .send_per_byte = out->send.b * out->per_byte_scale,
                               .recv = out->recv.a * out->scale,
                               .recv_per_byte = out->recv.b * out->per_byte_scale };
    out->base.eager_threshold = fit->eager_threshold;
    out->base.rendezvous_overhead = fit->eager_threshold > 0 ? fit->rendezvous_overhead : 0;
    pz_fit_segments(p, n, &out->base, &out->segments);
    out->previous_error = previous_error(fit, p, n);
    out->segments_kept = out->segments.segments.n > 0 &&
                         !(out->segments.median_error > out->previous_error);
}

void pz_transfer_to_machine(const struct pz_transfer_fit *out, int same_node,
                            struct pz_machine *m)
{
    m->overhead = out->base.overhead;
    if (same_node)
        m->shm_overhead = out->base.overhead;
    if (!out->segments_kept)
        return;
    m->segments = out->segments.segments;
    if (same_node)
        m->shm_segments = out->segments.segments;
}
