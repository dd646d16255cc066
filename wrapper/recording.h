/* What the trace says of the recording beyond the definitions: the program, the date,
 * the MPI library and each node's online cores, as archive properties (trace/names.h)
 * that `prognoz report` shows and uses to tell an oversubscribed run. */
#ifndef PZ_RECORDING_H
#define PZ_RECORDING_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* Collective over comm: sets the properties on rank 0, whose archive is open.
 * node_of_rank numbers the nodes of every rank as the system tree does; realtime_begin
 * (read on rank 0 only) is the run's start, ns since the epoch. */
void pz_recording_note(MPI_Comm comm, int rank, int size, const int *node_of_rank,
                       int nnodes, uint64_t realtime_begin);

/* The MPI library's version on one line ("" if MPI does not say), into library. */
void pz_recording_library(char *library, size_t len);

/* The online cores of this node (PROGNOZ_CORES=N says N instead, for tests). */
int pz_recording_cores(void);

#endif
