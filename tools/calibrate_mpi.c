/* prognoz-calibrate: the MPI program behind `prognoz calibrate`.  Two ranks play
 * ping-pong over message sizes from 0 bytes to 16 MiB, exchange messages both ways at
 * once at some of the sizes, then rank 0 sends the largest once more without waiting
 * and computes, to see whether the message moves meanwhile; then the CPU time of a
 * message inside MPI at each side and the ping-pong of large sizes with buffers not in
 * cache (calibrate_cpu.c); rank 0 times it all, fits
 * the cost models (model/calibrate_fit.c), prints shared/seeds/002's table and
 * writes a machine file (docs/calibrate.md).  Rank 1 only answers and takes part in the
 * exchanges. */
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate_clock.h"
#include "calibrate_cache.h"
#include "calibrate_cpu.h"
#include "calibrate_duplex_note.h"
#include "calibrate_coll.h"
#include "calibrate_coll_note.h"
#include "calibrate_duplex_sends.h"
#include "calibrate_fit.h"
#include "calibrate_ob1.h"
#include "calibrate_overhead.h"
#include "calibrate_out.h"
#include "calibrate_pause.h"
#include "calibrate_copy.h"
#include "calibrate_reduce.h"
#include "calibrate_resume.h"
#include "calibrate_rounds.h"
#include "calibrate_segments.h"
#include "calibrate_spread.h"
#include "calibrate_sweep.h"
#include "long_options.h"
#include "machine.h"
#include "units.h"

#define TAG_CONTROL PZ_CAL_TAG_CONTROL
#define TAG_PING PZ_CAL_TAG_PING
/* Exchanges timed at each of their sizes in each round of the ping-pong (with --quick:
 * QUICK_EXCHANGES). */
#define EXCHANGES 9
#define QUICK_EXCHANGES 3
/* Progress probes: how many, and how long the sender computes, in one-way times of the
 * probe's size plus a margin, so that a message moving meanwhile has long arrived. */
#define PROBES 3
#define PROBE_COMPUTE_TIMES 4
#define PROBE_COMPUTE_MARGIN 2e-3
#define MAX_SIZES 256
/* A batch of round trips is timed as one, and lasts at least this long, so that the
 * clock's own cost stays below 1% of what it measures. */
#define BATCH_SECONDS 10e-6
#define MAX_BATCH 256
/* The overheads: repetitions kept at each size in each round of the ping-pong (with
 * --quick: QUICK_...), the receiver's delay before its timed wait in one-way times of
 * the size plus a margin, and the compute-and-send loop's messages, computation between
 * them and repetitions. */
#define OVERHEAD_REPETITIONS 21
#define QUICK_OVERHEAD_REPETITIONS 5
#define OVERHEAD_DELAY_TIMES 2
#define OVERHEAD_DELAY_MARGIN 20e-6
/* A send that seemed to wait for the receiver is measured again this many times: a
 * rendezvous waits every time, a stall of the machine does not. */
#define OVERHEAD_RETRIES 2
#define LOOP_MESSAGES 64
#define LOOP_COMPUTE 10e-6
#define LOOP_REPETITIONS 9
#define QUICK_LOOP_REPETITIONS 5
/* The cold ping-pong: round trips per size; the pool of buffers each rank rotates
 * among is twice the cache plus two messages, at most MAX_POOL (QUICK_MAX_POOL). */
#define COLD_ROUND_TRIPS 15
#define QUICK_COLD_ROUND_TRIPS 5
#define MAX_POOL 1073741824.0
#define QUICK_MAX_POOL 268435456.0
#define MAX_OVERHEAD_SIZES 32
/* Messages to oneself: at most SELF_REPETITIONS (QUICK_...) timed at each size, at
 * least SELF_LEAST, until SELF_SECONDS are spent on it. */
#define SELF_REPETITIONS 301
#define QUICK_SELF_REPETITIONS 61
#define SELF_LEAST 11
#define SELF_SECONDS 20e-3
#define SELF_TAG 7
/* The resume overhead: the computations before the exchanges (the first none), the
 * size exchanged, the exchanges timed per computation and pass (with --quick:
 * QUICK_...), and the passes over the computations. */
static const double resume_computations[] = { 0, 10e-6, 25e-6, 50e-6, 100e-6, 200e-6,
                                              400e-6 };
#define RESUME_COMPUTATIONS ((int)(sizeof(resume_computations) / sizeof(double)))
#define RESUME_BYTES 1024
#define RESUME_EXCHANGES 41
#define QUICK_RESUME_EXCHANGES 11
#define RESUME_PASSES 5
/* Exchanges back to back whose MPI_Isend measure the duplex overhead: about 0.1 s of
 * 1 KiB over TCP, enough that a stall or two do not move the trimmed mean; shared by the
 * rounds of the ping-pong, after each of which a share is timed. */
#define DUPLEX_EXCHANGES 20000
#define QUICK_DUPLEX_EXCHANGES 2000
/* MPI_Allreduce calls of the collective overhead (calibrate_coll.h), over all rounds */
#define ALLREDUCE_CALLS 9000
#define QUICK_ALLREDUCE_CALLS 900
/* And the lone sends they are compared with, each a round trip of its own. */
#define DUPLEX_SENDS 5000
#define QUICK_DUPLEX_SENDS 500
/* The program loop: the computation before each exchange (a few microseconds, as halo
 * exchanges and stencils have), the exchanges timed at each size (with --quick:
 * QUICK_...), the largest size. */
#define PROGRAM_COMPUTE 5e-6
#define PROGRAM_EXCHANGES 401
#define QUICK_PROGRAM_EXCHANGES 51
#define PROGRAM_MAX_BYTES 1048576.0

/* The keys and probes whose spread over the rounds calibrate prints (calibrate_spread.h). */
#define MAX_SPREAD_KEYS (8 + 2 * MAX_OVERHEAD_SIZES)
struct spread_keys {
    struct pz_cal_round_key k[MAX_SPREAD_KEYS];
    const int *keep;   /* the rounds in the calibration's state (pz_cal_state_rounds) */
    int n;
    int tried, kept;   /* the overheads' repetitions tried, and kept (calibrate_overhead.h) */
};

struct options {
    const char *output, *name;
    int quick;
    double max_size, per_size, packet_size, packet_header, cache_size;
    double span;   /* s: the least time from the first round of the ping-pong to the last */
    int min_batches, max_batches;
    int packet_given;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mpiexec -n 2 prognoz calibrate [-o FILE] [options]\n"
            "\n"
            "Measures the network between the two ranks (on two nodes, or on one) by\n"
            "ping-pong over message sizes from 0 bytes to 16 MiB, prints for each size the\n"
            "half round trip (the median of rounds at different times) and the\n"
            "error of three cost models in percent, times the CPU overheads of a message at\n"
            "each side and the ping-pong with buffers not in cache, fits overheads and\n"
            "segments (each fit printed with its error), and writes a machine file for\n"
            "prognoz predict (docs/calibrate.md).\n"
            "\n"
            "  -o FILE              the machine file (default: printed after the table)\n"
            "  --name NAME          the machine's name (default: FILE's name without its\n"
            "                       extension, else 'calibrated')\n"
            "  --quick              fewer sizes (up to 1 MiB) and repetitions: a few\n"
            "                       seconds, for tests; not a calibration to trust\n"
            "  --max-size SIZE      the largest message (default 16MiB)\n"
            "  --time SECONDS       time spent on one size, at most (default 0.25), shared by\n"
            "                       its rounds; at least 2 batches of round trips a round\n"
            "                       are timed whatever it takes\n"
            "  --span SECONDS       the ping-pong's 9 rounds spread over at least this\n"
            "                       (default 40, 0 with --quick), other measurements and\n"
            "                       pauses between them\n"
            "  --packet-size SIZE   the packet model's V_max (default 1500B)\n"
            "  --packet-header SIZE the packet model's V_c (default 78B)\n"
            "  --cache-size SIZE    the last-level cache a rank uses, for the cold-buffer\n"
            "                       ping-pong (default: the highest level the kernel describes\n"
            "                       under /sys/devices/system/cpu/cpu0/cache, else sysconf's)\n"
            "\nSee prognoz-calibrate(1).\n");
}

/* This process's rank before MPI_Init, from the process manager's environment (0 when
 * started alone): only rank 0 prints a usage or its errors. */
static int early_rank(void)
{
    static const char *const vars[] = { "PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK" };

    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
        if (getenv(vars[i]))
            return atoi(getenv(vars[i]));
    return 0;
}

static int bad_value(const char *opt, const char *val, const char *what)
{
    if (early_rank() == 0)
        fprintf(stderr, "prognoz calibrate: %s '%s': expected %s\n", opt, val ? val : "",
                what);
    return 2;
}

/* Whether arg is an option that takes a value. */
static int valued(const char *arg)
{
    static const char *const options[] = { "-o", "--name", "--max-size", "--time",
                                           "--span", "--packet-size", "--packet-header",
                                           "--cache-size" };

    for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
        if (!strcmp(arg, options[i]))
            return 1;
    return 0;
}

/* One option with a value (valued(opt)); 0, or 2 after reporting it. */
static int parse_valued(const char *opt, const char *val, struct options *o)
{
    char *end;

    if (!val) {
        if (early_rank() == 0)
            fprintf(stderr, "prognoz calibrate: %s needs a value\n", opt);
        return 2;
    }
    if (!strcmp(opt, "-o")) {
        o->output = val;
    } else if (!strcmp(opt, "--name")) {
        o->name = val;
    } else if (!strcmp(opt, "--max-size")) {
        if (pz_parse_bytes(val, &o->max_size) != 0 || o->max_size < 1024 ||
            o->max_size > 1073741824.0)
            return bad_value(opt, val, "a size from 1KiB to 1GiB");
    } else if (!strcmp(opt, "--time")) {
        o->per_size = strtod(val, &end);
        if (end == val || *end || !(o->per_size > 0 && o->per_size <= 3600))
            return bad_value(opt, val, "seconds, more than 0");
    } else if (!strcmp(opt, "--span")) {
        o->span = strtod(val, &end);
        if (end == val || *end || !(o->span >= 0 && o->span <= 3600))
            return bad_value(opt, val, "seconds, from 0 to 3600");
    } else if (!strcmp(opt, "--cache-size")) {
        if (pz_parse_bytes(val, &o->cache_size) != 0 || o->cache_size < 1024 ||
            o->cache_size > 1073741824.0)
            return bad_value(opt, val, "a size from 1KiB to 1GiB");
    } else if (!strcmp(opt, "--packet-size") || !strcmp(opt, "--packet-header")) {
        double *v = !strcmp(opt, "--packet-size") ? &o->packet_size : &o->packet_header;

        if (pz_parse_bytes(val, v) != 0 || *v > 1073741824.0)
            return bad_value(opt, val, "a size such as 1500B");
        o->packet_given = 1;
    }
    return 0;
}

/* Returns 0, 1 when --help was asked (usage printed), or 2 on a usage error. */
static int parse(int argc, char **argv, struct options *o)
{
    int max_given = 0, time_given = 0, span_given = 0;

    *o = (struct options){ .max_size = 16777216, .per_size = 0.25, .span = 40, .packet_size = 1500,
                           .packet_header = 78, .min_batches = 15, .max_batches = 10000 };
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int rc;

        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            if (early_rank() == 0)
                usage(stdout);
            return 1;
        } else if (!strcmp(arg, "--quick")) {
            o->quick = 1;
        } else if (!valued(arg)) {
            if (early_rank() == 0)
                pz_unexpected_argument("calibrate", arg);
            return 2;
        } else {
            max_given |= !strcmp(arg, "--max-size");
            time_given |= !strcmp(arg, "--time");
            span_given |= !strcmp(arg, "--span");
            if ((rc = parse_valued(arg, i + 1 < argc ? argv[i + 1] : NULL, o)) != 0)
                return rc;
            i++;
        }
    }
    if (!(o->packet_header < o->packet_size)) {
        if (early_rank() == 0)
            fprintf(stderr, "prognoz calibrate: the packet header (%g B) must be smaller than "
                            "the packet (%g B)\n", o->packet_header, o->packet_size);
        return 2;
    }
    if (o->quick) {
        o->max_size = max_given ? o->max_size : 1048576;
        o->per_size = time_given ? o->per_size : 0.02;
        o->span = span_given ? o->span : 0;
        o->min_batches = 5;
        o->max_batches = 200;
    }
    return 0;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static void add(double *sizes, int *n, double v, double max)
{
    if (v <= max && *n < MAX_SIZES)
        sizes[(*n)++] = round(v);
}

/* The message sizes, increasing: 0, the powers of two, dense points around one and two
 * packets, 4 per octave (2 with --quick) from 1 KiB to 1 MiB where eager thresholds
 * lie, and 2 per octave above, so that the bandwidth's sizes (from a sixteenth of the
 * largest) are 9, of which Theil and Sen's slope bears 2 slow ones: of 5, two slow
 * among the largest tilt it by a third. */
static int make_sizes(const struct options *o, double *sizes)
{
    double payload = o->packet_size - o->packet_header, max = o->max_size;
    int n = 0, k = 0, per_octave = o->quick ? 2 : 4;

    add(sizes, &n, 0, max);
    for (double p = 1; p <= max; p *= o->quick ? 8 : 2)
        add(sizes, &n, p, max);
    add(sizes, &n, max, max);
    for (int j = o->quick ? 4 : 1; j * 128 < payload; j += o->quick ? 4 : 1)
        add(sizes, &n, j * 128.0, max);
    add(sizes, &n, payload, max);
    add(sizes, &n, payload + 1, max);
    add(sizes, &n, o->packet_size, max);
    if (!o->quick) {
        add(sizes, &n, o->packet_size + 1, max);
        add(sizes, &n, 2 * payload, max);
        add(sizes, &n, 2 * payload + 1, max);
    }
    for (int e = 10 * per_octave; e <= 20 * per_octave; e++)
        add(sizes, &n, pow(2, (double)e / per_octave), max);
    for (int e = 41; pow(2, e / 2.0) < max; e += 2)
        add(sizes, &n, pow(2, e / 2.0), max);
    qsort(sizes, (size_t)n, sizeof(*sizes), by_double);
    for (int i = 0; i < n; i++)
        if (k == 0 || sizes[i] != sizes[k - 1])
            sizes[k++] = sizes[i];
    return k;
}

/* Rank 0: tells rank 1 to answer count round trips of bytes, or to stop (PZ_CAL_STOP), or
 * to receive a probe of bytes (PZ_CAL_PROBE). */
static void order(long count, long bytes)
{
    pz_cal_order(count, bytes, 0, 0);
}

/* Rank 0: count round trips of bytes; returns the time they took. */
static double pingpong(char *out, char *in, long bytes, long count)
{
    double start = MPI_Wtime();

    for (long i = 0; i < count; i++) {
        MPI_Send(out, (int)bytes, MPI_BYTE, 1, TAG_PING, MPI_COMM_WORLD);
        MPI_Recv(in, (int)bytes, MPI_BYTE, 1, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return MPI_Wtime() - start;
}

/* Rank 1: receives a probe of bytes, waiting for it at once, and tells rank 0 how long
 * after posting the receive it completed. */
static void receive_probe(char *buf, long bytes)
{
    double start = MPI_Wtime(), received;
    MPI_Request req;

    MPI_Irecv(buf, (int)bytes, MPI_BYTE, 0, TAG_PING, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    received = MPI_Wtime() - start;
    MPI_Send(&received, 1, MPI_DOUBLE, 0, TAG_CONTROL, MPI_COMM_WORLD);
}

/* Both ranks: count exchanges of bytes both ways at once, each begun as the rank leaves
 * a barrier; rank 1 then sends rank 0 its times (when it left the barrier, how long its
 * exchange took).  On rank 0 (x not NULL), into x: pz_cal_typical of each rank's exchange
 * times, as the ping-pong's, and the median of how much later rank
 * 1 left the barrier than rank 0, by their clocks less offset (rank 1's clock less rank
 * 0's). */
static void exchanges(char *out, char *in, long bytes, int count, double offset,
                      struct pz_cal_exchange *x)
{
    int peer = x ? 1 : 0;
    double left[EXCHANGES], took[EXCHANGES], theirs[2 * EXCHANGES];

    for (int i = 0; i < count; i++) {
        MPI_Request req[2];
        MPI_Status status[2];   /* gcc 12 warns on MPI_STATUSES_IGNORE here */

        MPI_Barrier(MPI_COMM_WORLD);
        left[i] = MPI_Wtime();
        MPI_Irecv(in, (int)bytes, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(out, (int)bytes, MPI_BYTE, peer, TAG_PING, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, status);
        took[i] = MPI_Wtime() - left[i];
    }
    if (!x) {
        memcpy(theirs, left, (size_t)count * sizeof(*left));
        memcpy(theirs + count, took, (size_t)count * sizeof(*took));
        MPI_Send(theirs, 2 * count, MPI_DOUBLE, 0, TAG_CONTROL, MPI_COMM_WORLD);
        return;
    }
    MPI_Recv(theirs, 2 * count, MPI_DOUBLE, 1, TAG_CONTROL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    x->time = pz_cal_typical(took, count);
    x->other = pz_cal_typical(theirs + count, count);
    for (int i = 0; i < count; i++)
        theirs[i] -= offset + left[i];
    x->skew = pz_fit_median(theirs, count);
}

/* Rank 1: answers what rank 0 orders until it says stop; buf holds two messages of the
 * largest size. */
static void answer(char *buf, long biggest, int count)
{
    long msg[4];

    for (;;) {
        MPI_Recv(msg, 4, MPI_LONG, 0, TAG_CONTROL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (msg[0] == PZ_CAL_OVERHEAD_ARRIVED) {
            pz_cal_answer_overhead_arrived(buf, msg[1], msg[3] * 1e-9);
            continue;
        }
        if (msg[0] == PZ_CAL_LOOP) {
            pz_cal_answer_loop(buf, msg[1], (int)msg[2]);
            continue;
        }
        if (msg[0] == PZ_CAL_RESUME) {
            pz_cal_answer_resume(buf, msg[1], (int)msg[2], msg[3] * 1e-9);
            continue;
        }
        if (msg[0] == PZ_CAL_COLD) {
            pz_cal_answer_cold(msg[1], (int)msg[2]);
            continue;
        }
        if (msg[0] == PZ_CAL_CLOCK) {
            pz_cal_answer_clock((int)msg[2]);
            continue;
        }
        if (msg[0] == PZ_CAL_DUPLEX_SENDS) {
            pz_cal_answer_duplex_sends(buf, msg[1], (int)msg[2], (int)msg[3]);
            continue;
        }
        if (msg[0] == PZ_CAL_ALLREDUCE) {
            pz_cal_answer_allreduce((int)msg[2]);
            continue;
        }
        if (msg[0] == PZ_CAL_PAUSE) {
            pz_cal_answer_pause(msg[3]);
            continue;
        }
        if (msg[0] == PZ_CAL_PROBE) {
            receive_probe(buf, msg[1]);
            continue;
        }
        if (msg[0] == PZ_CAL_EXCHANGE) {
            exchanges(buf, buf + biggest, msg[1], count, 0, NULL);
            continue;
        }
        if (msg[0] < 0)
            return;
        for (long i = 0; i < msg[0]; i++) {
            MPI_Recv(buf, (int)msg[1], MPI_BYTE, 0, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)msg[1], MPI_BYTE, 0, TAG_PING, MPI_COMM_WORLD);
        }
    }
}

/* A batch: one round trip untimed (rank 1 is back in its loop), then count timed; the
 * half round trip. */
static double batch(char *out, char *in, long bytes, long count)
{
    order(count + 1, bytes);
    pingpong(out, in, bytes, 1);
    return pingpong(out, in, bytes, count) / (2.0 * count);
}

/* Rank 0: one round of size bytes: batches of *count round trips (when 0, chosen from a
 * first batch so that a batch lasts BATCH_SECONDS, and kept for the size's later
 * rounds: a batch of a large size is hundreds of milliseconds on a loaded machine) until
 * its share of the time for a size is spent (at least its share of min_batches and 2,
 * at most its share of max_batches, which a small size reaches only after tens of
 * milliseconds: a round much shorter than a busy machine's scheduling period would fall
 * within one stall); pz_cal_typical of their half round trips, their statistics into
 * *stats.  Adds the round trips timed to *total. */
static double measure_once(const struct options *o, char *out, char *in, long bytes,
                           long *count, double *halves, long *total, struct pz_cal_stats *stats)
{
    double start = MPI_Wtime(), budget = o->per_size / PZ_CAL_ROUNDS;
    int n = 0, least = (o->min_batches + PZ_CAL_ROUNDS - 1) / PZ_CAL_ROUNDS;
    int most = o->max_batches / PZ_CAL_ROUNDS;

    if (*count == 0) {
        *count = (long)ceil(BATCH_SECONDS / (2 * batch(out, in, bytes, 2)));
        *count = *count < 1 ? 1 : *count > MAX_BATCH ? MAX_BATCH : *count;
    }
    least = least < 2 ? 2 : least;
    most = most < least ? least : most;
    while (n < most && (n < least || MPI_Wtime() - start < budget))
        halves[n++] = batch(out, in, bytes, *count);
    *total += n * *count;
    pz_cal_stats(halves, n, stats);
    return stats->trimmed;
}

/* The rounds of one size: its ping-pong's, PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS at most,
 * with the round trips of a batch (0 until the first round), and its messages to
 * itself, one per planned round. */
struct rounds {
    double r[PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS];
    struct pz_cal_stats stats[PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS];
    int n;
    long count;
    double self[PZ_CAL_ROUNDS];
    double spread;   /* of r, pz_cal_round_time */
};

/* What the rounds measure and where they keep it: rank 0's buffers, the sizes, and per
 * size its rounds and the round trips timed. */
struct rounds_run {
    const struct options *o;
    const double *sizes;
    int n;
    char *out, *in;
    double *halves;   /* o->max_batches times */
    struct rounds *rounds;
    long *roundtrips;
    /* the rounds in the calibration's state (pz_cal_state_rounds): every one until the
     * planned rounds are done, the added ones always */
    int keep[PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS];
};

/* One message of bytes from rank 0 to itself, as MPICH's scattered MPI_Alltoall posts
 * its own block: MPI_Irecv, MPI_Isend, MPI_Waitall.  Returns the time it took. */
static double self_once(char *out, char *in, long bytes)
{
    MPI_Request req[2];
    MPI_Status st[2];
    double start = MPI_Wtime();

    MPI_Irecv(in, (int)bytes, MPI_BYTE, 0, SELF_TAG, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out, (int)bytes, MPI_BYTE, 0, SELF_TAG, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, st);
    return MPI_Wtime() - start;
}

/* Rank 0 alone (rank 1 waits for its next order): round r of the messages to itself at
 * every size, each the trimmed mean of its repetitions after one untimed (a round's
 * share of SELF_SECONDS and SELF_REPETITIONS), into the size's rounds. */
static void measure_self(const struct options *o, struct rounds_run *rr, int r)
{
    int most = (o->quick ? QUICK_SELF_REPETITIONS : SELF_REPETITIONS) / PZ_CAL_ROUNDS;
    int least = (SELF_LEAST + PZ_CAL_ROUNDS - 1) / PZ_CAL_ROUNDS;

    if (most > o->max_batches)
        most = o->max_batches;   /* halves holds max_batches */
    most = most < least ? least : most;
    for (int i = 0; i < rr->n; i++) {
        long bytes = (long)rr->sizes[i];
        double start = MPI_Wtime();
        int k = 0;

        self_once(rr->out, rr->in, bytes);
        while (k < most && (k < least || MPI_Wtime() - start < SELF_SECONDS / PZ_CAL_ROUNDS))
            rr->halves[k++] = self_once(rr->out, rr->in, bytes);
        rr->rounds[i].self[r] = pz_cal_typical(rr->halves, k);
    }
}

/* Each statistic of a size's rounds in the calibration's state (keep): their median,
 * into out. */
static void median_stats(const struct rounds *rd, const int *keep, struct pz_cal_stats *out)
{
    double v[4][PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS];
    int k = 0;

    for (int i = 0; i < rd->n; i++) {
        if (!keep[i])
            continue;
        v[0][k] = rd->stats[i].lower_quartile;
        v[1][k] = rd->stats[i].median;
        v[2][k] = rd->stats[i].mean;
        v[3][k++] = rd->stats[i].trimmed;
    }
    out->lower_quartile = pz_fit_median(v[0], k);
    out->median = pz_fit_median(v[1], k);
    out->mean = pz_fit_median(v[2], k);
    out->trimmed = pz_fit_median(v[3], k);
    out->stalls = 0;
    for (int i = 0; i < rd->n; i++)
        out->stalls += keep[i] ? rd->stats[i].stalls : 0;
}

/* Rank 0: one round of the ping-pong over the sizes whose only[i] is set (every size
 * when only is NULL). */
static void pingpong_round(struct rounds_run *rr, const int *only)
{
    for (int i = 0; i < rr->n; i++) {
        struct rounds *rd = &rr->rounds[i];

        if (only && !only[i])
            continue;
        rd->r[rd->n] = measure_once(rr->o, rr->out, rr->in, (long)rr->sizes[i], &rd->count,
                                    rr->halves,
                                    &rr->roundtrips[i], &rd->stats[rd->n]);
        rd->n++;
    }
}

/* Rank 0: round r of the ping-pong, begun no earlier than its share of the span after
 * first (both ranks pause until then), and of the messages to itself; when it began
 * into *began (s after first), how long its ping-pong took added to *seconds. */
static void measure_round(struct rounds_run *rr, int r, double first, double *began,
                          double *seconds)
{
    double start = MPI_Wtime();

    pz_cal_lead_pause(first + pz_cal_round_start(r, PZ_CAL_ROUNDS, rr->o->span) - start);
    start = MPI_Wtime();
    *began = start - first;
    pingpong_round(rr, NULL);
    *seconds += MPI_Wtime() - start;
    measure_self(rr->o, rr, r);
}

/* Rank 0: which of size i's rounds are in the calibration's state, into keep: a planned
 * round as rr->keep says; a round added to it, at a size whose states are told apart
 * (from PZ_CAL_STATE_LEAST), when within PZ_CAL_STATE_FACTOR of the median of its
 * planned rounds kept, else always. */
static void size_keep(const struct rounds_run *rr, int i, int *keep)
{
    const struct rounds *rd = &rr->rounds[i];
    int planned = rd->n < PZ_CAL_ROUNDS ? rd->n : PZ_CAL_ROUNDS;
    double spread, mid = pz_cal_kept_time(rd->r, rr->keep, planned, &spread);

    for (int r = 0; r < rd->n; r++)
        keep[r] = r < PZ_CAL_ROUNDS ? rr->keep[r]
                                    : rr->sizes[i] < PZ_CAL_STATE_LEAST || isnan(mid) ||
                                          (rd->r[r] <= mid * PZ_CAL_STATE_FACTOR &&
                                           rd->r[r] >= mid / PZ_CAL_STATE_FACTOR);
}

/* Rank 0: the sizes' times and spreads from their rounds so far in the calibration's
 * state (size_keep), into points. */
static void round_times(struct rounds_run *rr, struct pz_pingpong *points)
{
    int keep[PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS];

    for (int i = 0; i < rr->n; i++) {
        size_keep(rr, i, keep);
        points[i].bytes = rr->sizes[i];
        points[i].time = pz_cal_kept_time(rr->rounds[i].r, keep, rr->rounds[i].n,
                                          &rr->rounds[i].spread);
    }
}

/* Rank 0: which sizes' rounds disagree (spread beyond limit) into only; how many. */
static int disagreeing(const struct rounds_run *rr, double limit, int *only)
{
    int k = 0;

    for (int i = 0; i < rr->n; i++)
        k += only[i] = !(rr->rounds[i].spread <= limit);
    return k;
}

/* Rank 0: after the planned rounds, up to PZ_CAL_EXTRA_ROUNDS more of the sizes whose
 * rounds disagree beyond the sizes' spread (pz_cal_spread_limit), each begun as a
 * planned round would be (the rounds' pace after first, both ranks pausing until then:
 * rounds one after the other would be one moment of the machine, and could outvote the
 * planned rounds' median), until their ping-pong took PZ_CAL_EXTRA_SHARE of the planned
 * rounds'; the times into points, into run the limit, the rounds added, the sizes still
 * disagreeing and the ping-pong time taken. */
static void extra_rounds(struct rounds_run *rr, struct pz_pingpong *points,
                         struct pz_calibration_run *run, double first)
{
    static double spreads[MAX_SIZES];
    static int only[MAX_SIZES];

    round_times(rr, points);
    for (int i = 0; i < rr->n; i++)
        spreads[i] = rr->rounds[i].spread;
    run->spread_limit = pz_cal_spread_limit(spreads, rr->n);
    run->extra_seconds = 0;
    for (int extra = 0; extra < PZ_CAL_EXTRA_ROUNDS; extra++) {
        int k = disagreeing(rr, run->spread_limit, only);
        double start;

        if (k == 0 || run->extra_seconds >= PZ_CAL_EXTRA_SHARE * run->rounds_seconds)
            break;
        start = MPI_Wtime();
        pz_cal_lead_pause(first + pz_cal_round_start(PZ_CAL_ROUNDS + extra, PZ_CAL_ROUNDS,
                                                     rr->o->span) - start);
        start = MPI_Wtime();
        pingpong_round(rr, only);
        run->extra_seconds += MPI_Wtime() - start;
        run->remeasured += k;
        round_times(rr, points);
    }
    run->disagreeing = disagreeing(rr, run->spread_limit, only);
}

/* Rank 0: each planned round's times at the sizes PZ_CAL_ROUND_SIZES names, into run. */
static void round_sizes(const struct rounds_run *rr, struct pz_calibration_run *run)
{
    for (int k = 0; k < PZ_CAL_ROUND_SIZES; k++)
        for (int r = 0; r < PZ_CAL_ROUNDS; r++)
            run->round_pingpong[k][r] = run->round_self[k][r] = NAN;
    for (int i = 0; i < rr->n; i++)
        for (int k = 0; k < PZ_CAL_ROUND_SIZES; k++)
            if (rr->sizes[i] == pz_cal_round_sizes[k])
                for (int r = 0; r < PZ_CAL_ROUNDS; r++) {
                    run->round_pingpong[k][r] = rr->rounds[i].r[r];
                    run->round_self[k][r] = rr->rounds[i].self[r];
                }
}

/* Rank 0: the keys fitted to each planned round alone, into run (how far they disagree
 * is how much the moment of a calibration moves them). */
static void round_keys(const struct options *o, const struct rounds_run *rr,
                       struct pz_calibration_run *run)
{
    static struct pz_pingpong p[MAX_SIZES];
    struct pz_fit fit;
    char err[256];

    for (int r = 0; r < PZ_CAL_ROUNDS; r++) {
        for (int i = 0; i < rr->n; i++)
            p[i] = (struct pz_pingpong){ rr->sizes[i], rr->rounds[i].r[r] };
        run->round_latency[r] = run->round_bandwidth[r] = NAN;
        if (pz_fit_pingpong(p, rr->n, o->packet_size, o->packet_header, &fit, err,
                            sizeof(err)) == 0) {
            run->round_latency[r] = fit.latency;
            run->round_bandwidth[r] = fit.bandwidth;
        }
    }
    run->nrounds = PZ_CAL_ROUNDS;
    round_sizes(rr, run);
}

/* Rank 0: the messages to itself at each size, the median of its rounds, into self; the
 * median and largest spread of the sizes' rounds into run. */
static void self_times(const struct rounds_run *rr, struct pz_pingpong *self,
                       struct pz_calibration_run *run)
{
    static double spreads[MAX_SIZES];

    for (int i = 0; i < rr->n; i++) {
        self[i].bytes = rr->sizes[i];
        self[i].time = pz_cal_round_time(rr->rounds[i].self, PZ_CAL_ROUNDS, &spreads[i]);
    }
    run->self_spread_max = 0;
    for (int i = 0; i < rr->n; i++)
        run->self_spread_max = fmax(run->self_spread_max, spreads[i]);
    run->self_spread_median = pz_fit_median(spreads, rr->n);
}

/* Rank 0: the ping-pong's statistics per size, the median of each over its rounds in
 * the calibration's state (size_keep). */
static void round_stats(const struct rounds_run *rr, struct pz_cal_stats *stats)
{
    int keep[PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS];

    for (int i = 0; i < rr->n; i++) {
        size_keep(rr, i, keep);
        median_stats(&rr->rounds[i], keep, &stats[i]);
    }
}

static void compute_for(double seconds)
{
    double start = MPI_Wtime();

    while (MPI_Wtime() - start < seconds)
        ;
}

/* Rank 0: one progress probe: a nonblocking send of bytes, then computation (no MPI
 * call) for compute seconds, then the wait.  Returns how long after posting its receive
 * rank 1 had the message: about the transfer if the library moved it meanwhile, more
 * than compute if it moved only in the wait. */
static double probe_once(char *out, long bytes, double compute)
{
    MPI_Request req;
    double received;

    order(PZ_CAL_PROBE, bytes);
    MPI_Isend(out, (int)bytes, MPI_BYTE, 1, TAG_PING, MPI_COMM_WORLD, &req);
    compute_for(compute);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Recv(&received, 1, MPI_DOUBLE, 1, TAG_CONTROL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return received;
}

/* Rank 0: the progress probes with the largest size, whose one-way time is one_way. */
static void probe(const struct options *o, struct pz_calibration_run *run, char *out,
                  long bytes, double one_way)
{
    double received[PROBES];
    int n = o->quick ? 1 : PROBES;

    run->probe_bytes = (double)bytes;
    run->probe_compute = PROBE_COMPUTE_TIMES * one_way + PROBE_COMPUTE_MARGIN;
    for (int i = 0; i < n; i++)
        received[i] = probe_once(out, bytes, run->probe_compute);
    run->probe_received = pz_fit_median(received, n);
}

static int exchange_count(const struct options *o)
{
    return o->quick ? QUICK_EXCHANGES : EXCHANGES;
}

/* Whether the exchanges measure size bytes, among the ping-pong's sizes: 0, 256 B, 1 KiB
 * and every power of two from 4 KiB (with --quick, 0 and the powers of four from 64 B):
 * the factor of an exchange both ways over one way changes quickly with the size
 * above the eager threshold (over TCP from 1.4 to above 2 and down to 1.1 within a
 * few powers of two), and duplex_factors takes a step per size measured. */
static int exchanged(const struct options *o, double bytes)
{
    int e;

    if (bytes == 0)
        return 1;
    if (frexp(bytes, &e) != 0.5)
        return 0;
    e--;
    if (o->quick)
        return e >= 6 && e % 2 == 0;
    return e == 8 || e == 10 || e >= 12;
}

/* Rank 0: the exchanges at the ping-pong's sizes that exchanged() picks, into x, each
 * size's after measuring the clocks' offset anew (one reading gone wrong then spoils
 * one size's skew, not all); returns how many sizes. */
static int measure_exchanges(const struct options *o, const struct pz_pingpong *points,
                             int n, char *out, char *in, struct pz_cal_exchange *x)
{
    int count = exchange_count(o), nx = 0;

    for (int i = 0; i < n; i++) {
        if (!exchanged(o, points[i].bytes))
            continue;
        x[nx].offset = pz_cal_clock_offset();
        order(PZ_CAL_EXCHANGE, (long)points[i].bytes);
        x[nx].bytes = points[i].bytes;
        exchanges(out, in, (long)points[i].bytes, count, x[nx].offset, &x[nx]);
        nx++;
    }
    return nx;
}

/* Up to 1000 round trips of 0 bytes and 4 of the largest size (1 with --quick), for
 * at most the time of one size: connections made, buffers and caches warm. */
static void warm_up(const struct options *o, char *out, char *in, long biggest)
{
    double start = MPI_Wtime();

    for (int i = 0; i < 10 && MPI_Wtime() - start < o->per_size; i++)
        batch(out, in, 0, 100);
    batch(out, in, biggest, o->quick ? 1 : 4);
}

/* The one-way time of the smallest measured size of at least bytes (else the largest). */
static double time_at(const struct pz_pingpong *p, int n, double bytes)
{
    for (int i = 0; i < n; i++)
        if (p[i].bytes >= bytes)
            return p[i].time;
    return p[n - 1].time;
}

/* The eager threshold of the ping-pong measured so far: the step's, else the default. */
static double eager_of(const struct options *o, const struct pz_pingpong *p, int n)
{
    struct pz_fit fit;
    struct pz_machine m;
    char err[256];

    if (pz_fit_pingpong(p, n, o->packet_size, o->packet_header, &fit, err, sizeof(err)) == 0 &&
        fit.eager_threshold > 0)
        return fit.eager_threshold;
    pz_machine_defaults(&m);
    return m.eager_threshold;
}

/* The overheads measured in rounds: their sizes (fixed by the first round), each round's
 * send and receive time per size, the repetitions tried and kept over all. */
struct overhead_rounds {
    double bytes[MAX_OVERHEAD_SIZES];
    double send[MAX_OVERHEAD_SIZES][PZ_CAL_ROUNDS], recv[MAX_OVERHEAD_SIZES][PZ_CAL_ROUNDS];
    double recv_all[MAX_OVERHEAD_SIZES][PZ_CAL_ROUNDS];   /* kept or not */
    int k, tried, kept;
};

/* Rank 0: the probe of the overheads at bytes (calibrate_overhead.h) into *p, measured
 * again up to OVERHEAD_RETRIES times while its send lasted more than half the receiver's
 * delay (a rendezvous waits every time, a stall of the machine does not); returns
 * whether the send still did (an empty message always goes eagerly: a slow one waited
 * for the CPU). */
static int overhead_probe(const struct options *o, const struct pz_pingpong *p, int n,
                          char *out, double bytes, double offset,
                          struct pz_cal_overhead_probe *probe)
{
    double one_way = time_at(p, n, bytes);
    double delay = OVERHEAD_DELAY_TIMES * one_way + OVERHEAD_DELAY_MARGIN;
    int reps = o->quick ? QUICK_OVERHEAD_REPETITIONS : OVERHEAD_REPETITIONS, tries = 0;

    do
        pz_cal_lead_overhead_arrived(out, (long)bytes, reps, delay, one_way, offset, probe);
    while (bytes > 0 && probe->send > delay / 2 && tries++ < OVERHEAD_RETRIES);
    return bytes > 0 && probe->send > delay / 2;
}

/* Rank 0: round r of the overheads (docs/calibrate.md, "Overheads"), after round r of
 * the ping-pong whose times so far are p: in the first, at 0 B, the powers of four from
 * 64 B up to the eager threshold and the threshold itself, so that every message goes
 * eagerly, a size above 0 B whose send waited for the receiver in every try
 * (overhead_probe) ending the sizes uncounted (the threshold was found too high); in the
 * others, at the same sizes.  The clocks' offset is measured anew before each round. */
static void overheads_round(const struct options *o, const struct pz_pingpong *p, int n,
                            char *out, struct overhead_rounds *ov, int r)
{
    double offset = pz_cal_clock_offset();

    if (r == 0) {
        double eager = eager_of(o, p, n);

        ov->k = 0;
        for (double b = 0; b <= eager && b <= o->max_size && ov->k < MAX_OVERHEAD_SIZES;
             b = b ? 4 * b : 64)
            ov->bytes[ov->k++] = b;
        /* the largest eager size too: the per-byte lines' far end, where a size's noise
           tilts them least */
        if (ov->k > 0 && ov->bytes[ov->k - 1] < eager && eager <= o->max_size &&
            ov->k < MAX_OVERHEAD_SIZES)
            ov->bytes[ov->k++] = eager;
    }
    for (int i = 0; i < ov->k; i++) {
        struct pz_cal_overhead_probe probe;
        int waited = overhead_probe(o, p, n, out, ov->bytes[i], offset, &probe);

        if (r == 0 && waited) {
            ov->k = i;   /* the send waited for the receiver's wait: not eager after all */
            break;
        }
        ov->send[i][r] = probe.send;
        ov->recv[i][r] = probe.recv;
        ov->recv_all[i][r] = probe.recv_all;
        ov->tried += probe.tried;
        ov->kept += probe.kept;
    }
}

/* Rank 0: the overheads of each size, the median of its rounds in the calibration's
 * state (keep), into send and recv (of the receive's, those rounds that kept a try; of
 * every try in every round only when none did); the compute-and-send loop at the same
 * sizes, measured once, into loop; returns how many sizes. */
static int overhead_times(const struct options *o, const struct overhead_rounds *ov,
                          const int *keep, char *out, struct pz_pingpong *send,
                          struct pz_pingpong *recv, struct pz_pingpong *loop)
{
    int loops = o->quick ? QUICK_LOOP_REPETITIONS : LOOP_REPETITIONS;
    double spread, kept[PZ_CAL_ROUNDS], all[PZ_CAL_ROUNDS];

    for (int i = 0; i < ov->k; i++) {
        send[i].bytes = recv[i].bytes = loop[i].bytes = ov->bytes[i];
        send[i].time = pz_cal_kept_time(ov->send[i], keep, PZ_CAL_ROUNDS, &spread);
        pz_cal_kept(ov->recv[i], keep, PZ_CAL_ROUNDS, kept);
        pz_cal_kept(ov->recv_all[i], keep, PZ_CAL_ROUNDS, all);
        recv[i].time = pz_cal_overhead_recv_time(kept, all, PZ_CAL_ROUNDS);
        loop[i].time = pz_cal_lead_loop(out, (long)ov->bytes[i], LOOP_MESSAGES, loops,
                                        LOOP_COMPUTE);
    }
    return ov->k;
}

/* Rank 0: pass p of RESUME_PASSES over the computations of resume_computations, the
 * exchanges after each into run (the passes are taken after every other round of the
 * ping-pong: a load lasting a while disturbs one pass); extra holds RESUME_PASSES x
 * RESUME_COMPUTATIONS times. */
static void measure_resume(const struct options *o, struct pz_calibration_run *run, char *out,
                           char *in, double *extra, int p)
{
    int exchanges = o->quick ? QUICK_RESUME_EXCHANGES : RESUME_EXCHANGES;
    long bytes = o->max_size < RESUME_BYTES ? (long)o->max_size : RESUME_BYTES;

    for (int i = 0; i < RESUME_COMPUTATIONS; i++) {
        struct pz_cal_stats s;

        pz_cal_lead_resume(out, in, bytes, exchanges, resume_computations[i], &s);
        extra[p * RESUME_COMPUTATIONS + i] = s.trimmed;
    }
    run->resume_bytes = (double)bytes;
    run->resume_computed = resume_computations;
    run->resume_extra = extra;
    run->nresume = RESUME_COMPUTATIONS;
    run->resume_passes = RESUME_PASSES;
}

/* Rank 0: the program loop at the exchanges' sizes up to PROGRAM_MAX_BYTES, into
 * stats (bytes: their sizes); returns how many sizes. */
static int measure_program(const struct options *o, const struct pz_cal_exchange *x, int nx,
                           char *out, char *in, double *bytes, struct pz_cal_stats *stats)
{
    int exchanges = o->quick ? QUICK_PROGRAM_EXCHANGES : PROGRAM_EXCHANGES, k = 0;

    for (int i = 0; i < nx && x[i].bytes <= PROGRAM_MAX_BYTES; i++) {
        bytes[k] = x[i].bytes;
        pz_cal_lead_resume(out, in, (long)x[i].bytes, exchanges, PROGRAM_COMPUTE, &stats[k]);
        k++;
    }
    return k;
}

/* Rank 0: the cold ping-pong at the powers of four from 1 MiB (256 KiB with --quick) up
 * and the largest size.  Returns how many sizes were measured. */
static int measure_cold(const struct options *o, struct pz_calibration_run *run,
                        struct pz_pingpong *cold)
{
    double cap = o->quick ? QUICK_MAX_POOL : MAX_POOL, b = o->quick ? 262144 : 1048576;
    int trips = o->quick ? QUICK_COLD_ROUND_TRIPS : COLD_ROUND_TRIPS, k = 0;

    run->cache_size = o->cache_size > 0 ? o->cache_size : pz_cal_cache_size();
    run->cold_pool = fmin(cap, 2 * run->cache_size + 2 * o->max_size);
    for (;; b *= 4) {
        double bytes = fmin(b, o->max_size), t = pz_cal_lead_cold((long)bytes, trips,
                                                                   run->cold_pool);

        if (t < 0)
            break;
        cold[k].bytes = bytes;
        cold[k++].time = t;
        if (bytes >= o->max_size)
            break;
    }
    return k;
}

/* Whether the two ranks share a node, and their processor names into run. */
static void where(struct pz_calibration_run *run, int rank)
{
    char name[MPI_MAX_PROCESSOR_NAME] = "";
    MPI_Comm node;
    int len = 0, size = 0;

    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &size);
    MPI_Comm_free(&node);
    run->same_node = size == 2;
    MPI_Get_processor_name(name, &len);
    if (rank == 1) {
        MPI_Send(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, TAG_CONTROL, MPI_COMM_WORLD);
        return;
    }
    snprintf(run->host[0], sizeof(run->host[0]), "%s", name);
    MPI_Recv(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1, TAG_CONTROL, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    snprintf(run->host[1], sizeof(run->host[1]), "%s", name);
}

static void mpi_version(char *buf, size_t len)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int vlen = 0;

    MPI_Get_library_version(version, &vlen);
    version[strcspn(version, "\n")] = '\0';
    snprintf(buf, len, "%s", version);
}

/* The machine's name: --name, else the output file's name without directory and
 * extension, else "calibrated". */
static void machine_name(const struct options *o, struct pz_machine *m)
{
    const char *base = o->output ? strrchr(o->output, '/') : NULL;
    size_t len;

    if (o->name) {
        snprintf(m->name, sizeof(m->name), "%s", o->name);
        return;
    }
    base = base ? base + 1 : o->output;
    len = base ? strcspn(base, ".") : 0;
    if (len > 0 && len < sizeof(m->name) && !strpbrk(base, "# \t"))
        snprintf(m->name, sizeof(m->name), "%.*s", (int)len, base);
    else
        snprintf(m->name, sizeof(m->name), "calibrated");
}

/* One warning line when the machine was too loaded for the times to be trusted. */
static void warn_if_disturbed(const struct pz_calibration_run *run)
{
    char why[256];

    if (pz_cal_disturbed(run, why, sizeof(why)))
        fprintf(stderr, "prognoz calibrate: warning: %s; did other processes compete for "
                        "the CPU? (docs/calibrate.md)\n", why);
}

/* The exchanges after a barrier as the fits take them: rank 0's times (barrier), rank
 * 1 leaving the barrier skew later, and rank 0's times from the later of the two leaving
 * it (later). */
static void exchange_fit_points(const struct pz_calibration_run *run, struct pz_pingpong *barrier,
                                struct pz_pingpong *later, double *skew)
{
    for (int i = 0; i < run->nexchanges; i++) {
        const struct pz_cal_exchange *x = &run->exchanges[i];

        barrier[i] = (struct pz_pingpong){ x->bytes, x->time };
        later[i] = (struct pz_pingpong){ x->bytes, x->time - fmax(0, x->skew) };
        skew[i] = x->skew;
    }
}

/* How much later rank 1 left the barrier before the exchanges of bytes; 0 if that size
 * was not exchanged. */
static double skew_at(const struct pz_calibration_run *run, double bytes)
{
    for (int i = 0; i < run->nexchanges; i++)
        if (run->exchanges[i].bytes == bytes)
            return run->exchanges[i].skew;
    return 0;
}

/* The exchange back to back of the resume probe's size into *back; NULL if not
 * measured. */
static const struct pz_pingpong *back_to_back(const struct pz_calibration_run *run,
                                             struct pz_pingpong *back)
{
    *back = (struct pz_pingpong){ run->resume_bytes, pz_cal_back_to_back(run) };
    return isnan(back->time) ? NULL : back;
}

/* The check of the barrier's skew on measured (the machine before the overheads): the
 * overheads' room from the later start of each exchange (rank 0 waits out the skew
 * before rank 1's message is even sent), duplex_factor with rank 1 beginning the skew
 * later, and duplex_overhead on that machine to the exchanges back to back. */
static void fit_without_skew(const struct pz_fit *fit, const struct pz_calibration_run *run,
                             const struct pz_pingpong *segment_points,
                             const struct pz_machine *measured, struct pz_cal_skew_check *c)
{
    static struct pz_pingpong barrier[MAX_SIZES], later[MAX_SIZES];
    static double skew[MAX_SIZES];
    struct pz_machine d = *measured;
    struct pz_pingpong back;

    exchange_fit_points(run, barrier, later, skew);
    pz_fit_transfer(fit, segment_points, run->npoints, later, run->nexchanges,
                    back_to_back(run, &back), run->send_times, run->noverheads,
                    run->recv_times, run->noverheads, run->loop_times, run->noverheads,
                    &c->transfer);
    pz_transfer_to_machine(&c->transfer, run->same_node, &d);
    pz_fit_duplex(&d, barrier, skew, run->nexchanges, &c->duplex);
    d.duplex_factors = c->duplex.steps;
    c->back_to_back_fitted = !isnan(pz_cal_back_to_back(run));
    if (c->back_to_back_fitted)
        pz_fit_calibrated_duplex_overhead(&d, run->resume_bytes, pz_cal_back_to_back(run),
                                          skew_at(run, run->resume_bytes), &c->back_to_back);
}

/* The keys' spreads over the rounds (keys), each line after prefix: in the listing, and
 * as comments ("# ") in the machine file. */
static void print_spreads(FILE *out, const char *prefix, const struct spread_keys *keys)
{
    fprintf(out, "%sThe keys and what they are fitted to, in each of the %d rounds: each key "
                 "takes the median of its\n%srounds in the calibration's state (\"State\" in "
                 "the listing); spread: (largest - smallest) / median\n%sof every round, how "
                 "far the moment of a calibration moves it.\n",
            prefix, PZ_CAL_ROUNDS, prefix, prefix);
    pz_cal_print_round_keys(out, prefix, keys->k, keys->n, keys->keep);
    fprintf(out, "%s(overheads: %d repetitions tried, %d kept: the receiver's wait is kept "
                 "when the clocks show the\n%smessage sent a one-way time before it began, "
                 "docs/calibrate.md, \"Overheads\")\n",
            prefix, keys->tried, keys->kept, prefix);
}

/* Rank 0 after the measurement: fit, print, write.  Returns the exit status. */
static int conclude(const struct options *o, struct pz_calibration_run *run, FILE *file,
                    const struct spread_keys *keys)
{
    static struct pz_pingpong segment_points[MAX_SIZES];
    static struct pz_transfer_fit transfer;
    static struct pz_duplex_fit duplex;
    static struct pz_resume_fit resume;
    static struct pz_duplex_overhead_fit duplex_overhead;
    static struct pz_cal_skew_check skew_check;
    static struct pz_cal_self_fit self_fit;
#ifdef OPEN_MPI
    static struct pz_cal_ob1 ob1;
#endif
    static struct pz_pingpong barrier[MAX_SIZES], later[MAX_SIZES];
    static double skew[MAX_SIZES];
    struct pz_fit fit;
    struct pz_machine m, measured, written, before_self;
    struct pz_pingpong back;
    char err[512];
    FILE *f = file ? file : stdout;

    if (pz_fit_pingpong(run->points, run->npoints, o->packet_size, o->packet_header, &fit, err,
                        sizeof(err)) != 0) {
        fprintf(stderr, "prognoz calibrate: cannot fit the measurement: %s\n", err);
        return 1;
    }
    pz_machine_defaults(&m);
    machine_name(o, &m);
    /* not measured (two ranks leave no third node to contend for): Ethernet's switches
     * store what a busy link cannot take, and TCP's sender goes on with other nodes */
    m.switch_queue = PZ_QUEUE_SWITCH;
#ifdef OPEN_MPI
    pz_machine_set_mpi(&m, "openmpi4");   /* the collectives of the MPI this runs under */
    /* ob1's rendezvous: its first fragment, before the segments are fitted to it */
    pz_cal_ob1_read(&ob1, run->same_node);
    fit.first_fragment = ob1.fragment;
    run->ob1 = &ob1;
#endif
    pz_fit_to_machine(&fit, run->points, run->npoints, run->same_node, &m);
    m.progress = pz_cal_progress(run, &fit);
    if (run->reduce_time > 0)
        m.reduce_byte_time = run->reduce_time / run->reduce_bytes;
    pz_fit_copy_segments(run->copy_bytes, run->copy_times, run->ncopies, &m.copy_segments);
    measured = m;
    pz_cal_segment_points(run, segment_points);
    exchange_fit_points(run, barrier, later, skew);
    pz_fit_transfer(&fit, segment_points, run->npoints, barrier, run->nexchanges,
                    back_to_back(run, &back), run->send_times, run->noverheads,
                    run->recv_times, run->noverheads, run->loop_times, run->noverheads,
                    &transfer);
    pz_transfer_to_machine(&transfer, run->same_node, &m);
    run->transfer = &transfer;
    pz_fit_duplex(&m, barrier, NULL, run->nexchanges, &duplex);
    m.duplex_factors = duplex.steps;
    run->duplex = &duplex;
    if (!isnan(pz_cal_back_to_back(run))) {
        pz_fit_duplex_overhead(&m, fit.latency, fit.bandwidth, &transfer.send, &transfer.recv,
                               segment_points, run->npoints, run->resume_bytes,
                               pz_cal_back_to_back(run), skew_at(run, run->resume_bytes),
                               &duplex_overhead);
        run->duplex_overhead = &duplex_overhead;
    }
    fit_without_skew(&fit, run, segment_points, &measured, &skew_check);
    run->skew_check = &skew_check;
    if (run->nresume > 0) {
        pz_fit_resume(run->resume_computed, run->resume_extra, run->nresume,
                      run->resume_passes, pz_cal_sweep_cache_seconds(), &resume);
        run->resume = &resume;
        pz_resume_to_machine(&resume, run->same_node, &m);
    }
    before_self = m;
    pz_cal_fit_self(run->self, run->nself, &m, &self_fit);
    pz_cal_self_to_machine(&self_fit, &m);
    pz_cal_duplex_sends_fit(run);
    m.duplex_overhead = run->duplex_sends.measured ? run->duplex_sends.overhead : 0;
    pz_cal_collective_fit(run, &m);
    m.collective_overhead = run->collective.measured ? run->collective.overhead : 0;
    run->self_fit = &self_fit;
    pz_cal_print_table(stdout, run, &fit);
    printf("\n");
    pz_cal_print_rounds(stdout, run);
    printf("\n");
    print_spreads(stdout, "", keys);
    printf("\n");
    pz_cal_print_exchanges(stdout, run);
    printf("\n");
    pz_cal_print_overheads(stdout, run);
    printf("\n");
    pz_cal_print_resume(stdout, run);
    pz_cal_print_program(stdout, run);
    printf("\n");
    pz_cal_print_duplex_sends(stdout, run);
    printf("\n");
    pz_cal_print_collective(stdout, run);
    printf("\n");
    if (run->duplex_overhead) {
        pz_cal_print_duplex_overhead(stdout, run);
        printf("\n");
    }
    pz_cal_print_skew_check(stdout, run);
    printf("\n");
    pz_cal_print_cold(stdout, run);
    printf("\n");
    pz_cal_print_segments(stdout, run);
    printf("\n");
    pz_cal_print_self(stdout, run->self, run->nself, &self_fit, &before_self, &m);
    pz_cal_print_copies(stdout, run->copy_bytes, run->copy_times, run->ncopies);
    printf("\n");
    pz_cal_print_summary(stdout, run, &fit, &m);
    fflush(stdout);
    warn_if_disturbed(run);
    if (!file)
        printf("\n");
    fflush(stdout);
    if (pz_cal_write_machine(f, run, &fit, &m) != 0 ||
        (fprintf(f, "\n"), pz_cal_print_state(f, "# ", run), print_spreads(f, "# ", keys),
         fflush(f) != 0 || ferror(f))) {
        fprintf(stderr, "prognoz calibrate: cannot write '%s': %s\n",
                o->output ? o->output : "the standard output", strerror(errno));
        return 1;
    }
    if (!file)
        return 0;
    if (fclose(file) != 0) {
        fprintf(stderr, "prognoz calibrate: cannot write '%s': %s\n", o->output, strerror(errno));
        return 1;
    }
    pz_machine_defaults(&written);
    if (pz_machine_load(o->output, &written, err, sizeof(err)) != 0) {
        fprintf(stderr, "prognoz calibrate: the machine file written does not load: %s\n", err);
        return 1;
    }
    printf("wrote %s (load it with prognoz predict DIR --machine %s)\n", o->output, o->output);
    return 0;
}

/* Rank 0: the measurement that follows round r of the ping-pong, each in its turn
 * between two rounds: a pass of the exchanges after computing after every other round
 * (the first, third, ...: RESUME_PASSES of them); the program loop (at the exchanges' nx
 * sizes, x), the cold buffers, the reduction after the first, second and third.  Into
 * run. */
static void measure_between(const struct options *o, struct pz_calibration_run *run,
                            struct rounds_run *rr, int r, const struct pz_cal_exchange *x,
                            int nx)
{
    static double resume_extra[RESUME_PASSES * RESUME_COMPUTATIONS];
    static struct pz_cal_stats program_stats[MAX_SIZES];
    static double program_bytes[MAX_SIZES];
    static struct pz_pingpong cold[MAX_SIZES];

    if (r % 2 == 0 && r / 2 < RESUME_PASSES)
        measure_resume(o, run, rr->out, rr->in, resume_extra, r / 2);
    if (r == 0) {
        run->nprogram = measure_program(o, x, nx, rr->out, rr->in, program_bytes,
                                        program_stats);
        run->program_bytes = program_bytes;
        run->program_stats = program_stats;
        run->program_compute = PROGRAM_COMPUTE;
    } else if (r == 1) {
        run->ncold = measure_cold(o, run, cold);
        run->cold = cold;
    } else if (r == 2) {
        run->reduce_time = pz_cal_reduce_time();
        run->reduce_bytes = PZ_CAL_REDUCE_BYTES;
        run->ncopies = pz_cal_copy_times(run->copy_bytes, run->copy_times);
    }
}

/* Rank 0: the exchanges of each size from its rounds xr (rounds of nx sizes each) into
 * x: each rank's time the median of the rounds', as the ping-pong's; the skew and the
 * clocks' offset their median. */
static void combine_exchanges(struct pz_cal_exchange (*xr)[MAX_SIZES], int nx, const int *keep,
                              struct pz_cal_exchange *x)
{
    double time[PZ_CAL_ROUNDS], other[PZ_CAL_ROUNDS], skew[PZ_CAL_ROUNDS],
        offset[PZ_CAL_ROUNDS], spread;

    for (int k = 0; k < nx; k++) {
        int m = 0;

        for (int r = 0; r < PZ_CAL_ROUNDS; r++) {
            time[r] = keep[r] ? xr[r][k].time : NAN;
            other[r] = keep[r] ? xr[r][k].other : NAN;
            if (keep[r]) {
                skew[m] = xr[r][k].skew;
                offset[m++] = xr[r][k].offset;
            }
        }
        x[k].bytes = xr[0][k].bytes;
        x[k].time = pz_cal_round_time(time, PZ_CAL_ROUNDS, &spread);
        x[k].other = pz_cal_round_time(other, PZ_CAL_ROUNDS, &spread);
        x[k].skew = pz_fit_median(skew, m);
        x[k].offset = pz_fit_median(offset, m);
    }
}

/* The duplex overhead's sends measured in rounds: each rank's MPI_Isend in the
 * exchanges back to back, and the lone send, per round. */
struct duplex_rounds {
    double isend[2][PZ_CAL_ROUNDS], lone[PZ_CAL_ROUNDS];
};

/* The exchanges and lone sends of the duplex overhead timed in each round: their
 * share of the whole, at least 1. */
static int per_round(int whole)
{
    return whole / PZ_CAL_ROUNDS > 0 ? whole / PZ_CAL_ROUNDS : 1;
}

/* Rank 0: round r of the MPI_Isend of each rank in exchanges back to back of the resume
 * probe's size (RESUME_BYTES), and of the lone send, for the duplex overhead
 * (calibrate_duplex_sends.h), into dr. */
static void duplex_sends_round(const struct options *o, char *out, char *in,
                               struct duplex_rounds *dr, int r)
{
    double bytes = o->max_size < RESUME_BYTES ? o->max_size : RESUME_BYTES, isend[2];

    pz_cal_lead_duplex_sends(out, in, (long)bytes,
                             per_round(o->quick ? QUICK_DUPLEX_EXCHANGES : DUPLEX_EXCHANGES),
                             per_round(o->quick ? QUICK_DUPLEX_SENDS : DUPLEX_SENDS), isend,
                             &dr->lone[r]);
    dr->isend[0][r] = isend[0];
    dr->isend[1][r] = isend[1];
}

/* The MPI_Allreduce calls of the collective overhead (calibrate_coll.h) in each round. */
static int allreduce_calls(const struct options *o)
{
    return per_round(o->quick ? QUICK_ALLREDUCE_CALLS : ALLREDUCE_CALLS);
}

/* Rank 0: the collective overhead's MPI_Allreduce, the median of its rounds in the
 * calibration's state (keep) of the times per call `allreduce`, into run. */
static void allreduce_time(const struct options *o, const double *allreduce, const int *keep,
                           struct pz_calibration_run *run)
{
    double spread;

    run->collective.calls = PZ_CAL_ROUNDS * allreduce_calls(o);
    run->collective.time = pz_cal_kept_time(allreduce, keep, PZ_CAL_ROUNDS, &spread);
}

/* Rank 0: the duplex overhead's sends, each the median of its rounds in the
 * calibration's state (keep), into run. */
static void duplex_sends_times(const struct options *o, const struct duplex_rounds *dr,
                               const int *keep, struct pz_calibration_run *run)
{
    struct pz_cal_duplex_sends *d = &run->duplex_sends;
    double spread;

    d->bytes = o->max_size < RESUME_BYTES ? o->max_size : RESUME_BYTES;
    d->exchanges = PZ_CAL_ROUNDS *
                   per_round(o->quick ? QUICK_DUPLEX_EXCHANGES : DUPLEX_EXCHANGES);
    d->sends = PZ_CAL_ROUNDS * per_round(o->quick ? QUICK_DUPLEX_SENDS : DUPLEX_SENDS);
    d->isend[0] = pz_cal_kept_time(dr->isend[0], keep, PZ_CAL_ROUNDS, &spread);
    d->isend[1] = pz_cal_kept_time(dr->isend[1], keep, PZ_CAL_ROUNDS, &spread);
    d->lone = pz_cal_kept_time(dr->lone, keep, PZ_CAL_ROUNDS, &spread);
}

/* Appends to keys one of the n values v (per round), named what, in unit (scale units
 * per second or per byte per second). */
static void add_key(struct spread_keys *keys, const char *what, const char *unit, double scale,
                    const double *v, int n)
{
    struct pz_cal_round_key *k = &keys->k[keys->n];

    if (keys->n >= MAX_SPREAD_KEYS)
        return;
    snprintf(k->what, sizeof(k->what), "%s", what);
    k->unit = unit;
    k->scale = scale;
    k->n = n < PZ_CAL_KEY_ROUNDS ? n : PZ_CAL_KEY_ROUNDS;
    for (int r = 0; r < k->n; r++)
        k->v[r] = v[r];
    keys->n++;
}

/* The overheads' rounds at each size into keys. */
static void overhead_keys(const struct overhead_rounds *ov, struct spread_keys *keys)
{
    for (int i = 0; i < ov->k; i++) {
        char what[48], size[16];

        pz_cal_size(size, sizeof(size), ov->bytes[i]);
        snprintf(what, sizeof(what), "send overhead, %s", size);
        add_key(keys, what, "us", 1e6, ov->send[i], PZ_CAL_ROUNDS);
        snprintf(what, sizeof(what), "recv overhead, %s", size);
        add_key(keys, what, "us", 1e6, ov->recv[i], PZ_CAL_ROUNDS);
    }
}

/* The keys measured in rounds and what they are fitted to, per round, into keys: the
 * latency and bandwidth fitted to each planned round (run), the overheads (ov), rank
 * 0's exchange both ways at the smallest and largest exchanged size (xr, nx sizes), the
 * duplex overhead's sends and the duplex overhead of each round alone (dr; the key is
 * that of the sends' medians). */
static void spread_keys(const struct pz_calibration_run *run, const struct overhead_rounds *ov,
                        struct pz_cal_exchange (*xr)[MAX_SIZES], int nx,
                        const struct duplex_rounds *dr, struct spread_keys *keys)
{
    double v[PZ_CAL_ROUNDS];

    keys->n = 0;
    add_key(keys, "latency", "us", 1e6, run->round_latency, PZ_CAL_ROUNDS);
    add_key(keys, "bandwidth", "GB/s", 1e-9, run->round_bandwidth, PZ_CAL_ROUNDS);
    overhead_keys(ov, keys);
    for (int k = 0; k < nx; k += nx - 1 > 0 ? nx - 1 : 1) {
        char what[48], size[16];

        for (int r = 0; r < PZ_CAL_ROUNDS; r++)
            v[r] = xr[r][k].time;
        pz_cal_size(size, sizeof(size), xr[0][k].bytes);
        snprintf(what, sizeof(what), "exchange both ways, %s", size);
        add_key(keys, what, "us", 1e6, v, PZ_CAL_ROUNDS);
    }
    add_key(keys, "MPI_Isend both ways, 0", "us", 1e6, dr->isend[0], PZ_CAL_ROUNDS);
    add_key(keys, "MPI_Isend both ways, 1", "us", 1e6, dr->isend[1], PZ_CAL_ROUNDS);
    add_key(keys, "MPI_Isend lone", "us", 1e6, dr->lone, PZ_CAL_ROUNDS);
    for (int r = 0; r < PZ_CAL_ROUNDS; r++)
        v[r] = pz_duplex_overhead_of_sends(dr->isend[0][r], dr->isend[1][r], dr->lone[r]);
    add_key(keys, "duplex_overhead, round", "us", 1e6, v, PZ_CAL_ROUNDS);
}

/* Rank 0: which planned rounds are in the calibration's state (pz_cal_state_rounds), by
 * the ping-pong's times at the state's size, into rr->keep and run; every measurement
 * of a planned round is that round's moment (measure), and the rounds added to the sizes
 * that disagree are kept. */
static void state_of(struct rounds_run *rr, struct pz_calibration_run *run)
{
    double tag[PZ_CAL_ROUNDS] = { 0 };

    run->state_size = pz_cal_state_size(rr->sizes, rr->n);
    run->state_time = NAN;
    for (int r = 0; r < PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS; r++)
        rr->keep[r] = 1;
    for (int i = 0; i < rr->n; i++)
        if (run->state_size > 0 && rr->sizes[i] == run->state_size) {
            memcpy(tag, rr->rounds[i].r, sizeof(tag));
            run->state_kept = pz_cal_state_rounds(tag, PZ_CAL_ROUNDS, rr->keep,
                                                  &run->state_time);
        }
    if (!(run->state_size > 0))
        run->state_kept = PZ_CAL_ROUNDS;
    for (int r = 0; r < PZ_CAL_ROUNDS; r++)
        run->state_keep[r] = rr->keep[r];
}

/* Rank 0: the ping-pong's rounds, each with the messages to oneself, the exchanges
 * both ways, the overheads and the duplex overhead's sends, spread over o->span with the
 * other measurements between them (a load that lasts a while meets one round and one
 * other measurement), the extra rounds, then the progress probe (it needs the
 * ping-pong's times) and the compute-and-send loop.  The times into points, self and
 * stats, the keys' rounds into keys. */
static void measure(const struct options *o, struct pz_calibration_run *run,
                    struct rounds_run *rr, struct pz_pingpong *points, struct pz_pingpong *self,
                    struct pz_cal_stats *stats, struct spread_keys *keys)
{
    static struct pz_pingpong send[MAX_OVERHEAD_SIZES], recv[MAX_OVERHEAD_SIZES],
        loop[MAX_OVERHEAD_SIZES];
    static struct pz_cal_exchange xr[PZ_CAL_ROUNDS][MAX_SIZES], x[MAX_SIZES];
    static struct overhead_rounds ov;
    static struct duplex_rounds dr;
    static double allreduce[PZ_CAL_ROUNDS];   /* the collective overhead's, per call */
    double first = MPI_Wtime();

    for (int r = 0; r < PZ_CAL_ROUNDS + PZ_CAL_EXTRA_ROUNDS; r++)
        rr->keep[r] = 1;   /* until the planned rounds tell the state */
    for (int r = 0; r < PZ_CAL_ROUNDS; r++) {
        measure_round(rr, r, first, &run->round_began[r], &run->rounds_seconds);
        round_times(rr, points);
        run->nexchanges = measure_exchanges(o, points, rr->n, rr->out, rr->in, xr[r]);
        overheads_round(o, points, rr->n, rr->out, &ov, r);
        duplex_sends_round(o, rr->out, rr->in, &dr, r);
        allreduce[r] = pz_cal_lead_allreduce(allreduce_calls(o));
        measure_between(o, run, rr, r, xr[0], run->nexchanges);
    }
    state_of(rr, run);
    combine_exchanges(xr, run->nexchanges, rr->keep, x);
    run->exchanges = x;
    extra_rounds(rr, points, run, first);
    round_keys(o, rr, run);
    round_stats(rr, stats);
    self_times(rr, self, run);
    probe(o, run, rr->out, (long)points[rr->n - 1].bytes, points[rr->n - 1].time);
    run->noverheads = overhead_times(o, &ov, rr->keep, rr->out, send, recv, loop);
    run->send_times = send;
    run->recv_times = recv;
    run->loop_times = loop;
    duplex_sends_times(o, &dr, rr->keep, run);
    allreduce_time(o, allreduce, rr->keep, run);
    spread_keys(run, &ov, xr, run->nexchanges, &dr, keys);
    keys->keep = run->state_keep;
    keys->tried = ov.tried;
    keys->kept = ov.kept;
}

/* Rank 0: the whole measurement.  Returns the exit status. */
static int lead(const struct options *o, struct pz_calibration_run *run, FILE *file)
{
    static double sizes[MAX_SIZES];
    static struct pz_pingpong points[MAX_SIZES], self[MAX_SIZES];
    static struct rounds rounds[MAX_SIZES];
    static long roundtrips[MAX_SIZES];
    static struct pz_cal_stats pingpong_stats[MAX_SIZES];
    static struct spread_keys keys;
    long biggest = (long)o->max_size;
    char *out = malloc((size_t)biggest), *in = malloc((size_t)biggest), name[32];
    double *halves = malloc((size_t)o->max_batches * sizeof(*halves)), start = MPI_Wtime();
    int n = make_sizes(o, sizes), rc;
    struct rounds_run rr = { o, sizes, n, out, in, halves, rounds, roundtrips, { 0 } };

    if (!out || !in || !halves) {
        fprintf(stderr, "prognoz calibrate: out of memory for %ld-byte messages\n", biggest);
        order(PZ_CAL_STOP, 0);
        return 1;
    }
    memset(out, 0x5a, (size_t)biggest);
    memset(in, 0, (size_t)biggest);
    printf("prognoz calibrate: ping-pong between %s and %s%s, %d sizes from 0 B to %s, "
           "%d rounds over at least %.0f s\n",
           run->host[0], run->host[1], run->same_node ? " (one node)" : " (two nodes)", n,
           pz_cal_size(name, sizeof(name), sizes[n - 1]), PZ_CAL_ROUNDS, o->span);
    fflush(stdout);
    warm_up(o, out, in, biggest);
    measure(o, run, &rr, points, self, pingpong_stats, &keys);
    order(PZ_CAL_STOP, 0);
    run->pingpong_stats = pingpong_stats;
    run->self = self;
    run->nself = n;
    run->points = points;
    run->roundtrips = roundtrips;
    run->npoints = n;
    run->seconds = MPI_Wtime() - start;
    free(out);
    free(in);
    free(halves);
    rc = conclude(o, run, file, &keys);
    if (rc != 0 && o->output)
        remove(o->output);
    return rc;
}

/* Rank 0 opens the output before measuring, and rank 1 learns whether it could. */
static int open_output(const struct options *o, int rank, FILE **file)
{
    int ok = 1;

    *file = NULL;
    if (rank == 0 && o->output && !(*file = fopen(o->output, "w"))) {
        fprintf(stderr, "prognoz calibrate: cannot write '%s': %s\n", o->output,
                strerror(errno));
        ok = 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    struct options o;
    struct pz_calibration_run run = { .packet_source = "the defaults" };
    int rank, size, nargs, rc;
    char **args = pz_split_long_options(argc, argv, &nargs);
    FILE *file;
    char *buf;

    if (!args) {
        fprintf(stderr, "prognoz calibrate: out of memory\n");
        return 1;
    }
    rc = parse(nargs, args, &o);
    if (rc != 0)
        return rc == 1 ? 0 : rc;
    if (o.packet_given)
        run.packet_source = "as given by --packet-size and --packet-header";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "prognoz calibrate: needs exactly 2 processes, not %d: run it as "
                            "'mpiexec -n 2 prognoz calibrate ...'\n", size);
        MPI_Finalize();
        return 1;
    }
    where(&run, rank);
    if (open_output(&o, rank, &file) != 0) {
        MPI_Finalize();
        return 1;
    }
    if (rank == 0) {
        mpi_version(run.mpi_version, sizeof(run.mpi_version));
        rc = lead(&o, &run, file);
    } else if ((buf = malloc(2 * (size_t)o.max_size))) {
        answer(buf, (long)o.max_size, exchange_count(&o));
        free(buf);
    } else {
        MPI_Abort(MPI_COMM_WORLD, 1);   /* rank 0 would wait for answers forever */
    }
    /* rank 1 waits here while rank 0 fits and prints, so that both enter MPI_Finalize
     * together: UCX's TCP transport has hung in MPI_Finalize on rank 1 when it entered
     * alone and rank 0 made no MPI call for a while */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
