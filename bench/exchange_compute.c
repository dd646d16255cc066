/* exchange_compute: what a small exchange between two computations costs beyond the
 * computation, by where each message finds its receiver (docs/calibrate.md, "Exchanges
 * after computing").  Not built by make; an MPI program of its own:
 *
 *   mpicc.mpich -O2 -o /tmp/exchange_compute bench/exchange_compute.c
 *   UCX_TLS=tcp,self mpiexec.mpich -n 2 /tmp/exchange_compute [REPS]
 *
 * -DSWEEP measures 1 KiB after computations of 0 to 2000 us instead; -DTOUCH=KIB makes
 * the computation stream through an array of KIB KiB (a stencil's) instead of only
 * reading the clock.
 *
 * Each of the 2 ranks repeats, in batches of B iterations (the variants interleaved, REPS
 * passes, default 21):
 *   late    compute C us; MPI_Irecv; MPI_Isend of S bytes; MPI_Waitall  (both ranks)
 *   early   MPI_Irecv; compute C us; MPI_Isend; MPI_Waitall            (both ranks)
 *   one     as late, but rank 0 does not compute: only rank 1's receive is unexpected
 *   alone   compute C us
 * for S = 8 B, 1 KiB, 16 KiB and C = 0, 20, 200 us.  The computation spins on the clock,
 * so it lasts C whatever the load.  Each iteration is timed alone, so that the low
 * quantiles keep out the iterations a busy machine preempted.  Rank 0 prints per variant
 * the time an iteration takes beyond C (10th, 25th and 50th percentiles over all
 * iterations, in us), and the lower quartile of its MPI_Irecv, MPI_Isend and
 * MPI_Waitall calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum variant { LATE, EARLY, ONE, ALONE, NVARIANTS };
static const char *const variant_names[] = { "late", "early", "one", "alone" };
#ifndef SWEEP
static const int sizes[] = { 8, 1024, 16384 };
static const double computes_us[] = { 0, 20, 200 };
#define NSIZES 3
#define NCOMPUTES 3
#else   /* -DSWEEP: how the cost grows with the computation, at 1 KiB */
static const int sizes[] = { 1024 };
static const double computes_us[] = { 0, 5, 10, 20, 50, 100, 200, 500, 1000, 2000 };
#define NSIZES 1
#define NCOMPUTES 10
#endif
#define NCALLS 3   /* Irecv, Isend, Waitall */
#define MAX_ITERS 200

#ifndef TOUCH
static void compute(double us)
{
    double end = MPI_Wtime() + us * 1e-6;

    if (us > 0)
        while (MPI_Wtime() < end)
            ;
}
#else   /* -DTOUCH=KIB: the computation streams through KIB KiB, as a stencil does */
static double field[TOUCH * 128];

static void compute(double us)
{
    double end = MPI_Wtime() + us * 1e-6;
    size_t i = 0, n = sizeof(field) / sizeof(field[0]);

    while (us > 0) {
        for (size_t k = 0; k < 512; k++, i = (i + 1) % n)
            field[i] = field[i] * 0.5 + 1.0;
        if (MPI_Wtime() >= end)
            break;
    }
}
#endif

/* One iteration of variant v on rank; adds the time of each MPI call to calls[]. */
static void iteration(enum variant v, int rank, double c, char *out, char *in, int bytes,
                      double calls[NCALLS])
{
    MPI_Request rq[2];
    MPI_Status st[2];
    int other = 1 - rank;
    double t0, t1, t2, t3;

    if (v == ALONE) {
        compute(c);
        return;
    }
    if (v == EARLY) {
        t0 = MPI_Wtime();
        MPI_Irecv(in, bytes, MPI_BYTE, other, 0, MPI_COMM_WORLD, &rq[0]);
        calls[0] += MPI_Wtime() - t0;
        compute(c);
    } else {
        if (v == LATE || rank == 1)
            compute(c);
        t0 = MPI_Wtime();
        MPI_Irecv(in, bytes, MPI_BYTE, other, 0, MPI_COMM_WORLD, &rq[0]);
        calls[0] += MPI_Wtime() - t0;
    }
    t1 = MPI_Wtime();
    MPI_Isend(out, bytes, MPI_BYTE, other, 0, MPI_COMM_WORLD, &rq[1]);
    t2 = MPI_Wtime();
    MPI_Waitall(2, rq, st);
    t3 = MPI_Wtime();
    calls[1] += t2 - t1;
    calls[2] += t3 - t2;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static double quantile(double *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return v[(int)(q * (n - 1) + 0.5)];
}

int main(int argc, char **argv)
{
    int rank, size, reps = argc > 1 ? atoi(argv[1]) : 21;
    int ncases = NVARIANTS * NSIZES * NCOMPUTES, per_case = reps * MAX_ITERS;
    double *extra, *calls;
    int *count;
    char *out = calloc(1, 16384), *in = calloc(1, 16384);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || reps < 1) {
        if (rank == 0)
            fprintf(stderr, "exchange_compute: needs 2 processes and REPS >= 1\n");
        MPI_Finalize();
        return 1;
    }
    extra = calloc((size_t)ncases * (size_t)per_case, sizeof(double));
    calls = calloc((size_t)ncases * (size_t)per_case * NCALLS, sizeof(double));
    count = calloc((size_t)ncases, sizeof(int));
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < ncases; k++) {
            enum variant v = (enum variant)(k % NVARIANTS);
            int s = (k / NVARIANTS) % NSIZES, ci = k / (NVARIANTS * NSIZES);
            double c = computes_us[ci], sum[NCALLS] = { 0 };
            int iters = c >= 1000 ? MAX_ITERS / 16 : c >= 200 ? MAX_ITERS / 4 : MAX_ITERS;

            MPI_Barrier(MPI_COMM_WORLD);
            iteration(v, rank, c, out, in, sizes[s], sum);   /* untimed: both in step */
            for (int i = 0; i < iters; i++) {
                double t = MPI_Wtime();
                int at = k * per_case + count[k]++;

                memset(sum, 0, sizeof(sum));
                iteration(v, rank, c, out, in, sizes[s], sum);
                extra[at] = (MPI_Wtime() - t - c * 1e-6) * 1e6;
                for (int j = 0; j < NCALLS; j++)
                    calls[(size_t)at * NCALLS + j] = sum[j] * 1e6;
            }
        }
    if (rank == 0) {
        printf("per iteration, us: extra = time - C at the quantiles; the MPI calls' medians\n");
        printf("%-6s %6s %6s %8s %8s %8s %8s %8s %8s %8s\n", "var", "size", "C(us)", "p10",
               "p25", "p50", "n", "irecv", "isend", "waitall");
        for (int k = 0; k < ncases; k++) {
            double *e = &extra[k * per_case], col[MAX_ITERS * 64];
            int n = count[k];

            printf("%-6s %6d %6.0f %8.3f %8.3f %8.3f %8d", variant_names[k % NVARIANTS],
                   sizes[(k / NVARIANTS) % NSIZES], computes_us[k / (NVARIANTS * NSIZES)],
                   quantile(e, n, 0.1), quantile(e, n, 0.25), quantile(e, n, 0.5), n);
            for (int j = 0; j < NCALLS; j++) {
                int m = n < MAX_ITERS * 64 ? n : MAX_ITERS * 64;

                for (int i = 0; i < m; i++)
                    col[i] = calls[((size_t)k * per_case + i) * NCALLS + j];
                printf(" %8.3f", quantile(col, m, 0.25));
            }
            printf("\n");
        }
    }
    free(extra);
    free(calls);
    free(count);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
