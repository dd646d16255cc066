/* The scaling report: its table once, then the format asked for. */
#include "scale_report_table.h"

int pz_scale_report_write(FILE *out, enum pz_report_format format,
                          const struct pz_scale_input *in)
{
    struct pz_scale_table t;
    int status;

    if (!in->nseries)
        return -1;
    for (size_t m = 0; m < in->nseries; m++)
        if (!in->series[m].n)
            return -1;
    if (pz_scale_table_build(in, &t))
        return -1;
    switch (format) {
    case PZ_REPORT_JSON:
        status = pz_scale_report_json(out, &t);
        break;
    case PZ_REPORT_HTML:
        status = pz_scale_report_html(out, &t);
        break;
    default:
        status = pz_scale_report_text(out, &t);
    }
    pz_scale_table_free(&t);
    return status;
}
