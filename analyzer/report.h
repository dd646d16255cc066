/* Reports of an analysis: the text report of the seed's layout, JSON for scripts, HTML,
 * and the comparison of predicted runs with the recording (docs/report.md). */
#ifndef PZ_REPORT_H
#define PZ_REPORT_H

#include <stdio.h>

#include "analysis.h"

enum pz_report_format { PZ_REPORT_TEXT, PZ_REPORT_JSON, PZ_REPORT_HTML };

/* Writes the report of every interval, depth first from the whole run; with
 * per_process, every process's values too.  Returns 0, or -1 if writing failed. */
int pz_report_write(FILE *out, const struct pz_analysis *a, enum pz_report_format format,
                    int per_process);

/* The formats (report_text.c, report_json.c, report_html.c). */
int pz_report_text(FILE *out, const struct pz_analysis *a, int per_process);
int pz_report_json(FILE *out, const struct pz_analysis *a, int per_process);
int pz_report_html(FILE *out, const struct pz_analysis *a, int per_process);

/* Writes what a predicted run was predicted on (a machine, for prognoz predict): one
 * line of text for PZ_REPORT_TEXT, a JSON object for PZ_REPORT_JSON. */
typedef void pz_report_describe(FILE *out, enum pz_report_format format, const void *about);

/* What the replay of a predicted run did. */
struct pz_replay_summary {
    double end;                           /* s: the latest thread's end */
    unsigned long long records, calls;    /* trace records and MPI calls replayed */
    const char *compute;                  /* "wall" or "cpu": what timed computations */
    unsigned long long cpu_timed, wall_timed;   /* computations timed by each clock */
};

/* A predicted run in the JSON of a prediction. */
struct pz_predicted {
    const struct pz_analysis *analysis;   /* the predicted run */
    const void *about;                    /* what describe writes it was predicted on */
    const struct pz_replay_summary *replay;
};

/* The JSON of a prediction, the same for one machine and several (docs/report.md,
 * "JSON"): the document's head ("format" prognoz-prediction, the recorded trace and
 * its recording), "recorded": the recording's report, and "predictions": for each run
 * of runs[0..n-1], {"machine": what describe writes, "prediction": the replay's
 * summary, "report": the predicted run's report}.  Returns 0, or -1 if writing failed. */
int pz_report_json_prediction(FILE *out, const struct pz_analysis *recorded,
                              const struct pz_predicted *runs, int n, int per_process,
                              pz_report_describe *describe);

/* A predicted run beside the recording in the comparison (report_compare.c). */
struct pz_compared {
    const char *name;                     /* its column's heading */
    const struct pz_analysis *analysis;   /* the predicted run */
    const void *about;                    /* what describe writes it was predicted on */
};

/* The recorded run and the predicted runs predicted[0..n-1] side by side, per interval
 * of the recording, as text: the description of each predicted run first, then the
 * fields of fields.h that have a row in the comparison.  Returns 0, or -1 if writing
 * failed. */
int pz_report_compare(FILE *out, const struct pz_analysis *recorded,
                      const struct pz_compared *predicted, int n,
                      pz_report_describe *describe);

/* The profile of MPI functions and call sites (report_profile.c). */
void pz_report_text_profile(FILE *out, const struct pz_analysis *a);
void pz_report_json_profile(FILE *out, const struct pz_analysis *a);

/* MPI-IO and one-sided communication (report_io_rma.c), written only when a->io_rma:
 * the text block of interval n (m: its characteristics), with a line per process if
 * with_processes; the JSON members of values c. */
void pz_report_text_io_rma(FILE *out, const struct pz_analysis *a, const struct pz_node *n,
                           const struct pz_characteristics *m, int with_processes);
void pz_report_json_io_rma(FILE *out, const struct pz_analysis *a,
                           const struct pz_characteristics *c);

/* The intervals in report order (report_order.c): depth first, children in order of
 * first execution; fills order[0..a->nnodes-1]. */
void pz_report_order(const struct pz_analysis *a, int *order);

#endif
