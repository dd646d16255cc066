/* The fit of self_segments to the messages a process sent itself (calibrate_self.h). */
#include <math.h>
#include <stdlib.h>

#include "calibrate_out.h"
#include "calibrate_self.h"
#include "cost.h"

double pz_cal_self_model(const struct pz_machine *m, double bytes)
{
    double t = pz_send_overhead(m, bytes, 1) + pz_recv_overhead(m, bytes, 1), rest = bytes;
    double first = m->rendezvous_first_fragment;

    if (m->self_segments.n > 0)
        return pz_self_time(m, bytes);
    if (bytes > m->eager_threshold && !(first > 0)) {
        t += 2 * pz_self_time(m, 0) + m->rendezvous_overhead;
    } else if (bytes > m->eager_threshold && bytes > first) {
        /* the fragment with the request, the clear-to-send, the rest */
        t += pz_self_time(m, first) + pz_self_time(m, 0) + m->rendezvous_overhead;
        rest = bytes - first;
    }
    return t + pz_self_time(m, rest);
}

/* Median and largest |error| in percent of the model on m against the n times p. */
static void errors_on(const struct pz_machine *m, const struct pz_pingpong *p, int n,
                      double *median, double *max)
{
    double *e = malloc((size_t)(n > 0 ? n : 1) * sizeof(*e));

    *median = *max = NAN;
    if (!e || n < 1) {
        free(e);
        return;
    }
    *max = 0;
    for (int i = 0; i < n; i++) {
        e[i] = fabs(pz_fit_error(p[i].time, pz_cal_self_model(m, p[i].bytes)));
        *max = fmax(*max, e[i]);
    }
    *median = pz_fit_median(e, n);
    free(e);
}

void pz_cal_fit_self(const struct pz_pingpong *p, int n, const struct pz_machine *m,
                     struct pz_cal_self_fit *out)
{
    struct pz_segment_base base = { { 0, 0, 0, 0 }, 0, 0, 0, 0 };   /* the segments alone */
    struct pz_machine with = *m;

    pz_fit_segments(p, n, &base, &out->segments);
    errors_on(m, p, n, &out->default_median_error, &out->default_max_error);
    out->median_error = out->max_error = NAN;
    out->kept = 0;
    if (out->segments.segments.n == 0)
        return;
    out->segments.segments.seg[out->segments.segments.n - 1].upto = PZ_CAL_SELF_LAST_BOUND;
    with.self_segments = out->segments.segments;
    errors_on(&with, p, n, &out->median_error, &out->max_error);
    out->kept = !(out->default_median_error <= out->median_error);
}

void pz_cal_self_to_machine(const struct pz_cal_self_fit *fit, struct pz_machine *m)
{
    if (fit->kept)
        m->self_segments = fit->segments.segments;
}

void pz_cal_print_self(FILE *out, const struct pz_pingpong *p, int n,
                       const struct pz_cal_self_fit *fit, const struct pz_machine *before,
                       const struct pz_machine *after)
{
    const struct pz_segments *s = &fit->segments.segments;
    char size[32];

    fprintf(out, "Messages to oneself (MPI_Irecv + MPI_Isend to itself + MPI_Waitall, trimmed "
                 "mean):\n%10s %12s %12s %8s %12s %8s\n",
            "size", "measured us", "shm_ us", "error %", "fitted us", "error %");
    for (int i = 0; i < n; i++) {
        double a = pz_cal_self_model(before, p[i].bytes);
        double b = pz_cal_self_model(after, p[i].bytes);

        fprintf(out, "%10s %12.3f %12.3f %8.1f %12.3f %8.1f\n",
                pz_cal_size(size, sizeof(size), p[i].bytes), p[i].time * 1e6, a * 1e6,
                pz_fit_error(p[i].time, a), b * 1e6, pz_fit_error(p[i].time, b));
    }
    for (int i = 0; i < s->n; i++)
        fprintf(out, "self segment %d: up to %s, %.3f us + bytes / %.4g B/s\n", i + 1,
                i + 1 < s->n ? pz_cal_size(size, sizeof(size), s->seg[i].upto) : "any size",
                s->seg[i].latency * 1e6, s->seg[i].bandwidth);
    fprintf(out, "self_segments: median |error| %.2f%% (largest %.2f%%), the shm_ cost "
                 "%.2f%% (largest %.2f%%): %s\n",
            fit->median_error, fit->max_error, fit->default_median_error,
            fit->default_max_error, fit->kept ? "written" : "not written");
}

const char *pz_cal_self_note(char *buf, size_t len, int n, const struct pz_cal_self_fit *fit)
{
    snprintf(buf, len,
             "self_segments: rank 0 sent itself a message at %d sizes (MPI_Irecv, MPI_Isend\n"
             "to itself, MPI_Waitall; the trimmed mean of the repetitions); %d segment(s)\n"
             "fitted as the segments above, to the times themselves, the last one for any\n"
             "larger size (with them a message to oneself costs them alone: no overheads,\n"
             "no rendezvous).\n"
             "Median |error| %.2f%%, largest %.2f%%; the shm_ cost alone %.2f%%",
             n, fit->segments.segments.n, fit->median_error, fit->max_error,
             fit->default_median_error);
    return buf;
}
