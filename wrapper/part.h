/* The part of a run that one process leaves when the run ends without MPI_Finalize
 * (docs/record.md): a text file STAGE/part.RANK beside the event files the process
 * closed, holding what the unification at finalize would have received from it, so
 * that the global definitions can be rebuilt afterwards without it (assemble.h).
 *
 * Lines, each "KEY VALUE...", in this order:
 *   prognoz-part 1
 *   rank R / size N / ending TEXT (how the process ended, one line)
 *   node NAME (one per node of the run, in order) / node_of_rank I0 I1 ... (N values)
 *   program NAME / library TEXT / cores N (the recording's properties: the program,
 *     the MPI library, this node's online cores; recording.h)
 *   cpu 0|1 / offset TIME OFFSET DEVIATION (the clock offset measured at start)
 *   clock NOW REALTIME (its clock and the epoch's, in ns, when the part was written)
 *   thread INDEX EVENTS FIRST LAST (one per thread: events written, span in ns)
 *   saved INDEX SIZE (after its thread line, in the part of a checkpoint: the thread's
 *                     events are the first SIZE bytes of traces/LOC.evt.saved, not
 *                     its event file; checkpoint.h)
 *   comm GID CREATOR SIZE REMOTE NDIMS MEMBERS... CART... (one per local reference)
 *   list S / interval S / site S (count lists, interval and call-site identities in
 *                                 local-id order, '\' and newline escaped as \\ and \n)
 *   iohandle S / window S (MPI-IO file handles' and windows' identities, handles.h,
 *                          alike)
 *   rmagroup S (the identities of one-sided epochs' groups, rma_groups.h, alike)
 *   end
 * A part without its "end" line was cut short and is not used. */
#ifndef PZ_PART_H
#define PZ_PART_H

#include <stddef.h>
#include <stdint.h>

#include "comms.h"

#define PZ_PART_MAGIC "prognoz-part 1"
#define PZ_PART_PREFIX "part."

/* A part as read back (part_read.c). */
struct pz_part_thread {
    uint32_t index;
    uint64_t events, first, last;
    uint64_t saved;                    /* bytes of its saved file, 0 if none */
};

struct pz_part_strings {
    char **s;
    uint32_t n;
};

struct pz_part {
    int rank, size;
    char *ending;
    char *program, *library;           /* NULL if the part does not say */
    int cores;                         /* 0: unknown */
    struct pz_part_strings nodes;
    int *node_of_rank;                 /* size values */
    int cpu;
    uint64_t offset_time, clock_now, clock_real;
    int64_t offset;
    double deviation;
    struct pz_part_thread *threads;
    uint32_t nthreads;
    struct pz_comm_info *comms;        /* rank unused; members NULL when unknown */
    uint32_t ncomms;
    struct pz_part_strings lists, intervals, sites, io_handles, windows, rma_groups;
};

/* Reads the part at path into *p.  Returns 0, or -1 with a message naming path and
 * the problem in err (a part cut short, a line not understood). */
int pz_part_read(const char *path, struct pz_part *p, char *err, size_t errlen);

void pz_part_free(struct pz_part *p);

#endif
