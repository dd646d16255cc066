/* Bytes of collective operations by their definitions. */
#include "coll_bytes.h"
#include "hooks.h"

/* Sum over peers other than the process itself of counts[i] elements of type. */
static uint64_t sum_others(const struct pz_coll_args *a, const int *counts, MPI_Datatype type,
                           const MPI_Datatype *types)
{
    uint64_t sum = 0;

    if (!counts)
        return 0;
    for (int i = 0; i < a->size; i++)
        if (a->inter || i != a->rank)
            sum += pz_bytes(counts[i], types ? types[i] : type);
    return sum;
}

static uint64_t others(const struct pz_coll_args *a)
{
    return (uint64_t)(a->inter ? a->size : a->size - 1);
}

void pz_coll_rooted_bytes(const struct pz_coll_args *a, int is_root, int in_group,
                          uint64_t *sent, uint64_t *received)
{
    switch (a->op) {
    case PZ_COLL_BCAST:
        *sent = is_root ? others(a) * a->s : 0;
        *received = in_group && !is_root ? a->s : 0;
        break;
    case PZ_COLL_GATHER:
        *sent = in_group && !is_root ? a->s : 0;
        *received = is_root ? others(a) * a->r : 0;
        break;
    case PZ_COLL_GATHERV:
        *sent = in_group && !is_root ? a->s : 0;
        *received = is_root ? sum_others(a, a->rcounts, a->rtype, NULL) : 0;
        break;
    case PZ_COLL_SCATTER:
        *sent = is_root ? others(a) * a->s : 0;
        *received = in_group && !is_root ? a->r : 0;
        break;
    case PZ_COLL_SCATTERV:
        *sent = is_root ? sum_others(a, a->scounts, a->stype, NULL) : 0;
        *received = in_group && !is_root ? a->r : 0;
        break;
    default: /* reduce */
        *sent = in_group && !is_root ? a->s : 0;
        *received = is_root ? others(a) * a->s : 0;
        break;
    }
}

void pz_coll_bytes(const struct pz_coll_args *a, uint64_t *sent, uint64_t *received)
{
    uint64_t mine = a->rcounts && !a->inter ? pz_bytes(a->rcounts[a->rank], a->stype) : 0;

    switch (a->op) {
    case PZ_COLL_ALLGATHER:
    case PZ_COLL_ALLTOALL:
        *sent = others(a) * (a->in_place ? a->r : a->s);
        *received = others(a) * a->r;
        break;
    case PZ_COLL_ALLGATHERV:
        *sent = others(a) * (a->in_place && !a->inter && a->rcounts
                                 ? pz_bytes(a->rcounts[a->rank], a->rtype) : a->s);
        *received = sum_others(a, a->rcounts, a->rtype, NULL);
        break;
    case PZ_COLL_ALLTOALLV:
    case PZ_COLL_ALLTOALLW:
        *sent = sum_others(a, a->in_place ? a->rcounts : a->scounts,
                           a->in_place ? a->rtype : a->stype, a->in_place ? a->rtypes : a->stypes);
        *received = sum_others(a, a->rcounts, a->rtype, a->rtypes);
        break;
    case PZ_COLL_REDUCE_SCATTER:
        *sent = sum_others(a, a->rcounts, a->stype, NULL);
        *received = others(a) * mine;
        break;
    case PZ_COLL_REDUCE_SCATTER_BLOCK:
        *sent = *received = others(a) * a->r;
        break;
    case PZ_COLL_SCAN:
    case PZ_COLL_EXSCAN:
        *sent = a->rank < a->size - 1 ? a->s : 0;
        *received = a->rank > 0 ? a->s : 0;
        break;
    case PZ_COLL_ALLREDUCE:
        *sent = *received = a->size > 1 ? a->s : 0;
        break;
    default: /* barrier */
        *sent = *received = 0;
        break;
    }
}
