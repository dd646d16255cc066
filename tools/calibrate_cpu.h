/* prognoz-calibrate's measurements beyond the ping-pong (docs/calibrate.md): the CPU
 * time of a message inside MPI at each side, and the ping-pong with buffers not in
 * cache.  Rank 0 leads (pz_cal_lead_*), rank 1 answers the order it was sent
 * (pz_cal_answer_*). */
#ifndef PZ_CALIBRATE_CPU_H
#define PZ_CALIBRATE_CPU_H

#include "calibrate_fit.h"
#include "calibrate_stats.h"

#define PZ_CAL_TAG_CONTROL 1
#define PZ_CAL_TAG_PING 2
/* Rank 1 tells rank 0 its receive is posted. */
#define PZ_CAL_TAG_READY 3

/* The orders rank 0 sends rank 1 (besides a count of round trips, >= 0). */
enum pz_cal_order {
    PZ_CAL_STOP = -1,
    PZ_CAL_PROBE = -2,
    PZ_CAL_EXCHANGE = -3,
    PZ_CAL_LOOP = -5,       /* bytes, messages */
    PZ_CAL_COLD = -6,       /* bytes, round trips; then the pool's size */
    PZ_CAL_RESUME = -7,     /* bytes, exchanges, the computation before each */
    PZ_CAL_CLOCK = -8,      /* round trips (calibrate_clock.h) */
};

/* Rank 0: sends rank 1 the order what with its arguments: a size, a count and a time
 * in nanoseconds, as the order takes them. */
void pz_cal_order(long what, long bytes, long count, long nanoseconds);

/* Rank 0: `sends` messages of bytes to rank 1, each once rank 1 says (a 0-byte message
 * tagged PZ_CAL_TAG_READY) that its receive is posted; each timed from MPI_Isend's
 * start to its end, or to the end of the MPI_Wait after it when with_wait.  The
 * trimmed mean (pz_cal_typical) of the times, NAN without memory. */
double pz_cal_time_posted_sends(char *out, long bytes, int sends, int with_wait);

/* Rank 0: the computation delayed by each MPI_Isend of bytes in a loop of `messages`
 * times (compute compute seconds' worth of work; MPI_Isend), against the same loop
 * without sends; the median over repetitions of (loop - computation alone) /
 * messages.  Rank 1 receives the messages with MPI_Recv. */
double pz_cal_lead_loop(char *out, long bytes, int messages, int repetitions, double compute);
void pz_cal_answer_loop(char *buf, long bytes, int messages);

/* Both ranks, `exchanges` times: compute `compute` seconds without MPI calls, then
 * exchange bytes both ways (MPI_Irecv, MPI_Isend, MPI_Waitall), as programs exchange
 * halos between computations; rank 0 times each iteration alone, and the statistics of
 * its time less the computation go into *stats. */
void pz_cal_lead_resume(char *out, char *in, long bytes, int exchanges, double compute,
                        struct pz_cal_stats *stats);
void pz_cal_answer_resume(char *buf, long bytes, int exchanges, double compute);

/* Rank 0: the median half round trip of bytes over round_trips, each sending from and
 * receiving into buffers not used for pool bytes (each rank rotates among the buffers
 * of a pool of that size); -1 if the memory cannot be had (rank 1 then answers
 * nothing either). */
double pz_cal_lead_cold(long bytes, int round_trips, double pool);
void pz_cal_answer_cold(long bytes, int round_trips);

#endif
