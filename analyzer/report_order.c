/* The order every report lists the intervals in. */
#include "report.h"

static void visit(const struct pz_analysis *a, int node, int *order, int *n)
{
    order[(*n)++] = node;
    for (int i = node + 1; i < a->nnodes; i++)
        if (a->nodes[i].parent == node)
            visit(a, i, order, n);
}

void pz_report_order(const struct pz_analysis *a, int *order)
{
    int n = 0;

    if (a->nnodes > 0)
        visit(a, 0, order, &n);
}
