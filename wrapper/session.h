/* State of the recording session shared by runtime.c (starting) and finish.c (writing
 * the trace at finalize).  Internal to the wrapper. */
#ifndef PZ_SESSION_H
#define PZ_SESSION_H

#include <limits.h>
#include <mpi.h>
#include <stdint.h>

#include "archive.h"

struct pz_session {
    int rank, size;
    char dir[PATH_MAX];
    char stage[PATH_MAX];            /* where this run's trace is written (trace_dir.h) */
    MPI_Comm comm;                   /* private duplicate of MPI_COMM_WORLD */
    int archive_open;
    char **node_names;               /* rank 0: distinct node names */
    int *node_of_rank;               /* index into node_names, every rank */
    int nnodes;
    struct pz_clock_offset offsets[2];   /* measured at start and at finalize */
    int noffsets;
};

extern struct pz_session pz_session;

/* Collective: duplicates the world, learns the nodes, prepares the directory, opens the
 * archive and measures clock offsets.  Returns 0, or -1 when nothing can be written (the
 * warning is printed by rank 0). */
int pz_session_open(void);

/* Collective: writes everything recorded and closes the archive. */
void pz_session_write(void);

#endif
