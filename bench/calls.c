/* The programs of make bench (bench/run.sh): one loop of MPI calls, timed.
 *
 * Usage: mpiexec -n 2 calls BENCHMARK ITERATIONS
 *
 * BENCHMARK is one of
 *   comm_rank   MPI_Comm_rank                                  1 call per iteration
 *   pingpong    8-byte MPI_Send / MPI_Recv between ranks 0, 1  2 calls per iteration
 *   ring        MPI_Irecv, MPI_Isend, MPI_Waitall of both      3 calls per iteration
 *   allreduce   MPI_Allreduce of one double                    1 call per iteration
 *   iprobe      MPI_Iprobe that finds no message               1 call per iteration
 *
 * Calls per iteration are the calls each process makes.  The program runs the same
 * way with and without the wrapper (LD_PRELOAD).  After a warm-up, the ITERATIONS are
 * timed in CHUNKS equal parts, each between two barriers and timed with MPI_Wtime; the
 * time per iteration is the median of the chunks, so that another program taking a
 * core for a moment spoils a chunk or two and not the figure.  MPI_Finalize, where the
 * wrapper writes its trace, is timed with the monotonic clock.  Rank 0 prints one line:
 *
 *   bench=NAME iterations=N calls_per_iter=C loop_calls=L mpi_calls=M sec_per_iter=T
 *   sec_per_iter_min=B sec_per_iter_mean=A finalize_sec=F
 *
 * (on one line) where T is the median over the chunks, B the fastest chunk and A the
 * mean; L counts the calls of one process in the loops, warm-up included, and M every
 * MPI call of one process that the wrapper may record (L, barriers, MPI_Init...). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* GCC takes MPICH's MPI_STATUSES_IGNORE, (MPI_Status *)1, for an array of no room */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#define WARMUP_MIN 1000
#define CHUNKS 15
#define TAG 7
#define NO_SUCH_TAG 4242  /* iprobe: never sent */

struct bench {
    const char *name;
    int calls_per_iter;
    void (*loop)(long iterations);
};

static int rank, size;

static void loop_comm_rank(long n)
{
    int r;

    for (long i = 0; i < n; i++)
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
}

static void loop_pingpong(long n)
{
    double msg = 0.0;  /* 8 bytes */

    if (rank == 0) {
        for (long i = 0; i < n; i++) {
            MPI_Send(&msg, 1, MPI_DOUBLE, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(&msg, 1, MPI_DOUBLE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            msg += 1.0;
        }
    } else if (rank == 1) {
        for (long i = 0; i < n; i++) {
            MPI_Recv(&msg, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&msg, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD);
        }
    }
}

static void loop_ring(long n)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double out = rank, in = -1.0;
    MPI_Request req[2];

    for (long i = 0; i < n; i++) {
        MPI_Irecv(&in, 1, MPI_DOUBLE, left, TAG, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(&out, 1, MPI_DOUBLE, right, TAG, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
}

static void loop_allreduce(long n)
{
    double x = rank, sum = 0.0;

    for (long i = 0; i < n; i++)
        MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void loop_iprobe(long n)
{
    int flag = 0;

    for (long i = 0; i < n; i++)
        MPI_Iprobe(MPI_ANY_SOURCE, NO_SUCH_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}

static const struct bench benches[] = {
    { "comm_rank", 1, loop_comm_rank },
    { "pingpong", 2, loop_pingpong },
    { "ring", 3, loop_ring },
    { "allreduce", 1, loop_allreduce },
    { "iprobe", 1, loop_iprobe },
};

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const struct bench *b = NULL;
    long n, chunk, warmup, loop_calls, mpi_calls;
    double chunks[CHUNKS], total = 0.0, f0, f1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (size_t i = 0; argc == 3 && i < sizeof(benches) / sizeof(benches[0]); i++)
        if (strcmp(argv[1], benches[i].name) == 0)
            b = &benches[i];
    n = argc == 3 ? strtol(argv[2], NULL, 10) : 0;
    chunk = n / CHUNKS;
    if (!b || chunk <= 0 || size != 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2 %s comm_rank|pingpong|ring|allreduce|iprobe "
                            "ITERATIONS (at least %d)\n", argv[0], CHUNKS);
        MPI_Finalize();
        return 2;
    }
    n = chunk * CHUNKS;
    warmup = n / 100 > WARMUP_MIN ? n / 100 : WARMUP_MIN;

    b->loop(warmup);
    for (int k = 0; k < CHUNKS; k++) {
        double t0;

        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        b->loop(chunk);
        MPI_Barrier(MPI_COMM_WORLD);
        chunks[k] = (MPI_Wtime() - t0) / (double)chunk;
        total += chunks[k];
    }
    qsort(chunks, CHUNKS, sizeof(chunks[0]), by_value);

    loop_calls = (warmup + n) * b->calls_per_iter;
    /* + MPI_Init, MPI_Comm_rank, MPI_Comm_size, the barriers, MPI_Finalize */
    mpi_calls = loop_calls + 4 + 2 * CHUNKS;
    f0 = now();
    MPI_Finalize();
    f1 = now();
    if (rank == 0)
        printf("bench=%s iterations=%ld calls_per_iter=%d loop_calls=%ld mpi_calls=%ld "
               "sec_per_iter=%.6e sec_per_iter_min=%.6e sec_per_iter_mean=%.6e "
               "finalize_sec=%.6e\n", b->name, n, b->calls_per_iter, loop_calls, mpi_calls,
               chunks[CHUNKS / 2], chunks[0], total / CHUNKS, f1 - f0);
    return 0;
}
