/* The intervals of a run at finalize: each process resolves the begin call sites of its
 * intervals to source file and line (callsite.h), the identities (file, line, id) of all
 * processes are unified, and misuses of markers are reported once by rank 0. */
#ifndef PZ_INTERVALS_H
#define PZ_INTERVALS_H

#include <mpi.h>
#include <stdint.h>

#include "interval_defs.h"

/* Collective over comm.  Fills map[i] with the global number of local interval i
 * (pz_markers_count() entries).  On rank 0, *all and *nall receive every interval of the
 * run in global order (free with pz_intervals_free), elsewhere NULL and 0.  Rank 0
 * prints each distinct misuse of markers once, as a warning naming file and line. */
int pz_intervals_unify(MPI_Comm comm, uint32_t *map, struct pz_interval_def **all,
                       uint32_t *nall);

#endif
