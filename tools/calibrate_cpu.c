/* The overheads' and cold buffers' measurements of prognoz-calibrate (docs/calibrate.md). */
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate_cpu.h"
#include "calibrate_sweep.h"

/* At most this many sends outstanding in the compute-and-send loop. */
#define MAX_LOOP 256

void pz_cal_order(long what, long bytes, long count, long nanoseconds)
{
    long msg[4] = { what, bytes, count, nanoseconds };

    MPI_Send(msg, 4, MPI_LONG, 1, PZ_CAL_TAG_CONTROL, MPI_COMM_WORLD);
}

double pz_cal_time_posted_sends(char *out, long bytes, int sends, int with_wait)
{
    double *times = malloc((size_t)sends * sizeof(*times)), typical;

    for (int i = 0; i < sends; i++) {
        MPI_Request req;
        double start;

        MPI_Recv(NULL, 0, MPI_BYTE, 1, PZ_CAL_TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        start = MPI_Wtime();
        MPI_Isend(out, (int)bytes, MPI_BYTE, 1, PZ_CAL_TAG_PING, MPI_COMM_WORLD, &req);
        if (with_wait)
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (times)
            times[i] = MPI_Wtime() - start;
        if (!with_wait)
            MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    typical = times ? pz_cal_typical(times, sends) : NAN;
    free(times);
    return typical;
}

/* Both ranks: `exchanges` iterations of (compute by streaming through memory;
 * exchange both ways with peer), after one untimed that puts both in step; the
 * exchanges' times, from the computation's end, into times, if not NULL. */
static void compute_and_exchange(char *out, char *in, long bytes, int peer, int exchanges,
                                 double compute, double *times)
{
    for (int i = -1; i < exchanges; i++) {
        MPI_Request req[2];
        MPI_Status status[2];   /* gcc 12 warns on MPI_STATUSES_IGNORE here */
        double start;

        pz_cal_sweep(compute);
        start = MPI_Wtime();
        MPI_Irecv(in, (int)bytes, MPI_BYTE, peer, PZ_CAL_TAG_PING, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(out, (int)bytes, MPI_BYTE, peer, PZ_CAL_TAG_PING, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, status);
        if (times && i >= 0)
            times[i] = MPI_Wtime() - start;
    }
}

void pz_cal_lead_resume(char *out, char *in, long bytes, int exchanges, double compute,
                        struct pz_cal_stats *stats)
{
    double *times = malloc((size_t)exchanges * sizeof(*times));

    pz_cal_order(PZ_CAL_RESUME, bytes, exchanges, (long)(compute * 1e9));
    MPI_Barrier(MPI_COMM_WORLD);
    compute_and_exchange(out, in, bytes, 1, exchanges, compute, times);
    pz_cal_stats(times, times ? exchanges : 0, stats);
    free(times);
}

void pz_cal_answer_resume(char *buf, long bytes, int exchanges, double compute)
{
    MPI_Barrier(MPI_COMM_WORLD);
    compute_and_exchange(buf, buf + bytes, bytes, 0, exchanges, compute, NULL);
}

/* A fixed amount of arithmetic: what a program computes between its sends.  The
 * volatile keeps the compiler from folding it. */
static void work(long iterations)
{
    volatile double x = 1;

    for (long i = 0; i < iterations; i++)
        x = x * 1.0000001 + 1e-9;
}

/* The iterations of work() that take about `seconds` here. */
static long work_for(double seconds)
{
    long n = 1000;
    double t;

    for (;;) {
        double start = MPI_Wtime();

        work(n);
        t = MPI_Wtime() - start;
        if (t >= 1e-3 || n > (1L << 40))
            break;
        n *= 4;
    }
    return (long)(n * seconds / t) + 1;
}

/* One timed loop of `messages` times work(iterations), each followed by an MPI_Isend
 * of bytes if send; the sends are completed after the timing. */
static double timed_loop(char *out, long bytes, int messages, long iterations, int send)
{
    MPI_Request req[MAX_LOOP];
    MPI_Status status[MAX_LOOP];   /* gcc 12 warns on MPI_STATUSES_IGNORE here */
    double start, t;

    if (send)
        MPI_Recv(NULL, 0, MPI_BYTE, 1, PZ_CAL_TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    start = MPI_Wtime();
    for (int i = 0; i < messages; i++) {
        work(iterations);
        if (send)
            MPI_Isend(out, (int)bytes, MPI_BYTE, 1, PZ_CAL_TAG_PING, MPI_COMM_WORLD, &req[i]);
    }
    t = MPI_Wtime() - start;
    if (send)
        MPI_Waitall(messages, req, status);
    return t;
}

double pz_cal_lead_loop(char *out, long bytes, int messages, int repetitions, double compute)
{
    static long iterations;
    double *delays = malloc((size_t)repetitions * sizeof(*delays)), median;

    if (messages > MAX_LOOP)
        messages = MAX_LOOP;
    if (!iterations)
        iterations = work_for(compute);
    for (int i = 0; i < repetitions; i++) {
        double alone, with;

        pz_cal_order(PZ_CAL_LOOP, bytes, messages, 0);
        with = timed_loop(out, bytes, messages, iterations, 1);
        alone = timed_loop(out, bytes, messages, iterations, 0);
        if (delays)
            delays[i] = (with - alone) / messages;
    }
    median = delays ? pz_fit_median(delays, repetitions) : 0;
    free(delays);
    return median;
}

void pz_cal_answer_loop(char *buf, long bytes, int messages)
{
    MPI_Send(NULL, 0, MPI_BYTE, 0, PZ_CAL_TAG_READY, MPI_COMM_WORLD);
    for (int i = 0; i < messages; i++)
        MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, PZ_CAL_TAG_PING, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
}

/* A pool of buffers of bytes, at least 4, written once so that its pages exist; the
 * number of buffers in *count; NULL if out of memory. */
static char *pool_of(long bytes, double pool, long *count)
{
    char *p;

    *count = (long)(pool / (double)bytes);
    if (*count < 4)
        *count = 4;
    p = malloc((size_t)*count * (size_t)bytes);
    if (p)
        memset(p, 0x5a, (size_t)*count * (size_t)bytes);
    return p;
}

/* Both ranks: whether both have their pool. */
static int both_have(const char *pool)
{
    int mine = pool != NULL, both = 0;

    MPI_Allreduce(&mine, &both, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return both;
}

double pz_cal_lead_cold(long bytes, int round_trips, double pool)
{
    long count;
    char *buf;
    double *halves = malloc((size_t)round_trips * sizeof(*halves)), median = -1;

    pz_cal_order(PZ_CAL_COLD, bytes, round_trips, 0);
    MPI_Send(&pool, 1, MPI_DOUBLE, 1, PZ_CAL_TAG_CONTROL, MPI_COMM_WORLD);
    buf = pool_of(bytes, pool, &count);
    if (!both_have(halves ? buf : NULL))
        goto out;
    for (int i = 0; i < round_trips; i++) {
        char *send = buf + (2 * i % count) * bytes, *recv = buf + ((2 * i + 1) % count) * bytes;
        double start = MPI_Wtime();

        MPI_Send(send, (int)bytes, MPI_BYTE, 1, PZ_CAL_TAG_PING, MPI_COMM_WORLD);
        MPI_Recv(recv, (int)bytes, MPI_BYTE, 1, PZ_CAL_TAG_PING, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        halves[i] = (MPI_Wtime() - start) / 2;
    }
    median = pz_fit_median(halves, round_trips);
out:
    free(buf);
    free(halves);
    return median;
}

void pz_cal_answer_cold(long bytes, int round_trips)
{
    double pool;
    long count;
    char *buf;

    MPI_Recv(&pool, 1, MPI_DOUBLE, 0, PZ_CAL_TAG_CONTROL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    buf = pool_of(bytes, pool, &count);
    if (both_have(buf))
        for (int i = 0; i < round_trips; i++) {
            char *recv = buf + (2 * i % count) * bytes;
            char *send = buf + ((2 * i + 1) % count) * bytes;

            MPI_Recv(recv, (int)bytes, MPI_BYTE, 0, PZ_CAL_TAG_PING, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(send, (int)bytes, MPI_BYTE, 0, PZ_CAL_TAG_PING, MPI_COMM_WORLD);
        }
    free(buf);
}
