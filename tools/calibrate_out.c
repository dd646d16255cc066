/* prognoz-calibrate's table and machine file (docs/calibrate.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calibrate_out.h"
#include "calibrate_coll_note.h"
#include "calibrate_duplex_note.h"
#include "calibrate_reduce.h"

const char *pz_cal_size(char *buf, size_t len, double bytes)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB" };
    double v = bytes;
    int u = 0;

    while (u < 3 && v >= 1024 && fmod(v, 1024) == 0) {
        v /= 1024;
        u++;
    }
    snprintf(buf, len, "%.0f %s", v, units[u]);
    return buf;
}

/* The most passes pz_cal_print_resume shows. */
#define MAX_RESUME_PASSES 16

/* A time for people: "12.3 us". */
static const char *human_time(char *buf, size_t len, double s)
{
    if (s < 1e-6)
        snprintf(buf, len, "%.1f ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(buf, len, "%.3g us", s * 1e6);
    else
        snprintf(buf, len, "%.3g ms", s * 1e3);
    return buf;
}

/* A bandwidth for people: "117 MB/s", "9.87 GB/s". */
static const char *human_rate(char *buf, size_t len, double bps)
{
    if (bps >= 1e9)
        snprintf(buf, len, "%.3g GB/s", bps / 1e9);
    else
        snprintf(buf, len, "%.3g MB/s", bps / 1e6);
    return buf;
}

static long total_roundtrips(const struct pz_calibration_run *run, int i)
{
    return run->roundtrips ? run->roundtrips[i] : 0;
}

void pz_cal_print_table(FILE *out, const struct pz_calibration_run *run,
                        const struct pz_fit *fit)
{
    fprintf(out, "%12s %12s %11s   %s\n", "size (B)", "time (us)", "round trips",
            "error of the model (%)");
    fprintf(out, "%12s %12s %11s   %10s %10s %10s\n", "", "", "", "A: lat+bw", "B: packet",
            "C: Hockney");
    for (int i = 0; i < run->npoints; i++) {
        const struct pz_pingpong *p = &run->points[i];

        fprintf(out, "%12.0f %12.3f %11ld   %10.2f %10.2f %10.2f\n", p->bytes, p->time * 1e6,
                total_roundtrips(run, i),
                pz_fit_error(p->time, pz_fit_model_a(fit, p->bytes)),
                pz_fit_error(p->time, pz_fit_model_b(fit, p->bytes)),
                pz_fit_error(p->time, pz_fit_model_c(fit, p->bytes)));
    }
    fprintf(out, "%12s %12s %11s   %10.2f %10.2f %10.2f\n", "median |error|", "", "",
            pz_fit_median_error(fit, run->points, run->npoints, pz_fit_model_a),
            pz_fit_median_error(fit, run->points, run->npoints, pz_fit_model_b),
            pz_fit_median_error(fit, run->points, run->npoints, pz_fit_model_c));
    fprintf(out, "(each time: the median of the size's rounds of %d in the calibration's "
                 "state (\"State\", below) and those added,\n each the trimmed mean of its "
                 "batches (stalls left out: over %.0f times the median or\n"
                 " %.0f ms beyond the lower quartile); %d rounds added to sizes whose rounds "
                 "disagreed (spread beyond %.1f%%); %d size(s) still disagree)\n",
            PZ_CAL_ROUNDS, PZ_CAL_STALL_TIMES, PZ_CAL_STALL_SECONDS * 1e3, run->remeasured,
            run->spread_limit * 100, run->disagreeing);
}

/* One key's value per round, in a unit, and how far they disagree. */
static void print_round_key(FILE *out, const char *what, const double *v, int n, double unit,
                            const char *unit_name)
{
    fprintf(out, "%-18s", what);
    for (int r = 0; r < n; r++)
        fprintf(out, " %9.3f", v[r] * unit);
    fprintf(out, "  %s, spread %.1f%%\n", unit_name, 100 * pz_cal_key_spread(v, n));
}

void pz_cal_print_state(FILE *out, const char *prefix, const struct pz_calibration_run *run)
{
    char size[32];

    if (run->nrounds == 0)
        return;
    if (!(run->state_size > 0)) {
        fprintf(out, "%sState: not told apart (no size from 64 KiB to 1 MiB in the ping-pong): "
                     "every round kept.\n",
                prefix);
        return;
    }
    pz_cal_size(size, sizeof(size), run->state_size);
    fprintf(out, "%sState: %d of %d rounds within %.1f times the median of the ping-pong's %s "
                 "one way,\n%s%.3f us (rounds",
            prefix, run->state_kept, run->nrounds, PZ_CAL_STATE_FACTOR, size, prefix,
            run->state_time * 1e6);
    for (int r = 0; r < run->nrounds; r++)
        if (run->state_keep[r])
            fprintf(out, " %d", r + 1);
    fprintf(out, "); every key measured in rounds takes the median of those%s.\n",
            run->state_kept < run->nrounds ? ", the others were in another state" : "");
}

void pz_cal_print_rounds(FILE *out, const struct pz_calibration_run *run)
{
    if (run->nrounds == 0)
        return;
    fprintf(out, "Rounds: every size measured in %d rounds, begun at", run->nrounds);
    for (int r = 0; r < run->nrounds; r++)
        fprintf(out, "%s %.1f", r ? "," : "", run->round_began[r]);
    fprintf(out, " s; the keys of each round alone\n");
    print_round_key(out, "latency", run->round_latency, run->nrounds, 1e6, "us");
    print_round_key(out, "bandwidth", run->round_bandwidth, run->nrounds, 1e-9, "GB/s");
    for (int k = 0; k < PZ_CAL_ROUND_SIZES; k++) {
        char size[32], what[64];

        if (isnan(run->round_pingpong[k][0]))
            continue;
        pz_cal_size(size, sizeof(size), pz_cal_round_sizes[k]);
        snprintf(what, sizeof(what), "%s one way", size);
        print_round_key(out, what, run->round_pingpong[k], run->nrounds, 1e6, "us");
        snprintf(what, sizeof(what), "%s to oneself", size);
        print_round_key(out, what, run->round_self[k], run->nrounds, 1e6, "us");
    }
    fprintf(out, "(spread: (largest - smallest) / median.)  The rounds took %.1f s; %d rounds "
                 "added to sizes whose rounds disagreed\n(spread, (upper - lower quartile) / "
                 "median, beyond %.1f%%: %.0f times the sizes' median, at least %.0f%%) took "
                 "%.1f s,\nat most %.0f%% of the rounds' time by design; %d size(s) still "
                 "disagree.\n",
            run->rounds_seconds, run->remeasured, run->spread_limit * 100, PZ_CAL_SPREAD_TIMES,
            PZ_CAL_SPREAD_FLOOR * 100, run->extra_seconds, PZ_CAL_EXTRA_SHARE * 100,
            run->disagreeing);
    pz_cal_print_state(out, "", run);
    fprintf(out, "Messages to oneself: each size the median of its %d rounds; their spread "
                 "median %.1f%%, largest %.1f%%.\n",
            run->nrounds, run->self_spread_median * 100, run->self_spread_max * 100);
}

/* The one-way time of size bytes, the ping-pong's half round trip; 0 if not measured. */
static double one_way(const struct pz_calibration_run *run, double bytes)
{
    for (int i = 0; i < run->npoints; i++)
        if (run->points[i].bytes == bytes)
            return run->points[i].time;
    return 0;
}

int pz_cal_disturbed(const struct pz_calibration_run *run, char *why, size_t len)
{
    const struct pz_pingpong *p = run->points;
    int n = run->npoints, k = n - 1;

    while (k > 0 && p[k].bytes > p[n - 1].bytes / 16)
        k--;
    if (p[0].time >= 1e-3)
        snprintf(why, len, "0-byte messages took a millisecond or more");
    else if (k > 0 && p[n - 1].time < 2 * p[k].time)
        snprintf(why, len, "the largest messages took hardly longer than smaller ones");
    else if (run->nrounds > 0 &&
             !(pz_cal_key_spread(run->round_latency, run->nrounds) <= PZ_CAL_KEY_SPREAD_WARN &&
               pz_cal_key_spread(run->round_bandwidth, run->nrounds) <= PZ_CAL_KEY_SPREAD_WARN))
        snprintf(why, len, "the latency or bandwidth fitted to each round alone spread more "
                           "than %.0f%% (the load changed during the calibration)",
                 PZ_CAL_KEY_SPREAD_WARN * 100);
    else if (run->disagreeing * 10 > n)
        snprintf(why, len, "%d of %d sizes' rounds still disagreed (spread beyond %.1f%%) "
                           "after %d rounds added", run->disagreeing, n,
                 run->spread_limit * 100, run->remeasured);
    else
        return 0;
    return 1;
}

void pz_cal_print_exchanges(FILE *out, const struct pz_calibration_run *run)
{
    const struct pz_duplex_fit *d = run->duplex;
    const struct pz_duplex_fit *k = run->skew_check ? &run->skew_check->duplex : NULL;

    double low = INFINITY, high = -INFINITY;

    fprintf(out, "%10s %10s %10s %10s %9s %10s %6s %6s %10s %8s %10s %8s\n", "size (B)",
            "one way", "rank 0", "rank 1", "skew", "later", "ratio", "factor", "model",
            "error %", "skewed", "error %");
    for (int i = 0; i < run->nexchanges; i++) {
        const struct pz_cal_exchange *x = &run->exchanges[i];
        double t = one_way(run, x->bytes), later = x->time - fmax(0, x->skew);
        int modelled = d && i < d->sizes, checked = k && i < k->sizes;

        fprintf(out,
                "%10.0f %10.3f %10.3f %10.3f %9.3f %10.3f %6.2f %6.2f %10.3f %8.2f %10.3f %8.2f\n",
                x->bytes, t * 1e6, x->time * 1e6, x->other * 1e6, x->skew * 1e6, later * 1e6,
                t > 0 ? later / t : 0, modelled ? d->size_factor[i] : NAN,
                modelled ? d->model[i] * 1e6 : 0,
                modelled ? pz_fit_error(x->time, d->model[i]) : 0,
                checked ? k->model[i] * 1e6 : 0, checked ? pz_fit_error(x->time, k->model[i]) : 0);
        low = fmin(low, x->offset);
        high = fmax(high, x->offset);
    }
    fprintf(out, "(times in us: rank 0's and rank 1's exchange, each from leaving the barrier; "
                 "skew: how much later rank 1 left it, the median, by the clocks, rank 1's "
                 "%.3f to %.3f us from rank 0's; later: rank 0's less the skew, its ratio to one "
                 "way;\n factor: the size's duplex factor, which makes the model's exchange begun "
                 "together the measured one (nan: a stall, left out); model: begun together on "
                 "the machine written; skewed: rank 1 beginning the skew later on the check's "
                 "machine, below)\n",
            run->nexchanges > 0 ? low * 1e6 : 0, run->nexchanges > 0 ? high * 1e6 : 0);
}

void pz_cal_print_skew_check(FILE *out, const struct pz_calibration_run *run)
{
    const struct pz_cal_skew_check *c = run->skew_check;
    const struct pz_overhead *o;
    const struct pz_duplex_overhead_fit *f;
    char a[32], b[32], e[32], g[32], h[32];

    if (!c)
        return;
    o = &c->transfer.base.overhead;
    fprintf(out, "skew taken out: the overheads' room from the later start: send %s + %s/KiB, "
                 "recv %s + %s/KiB (send tail %s, per byte scaled by %.3g), %d segment(s)\n",
            human_time(a, sizeof(a), o->send), human_time(b, sizeof(b), o->send_per_byte * 1024),
            human_time(e, sizeof(e), o->recv), human_time(g, sizeof(g), o->recv_per_byte * 1024),
            human_time(h, sizeof(h), c->transfer.tail), c->transfer.per_byte_scale,
            c->transfer.segments.segments.n);
    fprintf(out, "duplex_factors on the exchanges after the barrier, rank 1 beginning the "
                 "skew later: median %.3g (|error| median %.1f%%, largest %.1f%%; %d size(s) "
                 "beyond 1 to %.0f)\n",
            c->duplex.points > 0 ? c->duplex.factor : 1, c->duplex.median_error,
            c->duplex.max_error, c->duplex.beyond, PZ_DUPLEX_FACTORS_MAX);
    if (!c->back_to_back_fitted) {
        fprintf(out, "(a check, not written: no exchange back to back to compare)\n");
        return;
    }
    f = &c->back_to_back;
    fprintf(out, "back to back: %s both ways %s, this machine %s (error %.2f%%); duplex_overhead "
                 "%s%s makes it %s (error %.2f%%)",
            pz_cal_size(a, sizeof(a), f->bytes), human_time(b, sizeof(b), f->measured),
            human_time(e, sizeof(e), f->as_written), pz_fit_error(f->measured, f->as_written),
            human_time(g, sizeof(g), f->duplex_overhead), f->beyond ? " (held at its bound)" : "",
            human_time(h, sizeof(h), f->model), pz_fit_error(f->measured, f->model));
    fprintf(out, ", the exchange after the barrier with it %s\n",
            human_time(b, sizeof(b), f->exchange));
    fprintf(out, "(a check, not written: predicting with these keys was worse, docs/predict.md)\n");
}

/* The smallest and the largest factor of f (1 for none). */
static double factors_low(const struct pz_size_factors *f)
{
    double v = f->n ? f->step[0].factor : 1;

    for (int i = 1; i < f->n; i++)
        v = fmin(v, f->step[i].factor);
    return v;
}

static double factors_high(const struct pz_size_factors *f)
{
    double v = 1;

    for (int i = 0; i < f->n; i++)
        v = fmax(v, f->step[i].factor);
    return v;
}

void pz_cal_print_summary(FILE *out, const struct pz_calibration_run *run,
                          const struct pz_fit *fit, const struct pz_machine *m)
{
    char a[64], b[64], c[64], d[64], e[64];

    fprintf(out, "latency            %s (0-byte half round trip, %ld round trips)\n",
            human_time(a, sizeof(a), fit->latency), total_roundtrips(run, 0));
    fprintf(out, "bandwidth          %s (slope over %d sizes from %s up)\n",
            human_rate(a, sizeof(a), fit->bandwidth), fit->bandwidth_points,
            pz_cal_size(b, sizeof(b), fit->bandwidth_from));
    fprintf(out, "packet model       t_start0 %s, t_start1 %s/KiB, wire %s (V_max %s, V_c %s)\n",
            human_time(a, sizeof(a), fit->start0), human_time(b, sizeof(b), fit->start1 * 1024),
            human_rate(c, sizeof(c), fit->wire_bandwidth),
            pz_cal_size(d, sizeof(d), fit->packet_size),
            pz_cal_size(e, sizeof(e), fit->packet_header));
    if (fit->eager_threshold > 0)
        fprintf(out, "eager threshold    %s (time / Hockney's +%.0f%% from %.0f B to %.0f B)\n",
                pz_cal_size(a, sizeof(a), fit->eager_threshold), (exp(fit->step) - 1) * 100,
                fit->eager_threshold, fit->step_to);
    else
        fprintf(out, "eager threshold    no step found, %s kept\n",
                pz_cal_size(a, sizeof(a), m->eager_threshold));
    if (run->ob1)
        fprintf(out, "rendezvous         %s\n", run->ob1->why);
    if (run->duplex && run->duplex->points > 0)
        fprintf(out, "duplex_factors     %d step(s) from %.3g to %.3g (the model's exchange both "
                "ways is the measured one at each size; |error| median %.1f%%, largest "
                "%.1f%%%s%s)\n",
                m->duplex_factors.n, factors_low(&m->duplex_factors),
                factors_high(&m->duplex_factors), run->duplex->median_error,
                run->duplex->max_error, run->duplex->beyond ? "; some sizes beyond the bounds" : "",
                run->duplex->stalled ? "; stalled sizes left out" : "");
    if (run->reduce_time > 0)
        fprintf(out, "reduction          %s per KiB (MPI_SUM on %s of doubles in %s)\n",
                human_time(a, sizeof(a), m->reduce_byte_time * 1024),
                pz_cal_size(b, sizeof(b), run->reduce_bytes),
                human_time(c, sizeof(c), run->reduce_time));
    fprintf(out, "cost_model         %s\n", pz_machine_word(m, PZ_KEY_COST_MODEL));
    fprintf(out, "progress           %s (a %s nonblocking send received %s after it was posted, "
            "its sender computing %s before its wait)\n",
            pz_machine_word(m, PZ_KEY_PROGRESS), pz_cal_size(a, sizeof(a), run->probe_bytes),
            human_time(b, sizeof(b), run->probe_received),
            human_time(c, sizeof(c), run->probe_compute));
}

enum pz_progress pz_cal_progress(const struct pz_calibration_run *run,
                                 const struct pz_fit *fit)
{
    /* an eager probe moves at once whatever the library does */
    if (!(fit->eager_threshold > 0 && run->probe_bytes > fit->eager_threshold))
        return PZ_PROGRESS_BACKGROUND;
    return run->probe_received >= run->probe_compute ? PZ_PROGRESS_IN_CALLS
                                                     : PZ_PROGRESS_BACKGROUND;
}

/* Notes of the machine file: the comment before each key. */
struct notes {
    const struct pz_calibration_run *run;
    const struct pz_fit *fit;
    const struct pz_machine *m;
    char buf[2048];
};

/* The header's line on the rounds into buf: how many, over how long, how far the
 * latency and bandwidth of each round alone disagree; empty when not in rounds. */
static const char *rounds_text(char *buf, size_t len, const struct pz_calibration_run *run)
{
    if (run->nrounds == 0)
        return strcpy(buf, "");
    snprintf(buf, len,
             "Each size is the median of %d rounds begun over %.1f s (%d added where a\n"
             "size's rounds disagreed, %d size(s) still do); fitted to each round alone the\n"
             "latency spreads %.1f%%, the bandwidth %.1f%% ((largest - smallest) / median).\n",
             run->nrounds, run->round_began[run->nrounds - 1], run->remeasured,
             run->disagreeing, 100 * pz_cal_key_spread(run->round_latency, run->nrounds),
             100 * pz_cal_key_spread(run->round_bandwidth, run->nrounds));
    return buf;
}

static const char *note_header(struct notes *n)
{
    const struct pz_calibration_run *run = n->run;
    char when[64], a[32], b[32], env[512] = "", rounds[512];
    time_t now = time(NULL);
    static const char *const vars[] = { "UCX_TLS", "UCX_NET_DEVICES", "FI_PROVIDER",
                                        "MPIR_CVAR_CH4_NETMOD", "MPIR_CVAR_NOLOCAL",
                                        "OMPI_MCA_pml", "OMPI_MCA_btl",
                                        "OMPI_MCA_btl_tcp_if_include" };
    size_t used = 0;

    strftime(when, sizeof(when), "%Y-%m-%d %H:%M", localtime(&now));
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
        if (getenv(vars[i]) && used < sizeof(env))
            used += (size_t)snprintf(env + used, sizeof(env) - used, " %s=%s", vars[i],
                                     getenv(vars[i]));
    snprintf(n->buf, sizeof(n->buf),
             "Written by prognoz calibrate %s on %s (docs/calibrate.md).\n"
             "Ping-pong between 2 ranks %s%s%s%s, %d sizes from %s to %s, %.1f s.\n"
             "MPI: %s\n"
             "Environment:%s\n"
             "Every time below is a half round trip, the trimmed mean over batches (what a\n"
             "program pays: stalls left out, not the slow tail); median |error| of the models\n"
             "over the sizes: A (latency + bandwidth + header) %.2f%%, B (packet) %.2f%%,\n"
             "C (Hockney) %.2f%%.\n"
             "%s"
             "\n"
             "name: the machine's name in reports (--name, else the file's name)",
             PACKAGE_VERSION, when, run->same_node ? "on one node, " : "on two nodes, ",
             run->host[0], run->same_node ? "" : " and ", run->same_node ? "" : run->host[1],
             run->npoints, pz_cal_size(a, sizeof(a), run->points[0].bytes),
             pz_cal_size(b, sizeof(b), run->points[run->npoints - 1].bytes), run->seconds,
             run->mpi_version, *env ? env : " (no UCX_TLS, FI_PROVIDER, MPIR_CVAR_..., OMPI_MCA_... set)",
             pz_fit_median_error(n->fit, run->points, run->npoints, pz_fit_model_a),
             pz_fit_median_error(n->fit, run->points, run->npoints, pz_fit_model_b),
             pz_fit_median_error(n->fit, run->points, run->npoints, pz_fit_model_c),
             rounds_text(rounds, sizeof(rounds), run));
    return n->buf;
}

static const char *note_cost(struct notes *n)
{
    const struct pz_fit *f = n->fit;
    const struct pz_calibration_run *r = n->run;
    double eb = pz_fit_median_error(f, r->points, r->npoints, pz_fit_model_b);
    double ec = pz_fit_median_error(f, r->points, r->npoints, pz_fit_model_c);
    char a[64], b[64], c[64];

    if (n->m->cost_model == PZ_COST_PACKET)
        snprintf(n->buf, sizeof(n->buf),
                 "cost_model: packet, whose median |error| (%.2f%%) is below Hockney's (%.2f%%).\n"
                 "For cost_model = hockney: latency = %.17g s (%s), latency_per_byte = 0 s,\n"
                 "bandwidth = %.17g B/s (%s)",
                 eb, ec, f->latency, human_time(a, sizeof(a), f->latency), f->bandwidth,
                 human_rate(b, sizeof(b), f->bandwidth));
    else
        snprintf(n->buf, sizeof(n->buf),
                 "cost_model: hockney, whose median |error| (%.2f%%) is not above the packet\n"
                 "model's (%.2f%%).  For cost_model = packet: latency = %.17g s (%s),\n"
                 "latency_per_byte = %.17g s (%s per KiB), bandwidth = %.17g B/s (%s)",
                 ec, eb, f->start0, human_time(a, sizeof(a), f->start0), f->start1,
                 human_time(b, sizeof(b), f->start1 * 1024), f->wire_bandwidth,
                 human_rate(c, sizeof(c), f->wire_bandwidth));
    return n->buf;
}

static long roundtrips_of(const struct notes *n, int i)
{
    return total_roundtrips(n->run, i);
}

/* Appends to the note the key's value fitted to each round alone, and their spread. */
static void note_rounds(struct notes *n, const double *v, double unit, const char *unit_name)
{
    size_t used = strlen(n->buf);

    if (n->run->nrounds == 0)
        return;
    used += (size_t)snprintf(n->buf + used, sizeof(n->buf) - used,
                             ";\nfitted to each of the %d rounds alone:", n->run->nrounds);
    for (int r = 0; r < n->run->nrounds && used < sizeof(n->buf); r++)
        used += (size_t)snprintf(n->buf + used, sizeof(n->buf) - used, "%s %.4g",
                                 r ? "," : "", v[r] * unit);
    if (used < sizeof(n->buf))
        snprintf(n->buf + used, sizeof(n->buf) - used, " %s (spread %.1f%%)", unit_name,
                 100 * pz_cal_key_spread(v, n->run->nrounds));
}

static const char *note_latency(struct notes *n)
{
    const struct pz_fit *f = n->fit;
    char a[64], b[64];
    double payload = f->packet_size - f->packet_header;

    if (n->m->cost_model == PZ_COST_PACKET)
        snprintf(n->buf, sizeof(n->buf),
                 "latency: %s, the packet model's t_start0: Theil and Sen's line t = a + b m\n"
                 "over the %d sizes of one packet (0 to %.0f B) gives a = t_start0 + V_c t_k,\n"
                 "so t_start0 = a - packet_header / bandwidth (the 0-byte half round trip is %s)",
                 human_time(a, sizeof(a), f->start0), f->startup_points, payload,
                 human_time(b, sizeof(b), f->latency));
    else
        snprintf(n->buf, sizeof(n->buf),
                 "latency: %s, the half round trip of 0-byte messages: the trimmed mean over\n"
                 "batches of %ld round trips in all",
                 human_time(a, sizeof(a), f->latency), roundtrips_of(n, 0));
    note_rounds(n, n->run->round_latency, 1e6, "us");
    return n->buf;
}

static const char *note_per_byte(struct notes *n)
{
    char a[64];

    if (n->m->cost_model == PZ_COST_PACKET)
        snprintf(n->buf, sizeof(n->buf),
                 "latency_per_byte: %s per KiB, the packet model's t_start1: the slope b of that\n"
                 "line minus 1 / bandwidth (b = t_start1 + t_k)",
                 human_time(a, sizeof(a), n->fit->start1 * 1024));
    else
        snprintf(n->buf, sizeof(n->buf), "latency_per_byte: not used by the Hockney model");
    return n->buf;
}

static const char *note_bandwidth(struct notes *n)
{
    const struct pz_fit *f = n->fit;
    char a[64], b[64], c[64];
    int k = f->bandwidth_points;

    if (f->bandwidth_max_rate)
        snprintf(n->buf, sizeof(n->buf),
                 "bandwidth: %s, the highest rate bytes / time of the sizes from %s up (the\n"
                 "slope of their times was not positive: noise?)",
                 human_rate(a, sizeof(a), f->bandwidth),
                 pz_cal_size(b, sizeof(b), f->bandwidth_from));
    else
        snprintf(n->buf, sizeof(n->buf),
                 "bandwidth: %s per payload byte, 1 / the slope of time over the %d largest\n"
                 "sizes (%s to %s): the median of the slopes between every two of them",
                 human_rate(a, sizeof(a), f->bandwidth), k,
                 pz_cal_size(b, sizeof(b), f->bandwidth_from),
                 pz_cal_size(c, sizeof(c), n->run->points[n->run->npoints - 1].bytes));
    if (n->m->cost_model == PZ_COST_PACKET) {
        size_t used = strlen(n->buf);

        snprintf(n->buf + used, sizeof(n->buf) - used,
                 ";\nthe packet model's wire rate is that times packet_size / (packet_size -\n"
                 "packet_header): %s, headers included",
                 human_rate(a, sizeof(a), f->wire_bandwidth));
    }
    note_rounds(n, n->run->round_bandwidth, 1e-9, "GB/s");
    return n->buf;
}

static const char *note_packet(struct notes *n)
{
    char a[64];

    snprintf(n->buf, sizeof(n->buf),
             "packet_size, packet_header: not measured (%s): a ping-pong cannot see them,\n"
             "the header's wire time (%s) is below the noise of the times; set the network's\n"
             "MTU and per-packet header here.  They bound the packet model's start-up fit",
             n->run->packet_source,
             human_time(a, sizeof(a), n->fit->packet_header / n->fit->wire_bandwidth));
    return n->buf;
}

static const char *note_rendezvous(struct notes *n)
{
    if (!(n->fit->eager_threshold > 0))
        return "rendezvous_overhead: no step found, 0";
    snprintf(n->buf, sizeof(n->buf),
             "rendezvous_overhead: %.1f us, the rise in time from %.0f B to %.0f B less the\n"
             "bandwidth's share of the difference and the two latencies a rendezvous adds\n"
             "(request-to-send, clear-to-send)", n->fit->rendezvous_overhead * 1e6,
             n->fit->eager_threshold, n->fit->step_to);
    return n->buf;
}

static const char *note_reduce(struct notes *n)
{
    char a[64], b[64], c[64];

    if (!(n->run->reduce_time > 0))
        return "reduce_byte_time: not measured, the default";
    snprintf(n->buf, sizeof(n->buf),
             "reduce_byte_time: %s per KiB, the time of MPI_Reduce_local of MPI_SUM on %s of\n"
             "doubles (the lower quartile of %d, %s) over its bytes: what a reduction's\n"
             "algorithm spends combining each byte it receives",
             human_time(a, sizeof(a), n->m->reduce_byte_time * 1024),
             pz_cal_size(b, sizeof(b), n->run->reduce_bytes), PZ_CAL_REDUCE_REPETITIONS,
             human_time(c, sizeof(c), n->run->reduce_time));
    return n->buf;
}

static const char *note_progress(struct notes *n)
{
    char a[64], b[64], c[64];

    pz_cal_size(a, sizeof(a), n->run->probe_bytes);
    human_time(b, sizeof(b), n->run->probe_received);
    human_time(c, sizeof(c), n->run->probe_compute);
    if (!(n->fit->eager_threshold > 0 && n->run->probe_bytes > n->fit->eager_threshold))
        snprintf(n->buf, sizeof(n->buf),
                 "progress: background, the default: no rendezvous was seen (the %s probe\n"
                 "went eagerly), so when the library moves one along was not measured", a);
    else
        snprintf(n->buf, sizeof(n->buf),
                 "progress: a %s MPI_Isend, its sender then computing %s before MPI_Wait,\n"
                 "was received %s after it was posted (median): %s", a, c, b,
                 n->m->progress == PZ_PROGRESS_IN_CALLS
                     ? "the data moved only once the\nsender was back in MPI"
                     : "the data moved while the\nsender computed");
    return n->buf;
}

static const char *note_duplex(struct notes *n)
{
    const struct pz_duplex_fit *d = n->run->duplex;
    const struct pz_cal_skew_check *c = n->run->skew_check;
    char a[32], b[32], e[32], g[32];
    int len;

    if (!d || d->points < 1)
        return d && d->stalled > 0 ? "duplex_factors: every exchange stalled, none (full duplex)"
                                   : "duplex_factors: no exchange was measured, none (full duplex)";
    len = snprintf(n->buf, sizeof(n->buf),
             "duplex_factors: at each size exchanged both ways at once (MPI_Irecv,\n"
             "MPI_Isend, MPI_Waitall on both ranks, begun together after a barrier) the\n"
             "factor from 1 to %.0f that makes the model's exchange take the measured time:\n"
             "a message arrives later by factor - 1 times how long it was on its way while\n"
             "one the other way was, not its overheads; each factor holds up to its size\n"
             "(the largest eager size's up to the eager threshold), the last beyond.  The\n"
             "model's exchanges with them: |error| median %.1f%%, largest %.1f%%; %d size(s)\n"
             "needed a factor beyond 1 to %.0f; %d size(s) left out, their exchange longer\n"
             "than %.0f times the model's one way (a stall, not the directions sharing)",
             PZ_DUPLEX_FACTORS_MAX, d->median_error, d->max_error, d->beyond,
             PZ_DUPLEX_FACTORS_MAX, d->stalled, PZ_DUPLEX_MAX_RATIO);
    if (!c || n->run->nexchanges < 1 || len < 0 || (size_t)len >= sizeof(n->buf))
        return n->buf;
    snprintf(n->buf + len, sizeof(n->buf) - (size_t)len,
             ".\nThe exchanges are not begun together: rank 1 left the barrier %s later\n"
             "than rank 0 (0 B, the median, by the clocks), about one message; taken\n"
             "out (rank 1 beginning that much later in the model, the overheads' room\n"
             "from the later start) the factors' median would be %.3g (|error| median\n"
             "%.1f%%, largest %.1f%%) and the exchanges back to back of %s %s against\n"
             "the measured %s; not written: predicting with those keys was worse\n"
             "(docs/predict.md, the validation over TCP)",
             human_time(a, sizeof(a), n->run->exchanges[0].skew),
             c->duplex.points > 0 ? c->duplex.factor : 1, c->duplex.median_error,
             c->duplex.max_error, pz_cal_size(b, sizeof(b), n->run->resume_bytes),
             c->back_to_back_fitted ? human_time(e, sizeof(e), c->back_to_back.as_written) : "-",
             c->back_to_back_fitted ? human_time(g, sizeof(g), c->back_to_back.measured) : "-");
    return n->buf;
}

static const char *note_eager(struct notes *n)
{
    const struct pz_fit *f = n->fit;
    char a[64], b[64], c[64];

    if (f->eager_threshold > 0)
        snprintf(n->buf, sizeof(n->buf),
                 "eager_threshold: %s, the size before the step in the curve: measured over\n"
                 "Hockney's time, t / (latency + m / bandwidth), rises by %.0f%% from %.0f B to\n"
                 "%.0f B and stays up, the largest such step between consecutive sizes from %s\n"
                 "to %s",
                 pz_cal_size(a, sizeof(a), f->eager_threshold), (exp(f->step) - 1) * 100,
                 f->eager_threshold, f->step_to, pz_cal_size(b, sizeof(b), PZ_FIT_STEP_FROM),
                 pz_cal_size(c, sizeof(c), PZ_FIT_STEP_TO));
    else
        snprintf(n->buf, sizeof(n->buf),
                 "eager_threshold: no step found (t / (latency + m / bandwidth) never rises by\n"
                 "%.0f%% or more between consecutive sizes from %s to %s): the default",
                 (exp(PZ_FIT_STEP_MIN) - 1) * 100, pz_cal_size(a, sizeof(a), PZ_FIT_STEP_FROM),
                 pz_cal_size(b, sizeof(b), PZ_FIT_STEP_TO));
    return n->buf;
}

static const char *note_shm(struct notes *n, enum pz_machine_key key)
{
    if (n->run->same_node)
        snprintf(n->buf, sizeof(n->buf),
                 "%s: both ranks ran on one node: the same measurement as %s",
                 pz_machine_key_name(key), key == PZ_KEY_SHM_LATENCY
                     ? "latency (the 0-byte\n"
                       "half round trip)"
                     : "bandwidth (Hockney's)");
    else
        snprintf(n->buf, sizeof(n->buf),
                 "%s: not measured (the ranks ran on two nodes): the default; calibrate with\n"
                 "both ranks on one node to measure it", pz_machine_key_name(key));
    return n->buf;
}

/* Appends text to the note being written. */
static void note_add(struct notes *n, const char *text)
{
    size_t used = strlen(n->buf);

    snprintf(n->buf + used, sizeof(n->buf) - used, "%s", text);
}

/* Which measurement an overhead key comes from. */
static const char *note_overhead(struct notes *n, enum pz_machine_key key)
{
    const struct pz_transfer_fit *t = n->run->transfer;
    int send = key == PZ_KEY_SEND_OVERHEAD || key == PZ_KEY_SEND_OVERHEAD_PER_BYTE ||
               key == PZ_KEY_SHM_SEND_OVERHEAD || key == PZ_KEY_SHM_SEND_OVERHEAD_PER_BYTE;
    const struct pz_line_fit *f = send ? &t->send : &t->recv;
    char a[64], b[64], c[256];

    snprintf(n->buf, sizeof(n->buf),
             "%s: %s + %s per KiB, the least-squares line\n"
             "(relative errors) over %d sizes from 0 B to the eager threshold of the trimmed mean\n"
             "%s (median |error| %.2f%%, largest %.2f%%)",
             pz_machine_key_name(key), human_time(a, sizeof(a), f->a),
             human_time(b, sizeof(b), f->b * 1024), f->points,
             send ? "time of MPI_Isend + MPI_Wait of an eager message whose receive was\n"
                    "posted before"
                  : "time of the receiver's MPI_Wait for a message that had arrived (it\n"
                    "computed meanwhile)",
             f->median_error, f->max_error);
    if (send) {
        snprintf(c, sizeof(c), ";\na loop of (compute; MPI_Isend) computes %s + %s per KiB "
                               "later\nper message (a check, not used)",
                 human_time(a, sizeof(a), t->loop.a), human_time(b, sizeof(b), t->loop.b * 1024));
        note_add(n, c);
    }
    if (t->scale < 1) {
        snprintf(c, sizeof(c), ";\nscaled by %.3g to fit within the exchange back to back, where "
                               "each\nprocess spends both", t->scale);
        note_add(n, c);
    }
    if (t->eager_slope >= 0) {
        note_add(n, ";\nper byte, the copies of an eager message (up to the eager threshold;\n"
                    "a larger message's bytes move in its transfer), kept as measured");
        if (!send && t->recv.b * t->scale > t->eager_slope) {
            snprintf(c, sizeof(c), ";\nper byte cut to the ping-pong's slope over the eager sizes, "
                                   "%s per KiB:\nall of it is on the message's way",
                     human_time(a, sizeof(a), t->eager_slope * 1024));
            note_add(n, c);
        }
    } else if (t->per_byte_scale < 1) {
        snprintf(c, sizeof(c), ";\nper byte scaled by %.3g so that the overheads\nfit within the "
                               "ping-pong (every time from 1 KiB up, the largest sizes' slope)%s",
                 t->per_byte_scale,
                 t->exchange_room ? "\nand leave the transfer room for the exchanges both ways "
                                    "(at most 2 t(m) - exchange(m))" : "");
        note_add(n, c);
    }
    if (key >= PZ_KEY_SHM_SEND_OVERHEAD)
        note_add(n, "\n(both ranks ran on one node: the same as the network's)");
    return n->buf;
}

static const char *note_segments(struct notes *n, enum pz_machine_key key)
{
    const struct pz_transfer_fit *t = n->run->transfer;
    int cold = 0;

    for (int i = 0; i < n->run->ncold; i++)
        cold += pz_cal_cold_used(n->run, i);
    snprintf(n->buf, sizeof(n->buf),
             "%s: %d segment(s) of latency + bytes / bandwidth, each a least-squares line\n"
             "(relative errors) over the ping-pong times less the overheads above (and, above\n"
             "the eager threshold, less the rendezvous's two control messages and its\n"
             "overhead), so that segments plus overheads reproduce the ping-pong; the\n"
             "breakpoints are measured sizes, the count the smallest criterion\n"
             "n ln(sum of squared relative errors / n) + (3 segments - 1) ln n (errors below\n"
             "%.0f%% count as noise).  Median |error| %.2f%%, largest %.2f%%; the cost model\n"
             "alone %.2f%%.  %d size(s) use the cold-buffer time.  Bandwidths at most %.0fx\n"
             "the fastest rate measured (%.4g B/s): %d segment(s) held there",
             pz_machine_key_name(key), t->segments.segments.n, PZ_SEG_NOISE * 100,
             t->segments.median_error, t->segments.max_error, t->previous_error, cold,
             PZ_SEG_RATE_BOUND, t->segments.bandwidth_bound, t->segments.bounded);
    if (key == PZ_KEY_SHM_SEGMENTS)
        note_add(n, "\n(both ranks ran on one node: the same as the network's)");
    return n->buf;
}

/* Where the resume overhead comes from. */
static const char *note_resume(struct notes *n)
{
    const struct pz_resume_fit *f = n->run->resume;
    char a[32], b[32], c[32], d[32];

    snprintf(n->buf, sizeof(n->buf),
             "resume_overhead, resume_after: both ranks computed, then exchanged %s both\n"
             "ways; the exchange took %s (+- %s over %d passes) longer after computing\n"
             "%.0f us or more than after computing nothing, the median over %d computations;\n"
             "resume_after, where a ramp from 0 to it fits the shorter computations best,\n"
             "not before %s (the computation touched as much memory as the core's\n"
             "second-level cache holds)%s",
             pz_cal_size(a, sizeof(a), n->run->resume_bytes),
             human_time(b, sizeof(b), f->overhead), human_time(c, sizeof(c), f->spread),
             n->run->resume_passes, PZ_RESUME_PLATEAU * 1e6, f->points,
             human_time(d, sizeof(d), f->shortest),
             n->run->same_node ? "\n(both ranks ran on one node: shm_resume_overhead the same)"
                               : "");
    return n->buf;
}

static const char *note_send_tail(struct notes *n)
{
    const struct pz_transfer_fit *t = n->run->transfer;
    char a[32], b[32], c[32];

    snprintf(n->buf, sizeof(n->buf),
             "send_tail: the send overhead %s and the receive's %s (MPI_Isend + MPI_Wait, and\n"
             "MPI_Wait for a message that had arrived, at 0 bytes) exceed the ping-pong's t(0)\n"
             "%s by this: the part of the send's CPU time spent after its message left (the\n"
             "receiver takes it while the sender is still in its call); both overheads are\n"
             "charged whole, the segments fitted under the send overhead less this",
             human_time(a, sizeof(a), t->send.a * t->scale),
             human_time(b, sizeof(b), t->recv.a * t->scale),
             human_time(c, sizeof(c), n->fit->latency));
    return n->buf;
}

static const char *note_send_tail_per_byte(struct notes *n)
{
    const struct pz_transfer_fit *t = n->run->transfer;
    char a[32], b[32], c[32];

    snprintf(n->buf, sizeof(n->buf),
             "send_tail_per_byte: the per-byte overheads, send %s and receive %s per KiB,\n"
             "exceed the ping-pong's slope over the eager sizes from 1 KiB, %s per KiB\n"
             "(Theil and Sen's), by this (at most the send's): the part of an eager\n"
             "message's copies spent after it left, as send_tail is of the per-message part",
             human_time(a, sizeof(a), t->send.b * t->scale * 1024),
             human_time(b, sizeof(b), t->recv.b * t->scale * 1024),
             human_time(c, sizeof(c), t->eager_slope * 1024));
    return n->buf;
}

/* The mpi key; under Open MPI with no first fragment (a key not written), also why. */
static const char *note_mpi(struct notes *n)
{
    const char *mpi = strcmp(n->m->mpi, "openmpi4") == 0
                          ? "mpi: not measured; openmpi4, the collectives of the Open MPI this "
                            "ran under"
                          : "mpi: not measured, the default";

    if (!n->run->ob1 || n->run->ob1->fragment > 0)
        return mpi;
    snprintf(n->buf, sizeof(n->buf), "%s\n%s", mpi, n->run->ob1->why);
    return n->buf;
}

static const char *note(enum pz_machine_key key, void *arg)
{
    struct notes *n = arg;

    switch (key) {
    case PZ_KEY_NAME:
        return note_header(n);
    case PZ_KEY_NETWORK:
        return "\nnetwork, channels: not measured (two ranks cannot tell a switch from a hub)";
    case PZ_KEY_COST_MODEL:
        return note_cost(n);
    case PZ_KEY_LATENCY:
        return note_latency(n);
    case PZ_KEY_LATENCY_PER_BYTE:
        return note_per_byte(n);
    case PZ_KEY_BANDWIDTH:
        return note_bandwidth(n);
    case PZ_KEY_PACKET_SIZE:
        return note_packet(n);
    case PZ_KEY_EAGER_THRESHOLD:
        return note_eager(n);
    case PZ_KEY_RENDEZVOUS_OVERHEAD:
        return note_rendezvous(n);
    case PZ_KEY_PROGRESS:
        return note_progress(n);
    case PZ_KEY_DUPLEX_FACTOR:
        return n->run->duplex && n->run->duplex->points > 0
                   ? "duplex_factor: 1, the factors by size (duplex_factors, below) in its place"
               : n->run->duplex && n->run->duplex->stalled > 0
                   ? "duplex_factor: every exchange stalled, 1 (full duplex)"
                   : "duplex_factor: no exchange was measured, 1 (full duplex)";
    case PZ_KEY_DUPLEX_FACTORS:
        return note_duplex(n);
    case PZ_KEY_DUPLEX_OVERHEAD:
        return pz_cal_duplex_sends_note(n->buf, sizeof(n->buf), n->run);
    case PZ_KEY_PROCS_PER_NODE:
        return n->run->same_node
                   ? "procs_per_node: 1, so predictions use the network keys above, which this\n"
                     "one-node calibration measured between two processes of one node (shared\n"
                     "memory, unless the MPI was told to use a network, e.g. UCX_TLS=tcp,self);\n"
                     "with more processes per node, the shm_ keys apply among them"
                   : "procs_per_node, placement: not measured (one rank ran on each node)";
    case PZ_KEY_SHM_LATENCY:
    case PZ_KEY_SHM_BANDWIDTH:
        return note_shm(n, key);
    case PZ_KEY_CPU_SCALE:
        return "cpu_scale: 1, computation as fast as where the run was recorded";
    case PZ_KEY_MPI:
        return note_mpi(n);
    case PZ_KEY_RENDEZVOUS_FIRST_FRAGMENT:
        return n->run->ob1 ? n->run->ob1->why : NULL;
    case PZ_KEY_SWITCH_QUEUE:
        return "switch_queue: not measured (two ranks leave no third node to contend for);\n"
               "switch, as Ethernet's switches store and forward and a sender's messages to\n"
               "other nodes do not wait behind one for a busy node (InfiniBand's flow\n"
               "control may hold a sender back: unmeasured)";
    case PZ_KEY_REDUCE_BYTE_TIME:
        return note_reduce(n);
    case PZ_KEY_SEGMENTS:
    case PZ_KEY_SHM_SEGMENTS:
        return n->run->transfer ? note_segments(n, key) : NULL;
    case PZ_KEY_SEND_OVERHEAD:
    case PZ_KEY_SEND_OVERHEAD_PER_BYTE:
    case PZ_KEY_RECV_OVERHEAD:
    case PZ_KEY_RECV_OVERHEAD_PER_BYTE:
    case PZ_KEY_SHM_SEND_OVERHEAD:
    case PZ_KEY_SHM_SEND_OVERHEAD_PER_BYTE:
    case PZ_KEY_SHM_RECV_OVERHEAD:
    case PZ_KEY_SHM_RECV_OVERHEAD_PER_BYTE:
        return n->run->transfer ? note_overhead(n, key) : NULL;
    case PZ_KEY_RESUME_OVERHEAD:
        return n->run->resume && n->run->resume->overhead > 0 ? note_resume(n) : NULL;
    case PZ_KEY_SEND_TAIL:
        return n->run->transfer ? note_send_tail(n) : NULL;
    case PZ_KEY_SEND_TAIL_PER_BYTE:
        return n->run->transfer ? note_send_tail_per_byte(n) : NULL;
    case PZ_KEY_COLLECTIVE_OVERHEAD:
        return pz_cal_collective_note(n->buf, sizeof(n->buf), n->run);
    case PZ_KEY_SELF_SEGMENTS:
        return n->run->self_fit ? pz_cal_self_note(n->buf, sizeof(n->buf), n->run->nself,
                                                   n->run->self_fit)
                                : NULL;
    case PZ_KEY_COPY_SEGMENTS:
        return n->run->ncopies > 0 ? pz_cal_copy_note(n->buf, sizeof(n->buf), n->run->ncopies)
                                   : NULL;
    default:
        return NULL;
    }
}

int pz_cal_write_machine(FILE *f, const struct pz_calibration_run *run,
                         const struct pz_fit *fit, const struct pz_machine *m)
{
    struct notes n = { .run = run, .fit = fit, .m = m };

    return pz_machine_write_notes(f, m, note, &n);
}

int pz_cal_cold_factor(int same_node)
{
    return same_node ? 3 : 2;
}

int pz_cal_cold_used(const struct pz_calibration_run *run, int i)
{
    return run->cache_size > 0 && run->cold_pool >= 2 * run->cache_size &&
           pz_cal_cold_factor(run->same_node) * run->cold[i].bytes > run->cache_size;
}

void pz_cal_segment_points(const struct pz_calibration_run *run, struct pz_pingpong *p)
{
    for (int i = 0; i < run->npoints; i++)
        p[i] = run->points[i];
    for (int c = 0; c < run->ncold; c++)
        for (int i = 0; i < run->npoints; i++)
            if (p[i].bytes == run->cold[c].bytes && pz_cal_cold_used(run, c))
                p[i].time = run->cold[c].time;
}

/* One fitted overhead line, with its errors. */
static void print_line(FILE *out, const char *what, const struct pz_line_fit *f)
{
    char a[64], b[64];

    if (f->points < 2) {   /* no line through one size: its time, no error to tell */
        fprintf(out, "%-26s %s (%d size: no per-byte cost measured)\n", what,
                human_time(a, sizeof(a), f->a), f->points);
        return;
    }
    fprintf(out, "%-26s %s + %s/KiB (median |error| %.2f%%, largest %.2f%%, %d sizes)\n", what,
            human_time(a, sizeof(a), f->a), human_time(b, sizeof(b), f->b * 1024),
            f->median_error, f->max_error, f->points);
}

void pz_cal_print_overheads(FILE *out, const struct pz_calibration_run *run)
{
    fprintf(out, "%12s %12s %12s %12s\n", "size (B)", "send (us)", "recv (us)", "loop (us)");
    for (int i = 0; i < run->noverheads; i++)
        fprintf(out, "%12.0f %12.3f %12.3f %12.3f\n", run->send_times[i].bytes,
                run->send_times[i].time * 1e6, run->recv_times[i].time * 1e6,
                run->loop_times[i].time * 1e6);
    if (!run->transfer)
        return;
    print_line(out, "send: MPI_Isend+MPI_Wait", &run->transfer->send);
    print_line(out, "recv: MPI_Wait, arrived", &run->transfer->recv);
    print_line(out, "loop: computation delayed", &run->transfer->loop);
    if (run->transfer->scale < 1)
        fprintf(out, "(send and recv scaled by %.3g to fit within the exchange back to back, "
                     "%.3f us, where each process spends both)\n",
                run->transfer->scale, pz_cal_back_to_back(run) * 1e6);
    if (run->transfer->tail > 0)
        fprintf(out, "(send + recv exceed the ping-pong's t(0) by %.3f us: the send's tail, spent "
                     "after its message left)\n", run->transfer->tail * 1e6);
    if (run->transfer->eager_slope >= 0)
        fprintf(out, "(send + recv per byte, %.1f ns/KiB, against the ping-pong's slope over "
                     "the eager sizes, %.1f ns/KiB: the send's tail per byte %.1f ns/KiB, "
                     "spent after its message left (the excess, within 0 and the send's); "
                     "per byte, an eager message's copies)\n",
                (run->transfer->send.b + run->transfer->recv.b) * run->transfer->scale * 1024e9,
                run->transfer->eager_slope * 1024e9, run->transfer->tail_per_byte * 1024e9);
    else if (run->transfer->per_byte_scale < 1)
        fprintf(out, "(send and recv scaled by %.3g per byte, to fit within "
                     "the ping-pong: every time from 1 KiB up and the largest sizes' slope%s)\n",
                run->transfer->per_byte_scale,
                run->transfer->exchange_room
                    ? "; and to leave the transfer room for the exchanges both ways, at most "
                      "2 t(m) - exchange(m)" : "");
}

void pz_cal_print_cold(FILE *out, const struct pz_calibration_run *run)
{
    char a[32], b[32];

    fprintf(out, "%12s %12s %12s %8s   %s\n", "size (B)", "warm (us)", "cold (us)", "ratio",
            "segments use");
    for (int i = 0; i < run->ncold; i++) {
        double warm = one_way(run, run->cold[i].bytes);

        fprintf(out, "%12.0f %12.3f %12.3f %8.2f   %s\n", run->cold[i].bytes, warm * 1e6,
                run->cold[i].time * 1e6, warm > 0 ? run->cold[i].time / warm : 0,
                pz_cal_cold_used(run, i) ? "cold" : "warm");
    }
    fprintf(out, "(cold: each rank rotating among buffers of a %s pool; the cache is %s)\n",
            pz_cal_size(a, sizeof(a), run->cold_pool),
            run->cache_size > 0 ? pz_cal_size(b, sizeof(b), run->cache_size) : "unknown");
}

void pz_cal_print_resume(FILE *out, const struct pz_calibration_run *run)
{
    const struct pz_resume_fit *f = run->resume;
    int n = run->nresume, passes = run->resume_passes;
    char a[32], b[32], c[32], d[32];

    if (n == 0 || !f || passes > MAX_RESUME_PASSES)
        return;
    fprintf(out, "%14s   %s\n", "computed (us)",
            "exchange of each pass (us), and their median beyond the first row's");
    for (int i = 0; i < n; i++) {
        double beyond[MAX_RESUME_PASSES];

        fprintf(out, "%14.0f  ", run->resume_computed[i] * 1e6);
        for (int p = 0; p < passes; p++) {
            fprintf(out, " %9.3f", run->resume_extra[p * n + i] * 1e6);
            beyond[p] = run->resume_extra[p * n + i] - run->resume_extra[p * n];
        }
        fprintf(out, "   %+9.3f\n", pz_fit_median(beyond, passes) * 1e6);
    }
    fprintf(out, "resume: %s +- %s, in full after %s of computation (%s both ways after "
                 "computing, beyond the same after none: the median over the %d computations "
                 "from %.0f us; the ramp ends no sooner than the %.0f us the computation takes "
                 "to touch as much memory as the second-level cache holds)\n",
            human_time(a, sizeof(a), f->overhead), human_time(b, sizeof(b), f->spread),
            human_time(c, sizeof(c), f->after), pz_cal_size(d, sizeof(d), run->resume_bytes),
            f->points, PZ_RESUME_PLATEAU * 1e6, f->shortest * 1e6);
}

/* The ping-pong's statistics at bytes; NULL when that size was not measured. */
static const struct pz_cal_stats *pingpong_stats_at(const struct pz_calibration_run *run,
                                                    double bytes)
{
    for (int i = 0; run->pingpong_stats && i < run->npoints; i++)
        if (run->points[i].bytes == bytes)
            return &run->pingpong_stats[i];
    return NULL;
}

static void print_stats(FILE *out, const struct pz_cal_stats *s)
{
    fprintf(out, " %8.3f %8.3f %8.3f %8.3f %+7.3f", s->lower_quartile * 1e6, s->median * 1e6,
            s->mean * 1e6, s->trimmed * 1e6, (s->trimmed - s->lower_quartile) * 1e6);
}

void pz_cal_print_program(FILE *out, const struct pz_calibration_run *run)
{
    int stalls = 0;

    if (run->nprogram == 0)
        return;
    fprintf(out, "%10s  %-44s  %s\n", "", "ping-pong, one way (us)",
            "program loop: computing, then both ways (us)");
    fprintf(out, "%10s  %8s %8s %8s %8s %7s  %8s %8s %8s %8s %7s\n", "size (B)", "lq", "median",
            "mean", "trimmed", "excess", "lq", "median", "mean", "trimmed", "excess");
    for (int i = 0; i < run->nprogram; i++) {
        const struct pz_cal_stats *p = pingpong_stats_at(run, run->program_bytes[i]);

        fprintf(out, "%10.0f ", run->program_bytes[i]);
        if (p)
            print_stats(out, p);
        else
            fprintf(out, " %44s", "");
        fprintf(out, " ");
        print_stats(out, &run->program_stats[i]);
        fprintf(out, "\n");
        stalls += run->program_stats[i].stalls;
    }
    fprintf(out, "(the program loop computes %.0f us before each exchange; excess: the trimmed "
                 "mean beyond the lower quartile; the trimmed mean leaves out %d time(s) over "
                 "%.0f times their median or %.0f ms beyond their lower quartile, which waited "
                 "for the scheduler; the keys are fitted to the trimmed means)\n",
            run->program_compute * 1e6, stalls, PZ_CAL_STALL_TIMES, PZ_CAL_STALL_SECONDS * 1e3);
}

void pz_cal_print_segments(FILE *out, const struct pz_calibration_run *run)
{
    const struct pz_transfer_fit *t = run->transfer;
    const struct pz_segment_fit *f = t ? &t->segments : NULL;
    char a[32], b[64], c[64];

    if (!f || f->segments.n == 0) {
        fprintf(out, "segments           none: too few sizes to fit\n");
        return;
    }
    fprintf(out, "%9s %14s %12s\n", "segments", "sum of err^2", "criterion");
    for (int k = 1; k <= f->tried; k++)
        fprintf(out, "%9d %14.6g %12.2f%s\n", k, f->sse[k - 1], f->bic[k - 1],
                k == f->segments.n ? "  <- chosen" : "");
    fprintf(out, "%12s %12s %14s\n", "up to", "latency", "bandwidth");
    for (int i = 0; i < f->segments.n; i++) {
        const struct pz_segment *g = &f->segments.seg[i];

        fprintf(out, "%12s %12s %14s\n", pz_cal_size(a, sizeof(a), g->upto),
                human_time(b, sizeof(b), g->latency), human_rate(c, sizeof(c), g->bandwidth));
    }
    if (f->bounded > 0)
        fprintf(out, "(%d segment(s) held at %.0fx the fastest rate measured, %s: the overheads "
                     "took the rest of their slope)\n",
                f->bounded, PZ_SEG_RATE_BOUND, human_rate(c, sizeof(c), f->bandwidth_bound));
    fprintf(out, "segments + overheads: median |error| %.2f%%, largest %.2f%%; the cost model "
                 "+ overheads %.2f%%: %s\n",
            f->median_error, f->max_error, t->previous_error,
            t->segments_kept ? "segments written" : "segments not written");
}

double pz_cal_back_to_back(const struct pz_calibration_run *run)
{
    double first[MAX_RESUME_PASSES];
    int passes = run->resume_passes;

    if (run->nresume == 0 || passes < 1 || passes > MAX_RESUME_PASSES)
        return NAN;
    for (int p = 0; p < passes; p++)
        first[p] = run->resume_extra[p * run->nresume];
    return pz_fit_median(first, passes);
}

/* The measured exchange after a barrier of bytes; NULL if that size was not exchanged. */
static const struct pz_cal_exchange *exchanged(const struct pz_calibration_run *run,
                                               double bytes)
{
    for (int i = 0; i < run->nexchanges; i++)
        if (run->exchanges[i].bytes == bytes)
            return &run->exchanges[i];
    return NULL;
}

void pz_cal_print_duplex_overhead(FILE *out, const struct pz_calibration_run *run)
{
    const struct pz_duplex_overhead_fit *f = run->duplex_overhead;
    const struct pz_overhead *o;
    const struct pz_cal_exchange *barrier;
    char a[32], b[32], c[32], d[32], e[32];

    if (!f)
        return;
    o = &f->overhead;
    fprintf(out, "back to back: %s both ways %s (after computing nothing, the median of the "
                 "passes); the model as written %s (error %.2f%%)\n",
            pz_cal_size(a, sizeof(a), f->bytes), human_time(b, sizeof(b), f->measured),
            human_time(c, sizeof(c), f->as_written), pz_fit_error(f->measured, f->as_written));
    fprintf(out, "with the send overhead at its measured %s + %s/KiB, the receive's %s + %s/KiB "
                 "(what the ping-pong leaves it)\n",
            human_time(a, sizeof(a), o->send), human_time(b, sizeof(b), o->send_per_byte * 1024),
            human_time(c, sizeof(c), o->recv), human_time(d, sizeof(d), o->recv_per_byte * 1024));
    fprintf(out, "and %d segment(s) refitted over them (median |error| %.2f%%, largest %.2f%%): "
                 "duplex_overhead %s%s makes it %s (error %.2f%%)\n",
            f->segments.segments.n, f->segments.median_error, f->segments.max_error,
            human_time(e, sizeof(e), f->duplex_overhead), f->beyond ? " (held at its bound)" : "",
            human_time(b, sizeof(b), f->model), pz_fit_error(f->measured, f->model));
    barrier = exchanged(run, f->bytes);
    if (barrier)
        fprintf(out, "and the exchange both ways after a barrier, rank 1 leaving it %s later, "
                     "%s, measured %s (error %.2f%%)\n",
                human_time(a, sizeof(a), barrier->skew), human_time(b, sizeof(b), f->exchange),
                human_time(c, sizeof(c), barrier->time), pz_fit_error(barrier->time, f->exchange));
    fprintf(out, "(a check: neither the overheads at their measured size nor this duplex_overhead "
                 "are written; the measured one is, docs/calibrate.md)\n");
}
