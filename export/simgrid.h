/* A recorded run written for SimGrid's SMPI: time-independent (TI) traces that
 * `smpirun -replay` replays, a platform file equivalent to a machine file, and a
 * hostfile placing the processes on its nodes as the machine does (docs/simgrid.md
 * documents the files, the mapping of every record and what differs from prognoz's
 * model).  Plain C: nothing here links with SimGrid.
 *
 * Errors: functions returning int return 0, or -1 with a one-line message in err
 * (what is wrong first, lower case, no full stop). */
#ifndef PZ_SIMGRID_H
#define PZ_SIMGRID_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "coll.h"
#include "machine.h"
#include "trace_in.h"

/* The speed of the platform's hosts, flop/s: a computation of s recorded seconds
 * becomes `compute` of s x cpu_scale x PZ_SIMGRID_SPEED flops, which SimGrid times
 * back as s x cpu_scale seconds. */
#define PZ_SIMGRID_SPEED 1e9

/* Messages of collectives on communicators other than MPI_COMM_WORLD (replayed as the
 * point-to-point messages of prognoz's algorithm) carry the tag
 * -(PZ_SIMGRID_COLL_TAG + communicator id % PZ_SIMGRID_COLL_TAG), apart from the
 * program's tags (>= 0) and SMPI's own (> -10000). */
#define PZ_SIMGRID_COLL_TAG 1000000

/* Writes the run recorded at trace (DIR or DIR/traces.otf2) for machine m into the
 * directory out (made if missing; refused if it holds traces.txt already):
 * platform.xml, hostfile, rank-P.txt (the actions of process P) and traces.txt (the
 * list smpirun -replay reads: the rank files by absolute path).  *nprocs (unless
 * NULL) gets the number of processes, smpirun's -np. */
int pz_simgrid_export(const char *trace, const struct pz_machine *m, const char *out,
                      int *nprocs, char *err, size_t errlen);

struct pz_progress_hook;   /* trace/progress.h */

/* pz_simgrid_export, telling progress (NULL: none) the events read, then the records
 * written (trace_in.h). */
int pz_simgrid_export_with_progress(const char *trace, const struct pz_machine *m,
                                    const char *out, int *nprocs,
                                    const struct pz_progress_hook *progress, char *err,
                                    size_t errlen);

/* What the platform depends on in the run: its number of processes, and the largest
 * block (bytes) of each collective operation written as SMPI's own action, by which
 * the algorithm of Bcast, Reduce and Allreduce is chosen as MPICH chooses it. */
struct pz_simgrid_run {
    int nprocs;
    uint64_t init_start;    /* pz_call_init_start: where every process leaves MPI_Init */
    double largest[PZ_COLL_NOPS];
};

/* The platform file for the run on machine m: one host per node, the network as a
 * SimGrid cluster, SMPI's configuration in <config>.  Returns 0, or -1 if writing
 * failed. */
int pz_simgrid_platform(FILE *f, const struct pz_machine *m, const struct pz_simgrid_run *run);

/* The hostfile: the host of rank 0, 1, ... one per line. */
int pz_simgrid_hostfile(FILE *f, const struct pz_machine *m, int nprocs);

/* The actions of process p, one line each ("P init", "P compute 1000", ...), from the
 * stream of its first thread in `in`, which it consumes; run->largest grows with its
 * collectives.  A process that begins with MPI_Init leaves it at run->init_start, which
 * must be set before the first process is written.  SMPI's time-independent traces have one stream of actions per process:
 * the other threads of an MPI_THREAD_MULTIPLE program are not exported. */
int pz_simgrid_actions(FILE *f, struct pz_trace_in *in, const struct pz_machine *m, int p,
                       struct pz_simgrid_run *run, char *err, size_t errlen);

#endif
