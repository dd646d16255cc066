/* The bytes a process sends and receives in a collective operation, counted as the data
 * that moves between different processes by the operation's definition, whatever
 * algorithm MPI uses (docs/trace-format.md gives the table). */
#ifndef PZ_COLL_BYTES_H
#define PZ_COLL_BYTES_H

#include <mpi.h>
#include <stdint.h>

#include "calls_gen.h"

struct pz_coll_args {
    enum pz_collective op;
    int rank, size;            /* size: of the group data goes to (remote group if inter) */
    int inter;
    int in_place;              /* the send buffer was MPI_IN_PLACE */
    uint64_t s, r;             /* one block sent / received, in bytes */
    const int *scounts, *rcounts;
    const MPI_Datatype *stypes, *rtypes;
    MPI_Datatype stype, rtype;
};

/* Rooted operations (bcast, gather(v), scatter(v), reduce): is_root tells whether this
 * process is the root, in_group whether it takes part (intercommunicators: a process of
 * the root's group other than the root does not). */
void pz_coll_rooted_bytes(const struct pz_coll_args *a, int is_root, int in_group,
                          uint64_t *sent, uint64_t *received);

/* Operations without a root. */
void pz_coll_bytes(const struct pz_coll_args *a, uint64_t *sent, uint64_t *received);

#endif
