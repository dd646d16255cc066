/* The interactive HTML report: one self-contained page whose script (report_html.js,
 * embedded at build time) draws the tree of intervals, the chosen interval's
 * characteristics, comparative table, wait states, advice and per-process chart, and a
 * timeline of every thread from the data the page embeds as JSON (docs/report.md).
 *
 * The page's data: the JSON report itself (report_json.c, so that the page shows its
 * numbers), the run's identity, every process's share of every interval, and the
 * timeline read from the trace in a pass of its own (report_html_timeline.c): every MPI
 * call when they fit in the size limit, else per lane and pixel column the time of each
 * class of calls (report_html_buckets.c).  The limit bounds the timeline and the
 * per-process data whatever the trace's size; the page says what it reduced.
 *
 * A prediction on several machines has one page for all (pz_report_html_compare): each
 * run's data as above, and a second script (report_html_machines.js) that puts the
 * runs side by side and lets the reader choose the one the views show. */
#ifndef PZ_REPORT_HTML_H
#define PZ_REPORT_HTML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"

/* Bytes of embedded data by default (PROGNOZ_HTML_LIMIT overrides). */
#define PZ_HTML_DEFAULT_LIMIT (20ull << 20)

/* What the page shows of the run beyond its analysis. */
struct pz_html_run {
    const char *trace;       /* the trace's path (DIR or DIR/traces.otf2): its identity and
                                the timeline's events; NULL: no timeline */
    const char *machine;     /* a prediction: what it was predicted on, one line
                                (pz_machine_summary's); NULL for a recorded run */
    uint64_t limit;          /* bytes of embedded data; 0: PZ_HTML_DEFAULT_LIMIT */
};

/* Writes the page of analysis a (with per_process, the per-process values in the tables
 * too).  Returns 0, or -1 with a one-line message in err: a write error, or a trace that
 * cannot be read again for the timeline. */
int pz_report_html_run(FILE *out, const struct pz_analysis *a, int per_process,
                       const struct pz_html_run *run, char *err, size_t errlen);

/* A predicted run in the page of several machines. */
struct pz_html_predicted {
    const char *name;        /* the machine's short name: its column's heading */
    const char *machine;     /* what it was predicted on, one line */
    const char *trace;       /* the predicted trace (its timeline); NULL: none kept */
    const struct pz_analysis *analysis;
};

/* Writes the page of the recorded run (analysis recorded, its trace run->trace) and the
 * runs predicted from it on n machines side by side: per interval, every run's values in
 * columns, and a selector of the run whose tree, details, per-process chart and
 * timeline the page shows, each run's data within run->limit / (n + 1) bytes.  The
 * tables without script give the recorded run's values and comparison, the text
 * comparison of the runs.  Returns as pz_report_html_run. */
int pz_report_html_compare(FILE *out, const struct pz_analysis *recorded,
                           const struct pz_html_predicted *runs, int n,
                           const struct pz_html_run *run, const char *comparison, char *err,
                           size_t errlen);

/* The limit PROGNOZ_HTML_LIMIT sets: bytes, with an optional suffix k, M or G (powers of
 * 1024); PZ_HTML_DEFAULT_LIMIT when unset.  -1 with a message in err if it is not a
 * positive size. */
int pz_html_limit_from_env(uint64_t *limit, char *err, size_t errlen);

/* --- the reduced timeline (report_html_buckets.c) */

/* The classes of calls drawn, as trace/call_class.h numbers them; on the page of a run
 * that made MPI-IO or one-sided calls, two more: the calls of those families
 * (trace/call_family.h), whatever their class. */
#define PZ_HTML_CLASSES 6
#define PZ_HTML_IO_CLASS 6
#define PZ_HTML_RMA_CLASS 7
#define PZ_HTML_IO_RMA_CLASSES 8

/* Per lane and column, the ns each class of calls took in it.  Columns of width ns
 * cover [0, columns * width); an event beyond doubles the width, folding the columns in
 * pairs, as often as needed: memory stays lanes * columns * classes floats. */
struct pz_html_buckets {
    int lanes, columns;
    int classes;             /* PZ_HTML_CLASSES or PZ_HTML_IO_RMA_CLASSES */
    double width;            /* ns per column */
    double end;              /* ns: the latest end added */
    float *ns;               /* [lane][column][class] */
};

/* 0, or -1 if memory ran out.  columns >= 2 and even; classes of calls 1 to
 * PZ_HTML_IO_RMA_CLASSES; width > 0. */
int pz_html_buckets_init(struct pz_html_buckets *b, int lanes, int columns, int classes,
                         double width);
void pz_html_buckets_free(struct pz_html_buckets *b);

/* Adds a call of class cls on lane from ns `from` to `to` (0 <= from <= to). */
void pz_html_buckets_add(struct pz_html_buckets *b, int lane, int cls, double from,
                         double to);

/* Writes the buckets as JSON: {"column_ns": width, "columns": the columns up to the
 * latest end, "lanes": [per lane [[column, share of class 0, ..., share of the last
 * class], ...] for the columns with calls]}; a share is in 1/10000 of the column, at
 * least 1 for a class with any time there.  Returns the bytes written. */
uint64_t pz_html_buckets_write(FILE *out, const struct pz_html_buckets *b);

/* The most bytes pz_html_buckets_write writes per lane and column with calls of
 * `classes` classes: a column's number and its shares, each with its comma. */
#define PZ_HTML_BUCKET_BYTES(classes) (12 + 6 * (classes))

/* --- the page's data */

/* Writes len bytes of JSON into a <script> element: '<', '>' and '&', which JSON has
 * only in strings, as \u003c, \u003e and \u0026 (the same strings), so that nothing in
 * the data ends the element or reads as markup. */
void pz_html_embed(FILE *out, const char *json, size_t len);

/* Every process's share of every interval, in report order (order[i]: the node), for
 * the per-process charts: {"group": k, "values": [per interval [per group of k
 * processes [productive, insufficient parallelism, communication less synchronization,
 * synchronization, other MPI, idle, execution time]]]}, the groups' means, k the
 * smallest that keeps the JSON under bound bytes (1: every process).  With io_rma (the
 * page of a run that made MPI-IO or one-sided calls) other MPI is split: [productive,
 * insufficient parallelism, communication less synchronization, synchronization, I/O,
 * one-sided, the rest of MPI time, idle, execution time]. */
void pz_html_processes(FILE *out, const struct pz_analysis *a, const int *order,
                       uint64_t bound, int io_rma);

/* s as a JSON string fit for pz_html_embed's element: pz_json_string's, with '<', '>'
 * and '&' as \u003c, \u003e and \u0026. */
void pz_html_json_string(FILE *out, const char *s);

/* Writes to out, fit for the page's data element, the timeline of the run at trace as
 * JSON (docs/report.md): every call if they fit in their share of limit bytes, else the
 * buckets; interval executions as bands when they fit too.  position[node] is the
 * interval's index in the report.  With io_rma (the page of a run that made MPI-IO or
 * one-sided calls) the classes are PZ_HTML_IO_RMA_CLASSES, else PZ_HTML_CLASSES.
 * Returns 0, or -1 with a message in err and nothing written. */
int pz_html_timeline(FILE *out, const char *trace, const struct pz_analysis *a,
                     const int *position, uint64_t limit, int io_rma, char *err,
                     size_t errlen);

/* --- MPI-IO and one-sided communication (report_html_io_rma.c), written only on the
 * page of a run whose analysis has io_rma set */

/* The legend's entries of I/O and one-sided time. */
void pz_html_io_rma_legend(FILE *out);

/* The bar of m's time: productive, insufficient parallelism, communication, I/O,
 * one-sided, the rest of MPI time, idle. */
void pz_html_io_rma_bar(FILE *out, const struct pz_characteristics *m);

/* The intervals table's two columns, I/O and one-sided time: headings and cells. */
void pz_html_io_rma_heads(FILE *out);
void pz_html_io_rma_cells(FILE *out, const struct pz_characteristics *m);

/* The characteristics table's rows of interval n (its values m): I/O and one-sided time
 * and their bytes, with with_processes a cell per process. */
void pz_html_io_rma_rows(FILE *out, const struct pz_analysis *a, const struct pz_node *n,
                         const struct pz_characteristics *m, int with_processes);

/* The MPI functions by family (I/O, one-sided, other): calls, time and share of MPI time
 * over the whole run and all processes, and the bytes of the I/O and one-sided
 * operations. */
void pz_html_io_rma_profile(FILE *out, const struct pz_analysis *a);

/* The script (report_html_io_rma.js) that adds their table to the interactive views. */
void pz_html_io_rma_script(FILE *out);

/* Writes the lines of a script embedded at build time (NULL-terminated, each ending in
 * a newline) for a page with io_rma set or not: a line that ends in " // io-rma" only on
 * a page with, one that ends in " // no io-rma" only on a page without, the marker left
 * out; the others on both.  The page's script (report_html.js) draws I/O and one-sided
 * time in its views so, and that of the page of several machines
 * (report_html_machines.js) shows their bytes so; both are on the other pages as they
 * were before them. */
void pz_html_script_lines(FILE *out, const char *const *lines, int io_rma);

#endif
