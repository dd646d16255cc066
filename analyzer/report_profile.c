/* The profile sections of the reports: MPI functions by time, like mpiP's aggregate
 * table, and the call sites that took most time. */
#include <stdlib.h>

#include "json.h"
#include "report.h"

#define TOP_SITES 20

static const struct pz_analysis *sorting;

static int by_function_time(const void *x, const void *y)
{
    double a = sorting->functions[*(const int *)x].time;
    double b = sorting->functions[*(const int *)y].time;

    return (a < b) - (a > b);
}

static int by_site_time(const void *x, const void *y)
{
    double a = sorting->callsites[*(const int *)x].time;
    double b = sorting->callsites[*(const int *)y].time;

    return (a < b) - (a > b);
}

/* Indices 0..n-1 sorted by decreasing time; NULL if memory ran out. */
static int *ranked(const struct pz_analysis *a, int n, int (*cmp)(const void *, const void *))
{
    int *order = malloc((size_t)(n ? n : 1) * sizeof(int));

    if (!order)
        return NULL;
    for (int i = 0; i < n; i++)
        order[i] = i;
    sorting = a;
    qsort(order, (size_t)n, sizeof(int), cmp);
    return order;
}

static double total_mpi(const struct pz_analysis *a)
{
    double sum = 0;

    for (int i = 0; i < a->nfunctions; i++)
        sum += a->functions[i].time;
    return sum;
}

void pz_report_text_profile(FILE *out, const struct pz_analysis *a)
{
    int *order = ranked(a, a->nfunctions, by_function_time);
    double mpi = total_mpi(a);

    if (!order)
        return;
    fprintf(out, "\n---MPI Functions (whole run, all processes)---\n");
    fprintf(out, "%-26s %10s %12s %7s %12s %14s %14s\n", "Function", "Calls", "Time", "%MPI",
            "Max", "Bytes sent", "Bytes recv");
    for (int i = 0; i < a->nfunctions; i++) {
        const struct pz_function *f = &a->functions[order[i]];

        fprintf(out, "%-26s %10llu %12.6f %7.2f %12.6f %14llu %14llu\n", f->name,
                (unsigned long long)f->calls, f->time, mpi > 0 ? 100 * f->time / mpi : 0,
                f->max, (unsigned long long)f->bytes_sent, (unsigned long long)f->bytes_received);
    }
    free(order);
    if (!a->ncallsites || !(order = ranked(a, a->ncallsites, by_site_time)))
        return;
    fprintf(out, "\n---Call Sites (top %d by time)---\n", TOP_SITES);
    fprintf(out, "%-40s %-22s %10s %12s %7s\n", "Site", "Function", "Calls", "Time", "%MPI");
    for (int i = 0; i < a->ncallsites && i < TOP_SITES; i++) {
        const struct pz_callsite *c = &a->callsites[order[i]];
        char site[4200];

        snprintf(site, sizeof(site), "%s:%u", c->file, c->line);
        fprintf(out, "%-40s %-22s %10llu %12.6f %7.2f\n", site, c->function,
                (unsigned long long)c->calls, c->time, mpi > 0 ? 100 * c->time / mpi : 0);
    }
    free(order);
}

void pz_report_json_profile(FILE *out, const struct pz_analysis *a)
{
    fputs(",\n\"functions\": [", out);
    for (int i = 0; i < a->nfunctions; i++) {
        const struct pz_function *f = &a->functions[i];

        fprintf(out, "%s\n  {\"name\": \"%s\", \"calls\": %llu, \"time\": %.9g, \"max\": %.9g, "
                "\"bytes_sent\": %llu, \"bytes_received\": %llu}", i ? "," : "", f->name,
                (unsigned long long)f->calls, f->time, f->max,
                (unsigned long long)f->bytes_sent, (unsigned long long)f->bytes_received);
    }
    fputs("],\n\"callsites\": [", out);
    for (int i = 0; i < a->ncallsites; i++) {
        const struct pz_callsite *c = &a->callsites[i];

        fprintf(out, "%s\n  {\"file\": ", i ? "," : "");
        pz_json_string(out, c->file);
        fprintf(out, ", \"line\": %u, \"function\": \"%s\", \"calls\": %llu, \"time\": %.9g}",
                c->line, c->function, (unsigned long long)c->calls, c->time);
    }
    fputc(']', out);
}
