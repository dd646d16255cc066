/* The comparison of predicted runs with the recording: per interval of the recording,
 * a row per field of fields.h that has a row in the comparison, a column for the
 * recording and one per predicted run (docs/report.md). */
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "report.h"

/* The rows of the comparison, in order, from the table of fields. */
static void rows_of(const struct pz_field *rows[PZ_NPREDICTED])
{
    for (size_t f = 0; f < PZ_NFIELDS; f++)
        if (pz_fields[f].predicted)
            rows[pz_fields[f].predicted_row] = &pz_fields[f];
}

/* The interval of a that is node n of the recorded run: same file, line, id and level
 * (a prediction keeps the recording's intervals); NULL if a lacks it. */
static const struct pz_node *same_interval(const struct pz_analysis *a, const struct pz_node *n)
{
    for (int i = 0; i < a->nnodes; i++) {
        const struct pz_node *m = &a->nodes[i];

        if (m->level == n->level && m->line == n->line && m->id == n->id &&
            !strcmp(m->file, n->file))
            return m;
    }
    return NULL;
}

/* The characteristics of node n of the recording in the predicted run a; zeros if a
 * lacks the interval. */
static void characteristics(const struct pz_analysis *a, const struct pz_node *n,
                            struct pz_characteristics *c)
{
    const struct pz_node *m = same_interval(a, n);

    memset(c, 0, sizeof(*c));
    if (m)
        pz_characteristics_of(a, m, c);
}

static void text_interval(FILE *out, const struct pz_analysis *recorded,
                          const struct pz_compared *predicted, int n,
                          const struct pz_node *node)
{
    const struct pz_field *rows[PZ_NPREDICTED];
    struct pz_characteristics c[1 + n];

    rows_of(rows);
    if (node->parent < 0)
        fprintf(out, "Interval (whole run)\n");
    else
        fprintf(out, "Interval %u at %s:%u (level %d)\n", node->id, node->file, node->line,
                node->level);
    fprintf(out, "%-22s %16s", "", "recorded");
    for (int i = 0; i < n; i++)
        fprintf(out, " %16.16s", predicted[i].name);
    fputc('\n', out);
    pz_characteristics_of(recorded, node, &c[0]);
    for (int i = 0; i < n; i++)
        characteristics(predicted[i].analysis, node, &c[1 + i]);
    for (int r = 0; r < PZ_NPREDICTED; r++) {
        fprintf(out, "%-22s", rows[r]->predicted);
        for (int i = 0; i <= n; i++)
            fprintf(out, " %16.6f", pz_field_value(&c[i], rows[r]->offset));
        fputc('\n', out);
    }
    fputc('\n', out);
}

int pz_report_compare(FILE *out, const struct pz_analysis *recorded,
                      const struct pz_compared *predicted, int n,
                      pz_report_describe *describe)
{
    int *order = malloc((size_t)recorded->nnodes * sizeof(int));

    if (!order)
        return -1;
    pz_report_order(recorded, order);
    for (int i = 0; i < n; i++)
        describe(out, PZ_REPORT_TEXT, predicted[i].about);
    fputc('\n', out);
    for (int i = 0; i < recorded->nnodes; i++)
        text_interval(out, recorded, predicted, n, &recorded->nodes[order[i]]);
    free(order);
    return ferror(out) ? -1 : 0;
}
