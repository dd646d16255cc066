/* The replay engine (000's "new Predictor scheme"): every thread of every process of a
 * recorded run (one per process without MPI_THREAD_MULTIPLE) is simulated with its own
 * clock; the thread with the earliest clock steps next (a heap); a step is the
 * computation before its next MPI call, scaled to the target machine, or the call
 * itself, whose communication the model (comsys.h) times between processes, whichever
 * of their threads call.  A thread that must wait for a partner is parked and woken by
 * the completion that ends its call.  The trace is read per thread as the replay goes
 * (trace_in.h). */
#ifndef PZ_ENGINE_H
#define PZ_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "coll.h"
#include "machine.h"

struct pz_progress_hook;   /* trace/progress.h */
struct pz_rec;             /* trace/trace.h */

/* Where a replay also delivers its predicted run, as it is predicted: record(ctx, th,
 * rec, time) gives thread th's record rec (rec->time is the recorded one) at the
 * predicted time `time` in the trace's ticks, non-decreasing per thread, the threads
 * interleaved; flushes are not given.  It returns 0, or -1 to stop the replay (its
 * message: "cannot deliver the predicted run").  done(ctx, th) says that thread th
 * has no more records. */
struct pz_replay_sink {
    int (*record)(void *ctx, int th, const struct pz_rec *rec, uint64_t time);
    void (*done)(void *ctx, int th);
    void *ctx;
};

struct pz_predict_options {
    const struct pz_machine *machine;
    int compute_cpu;       /* computation from the recorded CPU time (PROGNOZ_CPU_TIME=1)
                              where the trace has it, else from the wall clock */
    const char *output;    /* directory for the predicted trace (OTF2), or NULL */
    const struct pz_replay_sink *sink;   /* also given the predicted run, or NULL */
    const struct pz_coll_algo *forced[PZ_COLL_NOPS];   /* --coll: NULL = machine's choice */
    const struct pz_progress_hook *progress;   /* told the events read, then the records
                                                  replayed (trace_in.h); or NULL */
    int stop_when_stuck;   /* the recording is partial: where no process can go on and
                              some process's records ended before MPI_Finalize (the
                              others wait for it), the replay ends there and says so in
                              pz_prediction.stopped, instead of failing; the calls waited
                              in are not in the predicted trace, as a recording leaves out
                              the call a killed process was in.  A run that cannot go on
                              with every process recorded to MPI_Finalize still fails */
};

struct pz_prediction {
    int nprocs;            /* MPI processes */
    int nthreads;          /* threads replayed, at least one per process */
    double end;            /* the latest thread's end, s since the clock's offset */
    uint64_t records;      /* trace records replayed */
    uint64_t calls;        /* MPI calls replayed */
    uint64_t io_calls;     /* of them MPI-IO calls, replayed at their recorded time times
                              the machine's io_scale */
    uint64_t cpu_gaps;     /* computations timed by recorded CPU time (compute_cpu) */
    uint64_t wall_gaps;    /* computations timed by the wall clock */
    char stopped[768];     /* with stop_when_stuck, where the replay ended before every
                              record was replayed ("rank 0 waits in MPI_Barrier (the whole
                              run)"), else empty */
};

/* Replays the run recorded at trace (DIR or DIR/traces.otf2) on o->machine.  Returns
 * 0, or -1 with a one-line message in err: an unreadable trace, or a run that cannot
 * complete (naming the processes or threads, the calls they wait in and their
 * intervals). */
int pz_predict(const char *trace, const struct pz_predict_options *o,
               struct pz_prediction *out, char *err, size_t errlen);

struct pz_trace_in;
struct pz_trace_out;

/* The same replay of a run opened already (trace_in.h: read or generated), which name
 * names in errors, its predicted trace written to predicted unless NULL (o->output is
 * not looked at).  Closes in and predicted, whatever the result. */
int pz_predict_run(struct pz_trace_in *in, struct pz_trace_out *predicted, const char *name,
                   const struct pz_predict_options *o, struct pz_prediction *out, char *err,
                   size_t errlen);

#endif
