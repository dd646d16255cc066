/* The HTML report (report_html.h): one self-contained page, nothing fetched.  Its
 * script (report_html.js) and style (report_html.css), embedded at build time
 * (report_html_assets.h), draw the interactive views from the data the page embeds as
 * JSON; below them, every value as tables, which need no script: the intervals as an
 * indented table with a bar each (productive, insufficient parallelism, communication,
 * other MPI and idle time), the wait states, each interval's processes on request, the
 * advice and the MPI function profile; for a run that made MPI-IO or one-sided calls,
 * their parts of MPI time too (report_html_io_rma.c).  The page of a prediction on several machines
 * embeds every run's data and adds a script of its own (report_html_machines.js) that
 * shows them side by side and the chosen one with the page's script. */
#define _XOPEN_SOURCE 700
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "advice.h"
#include "fields.h"
#include "json.h"
#include "report.h"
#include "report_html.h"
#include "report_html_assets.h"
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

static void lines(FILE *out, const char *const *text)
{
    for (; *text; text++)
        fputs(*text, out);
}

/* When the trace at path (DIR: its anchor file DIR/traces.otf2) was last written, ""
 * if it cannot be told. */
static void modified(const char *path, char *when, size_t len)
{
    struct stat st;
    struct tm tm;
    char anchor[4096];

    *when = '\0';
    if (stat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode) &&
        (snprintf(anchor, sizeof(anchor), "%s/traces.otf2", path) >= (int)sizeof(anchor) ||
         stat(anchor, &st) != 0))
        return;
    if (localtime_r(&st.st_mtime, &tm))
        strftime(when, len, "%Y-%m-%d %H:%M:%S", &tm);
}

static void now(char *when, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;

    *when = '\0';
    if (localtime_r(&t, &tm))
        strftime(when, len, "%Y-%m-%d %H:%M:%S", &tm);
}

/* What the page says of the run: what it is, where it comes from, when. */
struct identity {
    const char *trace, *machine;
    char recorded[64], written[64];
};

static void head(FILE *out, const struct pz_analysis *a, const struct identity *id)
{
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>prognoz report</title>\n"
          "<style>", out);
    lines(out, pz_html_css);
    fprintf(out, "</style></head><body>\n<h1>prognoz %s</h1>\n<p id=\"identity\">",
            id->machine ? "prediction" : "report");
    if (id->machine) {
        fputs("<b class=\"prediction\">Prediction</b> ", out);
        text(out, id->machine);
        fputs(". ", out);
    }
    if (id->trace) {
        fputs("Trace ", out);
        text(out, id->trace);
        if (*id->recorded)
            fprintf(out, " (written %s)", id->recorded);
        fputs(". ", out);
    }
    fprintf(out, "%d processes", a->nranks);
    if (a->threaded)
        fprintf(out, " (%d threads)", a->nprocs);
    fprintf(out, ". Report of prognoz %s, %s.</p>\n<div id=\"app\"></div>\n"
            "<details id=\"tables\"><summary>Every value as tables</summary>\n",
            PACKAGE_VERSION, id->written);
}

static void counts(FILE *out, const struct pz_analysis *a)
{
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
          "insufficient parallelism</span><span class=\"c\">communication</span>", out);
    if (a->io_rma)
        pz_html_io_rma_legend(out);
    fputs("<span class=\"m\">other MPI</span><span class=\"i\">idle</span></p>\n", out);
}

static void bar(FILE *out, const struct pz_analysis *a, const struct pz_characteristics *m)
{
    double total = m->total_time > 0 ? m->total_time : 1;

    if (a->io_rma) {
        pz_html_io_rma_bar(out, m);
        return;
    }

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
          "<th>synchronization</th><th>idle</th><th>imbalance</th>", out);
    if (a->io_rma)
        pz_html_io_rma_heads(out);
    fputs("<th class=\"name\">time of the processors</th></tr>\n", out);
    for (int i = 0; i < a->nnodes; i++) {
        const struct pz_node *n = &a->nodes[order[i]];
        struct pz_characteristics m;

        pz_characteristics_of(a, n, &m);
        fputs("<tr>", out);
        interval_name(out, n);
        fprintf(out, "<td>%llu</td><td>%.3f</td><td>%.6f</td><td>%.6f</td><td>%.6f</td>"
                "<td>%.6f</td><td>%.6f</td><td>%.6f</td>",
                (unsigned long long)m.exe_count, m.efficiency, m.execution_time, m.lost_time,
                m.communication_time, m.synchronization, m.idle_time, m.load_imbalance);
        if (a->io_rma)
            pz_html_io_rma_cells(out, &m);
        fputs("<td class=\"name\">", out);
        bar(out, a, &m);
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
    struct pz_interval_bounds bounds = pz_interval_bounds(a, n);

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

            pz_characteristics_within(n, &bounds, p, &c);
            fprintf(out, "<td>%.6f</td>", pz_field_value(&c, pz_fields[f].offset));
        }
        fputs("</tr>\n", out);
    }
    if (a->io_rma)
        pz_html_io_rma_rows(out, a, n, &m, with_processes);
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

/* The run's identity as JSON. */
static void run_json(FILE *out, const struct pz_analysis *a, const struct identity *id)
{
    fputs("{\"trace\": ", out);
    pz_json_string(out, id->trace ? id->trace : "");
    fprintf(out, ", \"processes\": %d, \"threads\": %d, \"recorded\": \"%s\", "
            "\"written\": \"%s\", \"version\": \"%s\", \"prediction\": ", a->nranks,
            a->nprocs, id->recorded, id->written, PACKAGE_VERSION);
    if (id->machine) {
        fputs("{\"machine\": ", out);
        pz_json_string(out, id->machine);
        fputc('}', out);
    } else {
        fputs("null", out);
    }
    fputc('}', out);
}

/* The start of the page's data, in memory to be embedded: the run's identity and the
 * JSON report (with strings of the trace). */
static int report_data(const struct pz_analysis *a, int per_process, const struct identity *id,
                       char **json, size_t *len)
{
    FILE *out = open_memstream(json, len);

    if (!out)
        return -1;
    fputs("{\"run\": ", out);
    run_json(out, a, id);
    fputs(",\n\"report\": ", out);
    pz_report_json(out, a, per_process);
    return fclose(out) == 0 ? 0 : -1;
}

/* One run's data: {"run", "report" (the JSON report), "processes", "timeline"}; the
 * large parts (numbers, and strings made safe) written directly.  With io_rma, for a
 * page whose script draws I/O and one-sided time, the per-process values and the
 * timeline's classes have them. */
static void run_object(FILE *out, const struct pz_analysis *a, const int *order,
                       const struct identity *id, uint64_t limit, const char *json, size_t len,
                       const int *position, int io_rma)
{
    char why[1024] = "no trace to read the calls from";

    pz_html_embed(out, json, len);
    fputs(",\"processes\": ", out);
    pz_html_processes(out, a, order, limit / 4, io_rma);
    fputs(",\n\"timeline\": ", out);
    if (!id->trace ||
        pz_html_timeline(out, id->trace, a, position, limit, io_rma, why, sizeof(why)) != 0) {
        fputs("{\"mode\": \"none\", \"why\": ", out);
        pz_html_json_string(out, why);
        fputc('}', out);
    }
    fputc('}', out);
}

/* The intervals in report order (order) and each node's place in it (position). */
struct report_order {
    int *order, *position;
};

static int order_of(const struct pz_analysis *a, struct report_order *o)
{
    o->order = malloc((size_t)a->nnodes * sizeof(int));
    o->position = malloc((size_t)a->nnodes * sizeof(int));
    if (!o->order || !o->position)
        return -1;
    pz_report_order(a, o->order);
    for (int i = 0; i < a->nnodes; i++)
        o->position[o->order[i]] = i;
    return 0;
}

static void order_free(struct report_order *o)
{
    free(o->order);
    free(o->position);
}

/* The identity of a run read from trace (NULL: none) and predicted on machine (NULL: a
 * recorded run), written now. */
static void identify(struct identity *id, const char *trace, const char *machine)
{
    *id = (struct identity){ trace, machine, "", "" };
    if (trace)
        modified(trace, id->recorded, sizeof(id->recorded));
    now(id->written, sizeof(id->written));
}

/* Every value as tables, which need no script. */
static void tables(FILE *out, const struct pz_analysis *a, const int *order, int per_process)
{
    counts(out, a);
    intervals(out, a, order);
    fputs("<h2>Characteristics</h2>\n", out);
    for (int i = 0; i < a->nnodes; i++)
        details(out, a, &a->nodes[order[i]], per_process);
    functions(out, a);
    if (a->io_rma)
        pz_html_io_rma_profile(out, a);
    callsites(out, a);
}

static int written(FILE *out, char *err, size_t errlen)
{
    if (ferror(out)) {
        snprintf(err, errlen, "cannot write the report");
        return -1;
    }
    return 0;
}

int pz_report_html_run(FILE *out, const struct pz_analysis *a, int per_process,
                       const struct pz_html_run *run, char *err, size_t errlen)
{
    struct report_order o = { 0 };
    struct identity id;
    uint64_t limit = run && run->limit ? run->limit : PZ_HTML_DEFAULT_LIMIT;
    char *json = NULL;
    size_t len = 0;

    identify(&id, run ? run->trace : NULL, run ? run->machine : NULL);
    if (order_of(a, &o) != 0 || report_data(a, per_process, &id, &json, &len) != 0) {
        snprintf(err, errlen, "out of memory");
        order_free(&o);
        free(json);
        return -1;
    }
    head(out, a, &id);
    tables(out, a, o.order, per_process);
    fputs("</details>\n<script type=\"application/json\" id=\"pz-data\">", out);
    run_object(out, a, o.order, &id, limit, json, len, o.position, a->io_rma);
    fputs("</script>\n<script>", out);
    pz_html_script_lines(out, pz_html_js, a->io_rma);
    fputs("</script>\n", out);
    if (a->io_rma)
        pz_html_io_rma_script(out);
    fputs("</body></html>\n", out);
    order_free(&o);
    free(json);
    return written(out, err, errlen);
}

/* One run's data in the page of several (pz_report_html_compare); io_rma as
 * run_object's, the page's. */
static int compared_object(FILE *out, const struct pz_analysis *a, const char *trace,
                           const char *machine, uint64_t limit, int io_rma)
{
    struct report_order o = { 0 };
    struct identity id;
    char *json = NULL;
    size_t len = 0;
    int rc = -1;

    identify(&id, trace, machine);
    if (order_of(a, &o) == 0 && report_data(a, 0, &id, &json, &len) == 0) {
        run_object(out, a, o.order, &id, limit, json, len, o.position, io_rma);
        rc = 0;
    }
    order_free(&o);
    free(json);
    return rc;
}

/* What the page of several machines says they are: each machine's line. */
static char *machines_line(const struct pz_html_predicted *runs, int n)
{
    char *line = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&line, &len);

    if (!f)
        return NULL;
    fprintf(f, "%d machines: ", n);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? "; " : "", runs[i].machine);
    if (fclose(f) != 0) {
        free(line);
        return NULL;
    }
    return line;
}

/* Whether the recorded run or a predicted one made MPI-IO or one-sided calls. */
static int any_io_rma(const struct pz_analysis *recorded, const struct pz_html_predicted *runs,
                      int n)
{
    int any = recorded->io_rma;

    for (int i = 0; i < n; i++)
        any |= runs[i].analysis->io_rma;
    return any;
}

int pz_report_html_compare(FILE *out, const struct pz_analysis *recorded,
                           const struct pz_html_predicted *runs, int n,
                           const struct pz_html_run *run, const char *comparison, char *err,
                           size_t errlen)
{
    char *machines = machines_line(runs, n);
    struct report_order o = { 0 };
    struct identity id;
    uint64_t share = (run->limit ? run->limit : PZ_HTML_DEFAULT_LIMIT) / (uint64_t)(n + 1);
    int io_rma = any_io_rma(recorded, runs, n);
    int rc;

    identify(&id, run->trace, machines);
    if (!machines || order_of(recorded, &o) != 0) {
        snprintf(err, errlen, "out of memory");
        free(machines);
        order_free(&o);
        return -1;
    }
    head(out, recorded, &id);
    fputs("<h2>Recorded and predicted side by side</h2>\n<pre>", out);
    text(out, comparison);
    fputs("</pre>\n<h2>The recorded run</h2>\n", out);
    tables(out, recorded, o.order, 0);
    fputs("</details>\n<script type=\"application/json\" id=\"pz-runs\">{\"names\": [", out);
    pz_html_json_string(out, "recorded");
    for (int i = 0; i < n; i++) {
        fputs(", ", out);
        pz_html_json_string(out, runs[i].name);
    }
    fputs("],\n\"runs\": [", out);
    rc = compared_object(out, recorded, run->trace, NULL, share, io_rma);
    for (int i = 0; i < n && rc == 0; i++) {
        fputs(",\n", out);
        rc = compared_object(out, runs[i].analysis, runs[i].trace, runs[i].machine, share,
                             io_rma);
    }
    fputs("]}</script>\n<script type=\"application/json\" id=\"pz-data\"></script>\n"
          "<script type=\"text/plain\" id=\"pz-page\">", out);
    pz_html_script_lines(out, pz_html_js, io_rma);
    fputs("</script>\n<script>", out);
    pz_html_script_lines(out, pz_html_machines_js, io_rma);
    fputs("</script>\n", out);
    if (io_rma)
        pz_html_io_rma_script(out);
    fputs("</body></html>\n", out);
    order_free(&o);
    free(machines);
    if (rc != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return written(out, err, errlen);
}

int pz_report_html(FILE *out, const struct pz_analysis *a, int per_process)
{
    char err[256];

    return pz_report_html_run(out, a, per_process, NULL, err, sizeof(err));
}
