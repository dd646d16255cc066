/* The analysis of a recorded (or predicted) run: the tree of intervals, and for each
 * interval and each process the times the characteristics are made of.  Reads any OTF2
 * trace with MPI records: prognoz's own, or Score-P's. */
#ifndef PZ_ANALYSIS_H
#define PZ_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

struct pz_progress_hook;   /* trace/progress.h */
struct pz_recording;       /* trace/defs.h */

/* What one process spent in one interval, over all its executions; seconds. */
struct pz_stats {
    uint64_t count;        /* executions */
    double exec;           /* sum of leave - enter over the executions */
    double mpi;            /* inside MPI calls */
    double sendrecv;       /* inside point-to-point calls, waits and tests included */
    double collective;     /* inside collectives other than all-to-all ones */
    double alltoall;       /* inside Alltoall, Alltoallv, Alltoallw */
    double start;          /* inside calls that start nonblocking operations */
    double overlap;        /* computing while nonblocking operations were in flight */
    /* waiting for partners (waits.c) */
    double sync;           /* potential synchronization: late sender, late receiver, and
                              in collectives the last entry less one's own */
    double variation;      /* collectives: the last exit less one's own */
    double late_sender, wrong_order, late_receiver;
    double wait_barrier, barrier_completion, wait_nxn, nxn_completion;
    double early_reduce, late_broadcast;
    /* computation duplicated in sequential intervals, less the one copy that is useful
       (sequential.c) */
    double insufficient;
    /* MPI-IO and one-sided communication (io_rma.c): parts of mpi, and the bytes of
       their operations (doubles, to be charged like the times) */
    double io, rma;
    double io_read, io_written, rma_put, rma_got;
    double lock_contention;    /* waiting in MPI_Win_lock for another origin's release
                                  (io_rma.c); also in sync */
};

/* One interval of the tree.  Node 0 is the whole run (level 0). */
struct pz_node {
    char *file;            /* source file of the begin marker, "" for the whole run */
    unsigned line;
    unsigned id;           /* the programmer's number */
    int level;
    int parent;            /* index of the enclosing interval, -1 for the whole run */
    uint32_t region;       /* OTF2 region of the interval (unused for node 0) */
    int sequential;        /* marked sequential: each process duplicates its computation */
    struct pz_stats *procs;   /* one per process */
};

/* One MPI function over the whole run and all processes, like mpiP's aggregate table. */
struct pz_function {
    char *name;
    uint64_t calls;
    double time, max;              /* seconds: all calls, the longest call */
    uint64_t bytes_sent, bytes_received;
};

/* One call site of an MPI function (recorded with PROGNOZ_CALLSITES=1). */
struct pz_callsite {
    char *file;
    unsigned line;
    char *function;
    uint64_t calls;
    double time;
};

/* The processes of the analysis are the threads of the run: the first thread of every
 * MPI process and every other thread with events (a thread that called MPI, for
 * prognoz's traces), each with its own timeline, stack of intervals and share of the
 * processors' time.  Without threads they are the MPI processes, in rank order. */
struct pz_analysis {
    int nprocs;            /* processes of the analysis (threads) */
    int nranks;            /* MPI processes */
    int *rank_of;          /* per process of the analysis: its MPI process, 0..nranks-1 */
    int *thread_of;        /* its thread in that MPI process, 0 for the first */
    int threaded;          /* some MPI process has more than one thread */
    struct pz_node *nodes;
    int nnodes;
    uint64_t messages;             /* matched point-to-point messages */
    uint64_t clock_violations;     /* receives that end before their send began */
    uint64_t unmatched_sends, unmatched_receives;
    uint64_t collectives;          /* complete collective instances */
    uint64_t incomplete_collectives;
    struct pz_function *functions;     /* in order of first call */
    int nfunctions;
    struct pz_callsite *callsites;     /* in order of first call */
    int ncallsites;
    char **warnings;                   /* what could not be trusted, one line each */
    int nwarnings;
    char *partial;                     /* the run ended without MPI_Finalize: how each
                                          process ended, "0: HOW; 1: HOW; ..." (the
                                          property PZ_PARTIAL_PROPERTY); else NULL */
    char *trace;                       /* the path analyzed, as given */
    struct pz_recording *recording;    /* what the trace says of its recording */
    int io_rma;                        /* the run made MPI-IO or one-sided calls: the
                                          reports show their parts of MPI time */
};

/* Analyzes the OTF2 archive at path (DIR/traces.otf2, or DIR).  Returns 0, or -1 with a
 * one-line explanation naming the file in err. */
int pz_analyze(const char *path, struct pz_analysis *a, char *err, size_t errlen);

/* pz_analyze, telling progress (trace/progress.h: "events read" of the trace's events)
 * as it reads; progress may be NULL. */
int pz_analyze_with_progress(const char *path, struct pz_analysis *a,
                             const struct pz_progress_hook *progress, char *err,
                             size_t errlen);

/* pz_analyze_with_progress through the trace layer (trace/trace_in.h), which that
 * function takes for traces of many processes: each location is read on its own into
 * a temporary file of records, and the records go to pz_analysis_stream in time order,
 * so that memory does not hold an OTF2 event chunk per location.  The result is the
 * same as OTF2's global reader gives.  Returns 0, -1 with a one-line explanation
 * naming the file in err, or 1 (a empty) when the trace has events that no record
 * carries (pz_trace_in_unread_events: other tools' program, thread team and
 * measurement events), which only the global reader's walk analyzes. */
int pz_analyze_records(const char *path, struct pz_analysis *a,
                       const struct pz_progress_hook *progress, char *err, size_t errlen);

void pz_analysis_free(struct pz_analysis *a);

struct pz_defs;   /* trace/defs.h */
struct pz_rec;    /* trace/trace.h */
struct pz_analysis_stream;

/* Analyzing a run given record by record instead of read from a trace (a replay's
 * predicted run, as it is predicted): the analysis pz_analyze makes of the trace with
 * the run's definitions and records, by the same code, in the same order of events.
 * The records are kept only until no earlier one can come, in blocks of the order they
 * were given, a block until its last record is analyzed: memory grows with the
 * processes and with how far their times drift apart, not with the run's length.
 * The analysis runs on a thread of its own, pipelined with the caller's (the result is
 * the same): the stream's functions are to be called from one thread.
 *
 * Opens the analysis of a run whose definitions are defs (trace/defs.h), which it takes
 * whatever the result; name stands for the trace's path, in errors and as a->trace.
 * NULL with a one-line message in err. */
struct pz_analysis_stream *pz_analysis_stream_open(struct pz_defs *defs, const char *name,
                                                   char *err, size_t errlen);

/* Thread th's next record rec (trace/trace.h), at time `time` in the definitions' ticks
 * (rec->time is ignored): non-decreasing per thread, the threads interleaved in any way.
 * Returns 0, or -1 once the analysis failed (the message comes at the close; a failure
 * of the analysis's thread is seen a few records later, a record breaking this contract
 * at once). */
int pz_analysis_stream_record(struct pz_analysis_stream *s, int th, const struct pz_rec *rec,
                              uint64_t time);

/* Thread th has no more records: the others' need not wait for it. */
void pz_analysis_stream_done(struct pz_analysis_stream *s, int th);

/* After the last record: the analysis into a.  Returns 0, or -1 with a one-line message
 * naming the run in err (a is then empty).  Frees s in both cases; accepts NULL. */
int pz_analysis_stream_close(struct pz_analysis_stream *s, struct pz_analysis *a, char *err,
                             size_t errlen);

/* The characteristics of an interval (shared/DESIGN.md, docs/characteristics.md), for
 * the whole interval (integral: sums over processes) or for one process. */
struct pz_characteristics {
    double execution_time;
    int processors;
    double total_time, productive_time, efficiency, lost_time;
    double insufficient_parallelism, mpi_time, cpu_time, idle_time;
    double communication_time, sendrecv_time, collective_time, alltoall_time;
    double time_of_start, overlap, load_imbalance;
    double synchronization, real_synchronization, time_variation;
    double late_sender, late_sender_wrong_order, late_receiver;
    double wait_at_barrier, barrier_completion, wait_at_nxn, nxn_completion;
    double early_reduce, late_broadcast;
    uint64_t exe_count;
    /* parts of mpi_time: MPI-IO calls, one-sided calls; the bytes their operations read,
       wrote, put and got (not in pz_fields: reported when the analysis's io_rma is set) */
    double io_time, rma_time;
    double io_bytes_read, io_bytes_written, rma_bytes_put, rma_bytes_got;
    double lock_contention;    /* a wait state of one-sided calls, in both
                                  synchronizations */
};

void pz_characteristics_of(const struct pz_analysis *a, const struct pz_node *n,
                           struct pz_characteristics *out);

/* Process p's share; all zero if p did not execute the interval. */
void pz_characteristics_of_process(const struct pz_analysis *a, const struct pz_node *n,
                                   int p, struct pz_characteristics *out);

/* What every process's share of interval n depends on beyond its own sums: the
 * interval's execution time and its processes' longest CPU time, each found over all
 * the processes.  A loop over the processes takes them once (pz_interval_bounds) and
 * each share from them (pz_characteristics_within), rather than calling
 * pz_characteristics_of_process, which finds them again for every process. */
struct pz_interval_bounds {
    double execution, cpu_max;
};

struct pz_interval_bounds pz_interval_bounds(const struct pz_analysis *a,
                                             const struct pz_node *n);

/* pz_characteristics_of_process of process p, with b = pz_interval_bounds(a, n). */
void pz_characteristics_within(const struct pz_node *n, const struct pz_interval_bounds *b,
                               int p, struct pz_characteristics *out);

/* One characteristic across processes, for the comparative tables and the advice. */
struct pz_spread {
    double min, max, mean;
    int min_proc, max_proc;
};

/* The spread of the characteristic at byte offset field of struct pz_characteristics
 * (a double) over the processes that executed n. */
struct pz_spread pz_characteristic_spread(const struct pz_analysis *a, const struct pz_node *n,
                                          size_t field);

/* The MPI process and the thread of process p of the analysis (-1 and -1 for p < 0,
 * no process); without the tables of pz_analyze (an analysis built by hand), p is rank
 * p's only thread (processes.c). */
int pz_process_rank(const struct pz_analysis *a, int p);
int pz_process_thread(const struct pz_analysis *a, int p);

/* How the reports and the advice name process p: its rank, "RANK.THREAD" when the run
 * has threads. */
struct pz_label {
    char text[32];
};
struct pz_label pz_process_label(const struct pz_analysis *a, int p);

#endif
