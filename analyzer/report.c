/* The choice of the report format. */
#include <stdio.h>

#include "report.h"

int pz_report_write(FILE *out, const struct pz_analysis *a, enum pz_report_format format,
                    int per_process)
{
    switch (format) {
    case PZ_REPORT_JSON:
        return pz_report_json(out, a, per_process);
    case PZ_REPORT_HTML:
        return pz_report_html(out, a, per_process);
    default:
        return pz_report_text(out, a, per_process);
    }
}
