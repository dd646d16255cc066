/* Calibration: the fit of model/calibrate_fit.c on synthetic ping-pong times made
 * from known parameters (Hockney's with a rendezvous step, the packet model), with and
 * without a little deterministic noise, recovers them; machine files written by
 * pz_machine_write and by prognoz-calibrate's writer load back exactly. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate_coll_note.h"
#include "calibrate_copy.h"
#include "calibrate_fit.h"
#include "calibrate_out.h"
#include "calibrate_resume.h"
#include "calibrate_stats.h"
#include "calibrate_duplex.h"
#include "calibrate_duplex_note.h"
#include "calibrate_segments.h"
#include "cost.h"
#include "machine.h"

#define MAXP 256

/* The sizes prognoz-calibrate measures by default: 0, the powers of two to 16 MiB,
 * every 128 B below a packet's payload, around one and two packets, and 4 sizes per
 * octave from 1 KiB to 1 MiB. */
static int sizes(double *s)
{
    double tmp[MAXP];
    int n = 0, k = 0;

    tmp[n++] = 0;
    for (double p = 1; p <= 16777216; p *= 2)
        tmp[n++] = p;
    for (int j = 1; j * 128 < 1422; j++)
        tmp[n++] = j * 128;
    tmp[n++] = 1422;
    tmp[n++] = 1423;
    tmp[n++] = 1500;
    tmp[n++] = 1501;
    tmp[n++] = 2844;
    tmp[n++] = 2845;
    for (int e = 40; e <= 80; e++)
        tmp[n++] = round(pow(2, e / 4.0));
    for (int e = 41; e < 48; e += 2)
        tmp[n++] = round(pow(2, e / 2.0));
    for (int i = 0; i < n; i++)   /* insertion sort, then drop repeats */
        for (int j = i; j > 0 && tmp[j] < tmp[j - 1]; j--) {
            double t = tmp[j];

            tmp[j] = tmp[j - 1];
            tmp[j - 1] = t;
        }
    for (int i = 0; i < n; i++)
        if (k == 0 || tmp[i] != s[k - 1])
            s[k++] = tmp[i];
    return k;
}

/* Deterministic noise in [-amplitude, amplitude]: a linear congruential generator. */
static double noise(unsigned *state, double amplitude)
{
    *state = *state * 1103515245u + 12345u;
    return amplitude * (((*state >> 8) & 0xffff) / 32767.5 - 1);
}

/* Hockney's model with a step of `extra` seconds above `eager` bytes (a rendezvous'
 * handshake), times scaled by 1 + noise. */
static int hockney_points(struct pz_pingpong *p, double alpha, double beta, double eager,
                          double extra, double amplitude)
{
    double s[MAXP];
    unsigned state = 12345;
    int n = sizes(s);

    for (int i = 0; i < n; i++) {
        p[i].bytes = s[i];
        p[i].time = (alpha + s[i] / beta + (s[i] > eager ? extra : 0)) *
                    (1 + noise(&state, amplitude));
    }
    return n;
}

/* The packet model of 002 by cost.c, times scaled by 1 + noise. */
static int packet_points(struct pz_pingpong *p, double t0, double t1, double wire,
                         double amplitude)
{
    struct pz_machine m;
    double s[MAXP];
    unsigned state = 777;
    int n = sizes(s);

    pz_machine_defaults(&m);
    m.cost_model = PZ_COST_PACKET;
    m.latency = t0;
    m.latency_per_byte = t1;
    m.bandwidth = wire;
    for (int i = 0; i < n; i++) {
        p[i].bytes = s[i];
        p[i].time = pz_message_time(&m, s[i]) * (1 + noise(&state, amplitude));
    }
    return n;
}

static void assert_rel(double got, double want, double tol, const char *what)
{
    cr_assert(fabs(got - want) <= tol * fabs(want), "%s: %.9g, expected %.9g within %g%%",
              what, got, want, tol * 100);
}

static double after(double bytes)
{
    double s[MAXP];
    int n = sizes(s);

    for (int i = 0; i < n; i++)
        if (s[i] > bytes)
            return s[i];
    return 0;
}

Test(fit, hockney_with_a_rendezvous_step)
{
    struct pz_pingpong p[MAXP];
    struct pz_fit f;
    char err[256];
    int n = hockney_points(p, 50e-6, 100e6, 16384, 100e-6, 0);

    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
    assert_rel(f.latency, 50e-6, 1e-12, "latency");
    assert_rel(f.bandwidth, 100e6, 1e-9, "bandwidth");
    cr_assert_eq(f.bandwidth_points, 9, "1 MiB to 16 MiB, 2 per octave: %d", f.bandwidth_points);
    cr_assert_eq(f.eager_threshold, 16384, "eager threshold %g", f.eager_threshold);
    cr_assert_eq(f.step_to, after(16384));
    cr_assert(fabs(f.rendezvous_overhead) < 1e-12,
              "a step of exactly two latencies leaves no overhead: %g", f.rendezvous_overhead);
    for (int i = 0; i < n; i++)   /* Hockney is exact away from the step */
        if (p[i].bytes <= 16384)
            cr_assert(fabs(pz_fit_error(p[i].time, pz_fit_model_c(&f, p[i].bytes))) < 1e-9);
}

/* A rendezvous that costs 130 us more than an eager message of the same size: two
 * latencies of 50 us (request-to-send, clear-to-send) and 30 us of the protocol's own. */
Test(fit, the_rendezvous_overhead_beyond_two_latencies)
{
    struct pz_pingpong p[MAXP];
    struct pz_machine m;
    struct pz_fit f;
    char err[256];
    int n = hockney_points(p, 50e-6, 100e6, 16384, 130e-6, 0);

    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
    assert_rel(f.rendezvous_overhead, 30e-6, 1e-9, "rendezvous overhead");
    pz_machine_defaults(&m);
    pz_fit_to_machine(&f, p, n, 0, &m);
    assert_rel(m.rendezvous_overhead, 30e-6, 1e-9, "the machine's rendezvous_overhead");
}

Test(fit, hockney_with_a_step_and_two_percent_noise)
{
    struct pz_pingpong p[MAXP];
    struct pz_fit f;
    char err[256];
    int n = hockney_points(p, 30e-6, 117e6, 65536, 60e-6, 0.02);

    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
    assert_rel(f.latency, 30e-6, 0.02, "latency");
    assert_rel(f.bandwidth, 117e6, 0.03, "bandwidth");
    cr_assert_eq(f.eager_threshold, 65536, "eager threshold %g", f.eager_threshold);
}

Test(fit, no_step_without_one)
{
    struct pz_pingpong p[MAXP];
    struct pz_fit f;
    char err[256];
    int n = hockney_points(p, 30e-6, 117e6, INFINITY, 0, 0.02);

    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(f.eager_threshold, 0, "a step at %g B in noise alone", f.eager_threshold);
}

Test(fit, one_slow_size_is_no_step)
{
    struct pz_pingpong p[MAXP];
    struct pz_fit f;
    char err[256];
    int n = hockney_points(p, 30e-6, 117e6, INFINITY, 0, 0);

    for (int i = 0; i < n; i++)
        if (p[i].bytes == 65536)
            p[i].time *= 3;
    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(f.eager_threshold, 0, "a spike taken for a step at %g B", f.eager_threshold);
}

/* Hockney's 30 us and 117 MB/s with a rendezvous above 16 KiB that costs 100 us more:
 * two latencies and 40 us of the protocol's own.  One size disturbed by the load (a 0-B
 * or 1-KiB round trip of 5.3 ms, the last eager size 3 times slower, the first
 * rendezvous size 6 ms later, the size two before the threshold 3 times slower) moves
 * nothing: the latency is the median of five sizes' t(m) - m / bandwidth, the four
 * undisturbed ones exactly 30 us; the step is the lowest of the three sizes after it
 * against the higher of the last eager size and the median of three; the overhead the
 * difference of the medians of three sizes above Hockney's line on each side, exactly
 * 100 us and 0 without the disturbed one: 100 - 2 x 30 = 40 us.  The one ambiguity: a
 * disturbed last eager size looks like the first rendezvous one, and the threshold is
 * the size before it (13777 B, 2^13.75), one size early; the overhead stays. */
Test(fit, one_disturbed_size_moves_neither_latency_nor_threshold_nor_overhead)
{
    double disturbed[] = { 0, 1024, 16384, 0, 12288 };
    double factor[] = { 0, 0, 3, 0, 3 }, added[] = { 5.3e-3, 5.3e-3, 0, 6e-3, 0 };
    double threshold[] = { 16384, 16384, 13777, 16384, 16384 };

    disturbed[3] = after(16384);
    for (size_t k = 0; k < sizeof(disturbed) / sizeof(disturbed[0]); k++) {
        struct pz_pingpong p[MAXP];
        struct pz_fit f;
        char err[256];
        int n = hockney_points(p, 30e-6, 117e6, 16384, 100e-6, 0);

        for (int i = 0; i < n; i++)
            if (p[i].bytes == disturbed[k])
                p[i].time = factor[k] > 0 ? p[i].time * factor[k] : p[i].time + added[k];
        cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
        assert_rel(f.latency, 30e-6, 1e-9, "latency");
        cr_assert_eq(f.eager_threshold, threshold[k], "%g B disturbed: eager threshold %g",
                     disturbed[k], f.eager_threshold);
        assert_rel(f.rendezvous_overhead, 40e-6, 1e-6, "rendezvous overhead");
    }
}

/* The same with 1% noise: the latency is within 1% (a median of values each within
 * 1%); the step of 100 us over about 170 us is far above the noise, so the threshold
 * stays; each median level is within 1% of its times (170 us before, 270 us after the
 * step at 16 KiB): 40 us within 1.7 + 2.7 = 4.4 us, 11%. */
Test(fit, one_disturbed_size_in_noise)
{
    double disturbed[] = { 0, 1024, 12288, 0 };

    disturbed[3] = after(16384);
    for (size_t k = 0; k < sizeof(disturbed) / sizeof(disturbed[0]); k++) {
        struct pz_pingpong p[MAXP];
        struct pz_fit f;
        char err[256];
        int n = hockney_points(p, 30e-6, 117e6, 16384, 100e-6, 0.01);

        for (int i = 0; i < n; i++)
            if (p[i].bytes == disturbed[k])
                p[i].time += 5.3e-3;
        cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
        assert_rel(f.latency, 30e-6, 0.01, "latency");
        cr_assert_eq(f.eager_threshold, 16384, "%g B disturbed: eager threshold %g",
                     disturbed[k], f.eager_threshold);
        assert_rel(f.rendezvous_overhead, 40e-6, 0.11, "rendezvous overhead");
    }
}

/* Quantiles, linear between order statistics. */
Test(fit, quantiles)
{
    double q[] = { 4, 1, 3, 2, 5 };

    /* the lower quartile of 1..5: position 0.25 x 4 = 1, the second value; of 1..4 (after
     * the 5 is dropped) 0.75 between 1 and 2 */
    assert_rel(pz_fit_quantile(q, 5, 0.25), 2, 1e-12, "quartile of five");
    assert_rel(pz_fit_quantile(q, 4, 0.25), 1.75, 1e-12, "quartile of four");
}

Test(fit, the_packet_model_of_002)
{
    struct pz_pingpong p[MAXP];
    struct pz_fit f;
    struct pz_machine m;
    char err[256];
    int n = packet_points(p, 100e-6, 20e-9, 12.5e6, 0);

    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
    assert_rel(f.start0, 100e-6, 1e-3, "t_start0");
    assert_rel(f.start1, 20e-9, 1e-3, "t_start1");
    assert_rel(f.wire_bandwidth, 12.5e6, 1e-3, "wire bandwidth");
    cr_assert_eq(f.startup_points, 21, "0, 1, 2 .. 1024, 384, 640 .. 1408, 1218, 1422: %d",
                 f.startup_points);
    /* The latency is the median over 0, 1, 2, 4 and 8 B of t(m) - m / bandwidth, where
     * t(m) = t0 + t1 m + (m + 78) t_k and 1 / bandwidth = t_k 1500 / 1422: t0 + 78 t_k +
     * m (t1 + t_k (1 - 1500 / 1422)), increasing with m, so the median is that of 2 B
     * (the fitted bandwidth, a slope over whole packets, is that within 0.1%: 2 B of it
     * are 1e-8 of the latency). */
    assert_rel(f.latency, 100e-6 + 78 / 12.5e6 + 2 * (20e-9 + (1 - 1500.0 / 1422) / 12.5e6),
               1e-7, "latency (0 bytes)");
    cr_assert_eq(f.eager_threshold, 0, "the packets' steps are no eager step (%g B)",
                 f.eager_threshold);
    for (int i = 0; i < n; i++)
        cr_assert(fabs(pz_fit_error(p[i].time, pz_fit_model_b(&f, p[i].bytes))) < 0.1,
                  "model B at %g B", p[i].bytes);
    pz_machine_defaults(&m);
    pz_fit_to_machine(&f, p, n, 0, &m);
    cr_assert_eq(m.cost_model, PZ_COST_PACKET);
    cr_assert_eq(m.latency, f.start0);
    cr_assert_eq(m.latency_per_byte, f.start1);
    cr_assert_eq(m.bandwidth, f.wire_bandwidth);
    cr_assert_eq(m.eager_threshold, 65536, "no step: the default stays");
    cr_assert_eq(m.shm_latency, 1e-6, "two nodes: the shm keys keep their defaults");
}

Test(fit, the_packet_model_with_one_percent_noise)
{
    struct pz_pingpong p[MAXP];
    struct pz_fit f;
    char err[256];
    int n = packet_points(p, 100e-6, 20e-9, 12.5e6, 0.01);

    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
    assert_rel(f.start0, 100e-6, 0.03, "t_start0");
    assert_rel(f.start1, 20e-9, 0.10, "t_start1");
    assert_rel(f.wire_bandwidth, 12.5e6, 0.02, "wire bandwidth");
    cr_assert_eq(f.eager_threshold, 0);
}

/* One preempted size among those of one packet: 640 B taking 5 ms instead of about
 * 0.12 ms.  Theil and Sen's line, the median of the 210 slopes between the 21 sizes,
 * keeps the 190 slopes between the other 20, which are exact: t_start0 and t_start1
 * stay those of the data (a least-squares line through the 21 would lift t_start0 by
 * about 5 ms / 21 and tilt t_start1). */
Test(fit, one_preempted_size_moves_no_start_up)
{
    struct pz_pingpong p[MAXP];
    struct pz_fit f;
    char err[256];
    int n = packet_points(p, 100e-6, 20e-9, 12.5e6, 0);

    for (int i = 0; i < n; i++)
        if (p[i].bytes == 640)
            p[i].time = 5e-3;
    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
    assert_rel(f.start0, 100e-6, 1e-3, "t_start0");
    assert_rel(f.start1, 20e-9, 1e-2, "t_start1");
}

/* The two largest sizes (11.3 and 16 MiB) 1.5 times slow.  The bandwidth's sizes are
 * the 9 from 1 MiB up (2 per octave): of their 36 slopes, the 21 between the other 7 are
 * exact, and the 15 with a slow size are steeper (7 up to each slow size, and the one
 * between the two, both times 1.5, so 1.5 times as steep).  The median, the 18th and
 * 19th of 36 in order, is then among the 21 exact ones: the bandwidth stays 2 GB/s.
 * With the 5 powers of two alone, 7 of the 10 slopes would be steeper and the median
 * one of them: 1.29 GB/s. */
Test(fit, two_slow_sizes_among_the_largest_keep_the_bandwidth)
{
    struct pz_pingpong p[MAXP];
    struct pz_fit f;
    char err[256];
    int n = hockney_points(p, 5e-6, 2e9, 8192, 10e-6, 0);

    cr_assert_eq(p[n - 9].bytes, 1048576, "9 sizes from 1 MiB up");
    p[n - 1].time *= 1.5;
    p[n - 2].time *= 1.5;
    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(f.bandwidth_points, 9);
    assert_rel(f.bandwidth, 2e9, 1e-9, "bandwidth");
}

Test(fit, hockney_data_chooses_hockney_and_one_node_sets_shm)
{
    struct pz_pingpong p[MAXP];
    struct pz_fit f;
    struct pz_machine m;
    char err[256];
    int n = hockney_points(p, 5e-6, 2e9, 8192, 10e-6, 0);

    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
    pz_machine_defaults(&m);
    pz_fit_to_machine(&f, p, n, 1, &m);
    cr_assert_eq(m.cost_model, PZ_COST_HOCKNEY);
    cr_assert_eq(m.latency, f.latency);
    cr_assert_eq(m.bandwidth, f.bandwidth);
    cr_assert_eq(m.eager_threshold, 8192);
    cr_assert_eq(m.shm_latency, f.latency);
    cr_assert_eq(m.shm_bandwidth, f.bandwidth);
}

/* 002's table, 2000-byte row: 495 us measured, model C 34.80% below it. */
Test(fit, errors_as_002_gives_them)
{
    struct pz_fit f = { .latency = 150e-6, .bandwidth = 1 / 86.2e-9, .packet_header = 78 };

    assert_rel(pz_fit_error(495e-6, 322.74e-6), 34.80, 1e-3, "error");
    cr_assert(pz_fit_error(1, 2) < 0, "a model above the measurement: a negative error");
    assert_rel(pz_fit_model_c(&f, 2000), 150e-6 + 2000 * 86.2e-9, 1e-12, "model C");
    assert_rel(pz_fit_model_a(&f, 2000) - pz_fit_model_c(&f, 2000), 78 * 86.2e-9, 1e-9,
               "model A adds t_c = V_c t_k");
}

/* The progress probe (prognoz-calibrate): a 16 MiB MPI_Isend whose sender computes 20 ms
 * before its wait.  Received 5 ms after posting: the library moved it meanwhile,
 * background; 20 ms or later: only in the wait, in_calls.  A probe no larger than the
 * eager threshold, or no threshold found, tells nothing: background, the default. */
Test(fit, the_progress_probe_decides_how_rendezvous_progresses)
{
    struct pz_calibration_run run = { .probe_bytes = 16777216, .probe_compute = 20e-3 };
    struct pz_fit fit = { .eager_threshold = 16384 };

    run.probe_received = 5e-3;
    cr_assert_eq(pz_cal_progress(&run, &fit), PZ_PROGRESS_BACKGROUND);
    run.probe_received = 20e-3;
    cr_assert_eq(pz_cal_progress(&run, &fit), PZ_PROGRESS_IN_CALLS);
    run.probe_received = 24.5e-3;
    cr_assert_eq(pz_cal_progress(&run, &fit), PZ_PROGRESS_IN_CALLS);
    fit.eager_threshold = 16777216;
    cr_assert_eq(pz_cal_progress(&run, &fit), PZ_PROGRESS_BACKGROUND, "an eager probe");
    fit.eager_threshold = 0;
    cr_assert_eq(pz_cal_progress(&run, &fit), PZ_PROGRESS_BACKGROUND, "no threshold found");
}

/* The warning of a loaded machine: 0 B, 1 MiB and 16 MiB taking 3 us, 1 ms and 16 ms
 * is an idle machine; a 0-byte time of a scheduler tick (4 ms), a 16 MiB message as fast
 * as one of 1 MiB (16 ms < 2 x 10 ms), or 1 of the 3 sizes (more than a tenth) whose
 * rounds still disagree (beyond the limit of 20%, after 4 rounds added) each say the
 * machine was loaded. */
Test(fit, a_loaded_machine_is_told)
{
    struct pz_pingpong p[] = { { 0, 3e-6 }, { 1048576, 1e-3 }, { 16777216, 16e-3 } };
    struct pz_calibration_run run = { .points = p, .npoints = 3 };
    char why[256];

    cr_assert_not(pz_cal_disturbed(&run, why, sizeof(why)), "idle: %s", why);
    p[0].time = 4e-3;
    cr_assert(pz_cal_disturbed(&run, why, sizeof(why)));
    cr_assert(strstr(why, "millisecond"), "%s", why);
    p[0].time = 3e-6;
    p[1].time = 10e-3;
    cr_assert(pz_cal_disturbed(&run, why, sizeof(why)));
    cr_assert(strstr(why, "hardly longer"), "%s", why);
    p[1].time = 1e-3;
    run.disagreeing = 1;
    run.spread_limit = 0.2;
    run.remeasured = 4;
    cr_assert(pz_cal_disturbed(&run, why, sizeof(why)));
    cr_assert(strstr(why, "1 of 3 sizes' rounds still disagreed (spread beyond 20.0%) after 4 "
                          "rounds added"), "%s", why);
}

Test(fit, bad_measurements_are_refused)
{
    struct pz_pingpong p[] = { { 0, 1e-6 }, { 8, 2e-6 }, { 4, 3e-6 } };
    struct pz_pingpong q[] = { { 1, 1e-6 }, { 8, 2e-6 }, { 16, 3e-6 } };
    struct pz_fit f;
    char err[256];

    cr_assert_eq(pz_fit_pingpong(p, 2, 1500, 78, &f, err, sizeof(err)), -1);
    cr_assert(strstr(err, "at least 3"), "%s", err);
    cr_assert_eq(pz_fit_pingpong(p, 3, 1500, 78, &f, err, sizeof(err)), -1);
    cr_assert(strstr(err, "out of order"), "%s", err);
    cr_assert_eq(pz_fit_pingpong(q, 3, 1500, 78, &f, err, sizeof(err)), -1);
    cr_assert(strstr(err, "0-byte"), "%s", err);
    p[2].bytes = 16;
    cr_assert_eq(pz_fit_pingpong(p, 3, 100, 100, &f, err, sizeof(err)), -1);
    cr_assert(strstr(err, "smaller than the packet"), "%s", err);
    cr_assert_eq(pz_fit_pingpong(p, 3, 1500, 78, &f, err, sizeof(err)), 0, "%s", err);
}

/* Every field of two machines is the same (strings by content, the rest exactly). */
static void assert_same(const struct pz_machine *a, const struct pz_machine *b)
{
    cr_assert_str_eq(a->name, b->name);
    cr_assert_eq(a->network, b->network);
    cr_assert_eq(a->channels, b->channels);
    cr_assert_eq(a->cost_model, b->cost_model);
#define SAME(field) cr_assert(a->field == b->field && signbit(a->field) == signbit(b->field), \
                              #field ": %.17g written, %.17g read", a->field, b->field)
    SAME(latency);
    SAME(latency_per_byte);
    SAME(bandwidth);
    SAME(packet_size);
    SAME(packet_header);
    SAME(eager_threshold);
    SAME(rendezvous_overhead);
    SAME(duplex_factor);
    SAME(shm_latency);
    SAME(shm_bandwidth);
    SAME(cpu_scale);
    SAME(reduce_byte_time);
    SAME(overhead.send);
    SAME(overhead.send_per_byte);
    SAME(overhead.recv);
    SAME(overhead.recv_per_byte);
    SAME(shm_overhead.send);
    SAME(shm_overhead.send_per_byte);
    SAME(shm_overhead.recv);
    SAME(shm_overhead.recv_per_byte);
    cr_assert_eq(a->segments.n, b->segments.n);
    cr_assert_eq(a->shm_segments.n, b->shm_segments.n);
    for (int i = 0; i < a->segments.n; i++) {
        SAME(segments.seg[i].upto);
        SAME(segments.seg[i].latency);
        SAME(segments.seg[i].bandwidth);
    }
    for (int i = 0; i < a->shm_segments.n; i++) {
        SAME(shm_segments.seg[i].upto);
        SAME(shm_segments.seg[i].latency);
        SAME(shm_segments.seg[i].bandwidth);
    }
    cr_assert_eq(a->copy_segments.n, b->copy_segments.n);
    for (int i = 0; i < a->copy_segments.n; i++) {
        SAME(copy_segments.seg[i].upto);
        SAME(copy_segments.seg[i].latency);
        SAME(copy_segments.seg[i].bandwidth);
    }
#undef SAME
    cr_assert_eq(a->procs_per_node, b->procs_per_node);
    cr_assert_eq(a->placement, b->placement);
    cr_assert_eq(a->progress, b->progress);
    cr_assert_str_eq(a->mpi, b->mpi);
    cr_assert_null(b->node_map);
}

/* Writes m to a file (through writer), loads it over the defaults, compares. */
static void round_trip(const struct pz_machine *m, int (*writer)(FILE *, const void *),
                       const void *arg)
{
    char path[] = "/tmp/pz-machine-XXXXXX", err[512];
    struct pz_machine back;
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

    cr_assert_not_null(f);
    cr_assert_eq(writer(f, arg), 0, "the machine '%s' could not be written", m->name);
    cr_assert_eq(fclose(f), 0);
    pz_machine_defaults(&back);
    back.latency = -1;   /* so that a key not written shows */
    cr_assert_eq(pz_machine_load(path, &back, err, sizeof(err)), 0, "%s", err);
    assert_same(m, &back);
    unlink(path);
}

static int plain_writer(FILE *f, const void *m)
{
    return pz_machine_write(f, m);
}

static void machines(struct pz_machine *m)
{
    pz_machine_defaults(&m[0]);

    pz_machine_defaults(&m[1]);
    snprintf(m[1].name, sizeof(m[1].name), "my cluster, 2nd try");
    m[1].network = PZ_NET_BUS;
    m[1].cost_model = PZ_COST_PACKET;
    m[1].latency = 1.0 / 3 * 1e-4;
    m[1].latency_per_byte = 2.0 / 3 * 1e-8;
    m[1].bandwidth = 12.5e6 * 1500 / 1422;
    m[1].packet_size = 9000;
    m[1].packet_header = 66.5;
    m[1].eager_threshold = 262144;
    m[1].procs_per_node = 4;
    m[1].placement = PZ_PLACE_CYCLIC;
    m[1].progress = PZ_PROGRESS_IN_CALLS;
    m[1].shm_latency = 0.1 + 0.2;
    m[1].shm_bandwidth = 6.02214076e23;
    m[1].cpu_scale = 0.37;
    snprintf(m[1].mpi, sizeof(m[1].mpi), "mpich-1.2.5");
    m[1].reduce_byte_time = 1.1e-9;

    pz_machine_defaults(&m[2]);
    snprintf(m[2].name, sizeof(m[2].name), "tiny");
    m[2].network = PZ_NET_CHANNELS;
    m[2].channels = 1000000;
    m[2].latency = 5e-324;           /* the smallest double */
    m[2].latency_per_byte = 0;
    m[2].bandwidth = 1.7976931348623157e308;
    m[2].packet_size = 9007199254740993.0;   /* rounds to 2^53 */
    m[2].packet_header = 0.1;
    m[2].eager_threshold = 0;
    m[2].procs_per_node = 1000000;
    m[2].cpu_scale = 4.9e-324;
    snprintf(m[2].mpi, sizeof(m[2].mpi), "mpich1");
}

Test(machine_write, every_key_of_several_machines_loads_back_exactly)
{
    struct pz_machine m[3];
    unsigned state = 99;

    machines(m);
    for (int i = 0; i < 3; i++)
        round_trip(&m[i], plain_writer, &m[i]);
    for (int i = 0; i < 200; i++) {   /* arbitrary doubles */
        struct pz_machine r;

        pz_machine_defaults(&r);
        r.latency = fabs(noise(&state, 1)) * pow(10, -3 - i % 9);
        r.latency_per_byte = fabs(noise(&state, 1)) * 1e-9;
        r.bandwidth = 1e6 + fabs(noise(&state, 1)) * pow(10, 6 + i % 5);
        r.shm_latency = fabs(noise(&state, 1)) / 7e6;
        r.shm_bandwidth = 1 + fabs(noise(&state, 1)) * 1e10;
        r.eager_threshold = floor(fabs(noise(&state, 1)) * 1e6);
        r.cpu_scale = 0.001 + fabs(noise(&state, 1));
        r.reduce_byte_time = fabs(noise(&state, 1)) * 1e-10;
        r.rendezvous_overhead = fabs(noise(&state, 1)) * 1e-5;
        r.duplex_factor = 1 + fmod(fabs(noise(&state, 1)), 1);
        round_trip(&r, plain_writer, &r);
    }
}

Test(machine_write, units_that_multiply_by_one)
{
    struct pz_machine m;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    pz_machine_defaults(&m);
    cr_assert_eq(pz_machine_write(f, &m), 0);
    fclose(f);
    cr_assert(strstr(text, "\nlatency = 5.0000000000000002e-05 s\n") ||
              strstr(text, "\nlatency = 5e-05 s\n"), "%s", text);
    cr_assert(strstr(text, "\nbandwidth = 125000000 B/s\n"), "%s", text);
    cr_assert(strstr(text, "\npacket_size = 1500 B\n"), "%s", text);
    cr_assert(strstr(text, "\nchannels = 1\n"), "%s", text);
    cr_assert(!strstr(text, "node_map"), "%s", text);
    free(text);
}

Test(machine_write, what_a_machine_file_cannot_hold_is_refused)
{
    struct pz_machine m;
    FILE *f = fopen("/dev/null", "w");
    int map[2] = { 0, 1 };

    cr_assert_not_null(f);
    pz_machine_defaults(&m);
    snprintf(m.name, sizeof(m.name), "a#b");
    cr_assert_eq(pz_machine_write(f, &m), -1, "'#' starts a comment");
    snprintf(m.name, sizeof(m.name), " padded");
    cr_assert_eq(pz_machine_write(f, &m), -1, "blanks at the ends are trimmed");
    snprintf(m.name, sizeof(m.name), "ok");
    m.node_map = map;
    m.node_map_size = 2;
    cr_assert_eq(pz_machine_write(f, &m), -1, "a node map lives in a file of its own");
    m.node_map = NULL;
    m.bandwidth = 0;
    cr_assert_eq(pz_machine_write(f, &m), -1, "a bandwidth of 0");
    m.bandwidth = 1e9;
    m.latency = NAN;
    cr_assert_eq(pz_machine_write(f, &m), -1, "not a number");
    m.latency = 1e-6;
    m.duplex_factor = 2.5;
    cr_assert_eq(pz_machine_write(f, &m), -1, "a duplex factor above 2");
    m.duplex_factor = 1.5;
    m.network = PZ_NET_BUS;
    cr_assert_eq(pz_machine_write(f, &m), -1, "a duplex factor on a bus");
    m.network = PZ_NET_SWITCH;
    cr_assert_eq(pz_machine_write(f, &m), 0);
    fclose(f);
}

/* prognoz-calibrate's machine file: comments before every key, and the values of the
 * fit, loaded back exactly. */
struct calibrated {
    struct pz_calibration_run run;
    struct pz_fit fit;
    struct pz_machine m;
    struct pz_transfer_fit transfer;
    struct pz_duplex_fit duplex;
};

static int calibrate_writer(FILE *f, const void *arg)
{
    const struct calibrated *c = arg;

    return pz_cal_write_machine(f, &c->run, &c->fit, &c->m);
}

Test(machine_write, the_calibrated_machine_file_loads_back_exactly)
{
    static struct pz_pingpong p[MAXP];
    static const struct pz_pingpong x[] = { { 0, 1.5e-6 }, { 1048576, 2e-3 } };
    static const struct pz_cal_exchange measured[] = { { 0, 1.5e-6, 1.4e-6, 0.1e-6, 0 },
                                                       { 1048576, 2e-3, 2e-3, 0, 0 } };
    static long trips[MAXP];
    static struct calibrated c;
    /* 10 ns + 0.01 ns/B at each side: well within the ping-pongs' t(0) and slope */
    static const struct pz_pingpong overheads[] = { { 0, 10e-9 }, { 64, 10.64e-9 },
                                                    { 256, 12.56e-9 }, { 1024, 20.24e-9 } };
    char err[256];
    int n;

    for (int same_node = 0; same_node < 2; same_node++) {
        n = same_node ? hockney_points(p, 0.3e-6, 7e9, 8192, 1e-6, 0.01)
                      : packet_points(p, 100e-6, 20e-9, 12.5e6, 0.01);
        for (int i = 0; i < n; i++)
            trips[i] = 1000 - i;
        c.run = (struct pz_calibration_run){ .points = p, .roundtrips = trips, .npoints = n,
                                             .exchanges = measured, .nexchanges = 2,
                                             .same_node = same_node, .seconds = 12.5,
                                             .packet_source = "the defaults",
                                             .probe_bytes = 16777216, .probe_compute = 0.02,
                                             .probe_received = same_node ? 0.021 : 0.001 };
        snprintf(c.run.host[0], sizeof(c.run.host[0]), "node1");
        snprintf(c.run.host[1], sizeof(c.run.host[1]), "node%d", 2 - same_node);
        snprintf(c.run.mpi_version, sizeof(c.run.mpi_version), "MPICH Version: 4.0.2");
        cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &c.fit, err, sizeof(err)), 0, "%s", err);
        pz_machine_defaults(&c.m);
        snprintf(c.m.name, sizeof(c.m.name), "calibrated");
        pz_fit_to_machine(&c.fit, p, n, same_node, &c.m);
        c.m.progress = pz_cal_progress(&c.run, &c.fit);
        pz_fit_transfer(&c.fit, p, n, NULL, 0, NULL, overheads, 4, overheads, 4, overheads, 4,
                        &c.transfer);
        /* whether segments beat the cost model is the fit's business (the tests of
         * segments); here the file holds them, to see them and their notes load back */
        c.transfer.segments_kept = 1;
        pz_transfer_to_machine(&c.transfer, same_node, &c.m);
        pz_fit_duplex(&c.m, x, NULL, 2, &c.duplex);
        cr_assert_eq(c.duplex.sizes, 2);
        c.m.duplex_factors = c.duplex.steps;
        c.run.duplex = &c.duplex;
        cr_assert_gt(c.m.overhead.send, 0);
        cr_assert_eq(c.m.shm_segments.n, same_node ? c.m.segments.n : 0);
        c.run.transfer = &c.transfer;
        c.run.ncopies = 2;
        c.run.copy_bytes[0] = 65536;
        c.run.copy_bytes[1] = 262144;
        c.run.copy_times[0] = 1.3e-6;
        c.run.copy_times[1] = 5e-6;
        cr_assert_eq(pz_fit_copy_segments(c.run.copy_bytes, c.run.copy_times, 2,
                                          &c.m.copy_segments), 0);
        round_trip(&c.m, calibrate_writer, &c);
    }
}

/* Copies of 1000 B in 1 us (1 GB/s) and 4000 B in 8 us (0.5 GB/s): a segment up to
 * 1000 B at 1 GB/s and one for any larger size at 0.5 GB/s, both of latency 0; with
 * them 500 B take 0.5 us, 2000 B 4 us (the larger size's rate), 1e6 B 2 ms.  Sizes not
 * increasing, a time of 0 or no copy give no segments. */
Test(copies, a_segment_per_size_at_its_rate)
{
    const double bytes[2] = { 1000, 4000 }, times[2] = { 1e-6, 8e-6 };
    const double zero[2] = { 1e-6, 0 }, down[2] = { 4000, 1000 };
    struct pz_machine m;

    pz_machine_defaults(&m);
    cr_assert_eq(pz_fit_copy_segments(bytes, times, 2, &m.copy_segments), 0);
    cr_assert_eq(m.copy_segments.n, 2);
    cr_assert_eq(m.copy_segments.seg[0].upto, 1000);
    cr_assert_eq(m.copy_segments.seg[1].upto, 9007199254740992.0);
    cr_assert_float_eq(m.copy_segments.seg[0].bandwidth, 1e9, 1e-3);
    cr_assert_float_eq(m.copy_segments.seg[1].bandwidth, 5e8, 1e-3);
    cr_assert_eq(m.copy_segments.seg[0].latency, 0);
    cr_assert_float_eq(pz_copy_time(&m, 500), 0.5e-6, 1e-15);
    cr_assert_float_eq(pz_copy_time(&m, 2000), 4e-6, 1e-15);
    cr_assert_float_eq(pz_copy_time(&m, 1e6), 2e-3, 1e-15);
    cr_assert_eq(pz_fit_copy_segments(bytes, zero, 2, &m.copy_segments), -1);
    cr_assert_eq(m.copy_segments.n, 0);
    cr_assert_eq(pz_fit_copy_segments(down, times, 2, &m.copy_segments), -1);
    cr_assert_eq(pz_fit_copy_segments(bytes, times, 0, &m.copy_segments), -1);
}

/* The overheads' sizes prognoz-calibrate measures up to a 64 KiB eager threshold. */
static const double overhead_sizes[] = { 0, 64, 256, 1024, 4096, 16384, 65536 };
#define NOVERHEAD ((int)(sizeof(overhead_sizes) / sizeof(overhead_sizes[0])))

/* o + O m at the overheads' sizes, times scaled by 1 + noise. */
static int overhead_points(struct pz_pingpong *p, double o, double per_byte, double amplitude)
{
    unsigned state = 4242;

    for (int i = 0; i < NOVERHEAD; i++) {
        p[i].bytes = overhead_sizes[i];
        p[i].time = (o + per_byte * overhead_sizes[i]) * (1 + noise(&state, amplitude));
    }
    return NOVERHEAD;
}

Test(overhead, an_exact_line_is_recovered)
{
    struct pz_pingpong p[NOVERHEAD];
    struct pz_line_fit f;
    int n = overhead_points(p, 1e-6, 0.5e-9, 0);   /* 1 us + 0.5 ns/B: 65536 B takes 33.8 us */

    pz_fit_overhead(p, n, &f);
    assert_rel(f.a, 1e-6, 1e-9, "o");
    assert_rel(f.b, 0.5e-9, 1e-9, "O");
    cr_assert_eq(f.points, 7);
    cr_assert_lt(f.max_error, 1e-6);
}

Test(overhead, two_percent_noise_moves_it_a_little)
{
    struct pz_pingpong p[NOVERHEAD];
    struct pz_line_fit f;
    int n = overhead_points(p, 2e-6, 0.2e-9, 0.02);

    pz_fit_overhead(p, n, &f);
    /* each time within 2% of the line: the weighted line within a few percent */
    assert_rel(f.a, 2e-6, 0.03, "o");
    assert_rel(f.b, 0.2e-9, 0.05, "O");
    cr_assert_leq(f.max_error, 4);
}

/* Times falling with the size: the slope would be negative; along b = 0 the weighted
 * mean of 2 us and 1 us with weights 1/t^2, (0.5e6 + 1e6) / (0.25e12 + 1e12) = 1.2 us,
 * has squared relative errors 0.4^2 + 0.2^2 = 0.2, below those of a = 0 (b = 1 ns/B
 * fits 1000 B exactly and misses 0 B by 100%: 1). */
Test(overhead, never_negative)
{
    struct pz_pingpong p[] = { { 0, 2e-6 }, { 1000, 1e-6 } };
    struct pz_line_fit f;

    pz_fit_overhead(p, 2, &f);
    assert_rel(f.a, 1.2e-6, 1e-9, "o");
    cr_assert_eq(f.b, 0);
    pz_fit_overhead(p, 1, &f);   /* one size: its time, per message */
    cr_assert_eq(f.a, 2e-6);
    cr_assert_eq(f.b, 0);
}

/* Three segments: up to 1 KiB 1 us + m / 1 GB/s, to 64 KiB 3 us + m / 2 GB/s, above
 * 20 us + m / 5 GB/s, at the default sizes (0 B to 16 MiB), under base. */
static int segment_points(struct pz_pingpong *p, const struct pz_segment_base *base,
                          double amplitude)
{
    static const struct pz_segments truth = {
        3, { { 1024, 1e-6, 1e9 }, { 65536, 3e-6, 2e9 }, { 16777216, 20e-6, 5e9 } }
    };
    double s[MAXP];
    unsigned state = 2024;
    int n = sizes(s);

    for (int i = 0; i < n; i++) {
        p[i].bytes = s[i];
        p[i].time = pz_segment_model(&truth, base, s[i]) * (1 + noise(&state, amplitude));
    }
    return n;
}

static void assert_three_segments(const struct pz_segment_fit *f, double tol)
{
    const struct pz_segments *g = &f->segments;

    cr_assert_eq(g->n, 3, "%d segments, expected 3", g->n);
    cr_assert_eq(g->seg[0].upto, 1024);
    cr_assert_eq(g->seg[1].upto, 65536);
    cr_assert_eq(g->seg[2].upto, 16777216);
    assert_rel(g->seg[0].latency, 1e-6, tol, "latency 1");
    assert_rel(g->seg[1].latency, 3e-6, tol, "latency 2");
    assert_rel(g->seg[2].latency, 20e-6, tol, "latency 3");
    assert_rel(g->seg[0].bandwidth, 1e9, tol, "bandwidth 1");
    assert_rel(g->seg[1].bandwidth, 2e9, tol, "bandwidth 2");
    assert_rel(g->seg[2].bandwidth, 5e9, tol, "bandwidth 3");
}

Test(segments, exact_breakpoints_are_found)
{
    static struct pz_pingpong p[MAXP];
    struct pz_segment_base base = { 0 };
    struct pz_segment_fit f;
    int n = segment_points(p, &base, 0);

    pz_fit_segments(p, n, &base, &f);
    assert_three_segments(&f, 1e-6);
    cr_assert_lt(f.max_error, 1e-4);
    /* two segments leave an error the criterion sees, four gain nothing */
    cr_assert_gt(f.bic[1], f.bic[2]);
    cr_assert_gt(f.bic[3], f.bic[2]);
}

/* Overheads of 0.5 us + 0.1 ns/B (send) and 0.7 us + 0.2 ns/B (receive), a 64 KiB
 * eager threshold and a rendezvous of 5 us beyond its two control messages (2 x the
 * first segment's 1 us): at 16 MiB, above the threshold, 1.2 us of overheads (the
 * per-byte ones are an eager message's copies), 7 us of handshake, 20 us + 3.36 ms of
 * transfer (with one segment of 20 us, the handshake's control messages take 20 us
 * each).  The segments under them are recovered. */
Test(segments, under_overheads_and_a_rendezvous)
{
    static struct pz_pingpong p[MAXP];
    struct pz_segment_base base = { { 0.5e-6, 0.1e-9, 0.7e-6, 0.2e-9 }, 65536, 5e-6, 0, 0 };
    struct pz_segment_fit f;
    int n = segment_points(p, &base, 0);

    assert_rel(pz_segment_model(&(struct pz_segments){ 1, { { 16777216, 20e-6, 5e9 } } },
                                &base, 16777216),
               1.2e-6 + 2 * 20e-6 + 5e-6 + 20e-6 + 16777216 / 5e9, 1e-12,
               "the model at 16 MiB (one segment: its latency is the handshake's)");
    pz_fit_segments(p, n, &base, &f);
    assert_three_segments(&f, 1e-6);
}

/* With noise of +-1% (under the criterion's 1% floor) the same three segments, each
 * within a few percent; the model within the noise. */
Test(segments, one_percent_noise)
{
    static struct pz_pingpong p[MAXP];
    struct pz_segment_base base = { { 0.5e-6, 0.1e-9, 0.7e-6, 0.2e-9 }, 65536, 5e-6, 0, 0 };
    struct pz_segment_fit f;
    int n = segment_points(p, &base, 0.01);

    pz_fit_segments(p, n, &base, &f);
    cr_assert_eq(f.segments.n, 3, "%d segments, expected 3", f.segments.n);
    cr_assert_eq(f.segments.seg[0].upto, 1024);
    cr_assert_eq(f.segments.seg[1].upto, 65536);
    assert_rel(f.segments.seg[1].latency, 3e-6, 0.15, "latency 2");
    assert_rel(f.segments.seg[2].bandwidth, 5e9, 0.03, "bandwidth 3");
    cr_assert_lt(f.median_error, 1);
    cr_assert_lt(f.max_error, 2.5);
}

/* One straight line (Hockney) needs one segment; a flat piece gets the steepest
 * bandwidth, 1e15 B/s, rather than a negative one. */
Test(segments, as_few_as_the_data_supports)
{
    static struct pz_pingpong p[MAXP];
    struct pz_segment_base base = { 0 };
    struct pz_segment_fit f;
    int n = hockney_points(p, 5e-6, 1e9, 1e300, 0, 0.005);

    pz_fit_segments(p, n, &base, &f);
    cr_assert_eq(f.segments.n, 1, "%d segments, expected 1", f.segments.n);
    assert_rel(f.segments.seg[0].bandwidth, 1e9, 0.01, "bandwidth");
    for (int i = 0; i < 3; i++)
        p[i] = (struct pz_pingpong){ i * 10.0, 1e-6 };
    /* a flat piece of 1 us at 0, 10 and 20 B: the fastest rate is 20 B / 1 us = 20 MB/s,
     * the segment's bandwidth at most 10 times that, 200 MB/s, 5 ns/B; the line of that
     * slope through the three (equal weights) has a = 1 us - 5 ns x 10 = 0.95 us */
    pz_fit_segments(p, 3, &base, &f);
    cr_assert_eq(f.segments.n, 1);
    assert_rel(f.segments.seg[0].bandwidth, 200e6, 1e-12, "bandwidth of a flat piece");
    assert_rel(f.segments.seg[0].latency, 0.95e-6, 1e-9, "latency");
    cr_assert_eq(f.bounded, 1);
}

/* Overheads that take the whole slope (TCP's copies): t(m) = 10 us + m / 1 GB/s with
 * O_s + O_r = 1 ns/B and o_s + o_r = 4 us leave 6 us flat for the segments, which
 * alone would be 1e15 B/s.  The fastest rate measured is 16 MiB / (10 us + 16.78 ms),
 * 0.9994 GB/s: no segment is faster than 10 times that, 9.994 GB/s. */
Test(segments, no_bandwidth_beyond_ten_times_the_fastest_measured)
{
    static struct pz_pingpong p[MAXP];
    struct pz_segment_base base = { { 2e-6, 0.5e-9, 2e-6, 0.5e-9 }, 0, 0, 0, 0 };
    struct pz_segment_fit f;
    int n = hockney_points(p, 10e-6, 1e9, 1e300, 0, 0.005);

    pz_fit_segments(p, n, &base, &f);
    assert_rel(f.bandwidth_bound, 10 * 16777216 / (10e-6 + 16777216 / 1e9), 0.006, "bound");
    cr_assert_gt(f.segments.n, 0);
    cr_assert_gt(f.bounded, 0, "the flat segments are held at the bound");
    for (int i = 0; i < f.segments.n; i++)
        cr_assert_leq(f.segments.seg[i].bandwidth, f.bandwidth_bound * (1 + 1e-12),
                      "segment %d: %g B/s beyond %g", i, f.segments.seg[i].bandwidth,
                      f.bandwidth_bound);
}

/* The machine of the duplex tests: a switch, overheads o = 2 us + 1 ns/B at each side,
 * latency 10 us, 100 MB/s, eager up to 1 MiB. */
static void duplex_machine(struct pz_machine *m)
{
    pz_machine_defaults(m);
    m->cost_model = PZ_COST_HOCKNEY;
    m->latency = 10e-6;
    m->bandwidth = 100e6;
    m->eager_threshold = 1048576;
    m->overhead = (struct pz_overhead){ 2e-6, 1e-9, 2e-6, 1e-9 };
}

/* An eager exchange both ways on a switch, overheads o = 2 us + 1 ns/B at each side,
 * latency 10 us, 100 MB/s, eager up to 1 MiB.  At m bytes both sends leave at o_s(m) =
 * 2 us + m ns; one message, on its way for 10 us + m / 100 MB/s = T(m), arrives first,
 * and the other, on its way over the same time, is later by (d - 1) T(m); then the
 * receive overhead: the exchange ends at 2 o(m) + d T(m).  At 1000 B: 2 x 3 + 1.6 x 20 =
 * 38 us.  The old duplex_factor of the links stretches the transfer alike.  Exchanges
 * measured on that curve with d = 1.6 give back 1.6 at every size, so six steps of
 * 1.6, the last (1 MiB, the largest eager size) for any size; the model reproduces
 * every size.  An exchange of 256 B that stalled 15 ms (more than 4 times the model's
 * 2 x 2.256 + 10.256 = 14.8 us with d = 1) is left out of the fit: no step of its own. */
Test(duplex, the_factor_reproduces_the_exchange)
{
    static const double bytes[] = { 0, 64, 1000, 4096, 65536, 1048576 };
    struct pz_pingpong x[6], stalled[7];
    struct pz_duplex_fit d;
    struct pz_machine m;

    duplex_machine(&m);
    for (int i = 0; i < 6; i++) {
        double o = 2e-6 + bytes[i] * 1e-9, t = 10e-6 + bytes[i] / 100e6;

        x[i] = (struct pz_pingpong){ bytes[i], 2 * o + 1.6 * t };
    }
    assert_rel(x[2].time, 38e-6, 1e-12, "1000 B by hand");
    m.duplex_factor = 1.6;
    assert_rel(pz_exchange_time(&m, 1000), 38e-6, 1e-9, "the links' factor at 1000 B");
    m.duplex_factor = 1;
    m.duplex_factors = (struct pz_size_factors){ 1, { { 2048, 1.6 } } };
    assert_rel(pz_exchange_time(&m, 1000), 38e-6, 1e-9, "the factors at 1000 B");
    m.duplex_factors.n = 0;
    pz_fit_duplex(&m, x, NULL, 6, &d);
    assert_rel(d.factor, 1.6, 1e-9, "the factors' median");
    cr_assert_eq(d.points, 6);
    cr_assert_eq(d.beyond, 0);
    cr_assert_eq(d.steps.n, 6);
    for (int i = 0; i < 6; i++) {
        assert_rel(d.steps.step[i].factor, 1.6, 1e-9, "a step of 1.6");
        cr_assert_eq(d.steps.step[i].upto, i < 5 ? bytes[i] : PZ_DUPLEX_ANY_SIZE, "step %d", i);
    }
    cr_assert_lt(d.max_error, 1e-6, "largest |error| %g%%", d.max_error);
    for (int i = 0; i < 6; i++)
        assert_rel(d.model[i], x[i].time, 1e-8, "the model's exchange");
    memcpy(stalled, x, 2 * sizeof(x[0]));
    stalled[2] = (struct pz_pingpong){ 256, 15e-3 };
    memcpy(stalled + 3, x + 2, 4 * sizeof(x[0]));
    pz_fit_duplex(&m, stalled, NULL, 7, &d);
    assert_rel(d.factor, 1.6, 1e-9, "the factors' median with a stalled size");
    cr_assert_eq(d.points, 6);
    cr_assert_eq(d.stalled, 1);
    cr_assert_eq(d.sizes, 7);
    cr_assert(isnan(d.size_factor[2]), "the stalled size has no factor");
    cr_assert_eq(d.steps.n, 6);
    cr_assert_eq(d.steps.step[2].upto, 1000, "256 B takes the next size's step");
}

/* Sizes whose exchanges take different factors get steps of their own.  The machine
 * above with eager messages up to 5000 B and rendezvous beyond, without a rendezvous
 * overhead: a rendezvous message's request to send and clear to send take 10 us each
 * (0 bytes), then the data T(m), all on its way from o (both ends posted): 20 us +
 * T(m) + the overheads, which are 2 us without the per-byte part (an eager message's
 * copies).  Exchanges measured with d = 1.2 at 1000 and 4096 B, 2.5 at 8192 B and 1.1
 * at 1 MiB: the steps 1000 B: 1.2, 5000 B (the eager threshold, the largest eager
 * size's bound): 1.2, 8192 B: 2.5, any: 1.1.  A message of 6000 B (by rendezvous) takes
 * 2.5: 2 o + 2.5 (20 us + 10 us + 60 us) = 2 x 2 + 225 = 229 us. */
Test(duplex, each_size_its_factor)
{
    static const double bytes[] = { 1000, 4096, 8192, 1048576 }, factor[] = { 1.2, 1.2, 2.5, 1.1 };
    struct pz_pingpong x[4];
    struct pz_duplex_fit d;
    struct pz_machine m;

    duplex_machine(&m);
    m.eager_threshold = 5000;
    for (int i = 0; i < 4; i++) {
        int rendezvous = bytes[i] > 5000;
        double o = 2e-6 + (rendezvous ? 0 : bytes[i] * 1e-9), t = 10e-6 + bytes[i] / 100e6;

        t += rendezvous ? 20e-6 : 0;
        x[i] = (struct pz_pingpong){ bytes[i], 2 * o + factor[i] * t };
    }
    pz_fit_duplex(&m, x, NULL, 4, &d);
    cr_assert_eq(d.steps.n, 4);
    for (int i = 0; i < 4; i++)
        assert_rel(d.steps.step[i].factor, factor[i], 1e-9, "the size's factor");
    cr_assert_eq(d.steps.step[0].upto, 1000);
    cr_assert_eq(d.steps.step[1].upto, 5000);
    cr_assert_eq(d.steps.step[2].upto, 8192);
    cr_assert_eq(d.steps.step[3].upto, PZ_DUPLEX_ANY_SIZE);
    m.duplex_factors = d.steps;
    assert_rel(pz_exchange_time(&m, 6000), 229e-6, 1e-9, "6000 B by rendezvous");
}

/* The same machine (o = 3 us and T = 20 us at 1000 B) when rank 1 begins its exchange
 * s later than rank 0, timed on rank 0 from its own start.  s = 30 us, beyond rank 0's
 * send (its transfer ends at o + T = 23 us): no overlap, rank 1's message leaves at
 * s + o = 33 us, arrives at 53, is taken by 56: s + 2 o + T = 56 us whatever d.  s = 10
 * us: rank 1's transfer, 13 to 33 us, overlaps rank 0's (3 to 23) for 10 us and bears
 * (d - 1) x 10 more: with d = 1.6 it arrives at 39, is taken by 42 us.  s = -30 us
 * (rank 1 first): its message has arrived (23 us) before rank 0 begins at 30, which
 * takes its send (3 us) and then the receive (3 us): 6 us.  s = 0 is pz_exchange_time,
 * 38 us.  Fitted with its skew, the 42 us of s = 10 gives back d = 1.6; taken as an
 * exchange begun together, 2 o + d T = 6 + 20 d = 42 us gives d = 1.8. */
Test(duplex, the_skew_is_taken_out_of_the_factor)
{
    struct pz_pingpong x = { 1000, 42e-6 };
    double skew = 10e-6;
    struct pz_duplex_fit d;
    struct pz_machine m;

    duplex_machine(&m);
    m.duplex_factor = 1.6;
    assert_rel(pz_skewed_exchange_time(&m, 1000, 30e-6), 56e-6, 1e-9, "no overlap");
    assert_rel(pz_skewed_exchange_time(&m, 1000, 10e-6), 42e-6, 1e-9, "10 us of overlap");
    assert_rel(pz_skewed_exchange_time(&m, 1000, -30e-6), 6e-6, 1e-9, "rank 1 first");
    assert_rel(pz_skewed_exchange_time(&m, 1000, 0), pz_exchange_time(&m, 1000), 1e-12,
               "begun together");
    m.duplex_factor = 1;
    pz_fit_duplex(&m, &x, &skew, 1, &d);
    assert_rel(d.factor, 1.6, 1e-9, "duplex factor, the skew taken out");
    cr_assert_eq(d.beyond, 0);
    assert_rel(d.model[0], 42e-6, 1e-8, "the model's exchange with the skew");
    pz_fit_duplex(&m, &x, NULL, 1, &d);
    assert_rel(d.factor, 1.8, 1e-9, "duplex factor, the skew taken for the exchange");
}

/* The ratio of exchange to one way is (2 o + d T) / (2 o + T), less than d: 1.43 at 0 B
 * ((4 + 16) / (4 + 10) us) for d = 1.6 above; what the model stretches is T.  An exchange
 * slower than d = 4 makes (6 + 4 x 20 = 86 us at 1000 B, measured 100 us) is held at 4,
 * counted beyond, and its error shown: (100 - 86) / 100 = 14%; one faster than d = 1 (6 +
 * 20 = 26 us, measured 20 us) at 1. */
Test(duplex, held_between_full_duplex_and_four)
{
    struct pz_pingpong slow = { 1000, 100e-6 }, fast = { 1000, 20e-6 };
    struct pz_duplex_fit d;
    struct pz_machine m;

    pz_machine_defaults(&m);
    m.cost_model = PZ_COST_HOCKNEY;
    m.latency = 10e-6;
    m.bandwidth = 100e6;
    m.overhead = (struct pz_overhead){ 2e-6, 1e-9, 2e-6, 1e-9 };
    pz_fit_duplex(&m, &slow, NULL, 1, &d);
    cr_assert_eq(d.factor, 4);
    cr_assert_eq(d.beyond, 1);
    assert_rel(d.max_error, 14, 1e-6, "error");
    pz_fit_duplex(&m, &fast, NULL, 1, &d);
    cr_assert_eq(d.factor, 1);
    cr_assert_eq(d.beyond, 1);
    pz_fit_duplex(&m, &fast, NULL, 0, &d);
    cr_assert_eq(d.points, 0);
    cr_assert_eq(d.steps.n, 0);
}

/* pz_fit_pingpong of the n points p into *fit, then pz_fit_transfer with overheads of a
 * + b per byte for the send, the receive and the loop alike, into *t. */
static void fit_alike(struct pz_pingpong *p, int n, double a, double b, struct pz_fit *fit,
                      struct pz_transfer_fit *t)
{
    struct pz_pingpong o[NOVERHEAD];
    char err[256];

    overhead_points(o, a, b, 0);
    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, fit, err, sizeof(err)), 0, "%s", err);
    pz_fit_transfer(fit, p, n, NULL, 0, NULL, o, NOVERHEAD, o, NOVERHEAD, o, NOVERHEAD, t);
}

/* pz_fit_transfer keeps the per-message overheads whole and takes what of them exceeds
 * the ping-pong as the send's tail: a send and a receive of 1 us each against t(0) = 1
 * us leave a tail of 1 + 1 - 1 = 1 us, none of the send overhead on the message's way
 * (the segments are fitted under 0 + 1 us), the machine's send overhead 1 us whole.
 * Per byte, 1 ns/B each against the 1 GB/s slope (1 ns/B) are halved (0.5 ns/B each). */
Test(transfer, overheads_beyond_the_pingpong_are_the_sends_tail)
{
    static struct pz_pingpong p[MAXP];
    struct pz_transfer_fit t;
    struct pz_machine m;
    struct pz_fit fit;
    int n = hockney_points(p, 1e-6, 1e9, 1e300, 0, 0);

    fit_alike(p, n, 1e-6, 1e-9, &fit, &t);
    assert_rel(t.tail, 1e-6, 1e-6, "send tail");
    cr_assert_lt(fabs(t.base.overhead.send), 1e-12, "on the way: %g", t.base.overhead.send);
    assert_rel(t.base.overhead.recv, 1e-6, 1e-6, "recv_overhead whole");
    assert_rel(t.per_byte_scale, 0.5, 1e-6, "per-byte scale");
    assert_rel(t.base.overhead.recv_per_byte, 0.5e-9, 1e-6, "recv_overhead_per_byte");
    pz_machine_defaults(&m);
    pz_transfer_to_machine(&t, 0, &m);
    assert_rel(m.overhead.send, 1e-6, 1e-6, "send_overhead whole");
    assert_rel(m.send_tail, 1e-6, 1e-6, "send_tail");
    cr_assert_eq(m.shm_overhead.send, 0, "two nodes: the shm_ keys stay");
    pz_transfer_to_machine(&t, 1, &m);
    cr_assert_eq(m.shm_overhead.send, m.overhead.send);
    cr_assert_eq(m.shm_overhead.recv_per_byte, t.base.overhead.recv_per_byte);
}

/* pz_fit_transfer over a Hockney ping-pong of t(0) = 4 us, 1 GB/s, and overheads of
 * send_us and recv_us (no per-byte cost) against an exchange of 1 KiB both ways back to
 * back taking back_us, into *t. */
static void fit_transfer(double send_us, double recv_us, double back_us,
                         struct pz_transfer_fit *t)
{
    static struct pz_pingpong p[MAXP];
    struct pz_pingpong send[NOVERHEAD], recv[NOVERHEAD], back = { 1024, back_us * 1e-6 };
    struct pz_fit fit;
    char err[256];
    int n = hockney_points(p, 4e-6, 1e9, 1e300, 0, 0);

    overhead_points(send, send_us * 1e-6, 0, 0);
    overhead_points(recv, recv_us * 1e-6, 0, 0);
    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &fit, err, sizeof(err)), 0, "%s", err);
    pz_fit_transfer(&fit, p, n, NULL, 0, &back, send, NOVERHEAD, recv, NOVERHEAD, send,
                    NOVERHEAD, t);
}

/* Overheads timed apart that exceed the exchange back to back are scaled to fit within
 * it: a send of 6 us and a receive of 2 us (no per-byte cost) against an exchange of 1
 * KiB both ways back to back of 6 us are scaled by 6 / 8 = 0.75, to 4.5 and 1.5 us; then
 * against t(0) = 4 us the tail is 4.5 + 1.5 - 4 = 2 us, and the overheads under the
 * segments (on the message's way) 4.5 - 2 = 2.5 and 1.5 us; the measured lines are kept
 * as measured (6 and 2 us).  An exchange of 10 us leaves them whole (tail 6 + 2 - 4 =
 * 4 us). */
Test(transfer, overheads_fit_within_the_exchange_back_to_back)
{
    struct pz_transfer_fit t;

    fit_transfer(6, 2, 6, &t);
    assert_rel(t.scale, 0.75, 1e-6, "scale");
    assert_rel(t.send.a, 6e-6, 1e-6, "send as measured");
    assert_rel(t.recv.a, 2e-6, 1e-6, "recv as measured");
    assert_rel(t.tail, 2e-6, 1e-6, "tail");
    assert_rel(t.base.overhead.send, 2.5e-6, 1e-6, "send on the message's way");
    assert_rel(t.base.overhead.recv, 1.5e-6, 1e-6, "recv on the message's way");
    fit_transfer(6, 2, 10, &t);
    cr_assert_eq(t.scale, 1);
    assert_rel(t.tail, 4e-6, 1e-6, "tail");
}

/* A receive's overhead beyond the one way it is part of: send 1 us, receive 6 us, t(0) =
 * 4 us, an exchange back to back of 20 us (no scaling).  The tail is 1 + 6 - 4 = 3, held
 * at the send's 1 us, so 0 of the send is on the message's way; the receive's part is
 * cut to t(0), 4 us, so that the segments under it are not below 0. */
Test(transfer, a_receive_overhead_beyond_one_way_is_cut_to_it)
{
    struct pz_transfer_fit t;

    fit_transfer(1, 6, 20, &t);
    cr_assert_eq(t.scale, 1);
    assert_rel(t.tail, 1e-6, 1e-6, "tail");
    cr_assert_float_eq(t.base.overhead.send, 0, 1e-12, "send on the message's way");
    assert_rel(t.base.overhead.recv, 4e-6, 1e-3, "recv cut to t(0)");
}

/* pz_send_tail: what send + recv exceed one way by, within 0 and send.  4.75 + 2.06 us
 * against 5.52 us: 1.29 us (loopback TCP's figures); 1 + 1 against 3: 0 (a network's
 * latency leaves the overheads room); 1 + 3 against 2: 2, held at the send's 1. */
Test(transfer, the_send_tail_is_what_the_overheads_exceed_one_way_by)
{
    assert_rel(pz_send_tail(4.75e-6, 2.06e-6, 5.52e-6), 1.29e-6, 1e-9, "loopback TCP");
    cr_assert_eq(pz_send_tail(1e-6, 1e-6, 3e-6), 0);
    cr_assert_eq(pz_send_tail(1e-6, 3e-6, 2e-6), 1e-6);
}

/* A transfer of 3 us + m / 1 GB/s that an exchange both ways stretches twice (half
 * duplex), under 1 us of overheads: one way takes t(m) = 4 us + m / 1 GB/s, an exchange
 * X(m) = 1 + 2 (3 + m / 1 GB/s) = 7 us + 2 m / 1 GB/s.  The room the exchanges leave the
 * overheads is 2 t(m) - X(m) = 1 us at every size, none of it per byte.  Measured
 * overheads of 1.5 + 1 = 2.5 us and 2 x 0.2 ns/B fit within the ping-pong alone (t(0) =
 * 4 us: no tail; per byte (t(m) - 2.5 us) / m is above 0.4 ns/B from 1 KiB up), so
 * without the exchanges they stay; with them the per-message ones stay whole (the
 * duplex fit takes the exchanges) and the per-byte ones are scaled to 0, as the room
 * less the 2.5 us per message is none. */
Test(transfer, overheads_leave_the_transfer_room_for_the_exchanges)
{
    static const double xs[] = { 0, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576 };
    static struct pz_pingpong p[MAXP];
    struct pz_pingpong send[NOVERHEAD], recv[NOVERHEAD], x[9];
    struct pz_transfer_fit t;
    struct pz_fit fit;
    char err[256];
    int n = hockney_points(p, 4e-6, 1e9, 1e300, 0, 0);

    overhead_points(send, 1.5e-6, 0.2e-9, 0);
    overhead_points(recv, 1e-6, 0.2e-9, 0);
    for (int i = 0; i < 9; i++)
        x[i] = (struct pz_pingpong){ xs[i], 7e-6 + 2 * xs[i] / 1e9 };
    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &fit, err, sizeof(err)), 0, "%s", err);
    pz_fit_transfer(&fit, p, n, NULL, 0, NULL, send, NOVERHEAD, recv, NOVERHEAD, send,
                    NOVERHEAD, &t);
    cr_assert_eq(t.tail, 0);
    cr_assert_eq(t.per_byte_scale, 1);
    cr_assert_eq(t.exchange_room, 0);
    pz_fit_transfer(&fit, p, n, x, 9, NULL, send, NOVERHEAD, recv, NOVERHEAD, send,
                    NOVERHEAD, &t);
    cr_assert_eq(t.tail, 0);
    assert_rel(t.base.overhead.send, 1.5e-6, 1e-6, "send_overhead whole");
    assert_rel(t.base.overhead.recv, 1e-6, 1e-6, "recv_overhead whole");
    cr_assert(t.per_byte_scale < 1e-6, "per-byte scale %g", t.per_byte_scale);
    cr_assert_eq(t.exchange_room, 1);
}

/* A size faster than the line bounds the per-byte overheads too: 1 us + m / 1 GB/s,
 * but 64 KiB in 1 us + 32.768 us; overheads of 0.1 us + 0.5 ns/B at each side (1 ns/B
 * together, the slope: within it).  At 64 KiB the overheads may take at most
 * (33.768 - 0.2) us / 65536 B = 0.51221 ns/B, so both per-byte ones are scaled by
 * 0.51221; the per-message ones (0.2 us against t(0) = 1 us) are not. */
Test(transfer, no_size_is_faster_than_its_overheads)
{
    static struct pz_pingpong p[MAXP];
    struct pz_transfer_fit t;
    struct pz_fit fit;
    int n = hockney_points(p, 1e-6, 1e9, 1e300, 0, 0);

    for (int i = 0; i < n; i++)
        if (p[i].bytes == 65536)
            p[i].time = 1e-6 + 32.768e-6;
    fit_alike(p, n, 0.1e-6, 0.5e-9, &fit, &t);
    cr_assert_eq(t.tail, 0);
    assert_rel(t.per_byte_scale, 33.568 / 65.536, 1e-6, "per-byte scale");
    assert_rel(t.base.overhead.send_per_byte, 0.5e-9 * 33.568 / 65.536, 1e-6,
               "send_overhead_per_byte");
}

/* pz_fit_transfer on fit (of the n ping-pong points p) with overheads of 3 us +
 * send_b per byte sent and 3 us + recv_b per byte received, into *t. */
static void fit_copies(const struct pz_fit *fit, const struct pz_pingpong *p, int n,
                       double send_b, double recv_b, struct pz_transfer_fit *t)
{
    struct pz_pingpong send[NOVERHEAD], recv[NOVERHEAD];

    overhead_points(send, 3e-6, send_b, 0);
    overhead_points(recv, 3e-6, recv_b, 0);
    pz_fit_transfer(fit, p, n, NULL, 0, NULL, send, NOVERHEAD, recv, NOVERHEAD, send,
                    NOVERHEAD, t);
}

/* With an eager threshold the per-byte overheads are an eager message's copies, kept as
 * measured, and what they exceed the ping-pong's slope over the eager sizes by is the
 * send's tail per byte.  A ping-pong of 5 us + m / 5 GB/s (0.2 ns/B) with a step of 20
 * us above 16 KiB; overheads of 3 us + 0.4 ns/B (send) and 3 us + 0.1 ns/B (receive).
 * Per message the tail is 3 + 3 - 5 = 1 us; per byte 0.4 + 0.1 - 0.2 = 0.3 ns/B, so
 * that on the message's way the send takes 0.4 - 0.3 = 0.1 ns/B and the receive 0.1:
 * the slope, 0.2.  The machine's send overhead is 3 us + 0.4 ns/B whole, with a tail of
 * 1 us + 0.3 ns/B.  Overheads of 0.5 ns/B each exceed the slope by 0.8 ns/B, more than
 * the send's 0.5: the tail per byte is held at 0.5, the send's whole. */
Test(transfer, eager_copies_beyond_the_slope_are_the_sends_tail_per_byte)
{
    static struct pz_pingpong p[MAXP];
    struct pz_transfer_fit t;
    struct pz_machine m;
    struct pz_fit fit;
    char err[256];
    int n = hockney_points(p, 5e-6, 5e9, 16384, 20e-6, 0);

    cr_assert_eq(pz_fit_pingpong(p, n, 1500, 78, &fit, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(fit.eager_threshold, 16384, "eager threshold %g", fit.eager_threshold);
    fit_copies(&fit, p, n, 0.4e-9, 0.1e-9, &t);
    assert_rel(t.eager_slope, 0.2e-9, 1e-6, "the eager sizes' slope");
    cr_assert_eq(t.per_byte_scale, 1);
    assert_rel(t.tail, 1e-6, 1e-6, "send tail");
    assert_rel(t.tail_per_byte, 0.3e-9, 1e-6, "send tail per byte");
    assert_rel(t.base.overhead.send_per_byte, 0.1e-9, 1e-6, "send per byte on the way");
    assert_rel(t.base.overhead.recv_per_byte, 0.1e-9, 1e-6, "recv per byte on the way");
    pz_machine_defaults(&m);
    pz_transfer_to_machine(&t, 0, &m);
    assert_rel(m.overhead.send, 3e-6, 1e-6, "send_overhead whole");
    assert_rel(m.overhead.send_per_byte, 0.4e-9, 1e-6, "send_overhead_per_byte whole");
    assert_rel(m.send_tail_per_byte, 0.3e-9, 1e-6, "send_tail_per_byte");
    fit_copies(&fit, p, n, 0.5e-9, 0.5e-9, &t);
    assert_rel(t.tail_per_byte, 0.5e-9, 1e-6, "held at the send's per byte");
    /* a receive's copy beyond the slope is cut to it (all of it is on the message's
       way): recv 0.5 ns/B to 0.2, the send's 0.1 + 0.2 - 0.2 = 0.1 its tail, none of it
       on the way */
    fit_copies(&fit, p, n, 0.1e-9, 0.5e-9, &t);
    assert_rel(t.base.overhead.recv_per_byte, 0.2e-9, 1e-6, "recv per byte cut to the slope");
    assert_rel(t.tail_per_byte, 0.1e-9, 1e-6, "the send's whole per byte its tail");
    cr_assert_lt(fabs(t.base.overhead.send_per_byte), 1e-21, "no send per byte on the way");
    /* overheads below the slope, 0.05 ns/B each: no tail */
    fit_copies(&fit, p, n, 0.05e-9, 0.05e-9, &t);
    cr_assert_eq(t.tail_per_byte, 0, "below the slope, no tail per byte");
}

/* Without an eager step the machine keeps the default threshold (64 KiB), up to which
 * the model charges the per-byte overheads: the segments are fitted under them there
 * and without them beyond, so that the machine reproduces the ping-pong at every size.
 * A ping-pong of 20 us + m / 1 GB/s, overheads of 8 us + 0.2 ns/B each: at 4 MiB the
 * segments' model gives the measured 20 + 4194.304 us (within the fit's 1%). */
Test(transfer, without_a_threshold_the_copies_end_at_the_default_one)
{
    static struct pz_pingpong p[MAXP];
    struct pz_transfer_fit t;
    struct pz_fit fit;
    int n = hockney_points(p, 20e-6, 1e9, 1e300, 0, 0);

    fit_alike(p, n, 8e-6, 0.2e-9, &fit, &t);
    cr_assert_eq(fit.eager_threshold, 0, "no step");
    cr_assert_eq(t.base.copies_upto, 65536);
    cr_assert(t.eager_slope < 0, "no eager sizes' slope");
    assert_rel(pz_segment_model(&t.segments.segments, &t.base, 4194304), 20e-6 + 4194.304e-6,
               0.01, "4 MiB");
}

/* A switch of Hockney's 10 us and 1 GB/s without overheads, combining 1 ns/B. */
static void allreduce_machine(struct pz_machine *m)
{
    pz_machine_defaults(m);
    m->cost_model = PZ_COST_HOCKNEY;
    m->latency = 10e-6;
    m->bandwidth = 1e9;
    m->reduce_byte_time = 1e-9;
}

/* The model's MPI_Allreduce of 8 B by two processes (MPICH 4: recursive doubling, one
 * exchange) on a switch of Hockney's 10 us and 1 GB/s without overheads: both send at 0,
 * each message arrives at 10 us + 8 ns; with reduce_byte_time 1 ns/B the combining adds
 * 8 ns: 10.016 us.  A collective_overhead of 2 us comes first: 12.016 us. */
Test(transfer, the_models_allreduce_of_two)
{
    struct pz_machine m;

    allreduce_machine(&m);
    assert_rel(pz_allreduce_time(&m, 8), 10.016e-6, 1e-9, "no collective overhead");
    m.collective_overhead = 2e-6;
    assert_rel(pz_allreduce_time(&m, 8), 12.016e-6, 1e-9, "2 us first");
}

/* The collective overhead is what the measured MPI_Allreduce takes beyond the model's
 * on the machine without it (10.016 us, above): 13 us measured, 2.984 us; 9 us, less
 * than the model, 0.  The note says how. */
Test(transfer, the_collective_overhead_is_the_allreduce_beyond_the_model)
{
    struct pz_calibration_run run = { 0 };
    struct pz_machine m;
    char note[1024];

    allreduce_machine(&m);
    m.collective_overhead = 5e-6;   /* the fit takes the machine without it */
    run.collective = (struct pz_cal_collective){ .time = 13e-6, .calls = 9000 };
    pz_cal_collective_fit(&run, &m);
    cr_assert(run.collective.measured);
    assert_rel(run.collective.overhead, 2.984e-6, 1e-9, "the excess");
    pz_cal_collective_note(note, sizeof(note), &run);
    cr_assert(strstr(note, "collective_overhead: 2.984 us"), "%s", note);
    cr_assert(strstr(note, "9000 calls of MPI_Allreduce of 8 B"), "%s", note);
    cr_assert(strstr(note, "the machine without it 10.016 us"), "%s", note);
    run.collective.time = 9e-6;
    pz_cal_collective_fit(&run, &m);
    cr_assert_eq(run.collective.overhead, 0);
    run.collective.calls = 0;
    pz_cal_collective_fit(&run, &m);
    cr_assert_not(run.collective.measured, "no calls, not measured");
    run.collective = (struct pz_cal_collective){ .time = NAN, .calls = 9000 };
    pz_cal_collective_fit(&run, &m);
    cr_assert_not(run.collective.measured, "no time, not measured");
}

/* The segments are judged against the machine written without them, the cost model
 * with the overheads on each message's way, not against the cost model alone.  A
 * Hockney ping-pong of t(m) = 4 us + m / 1 GB/s, overheads of 3 us each (an exchange
 * back to back of 100 us scales nothing): the tail is 3 + 3 - 4 = 2 us, so 1 + 3 = 4 us
 * on the way.  The cost model fits t(m) exactly; with the overheads it gives t(m) + 4
 * us, |error| 4 / t(m), falling with m: the median is that of the median size, the
 * 37th of the 73 (8192 B): 4 / (4 + 8.192) = 32.81%.  The segments (latency 0, 1 GB/s
 * under the 4 us) fit exactly, and are kept; against the cost model alone (0%) they
 * were a tie of rounding errors. */
Test(transfer, segments_are_judged_against_the_cost_model_with_the_overheads)
{
    struct pz_transfer_fit t;

    fit_transfer(3, 3, 100, &t);
    assert_rel(t.tail, 2e-6, 1e-6, "send tail");
    assert_rel(t.base.overhead.send + t.base.overhead.recv, 4e-6, 1e-6, "on the way");
    assert_rel(t.previous_error, 100 * 4 / (4 + 8.192), 1e-3, "cost model + overheads");
    cr_assert_lt(t.segments.median_error, 0.01, "segments: %g%%", t.segments.median_error);
    cr_assert(t.segments_kept);
}

/* Segments that are worse than the machine without them are not written. */
Test(transfer, segments_no_better_are_not_kept)
{
    struct pz_transfer_fit t = { .previous_error = 1 };
    struct pz_machine m;

    t.segments.segments = (struct pz_segments){ 1, { { 1024, 1e-6, 1e9 } } };
    t.segments.median_error = 2;
    t.segments_kept = 0;
    pz_machine_defaults(&m);
    pz_transfer_to_machine(&t, 1, &m);
    cr_assert_eq(m.segments.n, 0);
    cr_assert_eq(m.shm_segments.n, 0);
}

/* The cold times replace the warm ones where the ping-pong's buffers exceed the cache:
 * with a 1 MiB cache, on one node 3 x 256 KiB = 768 KiB fit (warm), 3 x 1 MiB do not
 * (cold), nor do 3 x 512 KiB; between two nodes 2 x 512 KiB = 1 MiB fits (not more
 * than the cache). */
Test(cold, the_cold_times_replace_the_warm_ones_beyond_the_cache)
{
    static const struct pz_pingpong warm[] = { { 0, 1e-6 }, { 262144, 20e-6 },
                                               { 524288, 40e-6 }, { 1048576, 80e-6 } };
    static const struct pz_pingpong cold[] = { { 262144, 60e-6 }, { 524288, 90e-6 },
                                               { 1048576, 200e-6 } };
    struct pz_calibration_run run = { .points = warm, .npoints = 4, .cold = cold, .ncold = 3,
                                      .cache_size = 1048576, .cold_pool = 4194304,
                                      .same_node = 1 };
    struct pz_pingpong p[4];

    pz_cal_segment_points(&run, p);
    cr_assert_eq(p[1].time, 20e-6);
    cr_assert_eq(p[2].time, 90e-6, "3 x 512 KiB > 1 MiB");
    cr_assert_eq(p[3].time, 200e-6);
    run.same_node = 0;
    pz_cal_segment_points(&run, p);
    cr_assert_eq(p[2].time, 40e-6, "2 x 512 KiB = 1 MiB fits");
    cr_assert_eq(p[3].time, 200e-6);
    run.cold_pool = 1048576;   /* a pool no larger than the cache: not cold for sure */
    pz_cal_segment_points(&run, p);
    cr_assert_eq(p[3].time, 80e-6);
}

/* The resume overhead from three passes over computations of 0, 25, 50, 100 and 200 us
 * (exchange times in us): pass 0 {4, 5, 6, 8, 8}, pass 1 {5, 6, 7, 9, 10}, pass 2
 * {4, 4.5, 6, 8.5, 7.5}.  Beyond each pass's first: {0, 1, 2, 4, 4}, {0, 1, 2, 4, 5},
 * {0, 0.5, 2, 4.5, 3.5}; over the computations from 100 us, the passes' medians are 4,
 * 4.5 and 4: the overhead is their median, 4 us, the spread (4.5 - 4) / 2 = 0.25 us.
 * The passes' median beyond is {1, 2, 4, 4} at 25..200 us; a ramp to 4 us ending at 25
 * us errs by 3^2 + 2^2 = 13, at 50 us by 1 + 2^2 = 5, at 100 us by 0, at 200 us by
 * 0.5^2 + 1 + 2^2 = 5.25: it ends at 100 us. */
Test(calibrate, the_resume_overhead_is_fitted_from_the_passes)
{
    const double computed[] = { 0, 25e-6, 50e-6, 100e-6, 200e-6 };
    const double extra[] = { 4e-6, 5e-6, 6e-6, 8e-6, 8e-6,   5e-6, 6e-6, 7e-6, 9e-6, 10e-6,
                             4e-6, 4.5e-6, 6e-6, 8.5e-6, 7.5e-6 };
    struct pz_resume_fit f;
    struct pz_machine m;

    pz_fit_resume(computed, extra, 5, 3, 0, &f);
    cr_assert_float_eq(f.overhead, 4e-6, 1e-12);
    cr_assert_float_eq(f.spread, 0.25e-6, 1e-12);
    cr_assert_float_eq(f.after, 100e-6, 1e-12);
    cr_assert_eq(f.points, 2);
    pz_machine_defaults(&m);
    pz_resume_to_machine(&f, 0, &m);
    cr_assert_float_eq(m.resume_overhead, 4e-6, 1e-12);
    cr_assert_eq(m.shm_resume_overhead, 0, "two nodes: the shm_ key stays");
    pz_resume_to_machine(&f, 1, &m);
    cr_assert_float_eq(m.shm_resume_overhead, 4e-6, 1e-12);
}

/* One pass, 4 us beyond its time after computing 0 already after 25 us (exchange times
 * {4, 8, 8, 8, 8} us after 0, 25, 50, 100 and 200 us): the overhead 4 us, and a ramp
 * ending at 25 us meets every point (error 0).  When the sweep needs 100 us to touch
 * as much as the cache holds, the ramp cannot end sooner: at 100 us it errs by
 * (1 - 4)^2 + (2 - 4)^2 = 13 (us^2), at 200 us by (0.5 - 4)^2 + (1 - 4)^2 + (2 - 4)^2 =
 * 25.25: it ends at 100 us; with 150 us, at 200 us, the only one left. */
Test(calibrate, the_resume_ramp_ends_no_sooner_than_the_cache_is_swept)
{
    const double computed[] = { 0, 25e-6, 50e-6, 100e-6, 200e-6 };
    const double extra[] = { 4e-6, 8e-6, 8e-6, 8e-6, 8e-6 };
    struct pz_resume_fit f;

    pz_fit_resume(computed, extra, 5, 1, 0, &f);
    cr_assert_float_eq(f.overhead, 4e-6, 1e-12);
    cr_assert_float_eq(f.after, 25e-6, 1e-12);
    pz_fit_resume(computed, extra, 5, 1, 100e-6, &f);
    cr_assert_float_eq(f.after, 100e-6, 1e-12);
    pz_fit_resume(computed, extra, 5, 1, 150e-6, &f);
    cr_assert_float_eq(f.after, 200e-6, 1e-12);
}

/* Exchanges no slower after computing: no overhead (0, not negative), nothing written;
 * no computation of 100 us or more: nothing measured. */
Test(calibrate, no_resume_overhead_when_computing_costs_nothing)
{
    const double computed[] = { 0, 50e-6, 100e-6 };
    const double faster[] = { 5e-6, 4e-6, 4.5e-6 };
    struct pz_resume_fit f;
    struct pz_machine m;

    pz_fit_resume(computed, faster, 3, 1, 0, &f);
    cr_assert_eq(f.overhead, 0);
    cr_assert_eq(f.after, 0);
    pz_machine_defaults(&m);
    pz_resume_to_machine(&f, 1, &m);
    cr_assert_eq(m.resume_overhead, 0);
    pz_fit_resume(computed, faster, 2, 1, 0, &f);
    cr_assert_eq(f.points, 0);
    cr_assert_eq(f.overhead, 0);
}

/* Exchanges back to back on a switch of latency 50 us and 12.5 MB/s, overheads of 1000 B
 * o_s = 10 us + 0.01 us/B = 20 us and o_r = 20 us + 0.02 us/B = 40 us, the transfer
 * 50 + 80 = 130 us.  Without a duplex overhead both sends leave together and each
 * exchange takes 20 + 130 + 40 = 190 us.  With 6 us: rank 1's first send overlaps rank
 * 0's wholly and leaves at 26 us, so rank 0 is done at 156 + 40 = 196 us and rank 1 at
 * 150 + 40 = 190 us; rank 1's second send (190 to 210 us) then goes first and rank 0's
 * (from 196 us) overlaps it 14 us: 20 + 6 x 14 / 20 = 24.2 us, to 220.2 us.  Rank 0 is
 * done at 210 + 130 + 40 = 380 us, rank 1 at 220.2 + 130 + 40 = 390.2 us; third: rank 0
 * 380 to 400 us, rank 1 from 390.2 us overlapping 9.8 us: 20 + 2.94 us, leaving at
 * 413.14 us, so rank 0 is done at 413.14 + 170 = 583.14 us.  Rank 0's exchanges after
 * its first: (583.14 - 196) / 2 = 193.57 us each. */
Test(duplex, back_to_back_exchanges_pay_the_duplex_overhead)
{
    struct pz_machine m;

    pz_machine_defaults(&m);
    m.latency = 50e-6;
    m.bandwidth = 12.5e6;
    m.overhead = (struct pz_overhead){ 10e-6, 0.01e-6, 20e-6, 0.02e-6 };
    assert_rel(pz_back_to_back_time(&m, 1000, 10), 190e-6, 1e-9, "no duplex overhead");
    m.duplex_overhead = 6e-6;
    assert_rel(pz_back_to_back_time(&m, 1000, 3), 193.57e-6, 1e-9, "6 us");
    cr_assert(isnan(pz_back_to_back_time(&m, 1000, 1)), "one exchange has no period");
}

/* On a machine as calibrated with o_s = 20 us and o_r = 40 us, no latency, empty
 * messages back to back take 60 us + d each (as below: process 1's send overlaps process
 * 0's wholly and bears the duplex overhead d, then both take their receive); measured
 * 70 us: d = 10 us, the machine's overheads kept, 60 us without it.  After a barrier
 * that rank 1 left 10 us later, with d: rank 0's send runs 0 to 20 us; rank 1's, 10 to
 * 30 us, overlaps it 10 of its 20 us and pays 10 x 10 / 20 = 5 us more, arriving at
 * 35 us; rank 0 takes it by 75 us. */
Test(duplex, the_duplex_overhead_fits_the_machine_as_calibrated)
{
    struct pz_duplex_overhead_fit f;
    struct pz_machine m;

    pz_machine_defaults(&m);
    m.latency = 0;
    m.bandwidth = 12.5e6;
    m.overhead = (struct pz_overhead){ 20e-6, 0, 40e-6, 0 };
    pz_fit_calibrated_duplex_overhead(&m, 0, 70e-6, 10e-6, &f);
    assert_rel(f.duplex_overhead, 10e-6, 1e-6, "duplex_overhead");
    cr_assert_eq(f.beyond, 0);
    assert_rel(f.overhead.send, 20e-6, 1e-12, "the send overhead kept");
    assert_rel(f.overhead.recv, 40e-6, 1e-12, "the receive overhead kept");
    assert_rel(f.as_written, 60e-6, 1e-9, "without it");
    assert_rel(f.model, 70e-6, 1e-6, "with it");
    assert_rel(f.exchange, 75e-6, 1e-6, "after the barrier, rank 1 10 us later");
}

/* A ping-pong of latency 60 us and 12.5 MB/s (t(m) = 60 us + m x 80 ns) measured
 * where a send costs its sender 20 us and a receive 50 us (no per-byte cost).  The send
 * keeps its 20 us; the receive gets what the 0-byte time leaves, 60 - 20 = 40 us; per
 * byte both 0.  The segments under them fit t(m) - 60 us: latency 0, 12.5 MB/s.  Empty
 * messages back to back on the fitted machine: both processes post at s; process 0's
 * send runs s to s + 20 us and arrives then, process 1's overlaps it wholly and takes
 * 20 us + the duplex overhead d; both are done at s + 20 + d + 40 us and start again
 * together: each exchange takes 60 us + d.  Measured 70 us: d = 10 us.  The machine as
 * written (no overheads): 60 us.  Measured 50 us, faster than the model without it: 0. */
Test(duplex, the_duplex_overhead_fits_the_exchange_back_to_back)
{
    static const double sizes[] = { 0, 1000, 2000, 4000, 8000 };
    struct pz_pingpong p[5];
    struct pz_line_fit send = { .a = 20e-6 }, recv = { .a = 50e-6 };
    static struct pz_duplex_overhead_fit f;
    struct pz_machine m;

    pz_machine_defaults(&m);
    m.latency = 60e-6;
    m.bandwidth = 12.5e6;
    for (int i = 0; i < 5; i++)
        p[i] = (struct pz_pingpong){ sizes[i], 60e-6 + sizes[i] / 12.5e6 };
    pz_fit_duplex_overhead(&m, 60e-6, 12.5e6, &send, &recv, p, 5, 0, 70e-6, 0, &f);
    assert_rel(f.overhead.send, 20e-6, 1e-12, "the send's, measured");
    assert_rel(f.overhead.recv, 40e-6, 1e-12, "the receive's, the rest of t(0)");
    cr_assert_eq(f.overhead.send_per_byte, 0);
    cr_assert_eq(f.overhead.recv_per_byte, 0);
    cr_assert_geq(f.segments.segments.n, 1);
    cr_assert_lt(f.segments.segments.seg[0].latency, 1e-12, "latency %g",
                 f.segments.segments.seg[0].latency);
    assert_rel(f.segments.segments.seg[0].bandwidth, 12.5e6, 1e-6, "bandwidth");
    assert_rel(f.as_written, 60e-6, 1e-9, "the machine as written");
    assert_rel(f.duplex_overhead, 10e-6, 1e-6, "the duplex overhead");
    cr_assert_eq(f.beyond, 0);
    assert_rel(f.model, 70e-6, 1e-9, "the fitted model");
    pz_fit_duplex_overhead(&m, 60e-6, 12.5e6, &send, &recv, p, 5, 0, 50e-6, 0, &f);
    cr_assert_eq(f.duplex_overhead, 0, "the model is slower already");
    assert_rel(f.model, 60e-6, 1e-9, "the fitted model without it");
}

/* pz_cal_stats of the n times t: its lower quartile, median, mean, trimmed mean and
 * stalls as expected. */
static void expect_stats(const double *t, size_t n, double lower_quartile, double median,
                         double mean, double trimmed, int stalls)
{
    struct pz_cal_stats s;

    pz_cal_stats(t, n, &s);
    assert_rel(s.lower_quartile, lower_quartile, 1e-12, "lower quartile");
    assert_rel(s.median, median, 1e-12, "median");
    assert_rel(s.mean, mean, 1e-12, "mean");
    assert_rel(s.trimmed, trimmed, 1e-12, "trimmed mean");
    cr_assert_eq(s.stalls, stalls);
}

/* The statistics a program's exchanges are fitted to: a stall is left out of the
 * trimmed mean, the rest of the tail kept. */
Test(stats, the_trimmed_mean_leaves_out_a_stall_of_a_small_message)
{
    /* sorted 1 2 3 4 100 (us): the lower quartile at 0.25 x 4 = order statistic 1 (2
     * us), the median 3 us, the mean 110 / 5 = 22 us; the bound min(20 x 3 us, 2 us + 1
     * ms) = 60 us leaves 100 out: (1 + 2 + 3 + 4) / 4 = 2.5 us */
    const double t[] = { 4e-6, 1e-6, 100e-6, 3e-6, 2e-6 };

    expect_stats(t, 5, 2e-6, 3e-6, 22e-6, 2.5e-6, 1);
    assert_rel(pz_cal_typical(t, 5), 2.5e-6, 1e-12, "the keys' statistic");
    cr_assert_eq(t[2], 100e-6, "the times are not reordered");
}

Test(stats, a_large_message_stalls_a_millisecond_beyond_its_lower_quartile)
{
    /* sorted 10 10 10.9 11.5 14 (ms): the lower quartile order statistic 1, 10 ms; the
     * median 10.9 ms; the bound min(218 ms, 10 ms + 1 ms) = 11 ms leaves 11.5 and 14 out:
     * (10 + 10 + 10.9) / 3 = 10.3 ms; the mean 56.4 / 5 = 11.28 ms */
    const double t[] = { 0.0115, 0.010, 0.014, 0.0109, 0.010 };

    expect_stats(t, 5, 0.010, 0.0109, 0.01128, 0.0103, 2);
}

/* A large size's few batches of one round trip each, a load adding a time slice to some. */
Test(stats, one_slow_batch_of_four_moves_a_large_size_not_a_small_one)
{
    /* 1 1 1 4 (ms): the lower quartile at 0.75 between 1 and 1, the median 1 ms; the
     * bound min(20 ms, 1 ms + 1 ms) = 2 ms leaves the 4 out: 1 ms, where the mean is
     * 7 / 4 = 1.75 ms.  The same in us: the bound min(20 us, 1 ms + 1 us) = 20 us keeps
     * it, a small message's loop paying it: 1.75 us */
    const double large[] = { 1e-3, 4e-3, 1e-3, 1e-3 }, small[] = { 1e-6, 4e-6, 1e-6, 1e-6 };
    struct pz_cal_stats s;

    pz_cal_stats(large, 4, &s);
    assert_rel(s.trimmed, 1e-3, 1e-12, "the slow batch left out");
    assert_rel(s.mean, 1.75e-3, 1e-12, "mean");
    cr_assert_eq(s.stalls, 1);
    assert_rel(pz_cal_typical(small, 4), 1.75e-6, 1e-12, "the slow exchange kept");
}

Test(stats, a_load_stalling_most_batches_is_told_from_the_lower_quartile)
{
    /* 16 MiB in 5 batches, three of them 2 ms late: sorted 4.2 4.4 6.3 6.4 6.5 (ms); the
     * lower quartile order statistic 1, 4.4 ms; the median 6.3 ms, itself stalled, whose
     * 1 ms beyond (7.3 ms) would keep all (mean 27.8 / 5 = 5.56 ms); the bound min(126 ms,
     * 4.4 ms + 1 ms) = 5.4 ms keeps 4.2 and 4.4: 4.3 ms */
    const double t[] = { 6.3e-3, 4.2e-3, 6.5e-3, 4.4e-3, 6.4e-3 };

    expect_stats(t, 5, 4.4e-3, 6.3e-3, 5.56e-3, 4.3e-3, 3);
}

Test(stats, the_tail_below_the_bound_counts)
{
    /* 1 2 3 4 (us): the quartile at 0.75 between 1 and 2: 1.75 us; the median 2.5 us; the
     * bound 50 us keeps all: the trimmed mean is the mean, 2.5 us */
    const double t[] = { 1e-6, 2e-6, 3e-6, 4e-6 };

    expect_stats(t, 4, 1.75e-6, 2.5e-6, 2.5e-6, 2.5e-6, 0);
}

Test(stats, the_stall_bound)
{
    assert_rel(pz_cal_stall_bound(9e-6, 10e-6), 200e-6, 1e-12, "20 times a small median");
    assert_rel(pz_cal_stall_bound(0.9e-3, 1e-3), 1.9e-3, 1e-12,
               "a millisecond beyond a large lower quartile");
}

Test(stats, no_times_give_nan)
{
    struct pz_cal_stats s;

    pz_cal_stats(NULL, 0, &s);
    cr_assert(isnan(s.median) && isnan(s.trimmed) && isnan(s.mean));
}

/* A machine with no overheads and every message eager, so that a self message's time is
 * pz_self_time alone; one of one-node TCP's shape otherwise. */
static void self_machine(struct pz_machine *m)
{
    pz_machine_defaults(m);
    m->eager_threshold = 9007199254740992.0;
}

/* Self messages of 0.1 us + m / 10 GB/s up to 1 KiB (a copy) and 20 us + m / 2 GB/s
 * above (through the transport): two segments, 1 KiB and any larger size, recovered
 * exactly and kept; the shm_ cost (1 us + m / 5 GB/s) is far from them: at 0 B
 * (1 - 0.1) / 0.1 = 900% off. */
Test(self, two_pieces_are_recovered)
{
    static struct pz_pingpong p[MAXP];
    static double s[MAXP];
    struct pz_machine m, with;
    struct pz_cal_self_fit f;
    const struct pz_segments *g = &f.segments.segments;
    int n = sizes(s);

    self_machine(&m);
    for (int i = 0; i < n; i++)
        p[i] = (struct pz_pingpong){ s[i], s[i] <= 1024 ? 0.1e-6 + s[i] / 1e10
                                                       : 20e-6 + s[i] / 2e9 };
    pz_cal_fit_self(p, n, &m, &f);
    cr_assert_eq(g->n, 2, "%d segments, expected 2", g->n);
    cr_assert_eq(g->seg[0].upto, 1024);
    cr_assert_eq(g->seg[1].upto, PZ_CAL_SELF_LAST_BOUND);
    assert_rel(g->seg[0].latency, 0.1e-6, 1e-6, "latency 1");
    assert_rel(g->seg[0].bandwidth, 1e10, 1e-6, "bandwidth 1");
    assert_rel(g->seg[1].latency, 20e-6, 1e-6, "latency 2");
    assert_rel(g->seg[1].bandwidth, 2e9, 1e-6, "bandwidth 2");
    cr_assert_lt(f.max_error, 1e-4);
    cr_assert_geq(f.default_max_error, 899);
    cr_assert(f.kept);
    with = m;
    pz_cal_self_to_machine(&f, &with);
    cr_assert_eq(with.self_segments.n, 2);
    /* beyond the largest size measured, the last line: 20 us + 1 GiB / 2 GB/s */
    assert_rel(pz_cal_self_model(&with, 1073741824.0), 20e-6 + 1073741824.0 / 2e9, 1e-6,
               "1 GiB");
}

/* With shm_ overheads (1 us sending, 2 us receiving), a 64 KiB eager threshold and a
 * rendezvous of 5 us, self messages of 13 us + m / 1 GB/s at every size give one
 * segment of 13 us and 1 GB/s: the segments are a self message's whole cost, at 1 MiB
 * 13 + 1048.576 = 1061.576 us; without them the overheads, the shm_ cost (1 us + m / 5
 * GB/s) and the rendezvous (two control messages of 1 us, and 5 us): 3 + 2 + 5 + 1 +
 * 209.7152 = 220.7152 us. */
Test(self, the_segments_are_the_whole_cost)
{
    static struct pz_pingpong p[MAXP];
    static double s[MAXP];
    struct pz_machine m, with;
    struct pz_cal_self_fit f;
    const struct pz_segments *g = &f.segments.segments;
    int n = sizes(s);

    pz_machine_defaults(&m);
    m.shm_overhead = (struct pz_overhead){ 1e-6, 0, 2e-6, 0 };
    m.eager_threshold = 65536;
    m.rendezvous_overhead = 5e-6;
    for (int i = 0; i < n; i++)
        p[i] = (struct pz_pingpong){ s[i], 13e-6 + s[i] / 1e9 };
    pz_cal_fit_self(p, n, &m, &f);
    cr_assert_eq(g->n, 1, "%d segments, expected 1", g->n);
    assert_rel(g->seg[0].latency, 13e-6, 1e-6, "latency");
    assert_rel(g->seg[0].bandwidth, 1e9, 1e-6, "bandwidth");
    cr_assert(f.kept);
    assert_rel(pz_cal_self_model(&m, 1048576), 220.7152e-6, 1e-9, "1 MiB, the shm_ cost");
    with = m;
    pz_cal_self_to_machine(&f, &with);
    assert_rel(pz_cal_self_model(&with, 1048576), 1061.576e-6, 1e-6, "1 MiB, the segment");
}

/* Self messages that cost what the shm_ keys say (1 us + m / 5 GB/s by default: 1.2 us
 * at 1000 B) need no segments: the default has no error, the segments none smaller,
 * and the machine keeps none. */
Test(self, the_shm_cost_needs_no_segments)
{
    static struct pz_pingpong p[MAXP];
    static double s[MAXP];
    struct pz_machine m;
    struct pz_cal_self_fit f;
    int n = sizes(s);

    self_machine(&m);
    assert_rel(pz_cal_self_model(&m, 1000), 1.2e-6, 1e-12, "1000 B");
    for (int i = 0; i < n; i++)
        p[i] = (struct pz_pingpong){ s[i], 1e-6 + s[i] / 5e9 };
    pz_cal_fit_self(p, n, &m, &f);
    cr_assert_lt(f.default_max_error, 1e-9);
    cr_assert_not(f.kept);
    pz_cal_self_to_machine(&f, &m);
    cr_assert_eq(m.self_segments.n, 0);
}

/* Overheads measured at 0 B alone (64 B stalled every time and ended the sizes): each
 * line is the one time, 2 us, with no slope and no error to print, never "nan". */
Test(overhead, one_size_prints_its_time_and_no_error)
{
    struct pz_pingpong zero[] = { { 0, 2e-6 } };
    struct pz_transfer_fit transfer = { .scale = 1, .per_byte_scale = 1 };
    struct pz_calibration_run run = { .send_times = zero, .recv_times = zero,
                                      .loop_times = zero, .noverheads = 1,
                                      .transfer = &transfer };
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    pz_fit_overhead(zero, 1, &transfer.send);
    transfer.recv = transfer.loop = transfer.send;
    cr_assert_eq(transfer.send.points, 1);
    cr_assert_eq(transfer.send.b, 0);
    pz_cal_print_overheads(f, &run);
    fclose(f);
    cr_assert_null(strstr(text, "nan"), "%s", text);
    cr_assert(strstr(text, "send: MPI_Isend+MPI_Wait"), "%s", text);
    cr_assert(strstr(text, " 2 us (1 size: no per-byte cost measured)"), "%s", text);
    free(text);
}

/* The later sender pays the two ranks' MPI_Isend less twice the lone one: 3.05 + 2.5 -
 * 2 x 2.6 = 0.35 us (the probe's numbers over UCX's TCP transport). */
Test(duplex_sends, the_excess_of_the_two_sends_over_two_lone_ones)
{
    cr_assert_float_eq(pz_duplex_overhead_of_sends(3.05e-6, 2.5e-6, 2.6e-6), 0.35e-6, 1e-15);
    cr_assert_float_eq(pz_duplex_overhead_of_sends(2.5e-6, 3.05e-6, 2.6e-6), 0.35e-6, 1e-15,
                       "which rank sent later does not matter");
}

/* 2.5 + 2.5 - 2 x 2.6 = -0.2 us: the exchange's sends were faster than a lone one, 0. */
Test(duplex_sends, a_negative_excess_is_0)
{
    cr_assert_eq(pz_duplex_overhead_of_sends(2.5e-6, 2.5e-6, 2.6e-6), 0);
    cr_assert(isnan(pz_duplex_overhead_of_sends(NAN, 2.5e-6, 2.6e-6)));
    cr_assert(isnan(pz_duplex_overhead_of_sends(2.5e-6, 2.5e-6, NAN)));
}

/* 3.05 + 2.5 - 2 x 2.6 = 0.35 us, written as "0.350 us" with its times. */
Test(duplex_sends, the_measurement_is_fitted_and_noted)
{
    struct pz_calibration_run run = { 0 };
    char note[1024];

    run.duplex_sends = (struct pz_cal_duplex_sends){ .bytes = 1024, .exchanges = 20000,
                                                     .sends = 5000, .lone = 2.6e-6,
                                                     .isend = { 3.05e-6, 2.5e-6 } };
    pz_cal_duplex_sends_fit(&run);
    cr_assert(run.duplex_sends.measured);
    cr_assert_float_eq(run.duplex_sends.overhead, 0.35e-6, 1e-15);
    pz_cal_duplex_sends_note(note, sizeof(note), &run);
    cr_assert(strstr(note, "duplex_overhead: 0.350 us"), "%s", note);
    cr_assert(strstr(note, "3.050 us on rank 0 and 2.500 us on rank 1"), "%s", note);
    cr_assert(strstr(note, "5000 sends whose\nreceiver waits 2.600 us"), "%s", note);
}

/* No exchanges (a run without the measurement): not measured, whatever the times. */
Test(duplex_sends, no_exchanges_is_not_measured)
{
    struct pz_calibration_run run = { 0 };
    char note[1024];

    pz_cal_duplex_sends_fit(&run);
    cr_assert_not(run.duplex_sends.measured);
    pz_cal_duplex_sends_note(note, sizeof(note), &run);
    cr_assert(strstr(note, "not measured"), "%s", note);
}

/* The largest eager size's step reaches the eager threshold even when that size stalled:
 * the machine of each_size_its_factor (eager up to 5000 B), exchanges at 1000 B (2 o +
 * d T with d = 1.2), 4096 B (stalled, 15 ms) and 8192 B (2 o + d (20 us + T) with d =
 * 2.5, o = 2 us by rendezvous): the steps 5000 B: 1.2 (1000 B's,
 * the largest eager size kept) and any: 2.5.  A time that is no number is a stall too. */
Test(duplex, the_eager_threshold_bounds_the_largest_eager_size_kept)
{
    struct pz_pingpong x[3] = { { 1000, 0 }, { 4096, 15e-3 }, { 8192, 0 } };
    struct pz_duplex_fit d;
    struct pz_machine m;
    double o, t;

    duplex_machine(&m);
    m.eager_threshold = 5000;
    o = 3e-6, t = 20e-6;
    x[0].time = 2 * o + 1.2 * t;
    o = 2e-6, t = 10e-6 + 8192 / 100e6 + 20e-6;
    x[2].time = 2 * o + 2.5 * t;
    pz_fit_duplex(&m, x, NULL, 3, &d);
    cr_assert_eq(d.stalled, 1);
    cr_assert_eq(d.steps.n, 2);
    cr_assert_eq(d.steps.step[0].upto, 5000);
    assert_rel(d.steps.step[0].factor, 1.2, 1e-9, "1000 B's factor");
    cr_assert_eq(d.steps.step[1].upto, PZ_DUPLEX_ANY_SIZE);
    assert_rel(d.steps.step[1].factor, 2.5, 1e-9, "8192 B's factor");
    x[1].time = NAN;
    pz_fit_duplex(&m, x, NULL, 3, &d);
    cr_assert_eq(d.stalled, 1, "no number, a stall");
    cr_assert_eq(d.steps.n, 2);
}
