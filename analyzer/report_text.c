/* The text report, in the layout of the DVM analyzer's reports: per interval a header,
 * the main characteristics with their components below them, and the comparative
 * table of the processes. */
#include <stdlib.h>

#include "advice.h"
#include "fields.h"
#include "report.h"

static void header(FILE *out, const struct pz_node *n, const struct pz_characteristics *m)
{
    if (n->parent < 0)
        fprintf(out, "Interval (whole run) Level=0 EXE_Count=%llu\n",
                (unsigned long long)m->exe_count);
    else
        fprintf(out, "Interval (LineNumber = %u SourceFile = %s Id = %u) Level=%d EXE_Count=%llu%s\n",
                n->line, n->file, n->id, n->level, (unsigned long long)m->exe_count,
                n->sequential ? " Sequential" : "");
}

static void main_characteristics(FILE *out, const struct pz_characteristics *m)
{
    fprintf(out, "---Main Characteristics---\n");
    fprintf(out, "Parallelization Efficiency %.6f\n", m->efficiency);
    fprintf(out, "Execution Time %.6f\n", m->execution_time);
    fprintf(out, "Processors %d\n", m->processors);
    fprintf(out, "Total Time %.6f\n", m->total_time);
    fprintf(out, "Productive Time %.6f (CPU)\n", m->productive_time);
    fprintf(out, "Lost Time %.6f\n", m->lost_time);
    fprintf(out, "---Insufficient Parallelism %.6f\n", m->insufficient_parallelism);
    fprintf(out, "---MPI Time %.6f\n", m->mpi_time);
    fprintf(out, "---Idle Time %.6f\n", m->idle_time);
    fprintf(out, "Communication Time %.6f\n", m->communication_time);
    fprintf(out, "*****SendRecv Time %.6f\n", m->sendrecv_time);
    fprintf(out, "*****CollectiveAll Time %.6f\n", m->collective_time);
    fprintf(out, "*****AllToAll Time %.6f\n", m->alltoall_time);
    fprintf(out, "Potential Sync. %.6f\n", m->synchronization);
    fprintf(out, "Real Sync. %.6f\n", m->real_synchronization);
    fprintf(out, "Time Variation %.6f\n", m->time_variation);
    fprintf(out, "Time of Start %.6f\n", m->time_of_start);
    fprintf(out, "Overlap %.6f\n", m->overlap);
    fprintf(out, "Load Imbalance %.6f\n", m->load_imbalance);
    fprintf(out, "---Wait States---\n");
    fprintf(out, "Late Sender %.6f (Wrong Order %.6f)\n", m->late_sender,
            m->late_sender_wrong_order);
    fprintf(out, "Late Receiver %.6f\n", m->late_receiver);
    fprintf(out, "Wait at Barrier %.6f (Completion %.6f)\n", m->wait_at_barrier,
            m->barrier_completion);
    fprintf(out, "Wait at NxN %.6f (Completion %.6f)\n", m->wait_at_nxn, m->nxn_completion);
    fprintf(out, "Early Reduce %.6f\n", m->early_reduce);
    fprintf(out, "Late Broadcast %.6f\n", m->late_broadcast);
}

static void comparative(FILE *out, const struct pz_analysis *a, const struct pz_node *n)
{
    fprintf(out, "---Comparative Characteristics---\n");
    fprintf(out, "%-16s %12s %6s %12s %6s %12s\n", "", "Tmin", "Nproc", "Tmax", "Nproc", "Tmid");
    for (size_t f = 0; f < PZ_NFIELDS; f++) {
        struct pz_spread s;

        if (!pz_fields[f].comparative)
            continue;
        s = pz_characteristic_spread(a, n, pz_fields[f].offset);
        fprintf(out, "%-16s %12.6f %6s %12.6f %6s %12.6f\n", pz_fields[f].label, s.min,
                pz_process_label(a, s.min_proc).text, s.max, pz_process_label(a, s.max_proc).text,
                s.mean);
    }
}

static void per_process(FILE *out, const struct pz_analysis *a, const struct pz_node *n)
{
    struct pz_interval_bounds bounds = pz_interval_bounds(a, n);

    fprintf(out, "---Characteristics of Each Process---\n%-6s", "Nproc");
    for (size_t f = 0; f < PZ_NFIELDS; f++)
        if (pz_fields[f].comparative)
            fprintf(out, " %15s", pz_fields[f].label);
    fputc('\n', out);
    for (int p = 0; p < a->nprocs; p++) {
        struct pz_characteristics c;

        pz_characteristics_within(n, &bounds, p, &c);
        if (!c.exe_count)
            continue;
        fprintf(out, "%-6s", pz_process_label(a, p).text);
        for (size_t f = 0; f < PZ_NFIELDS; f++)
            if (pz_fields[f].comparative)
                fprintf(out, " %15.6f", pz_field_value(&c, pz_fields[f].offset));
        fputc('\n', out);
    }
}

/* What the matching of messages and collectives found, for trust in the waits. */
static void summary(FILE *out, const struct pz_analysis *a)
{
    if (a->partial)
        fprintf(out, "Partial trace: the run ended without MPI_Finalize (%s); what was in "
                "progress then ends at the last event of its process\n", a->partial);
    fprintf(out, "Trace: %d processes", a->nranks);
    if (a->threaded)
        fprintf(out, " (%d threads)", a->nprocs);
    fprintf(out, ", %llu messages, %llu collective operations",
            (unsigned long long)a->messages, (unsigned long long)a->collectives);
    if (a->clock_violations)
        fprintf(out, ", %llu clock-condition violations (receives ending before their send "
                "began)", (unsigned long long)a->clock_violations);
    if (a->unmatched_sends || a->unmatched_receives)
        fprintf(out, ", %llu sends and %llu receives unmatched",
                (unsigned long long)a->unmatched_sends, (unsigned long long)a->unmatched_receives);
    if (a->incomplete_collectives)
        fprintf(out, ", %llu collective operations not reached by every member",
                (unsigned long long)a->incomplete_collectives);
    fputs("\n", out);
    for (int i = 0; i < a->nwarnings; i++)
        fprintf(out, "Warning: %s\n", a->warnings[i]);
    fputs("\n", out);
}

static void advice(FILE *out, const struct pz_analysis *a, const struct pz_node *n)
{
    char sentences[PZ_ADVICE_MAX][PZ_ADVICE_LEN];
    int count = pz_advice(a, n, sentences);

    if (count)
        fprintf(out, "---Advice---\n");
    for (int i = 0; i < count; i++)
        fprintf(out, "%s\n", sentences[i]);
}

int pz_report_text(FILE *out, const struct pz_analysis *a, int with_processes)
{
    int *order = malloc((size_t)a->nnodes * sizeof(int));

    if (!order)
        return -1;
    summary(out, a);
    pz_report_order(a, order);
    for (int i = 0; i < a->nnodes; i++) {
        const struct pz_node *n = &a->nodes[order[i]];
        struct pz_characteristics m;

        pz_characteristics_of(a, n, &m);
        fputs(i ? "\n" : "", out);
        header(out, n, &m);
        main_characteristics(out, &m);
        pz_report_text_io_rma(out, a, n, &m, with_processes);
        comparative(out, a, n);
        if (with_processes)
            per_process(out, a, n);
        advice(out, a, n);
    }
    pz_report_text_profile(out, a);
    free(order);
    return ferror(out) ? -1 : 0;
}
