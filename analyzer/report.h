/* Reports of an analysis: the text report of the seed's layout and JSON for scripts
 * (docs/report.md documents both). */
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

/* The JSON report with more members of the top object: extra is their JSON text
 * ("\"machine\": {...}"), or NULL. */
int pz_report_json_extra(FILE *out, const struct pz_analysis *a, int per_process,
                         const char *extra);

/* The profile of MPI functions and call sites (report_profile.c). */
void pz_report_text_profile(FILE *out, const struct pz_analysis *a);
void pz_report_json_profile(FILE *out, const struct pz_analysis *a);

/* Writes s as a JSON string. */
void pz_json_string(FILE *out, const char *s);

/* The intervals in report order (depth first, children in order of first execution);
 * fills order[0..a->nnodes-1]. */
void pz_report_order(const struct pz_analysis *a, int *order);

#endif
