/* The duplex overhead of prognoz calibrate (docs/calibrate.md, "Duplex overhead"): the
 * overheads at their measured size and the CPU time a send pays while its receiver
 * sends back (machine key duplex_overhead), fitted so that the model reproduces the
 * ping-pong and the exchanges back to back of the resume probe's first row, a check
 * that calibrate prints and does not write; and the duplex overhead measured from the
 * senders' times, which calibrate writes. */
#ifndef PZ_CALIBRATE_DUPLEX_H
#define PZ_CALIBRATE_DUPLEX_H

#include "calibrate_segments.h"

/* Exchanges the model runs back to back to find their time. */
#define PZ_BACK_TO_BACK_COUNT 50

/* The time each of count exchanges of bytes both ways takes on m when the two processes
 * exchange back to back (each posts MPI_Irecv and MPI_Isend as soon as it is done with
 * its previous exchange, then waits for both): the mean over rank 0's exchanges after
 * its first, as the resume probe's first row measures them (rank 0's, after an
 * exchange); NAN if the model fails or count < 2. */
double pz_back_to_back_time(const struct pz_machine *m, double bytes, int count);

struct pz_duplex_overhead_fit {
    struct pz_overhead overhead;      /* the send's at its measured size, the receive's
                                         what the ping-pong leaves it */
    struct pz_segment_fit segments;   /* refitted over those overheads */
    double duplex_overhead;           /* s: the fitted key */
    int beyond;                       /* no duplex overhead up to twice the measured
                                         time reaches it (held there) */
    double bytes, measured;           /* the exchange back to back */
    double model;                     /* s: the model's with all of the above */
    double as_written;                /* s: the model's on the machine as calibrated */
    double exchange;                  /* s: the model's exchange of bytes both ways after
                                         a barrier, the second process leaving it skew
                                         later (pz_skewed_exchange_time), with the fit */
};

/* Fits out to the exchange back to back of bytes, measured taking `measured`, on m (the
 * machine as calibrated: its eager threshold, rendezvous overhead, duplex factor, and
 * its keys for as_written).  The send overhead is send's line, per message at most
 * latency (the 0-byte one-way time), per byte at most pz_overhead_per_byte_limit over
 * the n ping-pong points p (with bandwidth, the slope of the largest sizes); the
 * receive's is recv's within what the send leaves of those bounds; the segments are
 * refitted to p over them (pz_fit_segments); then duplex_overhead, by bisection, the
 * one whose pz_back_to_back_time is the measured time (0 if the model is that slow
 * without it); and out->exchange, the model's exchange of bytes after a barrier that
 * the second process left skew later. */
void pz_fit_duplex_overhead(const struct pz_machine *m, double latency, double bandwidth,
                            const struct pz_line_fit *send, const struct pz_line_fit *recv,
                            const struct pz_pingpong *p, int n, double bytes,
                            double measured, double skew, struct pz_duplex_overhead_fit *out);

/* Fits duplex_overhead alone to the same exchange back to back on m as calibrated (its
 * overheads and segments kept): by bisection, as pz_fit_duplex_overhead, the one whose
 * pz_back_to_back_time is the measured time (0 if m is that slow without it); out's
 * overhead and segments are m's (segments.segments.n 0: m's own), out->exchange the
 * model's exchange after a barrier that the second process left skew later, with it. */
void pz_fit_calibrated_duplex_overhead(const struct pz_machine *m, double bytes,
                                       double measured, double skew,
                                       struct pz_duplex_overhead_fit *out);

/* The duplex overhead measured (docs/calibrate.md, "Duplex overhead"): in exchanges
 * back to back each rank's MPI_Isend takes isend_0 and isend_1, one whose receiver is
 * not sending takes lone.  The earlier of two sends pays lone, the later lone plus what
 * its receiver's message on its way costs it, so that is the two ranks' sum less twice
 * lone (which rank is the later one may change from one exchange to the next: the sum
 * does not care), floored at 0; NAN if any time is NAN. */
double pz_duplex_overhead_of_sends(double isend_0, double isend_1, double lone);

#endif
