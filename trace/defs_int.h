/* Inside the definitions reader: reading (defs.c, defs_cart.c) and numbering
 * (defs_procs.c). */
#ifndef PZ_TRACE_DEFS_INT_H
#define PZ_TRACE_DEFS_INT_H

#include "defs.h"

/* Records a one-line error naming the trace (the first only). */
void pz_defs_fail(struct pz_defs *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Index id of array *v (capacity *n, elements of size bytes) made valid; an id beyond
 * PZ_DEFS_MAX_ID fails with "definition id N out of range".  0 or -1. */
int pz_defs_reserve(struct pz_defs *d, void **v, uint32_t *n, uint32_t id, size_t size);

/* Registers the readers of Cartesian topologies (defs_cart.c). */
void pz_defs_cart_callbacks(OTF2_GlobalDefReaderCallbacks *cb);

/* Sorts each topology's coordinates by rank once all are read; 0, or -1 with the error
 * recorded if a rank has two different ones. */
int pz_defs_sort_carts(struct pz_defs *d);

void pz_defs_release_carts(struct pz_defs *d);

/* Registers the readers of location groups and system tree nodes, and fills
 * d->recording once the processes are numbered, from them and the archive's
 * properties (defs_recording.c); 0, or -1 out of memory. */
void pz_defs_recording_callbacks(OTF2_GlobalDefReaderCallbacks *cb);
int pz_defs_read_recording(struct pz_defs *d, OTF2_Reader *otf);

/* Numbers the processes and threads and hashes the location ids; 0, or -1 out of
 * memory. */
int pz_defs_number(struct pz_defs *d);

/* Every communicator's members as processes; 0, or -1 out of memory. */
int pz_defs_resolve_comms(struct pz_defs *d);

#endif
