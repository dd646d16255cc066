/* The overheads and segments of a calibration together, and their keys (docs/calibrate.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate_segments.h"
#include "comsys.h"

/* The one-way time today's keys predict for a ping-pong of `bytes`: the chosen cost
 * model (B or C, as pz_fit_to_machine chooses), plus above the eager threshold the
 * rendezvous's two control messages (the model's 0-byte time) and its overhead; with a
 * first fragment, the fragment's and the rest's transfers and one control message, or
 * the one transfer of a message the fragment holds whole (pz_segment_base_time). */
static double previous_time(const struct pz_fit *fit, int packet, double bytes)
{
    double (*model)(const struct pz_fit *, double) = packet ? pz_fit_model_b : pz_fit_model_c;
    struct pz_segment_base handshake = { .eager_threshold = fit->eager_threshold,
                                         .rendezvous_overhead = fit->rendezvous_overhead,
                                         .first_fragment = fit->first_fragment };
    double t = model(fit, pz_segment_rest(&handshake, bytes)) +
               pz_segment_base_time(&handshake, bytes, model(fit, 0));

    return pz_segment_split(&handshake, bytes) ? t + model(fit, fit->first_fragment) : t;
}

/* The median |error| over p of the machine written without segments: its cost model
 * and, on each message's way, base's overheads, which the model adds to the transfer
 * (the segments are fitted under them; the cost model alone would leave them out of the
 * comparison and the overheads counted twice in what is written). */
static double previous_error(const struct pz_fit *fit, const struct pz_segment_base *base,
                             const struct pz_pingpong *p, int n)
{
    int packet = pz_fit_median_error(fit, p, n, pz_fit_model_b) <
                 pz_fit_median_error(fit, p, n, pz_fit_model_c);
    double *e = malloc((size_t)(n > 0 ? n : 1) * sizeof(*e)), median;

    if (!e)
        return NAN;
    for (int i = 0; i < n; i++)
        e[i] = fabs(pz_fit_error(p[i].time, previous_time(fit, packet, p[i].bytes) +
                                                pz_segment_overheads(base, p[i].bytes)));
    median = pz_fit_median(e, n);
    free(e);
    return median;
}

/* The factor that brings sum down to at most limit (1 if it is within). */
static double scale_within(double sum, double limit)
{
    return sum > limit && sum > 0 ? fmax(0, limit) / sum : 1;
}

double pz_overhead_per_byte_limit(double bandwidth, const struct pz_pingpong *p, int n,
                                  double per_message)
{
    double limit = 1 / bandwidth;

    for (int i = 0; i < n; i++)
        if (p[i].bytes >= PZ_OVERHEAD_LIMIT_FROM)
            limit = fmin(limit, (p[i].time - per_message) / p[i].bytes);
    return fmax(0, limit);
}

/* The room an exchange of x->bytes leaves the overheads: an exchange both ways takes
 * the overheads plus the transfer stretched by duplex_factor, at most 2, where one way
 * takes them plus the transfer once; so the overheads can be at most 2 t - exchange.
 * INFINITY when the size has no ping-pong time or the exchange stalled. */
static double exchange_room(const struct pz_pingpong *p, int n, const struct pz_pingpong *x)
{
    for (int i = 0; i < n; i++)
        if (p[i].bytes == x->bytes)
            return x->time > PZ_DUPLEX_MAX_RATIO * p[i].time
                       ? INFINITY : fmax(0, 2 * p[i].time - x->time);
    return INFINITY;
}

/* The most per byte the overheads may take together and leave room for the nx
 * exchanges x: the least (room - per_message) / bytes over the sizes from
 * PZ_OVERHEAD_LIMIT_FROM up, as pz_overhead_per_byte_limit takes the least of the
 * ping-pong (the largest sizes, whose time is mostly per byte, bound it); INFINITY
 * without such sizes. */
static double exchange_limit(const struct pz_pingpong *p, int n, const struct pz_pingpong *x,
                             int nx, double per_message)
{
    double v[PZ_DUPLEX_MAX_SIZES];
    int k = 0;

    for (int i = 0; i < nx && k < PZ_DUPLEX_MAX_SIZES; i++) {
        double room = exchange_room(p, n, &x[i]);

        if (isfinite(room) && x[i].bytes >= PZ_OVERHEAD_LIMIT_FROM)
            v[k++] = fmax(0, room - per_message) / x[i].bytes;
    }
    return k == 0 ? INFINITY : pz_fit_quantile(v, k, 0);
}

double pz_send_tail(double send, double recv, double one_way)
{
    return fmin(fmax(0, send + recv - one_way), fmax(0, send));
}

/* The eager threshold of a machine that does not give one (machine.h's default). */
static double default_eager_threshold(void)
{
    struct pz_machine m;

    pz_machine_defaults(&m);
    return m.eager_threshold;
}

/* The slope of the ping-pong over the eager sizes from PZ_OVERHEAD_LIMIT_FROM to fit's
 * eager threshold (Theil and Sen's: one disturbed size does not tilt it), at least 0;
 * -1 without a threshold or with fewer than two such sizes. */
static double eager_slope(const struct pz_fit *fit, const struct pz_pingpong *p, int n)
{
    double a, b;

    if (!(fit->eager_threshold > 0) ||
        pz_fit_robust_line(p, n, PZ_OVERHEAD_LIMIT_FROM, fit->eager_threshold, &a, &b) < 2)
        return -1;
    return fmax(0, b);
}

/* The factor that brings the overheads of back->bytes within the exchange back to back
 * back (1 if they are, or without it): each process spends its send's and its receive's
 * there, one after the other. */
static double within_back_to_back(const struct pz_transfer_fit *out,
                                  const struct pz_pingpong *back)
{
    if (!back || !(back->time > 0))
        return 1;
    return scale_within(out->send.a + out->recv.a + back->bytes * (out->send.b + out->recv.b),
                        back->time);
}

/* f with its per-message and per-byte parts times scale. */
static struct pz_line_fit scaled(const struct pz_line_fit *f, double scale)
{
    struct pz_line_fit g = *f;

    g.a *= scale;
    g.b *= scale;
    return g;
}

void pz_fit_transfer(const struct pz_fit *fit, const struct pz_pingpong *p, int n,
                     const struct pz_pingpong *x, int nx, const struct pz_pingpong *back,
                     const struct pz_pingpong *send, int ns, const struct pz_pingpong *recv,
                     int nr, const struct pz_pingpong *loop, int nl,
                     struct pz_transfer_fit *out)
{
    struct pz_overhead *o = &out->base.overhead;
    double per_message, per_byte, room;

    struct pz_line_fit s, r;   /* send and recv scaled within the exchange back to back */

    pz_fit_overhead(send, ns, &out->send);
    pz_fit_overhead(recv, nr, &out->recv);
    pz_fit_overhead(loop, nl, &out->loop);
    out->scale = within_back_to_back(out, back);
    s = scaled(&out->send, out->scale);
    r = scaled(&out->recv, out->scale);
    out->tail = pz_send_tail(s.a, r.a, fit->latency);
    /* on the message's way: the send's overhead less its tail, and the receive's, which
     * cannot exceed the one way it is part of */
    r.a = fmin(r.a, fmax(0, fit->latency));
    per_message = s.a - out->tail + r.a;
    out->eager_slope = eager_slope(fit, p, n);
    if (out->eager_slope >= 0) {
        /* the copies of eager messages, which alone pay the per-byte overheads, kept
           whole; what they exceed the eager sizes' slope by is spent after the message
           left, as the per-message tail is; the receive's copy, all of it on the
           message's way, no more than the slope */
        r.b = fmin(r.b, out->eager_slope);
        out->per_byte_scale = 1;
        out->exchange_room = 0;
        out->tail_per_byte = fmin(fmax(0, s.b + r.b - out->eager_slope), s.b);
    } else {
        per_byte = pz_overhead_per_byte_limit(fit->bandwidth, p, n, per_message);
        room = exchange_limit(p, n, x, nx, per_message);
        out->exchange_room = room < per_byte && s.b + r.b > room;
        out->per_byte_scale = scale_within(s.b + r.b, fmin(per_byte, room));
        out->tail_per_byte = 0;
    }
    *o = (struct pz_overhead){ .send = s.a - out->tail,
                               .send_per_byte = s.b * out->per_byte_scale - out->tail_per_byte,
                               .recv = r.a,
                               .recv_per_byte = r.b * out->per_byte_scale };
    out->base.eager_threshold = fit->eager_threshold;
    out->base.rendezvous_overhead = fit->eager_threshold > 0 ? fit->rendezvous_overhead : 0;
    out->base.first_fragment = fit->first_fragment;
    /* without a threshold found the machine keeps the default one, up to which the model
       charges the per-byte overheads */
    out->base.copies_upto = fit->eager_threshold > 0 ? fit->eager_threshold
                                                     : default_eager_threshold();
    pz_fit_segments(p, n, &out->base, &out->segments);
    out->previous_error = previous_error(fit, &out->base, p, n);
    out->segments_kept = out->segments.segments.n > 0 &&
                         !(out->segments.median_error > out->previous_error);
}

void pz_transfer_to_machine(const struct pz_transfer_fit *out, int same_node,
                            struct pz_machine *m)
{
    m->overhead = out->base.overhead;
    m->overhead.send += out->tail;
    m->overhead.send_per_byte += out->tail_per_byte;
    m->send_tail = out->tail;
    m->send_tail_per_byte = out->tail_per_byte;
    if (same_node)
        m->shm_overhead = m->overhead;
    if (!out->segments_kept)
        return;
    m->segments = out->segments.segments;
    if (same_node)
        m->shm_segments = out->segments.segments;
}

/* Each process of two on nodes of their own of m posts MPI_Irecv then MPI_Isend of
 * bytes to the other at its start and waits for both: when each is done (NAN if memory
 * ran out). */
static void exchange(const struct pz_machine *m, double bytes, const double start[2],
                     double end[2])
{
    struct pz_machine two = *m;
    struct pz_comsys *cs;
    int req[4];

    end[0] = end[1] = NAN;
    two.procs_per_node = 1;
    if (!(cs = pz_comsys_new(&two, 2)))
        return;
    for (int k = 0; k < 2; k++) {   /* the earlier first: time only moves forward */
        int me = start[1] < start[0] ? 1 - k : k;

        req[2 * me] = pz_comsys_recv(cs, me, 1 - me, 0, 0, start[me]);
        req[2 * me + 1] = pz_comsys_send(cs, me, 1 - me, 0, 0, bytes, PZ_SEND_STANDARD,
                                         start[me]);
    }
    if (pz_comsys_wait(cs, 4, req, 0) >= 0 && !pz_comsys_failed(cs))
        for (int me = 0; me < 2; me++) {   /* each process takes its send, then its receive */
            double sent = pz_comsys_deliver(cs, req[2 * me + 1], start[me]);

            end[me] = fmax(sent, pz_comsys_deliver(cs, req[2 * me], start[me]));
        }
    pz_comsys_free(cs);
}

double pz_exchange_time(const struct pz_machine *m, double bytes)
{
    const double start[2] = { 0, 0 };
    double end[2];

    exchange(m, bytes, start, end);
    return fmax(end[0], end[1]);
}

double pz_allreduce_time(const struct pz_machine *m, double bytes)
{
    struct pz_machine two = *m;
    struct pz_comsys *cs;
    int procs[2] = { 0, 1 }, req[2], comm;
    double end = NAN, last;

    two.procs_per_node = 1;
    if (!(cs = pz_comsys_new(&two, 2)))
        return NAN;
    if ((comm = pz_comsys_comm(cs, 2, procs)) >= 0) {
        for (int me = 0; me < 2; me++) {
            struct pz_coll c = { .op = PZ_COLL_ALLREDUCE, .size = 2, .me = me, .bytes = bytes };

            req[me] = pz_comsys_collective(cs, comm, &c, 0);
        }
        if (req[0] >= 0 && req[1] >= 0 && (last = pz_comsys_wait(cs, 2, req, 0)) >= 0 &&
            !pz_comsys_failed(cs))
            end = last;
    }
    pz_comsys_free(cs);
    return end;
}

double pz_skewed_exchange_time(const struct pz_machine *m, double bytes, double skew)
{
    const double start[2] = { fmax(0, -skew), fmax(0, skew) };
    double end[2];

    exchange(m, bytes, start, end);
    return end[0] - start[0];
}

/* m with one duplex factor for every size. */
static struct pz_machine with_factor(const struct pz_machine *m, double factor)
{
    struct pz_machine d = *m;

    d.duplex_factor = 1;
    d.duplex_factors = (struct pz_size_factors){
        1, { { PZ_DUPLEX_ANY_SIZE, factor } } };
    return d;
}

/* The duplex factor from 1 to PZ_DUPLEX_FACTORS_MAX whose exchange of bytes on m takes
 * `measured` (the exchange grows with it); a bound when none does, *beyond then set. */
static double factor_of(const struct pz_machine *m, double bytes, double skew, double measured,
                        int *beyond)
{
    double lo = 1, hi = PZ_DUPLEX_FACTORS_MAX, mid;
    struct pz_machine d = with_factor(m, lo);
    double t = pz_skewed_exchange_time(&d, bytes, skew);

    *beyond = t > measured * (1 + 1e-9);
    if (t >= measured)
        return lo;
    d = with_factor(m, hi);
    t = pz_skewed_exchange_time(&d, bytes, skew);
    *beyond = t < measured * (1 - 1e-9);
    if (t <= measured)
        return hi;
    for (int i = 0; i < 40; i++) {
        mid = (lo + hi) / 2;
        d = with_factor(m, mid);
        if (pz_skewed_exchange_time(&d, bytes, skew) < measured)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* The steps of the sizes' factors f (NAN: left out) over sizes x: each size's factor
 * up to its size, the largest eager size's up to the eager threshold (a larger message
 * goes by rendezvous, as the next size measured; the largest kept when it stalled), the
 * last for any larger size; at most PZ_MAX_SEGMENTS, the largest sizes' kept (a small
 * message's transfer, which the factor stretches, is short). */
static void steps_of(const struct pz_pingpong *x, const double *f, int nx, double eager,
                     struct pz_size_factors *out)
{
    int first = 0, kept = 0;

    for (int i = 0; i < nx; i++)
        kept += !isnan(f[i]);
    *out = (struct pz_size_factors){ 0 };
    for (int i = 0; i < nx; i++)
        if (!isnan(f[i]) && first++ >= kept - PZ_MAX_SEGMENTS)
            out->step[out->n++] = (struct pz_size_factor){ x[i].bytes, f[i] };
    for (int k = 0; k < out->n; k++)   /* the largest eager size kept: a stalled one has none */
        if (out->step[k].upto <= eager && (k + 1 == out->n || out->step[k + 1].upto > eager))
            out->step[k].upto = eager;
    if (out->n > 0)
        out->step[out->n - 1].upto = PZ_DUPLEX_ANY_SIZE;
}

void pz_fit_duplex(const struct pz_machine *m, const struct pz_pingpong *x,
                   const double *skew, int nx, struct pz_duplex_fit *out)
{
    double f[PZ_DUPLEX_MAX_SIZES], e[PZ_DUPLEX_MAX_SIZES], kept[PZ_DUPLEX_MAX_SIZES];
    struct pz_machine d = with_factor(m, 1);
    int beyond;

    *out = (struct pz_duplex_fit){ .factor = 1, .median_error = NAN, .max_error = NAN };
    nx = nx < PZ_DUPLEX_MAX_SIZES ? nx : PZ_DUPLEX_MAX_SIZES;
    for (int i = 0; i < nx; i++) {
        f[i] = NAN;
        /* a time that is no number (or a model out of memory) is left out as a stall */
        if (!(x[i].time <= PZ_DUPLEX_MAX_RATIO * pz_exchange_time(&d, x[i].bytes) +
                               fmax(0, skew ? skew[i] : 0))) {
            out->stalled++;
            continue;
        }
        f[i] = kept[out->points++] = factor_of(m, x[i].bytes, skew ? skew[i] : 0, x[i].time,
                                               &beyond);
        out->beyond += beyond;
    }
    if (nx == 0)
        return;
    out->sizes = nx;
    memcpy(out->size_factor, f, (size_t)nx * sizeof(*f));
    out->factor = out->points > 0 ? pz_fit_median(kept, out->points) : 1;
    steps_of(x, f, nx, m->eager_threshold, &out->steps);
    d = *m;
    d.duplex_factor = 1;
    d.duplex_factors = out->steps;
    out->max_error = 0;
    for (int i = 0; i < nx; i++) {
        out->model[i] = pz_skewed_exchange_time(&d, x[i].bytes, skew ? skew[i] : 0);
        e[i] = fabs(pz_fit_error(x[i].time, out->model[i]));
        out->max_error = fmax(out->max_error, e[i]);
    }
    out->median_error = pz_fit_median(e, nx);
}
