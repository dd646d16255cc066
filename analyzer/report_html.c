/* The HTML report: one self-contained page (no scripts, no external files) with the
 * intervals as an indented table, a bar per interval splitting its total time into
 * productive, insufficient parallelism, communication, other MPI and idle time, the wait states, each interval's
 * processes on request, the advice and the MPI function profile. */
#include <stdlib.h>
#include <string.h>

#include "advice.h"
#include "fields.h"
#include "report.h"

static void text(FILE *out, const char *s)
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

static void head(FILE *out, const struct pz_analysis *a)
{
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>prognoz report</title>\n"
          "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
          "td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}"
          "td.name,th.name{text-align:left}.bar{display:flex;width:240px;height:12px}"
          ".bar span{display:block;height:12px}.p{background:#4caf50}.s{background:#9c27b0}"
          ".c{background:#f44336}"
          ".m{background:#ff9800}.i{background:#9e9e9e}.legend span{padding:0 6px}"
          "</style></head><body>\n<h1>prognoz report</h1>\n", out);
    fprintf(out, "<p>%d processes", a->nranks);
    if (a->threaded)
        fprintf(out, " (%d threads)", a->nprocs);
    fprintf(out, ", %llu messages, %llu collective operations, %llu "
            "clock-condition violations.</p>\n", (unsigned long long)a->messages,
            (unsigned long long)a->collectives, (unsigned long long)a->clock_violations);
    for (int i = 0; i < a->nwarnings; i++) {
        fputs("<p><b>Warning:</b> ", out);
        text(out, a->warnings[i]);
        fputs("</p>\n", out);
    }
    fputs("<p class=\"legend\"><span class=\"p\">productive</span><span class=\"s\">"
          "insufficient parallelism</span><span class=\"c\">communication</span>"
          "<span class=\"m\">other MPI</span><span class=\"i\">idle</span>"
          "</p>\n", out);
}

static void bar(FILE *out, const struct pz_characteristics *m)
{
    double total = m->total_time > 0 ? m->total_time : 1;

    fprintf(out, "<div class=\"bar\"><span class=\"p\" style=\"width:%.1f%%\"></span>"
            "<span class=\"s\" style=\"width:%.1f%%\"></span>"
            "<span class=\"c\" style=\"width:%.1f%%\"></span><span class=\"m\" "
            "style=\"width:%.1f%%\"></span><span class=\"i\" style=\"width:%.1f%%\"></span></div>",
            100 * m->productive_time / total, 100 * m->insufficient_parallelism / total,
            100 * m->communication_time / total,
            100 * (m->mpi_time - m->communication_time) / total, 100 * m->idle_time / total);
}

/* Named by the base name of its file; the full path shows on hover. */
static void interval_name(FILE *out, const struct pz_node *n)
{
    const char *base = strrchr(n->file, '/') ? strrchr(n->file, '/') + 1 : n->file;

    fprintf(out, "<td class=\"name\" style=\"padding-left:%dem\" title=\"", 1 + 2 * n->level);
    text(out, n->file);
    fputs("\">", out);
    if (n->parent < 0) {
        fputs("whole run", out);
    } else {
        fprintf(out, "%sinterval %u at ", n->sequential ? "sequential " : "", n->id);
        text(out, base);
        fprintf(out, ":%u", n->line);
    }
    fputs("</td>", out);
}

static void intervals(FILE *out, const struct pz_analysis *a, const int *order)
{
    fputs("<h2>Intervals</h2>\n<table><tr><th class=\"name\">interval</th><th>count</th>"
          "<th>efficiency</th><th>time</th><th>lost</th><th>communication</th>"
          "<th>synchronization</th><th>idle</th><th>imbalance</th><th class=\"name\">"
          "time of the processors</th></tr>\n", out);
    for (int i = 0; i < a->nnodes; i++) {
        const struct pz_node *n = &a->nodes[order[i]];
        struct pz_characteristics m;

        pz_characteristics_of(a, n, &m);
        fputs("<tr>", out);
        interval_name(out, n);
        fprintf(out, "<td>%llu</td><td>%.3f</td><td>%.6f</td><td>%.6f</td><td>%.6f</td>"
                "<td>%.6f</td><td>%.6f</td><td>%.6f</td><td class=\"name\">",
                (unsigned long long)m.exe_count, m.efficiency, m.execution_time, m.lost_time,
                m.communication_time, m.synchronization, m.idle_time, m.load_imbalance);
        bar(out, &m);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}

static void details(FILE *out, const struct pz_analysis *a, const struct pz_node *n,
                    int with_processes)
{
    char sentences[PZ_ADVICE_MAX][PZ_ADVICE_LEN];
    int count = pz_advice(a, n, sentences);
    struct pz_characteristics m;

    pz_characteristics_of(a, n, &m);
    fputs("<h3>", out);
    if (n->parent < 0)
        fputs("Whole run", out);
    else {
        fprintf(out, "%s %u at ", n->sequential ? "Sequential interval" : "Interval", n->id);
        text(out, n->file);
        fprintf(out, ":%u", n->line);
    }
    fputs("</h3>\n<table><tr><th class=\"name\">characteristic</th><th>value</th>", out);
    if (with_processes)
        for (int p = 0; p < a->nprocs; p++)
            fprintf(out, "<th>process %s</th>", pz_process_label(a, p).text);
    fputs("</tr>\n", out);
    for (size_t f = 0; f < PZ_NFIELDS; f++) {
        fprintf(out, "<tr><td class=\"name\">%s</td><td>%.6f</td>", pz_fields[f].label,
                pz_field_value(&m, pz_fields[f].offset));
        for (int p = 0; with_processes && p < a->nprocs; p++) {
            struct pz_characteristics c;

            pz_characteristics_of_process(a, n, p, &c);
            fprintf(out, "<td>%.6f</td>", pz_field_value(&c, pz_fields[f].offset));
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
    for (int i = 0; i < count; i++) {
        fputs("<p>", out);
        text(out, sentences[i]);
        fputs("</p>\n", out);
    }
}

static void functions(FILE *out, const struct pz_analysis *a)
{
    fputs("<h2>MPI functions</h2>\n<table><tr><th class=\"name\">function</th><th>calls</th>"
          "<th>time</th><th>longest</th><th>bytes sent</th><th>bytes received</th></tr>\n", out);
    for (int i = 0; i < a->nfunctions; i++) {
        const struct pz_function *f = &a->functions[i];

        fputs("<tr><td class=\"name\">", out);
        text(out, f->name);
        fprintf(out, "</td><td>%llu</td><td>%.6f</td><td>%.6f</td><td>%llu</td><td>%llu</td>"
                "</tr>\n", (unsigned long long)f->calls, f->time, f->max,
                (unsigned long long)f->bytes_sent, (unsigned long long)f->bytes_received);
    }
    fputs("</table>\n", out);
}

static void callsites(FILE *out, const struct pz_analysis *a)
{
    if (!a->ncallsites)
        return;
    fputs("<h2>Call sites</h2>\n<table><tr><th class=\"name\">site</th><th class=\"name\">"
          "function</th><th>calls</th><th>time</th></tr>\n", out);
    for (int i = 0; i < a->ncallsites; i++) {
        const struct pz_callsite *c = &a->callsites[i];

        fputs("<tr><td class=\"name\">", out);
        text(out, c->file);
        fprintf(out, ":%u</td><td class=\"name\">", c->line);
        text(out, c->function);
        fprintf(out, "</td><td>%llu</td><td>%.6f</td></tr>\n", (unsigned long long)c->calls,
                c->time);
    }
    fputs("</table>\n", out);
}

int pz_report_html(FILE *out, const struct pz_analysis *a, int with_processes)
{
    int *order = malloc((size_t)a->nnodes * sizeof(int));

    if (!order)
        return -1;
    pz_report_order(a, order);
    head(out, a);
    intervals(out, a, order);
    fputs("<h2>Characteristics</h2>\n", out);
    for (int i = 0; i < a->nnodes; i++)
        details(out, a, &a->nodes[order[i]], with_processes);
    functions(out, a);
    callsites(out, a);
    fputs("</body></html>\n", out);
    free(order);
    return ferror(out) ? -1 : 0;
}
