/* The data of the HTML report's page (report_html.h) that is neither the JSON report
 * nor the timeline: the per-process shares, the limit on their size, and the safe
 * embedding of JSON in the page. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_html.h"

void pz_html_embed(FILE *out, const char *json, size_t len)
{
    size_t from = 0;

    for (size_t i = 0; i < len; i++) {
        char ch = json[i];

        if (ch != '<' && ch != '>' && ch != '&')
            continue;
        fwrite(json + from, 1, i - from, out);
        fprintf(out, "\\u%04x", (unsigned)ch);
        from = i + 1;
    }
    fwrite(json + from, 1, len - from, out);
}

void pz_html_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;

        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20 || ch == '<' || ch == '>' || ch == '&')
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

int pz_html_limit_from_env(uint64_t *limit, char *err, size_t errlen)
{
    const char *v = getenv("PROGNOZ_HTML_LIMIT");
    unsigned long long n;
    char *end;
    int shift = 0;

    *limit = PZ_HTML_DEFAULT_LIMIT;
    if (!v || !*v)
        return 0;
    errno = 0;
    n = strtoull(v, &end, 10);
    if (*end && !end[1])
        shift = *end == 'k' || *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : -1;
    else if (*end)
        shift = -1;
    if (errno || shift < 0 || !n || v[0] == '-' || n > (UINT64_MAX >> shift)) {
        snprintf(err, errlen, "PROGNOZ_HTML_LIMIT: '%s' is not a size in bytes (like 20M)", v);
        return -1;
    }
    *limit = (uint64_t)n << shift;
    return 0;
}

/* The values of the per-process chart of process p in node n, added to sum: seven, or
 * with io_rma nine (pz_html_processes).  Returns how many. */
static int add_shares(const struct pz_node *n, const struct pz_interval_bounds *b, int p,
                      int io_rma, double *sum)
{
    struct pz_characteristics c;
    double sync, other, rest;
    int k = 0;

    pz_characteristics_within(n, b, p, &c);
    sync = c.synchronization < c.communication_time ? c.synchronization : c.communication_time;
    if (sync < 0)
        sync = 0;
    other = c.mpi_time > c.communication_time ? c.mpi_time - c.communication_time : 0;
    sum[k++] += c.productive_time;
    sum[k++] += c.insufficient_parallelism;
    sum[k++] += c.communication_time - sync;
    sum[k++] += sync;
    if (io_rma) {
        rest = other - c.io_time - c.rma_time;
        sum[k++] += c.io_time;
        sum[k++] += c.rma_time;
        sum[k++] += rest > 0 ? rest : 0;
    } else {
        sum[k++] += other;
    }
    sum[k++] += c.idle_time;
    sum[k++] += c.execution_time;
    return k;
}

/* Bytes of one process's values at most: per number of %.4g twelve with its comma, and
 * the brackets. */
#define SHARE_BYTES(values) (4 + 12 * (values))

void pz_html_processes(FILE *out, const struct pz_analysis *a, const int *order, uint64_t bound,
                       int io_rma)
{
    uint64_t all = (uint64_t)a->nnodes * (uint64_t)a->nprocs * SHARE_BYTES(io_rma ? 9 : 7);
    int k = (int)(bound ? (all + bound - 1) / bound : 1);

    if (k < 1)
        k = 1;
    if (k > a->nprocs)
        k = a->nprocs > 0 ? a->nprocs : 1;
    fprintf(out, "{\"group\": %d, \"values\": [", k);
    for (int i = 0; i < a->nnodes; i++) {
        const struct pz_node *n = &a->nodes[order[i]];
        struct pz_interval_bounds bounds = pz_interval_bounds(a, n);

        fputs(i ? ",\n[" : "\n[", out);
        for (int g = 0; g * k < a->nprocs; g++) {
            double sum[9] = { 0 };
            int members = 0, values = 0;

            for (int p = g * k; p < a->nprocs && p < (g + 1) * k; p++, members++)
                values = add_shares(n, &bounds, p, io_rma, sum);
            fputs(g ? ",[" : "[", out);
            for (int v = 0; v < values; v++)
                fprintf(out, "%s%.4g", v ? "," : "", sum[v] / members);
            fputc(']', out);
        }
        fputc(']', out);
    }
    fputs("]}", out);
}
