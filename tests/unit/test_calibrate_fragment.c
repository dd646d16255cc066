/* The segments fitted to a ping-pong whose rendezvous sends a first fragment with its
 * request (calibrate_segments.h, base.first_fragment), by hand.
 *
 * The machine the points come from: no overheads, eager up to 50000 B, no rendezvous
 * overhead, a first fragment of 60000 B, and two segments:
 *   up to 65536 B:  10 us + 1 ns per byte     (10000 B: 20 us; 60000 B: 70 us)
 *   beyond:         20 us + 0.5 ns per byte   (100000 B: 70 us)
 * A control message takes the first segment's 0-byte time, 10 us.  One way of a
 * ping-pong (the receive posted first):
 *   eager, up to 50000 B: the segment's time, 10 + m / 1000 us;
 *   above the threshold, at most the fragment (55000, 60000 B): the fragment holds the
 *     message whole and it is received when it arrives: 65 and 70 us;
 *   larger: the fragment (70 us), the clear-to-send (10 us), the rest m - 60000:
 *     70000 B: 80 + 20 = 100 us      100000 B: 80 + 50 = 130 us
 *     160000 B: 80 + (20 + 50) = 150 us      260000 B: 80 + 120 = 200 us
 *     460000 B: 80 + 220 = 300 us            1060000 B: 80 + 520 = 600 us */
#include <criterion/criterion.h>
#include <math.h>

#include "calibrate_segments.h"

#define NP 16

static const double sizes[NP] = { 0,     1000,  5000,   10000,  20000,  30000,
                                  40000, 50000, 55000,  60000,  70000,  100000,
                                  160000, 260000, 460000, 1060000 };
static const double us[NP] = { 10, 11, 15, 20, 30, 40, 50, 60, 65, 70, 100, 130,
                               150, 200, 300, 600 };

static int points(struct pz_pingpong *p)
{
    for (int i = 0; i < NP; i++)
        p[i] = (struct pz_pingpong){ .bytes = sizes[i], .time = us[i] * 1e-6 };
    return NP;
}

/* With the fragment the fit finds the two segments: the eager sizes, the messages the
 * fragment holds whole and the rests of 10000 and 40000 B all lie on the first line
 * (the rests at 20 and 50 us once the fragment's 70 us and the clear-to-send's 10 are
 * taken off), the rests from 100000 B on the second.  The last bound is the largest
 * size, 1060000 B, not the largest rest; the model reproduces every point. */
Test(segments_fragment, the_fit_takes_the_fragment_off)
{
    struct pz_pingpong p[NP];
    struct pz_segment_base base = { .eager_threshold = 50000, .first_fragment = 60000 };
    struct pz_segment_fit f;
    int n = points(p);

    pz_fit_segments(p, n, &base, &f);
    cr_assert_eq(f.segments.n, 2, "%d segments", f.segments.n);
    cr_assert_eq(f.segments.seg[0].upto, 60000);
    cr_assert_float_eq(f.segments.seg[0].latency, 10e-6, 1e-9);
    cr_assert_float_eq(f.segments.seg[0].bandwidth, 1e9, 1e9 * 1e-3);
    cr_assert_eq(f.segments.seg[1].upto, 1060000);
    cr_assert_float_eq(f.segments.seg[1].latency, 20e-6, 1e-9);
    cr_assert_float_eq(f.segments.seg[1].bandwidth, 2e9, 2e9 * 1e-3);
    cr_assert_lt(f.max_error, 0.01, "largest |error| %g%%", f.max_error);
    for (int i = 0; i < n; i++)
        cr_assert_float_eq(pz_segment_model(&f.segments, &base, sizes[i]), us[i] * 1e-6,
                           1e-9, "%g B", sizes[i]);
}

/* Fitted as MPICH's protocol (no fragment), every size above the threshold carries two
 * control messages (20 us) and one transfer of the whole message, what the segments
 * must then give: 55000 B 45 us, 60000 B 50 us (below the eager line's 65 and 70),
 * 70000 B 80 us, 100000 B 110 us, 160000 B 130 us, 260000 B 180 us: a drop and a jump
 * that no two or three lines follow.  Its largest error is well above the fragment's
 * fit, which meets every point. */
Test(segments_fragment, without_the_fragment_the_shape_is_wrong)
{
    struct pz_pingpong p[NP];
    struct pz_segment_base base = { .eager_threshold = 50000 };
    struct pz_segment_fit with, without;
    int n = points(p);

    pz_fit_segments(p, n, &base, &without);
    base.first_fragment = 60000;
    pz_fit_segments(p, n, &base, &with);
    cr_assert_gt(without.max_error, 10 * with.max_error + 0.1, "without %g%%, with %g%%",
                 without.max_error, with.max_error);
}

/* The pieces: 70000 B is split into 60000 and 10000 with one control message (10 us)
 * on top of the overheads; 55000 B (held whole) and 40000 B (eager) are one transfer
 * and add nothing; without a fragment 70000 B adds two control messages. */
Test(segments_fragment, base_time_and_rest)
{
    struct pz_segment_base base = { .eager_threshold = 50000, .first_fragment = 60000 };

    cr_assert(pz_segment_split(&base, 70000));
    cr_assert_not(pz_segment_split(&base, 55000));
    cr_assert_not(pz_segment_split(&base, 40000));
    cr_assert_eq(pz_segment_rest(&base, 70000), 10000);
    cr_assert_eq(pz_segment_rest(&base, 55000), 55000);
    cr_assert_float_eq(pz_segment_base_time(&base, 70000, 10e-6), 10e-6, 1e-15);
    cr_assert_float_eq(pz_segment_base_time(&base, 55000, 10e-6), 0, 1e-15);
    base.first_fragment = 0;
    cr_assert_float_eq(pz_segment_base_time(&base, 70000, 10e-6), 20e-6, 1e-15);
    cr_assert_eq(pz_segment_rest(&base, 70000), 70000);
}
