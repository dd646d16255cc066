/* Inside the definitions reader: reading (defs.c) and numbering (defs_procs.c). */
#ifndef PZ_TRACE_DEFS_INT_H
#define PZ_TRACE_DEFS_INT_H

#include "defs.h"

/* Records a one-line error naming the trace (the first only). */
void pz_defs_fail(struct pz_defs *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Numbers the processes and threads and hashes the location ids; 0, or -1 out of
 * memory. */
int pz_defs_number(struct pz_defs *d);

/* Every communicator's members as processes; 0, or -1 out of memory. */
int pz_defs_resolve_comms(struct pz_defs *d);

#endif
