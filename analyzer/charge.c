/* Where the time of waits goes (reader.h): the statistics of the intervals open, and
 * which wait a member of a collective operation has. */
#include <stddef.h>

#include "reader.h"

uint32_t pz_open_nodes(const struct reader *r, int proc, int *nodes, uint32_t max)
{
    const struct process *p = &r->procs[proc];
    uint32_t n = 0;

    for (uint32_t i = 0; i < p->depth && n < max; i++)
        if (p->stack[i].node >= 0)
            nodes[n++] = p->stack[i].node;
    return n;
}

void pz_charge(struct reader *r, int proc, const int *nodes, uint32_t n, size_t field,
               double value)
{
    struct pz_node *all = r->a->nodes;

    for (uint32_t i = 0; i <= n; i++) {
        struct pz_stats *s = &all[i == n ? 0 : nodes[i]].procs[proc];

        *(double *)((char *)s + field) += value;
    }
}

int pz_collective_nxn(OTF2_CollectiveOp op)
{
    return op == OTF2_COLLECTIVE_OP_ALLGATHER || op == OTF2_COLLECTIVE_OP_ALLGATHERV ||
           op == OTF2_COLLECTIVE_OP_ALLTOALL || op == OTF2_COLLECTIVE_OP_ALLTOALLV ||
           op == OTF2_COLLECTIVE_OP_ALLTOALLW || op == OTF2_COLLECTIVE_OP_ALLREDUCE ||
           op == OTF2_COLLECTIVE_OP_REDUCE_SCATTER ||
           op == OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK ||
           /* a constructor's agreement on the context id: an Allreduce (walk.c) */
           op == OTF2_COLLECTIVE_OP_CREATE_HANDLE;
}

int pz_collective_n_to_1(OTF2_CollectiveOp op)
{
    return op == OTF2_COLLECTIVE_OP_REDUCE || op == OTF2_COLLECTIVE_OP_GATHER ||
           op == OTF2_COLLECTIVE_OP_GATHERV;
}

int pz_collective_1_to_n(OTF2_CollectiveOp op)
{
    return op == OTF2_COLLECTIVE_OP_BCAST || op == OTF2_COLLECTIVE_OP_SCATTER ||
           op == OTF2_COLLECTIVE_OP_SCATTERV;
}

size_t pz_collective_wait(OTF2_CollectiveOp op, int at_root)
{
    if (op == OTF2_COLLECTIVE_OP_BARRIER)
        return offsetof(struct pz_stats, wait_barrier);
    if (pz_collective_nxn(op))
        return offsetof(struct pz_stats, wait_nxn);
    if (pz_collective_n_to_1(op) && at_root)
        return offsetof(struct pz_stats, early_reduce);
    if (pz_collective_1_to_n(op) && !at_root)
        return offsetof(struct pz_stats, late_broadcast);
    return 0;
}
