/* MPI-IO and one-sided communication in the text and JSON reports (report.h): their
 * parts of MPI time and their bytes, only for a run that made such calls, so that the
 * reports of the others are as they were. */
#include "report.h"

void pz_report_text_io_rma(FILE *out, const struct pz_analysis *a, const struct pz_node *n,
                           const struct pz_characteristics *m, int with_processes)
{
    struct pz_interval_bounds bounds;

    if (!a->io_rma)
        return;
    fprintf(out, "---I/O and One-Sided (parts of MPI Time)---\n");
    fprintf(out, "I/O Time %.6f (Read %.0f B, Written %.0f B)\n", m->io_time,
            m->io_bytes_read, m->io_bytes_written);
    fprintf(out, "One-Sided Time %.6f (Put %.0f B, Got %.0f B)\n", m->rma_time,
            m->rma_bytes_put, m->rma_bytes_got);
    fprintf(out, "Lock Contention %.6f\n", m->lock_contention);
    if (!with_processes)
        return;
    bounds = pz_interval_bounds(a, n);
    fprintf(out, "%-6s %15s %15s %15s %15s %15s %15s\n", "Nproc", "I/O Time", "Read (B)",
            "Written (B)", "One-Sided Time", "Put (B)", "Got (B)");
    for (int p = 0; p < a->nprocs; p++) {
        struct pz_characteristics c;

        pz_characteristics_within(n, &bounds, p, &c);
        if (!c.exe_count)
            continue;
        fprintf(out, "%-6s %15.6f %15.0f %15.0f %15.6f %15.0f %15.0f\n",
                pz_process_label(a, p).text, c.io_time, c.io_bytes_read, c.io_bytes_written,
                c.rma_time, c.rma_bytes_put, c.rma_bytes_got);
    }
}

void pz_report_json_io_rma(FILE *out, const struct pz_analysis *a,
                           const struct pz_characteristics *c)
{
    if (!a->io_rma)
        return;
    fprintf(out, ", \"io_time\": %.9g, \"rma_time\": %.9g, \"io_bytes_read\": %.0f, "
            "\"io_bytes_written\": %.0f, \"rma_bytes_put\": %.0f, \"rma_bytes_got\": %.0f, "
            "\"rma_lock_contention\": %.9g",
            c->io_time, c->rma_time, c->io_bytes_read, c->io_bytes_written, c->rma_bytes_put,
            c->rma_bytes_got, c->lock_contention);
}
