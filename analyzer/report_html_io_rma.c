/* MPI-IO and one-sided communication on the HTML page (report_html.h), only for a run
 * that made such calls (a->io_rma), so that the pages of the others are as they were:
 * in the tables, their shares of the bars, their columns, rows and the MPI time by
 * family of functions; in the interactive views, the lines of the page's script marked
 * for them (pz_html_script_lines) and a script of their own (report_html_io_rma.js). */
#include <string.h>

#include "call_family.h"
#include "large_count.h"
#include "report_html.h"
#include "report_html_assets.h"

/* The colours of the two parts, the script's too. */
#define IO_COLOUR "#795548"
#define RMA_COLOUR "#00897b"

void pz_html_io_rma_legend(FILE *out)
{
    fputs("<span style=\"background:" IO_COLOUR ";color:#fff\">I/O</span>"
          "<span style=\"background:" RMA_COLOUR ";color:#fff\">one-sided</span>", out);
}

void pz_html_io_rma_bar(FILE *out, const struct pz_characteristics *m)
{
    double total = m->total_time > 0 ? m->total_time : 1;
    double other = m->mpi_time - m->communication_time - m->io_time - m->rma_time;

    fprintf(out, "<div class=\"bar\"><span class=\"p\" style=\"width:%.1f%%\"></span>"
            "<span class=\"s\" style=\"width:%.1f%%\"></span>"
            "<span class=\"c\" style=\"width:%.1f%%\"></span>"
            "<span style=\"background:" IO_COLOUR ";width:%.1f%%\"></span>"
            "<span style=\"background:" RMA_COLOUR ";width:%.1f%%\"></span>"
            "<span class=\"m\" style=\"width:%.1f%%\"></span>"
            "<span class=\"i\" style=\"width:%.1f%%\"></span></div>",
            100 * m->productive_time / total, 100 * m->insufficient_parallelism / total,
            100 * m->communication_time / total, 100 * m->io_time / total,
            100 * m->rma_time / total, 100 * (other > 0 ? other : 0) / total,
            100 * m->idle_time / total);
}

void pz_html_io_rma_heads(FILE *out)
{
    fputs("<th>I/O</th><th>one-sided</th>", out);
}

void pz_html_io_rma_cells(FILE *out, const struct pz_characteristics *m)
{
    fprintf(out, "<td>%.6f</td><td>%.6f</td>", m->io_time, m->rma_time);
}

/* The six figures: label, byte offset in struct pz_characteristics, and whether bytes. */
static const struct figure {
    const char *label;
    size_t offset;
    int bytes;
} figures[] = {
    { "I/O Time", offsetof(struct pz_characteristics, io_time), 0 },
    { "I/O Bytes Read", offsetof(struct pz_characteristics, io_bytes_read), 1 },
    { "I/O Bytes Written", offsetof(struct pz_characteristics, io_bytes_written), 1 },
    { "One-Sided Time", offsetof(struct pz_characteristics, rma_time), 0 },
    { "One-Sided Bytes Put", offsetof(struct pz_characteristics, rma_bytes_put), 1 },
    { "One-Sided Bytes Got", offsetof(struct pz_characteristics, rma_bytes_got), 1 },
};

static void figure_cell(FILE *out, const struct figure *f, const struct pz_characteristics *c)
{
    double v;

    memcpy(&v, (const char *)c + f->offset, sizeof(v));
    fprintf(out, f->bytes ? "<td>%.0f</td>" : "<td>%.6f</td>", v);
}

void pz_html_io_rma_rows(FILE *out, const struct pz_analysis *a, const struct pz_node *n,
                         const struct pz_characteristics *m, int with_processes)
{
    struct pz_interval_bounds bounds = pz_interval_bounds(a, n);

    for (size_t f = 0; f < sizeof(figures) / sizeof(*figures); f++) {
        fprintf(out, "<tr><td class=\"name\">%s</td>", figures[f].label);
        figure_cell(out, &figures[f], m);
        for (int p = 0; with_processes && p < a->nprocs; p++) {
            struct pz_characteristics c;

            pz_characteristics_within(n, &bounds, p, &c);
            figure_cell(out, &figures[f], &c);
        }
        fputs("</tr>\n", out);
    }
}

/* The family of the function named name, a large-count form as its sibling. */
static enum pz_call_family family_named(const char *name)
{
    return pz_call_family(pz_int_form_call(name));
}

/* Calls and time of the functions of each family, whole run, all processes. */
struct family_sum {
    unsigned long long calls;
    double time;
};

static void family_row(FILE *out, const char *family, const struct family_sum *s, double mpi,
                       const char *bytes)
{
    fprintf(out, "<tr><td class=\"name\">%s</td><td>%llu</td><td>%.6f</td><td>%.2f</td>"
            "<td class=\"name\">%s</td></tr>\n", family, s->calls, s->time,
            mpi > 0 ? 100 * s->time / mpi : 0, bytes);
}

void pz_html_io_rma_profile(FILE *out, const struct pz_analysis *a)
{
    struct family_sum sum[3] = { { 0, 0 } };
    struct pz_characteristics run;
    char io[128], rma[128];
    double mpi = 0;

    for (int i = 0; i < a->nfunctions; i++) {
        struct family_sum *s = &sum[family_named(a->functions[i].name)];

        s->calls += a->functions[i].calls;
        s->time += a->functions[i].time;
        mpi += a->functions[i].time;
    }
    pz_characteristics_of(a, &a->nodes[0], &run);
    snprintf(io, sizeof(io), "read %.0f B, written %.0f B", run.io_bytes_read,
             run.io_bytes_written);
    snprintf(rma, sizeof(rma), "put %.0f B, got %.0f B", run.rma_bytes_put,
             run.rma_bytes_got);
    fputs("<h2>MPI functions by family</h2>\n<table id=\"families\"><tr><th class=\"name\">"
          "family</th><th>calls</th><th>time</th><th>%MPI</th><th class=\"name\">bytes</th>"
          "</tr>\n", out);
    family_row(out, "I/O", &sum[PZ_FAMILY_IO], mpi, io);
    family_row(out, "one-sided", &sum[PZ_FAMILY_RMA], mpi, rma);
    family_row(out, "other", &sum[PZ_FAMILY_OTHER], mpi, "");
    fputs("</table>\n", out);
}

/* Whether line (len bytes, its newline last) ends in marker and its newline; *kept: the
 * bytes before the marker. */
static int marked(const char *line, size_t len, const char *marker, size_t *kept)
{
    size_t n = strlen(marker);

    if (len < n + 1 || line[len - 1] != '\n' || memcmp(line + len - 1 - n, marker, n) != 0)
        return 0;
    *kept = len - 1 - n;
    return 1;
}

void pz_html_script_lines(FILE *out, const char *const *lines, int io_rma)
{
    for (; *lines; lines++) {
        size_t len = strlen(*lines), kept = len;
        int with = marked(*lines, len, " // io-rma", &kept);
        int without = marked(*lines, len, " // no io-rma", &kept);

        if ((with && !io_rma) || (without && io_rma))
            continue;
        fwrite(*lines, 1, kept, out);
        if (with || without)
            fputc('\n', out);
    }
}

void pz_html_io_rma_script(FILE *out)
{
    fputs("<script>", out);
    for (const char *const *line = pz_html_io_rma_js; *line; line++)
        fputs(*line, out);
    fputs("</script>\n", out);
}
