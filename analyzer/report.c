/* What both report formats share: the order of intervals and the comparative spreads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int pz_report_rank(const struct pz_analysis *a, int p)
{
    return p < 0 ? -1 : a->rank_of ? a->rank_of[p] : p;
}

int pz_report_thread(const struct pz_analysis *a, int p)
{
    return p < 0 ? -1 : a->thread_of ? a->thread_of[p] : 0;
}

struct pz_label pz_report_label(const struct pz_analysis *a, int p)
{
    struct pz_label l;

    if (a->threaded && p >= 0)
        snprintf(l.text, sizeof(l.text), "%d.%d", pz_report_rank(a, p), pz_report_thread(a, p));
    else
        snprintf(l.text, sizeof(l.text), "%d", pz_report_rank(a, p));
    return l;
}

struct pz_spread pz_report_spread(const struct pz_analysis *a, const struct pz_node *n,
                                  size_t field)
{
    struct pz_spread s = { 0, 0, 0, -1, -1 };
    int count = 0;

    for (int p = 0; p < a->nprocs; p++) {
        struct pz_characteristics c;
        double v;

        pz_characteristics_of_process(a, n, p, &c);
        if (!c.exe_count)
            continue;
        memcpy(&v, (const char *)&c + field, sizeof(v));
        if (s.min_proc < 0 || v < s.min) {
            s.min = v;
            s.min_proc = p;
        }
        if (s.max_proc < 0 || v > s.max) {
            s.max = v;
            s.max_proc = p;
        }
        s.mean += v;
        count++;
    }
    if (count)
        s.mean /= count;
    return s;
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
