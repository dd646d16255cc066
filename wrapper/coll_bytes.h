/* The bytes a process sends and receives in a collective operation, counted as the data
 * that moves between different processes by the operation's definition, whatever
 * algorithm MPI uses (docs/trace-format.md gives the table).  Inline: in a collective's
 * wrapper the operation is a constant (hooks_coll.h), and its case is a few lines. */
#ifndef PZ_COLL_BYTES_H
#define PZ_COLL_BYTES_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "calls_gen.h"

struct pz_coll_args {
    enum pz_coll_op op;
    int rank, size;            /* size: of the group data goes to (remote group if inter) */
    int inter;
    int in_place;              /* the send buffer was MPI_IN_PLACE */
    uint64_t s, r;             /* one block sent / received, in bytes */
    struct pz_counts scounts, rcounts;   /* int or MPI_Count elements (bytes.h) */
    const MPI_Datatype *stypes, *rtypes;
    MPI_Datatype stype, rtype;
};

/* Sum over the size peers other than the one of rank self (-1: none) of counts[i]
 * elements of type, or of types[i] when types is not NULL; 0 if counts is
 * PZ_COUNTS_NONE.  No struct pz_coll_args: a structure whose address escapes could not
 * stay in registers. */
uint64_t pz_coll_sum(struct pz_counts counts, MPI_Datatype type, const MPI_Datatype *types,
                     int size, int self);

/* pz_coll_sum over the peers of a. */
static inline uint64_t pz_coll_sum_others(const struct pz_coll_args *a,
                                          struct pz_counts counts,
                                          MPI_Datatype type, const MPI_Datatype *types)
{
    return pz_coll_sum(counts, type, types, a->size, a->inter ? -1 : a->rank);
}

/* Number of peers other than the process itself. */
static inline uint64_t pz_coll_others(const struct pz_coll_args *a)
{
    return (uint64_t)(a->inter ? a->size : a->size - 1);
}

/* Rooted operations (bcast, gather(v), scatter(v), reduce): is_root tells whether this
 * process is the root, in_group whether it takes part (intercommunicators: a process of
 * the root's group other than the root does not). */
__attribute__((always_inline)) static inline void
pz_coll_rooted_bytes(const struct pz_coll_args *a, int is_root, int in_group, uint64_t *sent,
                     uint64_t *received)
{
    switch (a->op) {
    case PZ_COLL_BCAST:
        *sent = is_root ? pz_coll_others(a) * a->s : 0;
        *received = in_group && !is_root ? a->s : 0;
        break;
    case PZ_COLL_GATHER:
        *sent = in_group && !is_root ? a->s : 0;
        *received = is_root ? pz_coll_others(a) * a->r : 0;
        break;
    case PZ_COLL_GATHERV:
        *sent = in_group && !is_root ? a->s : 0;
        *received = is_root ? pz_coll_sum_others(a, a->rcounts, a->rtype, NULL) : 0;
        break;
    case PZ_COLL_SCATTER:
        *sent = is_root ? pz_coll_others(a) * a->s : 0;
        *received = in_group && !is_root ? a->r : 0;
        break;
    case PZ_COLL_SCATTERV:
        *sent = is_root ? pz_coll_sum_others(a, a->scounts, a->stype, NULL) : 0;
        *received = in_group && !is_root ? a->r : 0;
        break;
    default: /* reduce */
        *sent = in_group && !is_root ? a->s : 0;
        *received = is_root ? pz_coll_others(a) * a->s : 0;
        break;
    }
}

/* Operations without a root. */
__attribute__((always_inline)) static inline void
pz_coll_bytes(const struct pz_coll_args *a, uint64_t *sent, uint64_t *received)
{
    switch (a->op) {
    case PZ_COLL_ALLGATHER:
    case PZ_COLL_ALLTOALL:
        *sent = pz_coll_others(a) * (a->in_place ? a->r : a->s);
        *received = pz_coll_others(a) * a->r;
        break;
    case PZ_COLL_ALLGATHERV:
        *sent = pz_coll_others(a) * (a->in_place && !a->inter && a->rcounts.at
                                         ? pz_bytes(pz_count_at(a->rcounts, a->rank), a->rtype)
                                         : a->s);
        *received = pz_coll_sum_others(a, a->rcounts, a->rtype, NULL);
        break;
    case PZ_COLL_ALLTOALLV:
    case PZ_COLL_ALLTOALLW:
        *sent = pz_coll_sum_others(a, a->in_place ? a->rcounts : a->scounts,
                                   a->in_place ? a->rtype : a->stype,
                                   a->in_place ? a->rtypes : a->stypes);
        *received = pz_coll_sum_others(a, a->rcounts, a->rtype, a->rtypes);
        break;
    case PZ_COLL_REDUCE_SCATTER:
        *sent = pz_coll_sum_others(a, a->rcounts, a->stype, NULL);
        *received = pz_coll_others(a) * (a->rcounts.at
                                             ? pz_bytes(pz_count_at(a->rcounts, a->rank), a->stype)
                                             : 0);
        break;
    case PZ_COLL_REDUCE_SCATTER_BLOCK:
        *sent = *received = pz_coll_others(a) * a->r;
        break;
    case PZ_COLL_SCAN:
    case PZ_COLL_EXSCAN:
        *sent = a->rank < a->size - 1 ? a->s : 0;
        *received = a->rank > 0 ? a->s : 0;
        break;
    case PZ_COLL_ALLREDUCE:   /* on an intercommunicator, with the other group however small */
        *sent = *received = a->inter || a->size > 1 ? a->s : 0;
        break;
    default: /* barrier */
        *sent = *received = 0;
        break;
    }
}

#endif
