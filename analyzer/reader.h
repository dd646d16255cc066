/* Internal state of reading one trace.  Calls go one way, down this list: read.c (the
 * definitions, trace/defs.h, and the driver; sequential.c after the events), stream.c
 * (the other driver: a run's records given in memory, in the order read.c reads a
 * trace's events), walk.c
 * (the events in time order), profile.c, waits.c (messages and collective instances),
 * nbc.c (nonblocking collectives), charge.c (where waits go), reader.c (the error). */
#ifndef PZ_READER_H
#define PZ_READER_H

#include <stddef.h>
#include <stdint.h>
#include <otf2/otf2.h>

#include "analysis.h"
#include "check.h"
#include "defs.h"
#include "open.h"
#include "trace.h"
#include "tree.h"

enum region_kind { REGION_OTHER, REGION_MPI, REGION_INTERVAL };

/* What opening a trace found that its analysis through the records takes over (read.c
 * hands it on when the trace is too large for OTF2's global reader): the definitions,
 * the partial trace's endings (NULL if none), the anchor file errors name. */
struct pz_opened_trace {
    struct pz_defs defs;
    char *partial;
    char anchor[4096];
};

/* pz_analyze_records (analysis.h) of the trace at path that o describes; takes o's
 * definitions and endings whatever the result. */
int pz_analyze_opened(const char *path, struct pz_opened_trace *o, struct pz_analysis *a,
                      const struct pz_progress_hook *progress, char *err, size_t errlen);
enum mpi_class { CLASS_MPI, CLASS_SENDRECV, CLASS_COLLECTIVE, CLASS_ALLTOALL };

/* A region of the definitions (info) as the analysis sees it. */
struct region {
    const struct pz_region_info *info;
    int function;          /* index in pz_analysis.functions, -1 until first called */
    uint8_t kind, mpi_class;
    uint8_t starts;        /* begins a nonblocking operation */
    uint8_t blocking;      /* may wait for a partner: not a test, not a post */
    uint8_t sends_blocking;    /* a blocking send that may wait for its receiver
                                  (Send, Ssend, Rsend; not Bsend, not Sendrecv) */
};

struct pz_msg;

/* An open region of a process. */
struct frame {
    uint32_t region;
    int node;              /* interval node, or -1 */
    double enter;
    struct pz_msg *send;   /* the message a blocking send of this call sent */
    uint32_t site;         /* source code location of the call, UINT32_MAX if none */
    double latest_send;    /* latest send enter of the messages it received late */
    int wrong_order;       /* one of them was received in the wrong order */
};

/* A process while its events are read. */
struct process {
    struct frame *stack;
    uint32_t depth, cap;
    double first, last;
    struct pz_time_check time;   /* its events' times do not go back */
    int64_t in_flight;     /* nonblocking operations posted and not completed */
    double computing_since;   /* leave of the last MPI call, while none is open */
    /* an OpenMP worker thread (not the first of its process) exists only inside the
       thread teams it is part of: ThreadTeamBegin to ThreadTeamEnd, outermost teams */
    uint32_t teams, nesting;   /* outermost teams begun; teams open now */
    double team_since, team_time;
    /* the measurement switched off (MeasurementOnOff): nothing recorded meanwhile */
    uint32_t offs;
    int off;
    double off_since, off_first, off_time;
};

struct pz_waits;
struct pz_nbc;
struct pz_io_rma;

struct reader {
    struct pz_analysis *a;
    struct pz_tree tree;
    struct pz_trace_file file;   /* the open trace, and the first error of reading it */
    struct pz_defs defs;   /* its processes are the analysis's MPI processes (ranks),
                              its threads the analysis's processes */
    struct region *regions;    /* of each region of defs */
    uint32_t nregions;
    uint64_t base;         /* timestamp of the first event: times are seconds since */
    int started;
    uint32_t *site_index;  /* per site × region slot: index + 1 in callsites, 0 if none */
    uint32_t nsite_slots;
    struct process *procs;
    struct pz_waits *waits;
    struct pz_nbc *nbc;    /* made and freed with the waits */
    struct pz_io_rma *io_rma;  /* I/O operations in flight (io_rma.c) */
    uint64_t mpi_calls;
    const struct pz_progress_hook *progress;   /* or NULL */
    /* the location of the record given to pz_walk_record and its thread: a record's
       events need no lookup of their location */
    int walking;
    OTF2_LocationRef walking_location;
    int walking_thread;
};

/* Records a one-line error (the first one only) naming the trace. */
void pz_reader_fail(struct reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Collectives that only create or destroy a communicator's handle: Score-P records
 * MPI_Init, MPI_Finalize and communicator construction and destruction so; they move no
 * data, and prognoz's own traces do not have them. */
static inline int pz_handle_op(OTF2_CollectiveOp op)
{
    return op == OTF2_COLLECTIVE_OP_CREATE_HANDLE || op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE ||
           op == OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE ||
           op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE;
}

/* Process number of a location, -1 if it is not analyzed. */
static inline int pz_reader_proc(const struct reader *r, OTF2_LocationRef loc)
{
    if (r->walking && loc == r->walking_location)
        return r->walking_thread;
    return pz_defs_thread(&r->defs, loc);
}

/* The MPI process of process proc of the analysis (one of its threads): messages and
 * collective instances are matched between MPI processes, and communicators list them. */
static inline int pz_reader_rank(const struct reader *r, int proc)
{
    return r->a->rank_of[proc];
}

/* Statistics of MPI functions and call sites (profile.c). */
void pz_profile_call(struct reader *r, uint32_t region, uint32_t site, double duration);
/* At the Enter of an MPI call: lists its function (and call site) in order of first call. */
void pz_profile_enter(struct reader *r, uint32_t region, uint32_t site);
void pz_profile_bytes(struct reader *r, uint32_t region, uint64_t sent, uint64_t received);

/* Registers the event callbacks of walk.c on cb. */
void pz_walk_callbacks(OTF2_GlobalEvtReaderCallbacks *cb);

/* MPI-IO and one-sided communication (io_rma.c).  At the Leave of an MPI call of region
 * g that lasted d: its time in the io or rma part of every interval of nodes[0..n-1] and
 * of the whole run, if its function is of either family, or if it is a wait or test that
 * completed only nonblocking I/O operations: then returns 1, and the call is not
 * point-to-point time. */
int pz_io_rma_call(struct reader *r, int proc, const int *nodes, uint32_t n,
                    const struct region *g, double d);
/* Registers the callbacks of the I/O and one-sided events on cb: the bytes of each
 * operation go to the intervals open on its process when it completes (an I/O
 * operation) or is issued (RmaPut, RmaGet, RmaAtomic); a lock's Lock Contention when it
 * is granted (RmaRequestLock, after the releases of RmaReleaseLock). */
void pz_io_rma_callbacks(OTF2_GlobalEvtReaderCallbacks *cb);
/* The same callback for rec, a one-sided record (trace.h: a Put, Get, atomic, lock or
 * release) or an I/O operation's begin or complete, as trace_out.c writes it:
 * pz_walk_record's for those kinds. */
OTF2_CallbackCode pz_io_rma_record(struct reader *r, OTF2_LocationRef loc, OTF2_TimeStamp t,
                                   OTF2_AttributeList *a, const struct pz_rec *rec);
void pz_io_rma_free(struct reader *r);

/* Hands record rec (trace.h) of thread th (of r->defs) at time to the callback cb would
 * have for its event as trace_out.c writes it; attributes is a list it may use for the
 * record's attributes.  0, or -1 once the reading failed. */
int pz_walk_record(struct reader *r, int th, const struct pz_rec *rec, uint64_t time,
                   OTF2_AttributeList *attributes);

/* Fetches into the caches what record rec of thread th will touch, some records before
 * it is given to pz_walk_record: far ahead, the record, its process and its statistics
 * of the whole run; nearer, once those came, the process's open regions. */
void pz_walk_prefetch(const struct reader *r, int th, const struct pz_rec *rec, int near);

/* The two halves of reading around the events (read.c), for both drivers: the
 * analysis's view of r->defs and its empty state, then, after every event, what
 * follows from all of them.  Each returns 0, or -1 with the error recorded. */
int pz_reader_begin(struct reader *r);
int pz_reader_end(struct reader *r);

/* Keeps in the analysis the name of what is analyzed and the recording's description
 * from r->defs.  0, or -1 out of memory. */
int pz_reader_keep(struct reader *r, const char *path);

/* Frees what reading holds besides the analysis; r->file is closed by its opener. */
void pz_reader_release(struct reader *r);

/* Where the time of waits goes (charge.c).  Adds value to the statistic at byte offset
 * field of struct pz_stats, for process proc, in every interval node of nodes[0..n-1]
 * and in the whole run. */
void pz_charge(struct reader *r, int proc, const int *nodes, uint32_t n, size_t field,
               double value);

/* The interval nodes open on proc now, innermost last; returns how many (at most max). */
uint32_t pz_open_nodes(const struct reader *r, int proc, int *nodes, uint32_t max);

/* Collective operations whose every member waits for all (Allreduce, Alltoall...), for
 * the others' data to reach the root (Reduce, Gather...), for the root's data (Bcast,
 * Scatter...). */
int pz_collective_nxn(OTF2_CollectiveOp op);
int pz_collective_n_to_1(OTF2_CollectiveOp op);
int pz_collective_1_to_n(OTF2_CollectiveOp op);

/* The wait state of a member of a collective op (at its root or not): an offset in
 * struct pz_stats, or 0 if it has none. */
size_t pz_collective_wait(OTF2_CollectiveOp op, int at_root);

/* After the events: the insufficient parallelism of every interval (sequential.c).
 * Returns 0, or -1 out of memory. */
int pz_sequential_losses(struct pz_analysis *a);

/* Messages and collectives (waits.c). */
int pz_waits_new(struct reader *r);
void pz_waits_send(struct reader *r, int proc, uint32_t comm, uint32_t dest, uint32_t tag,
                   double when, struct frame *call);
void pz_waits_recv(struct reader *r, int proc, uint32_t comm, uint32_t source, uint32_t tag,
                   double when, struct frame *call);
/* At the Leave of an MPI call: the waits of the call (Late Sender, Late Receiver). */
void pz_waits_call_done(struct reader *r, int proc, struct frame *call, double leave);
void pz_waits_collective(struct reader *r, int proc, OTF2_CollectiveOp op, uint32_t comm,
                         uint32_t root, double enter, double leave);
void pz_waits_finish(struct reader *r);
void pz_waits_free(struct reader *r);

/* Nonblocking collectives (nbc.c): a post (in the call that began at post_enter), its
 * completion inside call (NULL: outside any call) at when, and the call's return. */
struct pz_nbc *pz_nbc_new(const struct reader *r);
void pz_nbc_post(struct reader *r, int proc, uint64_t request, double post_enter);
void pz_nbc_complete(struct reader *r, int proc, OTF2_CollectiveOp op, uint32_t comm,
                     uint32_t root, uint64_t request, const struct frame *call, double when);
void pz_nbc_call_done(struct reader *r, int proc, const struct frame *call, double leave);
void pz_nbc_finish(struct reader *r);
void pz_nbc_free(struct pz_nbc *n);

#endif
