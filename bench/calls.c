/* The programs of make bench (bench/run.sh): one loop of MPI calls, timed.
 *
 * Usage: mpiexec -n 2 calls BENCHMARK ITERATIONS [minimal]
 *
 * BENCHMARK is one of
 *   comm_rank   MPI_Comm_rank                                  1 call per iteration
 *   pingpong    8-byte MPI_Send / MPI_Recv between ranks 0, 1  2 calls per iteration
 *   ring        MPI_Irecv, MPI_Isend, MPI_Waitall of both      3 calls per iteration
 *   allreduce   MPI_Allreduce of one double                    1 call per iteration
 *   iprobe      MPI_Iprobe that finds no message               1 call per iteration
 *   flush       MPI_Win_flush_all in a lock_all epoch          1 call per iteration
 *               on the newest of 4001 windows (4000 made and freed before, as a Global
 *               Arrays code makes one per array: the wrapper finds the window's record
 *               among all it registered)
 *
 * Calls per iteration are the calls each process makes.  The program runs the same
 * way with and without the wrapper (LD_PRELOAD).  With "minimal" (and no wrapper), every
 * call of the loop goes through the minimal recorder built into this program (below):
 * two reads of the clock and 32 bytes stored, what any recorder that takes two
 * timestamps per call costs here.  After a warm-up, the ITERATIONS are
 * timed in CHUNKS equal parts, each between two barriers and timed with MPI_Wtime; the
 * time per iteration is the median of the chunks, so that another program taking a
 * core for a moment spoils a chunk or two and not the figure.  Each chunk is paired
 * with a chunk of the same loop calling PMPI_ functions, which no wrapper sees.
 * MPI_Finalize, where the wrapper writes its trace, is timed with the monotonic clock.
 * Rank 0 prints one line:
 *
 *   bench=NAME iterations=N calls_per_iter=C loop_calls=L mpi_calls=M sec_per_iter=T
 *   sec_per_iter_min=B sec_per_iter_mean=A sec_per_iter_unwrapped=U
 *   sec_per_iter_paired=P finalize_sec=F
 *
 * (on one line) where T is the median over the chunks, B the fastest chunk and A the
 * mean, U the median of the PMPI_ chunks and P the median over the pairs of the
 * difference chunk - PMPI_ chunk; L counts the calls of one process in the loops,
 * warm-up included, and M every MPI call of one process that the wrapper may record
 * (L, barriers, MPI_Init...). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* GCC takes MPICH's MPI_STATUSES_IGNORE, (MPI_Status *)1, for an array of no room */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#define WARMUP_MIN 1000
#define CHUNKS 15
#define TAG 7
#define NO_SUCH_TAG 4242  /* iprobe: never sent */
#define WINDOWS_BEFORE 4000   /* flush: windows made and freed before the live one */

struct bench {
    const char *name;
    int calls_per_iter;
    void (*loop)(long iterations);
    void (*minimal)(long iterations);     /* the same loop under the minimal recorder */
    void (*unwrapped)(long iterations);   /* the same loop calling PMPI_ */
};

static int rank, size;
static MPI_Win flush_window;   /* flush: the live window */
static long setup_calls;       /* MPI calls a benchmark makes outside its loops */

/* The minimal recorder: a record of 32 bytes per call, its enter and leave ticks (the
 * time-stamp counter where there is one, as the wrapper reads it), the call and a word
 * of room, in a buffer faulted in before the loops as the wrapper's is. */
struct minimal_record {
    uint64_t enter, leave, call, aux;
};

static struct minimal_record *minimal_buf;
static size_t minimal_used, minimal_cap;

static inline uint64_t ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static inline void minimal_store(uint64_t enter, uint64_t leave, uint64_t call)
{
    if (minimal_used < minimal_cap)
        minimal_buf[minimal_used++] = (struct minimal_record){ enter, leave, call, 0 };
}

/* How a loop makes its calls: as the program does (through the wrapper when it is
 * preloaded), through the minimal recorder, or unwrapped: to PMPI_ directly, which no
 * wrapper sees (the chunks each run pairs with its own, below). */
enum how { AS_IS, MINIMAL, UNWRAPPED };

/* Calls MPI function fn as how says; id names it in the minimal recorder's records. */
#define CALL(how, id, fn, ...)                          \
    do {                                                \
        if ((how) == MINIMAL) {                         \
            uint64_t enter_ = ticks();                  \
            fn(__VA_ARGS__);                            \
            minimal_store(enter_, ticks(), id);         \
        } else if ((how) == UNWRAPPED) {                \
            P##fn(__VA_ARGS__);                         \
        } else {                                        \
            fn(__VA_ARGS__);                            \
        }                                               \
    } while (0)

/* Room for records records, faulted in (on huge pages where the kernel allows them);
 * 0, or -1 if there is no memory. */
static int minimal_start(long records)
{
    size_t bytes = (size_t)records * sizeof(struct minimal_record);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (p == MAP_FAILED)
        return -1;
    madvise(p, bytes, MADV_HUGEPAGE);
    memset(p, 0, bytes);
    minimal_buf = p;
    minimal_cap = (size_t)records;
    return 0;
}

/* Each loop is written once, for the three ways: how is a constant in each caller. */
static inline void comm_rank_calls(long n, enum how how)
{
    int r;

    for (long i = 0; i < n; i++)
        CALL(how, 1, MPI_Comm_rank, MPI_COMM_WORLD, &r);
}

static inline void pingpong_calls(long n, enum how how)
{
    double msg = 0.0;  /* 8 bytes */

    if (rank == 0) {
        for (long i = 0; i < n; i++) {
            CALL(how, 2, MPI_Send, &msg, 1, MPI_DOUBLE, 1, TAG, MPI_COMM_WORLD);
            CALL(how, 3, MPI_Recv, &msg, 1, MPI_DOUBLE, 1, TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
            msg += 1.0;
        }
    } else if (rank == 1) {
        for (long i = 0; i < n; i++) {
            CALL(how, 3, MPI_Recv, &msg, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
            CALL(how, 2, MPI_Send, &msg, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD);
        }
    }
}

static inline void ring_calls(long n, enum how how)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double out = rank, in = -1.0;
    MPI_Request req[2];

    for (long i = 0; i < n; i++) {
        CALL(how, 4, MPI_Irecv, &in, 1, MPI_DOUBLE, left, TAG, MPI_COMM_WORLD, &req[0]);
        CALL(how, 5, MPI_Isend, &out, 1, MPI_DOUBLE, right, TAG, MPI_COMM_WORLD, &req[1]);
        CALL(how, 6, MPI_Waitall, 2, req, MPI_STATUSES_IGNORE);
    }
}

static inline void allreduce_calls(long n, enum how how)
{
    double x = rank, sum = 0.0;

    for (long i = 0; i < n; i++)
        CALL(how, 7, MPI_Allreduce, &x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static inline void iprobe_calls(long n, enum how how)
{
    int flag = 0;

    for (long i = 0; i < n; i++)
        CALL(how, 8, MPI_Iprobe, MPI_ANY_SOURCE, NO_SUCH_TAG, MPI_COMM_WORLD, &flag,
             MPI_STATUS_IGNORE);
}

static inline void flush_calls(long n, enum how how)
{
    for (long i = 0; i < n; i++)
        CALL(how, 9, MPI_Win_flush_all, flush_window);
}

/* flush: WINDOWS_BEFORE windows made and freed, then the live one, in a lock_all
 * epoch until flush_teardown. */
static void flush_setup(void)
{
    void *base;
    MPI_Win w;

    for (int i = 0; i < WINDOWS_BEFORE; i++) {
        MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
        MPI_Win_free(&w);
    }
    MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &flush_window);
    MPI_Win_lock_all(0, flush_window);
    setup_calls = 2 * WINDOWS_BEFORE + 4;   /* + the live one's allocate, lock, unlock, free */
}

static void flush_teardown(void)
{
    MPI_Win_unlock_all(flush_window);
    MPI_Win_free(&flush_window);
}

/* loop_NAME is the loop as the program makes it (bench/profile.sh counts the
 * instructions in it), minimal_NAME and unwrapped_NAME the two others. */
#define LOOPS(name)                                                         \
    static void loop_##name(long n) { name##_calls(n, AS_IS); }             \
    static void minimal_##name(long n) { name##_calls(n, MINIMAL); }        \
    static void unwrapped_##name(long n) { name##_calls(n, UNWRAPPED); }

LOOPS(comm_rank)
LOOPS(pingpong)
LOOPS(ring)
LOOPS(allreduce)
LOOPS(iprobe)
LOOPS(flush)

static const struct bench benches[] = {
    { "comm_rank", 1, loop_comm_rank, minimal_comm_rank, unwrapped_comm_rank },
    { "pingpong", 2, loop_pingpong, minimal_pingpong, unwrapped_pingpong },
    { "ring", 3, loop_ring, minimal_ring, unwrapped_ring },
    { "allreduce", 1, loop_allreduce, minimal_allreduce, unwrapped_allreduce },
    { "iprobe", 1, loop_iprobe, minimal_iprobe, unwrapped_iprobe },
    { "flush", 1, loop_flush, minimal_flush, unwrapped_flush },
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

/* Seconds per iteration of chunk iterations of loop, between two barriers. */
static double timed(void (*loop)(long iterations), long chunk)
{
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    loop(chunk);
    MPI_Barrier(MPI_COMM_WORLD);
    return (MPI_Wtime() - t0) / (double)chunk;
}

int main(int argc, char **argv)
{
    const struct bench *b = NULL;
    int args = argc == 3 || (argc == 4 && strcmp(argv[3], "minimal") == 0);
    void (*loop)(long iterations);
    long n, chunk, warmup, loop_calls, mpi_calls;
    double chunks[CHUNKS], unwrapped[CHUNKS], pairs[CHUNKS], total = 0.0, f0, f1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (size_t i = 0; args && i < sizeof(benches) / sizeof(benches[0]); i++)
        if (strcmp(argv[1], benches[i].name) == 0)
            b = &benches[i];
    n = args ? strtol(argv[2], NULL, 10) : 0;
    chunk = n / CHUNKS;
    if (!b || chunk <= 0 || size != 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2 %s comm_rank|pingpong|ring|allreduce|iprobe|flush "
                            "ITERATIONS (at least %d) [minimal]\n", argv[0], CHUNKS);
        MPI_Finalize();
        return 2;
    }
    n = chunk * CHUNKS;
    warmup = n / 100 > WARMUP_MIN ? n / 100 : WARMUP_MIN;
    loop_calls = (warmup + n) * b->calls_per_iter;
    loop = b->loop;
    if (loop == loop_flush)
        flush_setup();
    if (argc == 4) {
        loop = b->minimal;
        if (minimal_start(loop_calls) != 0) {
            fprintf(stderr, "calls: no memory for the minimal recorder's records\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }

    /* Each chunk is paired with one of the unwrapped loop, in the same processes, the
     * two in turn first: their difference leaves out what differs from run to run (where
     * the processes landed, what else ran), which a comparison of runs keeps. */
    loop(warmup);
    b->unwrapped(warmup);
    for (int k = 0; k < CHUNKS; k++) {
        if (k % 2 == 0) {
            chunks[k] = timed(loop, chunk);
            unwrapped[k] = timed(b->unwrapped, chunk);
        } else {
            unwrapped[k] = timed(b->unwrapped, chunk);
            chunks[k] = timed(loop, chunk);
        }
        pairs[k] = chunks[k] - unwrapped[k];
        total += chunks[k];
    }
    qsort(chunks, CHUNKS, sizeof(chunks[0]), by_value);
    qsort(unwrapped, CHUNKS, sizeof(unwrapped[0]), by_value);
    qsort(pairs, CHUNKS, sizeof(pairs[0]), by_value);

    if (b->loop == loop_flush)
        flush_teardown();
    /* + MPI_Init, MPI_Comm_rank, MPI_Comm_size, the barriers, MPI_Finalize */
    mpi_calls = loop_calls + setup_calls + 4 + 4 * CHUNKS;
    f0 = now();
    MPI_Finalize();
    f1 = now();
    if (rank == 0)
        printf("bench=%s iterations=%ld calls_per_iter=%d loop_calls=%ld mpi_calls=%ld "
               "sec_per_iter=%.6e sec_per_iter_min=%.6e sec_per_iter_mean=%.6e "
               "sec_per_iter_unwrapped=%.6e sec_per_iter_paired=%.6e finalize_sec=%.6e\n",
               b->name, n, b->calls_per_iter, loop_calls, mpi_calls, chunks[CHUNKS / 2],
               chunks[0], total / CHUNKS, unwrapped[CHUNKS / 2], pairs[CHUNKS / 2], f1 - f0);
    return 0;
}
