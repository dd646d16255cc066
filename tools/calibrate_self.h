/* prognoz calibrate's messages a process sends itself (machine key self_segments,
 * docs/calibrate.md "Messages to oneself"): the fit of segments to their times, its
 * table and its note in the machine file.  Pure arithmetic, no MPI: the measurement is
 * calibrate_mpi.c's. */
#ifndef PZ_CALIBRATE_SELF_H
#define PZ_CALIBRATE_SELF_H

#include <stddef.h>
#include <stdio.h>

#include "calibrate_fit.h"
#include "calibrate_segments.h"
#include "machine.h"

/* The segments fitted to the self messages, and how far the model is from them with
 * and without them. */
struct pz_cal_self_fit {
    struct pz_segment_fit segments;   /* the last bound raised to PZ_CAL_SELF_LAST_BOUND */
    double median_error, max_error;   /* |error| in percent, with the segments */
    double default_median_error, default_max_error;   /* without: the shm_ cost */
    int kept;                         /* the segments' median error is the smaller */
};

/* The last segment's bound: larger self messages extrapolate its line rather than fall
 * back to the shm_ cost. */
#define PZ_CAL_SELF_LAST_BOUND 9007199254740992.0   /* 2^53 B, the largest size */

/* The time the model gives a message of `bytes` that a process of machine m sends
 * itself, Irecv + Isend + Waitall: with self_segments pz_self_time alone; without, its
 * shm_ send and receive overheads, pz_self_time of the message and, above the eager
 * threshold, the rendezvous's two control messages (pz_self_time of 0 B each) and
 * rendezvous_overhead; with a first fragment (rendezvous_first_fragment) a message of
 * more than it takes the fragment's time, one control message, rendezvous_overhead and
 * the rest's time, one of at most it its own time alone. */
double pz_cal_self_model(const struct pz_machine *m, double bytes);

/* Fits self_segments to the n self-message times p (sizes increasing) on machine m (its
 * shm_ overheads, eager threshold and rendezvous overhead already fitted): the
 * segments of pz_fit_segments over the times themselves (segments are a self
 * message's whole cost), the last bound raised to PZ_CAL_SELF_LAST_BOUND; then the
 * errors of the model with them and with m's self_segments as they are (none: the
 * shm_ cost with the overheads, and the rendezvous above the eager threshold). */
void pz_cal_fit_self(const struct pz_pingpong *p, int n, const struct pz_machine *m,
                     struct pz_cal_self_fit *out);

/* Sets m's self_segments to the fit's when it kept them. */
void pz_cal_self_to_machine(const struct pz_cal_self_fit *fit, struct pz_machine *m);

/* The table: size, the time measured, the model's without and with the segments (on m
 * before and after pz_cal_self_to_machine) and their errors; the segments and the
 * choice. */
void pz_cal_print_self(FILE *out, const struct pz_pingpong *p, int n,
                       const struct pz_cal_self_fit *fit, const struct pz_machine *before,
                       const struct pz_machine *after);

/* How self_segments were obtained, for the machine file, into buf. */
const char *pz_cal_self_note(char *buf, size_t len, int n, const struct pz_cal_self_fit *fit);

#endif
