/* The JSON report: one object, the whole run first, then every interval depth first;
 * times in seconds (docs/report.md gives the schema). */
#include <stdlib.h>
#include <string.h>

#include "advice.h"
#include "fields.h"
#include "json.h"
#include "report.h"

static void values(FILE *out, const struct pz_analysis *a, const struct pz_characteristics *c)
{
    fprintf(out, "{\"processors\": %d, \"exe_count\": %llu", c->processors,
            (unsigned long long)c->exe_count);
    for (size_t f = 0; f < PZ_NFIELDS; f++)
        fprintf(out, ", \"%s\": %.9g", pz_fields[f].key, pz_field_value(c, pz_fields[f].offset));
    pz_report_json_io_rma(out, a, c);
    fputc('}', out);
}

static void comparative(FILE *out, const struct pz_analysis *a, const struct pz_node *n)
{
    int first = 1;

    fputc('{', out);
    for (size_t f = 0; f < PZ_NFIELDS; f++) {
        struct pz_spread s;

        if (!pz_fields[f].comparative)
            continue;
        s = pz_characteristic_spread(a, n, pz_fields[f].offset);
        fprintf(out, "%s\"%s\": {\"min\": %.9g, \"min_rank\": %d, \"min_thread\": %d, "
                "\"max\": %.9g, \"max_rank\": %d, \"max_thread\": %d, \"mean\": %.9g}",
                first ? "" : ", ", pz_fields[f].key, s.min, pz_process_rank(a, s.min_proc),
                pz_process_thread(a, s.min_proc), s.max, pz_process_rank(a, s.max_proc),
                pz_process_thread(a, s.max_proc), s.mean);
        first = 0;
    }
    fputc('}', out);
}

static void per_process(FILE *out, const struct pz_analysis *a, const struct pz_node *n)
{
    struct pz_interval_bounds bounds = pz_interval_bounds(a, n);
    int first = 1;

    fputs(", \"per_process\": [", out);
    for (int p = 0; p < a->nprocs; p++) {
        struct pz_characteristics c;

        pz_characteristics_within(n, &bounds, p, &c);
        if (!c.exe_count)
            continue;
        fprintf(out, "%s{\"rank\": %d, \"thread\": %d, \"values\": ", first ? "" : ", ",
                pz_process_rank(a, p), pz_process_thread(a, p));
        values(out, a, &c);
        fputc('}', out);
        first = 0;
    }
    fputc(']', out);
}

static void advice(FILE *out, const struct pz_analysis *a, const struct pz_node *n)
{
    char sentences[PZ_ADVICE_MAX][PZ_ADVICE_LEN];
    int count = pz_advice(a, n, sentences);

    fputs(", \"advice\": [", out);
    for (int i = 0; i < count; i++) {
        fputs(i ? ", " : "", out);
        pz_json_string(out, sentences[i]);
    }
    fputc(']', out);
}

/* index[node] = its position in the report, for "parent". */
static void interval(FILE *out, const struct pz_analysis *a, const struct pz_node *n,
                     const int *position, int with_processes)
{
    struct pz_characteristics m;

    pz_characteristics_of(a, n, &m);
    fputs("{\"file\": ", out);
    pz_json_string(out, n->file);
    fprintf(out, ", \"line\": %u, \"id\": %u, \"level\": %d, \"sequential\": %s, "
            "\"exe_count\": %llu, \"parent\": ", n->line, n->id, n->level,
            n->sequential ? "true" : "false", (unsigned long long)m.exe_count);
    if (n->parent < 0)
        fputs("null", out);
    else
        fprintf(out, "%d", position[n->parent]);
    fputs(", \"main\": ", out);
    values(out, a, &m);
    fputs(", \"comparative\": ", out);
    comparative(out, a, n);
    if (with_processes)
        per_process(out, a, n);
    advice(out, a, n);
    fputc('}', out);
}

/* The report; extra, if not NULL, writes more members of the top object. */
/* "partial": {"processes": [{"rank": R, "ended": HOW}, ...]} from "R: HOW; ..." */
static void partial(FILE *out, const char *endings)
{
    char *copy = strdup(endings), *save = NULL;

    fputs("\"partial\": {\"processes\": [", out);
    for (char *e = copy ? strtok_r(copy, ";", &save) : NULL; e; e = strtok_r(NULL, ";", &save)) {
        char *colon = strchr(e, ':');

        if (!colon)
            continue;
        *colon = '\0';
        fprintf(out, "%s{\"rank\": %d, \"ended\": ", e == copy ? "" : ", ", atoi(e));
        pz_json_string(out, colon + 2);
        fputc('}', out);
    }
    fputs("]},\n", out);
    free(copy);
}

/* The members of a report object, without its braces. */
static int members(FILE *out, const struct pz_analysis *a, int with_processes)
{
    int *order = malloc((size_t)a->nnodes * sizeof(int));
    int *position = malloc((size_t)a->nnodes * sizeof(int));

    if (!order || !position) {
        free(order);
        free(position);
        return -1;
    }
    pz_report_order(a, order);
    for (int i = 0; i < a->nnodes; i++)
        position[order[i]] = i;
    if (a->partial)
        partial(out, a->partial);
    fprintf(out, "\"processes\": %d, \"threads\": %d, \"messages\": %llu, "
            "\"collectives\": %llu, \"clock_violations\": %llu, \"unmatched_sends\": %llu, "
            "\"unmatched_receives\": %llu, \"incomplete_collectives\": %llu, \"intervals\": [",
            a->nranks, a->nprocs, (unsigned long long)a->messages, (unsigned long long)a->collectives,
            (unsigned long long)a->clock_violations, (unsigned long long)a->unmatched_sends,
            (unsigned long long)a->unmatched_receives,
            (unsigned long long)a->incomplete_collectives);
    for (int i = 0; i < a->nnodes; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        interval(out, a, &a->nodes[order[i]], position, with_processes);
    }
    fputs("\n],\n\"warnings\": [", out);
    for (int i = 0; i < a->nwarnings; i++) {
        fputs(i ? ", " : "", out);
        pz_json_string(out, a->warnings[i]);
    }
    fputc(']', out);
    pz_report_json_profile(out, a);
    free(order);
    free(position);
    return 0;
}

int pz_report_json(FILE *out, const struct pz_analysis *a, int with_processes)
{
    int rc;

    fputc('{', out);
    pz_json_document_head(out, "prognoz-report", a);
    rc = members(out, a, with_processes);
    fputs("}\n", out);
    return rc != 0 || ferror(out) ? -1 : 0;
}

static void prediction(FILE *out, const struct pz_predicted *p, pz_report_describe *describe)
{
    const struct pz_replay_summary *r = p->replay;

    fputs("{\"machine\": ", out);
    describe(out, PZ_REPORT_JSON, p->about);
    fprintf(out, ",\n\"prediction\": {\"end\": %.9g, \"records\": %llu, \"calls\": %llu, "
            "\"compute\": \"%s\", \"cpu_timed\": %llu, \"wall_timed\": %llu},\n\"report\": {",
            r->end, r->records, r->calls, r->compute, r->cpu_timed, r->wall_timed);
}

int pz_report_json_prediction(FILE *out, const struct pz_analysis *recorded,
                              const struct pz_predicted *runs, int n, int per_process,
                              pz_report_describe *describe)
{
    int rc;

    fputc('{', out);
    pz_json_document_head(out, "prognoz-prediction", recorded);
    fputs("\"recorded\": {", out);
    rc = members(out, recorded, per_process);
    fputs("},\n\"predictions\": [", out);
    for (int i = 0; i < n && rc == 0; i++) {
        fputs(i ? ",\n" : "\n", out);
        prediction(out, &runs[i], describe);
        rc = members(out, runs[i].analysis, per_process);
        fputs("}}", out);
    }
    fputs("]}\n", out);
    return rc != 0 || ferror(out) ? -1 : 0;
}
