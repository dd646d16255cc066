/* The duplex overhead's fit (calibrate_duplex.h): the model's exchanges back to back. */
#include <math.h>

#include "calibrate_duplex.h"
#include "comsys.h"

/* Process p's next exchange of pz_back_to_back_time: posted at start (not yet, posted
 * 0), its receive and send. */
struct exchanger {
    double start;
    int posted, done, req[2];
};

/* Whether p's posted exchange completed: then p takes its send and its receive, and its
 * next exchange starts when it is done with them. */
static void take_if_complete(struct pz_comsys *cs, struct exchanger *p)
{
    if (!p->posted || pz_comsys_done(cs, p->req[0]) < 0 || pz_comsys_done(cs, p->req[1]) < 0)
        return;
    p->start = fmax(pz_comsys_deliver(cs, p->req[1], p->start),
                    pz_comsys_deliver(cs, p->req[0], p->start));
    pz_comsys_release(cs, p->req[0]);
    pz_comsys_release(cs, p->req[1]);
    p->posted = 0;
    p->done++;
}

/* The process whose exchange is due next (not posted, the earliest start, at most
 * count done); -1 if none. */
static int due(const struct exchanger *x, int count)
{
    int p = -1;

    for (int i = 0; i < 2; i++)
        if (!x[i].posted && x[i].done < count && (p < 0 || x[i].start < x[p].start))
            p = i;
    return p;
}

double pz_back_to_back_time(const struct pz_machine *m, double bytes, int count)
{
    struct pz_machine two = *m;
    struct exchanger x[2] = { { 0, 0, 0, { -1, -1 } }, { 0, 0, 0, { -1, -1 } } };
    struct pz_comsys *cs;
    double first = NAN, period = NAN;

    two.procs_per_node = 1;
    if (count < 2 || !(cs = pz_comsys_new(&two, 2)))
        return NAN;
    while (x[0].done < count || x[1].done < count) {
        int p = due(x, count);

        if (p >= 0 && x[p].start <= pz_comsys_next(cs)) {
            x[p].req[0] = pz_comsys_recv(cs, p, 1 - p, 0, 0, x[p].start);
            x[p].req[1] = pz_comsys_send(cs, p, 1 - p, 0, 0, bytes, PZ_SEND_STANDARD,
                                         x[p].start);
            x[p].posted = 1;
            if (x[p].req[0] < 0 || x[p].req[1] < 0)
                break;
        } else if (pz_comsys_next(cs) == INFINITY) {
            break;
        } else {
            pz_comsys_step(cs);
        }
        for (int i = 0; i < 2; i++)
            take_if_complete(cs, &x[i]);
        if (x[0].done == 1 && isnan(first))
            first = x[0].start;
    }
    if (x[0].done == count && x[1].done == count && !pz_comsys_failed(cs))
        period = (x[0].start - first) / (count - 1);
    pz_comsys_free(cs);
    return period;
}

/* m with the fitted overheads and segments between nodes (the exchanges run between
 * two nodes) and the duplex overhead dx. */
static struct pz_machine fitted(const struct pz_machine *m,
                                const struct pz_duplex_overhead_fit *out, double dx)
{
    struct pz_machine d = *m;

    d.overhead = out->overhead;
    d.send_tail = 0;   /* this check's overheads fit within t(0) whole, without a tail */
    d.send_tail_per_byte = 0;
    if (out->segments.segments.n > 0)
        d.segments = out->segments.segments;
    d.duplex_overhead = dx;
    return d;
}

static double back_to_back(const struct pz_machine *m, const struct pz_duplex_overhead_fit *out,
                           double dx)
{
    struct pz_machine d = fitted(m, out, dx);

    return pz_back_to_back_time(&d, out->bytes, PZ_BACK_TO_BACK_COUNT);
}

/* The duplex overhead whose exchange back to back takes out->measured. */
static double bisect(const struct pz_machine *m, struct pz_duplex_overhead_fit *out)
{
    double lo = 0, hi = 2 * out->measured;

    if (!(back_to_back(m, out, lo) < out->measured))
        return lo;
    if (back_to_back(m, out, hi) < out->measured) {
        out->beyond = 1;
        return hi;
    }
    for (int i = 0; i < 40; i++) {
        double mid = (lo + hi) / 2;

        if (back_to_back(m, out, mid) < out->measured)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

void pz_fit_duplex_overhead(const struct pz_machine *m, double latency, double bandwidth,
                            const struct pz_line_fit *send, const struct pz_line_fit *recv,
                            const struct pz_pingpong *p, int n, double bytes,
                            double measured, double skew, struct pz_duplex_overhead_fit *out)
{
    struct pz_overhead *o = &out->overhead;
    struct pz_segment_base base = { .eager_threshold = m->eager_threshold,
                                    .rendezvous_overhead = m->rendezvous_overhead,
                                    .first_fragment = m->rendezvous_first_fragment };
    struct pz_machine with;
    double per_byte;

    *out = (struct pz_duplex_overhead_fit){ .bytes = bytes, .measured = measured };
    o->send = fmin(send->a, latency);
    o->recv = fmin(recv->a, latency - o->send);
    per_byte = pz_overhead_per_byte_limit(bandwidth, p, n, o->send + o->recv);
    o->send_per_byte = fmin(send->b, per_byte);
    o->recv_per_byte = fmin(recv->b, per_byte - o->send_per_byte);
    base.overhead = *o;
    pz_fit_segments(p, n, &base, &out->segments);
    out->duplex_overhead = bisect(m, out);
    out->model = back_to_back(m, out, out->duplex_overhead);
    with = fitted(m, out, out->duplex_overhead);
    out->exchange = pz_skewed_exchange_time(&with, bytes, skew);
    out->as_written = pz_back_to_back_time(m, bytes, PZ_BACK_TO_BACK_COUNT);
}

void pz_fit_calibrated_duplex_overhead(const struct pz_machine *m, double bytes,
                                       double measured, double skew,
                                       struct pz_duplex_overhead_fit *out)
{
    struct pz_machine with;

    *out = (struct pz_duplex_overhead_fit){ .bytes = bytes, .measured = measured,
                                            .overhead = m->overhead };
    out->duplex_overhead = bisect(m, out);
    out->model = back_to_back(m, out, out->duplex_overhead);
    with = fitted(m, out, out->duplex_overhead);
    out->exchange = pz_skewed_exchange_time(&with, bytes, skew);
    out->as_written = pz_back_to_back_time(m, bytes, PZ_BACK_TO_BACK_COUNT);
}

double pz_duplex_overhead_of_sends(double isend_0, double isend_1, double lone)
{
    double excess = isend_0 + isend_1 - 2 * lone;

    return isnan(excess) ? NAN : fmax(0, excess);
}
