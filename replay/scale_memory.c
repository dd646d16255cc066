/* The memory a run of prognoz scale needs and the memory it may take (scale_memory.h). */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "scale_memory.h"

int pz_scale_meminfo_available(const char *text, uint64_t *bytes)
{
    static const char key[] = "MemAvailable:";

    const char *line = text;

    while (line && strncmp(line, key, sizeof(key) - 1) != 0)
        if ((line = strchr(line, '\n')))
            line++;
    if (line) {
        unsigned long long kib;
        char unit[4];

        if (sscanf(line + sizeof(key) - 1, "%llu %3s", &kib, unit) != 2 || strcmp(unit, "kB"))
            return -1;
        *bytes = (uint64_t)kib * 1024;
        return 0;
    }
    return -1;
}

void pz_scale_memory_bound(struct pz_scale_memory *m, uint64_t bytes, const char *source)
{
    if (bytes != UINT64_MAX && bytes < m->bytes) {
        m->bytes = bytes;
        m->source = source;
    }
}

/* Bounds m by the machine's available memory and what this process holds already:
 * MemAvailable (what can be had without swapping, the page cache given back included),
 * else the free pages. */
static void machine_available(struct pz_scale_memory *m, uint64_t held)
{
    char text[8192];
    FILE *f = fopen("/proc/meminfo", "r");
    size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
    uint64_t bytes;
    long pages, size;

    if (f)
        fclose(f);
    text[n] = '\0';
    if (pz_scale_meminfo_available(text, &bytes) == 0) {
        pz_scale_memory_bound(m, bytes + held, "MemAvailable");
        return;
    }
    pages = sysconf(_SC_AVPHYS_PAGES);
    size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0)
        pz_scale_memory_bound(m, (uint64_t)pages * (uint64_t)size + held, "free pages");
}

/* A resource's soft limit in bytes, UINT64_MAX when unlimited or unknown. */
static uint64_t soft_limit(int resource)
{
    struct rlimit rl;

    if (getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    return (uint64_t)rl.rlim_cur;
}

struct pz_scale_memory pz_scale_memory_available(uint64_t held)
{
    struct pz_scale_memory m = { UINT64_MAX, NULL };

    machine_available(&m, held);
    pz_scale_memory_bound(&m, soft_limit(RLIMIT_AS), "ulimit -v");
    pz_scale_memory_bound(&m, soft_limit(RLIMIT_DATA), "ulimit -d");
    return m;
}

uint64_t pz_scale_memory_heap_free(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    return (uint64_t)mallinfo2().fordblks;
#else
    return 0;
#endif
}

uint64_t pz_scale_memory_resident(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long size, resident;
    long page = sysconf(_SC_PAGESIZE);
    int n = f ? fscanf(f, "%llu %llu", &size, &resident) : 0;

    if (f)
        fclose(f);
    return n == 2 && page > 0 ? (uint64_t)resident * (uint64_t)page : 0;
}

uint64_t pz_scale_memory_peak(void)
{
    struct rusage u;

    return getrusage(RUSAGE_SELF, &u) == 0 && u.ru_maxrss > 0 ? (uint64_t)u.ru_maxrss * 1024
                                                              : 0;
}

uint64_t pz_scale_memory_floor(int nprocs)
{
    return nprocs > 0 ? (uint64_t)nprocs * PZ_SCALE_FLOOR_BYTES_PER_PROCESS : 0;
}

/* bytes in GiB with one decimal, or MiB below 1 GiB, into buf. */
static const char *human(uint64_t bytes, char *buf, size_t len)
{
    if (bytes >= (uint64_t)1 << 30)
        snprintf(buf, len, "%.1f GiB", (double)bytes / (double)((uint64_t)1 << 30));
    else
        snprintf(buf, len, "%.1f MiB", (double)bytes / (double)(1 << 20));
    return buf;
}

int pz_scale_memory_floor_fits(int nprocs, const struct pz_scale_memory *m, char *msg,
                               size_t len)
{
    uint64_t need = pz_scale_memory_floor(nprocs);
    char a[32], b[32];

    if (need <= m->bytes)
        return 1;
    snprintf(msg, len, "the run at %d processes needs at least %s of memory (%u KiB a "
             "process whatever the program), more than the %s available (%s)", nprocs,
             human(need, a, sizeof(a)), PZ_SCALE_FLOOR_BYTES_PER_PROCESS / 1024,
             human(m->bytes, b, sizeof(b)), m->source ? m->source : "no bound");
    return 0;
}

/* The sizes of the structures the estimate counts (x86-64, measured with gdb's
 * sizeof), and what the allocator adds to each block. */
enum {
    MALLOC_HEAD = 16,
    REC = 80,                  /* struct pz_rec */
    CURSOR = 184,              /* struct pz_scale_cursor */
    FIFO = 40,                 /* scale_synth.c's struct fifo */
    LEVEL = 32,                /* its struct level */
    POSTED_ENTRY = 8 + 4 + 16, /* a request in a fifo: id, slot, struct posted */
    STEPS_AT_ONCE = 8,         /* scale_replay.c's: the steps made at each request */
    TRACE_RING = 32 + 24,      /* struct pz_trace_ring and trace_in.c's struct stream */
    THREAD = 264,              /* engine_int.h's struct thread */
    PENDING = 24,              /* its struct pending, a request posted */
    COMSYS_PROC = 4 + 8 + 24 + 48 + 24,   /* the model's node, cpu_free, sending,
                                             progress and resume of a process */
    RADIX_ITEM = 16,           /* struct pz_heap_item, the thread in the ready queue */
    DEFS_PROC = 32 + 8 + 4 + 4,   /* a location, and a thread's location, rank, first */
    MATCH_ENTRY = 32,          /* struct pz_match_entry */
    STREAM_PROC = 24 + 8 + 8 + 4 + 16,   /* stream.c's given, latest, rank and thread_of
                                            (24 bytes), and a share of the blocks of its
                                            radix heap of waiting records (queued() counts
                                            the records): the figure of the queues and heap
                                            it had before, kept */
    STREAM_PIPE = 8 * 512 * 88,   /* its blocks handed to the analysis's thread: 8 of 512
                                     items of 88 bytes */
    READER_PROC = 112,         /* reader.h's struct process */
    STACK = 64 * 48,           /* its stack: 64 frames of 48 bytes at first (grow.c) */
    ANALYSIS_PROC = 8 + 16,    /* rank_of, thread_of; waits.c's to_head, to_tail */
    STATS = 216,               /* struct pz_stats, a process's in an interval */
    WAITS_QUEUE = 40,          /* waits.c's struct queue, a message channel */
    WAITS_MSG = 120,           /* its struct pz_msg, a message in flight */
    COMM_DEF = 32,             /* struct pz_comm_def, struct pz_synth_comm */
    COMM_MAP = 16,             /* engine_int.h's struct comm_map */
    COLL_MEMBER = 8 + 8 + 4 + 64 * 4 + 4 + 512   /* a member of a collective running: the
                                     analysis's instance's enter, leave, process, 64
                                     intervals and their number (waits.c); the model's
                                     schedule of its rounds and messages, about 512 bytes
                                     (measured: 505424 bytes for an Alltoall of 1024) */
};

/* The smallest power of two at least n, and at least least (2^63 above it: no wrap to 0). */
static uint64_t power_of_two(uint64_t n, uint64_t least)
{
    uint64_t p = least;

    while (p < n && p <= UINT64_MAX / 2)
        p *= 2;
    return p;
}

/* A block of n bytes as the allocator takes it: its header, rounded to 16 bytes. */
static uint64_t block(uint64_t n)
{
    return (n + MALLOC_HEAD + 15) / 16 * 16;
}

/* Per process: the cursor and its arrays (fifos and last request ids per slot; fifos,
 * loop levels and passes per node), the requests in flight (one per slot, in fifos that
 * double), the cursor's pointer. */
static uint64_t synthesis(const struct pz_scale_memory_figures *f)
{
    uint64_t slots = f->slots ? f->slots : 1, nodes = f->nodes ? f->nodes : 1;

    return block(CURSOR) + block(slots * FIFO) + block(slots * 8) + block(nodes * FIFO) +
           block(nodes * LEVEL) + block(nodes * 4) + 2 * slots * POSTED_ENTRY + 8;
}

/* A ring of records holding n, at least least, and no more than a process's records. */
static uint64_t ring_of(const struct pz_scale_memory_figures *f, uint64_t n, uint64_t least)
{
    return power_of_two(n < f->records ? n : f->records, least);
}

/* Per process: its ring of records made and not yet replayed, which holds the steps made
 * at once and what was left of the previous ones, at least 8 records. */
static uint64_t waiting(const struct pz_scale_memory_figures *f)
{
    uint64_t ring = ring_of(f, (uint64_t)(STEPS_AT_ONCE + 1) * f->step_records, 8);

    return TRACE_RING + block(ring * REC);
}

/* Per process: the engine's thread, its requests, its place in the ready queue, the
 * model's arrays, its location in the two copies of the definitions (the replay's and
 * the analysis's); then the model's table of unmatched messages, 2 slots a process at
 * first. */
static uint64_t engine(const struct pz_scale_memory_figures *f)
{
    uint64_t p = (uint64_t)f->nprocs;

    return p * (THREAD + block(2 * (uint64_t)f->slots * PENDING) + RADIX_ITEM +
                COMSYS_PROC + 2 * DEFS_PROC) +
           block(power_of_two(2 * p, 64) * MATCH_ENTRY);
}

/* Per process: the records queued for the analysis (PZ_SCALE_QUEUED_RECORDS) and the
 * stream's arrays.  Outside collectives that synchronize the world, a ring of 128 (or of
 * the process's records, at least 16); between them, the bound itself: a ring doubles
 * when it is full, so it holds up to twice what was queued, but the queues of most
 * processes stay below the bound (measured: 430 records a process where 400 bound them,
 * 330 where 604 did). */
static uint64_t queued(const struct pz_scale_memory_figures *f)
{
    uint64_t bounded = f->stretch ? f->stretch + f->step_records : 0;
    uint64_t loose = f->loose < PZ_SCALE_QUEUED_RECORDS ? f->loose : PZ_SCALE_QUEUED_RECORDS;

    if (bounded > loose) {
        uint64_t n = bounded < f->records ? bounded : f->records;

        return block((n > 16 ? n : 16) * REC) + STREAM_PROC;
    }
    return block(ring_of(f, loose, 16) * REC) + STREAM_PROC;
}

/* The analysis's processes (their state, stack, statistics in every interval) and the
 * statistics of the analyses kept. */
static uint64_t analysis(const struct pz_scale_memory_figures *f)
{
    uint64_t p = (uint64_t)f->nprocs, stats = (uint64_t)f->intervals * STATS;

    return p * (READER_PROC + block(STACK) + ANALYSIS_PROC + stats) + f->kept * stats;
}

/* The analysis's message channels in a table at most half full whose slots double (the
 * old table and the new both held as it grows: 1.5 times), and a message in flight each
 * way per process. */
static uint64_t channels(const struct pz_scale_memory_figures *f)
{
    uint64_t slots = power_of_two(2 * (uint64_t)f->nprocs * f->channels, 1024);

    return slots * WAITS_QUEUE * 3 / 2 + 2 * (uint64_t)f->nprocs * block(WAITS_MSG);
}

/* The communicators: the analysis's sequence numbers per process and communicator; the
 * engine's rank of every process in each communicator a collective runs on; the
 * definitions of each (the synthesis's, the replay's and the analysis's), their members
 * (the world's P in the two copies of the definitions, the others' in the three); each
 * process in a collective of each class at once. */
static uint64_t comms(const struct pz_scale_memory_figures *f)
{
    uint64_t p = (uint64_t)f->nprocs;

    return p * f->comms * 8 + f->coll_members * 4 + f->comms * (COMM_MAP + 3 * COMM_DEF) +
           2 * p * 4 + 3 * f->members * 4 + (uint64_t)f->coll_classes * p * COLL_MEMBER;
}

/* The v collectives' lists: each distinct text held three times (the synthesis's, the
 * replay's definitions and the analysis's), and the per-peer counts of the members of
 * an instance in the model while it runs, as doubles. */
static uint64_t lists(const struct pz_scale_memory_figures *f)
{
    return 3 * (f->list_bytes + f->list_texts * (MALLOC_HEAD + 8)) + f->v_counts * 8;
}

/* The all-to-all collectives' messages in flight in the model's table of unmatched
 * messages, at most half full, the old table and the new held as it doubles. */
static uint64_t pairs(const struct pz_scale_memory_figures *f)
{
    if (!f->in_flight)
        return 0;
    return power_of_two(2 * f->in_flight, 64) * MATCH_ENTRY * 3 / 2;
}

/* What is held before the run and stays: the resident memory less the heap's free
 * bytes that the run's allocations on this thread take again (the synthesis's, the
 * engine's, the lists'); the analysis runs on a thread of its own, whose allocations
 * come from another of the allocator's arenas. */
static uint64_t held(const struct pz_scale_memory_figures *f, const uint64_t *term)
{
    uint64_t here = term[PZ_SCALE_MEM_SYNTHESIS] + term[PZ_SCALE_MEM_WAITING] +
                    term[PZ_SCALE_MEM_ENGINE] + term[PZ_SCALE_MEM_LISTS] +
                    term[PZ_SCALE_MEM_PAIRS];
    uint64_t reused = f->heap_free < here ? f->heap_free : here;

    return f->held > reused ? f->held - reused : 0;
}

void pz_scale_memory_estimate(const struct pz_scale_memory_figures *f,
                              struct pz_scale_memory_estimate *out)
{
    uint64_t p = f->nprocs > 0 ? (uint64_t)f->nprocs : 0;

    memset(out, 0, sizeof(*out));
    out->term[PZ_SCALE_MEM_SYNTHESIS] = p * synthesis(f);
    out->term[PZ_SCALE_MEM_WAITING] = p * waiting(f);
    out->term[PZ_SCALE_MEM_ENGINE] = engine(f);
    out->term[PZ_SCALE_MEM_QUEUED] = p * queued(f) + block(STREAM_PIPE);
    out->term[PZ_SCALE_MEM_ANALYSIS] = analysis(f);
    out->term[PZ_SCALE_MEM_CHANNELS] = channels(f);
    out->term[PZ_SCALE_MEM_COMMS] = comms(f);
    out->term[PZ_SCALE_MEM_LISTS] = lists(f);
    out->term[PZ_SCALE_MEM_PAIRS] = pairs(f);
    out->term[PZ_SCALE_MEM_HELD] = held(f, out->term);
    for (int t = PZ_SCALE_MEM_HELD + 1; t < PZ_SCALE_MEM_SLACK; t++)
        out->term[PZ_SCALE_MEM_SLACK] += out->term[t];
    out->term[PZ_SCALE_MEM_SLACK] /= 10;
    for (int t = 0; t < PZ_SCALE_MEM_NTERMS; t++)
        out->total += out->term[t];
    if (f->peak > out->total)
        out->total = f->peak;
}

const char *pz_scale_memory_term_name(enum pz_scale_memory_term t)
{
    static const char *const names[PZ_SCALE_MEM_NTERMS] = {
        [PZ_SCALE_MEM_HELD] = "the recordings and their model",
        [PZ_SCALE_MEM_SYNTHESIS] = "the processes' syntheses",
        [PZ_SCALE_MEM_WAITING] = "the records waiting for the replay",
        [PZ_SCALE_MEM_ENGINE] = "the replay's processes",
        [PZ_SCALE_MEM_QUEUED] = "the records waiting for the analysis",
        [PZ_SCALE_MEM_ANALYSIS] = "the analysis's processes and statistics",
        [PZ_SCALE_MEM_CHANNELS] = "the analysis's message channels",
        [PZ_SCALE_MEM_COMMS] = "the communicators",
        [PZ_SCALE_MEM_LISTS] = "the per-peer lists of the v collectives",
        [PZ_SCALE_MEM_PAIRS] = "the all-to-all collectives' messages in flight",
        [PZ_SCALE_MEM_SLACK] = "the allocator's slack",
    };

    return (unsigned)t < PZ_SCALE_MEM_NTERMS ? names[t] : "";
}

int pz_scale_memory_fits(int nprocs, const struct pz_scale_memory_estimate *e,
                         const struct pz_scale_memory *m, char *msg, size_t len)
{
    int largest = 0;
    char a[32], b[32], c[32];

    if (e->total <= m->bytes)
        return 1;
    for (int t = 1; t < PZ_SCALE_MEM_NTERMS; t++)
        if (e->term[t] > e->term[largest])
            largest = t;
    snprintf(msg, len, "the run at %d processes needs about %s of memory (the largest "
             "part: %s for %s), more than the %s available (%s)", nprocs,
             human(e->total, a, sizeof(a)), human(e->term[largest], b, sizeof(b)),
             pz_scale_memory_term_name((enum pz_scale_memory_term)largest),
             human(m->bytes, c, sizeof(c)), m->source ? m->source : "no bound");
    return 0;
}
