/* What every report format shares: the order of intervals, the choice of the format. */
#include <stdio.h>

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

int pz_report_write(FILE *out, const struct pz_analysis *a, enum pz_report_format format,
                    int per_process)
{
    switch (format) {
    case PZ_REPORT_JSON:
        return pz_report_json(out, a, per_process);
    case PZ_REPORT_HTML:
        return pz_report_html(out, a, per_process);
    default:
        return pz_report_text(out, a, per_process);
    }
}
