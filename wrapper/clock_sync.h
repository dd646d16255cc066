/* Clock offsets between nodes, measured against rank 0 by ping-pong (the round trip of
 * least duration of several wins), as Score-P and Scalasca do. */
#ifndef PZ_CLOCK_SYNC_H
#define PZ_CLOCK_SYNC_H

#include <mpi.h>

#include "archive.h"

/* Collective over comm.  remote[r] is nonzero for the ranks not on rank 0's node; only
 * those are measured, the others get offset 0. */
struct pz_clock_offset pz_clock_sync(MPI_Comm comm, const int *remote);

#endif
