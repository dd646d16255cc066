/* Calls that neither move data nor wait, left out of a recorded run for the scaling
 * model: a program's root that reads the input and asks its rank and size (MPI_Comm_rank,
 * MPI_Comm_size) between the broadcasts the others make without them follows no pattern
 * of the process grid, where the calls around them do.  Their time is the computation's
 * (tools/scale.c leaves them out where the model cannot be built with them, and says
 * so). */
#ifndef PZ_SCALE_LOCAL_H
#define PZ_SCALE_LOCAL_H

#include <stddef.h>

#include "scale_run.h"

/* Leaves out of every process of r the calls of the table's plain category (the rank,
 * size and group calls, MPI_Get_count, MPI_Request_get_status, MPI_Buffer_attach; not
 * MPI_Buffer_detach, which waits for the buffered messages) that recorded no event: each one's computation before it and time inside it
 * are added to the computation before the next step (or after the last), and the
 * requests later steps complete keep their posting steps.  Appends to names (len bytes,
 * a string) the names of those it left out, ", " between them, each once.  Returns how
 * many calls it left out. */
size_t pz_scale_run_fold_local(struct pz_scale_run *r, char *names, size_t len);

#endif
