/* Calibration: the parameters of the cost models fitted to ping-pong measurements, by
 * the method of shared/seeds/002 (docs/calibrate.md).  Pure arithmetic, no MPI: the
 * measurement is tools/calibrate_mpi.c's. */
#ifndef PZ_CALIBRATE_FIT_H
#define PZ_CALIBRATE_FIT_H

#include <stddef.h>

#include "machine.h"

/* One message size of a ping-pong: its half round trip (or another time of that size). */
struct pz_pingpong {
    double bytes;
    double time;   /* s */
};

/* What the fit found.  Hockney (002's model C): latency + bytes / bandwidth.  The
 * packet model (002's model B, docs/machines.md): start0, start1, wire_bandwidth with
 * the given packet_size and packet_header. */
struct pz_fit {
    double latency;           /* s: the half round trip of 0-byte messages: the median of
                                 t(m) - m / bandwidth over the sizes m up to
                                 PZ_FIT_LATENCY_TO, so that one disturbed size does not
                                 move it */
    double bandwidth;         /* B/s: 1 / the slope of time over the largest sizes */
    int bandwidth_points;     /* how many of the largest sizes (at most 64) give it */
    double bandwidth_from;    /* B: the smallest of them */
    int bandwidth_max_rate;   /* 1: that slope was not positive, the highest rate is used */
    double packet_size;       /* B: V_max, as given */
    double packet_header;     /* B: V_c, as given */
    double start0;            /* s: the packet model's t_start0 */
    double start1;            /* s/B: the packet model's t_start1 */
    double wire_bandwidth;    /* B/s: the packet model's 1 / t_k, headers included */
    int startup_points;       /* sizes of one packet the start-up line is fitted to */
    double eager_threshold;   /* B: the last size before the step, 0 if there is none */
    double step;              /* the step: the rise of ln(time / Hockney's time) */
    double step_to;           /* B: the first size after the step */
    double rendezvous_overhead;   /* s: the step's rise in time beyond the bandwidth's
                                     share and the two extra latencies of a rendezvous,
                                     between the median levels of the sizes on each side */
    double first_fragment;    /* B: a rendezvous message's bytes that travel with its
                                 request (machine key rendezvous_first_fragment): not
                                 fitted, the caller sets it before the segments are
                                 fitted to the protocol's shape; 0: none */
};

/* The latency: the sizes up to this many bytes (0, 1, 2, 4, 8) all measure it. */
#define PZ_FIT_LATENCY_TO 8.0

/* The eager threshold: the largest step of ln(time / Hockney's time) from a size in
 * [PZ_FIT_STEP_FROM, PZ_FIT_STEP_TO] to the next, at least PZ_FIT_STEP_MIN (about 5%),
 * that PZ_FIT_STEP_SIZES sizes after it keep and that one size before it cannot fake
 * (calibrate_fit.c, docs/calibrate.md). */
#define PZ_FIT_STEP_FROM 1024.0
#define PZ_FIT_STEP_TO 1048576.0
#define PZ_FIT_STEP_MIN 0.05
#define PZ_FIT_STEP_SIZES 3

/* The q-quantile (0 to 1, linear between order statistics) of the n values v, sorted in
 * place; NAN for none. */
double pz_fit_quantile(double *v, int n, double q);

/* Fits the n points (sizes strictly increasing, the first one 0 bytes, times > 0) with
 * the packet model's V_max = packet_size and V_c = packet_header.  Returns 0, or -1 with
 * a one-line reason in err (too few points, no 0-byte point, sizes out of order, a
 * packet header not smaller than the packet). */
int pz_fit_pingpong(const struct pz_pingpong *p, int n, double packet_size,
                    double packet_header, struct pz_fit *fit, char *err, size_t errlen);

/* The time of a message of `bytes` by each model of 002 with the fitted parameters:
 * model A, latency + (bytes + V_c) / bandwidth (a constant time t_c = V_c / bandwidth
 * for the header added to Hockney's); model B, the packet model; model C, Hockney. */
double pz_fit_model_a(const struct pz_fit *fit, double bytes);
double pz_fit_model_b(const struct pz_fit *fit, double bytes);
double pz_fit_model_c(const struct pz_fit *fit, double bytes);

/* The median of the n values v (sorted in place); NAN for none. */
double pz_fit_median(double *v, int n);

/* Theil and Sen's line time = a + b * bytes through the points p[i] with from <= bytes
 * <= to (p in increasing size): b the median of the slopes between every two, a the
 * median of time - b * bytes, so that one slow size (a preempted round trip) neither
 * tilts nor lifts it as it would a least-squares line.  Returns how many points there
 * were; the line is set only for 2 or more (the sizes are distinct), or when memory
 * runs out -1. */
int pz_fit_robust_line(const struct pz_pingpong *p, int n, double from, double to, double *a,
                       double *b);

/* The error of a model in percent, as 002's table gives it: (measured - model) /
 * measured * 100 (positive: the model predicts less than was measured). */
double pz_fit_error(double measured, double model);

/* The median of |error| of a model (pz_fit_model_a, _b or _c) over the points. */
double pz_fit_median_error(const struct pz_fit *fit, const struct pz_pingpong *p, int n,
                           double (*model)(const struct pz_fit *, double));

/* Sets the keys of m the measurement gives: cost_model (the packet model when its
 * median |error| over p is smaller than Hockney's), latency, latency_per_byte and
 * bandwidth for that model, packet_size, packet_header, eager_threshold and
 * rendezvous_overhead (when a step was found), rendezvous_first_fragment (the
 * caller's first_fragment), and, when same_node, shm_latency and shm_bandwidth
 * (Hockney's). */
void pz_fit_to_machine(const struct pz_fit *fit, const struct pz_pingpong *p, int n,
                       int same_node, struct pz_machine *m);

#endif
