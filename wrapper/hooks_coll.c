/* What the inline hook of collective calls (hooks_coll.h) leaves out of line: the
 * per-peer byte lists. */
#include "hooks_coll.h"
#include "vcounts.h"

void pz_coll_count_lists(const struct pz_coll_args *a, int is_root, uint32_t *send,
                         uint32_t *recv)
{
    struct pz_counts scounts = a->in_place ? a->rcounts : a->scounts;
    MPI_Datatype stype = a->in_place ? a->rtype : a->stype;
    const MPI_Datatype *stypes = a->in_place ? a->rtypes : a->stypes;
    int rooted = a->op == PZ_COLL_GATHERV || a->op == PZ_COLL_SCATTERV;

    *send = *recv = PZ_NO_COUNTS;
    if (rooted && !is_root)
        return;
    if (a->op == PZ_COLL_REDUCE_SCATTER)
        *recv = pz_vcounts_intern(a->rcounts, a->stype, NULL, a->size);
    else if (a->op != PZ_COLL_SCATTERV)
        *recv = pz_vcounts_intern(a->rcounts, a->rtype, a->rtypes, a->size);
    if (a->op == PZ_COLL_ALLTOALLV || a->op == PZ_COLL_ALLTOALLW || a->op == PZ_COLL_SCATTERV)
        *send = pz_vcounts_intern(scounts, stype, stypes, a->size);
}

