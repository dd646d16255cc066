/* Inside the trace reader: definitions (trace_defs_in.c) and streams (trace_in.c). */
#ifndef PZ_TRACE_IN_INT_H
#define PZ_TRACE_IN_INT_H

#include <otf2/otf2.h>

#include "trace_in.h"

struct location_def {
    OTF2_LocationRef id;
    OTF2_LocationGroupRef group;
    OTF2_LocationType type;
    int thread;            /* the replayed thread it is; -1: not replayed (an accelerator
                              stream, metrics) */
};

struct group_def {
    OTF2_GroupType type;
    OTF2_Paradigm paradigm;
    uint32_t n;
    uint64_t *members;
};

/* An intercommunicator lists its first group, then the second: local is the first's
 * size (0 for an intracommunicator). */
struct comm_def {
    OTF2_GroupRef group, remote;
    int defined, inter, size;   /* size -1 until resolved; 0: MPI_COMM_SELF */
    int local;
    int *procs;
};

struct pz_spool;

/* One thread's stream; its ring of records read but not consumed is the thread's
 * struct pz_trace_ring (trace_in.h). */
struct stream {
    struct pz_trace_in *t;
    int thread;
    int ended;
};

struct pz_trace_in {
    struct pz_trace_in_head head;   /* first: pz_trace_in_peek reads it */
    char path[4096];
    OTF2_Reader *otf;
    char **strings;
    uint32_t nstrings;
    struct pz_region_info *regions;
    uint32_t nregions;
    struct location_def *locations;
    uint32_t nlocations;
    struct group_def *groups;
    uint32_t ngroups;
    struct comm_def *comms;
    uint32_t ncomms;
    OTF2_AttributeRef callsite, send_list, recv_list, cpu;
    uint64_t resolution, offset;
    int nprocs, nthreads;
    uint64_t *thread_location; /* of each thread */
    int *thread_rank;          /* of each thread: its process */
    int *first_thread;         /* of each process (its threads follow it) */
    struct stream *streams;    /* of each thread */
    struct pz_spool *spool;    /* every thread's records, read from the archive at open */
    struct pz_rec filling;     /* at open: the record the event callbacks fill, spooled
                                  when the next one begins or the location ends */
    int filled, spool_failed;
    uint64_t records;
    char error[4096 + 256];
};

/* Reads the global definitions; 0, or -1 with t->error set. */
int pz_trace_in_read_defs(struct pz_trace_in *t);
void pz_trace_in_free_defs(struct pz_trace_in *t);

/* Records a one-line error naming the trace (the first only). */
void pz_trace_in_fail(struct pz_trace_in *t, const char *what);

#endif
