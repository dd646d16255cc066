/* Per-peer byte counts of the v and w collectives (Alltoallv, Gatherv, ...), which the
 * predictor replays message by message.  A count list is text, "b0,b1,...": bytes to or
 * from rank i of the communicator; each distinct list is kept once per process under a
 * local string id and written to the trace as a string attribute of the collective's
 * end event (docs/trace-format.md). */
#ifndef PZ_VCOUNTS_H
#define PZ_VCOUNTS_H

#include <mpi.h>
#include <stdint.h>

#include "bytes.h"
#include "record.h"

/* Attributes of events, defined by rank 0 with these ids. */
#define PZ_ATTR_SEND_BYTES 0u
#define PZ_ATTR_RECV_BYTES 1u
#define PZ_ATTR_CALLSITE 2u     /* sites.h */
#define PZ_ATTR_ANY_SOURCE 3u   /* record.h, PZ_ITEM_ANY_SOURCE */
#define PZ_ATTR_CPU_TIME 4u     /* clock.h; defined only when recorded */

/* The local string id of the list counts[i] × size of (types ? types[i] : type) for
 * i < n (counts of int or MPI_Count, bytes.h); PZ_NO_COUNTS if counts is
 * PZ_COUNTS_NONE or memory ran out. */
uint32_t pz_vcounts_intern(struct pz_counts counts, MPI_Datatype type,
                           const MPI_Datatype *types, int n);

/* Number of local string ids so far. */
uint32_t pz_vcounts_count(void);

/* Every list of this process, NUL-terminated one after the other in local id order, and
 * their total length in *len; NULL if memory ran out. */
char *pz_vcounts_pack(int *len);

/* Collective over comm: numbers the distinct lists of all processes.  Fills
 * map[local id] with global string ids 0, 1, ...; on rank 0 *all receives the lists in
 * global order and *nall their number (free with pz_vcounts_free_global), elsewhere
 * NULL and 0.  Returns 0, or -1 if memory ran out somewhere. */
int pz_vcounts_unify(MPI_Comm comm, uint32_t *map, char ***all, uint32_t *nall);

void pz_vcounts_free_global(char **all, uint32_t nall);

#endif
