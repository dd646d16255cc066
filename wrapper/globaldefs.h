/* The global definitions of a run, written by rank 0 at finalize: clock, system tree,
 * processes and threads, MPI regions, communicators and their groups. */
#ifndef PZ_GLOBALDEFS_H
#define PZ_GLOBALDEFS_H

#include <otf2/otf2.h>
#include <stdint.h>

#include "comms.h"
#include "intervals.h"

struct pz_run_info {
    int nprocs;
    const int *node_of_rank;         /* index into node_names */
    int nnodes;
    char *const *node_names;
    const int *nthreads;             /* per rank */
    const uint64_t *events;          /* per location: rank 0's threads, rank 1's, ... */
    uint64_t begin, end;             /* ns, on the corrected clock of rank 0 */
    uint64_t realtime_begin;         /* ns since the epoch at begin */
    const struct pz_global_comm *comms;
    uint32_t ncomms;
    char **count_lists;              /* per-peer byte lists: global string ids 0.. */
    uint32_t ncount_lists;
    const struct pz_interval_def *intervals;   /* region PZ_NCALLS + i is intervals[i] */
    uint32_t nintervals;
    const struct pz_interval_def *sites;       /* source code location i (id unused) */
    uint32_t nsites;
    int cpu_time;                    /* some process recorded CPU times (PROGNOZ_CPU_TIME) */
    char **io_handles;               /* MPI-IO handle i's identity (io_defs.h) */
    uint32_t nio_handles;
    char **rma_windows;              /* window i's identity (io_defs.h) */
    uint32_t nrma_windows;
    char **rma_groups;               /* epoch group i's identity (rma_groups.h), defined
                                        as group pz_rma_groups_base(run) + i */
    uint32_t nrma_groups;
};

void pz_write_global_definitions(OTF2_GlobalDefWriter *w, const struct pz_run_info *run);

/* The id of the first group after those of run's communicators: the groups of
 * one-sided epochs follow them. */
uint32_t pz_rma_groups_base(const struct pz_run_info *run);

#endif
