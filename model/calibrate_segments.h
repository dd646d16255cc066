/* Calibration of the CPU overheads and of the piecewise-linear transfer costs
 * (machine keys send_overhead..., segments; docs/calibrate.md): least-squares lines
 * weighted for relative error, and the choice of a segmentation's breakpoints.  Pure
 * arithmetic, no MPI: the measurements are tools/calibrate_*.c's. */
#ifndef PZ_CALIBRATE_SEGMENTS_H
#define PZ_CALIBRATE_SEGMENTS_H

#include "calibrate_fit.h"
#include "machine.h"

/* A line time = a + b * bytes fitted to points, and how far it is from them. */
struct pz_line_fit {
    double a;              /* s */
    double b;              /* s/B */
    int points;            /* how many points it was fitted to; 0: none */
    double median_error;   /* median |error| in percent (pz_fit_error) */
    double max_error;      /* largest |error| in percent */
};

/* The line a + b * bytes through the n points that minimizes the sum of squared
 * relative errors ((t - a - b m) / t)^2, with a >= 0 and b >= 0 (an overhead is never
 * negative).  With fewer than 2 points: a the one time (or 0), b = 0. */
void pz_fit_overhead(const struct pz_pingpong *p, int n, struct pz_line_fit *fit);

/* The segments' noise floor: relative errors below it are measurement noise that
 * another segment must not chase (the weighted squared error of a fit counts as at
 * least n * PZ_SEG_NOISE^2). */
#define PZ_SEG_NOISE 0.01
/* The fewest sizes one segment is fitted to. */
#define PZ_SEG_MIN_POINTS 3
/* The fastest a segment may be, in multiples of the fastest rate measured (bytes / t(m)
 * over the sizes): a faster one is no transfer but the overheads having taken the
 * slope, and the transfer is what an exchange both ways stretches (duplex_factor). */
#define PZ_SEG_RATE_BOUND 10.0

/* What pz_fit_segments found: for each number of segments k from 1 up, the best
 * breakpoints' weighted squared relative error and its criterion, and the choice. */
struct pz_segment_fit {
    struct pz_segments segments;   /* the choice; n = 0 when none could be fitted */
    int tried;                      /* numbers of segments tried, 1 to tried */
    double sse[PZ_MAX_SEGMENTS];    /* [k - 1]: sum of ((t - model) / t)^2 */
    double bic[PZ_MAX_SEGMENTS];    /* [k - 1]: n ln(max(sse, n noise^2) / n) + (3k - 1) ln n */
    double median_error, max_error; /* of the whole model against t, in percent */
    double bandwidth_bound;         /* B/s: PZ_SEG_RATE_BOUND times the fastest rate */
    int bounded;                    /* segments held at that bound */
};

/* The time the model adds to the segments' at size `bytes`, besides their own latency +
 * bytes / bandwidth: the overheads o_s + o_r, + bytes (O_s + O_r) up to the size the
 * model charges the per-byte ones to (an eager message's copies, cost.h), and, above the
 * eager threshold, the rendezvous handshake (two control messages of the first
 * segment's latency, first_latency, plus rendezvous_overhead).  With a first fragment
 * (machine key rendezvous_first_fragment) a rendezvous message of more than it is two
 * transfers, the fragment's with the request and the rest's after the clear-to-send:
 * the handshake is one control message plus rendezvous_overhead; one of at most the
 * fragment is received when it arrives, one transfer and no handshake. */
struct pz_segment_base {
    struct pz_overhead overhead;
    double eager_threshold;        /* B; 0: every message eager */
    double rendezvous_overhead;    /* s */
    double copies_upto;            /* B: the per-byte overheads' largest size; 0: the
                                      eager threshold's (every size without one) */
    double first_fragment;         /* B: a rendezvous message's bytes that travel with its
                                      request; 0: none (MPICH's protocol) */
};

/* The bytes of a message of `bytes` that the model transfers after a rendezvous's
 * clear-to-send with base's first fragment: bytes less the fragment when a fragment
 * travels and leaves some; else bytes itself, the message's one transfer. */
double pz_segment_rest(const struct pz_segment_base *base, double bytes);

/* Whether a message of `bytes` is two transfers under base: a fragment with the request
 * and the rest. */
int pz_segment_split(const struct pz_segment_base *base, double bytes);

/* The number of refits of the segments with a first fragment: the fragment's own time
 * comes from the segments fitted before. */
#define PZ_SEG_FRAGMENT_REFITS 4

/* The overheads of base on a ping-pong's way of `bytes`: the send's (less its tail) and
 * the receive's, with their per-byte parts for an eager message's copies. */
double pz_segment_overheads(const struct pz_segment_base *base, double bytes);

double pz_segment_base_time(const struct pz_segment_base *base, double bytes,
                            double first_latency);

/* Fits segments to the n ping-pong points p (one-way times t(m), sizes increasing): each
 * segment i's latency_i + m / bandwidth_i is a least-squares line (relative errors,
 * latency >= 0, bandwidth at most fit->bandwidth_bound, PZ_SEG_RATE_BOUND times the
 * fastest m / t(m) measured) through t(m) - base(m) over its sizes, so
 * that base plus segments reproduce t; the breakpoints are measured sizes, each segment
 * of at least PZ_SEG_MIN_POINTS, chosen by dynamic programming for each count k of at
 * most PZ_MAX_SEGMENTS segments; the k kept is the one of the smallest criterion (bic
 * above: a segment must pay for its three parameters).  The first segment's latency
 * enters base above the eager threshold: the fit starts from t(0) - o_s - o_r and is
 * made again with the first fit's latency.  With a first fragment, a message split in
 * two (pz_segment_split) is fitted at the size of its rest, t(m) less base and the
 * fragment's time, among the others by size; the fragment's time starts from the largest
 * eager size's (in proportion to the size) and is taken from the segments fitted before,
 * PZ_SEG_FRAGMENT_REFITS times.  The last segment's bound is the largest size. */
void pz_fit_segments(const struct pz_pingpong *p, int n, const struct pz_segment_base *base,
                     struct pz_segment_fit *fit);

/* The time the segments and base give a ping-pong's one way of `bytes` (bytes at most
 * the last bound): base's time plus the segments' of its one transfer, or, split
 * (pz_segment_split), of the fragment and of the rest. */
double pz_segment_model(const struct pz_segments *s, const struct pz_segment_base *base,
                        double bytes);

/* Everything the overheads and segments of a calibration are (docs/calibrate.md). */
struct pz_transfer_fit {
    struct pz_line_fit send;       /* MPI_Isend + MPI_Wait of an eager message whose
                                      receive is posted: send_overhead(_per_byte) */
    struct pz_line_fit recv;       /* MPI_Wait of a receive whose message has arrived:
                                      recv_overhead(_per_byte) */
    struct pz_line_fit loop;       /* computation delayed per MPI_Isend in a loop of
                                      computing and sending: a check of send */
    struct pz_segment_base base;   /* the overheads and handshake under the segments:
                                      the send overhead less its tail, on the message's
                                      way */
    double scale;                  /* the overheads written are send and recv above
                                      (as measured) times it, to fit within the exchange
                                      back to back (< 1: together they exceeded it) */
    double tail;                   /* s: send_tail, pz_send_tail of the per-message
                                      overheads and t(0) */
    double per_byte_scale;         /* the per-byte ones were scaled by it (< 1: the
                                      overheads exceeded a time from 1 KiB up, or together
                                      more than 1 / fit's bandwidth per byte) */
    int exchange_room;             /* the per-byte scale was lowered further to leave the
                                      transfer room for the exchanges both ways */
    double eager_slope;            /* s/B: the ping-pong's slope over the eager sizes
                                      from PZ_OVERHEAD_LIMIT_FROM up (-1: no threshold,
                                      or fewer than two such sizes) */
    double tail_per_byte;          /* s/B: send_tail_per_byte, what the per-byte
                                      overheads exceed eager_slope by, at most the
                                      send's per byte */
    struct pz_segment_fit segments;
    double previous_error;         /* median |error| of the machine written without the
                                      segments (cost_model, latency, bandwidth, and the
                                      overheads on the message's way) over the same
                                      points */
    int segments_kept;             /* the segments are no worse than that machine */
};

/* The part of a send's overhead its sender spends after the message left (machine key
 * send_tail): what the measured per-message overheads, send and recv, exceed the
 * ping-pong's one way at 0 bytes by, at most the send overhead and not below 0.  A
 * receiver that takes the message while its sender is still in the call that sent it
 * (over loopback TCP the kernel hands the data over within the sender's system call,
 * which returns after) makes the one way shorter than the two overheads; the model then
 * lets the message leave that much before its sender is free, so that one way is the
 * ping-pong's while each process still spends both overheads in full. */
double pz_send_tail(double send, double recv, double one_way);

/* The smallest size whose time bounds the per-byte overheads (smaller ones are too
 * short to tell the per-byte part from the noise). */
#define PZ_OVERHEAD_LIMIT_FROM 1024.0

/* The most per byte the two overheads may take together: at no ping-pong time t(m) of
 * the n points p from PZ_OVERHEAD_LIMIT_FROM bytes up may the overheads (per_message of
 * them per message) exceed it, nor their sum per byte 1 / bandwidth, the slope over the
 * largest sizes; not below 0. */
double pz_overhead_per_byte_limit(double bandwidth, const struct pz_pingpong *p, int n,
                                  double per_message);

/* Fits the overheads to the medians measured at sizes up to the eager threshold (send,
 * recv, loop: ns, nr, nl points, any of them may be 0), scales them down together to
 * fit within back, an exchange both ways back to back (NULL: not measured), where each
 * process spends its send's and its receive's one after the other (timed apart, a
 * loaded machine's preemptions can inflate them beyond it), and keeps them within what
 * the ping-pong allows (a ping-pong cannot spend more CPU time on a message's way than
 * it takes): the per-message ones are kept whole, what of them exceeds fit->latency (the
 * 0-byte time) being the send's tail (pz_send_tail), spent after the message left.
 * With fit's eager threshold the per-byte ones (an eager message's copies) are kept
 * too, the receive's cut to the ping-pong's slope over the eager sizes (eager_slope) and
 * what both exceed that slope by the send's tail per byte (at most the send's).  Without
 * one (and then up to the default threshold the machine keeps, base.copies_upto) the
 * per-byte ones are scaled so that the overheads on the message's way exceed no time
 * t(m) from PZ_OVERHEAD_LIMIT_FROM bytes up and their sum per byte is at most 1 /
 * fit->bandwidth, the slope over the largest sizes (the eager sizes' copies may cost
 * more per byte than large messages, which go otherwise).  With the nx exchanges both
 * ways x (any may be 0), the per-byte ones also leave the transfer room for them: an
 * exchange takes the overheads and the transfer stretched by duplex_factor (at most 2),
 * one way the overheads and the transfer once, so the overheads of a size are at most
 * 2 t(m) - exchange(m), per byte the least over the sizes from PZ_OVERHEAD_LIMIT_FROM
 * up (exchanges of more than PZ_DUPLEX_MAX_RATIO times t(m) left out).  Then the
 * segments to the n ping-pong points p over the overheads on the message's way, with
 * fit's eager threshold and rendezvous overhead, and compares them with fit's cost model
 * (model B if it is the better one, else C, as pz_fit_to_machine chooses). */
void pz_fit_transfer(const struct pz_fit *fit, const struct pz_pingpong *p, int n,
                     const struct pz_pingpong *x, int nx, const struct pz_pingpong *back,
                     const struct pz_pingpong *send, int ns, const struct pz_pingpong *recv,
                     int nr, const struct pz_pingpong *loop, int nl,
                     struct pz_transfer_fit *out);

/* Sets the overheads (send from out->send with its tail, per message and per byte, recv
 * from out->recv) between nodes and, when same_node, the same as the shm_ overheads;
 * send_tail and send_tail_per_byte; and the segments, when kept, as segments and, when
 * same_node, shm_segments: the keys of m that pz_fit_to_machine sets for the latency
 * and bandwidth, likewise. */
void pz_transfer_to_machine(const struct pz_transfer_fit *out, int same_node,
                            struct pz_machine *m);

/* The most exchanged sizes pz_fit_duplex considers. */
#define PZ_DUPLEX_MAX_SIZES 64
/* An exchange both ways longer than this many one-way times is no sharing of the two
 * directions (the two messages one after the other take 2) but a stall (a transport's
 * timer, the scheduler): it is left out of the duplex fit and of the overheads' room. */
#define PZ_DUPLEX_MAX_RATIO 4.0

/* A bound above any message's size: the last duplex step's. */
#define PZ_DUPLEX_ANY_SIZE 9007199254740992.0

/* duplex_factors fitted so that the model reproduces the measured exchanges both ways. */
struct pz_duplex_fit {
    struct pz_size_factors steps;   /* duplex_factors: none when no exchange was measured */
    double factor;        /* the median of the sizes' factors; 1 when none was fitted */
    int sizes;            /* exchanged sizes considered: model holds their times */
    int points;           /* of them, the sizes with a factor of their own */
    int stalled;          /* the sizes left out: longer than PZ_DUPLEX_MAX_RATIO times the
                             model's exchange with factor 1, plus the skew */
    int beyond;           /* sizes whose own factor lay beyond 1 to PZ_DUPLEX_FACTORS_MAX
                             (held at the bound): the transfer the model stretches is too
                             short or too long for their exchange */
    double size_factor[PZ_DUPLEX_MAX_SIZES];   /* each size's factor, NAN if stalled */
    double model[PZ_DUPLEX_MAX_SIZES];   /* the model's exchange with the steps, per size */
    double median_error, max_error;      /* |error| of model against the measured, % */
};

/* The time from the start to the end of an exchange both ways of `bytes` between two
 * processes on nodes of their own of machine m, as the model (comsys.h) predicts it:
 * both post MPI_Irecv then MPI_Isend at 0 and wait for both (their overheads included);
 * NAN if memory ran out. */
double pz_exchange_time(const struct pz_machine *m, double bytes);

/* The time from the start to the end of an MPI_Allreduce of `bytes` (MPI_SUM) by two
 * processes on nodes of their own of machine m, both calling it at 0, as the model
 * predicts it (the algorithm MPICH's version m->mpi takes, its overheads and
 * collective_overhead included): the later end of the two; NAN if memory ran out. */
double pz_allreduce_time(const struct pz_machine *m, double bytes);

/* The same exchange when the second process posts skew seconds after the first (before
 * it when negative), as the calibration's exchanges after a barrier begin (the two
 * processes leave it at different times): from the first process's post to the end of
 * its exchange (pz_exchange_time takes the later end of the two). */
double pz_skewed_exchange_time(const struct pz_machine *m, double bytes, double skew);

/* Fits duplex_factors to the nx measured exchanges x (time of an exchange both ways at
 * each size, on the first process, the second beginning skew[i] later; skew NULL: both
 * begin together; sizes in increasing order) on machine m (a switch, with its latency,
 * bandwidth, segments and overheads already fitted; its duplex_factor and
 * duplex_factors are not used): the model stretches a message's way, not the
 * overheads, so for each size the factor from 1 to PZ_DUPLEX_FACTORS_MAX whose
 * pz_skewed_exchange_time is the measured time (by bisection; a bound when none is),
 * stalled sizes left out (longer than PZ_DUPLEX_MAX_RATIO times the model's exchange
 * begun together plus the skew); the steps: each size's factor up to its size, the
 * largest eager size's up to the eager threshold, the last beyond; then the model's
 * exchange with those steps against each measured one (the error counts every size). */
void pz_fit_duplex(const struct pz_machine *m, const struct pz_pingpong *x,
                   const double *skew, int nx, struct pz_duplex_fit *out);

#endif
