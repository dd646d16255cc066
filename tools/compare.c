/* The recorded run and its predictions side by side. */
#include <stdlib.h>
#include <string.h>

#include "predict.h"

/* The rows of the comparison, by their offset in struct pz_characteristics. */
static const struct row {
    const char *label, *key;
    size_t field;
} rows[] = {
    { "Execution time (s)", "execution_time", offsetof(struct pz_characteristics, execution_time) },
    { "Efficiency", "efficiency", offsetof(struct pz_characteristics, efficiency) },
    { "Lost time (s)", "lost_time", offsetof(struct pz_characteristics, lost_time) },
    { "Communication (s)", "communication_time",
      offsetof(struct pz_characteristics, communication_time) },
    { "Synchronization (s)", "synchronization",
      offsetof(struct pz_characteristics, synchronization) },
    { "Idle time (s)", "idle_time", offsetof(struct pz_characteristics, idle_time) },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static double value(const struct pz_characteristics *c, const struct row *r)
{
    double v;

    memcpy(&v, (const char *)c + r->field, sizeof(v));
    return v;
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

static void characteristics(const struct pz_analysis *a, const struct pz_node *n,
                            struct pz_characteristics *c)
{
    const struct pz_node *m = same_interval(a, n);

    memset(c, 0, sizeof(*c));
    if (m)
        pz_characteristics_of(a, m, c);
}

static void text_interval(FILE *out, const struct pz_analysis *recorded,
                          const struct pz_analysis *predicted, const struct pz_machine *machines,
                          int n, const struct pz_node *node)
{
    struct pz_characteristics c[1 + n];

    if (node->parent < 0)
        fprintf(out, "Interval (whole run)\n");
    else
        fprintf(out, "Interval %u at %s:%u (level %d)\n", node->id, node->file, node->line,
                node->level);
    fprintf(out, "%-22s %16s", "", "recorded");
    for (int i = 0; i < n; i++)
        fprintf(out, " %16.16s", machines[i].name);
    fputc('\n', out);
    pz_characteristics_of(recorded, node, &c[0]);
    for (int i = 0; i < n; i++)
        characteristics(&predicted[i], node, &c[1 + i]);
    for (size_t r = 0; r < NROWS; r++) {
        fprintf(out, "%-22s", rows[r].label);
        for (int i = 0; i <= n; i++)
            fprintf(out, " %16.6f", value(&c[i], &rows[r]));
        fputc('\n', out);
    }
    fputc('\n', out);
}

static void json_values(FILE *out, const struct pz_characteristics *c)
{
    fputc('{', out);
    for (size_t r = 0; r < NROWS; r++)
        fprintf(out, "%s\"%s\": %.9g", r ? ", " : "", rows[r].key, value(c, &rows[r]));
    fputc('}', out);
}

static void json_interval(FILE *out, const struct pz_analysis *recorded,
                          const struct pz_analysis *predicted, int n, const struct pz_node *node)
{
    struct pz_characteristics c;

    fputs("{\"file\": ", out);
    pz_json_string(out, node->file);
    fprintf(out, ", \"line\": %u, \"id\": %u, \"level\": %d, \"recorded\": ", node->line,
            node->id, node->level);
    pz_characteristics_of(recorded, node, &c);
    json_values(out, &c);
    fputs(", \"predicted\": [", out);
    for (int i = 0; i < n; i++) {
        fputs(i ? ", " : "", out);
        characteristics(&predicted[i], node, &c);
        json_values(out, &c);
    }
    fputs("]}", out);
}

static int json_compare(FILE *out, const struct pz_analysis *recorded,
                        const struct pz_analysis *predicted, const struct pz_machine *machines,
                        int n, const int *order)
{
    fputs("{\"machines\": [", out);
    for (int i = 0; i < n; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        if (pz_machine_write_json(out, &machines[i]) != 0)
            return -1;
    }
    fputs("],\n\"intervals\": [", out);
    for (int i = 0; i < recorded->nnodes; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        json_interval(out, recorded, predicted, n, &recorded->nodes[order[i]]);
    }
    fputs("\n]}\n", out);
    return 0;
}

int pz_compare_write(FILE *out, enum pz_report_format format, const struct pz_analysis *recorded,
                     const struct pz_analysis *predicted, const struct pz_machine *machines,
                     int n)
{
    int *order = malloc((size_t)recorded->nnodes * sizeof(int));
    int rc = 0;

    if (!order)
        return -1;
    pz_report_order(recorded, order);
    if (format == PZ_REPORT_JSON) {
        rc = json_compare(out, recorded, predicted, machines, n, order);
    } else {
        for (int i = 0; i < n; i++)
            pz_machine_summary(out, &machines[i]);
        fputc('\n', out);
        for (int i = 0; i < recorded->nnodes; i++)
            text_interval(out, recorded, predicted, machines, n, &recorded->nodes[order[i]]);
    }
    free(order);
    return rc != 0 || ferror(out) ? -1 : 0;
}
