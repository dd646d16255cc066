/* Insufficient parallelism: a sequential interval is a computation that each of the k
 * processes executing it duplicates, where one process's copy would do.  Of the CPU
 * time a process spends inside it, the share (k - 1) / k is lost: over the k processes
 * exactly k - 1 copies.  Intervals nested in a sequential one are sequential code too,
 * with the k of the outermost; the intervals around it lose what it loses. */
#include <stdlib.h>

#include "reader.h"

static int processors(const struct pz_analysis *a, const struct pz_node *n)
{
    int k = 0;

    for (int p = 0; p < a->nprocs; p++)
        k += n->procs[p].count > 0;
    return k;
}

/* owner[i]: the outermost sequential interval around node i or i itself, -1 if none;
 * parents come before their children in the array. */
static void owners(const struct pz_analysis *a, int *owner)
{
    for (int i = 0; i < a->nnodes; i++) {
        int parent = a->nodes[i].parent;

        owner[i] = parent >= 0 && owner[parent] >= 0 ? owner[parent]
                   : a->nodes[i].sequential ? i : -1;
    }
}

/* Node i lies in sequential interval s: each process loses (k - 1) / k of its CPU time
 * in i; an outermost one's loss also counts in every interval around it. */
static void charge(struct pz_analysis *a, int i, int s)
{
    int k = processors(a, &a->nodes[s]);

    for (int p = 0; p < a->nprocs; p++) {
        struct pz_stats *st = &a->nodes[i].procs[p];
        double lost;

        if (!st->count || k < 2)
            continue;
        lost = (st->exec - st->mpi) * (double)(k - 1) / (double)k;
        st->insufficient = lost;
        for (int up = i == s ? a->nodes[i].parent : -1; up >= 0; up = a->nodes[up].parent)
            a->nodes[up].procs[p].insufficient += lost;
    }
}

int pz_sequential_losses(struct pz_analysis *a)
{
    int *owner = malloc((size_t)(a->nnodes ? a->nnodes : 1) * sizeof(int));

    if (!owner)
        return -1;
    owners(a, owner);
    for (int i = 0; i < a->nnodes; i++)
        if (owner[i] >= 0)
            charge(a, i, owner[i]);
    free(owner);
    return 0;
}
