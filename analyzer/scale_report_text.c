/* The scaling report as text: what was recorded and predicted, then per interval a
 * table of every machine at every count with its computation models, the findings, the
 * machines' comparison and the model's notes. */
#include <string.h>

#include "scale_notes.h"
#include "scale_report_table.h"

static void recordings(FILE *out, const struct pz_scale_table *t)
{
    const struct pz_scale_input *in = t->in;

    fprintf(out, "Scaling of %zu recording%s:", in->nrecordings, in->nrecordings == 1 ? "" : "s");
    for (size_t r = 0; r < in->nrecordings; r++)
        fprintf(out, "%s %s (%d processes)", r ? "," : "", in->recordings[r].path,
                in->recordings[r].ranks);
    fprintf(out, "\nPredicted on %zu machine%s:", in->nseries, in->nseries == 1 ? "" : "s");
    for (size_t m = 0; m < in->nseries; m++)
        fprintf(out, "%s %s", m ? "," : "", t->machines[m].machine);
    fputs("\nSpeedup = T(P0) / T(P), scaling efficiency = T(P0) * P0 / (T(P) * P), with P0 the "
          "smallest recorded count and T the execution time; * marks a recorded count; "
          "efficiency and times as in prognoz report.\n", out);
}

static void header(FILE *out)
{
    fprintf(out, "%-16s %10s %12s %8s %9s %8s %12s %12s %12s %12s %12s\n", "machine",
            "processes", "time (s)", "speedup", "scal.eff.", "effic.", "lost (s)", "comm. (s)",
            "sync. (s)", "imbal. (s)", "idle (s)");
}

static void row(FILE *out, const char *machine, const struct pz_scale_value *v)
{
    const struct pz_characteristics *c = &v->c;

    fprintf(out, "%-16.16s %9d%c", machine, v->ranks, v->recorded ? '*' : ' ');
    if (!v->present) {
        fputs(" (the predicted run lacks the interval)\n", out);
        return;
    }
    fprintf(out, " %12.6f", c->execution_time);
    if (v->relative)
        fprintf(out, " %8.3f %9.3f", v->speedup, v->scaling_efficiency);
    else
        fprintf(out, " %8s %9s", "-", "-");
    fprintf(out, " %8.3f %12.6f %12.6f %12.6f %12.6f %12.6f\n", c->efficiency, c->lost_time,
            c->communication_time, c->synchronization, c->load_imbalance, c->idle_time);
}

static void models(FILE *out, const struct pz_scale_table *t, size_t i)
{
    const struct pz_scale_input *in = t->in;

    for (size_t f = 0; f < in->nformulas; f++)
        if (!strcmp(in->formulas[f].interval, t->intervals[i].region))
            fprintf(out, "Computation model (s per process), %s: %s (error %.1f%%)\n",
                    in->formulas[f].class_name, in->formulas[f].formula, in->formulas[f].error);
}

static void interval(FILE *out, const struct pz_scale_table *t, size_t i)
{
    const struct pz_node *n = t->intervals[i].node;

    if (n->parent < 0)
        fputs("\nInterval (whole run)\n", out);
    else
        fprintf(out, "\nInterval %u at %s:%u (level %d)%s\n", n->id, n->file, n->line, n->level,
                n->sequential ? " Sequential" : "");
    header(out);
    for (size_t m = 0; m < t->in->nseries; m++)
        for (size_t e = 0; e < t->machines[m].n; e++)
            row(out, t->machines[m].machine, pz_scale_table_value(t, i, m, e));
    models(out, t, i);
}

static void findings(FILE *out, const struct pz_scale_table *t)
{
    char sentence[1400];

    if (!t->nintervals)
        return;
    fputs("\nFindings\n", out);
    for (size_t m = 0; m < t->in->nseries; m++) {
        pz_scale_finding_sentence(t, m, sentence, sizeof(sentence));
        fprintf(out, "%s\n", sentence);
    }
}

/* With several machines, the sentences that compare them. */
static void comparison(FILE *out, const struct pz_scale_table *t)
{
    char sentence[4096];

    if (!t->comparison.ranks)
        return;
    fputs("\nComparison\n", out);
    for (int k = 0; k < PZ_SCALE_NSAY; k++) {
        pz_scale_comparison_text(t, (enum pz_scale_comparison_sentence)k, sentence,
                                 sizeof(sentence));
        if (sentence[0])
            fprintf(out, "%s\n", sentence);
    }
}

static int notes(FILE *out, const struct pz_scale_table *t)
{
    struct pz_scale_note_lines l;

    if (pz_scale_note_lines(t->in, &l) != 0)
        return -1;
    if (l.n)
        fputs("\nNotes\n", out);
    for (size_t k = 0; k < l.n; k++)
        fprintf(out, "Note: %s\n", l.line[k]);
    pz_scale_note_lines_free(&l);
    return 0;
}

int pz_scale_report_text(FILE *out, const struct pz_scale_table *t)
{
    recordings(out, t);
    for (size_t i = 0; i < t->nintervals; i++)
        interval(out, t, i);
    findings(out, t);
    comparison(out, t);
    if (notes(out, t) != 0)
        return -1;
    return ferror(out) ? -1 : 0;
}
