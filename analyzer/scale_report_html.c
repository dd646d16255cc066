/* The scaling report as one self-contained HTML page (no scripts, no external files):
 * what was recorded and predicted, the findings with the machines' comparison and the
 * notes, then per interval the table of every machine at every count, its computation
 * models and three SVG plots against the processes: execution time, efficiency and
 * scaling efficiency. */
#include <ctype.h>
#include <string.h>

#include "scale_notes.h"
#include "scale_report_table.h"

void pz_scale_html_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

static void head(FILE *out)
{
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>prognoz scaling report"
          "</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:"
          "collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}"
          "td.name,th.name{text-align:left}.plots svg{margin:0 1em 1em 0}"
          ".legend span{padding:0 6px}</style></head><body>\n"
          "<h1>prognoz scaling report</h1>\n", out);
}

static void summary(FILE *out, const struct pz_scale_table *t)
{
    const struct pz_scale_input *in = t->in;

    fputs("<p>Recordings:", out);
    for (size_t r = 0; r < in->nrecordings; r++) {
        fputs(r ? ", " : " ", out);
        pz_scale_html_text(out, in->recordings[r].path);
        fprintf(out, " (%d processes)", in->recordings[r].ranks);
    }
    fputs(".</p>\n<p class=\"legend\">Machines:", out);
    for (size_t m = 0; m < in->nseries; m++) {
        fprintf(out, " <span style=\"border-left:12px solid %s\">", pz_scale_plot_color(m));
        pz_scale_html_text(out, t->machines[m].machine);
        fputs("</span>", out);
    }
    fputs("; &#9632; a recorded count, &#9679; a requested one.</p>\n<p>Speedup = T(P0) / "
          "T(P), scaling efficiency = T(P0) &times; P0 / (T(P) &times; P), with P0 the "
          "smallest recorded count and T the execution time; efficiency and times as in "
          "prognoz report.</p>\n", out);
}

/* With several machines, the sentences that compare them, under the findings. */
static void comparison(FILE *out, const struct pz_scale_table *t)
{
    char sentence[4096];

    if (!t->comparison.ranks)
        return;
    fputs("<h3>Comparison</h3>\n", out);
    for (int k = 0; k < PZ_SCALE_NSAY; k++) {
        pz_scale_comparison_text(t, (enum pz_scale_comparison_sentence)k, sentence,
                                 sizeof(sentence));
        if (!sentence[0])
            continue;
        fputs("<p>", out);
        pz_scale_html_text(out, sentence);
        fputs("</p>\n", out);
    }
}

static void findings(FILE *out, const struct pz_scale_table *t)
{
    char sentence[1400];

    if (!t->nintervals)
        return;
    fputs("<h2>Findings</h2>\n", out);
    for (size_t m = 0; m < t->in->nseries; m++) {
        pz_scale_finding_sentence(t, m, sentence, sizeof(sentence));
        fputs("<p>", out);
        pz_scale_html_text(out, sentence);
        fputs("</p>\n", out);
    }
    comparison(out, t);
}

static int notes(FILE *out, const struct pz_scale_table *t)
{
    struct pz_scale_note_lines l;

    if (pz_scale_note_lines(t->in, &l) != 0)
        return -1;
    if (l.n)
        fputs("<h2>Notes</h2>\n<ul>\n", out);
    for (size_t k = 0; k < l.n; k++) {
        fputs("<li>", out);
        pz_scale_html_text(out, l.line[k]);
        fputs("</li>\n", out);
    }
    if (l.n)
        fputs("</ul>\n", out);
    pz_scale_note_lines_free(&l);
    return 0;
}

static void row(FILE *out, const char *machine, const struct pz_scale_value *v)
{
    const struct pz_characteristics *c = &v->c;

    fputs("<tr><td class=\"name\">", out);
    pz_scale_html_text(out, machine);
    fprintf(out, "</td><td>%d%s</td>", v->ranks, v->recorded ? " (recorded)" : "");
    if (!v->present) {
        fputs("<td class=\"name\" colspan=\"10\">the predicted run lacks the interval</td>"
              "</tr>\n", out);
        return;
    }
    fprintf(out, "<td>%.6f</td>", c->execution_time);
    if (v->relative)
        fprintf(out, "<td>%.3f</td><td>%.3f</td>", v->speedup, v->scaling_efficiency);
    else
        fputs("<td>-</td><td>-</td>", out);
    fprintf(out, "<td>%.3f</td><td>%.6f</td><td>%.6f</td><td>%.6f</td><td>%.6f</td>"
            "<td>%.6f</td></tr>\n", c->efficiency, c->lost_time, c->communication_time,
            c->synchronization, c->load_imbalance, c->idle_time);
}

static void table(FILE *out, const struct pz_scale_table *t, size_t i)
{
    fputs("<table><tr><th class=\"name\">machine</th><th>processes</th><th>time</th>"
          "<th>speedup</th><th>scaling efficiency</th><th>efficiency</th><th>lost</th>"
          "<th>communication</th><th>synchronization</th><th>imbalance</th><th>idle</th>"
          "</tr>\n", out);
    for (size_t m = 0; m < t->in->nseries; m++)
        for (size_t e = 0; e < t->machines[m].n; e++)
            row(out, t->machines[m].machine, pz_scale_table_value(t, i, m, e));
    fputs("</table>\n", out);
}

static void models(FILE *out, const struct pz_scale_table *t, size_t i)
{
    for (size_t f = 0; f < t->in->nformulas; f++) {
        const struct pz_scale_formula *m = &t->in->formulas[f];

        if (strcmp(m->interval, t->intervals[i].region))
            continue;
        fputs("<p>Computation model (s per process), ", out);
        pz_scale_html_text(out, m->class_name);
        fputs(": <code>", out);
        pz_scale_html_text(out, m->formula);
        fprintf(out, "</code> (error %.1f%%)</p>\n", m->error);
    }
}

static void interval(FILE *out, const struct pz_scale_table *t, size_t i)
{
    char label[600];

    pz_scale_interval_label(t, i, label, sizeof(label));
    label[0] = (char)toupper((unsigned char)label[0]);
    fputs("<h2>", out);
    pz_scale_html_text(out, label);
    fputs("</h2>\n", out);
    table(out, t, i);
    models(out, t, i);
    fputs("<div class=\"plots\">\n", out);
    pz_scale_plot(out, t, i, PZ_SCALE_PLOT_TIME);
    pz_scale_plot(out, t, i, PZ_SCALE_PLOT_EFFICIENCY);
    pz_scale_plot(out, t, i, PZ_SCALE_PLOT_SCALING);
    fputs("</div>\n", out);
}

int pz_scale_report_html(FILE *out, const struct pz_scale_table *t)
{
    head(out);
    summary(out, t);
    findings(out, t);
    if (notes(out, t) != 0)
        return -1;
    for (size_t i = 0; i < t->nintervals; i++)
        interval(out, t, i);
    fputs("</body></html>\n", out);
    return ferror(out) ? -1 : 0;
}
