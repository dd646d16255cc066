/* The groups of one-sided epochs of generalized active target synchronization
 * (MPI_Win_post, MPI_Win_start), each with a small local reference that the
 * RmaGroupSync events carry, and their unification at finalize into one numbering for
 * the whole run (docs/trace-format.md).  A group's identity is its size and its
 * members' world ranks in the group's order ("3 0 2 5"), the same on every process
 * that names that group.  The open epochs of each window remember their group, which
 * the call ending the epoch (MPI_Win_complete, MPI_Win_wait, MPI_Win_test) names. */
#ifndef PZ_RMA_GROUPS_H
#define PZ_RMA_GROUPS_H

#include <mpi.h>
#include <stdint.h>

#include "unify.h"

/* The reference of a group the recorder could not translate or keep. */
#define PZ_NO_GROUP UINT32_MAX

/* Which epoch of a window: the access epoch of MPI_Win_start or the exposure epoch of
 * MPI_Win_post. */
enum pz_rma_epoch { PZ_EPOCH_ACCESS, PZ_EPOCH_EXPOSURE };

/* The local reference of group (its identity interned once per process); PZ_NO_GROUP
 * if MPI could not translate it or memory ran out.  Thread-safe. */
uint32_t pz_rma_groups_intern(MPI_Group group);

/* Epoch `epoch` of the window of local reference win opens with group. */
void pz_rma_epoch_open(uint32_t win, enum pz_rma_epoch epoch, uint32_t group);

/* The group of the open epoch of win; PZ_NO_GROUP if none is open. */
uint32_t pz_rma_epoch_group(uint32_t win, enum pz_rma_epoch epoch);

/* Epoch `epoch` of win is over. */
void pz_rma_epoch_close(uint32_t win, enum pz_rma_epoch epoch);

/* Number of local references so far. */
uint32_t pz_rma_groups_count(void);

/* Appends the identity of every local reference, in order, to out (what the
 * unification gathers; a part keeps it, part.h). */
void pz_rma_groups_identities(struct pz_strings *out);

/* Collective over comm: numbers the groups of the run from 0.  map[ref] receives the
 * number of each local reference; on rank 0 *all and *nall the identities in that
 * order (free with pz_free_strings), elsewhere NULL and 0.  Returns 0 or -1. */
int pz_rma_groups_unify(MPI_Comm comm, uint32_t *map, char ***all, uint32_t *nall);

#endif
