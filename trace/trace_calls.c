/* The MPI calls of a thread's record stream. */
#include <otf2/otf2.h>
#include <stdlib.h>

#include "trace_calls.h"

size_t pz_call_length(struct pz_trace_in *t, int th, uint32_t region)
{
    const struct pz_rec *r;
    size_t i;

    for (i = 1; (r = pz_trace_in_peek(t, th, i)); i++)
        if (r->kind == PZ_REC_LEAVE && r->region == region)
            return i + 1;
    return i;
}

const struct pz_rec *pz_call_completion(struct pz_trace_in *t, int th, size_t from,
                                        uint64_t id, enum pz_rec_kind a, enum pz_rec_kind b)
{
    const struct pz_rec *r;

    for (size_t i = from; (r = pz_trace_in_peek(t, th, i)); i++)
        if ((r->kind == a || r->kind == b) && r->request == id)
            return r;
    return NULL;
}

int pz_call_process(const struct pz_trace_in *t, int p, uint32_t comm, uint32_t rank)
{
    return pz_comm_process(pz_trace_in_comm_def(t, comm), rank, p);
}

int pz_call_coll_op(uint8_t otf2_op, enum pz_coll_op *out)
{
    /* one more than the operation, so that 0 marks the ones that are not collectives */
    static const unsigned char map[] = {
        [OTF2_COLLECTIVE_OP_BARRIER] = PZ_COLL_BARRIER + 1,
        [OTF2_COLLECTIVE_OP_BCAST] = PZ_COLL_BCAST + 1,
        [OTF2_COLLECTIVE_OP_GATHER] = PZ_COLL_GATHER + 1,
        [OTF2_COLLECTIVE_OP_GATHERV] = PZ_COLL_GATHERV + 1,
        [OTF2_COLLECTIVE_OP_SCATTER] = PZ_COLL_SCATTER + 1,
        [OTF2_COLLECTIVE_OP_SCATTERV] = PZ_COLL_SCATTERV + 1,
        [OTF2_COLLECTIVE_OP_ALLGATHER] = PZ_COLL_ALLGATHER + 1,
        [OTF2_COLLECTIVE_OP_ALLGATHERV] = PZ_COLL_ALLGATHERV + 1,
        [OTF2_COLLECTIVE_OP_ALLTOALL] = PZ_COLL_ALLTOALL + 1,
        [OTF2_COLLECTIVE_OP_ALLTOALLV] = PZ_COLL_ALLTOALLV + 1,
        [OTF2_COLLECTIVE_OP_ALLTOALLW] = PZ_COLL_ALLTOALLV + 1,
        [OTF2_COLLECTIVE_OP_ALLREDUCE] = PZ_COLL_ALLREDUCE + 1,
        [OTF2_COLLECTIVE_OP_REDUCE] = PZ_COLL_REDUCE + 1,
        [OTF2_COLLECTIVE_OP_REDUCE_SCATTER] = PZ_COLL_REDUCE_SCATTER + 1,
        [OTF2_COLLECTIVE_OP_SCAN] = PZ_COLL_SCAN + 1,
        [OTF2_COLLECTIVE_OP_EXSCAN] = PZ_COLL_EXSCAN + 1,
        [OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK] = PZ_COLL_REDUCE_SCATTER_BLOCK + 1,
    };

    if (otf2_op >= sizeof(map) || !map[otf2_op])
        return -1;
    *out = (enum pz_coll_op)(map[otf2_op] - 1);
    return 0;
}

int pz_call_counts(const char *s, double *v, int size)
{
    for (int i = 0; i < size; i++) {
        char *end;

        if (!s)
            return -1;
        v[i] = strtod(s, &end);
        if (end == s || (*end != ',' && *end != '\0') || (*end == '\0' && i + 1 < size))
            return -1;
        s = *end ? end + 1 : NULL;
    }
    return 0;
}
