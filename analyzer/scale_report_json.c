/* The scaling report as JSON: one object, keys documented in docs/predict.md ("Scaling:
 * the report"); times in seconds, undefined ratios null. */
#include <string.h>

#include "json.h"
#include "scale_report_table.h"

static void recordings(FILE *out, const struct pz_scale_table *t)
{
    fputs("\"recordings\": [", out);
    for (size_t r = 0; r < t->in->nrecordings; r++) {
        fputs(r ? ", {\"path\": " : "{\"path\": ", out);
        pz_json_string(out, t->in->recordings[r].path);
        fprintf(out, ", \"ranks\": %d}", t->in->recordings[r].ranks);
    }
    fputs("],\n\"machines\": [", out);
    for (size_t m = 0; m < t->in->nseries; m++) {
        const struct pz_scale_machine *s = &t->machines[m];

        fputs(m ? ", {\"name\": " : "{\"name\": ", out);
        pz_json_string(out, s->machine);
        fprintf(out, ", \"base_ranks\": %d}", s->entries[s->base].ranks);
    }
    fputs("]", out);
}

static void ratio(FILE *out, const char *key, int defined, double value)
{
    if (defined)
        fprintf(out, ", \"%s\": %.9g", key, value);
    else
        fprintf(out, ", \"%s\": null", key);
}

static void entry(FILE *out, const struct pz_scale_value *v)
{
    const struct pz_characteristics *c = &v->c;

    fprintf(out, "{\"ranks\": %d, \"recorded\": %s, \"execution_time\": %.9g", v->ranks,
            v->recorded ? "true" : "false", c->execution_time);
    ratio(out, "speedup", v->relative, v->speedup);
    ratio(out, "scaling_efficiency", v->relative, v->scaling_efficiency);
    fprintf(out, ", \"efficiency\": %.9g, \"lost_time\": %.9g, \"communication_time\": %.9g, "
            "\"synchronization\": %.9g, \"load_imbalance\": %.9g, \"idle_time\": %.9g, "
            "\"insufficient_parallelism\": %.9g, \"mpi_time\": %.9g}", c->efficiency,
            c->lost_time, c->communication_time, c->synchronization, c->load_imbalance,
            c->idle_time, c->insufficient_parallelism, c->mpi_time);
}

static void machines(FILE *out, const struct pz_scale_table *t, size_t i)
{
    fputs(", \"machines\": [", out);
    for (size_t m = 0; m < t->in->nseries; m++) {
        int first = 1;

        fputs(m ? ",\n    {\"machine\": " : "\n    {\"machine\": ", out);
        pz_json_string(out, t->machines[m].machine);
        fputs(", \"entries\": [", out);
        for (size_t e = 0; e < t->machines[m].n; e++) {
            const struct pz_scale_value *v = pz_scale_table_value(t, i, m, e);

            if (!v->present)
                continue;
            fputs(first ? "" : ", ", out);
            entry(out, v);
            first = 0;
        }
        fputs("]}", out);
    }
    fputs("]", out);
}

static void compute(FILE *out, const struct pz_scale_table *t, size_t i)
{
    int first = 1;

    fputs(", \"compute\": [", out);
    for (size_t f = 0; f < t->in->nformulas; f++) {
        const struct pz_scale_formula *m = &t->in->formulas[f];

        if (strcmp(m->interval, t->intervals[i].region))
            continue;
        fputs(first ? "{\"class\": " : ", {\"class\": ", out);
        pz_json_string(out, m->class_name);
        fputs(", \"formula\": ", out);
        pz_json_string(out, m->formula);
        fprintf(out, ", \"error\": %.9g}", m->error);
        first = 0;
    }
    fputs("]", out);
}

static void interval(FILE *out, const struct pz_scale_table *t, size_t i)
{
    const struct pz_node *n = t->intervals[i].node;

    fprintf(out, "{\"id\": %u, \"file\": ", n->id);
    pz_json_string(out, n->file);
    fprintf(out, ", \"line\": %u, \"level\": %d, \"sequential\": %s, \"region\": ", n->line,
            n->level, n->sequential ? "true" : "false");
    pz_json_string(out, t->intervals[i].region);
    machines(out, t, i);
    compute(out, t, i);
    fputs("}", out);
}

static void finding(FILE *out, const struct pz_scale_table *t, size_t m)
{
    const struct pz_scale_finding *f = &t->findings[m];
    const struct pz_scale_value *v =
        pz_scale_table_value(t, f->interval < 0 ? 0 : (size_t)f->interval, m, f->entry);
    char sentence[1400];

    fputs("{\"machine\": ", out);
    pz_json_string(out, t->machines[m].machine);
    if (f->interval < 0)
        fputs(", \"interval\": null", out);
    else
        fprintf(out, ", \"interval\": %d", f->interval);
    fprintf(out, ", \"ranks\": %d", v->ranks);
    ratio(out, "scaling_efficiency", v->relative, v->scaling_efficiency);
    fprintf(out, ", \"cause\": \"%s\", \"cause_time\": %.9g, \"text\": ",
            pz_scale_cause_key(f->cause), f->cause_time);
    pz_scale_finding_sentence(t, m, sentence, sizeof(sentence));
    pz_json_string(out, sentence);
    fputs("}", out);
}

/* Each machine at the comparison's count: its whole run's time and ratio to the fastest,
 * the largest count up to which it keeps the whole run scaling, its processes per node. */
static void compared_machines(FILE *out, const struct pz_scale_table *t)
{
    double best = pz_scale_whole_time(t, t->comparison.fastest);

    fputs("\"machines\": [", out);
    for (size_t m = 0; m < t->in->nseries; m++) {
        double time = pz_scale_whole_time(t, m);

        fputs(m ? ",\n    {\"machine\": " : "\n    {\"machine\": ", out);
        pz_json_string(out, t->machines[m].machine);
        fprintf(out, ", \"execution_time\": %.9g", time);
        ratio(out, "time_ratio", best > 0, time / (best > 0 ? best : 1));
        fprintf(out, ", \"keeps_ranks\": %d", pz_scale_keeps_up_to(t, m));
        if (t->in->procs_per_node)
            fprintf(out, ", \"procs_per_node\": %d}", t->in->procs_per_node[m]);
        else
            fputs(", \"procs_per_node\": null}", out);
    }
    fputs("]", out);
}

/* The interval that stops scaling first on the slowest, on every other machine. */
static void slowest_stop(FILE *out, const struct pz_scale_table *t)
{
    const struct pz_scale_comparison *c = &t->comparison;
    const struct pz_scale_finding *f = &t->findings[c->slowest];
    int ranks = t->machines[c->slowest].entries[f->entry].ranks, first = 1;

    if (f->interval < 0) {
        fputs(", \"slowest_stop\": null", out);
        return;
    }
    fprintf(out, ",\n  \"slowest_stop\": {\"interval\": %d, \"ranks\": %d, \"cause\": \"%s\", "
            "\"remedy\": \"%s\", \"machines\": [", f->interval, ranks,
            pz_scale_cause_key(f->cause), pz_scale_remedy_key(c->remedy));
    for (size_t m = 0; m < t->in->nseries; m++) {
        const struct pz_scale_value *v = pz_scale_value_at(t, (size_t)f->interval, m, ranks);

        if (m == c->slowest)
            continue;
        fputs(first ? "{\"machine\": " : ", {\"machine\": ", out);
        pz_json_string(out, t->machines[m].machine);
        first = 0;
        if (!v) {
            fputs(", \"execution_time\": null, \"scaling_efficiency\": null, \"fixes\": false}",
                  out);
            continue;
        }
        fprintf(out, ", \"execution_time\": %.9g", v->c.execution_time);
        ratio(out, "scaling_efficiency", v->relative, v->scaling_efficiency);
        fprintf(out, ", \"fixes\": %s}",
                pz_scale_fixes(t, (size_t)f->interval, m, ranks) ? "true" : "false");
    }
    fputs("]}", out);
}

/* With several machines, their comparison; nothing with one. */
static void comparison(FILE *out, const struct pz_scale_table *t)
{
    const struct pz_scale_comparison *c = &t->comparison;
    char sentence[4096];
    int first = 1;

    if (!c->ranks)
        return;
    fprintf(out, "\"comparison\": {\"ranks\": %d, \"fastest\": ", c->ranks);
    pz_json_string(out, t->machines[c->fastest].machine);
    fputs(", \"slowest\": ", out);
    pz_json_string(out, t->machines[c->slowest].machine);
    fputs(",\n  ", out);
    compared_machines(out, t);
    slowest_stop(out, t);
    fputs(",\n  \"text\": [", out);
    for (int k = 0; k < PZ_SCALE_NSAY; k++) {
        pz_scale_comparison_text(t, (enum pz_scale_comparison_sentence)k, sentence,
                                 sizeof(sentence));
        if (!sentence[0])
            continue;
        fputs(first ? "" : ", ", out);
        pz_json_string(out, sentence);
        first = 0;
    }
    fputs("]},\n", out);
}

int pz_scale_report_json(FILE *out, const struct pz_scale_table *t)
{
    fputc('{', out);
    pz_json_format(out, "prognoz-scale");
    recordings(out, t);
    fputs(",\n\"intervals\": [", out);
    for (size_t i = 0; i < t->nintervals; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        interval(out, t, i);
    }
    fputs("\n],\n\"findings\": [", out);
    for (size_t m = 0; t->nintervals && m < t->in->nseries; m++) {
        fputs(m ? ",\n  " : "\n  ", out);
        finding(out, t, m);
    }
    fputs("],\n", out);
    comparison(out, t);
    fputs("\"notes\": [", out);
    for (size_t k = 0; k < t->in->nnotes; k++) {
        fputs(k ? ", " : "", out);
        pz_json_string(out, t->in->notes[k]);
    }
    fputs("]}\n", out);
    return ferror(out) ? -1 : 0;
}
