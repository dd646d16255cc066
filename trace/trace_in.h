/* Reading a recorded run for the replay: the definitions it needs, and per thread one
 * stream of records (trace.h) read on demand.  Processes (location groups) are numbered
 * by world rank; their threads (CPU thread locations: each thread of an
 * MPI_THREAD_MULTIPLE program that calls MPI) are numbered process after process and,
 * in a process, by location id, so that without threads thread p is process p.
 * Accelerator streams and metric locations of other tools' traces are not read. */
#ifndef PZ_TRACE_IN_H
#define PZ_TRACE_IN_H

#include <stddef.h>
#include <stdint.h>

#include "defs.h"
#include "progress.h"
#include "trace.h"

struct pz_trace_in;

/* Opens the archive at path (DIR or DIR/traces.otf2) and reads its definitions.
 * Returns NULL with a one-line message naming the file in err. */
struct pz_trace_in *pz_trace_in_open(const char *path, char *err, size_t errlen);
void pz_trace_in_close(struct pz_trace_in *t);

/* pz_trace_in_open, telling progress (progress.h; NULL: none): "events read" of the
 * threads' events while the archive is read at open, then `consumed` ("records
 * replayed") of the records as the streams are read.  progress must outlive t. */
struct pz_trace_in *pz_trace_in_open_with_progress(const char *path,
                                                   const struct pz_progress_hook *progress,
                                                   const char *consumed, char *err,
                                                   size_t errlen);

/* From now on, t's streams have the I/O records (pz_rec_is_io), which the replay times
 * and writes into the predicted run; they are left out otherwise, and are never
 * counted in pz_trace_in_records nor in progress. */
void pz_trace_in_keep_io(struct pz_trace_in *t);

/* Where a generator puts a thread's records, in time order: 0, or -1 out of memory. */
typedef int pz_trace_put_fn(void *sink, int th, const struct pz_rec *rec);

/* A run made on demand rather than read: more(ctx, th, put, sink, err, errlen) puts
 * thread th's next records (at least one) through put(sink, th, rec), and returns 1, 0
 * when th has none left (it is not asked again), or -1 with a one-line message in err.
 * Threads are asked in any interleaving, each only when its records put so far are
 * consumed or looked past. */
struct pz_trace_gen {
    int (*more)(void *ctx, int th, pz_trace_put_fn *put, void *sink, char *err,
                size_t errlen);
    void *ctx;
};

/* Opens a run of gen: its definitions defs (pz_defs_set_run), which it takes whatever
 * the result; name names it in errors.  NULL with a one-line message in err. */
struct pz_trace_in *pz_trace_in_generated(struct pz_defs *defs, const char *name,
                                          const struct pz_trace_gen *gen, char *err,
                                          size_t errlen);

/* The MPI processes, and the threads (at least one per process). */
int pz_trace_in_nprocs(const struct pz_trace_in *t);
int pz_trace_in_nthreads(const struct pz_trace_in *t);
/* The process of thread th, and its number among the process's threads (0: the first). */
int pz_trace_in_rank(const struct pz_trace_in *t, int th);
int pz_trace_in_thread(const struct pz_trace_in *t, int th);
/* The first thread of process p. */
int pz_trace_in_first(const struct pz_trace_in *t, int p);
/* The OTF2 location of each thread. */
const uint64_t *pz_trace_in_locations(const struct pz_trace_in *t);
/* What the trace says of its recording (zeros where it says nothing). */
const struct pz_recording *pz_trace_in_recording(const struct pz_trace_in *t);
/* Ticks per second and the clock's global offset. */
double pz_trace_in_resolution(const struct pz_trace_in *t);
uint64_t pz_trace_in_offset(const struct pz_trace_in *t);

/* The region with reference ref; a placeholder (name "?") if it is not defined. */
const struct pz_region_info *pz_trace_in_region(const struct pz_trace_in *t, uint32_t ref);
/* The string with reference ref, NULL if none. */
const char *pz_trace_in_string(const struct pz_trace_in *t, uint32_t ref);

/* Communicator comm (defs.h), NULL if it is not defined. */
const struct pz_comm_def *pz_trace_in_comm_def(const struct pz_trace_in *t, uint32_t comm);

/* One more than the largest communicator reference of the trace: those below it that
 * are not defined have no definition (pz_trace_in_comm_def gives NULL). */
uint32_t pz_trace_in_ncomms(const struct pz_trace_in *t);

/* The Cartesian topology of communicator comm (MPI_Cart_create's, MPI_Cart_sub's),
 * NULL if it has none. */
const struct pz_cart_def *pz_trace_in_cart(const struct pz_trace_in *t, uint32_t comm);

/* The members of communicator comm as processes (rank i is process procs[i]) and its
 * size; 0 for MPI_COMM_SELF-like communicators (the caller alone), -1 if undefined. */
int pz_trace_in_comm(const struct pz_trace_in *t, uint32_t comm, const int **procs);

/* The communicator one-sided window window was created on; PZ_NONE32 if the window is
 * not defined. */
uint32_t pz_trace_in_window_comm(const struct pz_trace_in *t, uint32_t window);

/* The members of group (of a one-sided epoch: RMA_GROUP_SYNC) as processes into
 * *procs, malloc'd (NULL for none): their number, or -1 if the group is not defined or
 * memory ran out. */
int pz_trace_in_group(const struct pz_trace_in *t, uint32_t group, int **procs);

/* Of an intercommunicator, the size of its first group (procs[0..local-1]; the second
 * follows): a message's peer is a rank of the group the process is not in.  0 for an
 * intracommunicator. */
int pz_trace_in_comm_local(const struct pz_trace_in *t, uint32_t comm);

/* Shown only so that pz_trace_in_peek can be inline (the replay peeks about eight
 * times a record): a thread's records read and not consumed, in a ring whose capacity
 * is a power of two, */
struct pz_trace_ring {
    struct pz_rec *ring;
    size_t head, count, cap;
};

/* and what every struct pz_trace_in begins with. */
struct pz_trace_in_head {
    struct pz_trace_ring *rings;   /* of each thread */
};

/* pz_trace_in_peek when the record is not read yet. */
const struct pz_rec *pz_trace_in_peek_more(struct pz_trace_in *t, int th, size_t ahead);

/* The record `ahead` places after the next unconsumed one of thread th (0: the next),
 * reading the trace as far as needed; NULL at the end of the stream or on a read
 * error (pz_trace_in_error tells which). */
static inline const struct pz_rec *pz_trace_in_peek(struct pz_trace_in *t, int th,
                                                    size_t ahead)
{
    const struct pz_trace_ring *r = &((const struct pz_trace_in_head *)(void *)t)->rings[th];

    if (ahead < r->count)
        return &r->ring[(r->head + ahead) & (r->cap - 1)];
    return pz_trace_in_peek_more(t, th, ahead);
}

/* Asks the processor to bring thread th's next record into its caches: the replay
 * calls it for the thread it will step next while it steps another, so that with
 * thousands of threads, whose records leave the caches between their turns, the misses
 * overlap with that work rather than stall it.  It changes nothing else.  The address
 * is made as an integer and prefetched whether or not a record is read (a prefetch
 * never faults): a prefetch under a condition is dropped by the compiler as code
 * without effect. */
static inline void pz_trace_in_prefetch(const struct pz_trace_in *t, int th)
{
    const struct pz_trace_in_head *head = (const void *)t;
    const struct pz_trace_ring *r = &head->rings[th];

    __builtin_prefetch((const void *)((uintptr_t)r->ring + r->head * sizeof(struct pz_rec)));
}

/* Asks the processor for thread th's ring descriptor, a turn before pz_trace_in_prefetch
 * reads it for the record's address.  It changes nothing else. */
static inline void pz_trace_in_prefetch_ring(const struct pz_trace_in *t, int th)
{
    __builtin_prefetch(&((const struct pz_trace_in_head *)(const void *)t)->rings[th]);
}

/* Drops the next n records of thread th. */
void pz_trace_in_consume(struct pz_trace_in *t, int th, size_t n);

/* pz_call_completion (trace_calls.h) far ahead: the first record of thread th `from` or
 * more places ahead of kind a or b that completes request id, NULL if none; through an
 * index of the completions passed on the way (made at the first call), so that a
 * program with thousands of requests outstanding is not searched quadratically.
 * *failed is set if memory ran out (the caller then searches itself). */
const struct pz_rec *pz_trace_in_completion_ahead(struct pz_trace_in *t, int th, size_t from,
                                                  uint64_t id, uint8_t a, uint8_t b,
                                                  int *failed);

/* The first read error as a one-line message, NULL if none. */
const char *pz_trace_in_error(const struct pz_trace_in *t);

/* 1 if the archive has events that no record carries and the streams leave out: a
 * program's begin and end, OpenMP thread teams, the measurement switched off and on,
 * calling contexts (other tools' traces, Score-P's); 0 otherwise. */
int pz_trace_in_unread_events(const struct pz_trace_in *t);

/* Records read so far, over all threads. */
uint64_t pz_trace_in_records(const struct pz_trace_in *t);

#endif
