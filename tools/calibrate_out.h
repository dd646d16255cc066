/* prognoz-calibrate's output, apart from the MPI measurement: the table of
 * shared/seeds/002 and the machine file with a comment on how each value was obtained
 * (docs/calibrate.md). */
#ifndef PZ_CALIBRATE_OUT_H
#define PZ_CALIBRATE_OUT_H

#include <stdio.h>

#include "calibrate_copies.h"
#include "calibrate_fit.h"
#include "calibrate_ob1.h"
#include "calibrate_resume.h"
#include "calibrate_rounds.h"
#include "calibrate_duplex.h"
#include "calibrate_segments.h"
#include "calibrate_self.h"
#include "calibrate_stats.h"
#include "machine.h"

/* The exchanges both ways of one size, each begun as the rank left a barrier. */
struct pz_cal_exchange {
    double bytes;
    double time;    /* s: rank 0's exchange (the median of the rounds' trimmed means) */
    double other;   /* s: rank 1's, likewise */
    double skew;    /* s: how much later rank 1 left the barrier (the median) */
    double offset;  /* s: rank 1's clock less rank 0's, measured before them
                       (calibrate_clock.h) */
};

/* The duplex overhead measured (calibrate_duplex_sends.h): each rank's MPI_Isend in
 * `exchanges` exchanges of bytes both ways back to back, rank 0's in `sends` whose
 * receiver waits (lone), and the duplex overhead of them (pz_duplex_overhead_of_sends);
 * measured 0: not (exchanges 0, or a time NAN). */
struct pz_cal_duplex_sends {
    double bytes, isend[2], lone, overhead;
    int exchanges, sends, measured;
};

/* The collective overhead (calibrate_coll.h): the measured MPI_Allreduce's time per
 * call, the model's on the machine without the key, their excess (the key). */
struct pz_cal_collective {
    double time, model, overhead;
    int calls, measured;
};

/* The overheads, segments, duplex_factor and duplex_overhead fitted with the barrier's
 * skew taken out of the exchanges after it (docs/calibrate.md, "Barrier skew"): the
 * overheads' room from the later rank's start, duplex_factor to the exchanges modelled
 * with rank 1 beginning the skew later, duplex_overhead on that machine to the exchange
 * back to back. */
struct pz_cal_skew_check {
    struct pz_transfer_fit transfer;
    struct pz_duplex_fit duplex;
    struct pz_duplex_overhead_fit back_to_back;   /* overhead: the check's */
    int back_to_back_fitted;                      /* 0: no exchange back to back */
};

/* What was measured, besides the times. */
struct pz_calibration_run {
    const struct pz_pingpong *points;
    const long *roundtrips;      /* timed round trips of each size */
    int npoints;
    const struct pz_cal_exchange *exchanges;   /* exchange both ways at some sizes */
    int nexchanges;
    int same_node;               /* both ranks on one node */
    char host[2][256];           /* MPI_Get_processor_name of each rank */
    char mpi_version[256];       /* the first line of MPI_Get_library_version */
    double seconds;              /* the whole measurement took */
    int remeasured;              /* rounds added to sizes whose rounds disagreed */
    int disagreeing;             /* sizes whose rounds still disagree beyond spread_limit */
    /* the ping-pong's rounds (calibrate_rounds.h): how many of every size (0: not
     * measured in rounds), when each began (s after the first), the time the planned
     * rounds took and the added ones, the spread beyond which a size's rounds disagree,
     * the latency and bandwidth fitted to each planned round alone, and the median and
     * largest spread of the sizes' rounds of messages to oneself */
    int nrounds;
    double round_began[PZ_CAL_ROUNDS];
    double rounds_seconds, extra_seconds, spread_limit;
    double round_latency[PZ_CAL_ROUNDS], round_bandwidth[PZ_CAL_ROUNDS];
    double self_spread_median, self_spread_max;
    /* each planned round's ping-pong time and message to oneself at the sizes
     * PZ_CAL_ROUND_SIZES names (NAN where not measured) */
    double round_pingpong[PZ_CAL_ROUND_SIZES][PZ_CAL_ROUNDS];
    double round_self[PZ_CAL_ROUND_SIZES][PZ_CAL_ROUNDS];
    /* the calibration's state (pz_cal_state_rounds): the ping-pong's size that tags it (0:
     * none, every round kept), the median of its planned rounds at that size (the state
     * is within PZ_CAL_STATE_FACTOR of it), which of them are in the state and how many;
     * every key measured in rounds takes the median of those */
    double state_size, state_time;
    int state_keep[PZ_CAL_ROUNDS], state_kept;
    const char *packet_source;   /* "default" or "--packet-size/--packet-header" */
    /* the progress probe: a nonblocking send of probe_bytes, its sender computing
     * probe_compute seconds before it waits; the receive completed probe_received seconds
     * after it was posted (median of the repetitions) */
    double probe_bytes, probe_compute, probe_received;
    /* the overheads at noverheads sizes up to the eager threshold, each the median of
     * its rounds' trimmed means (the loop's: the median of its repetitions): the sender's
     * MPI_Isend + MPI_Wait, the receiver's MPI_Wait for a message that had arrived
     * (calibrate_overhead.h), the computation delayed by an MPI_Isend in a loop */
    const struct pz_pingpong *send_times, *recv_times, *loop_times;
    int noverheads;
    /* the ping-pong at ncold large sizes with buffers not in cache (median half round
     * trip), each rank rotating among the buffers of a pool of cold_pool bytes;
     * cache_size the last-level cache, 0 if unknown; a cold time replaces the warm one
     * for the segments when the ping-pong's buffers (cold_factor of the size) exceed it */
    const struct pz_pingpong *cold;
    int ncold;
    double cache_size, cold_pool;
    /* the overheads and segments fitted to the above (NULL: not measured) */
    const struct pz_transfer_fit *transfer;
    /* duplex_factor fitted to the exchanges on the machine (NULL: not fitted) */
    const struct pz_duplex_fit *duplex;
    /* MPI_SUM on reduce_bytes of doubles took reduce_time seconds (calibrate_reduce.h);
       reduce_time <= 0: not measured */
    double reduce_bytes, reduce_time;
    /* both ranks computed resume_computed[i] seconds, then exchanged resume_bytes both
     * ways: resume_extra[p * nresume + i] is pass p's exchange time (the
     * trimmed mean of the iterations less the computation); nresume =
     * 0: not measured.  resume: the fit (NULL: not fitted) */
    const double *resume_computed, *resume_extra;
    int nresume, resume_passes;
    double resume_bytes;
    const struct pz_resume_fit *resume;
    /* the overheads at their measured size and the duplex overhead fitted to the
     * exchanges back to back (the resume probe's first row): a check, not written
     * (NULL: not fitted) */
    const struct pz_duplex_overhead_fit *duplex_overhead;
    /* the duplex overhead measured, the key written */
    struct pz_cal_duplex_sends duplex_sends;
    /* the collective overhead measured, the key written */
    struct pz_cal_collective collective;
    /* the fits with the barrier's skew taken out: a check, not written (NULL: not
     * fitted) */
    const struct pz_cal_skew_check *skew_check;
    /* the statistics of each size's ping-pong over its batches' half round trips (the
     * median of each over the rounds; NULL: not kept) */
    const struct pz_cal_stats *pingpong_stats;
    /* the program loop: both ranks compute program_compute seconds, then exchange
     * program_bytes[i] both ways, many times; the statistics of rank 0's exchanges
     * (nprogram = 0: not measured) */
    const double *program_bytes;
    const struct pz_cal_stats *program_stats;
    int nprogram;
    double program_compute;
    /* rank 0's messages to itself at nself sizes (the trimmed mean of each) and
     * self_segments fitted to them (NULL: not fitted) */
    const struct pz_pingpong *self;
    int nself;
    const struct pz_cal_self_fit *self_fit;
    /* under Open MPI, ob1's rendezvous (calibrate_ob1.h: the first fragment and how it
     * was obtained); NULL elsewhere, where nothing of it is printed or noted */
    const struct pz_cal_ob1 *ob1;
    /* rank 0's local copies of copy_bytes[i] took copy_times[i] seconds
     * (calibrate_copies.h); ncopies = 0: not measured */
    double copy_bytes[PZ_CAL_COPY_SIZES], copy_times[PZ_CAL_COPY_SIZES];
    int ncopies;
};

/* How many buffers of a message's size a ping-pong keeps in one cache: 2 per rank (send
 * and receive), the two ranks' 3 buffers on one node (rank 1 answers from the buffer it
 * received into). */
int pz_cal_cold_factor(int same_node);

/* Whether the segments take the cold time of cold size i: its buffers exceed the cache. */
int pz_cal_cold_used(const struct pz_calibration_run *run, int i);

/* The points the segments are fitted to: run's ping-pong with the cold times that
 * pz_cal_cold_used takes, into p (run->npoints). */
void pz_cal_segment_points(const struct pz_calibration_run *run, struct pz_pingpong *p);

/* What the probe says of the MPI library's progress: in_calls when the receive of the
 * (rendezvous) probe completed only once its sender was back in MPI, after computing. */
enum pz_progress pz_cal_progress(const struct pz_calibration_run *run,
                                 const struct pz_fit *fit);

/* Whether the times look like the ranks waited for the CPU rather than for the
 * network, and why in one line into why: MPICH busy-polls, and a rank that shares its
 * core with another busy process waits scheduler ticks (4 ms at 250 Hz).  Signs: a
 * 0-byte half round trip of a millisecond or more, the largest message taking less than
 * twice the time of one 16 times smaller, or more than a tenth of the sizes whose
 * rounds still disagreed after the rounds added. */
int pz_cal_disturbed(const struct pz_calibration_run *run, char *why, size_t len);

/* Sizes like "0 B", "1500 B", "64 KiB", "16 MiB" into buf. */
const char *pz_cal_size(char *buf, size_t len, double bytes);

/* The rounds: when each began, the latency and bandwidth fitted to each alone and how
 * far they disagree, the rounds added and the time they took, the spread of the
 * messages to oneself.  Nothing when not measured in rounds. */
void pz_cal_print_rounds(FILE *out, const struct pz_calibration_run *run);

/* The rounds in the calibration's state (calibrate_rounds.h), what tags them and their
 * median there, each line after prefix (e.g. "# " in the machine file).  Nothing when
 * not measured in rounds. */
void pz_cal_print_state(FILE *out, const char *prefix, const struct pz_calibration_run *run);

/* The table: size, measured time, the error of models A, B and C in percent. */
void pz_cal_print_table(FILE *out, const struct pz_calibration_run *run,
                        const struct pz_fit *fit);

/* The check of the barrier's skew (run->skew_check): its overheads, duplex_factor and
 * duplex_overhead, each with its error. */
void pz_cal_print_skew_check(FILE *out, const struct pz_calibration_run *run);

/* The exchanges: size, one way (the ping-pong's half round trip), both ways on rank 0
 * and on rank 1, how much later rank 1 left the barrier, rank 0's exchange less that
 * (from the later start), its ratio to one way, and when run->duplex is fitted the
 * model's exchange begun together and its error, when run->skew_check is the check's
 * with rank 1 beginning the skew later and its error. */
void pz_cal_print_exchanges(FILE *out, const struct pz_calibration_run *run);

/* The overheads: size, the three times; each line fitted with its error. */
void pz_cal_print_overheads(FILE *out, const struct pz_calibration_run *run);

/* The cold ping-pong: size, warm and cold times, their ratio, which the segments use. */
void pz_cal_print_cold(FILE *out, const struct pz_calibration_run *run);

/* The exchanges after computing, per computation: the passes' times and their median
 * beyond the time after computing nothing; then the resume overhead fitted, with its
 * error.  Nothing when not measured. */
void pz_cal_print_resume(FILE *out, const struct pz_calibration_run *run);

/* The exchange back to back: the median over the passes of the resume probe's time
 * after computing nothing; NAN when not measured. */
double pz_cal_back_to_back(const struct pz_calibration_run *run);

/* The duplex overhead's fit (run->duplex_overhead): the exchange back to back measured,
 * the model's as written and with the overheads at their measured size and the duplex
 * overhead, each with its error, and the exchange after a barrier on the latter.
 * Nothing when not fitted. */
void pz_cal_print_duplex_overhead(FILE *out, const struct pz_calibration_run *run);

/* What a program pays: per size of the program loop, the ping-pong's one way and the
 * loop's exchange, each as lower quartile, median, mean and trimmed mean, and the
 * trimmed mean's excess over the lower quartile.  Nothing when not measured. */
void pz_cal_print_program(FILE *out, const struct pz_calibration_run *run);

/* The segments: the criterion of each number of segments tried, the segments chosen
 * with their errors against the cost model with the overheads. */
void pz_cal_print_segments(FILE *out, const struct pz_calibration_run *run);

/* The fitted values, one line each, for the terminal. */
void pz_cal_print_summary(FILE *out, const struct pz_calibration_run *run,
                          const struct pz_fit *fit, const struct pz_machine *m);

/* The machine file; 0, or -1 (errno) when it cannot be written. */
int pz_cal_write_machine(FILE *f, const struct pz_calibration_run *run,
                         const struct pz_fit *fit, const struct pz_machine *m);

#endif
