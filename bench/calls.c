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
 * way with and without the wrapper (LD_PRELOAD): the timed loop lies between two
 * barriers and is timed with MPI_Wtime; MPI_Finalize is timed with the monotonic
 * clock, as it is where the wrapper writes its trace.  Rank 0 prints one line:
 *
 *   bench=NAME iterations=N calls_per_iter=C mpi_calls=M sec_per_iter=T finalize_sec=F
 *
 * where M counts every MPI call of one process that the wrapper may record (warm-up,
 * barriers, MPI_Init and MPI_Finalize included). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARMUP_MIN 1000
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

int main(int argc, char **argv)
{
    const struct bench *b = NULL;
    long n, warmup, calls;
    double t0, t1, f0, f1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (size_t i = 0; argc == 3 && i < sizeof(benches) / sizeof(benches[0]); i++)
        if (strcmp(argv[1], benches[i].name) == 0)
            b = &benches[i];
    n = argc == 3 ? strtol(argv[2], NULL, 10) : 0;
    if (!b || n <= 0 || size != 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2 %s comm_rank|pingpong|ring|allreduce|iprobe "
                            "ITERATIONS\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    warmup = n / 100 > WARMUP_MIN ? n / 100 : WARMUP_MIN;

    b->loop(warmup);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    b->loop(n);
    MPI_Barrier(MPI_COMM_WORLD);
    t1 = MPI_Wtime();

    /* MPI_Init, Comm_rank, Comm_size, 2 barriers, MPI_Finalize, and the loops */
    calls = 6 + (warmup + n) * b->calls_per_iter;
    f0 = now();
    MPI_Finalize();
    f1 = now();
    if (rank == 0)
        printf("bench=%s iterations=%ld calls_per_iter=%d mpi_calls=%ld sec_per_iter=%.6e "
               "finalize_sec=%.6e\n", b->name, n, b->calls_per_iter, calls, (t1 - t0) / (double)n,
               f1 - f0);
    return 0;
}
