/* Collective operations as the point-to-point messages of MPICH's and Open MPI's
 * algorithms.
 *
 * A collective instance is described as one member sees it (struct pz_coll); an
 * algorithm turns it, member by member, into rounds: in each round the member posts
 * every message of the round (sends and receives, to and from ranks of the
 * communicator) and waits for all of them, then combines what it received
 * (reduce_bytes at the machine's reduce_byte_time) before the next round; a round can
 * begin with a local copy of the member's own block (pz_coll_round.copy).  The members'
 * rounds need not line up: messages between two members are matched in the order each
 * posts them, so each member's sequence alone defines the algorithm.  Rounds are made on
 * demand, so an instance on 4096 ranks holds no schedule in memory.
 *
 * docs/collectives.md describes every algorithm, the sets (`mpi = mpich1`,
 * `mpich-1.2.5`, `mpich4`, `openmpi4`) and their choice by message size and process
 * count. */
#ifndef PZ_COLL_H
#define PZ_COLL_H

#include <stddef.h>

/* enum pz_coll_op, generated from the MPI table: PZ_COLL_BARRIER ... PZ_COLL_EXSCAN, the
 * PZ_COLL_NOPS operations the algorithms below take, then PZ_COLL_ALLTOALLW, which a
 * trace records and the model predicts as PZ_COLL_ALLTOALLV. */
#include "coll_ops.h"

/* What this installed header declares is libprognoz-comsys's API: exported, while the
 * library's other functions stay hidden. */
#pragma GCC visibility push(default)

/* One collective instance as member `me` sees it.  Ranks are ranks of the communicator.
 * op is one of the PZ_COLL_NOPS operations: Alltoallw is described as Alltoallv.
 *
 * On an intercommunicator (remote_size > 0), size and me are of the member's own group
 * (the local group) and remote_size is the other group's size; a peer p of a message is
 * local rank p when p < size, else rank p - size of the remote group.  low tells whether
 * the member's group is MPICH's low group (the one whose rank 0 has the lower process
 * number), which sends first where the algorithm orders the two directions.  A rooted
 * operation's root is PZ_COLL_ROOT at the root, PZ_COLL_PROC_NULL at the other members
 * of its group, and the root's rank in the remote group at the members of the other
 * group.  The counts arrays have one entry per rank of the remote group.  Scan and
 * Exscan are not defined there.  An intracommunicator has remote_size 0 (and low 0). */
struct pz_coll {
    enum pz_coll_op op;
    int size;                    /* members of the communicator */
    int me;                      /* this member */
    int root;                    /* rooted operations; ignored by the others */
    double bytes;                /* n: one process's block (count x type size) */
    /* Per-rank bytes where they differ (else NULL), size entries each:
     * send_counts: what me sends to each rank (Alltoallv; Scatterv at the root);
     * recv_counts: what me receives from each rank (Alltoallv, Gatherv at the root),
     *   or the block of each rank (Allgatherv; Reduce_scatter: the block each receives). */
    const double *send_counts, *recv_counts;
    int remote_size;             /* intercommunicators only, else 0 */
    int low;
};

/* Roots of an intercommunicator's rooted operations (struct pz_coll.root). */
#define PZ_COLL_ROOT (-1)        /* this member is the root (MPI_ROOT) */
#define PZ_COLL_PROC_NULL (-2)   /* another member of the root's group (MPI_PROC_NULL) */

/* Where an algorithm puts one round of a member. */
struct pz_coll_round {
    /* Called once per message of the round: to (is_send) or from peer, bytes. */
    void (*message)(void *ud, int peer, int is_send, double bytes);
    void *ud;
    double reduce_bytes;         /* set by the algorithm: bytes combined after the round */
    /* Called, when not NULL, before the round's messages with the bytes of the member's
     * own block that MPI copies from its send buffer to its receive buffer first. */
    void (*copy)(void *ud, double bytes);
};

struct pz_coll_algo {
    const char *name;            /* as --coll names it: "binomial", "bruck", "ring" ... */
    enum pz_coll_op op;
    /* Emits round `round` (0, 1, ...) of member c->me into out and returns 1, or returns
     * 0 when the member's part is complete (so 0 messages in a round that exists is
     * a round that still returns 1). */
    int (*round)(const struct pz_coll *c, int round, struct pz_coll_round *out);
    int copies;                  /* some round begins with a local copy (out->copy) */
};

/* The algorithm of set mpi ("mpich1", "mpich-1.2.5", "mpich4", "openmpi4") for
 * instance c, as that MPICH, or Open MPI 4.1's coll/tuned, chooses it by size and
 * process count; NULL if mpi names no set.  All members of one instance get the same
 * algorithm.  On an intercommunicator every set has MPICH 4's algorithm for it (MPICH 1
 * had no collectives there; for Open MPI an approximation), whose local parts are MPICH
 * 4's choice on the local group; these algorithms are not listed by pz_coll_named
 * and pz_coll_algorithm, which name those of intracommunicators. */
const struct pz_coll_algo *pz_coll_choose(const char *mpi, const struct pz_coll *c);

/* The algorithm named name for op ("allgather", "bruck"), NULL if there is none. */
const struct pz_coll_algo *pz_coll_named(enum pz_coll_op op, const char *name);

/* The i-th algorithm of op (i = 0, 1, ...), NULL past the last: every algorithm the
 * model has for op, in no particular order. */
const struct pz_coll_algo *pz_coll_algorithm(enum pz_coll_op op, size_t i);

/* The operation named name ("allgather"), -1 if none. */
int pz_coll_op_named(const char *name);

/* n, one process's block, from the bytes member me sent and received in an instance of
 * op (the table of docs/trace-format.md, "Bytes of collectives"). */
double pz_coll_block(enum pz_coll_op op, int size, int root, int me, double sent,
                     double received);

/* n of an intercommunicator instance from the bytes member recorded, root as in struct
 * pz_coll (the table of docs/trace-format.md with P the remote group's size); 0 for a
 * member of the root's group that is not the root. */
double pz_coll_inter_block(enum pz_coll_op op, int remote_size, int root, double sent,
                           double received);

#pragma GCC visibility pop

#endif
