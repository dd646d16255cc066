/* Inside the replay engine: the state engine.c (the main loop, computation, the
 * records between calls), engine_call.c (one MPI call) and engine_any.c (what a call of
 * a pool of MPI_Waitany and the like completes) share, and what they use from
 * engine_out.c (writing records, failing, naming threads).  engine.c calls
 * engine_call.c, never the reverse. */
#ifndef PZ_ENGINE_INT_H
#define PZ_ENGINE_INT_H

#include "comsys.h"
#include "engine.h"
#include "radix.h"
#include "trace_in.h"
#include "trace_out.h"

enum thread_state { THREAD_READY, THREAD_PARKED, THREAD_DONE };

/* Marks a receive request the program cancelled: nothing was posted for it. */
#define REQ_CANCELLED (-2)

struct pending {
    uint64_t id;           /* the trace's request id */
    int request;           /* comsys request, or REQ_CANCELLED */
    int persistent;        /* started by MPI_Start or MPI_Startall */
};

/* A nonblocking I/O operation begun and not complete. */
struct io_begun {
    uint32_t handle;
    uint64_t matching;
    uint64_t recorded;     /* its begin's recorded time */
    double predicted;      /* and predicted time: its call's start */
};

#define MAX_OPEN_INTERVALS 32

/* One thread's timeline (without threads, one per process). */
struct thread {
    int rank;              /* its process, which communicates */
    double now;            /* predicted time */
    uint64_t last;         /* recorded time replayed up to */
    enum thread_state state;
    /* the computation since the last MPI call */
    uint64_t leave_wall, leave_cpu;   /* recorded wall and CPU time at its start */
    double factor;         /* predicted seconds per recorded second; < 0: not known yet */
    /* the call in progress */
    size_t call_len;       /* its records, from Enter to Leave */
    double call_start, wake;
    int in_mpi;            /* the call's number in the model's progress (comsys.h) */
    int outstanding;       /* requests it waits for whose completion is not known */
    uint32_t call_region;
    /* nonblocking operations posted and not completed */
    struct pending *pending;
    int npending, cappending;
    struct io_begun *io;   /* nonblocking I/O operations begun and not complete */
    uint32_t nio, capio;
    uint32_t intervals[MAX_OPEN_INTERVALS];
    int depth;
};

struct comm_map {
    int id;                /* comsys communicator, -1 until a collective needs it */
    int *rank_of;          /* rank in the communicator of each process, -1 if none */
};

struct engine {
    const struct pz_predict_options *o;
    struct pz_trace_in *in;
    struct pz_trace_out *out;
    struct pz_comsys *cs;
    struct thread *threads;
    int nthreads, ndone;
    int ended_early;       /* processes whose records ended before MPI_Finalize (a
                              partial recording): with stop_when_stuck, where the others
                              wait for them the replay ends */
    int nprocs;                    /* the model's processes */
    int threaded;                  /* a process has several threads: named RANK.THREAD */
    int *waiter;                   /* of each model request a thread waits for: the thread
                                      (-1: none, a request a pool's call did not choose) */
    int nwaiters;
    struct pz_radix ready;         /* threads due to step, by time */
    struct comm_map *comms;
    uint32_t ncomms;
    double resolution;
    uint64_t offset;
    struct pz_prediction *result;
    struct any_state **any;        /* of each thread, from its first MPI_Waitany or the
                                      like (engine_any.c); NULL until then */
    char error[1024];
};

/* Replays the MPI call whose Enter is thread th's next record, from its time now.
 * Returns 1 if th parked to wait for its partners, 0 if the call is done. */
int pz_engine_call(struct engine *e, int th);

/* Ends the call of thread th at its wake time: writes its records, consumes them. */
void pz_engine_finish_call(struct engine *e, int th);

/* The operation of thread k's request id, removed from those posted; -1 if none was. */
int pz_engine_take(struct thread *k, uint64_t id);

/* Thread th is the one to wake when request completes; -1 (and the replay stops) if
 * memory ran out. */
int pz_engine_set_waiter(struct engine *e, int th, int request);

/* --- engine_any.c: a pool of MPI_Waitany, MPI_Testany, MPI_Waitsome, MPI_Testsome
 * calls completes first what the model completes first.  For each call of thread th
 * (its records known: call_len), in this order: */

/* Before its events are acted on: replaces those of its records an earlier call of
 * its pool swapped, and returns 1 if the call chooses what it completes (its
 * completion records, pz_any_completes, are then left to pz_any_wait), else 0. */
int pz_any_begin(struct engine *e, int th, const struct pz_region_info *call);
int pz_any_completes(uint8_t kind);

/* Record i of the call as replayed (pz_trace_in_peek's, or the one replacing it);
 * valid until the next peek or the call's end. */
const struct pz_rec *pz_any_record(struct engine *e, int th, size_t i);

/* After its events, if it chooses: unless what it completes was done by its start, it
 * waits (adds one to the thread's outstanding), and the thread is put on the ready
 * queue as an item of kind 1 when the model has completed what it chooses. */
void pz_any_wait(struct engine *e, int th);

/* A watched request completes at t: 1 if it is one a call of th waits for in
 * pz_any_wait, else 0. */
int pz_any_done(struct engine *e, int th, int request, double t);

/* Whether the ready queue's item of kind 1 for thread th at `at` is due (a later
 * completion learnt may have planned an earlier one): then the thread waits no more. */
int pz_any_due(struct engine *e, int th, double at);

/* At its end, before its records are written: completes the requests chosen (the
 * thread's wake is when it has taken them) and swaps the records. */
void pz_any_choose(struct engine *e, int th);

/* After its records are written. */
void pz_any_end(struct engine *e, int th);

void pz_any_free(struct engine *e);

/* --- engine_out.c */

/* Writes record rec of thread th at predicted time t (if a trace is written) and gives it
 * to the options' sink (if any). */
void pz_engine_emit(struct engine *e, int th, const struct pz_rec *rec, double t);

/* How messages name thread th: "rank 1", or "thread 1.2" in a run with threads. */
struct pz_name {
    char text[48];
};
struct pz_name pz_engine_name(const struct engine *e, int th);

/* The first error wins; the replay stops. */
void pz_engine_fail(struct engine *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
