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

int pz_scale_note_shown(const struct pz_scale_input *in, size_t k, char *buf, size_t size)
{
    if (k < PZ_SCALE_SHOWN_MODEL_NOTES || k >= in->model_notes)
        return 1;
    if (k > PZ_SCALE_SHOWN_MODEL_NOTES)
        return 0;
    snprintf(buf, size, "and %zu more notes of the model: --format json lists every one",
             in->model_notes - PZ_SCALE_SHOWN_MODEL_NOTES);
    return 2;
}
