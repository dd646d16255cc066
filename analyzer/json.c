/* JSON strings, and the head of every document, for the reports. */
#include "analysis.h"
#include "defs.h"
#include "json.h"

/* A JSON string for text that may hold any byte. */
void pz_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;

        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

void pz_json_format(FILE *out, const char *name)
{
    fputs("\"format\": {\"name\": ", out);
    pz_json_string(out, name);
    fprintf(out, ", \"version\": %d},\n\"prognoz\": ", PZ_JSON_FORMAT_VERSION);
    pz_json_string(out, PACKAGE_VERSION);
    fputs(",\n", out);
}

/* A string, or null. */
static void string_or_null(FILE *out, const char *s)
{
    if (s)
        pz_json_string(out, s);
    else
        fputs("null", out);
}

static void nodes(FILE *out, const struct pz_recording *r)
{
    fputs("\"nodes\": [", out);
    for (int i = 0; r && i < r->nnodes; i++) {
        fputs(i ? ", {\"name\": " : "{\"name\": ", out);
        pz_json_string(out, r->nodes[i].name);
        fprintf(out, ", \"processes\": %d, \"cores\": ", r->nodes[i].processes);
        if (r->nodes[i].cores > 0)
            fprintf(out, "%d}", r->nodes[i].cores);
        else
            fputs("null}", out);
    }
    fputc(']', out);
}

void pz_json_document_head(FILE *out, const char *name, const struct pz_analysis *a)
{
    const struct pz_recording *r = a->recording;

    pz_json_format(out, name);
    fputs("\"trace\": ", out);
    string_or_null(out, a->trace);
    fprintf(out, ",\n\"recording\": {\"program\": ");
    string_or_null(out, r ? r->program : NULL);
    fputs(", \"date\": ", out);
    string_or_null(out, r ? r->date : NULL);
    fputs(", \"mpi_library\": ", out);
    string_or_null(out, r ? r->mpi_library : NULL);
    fprintf(out, ", \"processes\": %d, \"threads\": %d, ", a->nranks, a->nprocs);
    nodes(out, r);
    fprintf(out, ", \"cpu_times\": %s, \"oversubscribed\": %s},\n",
            r && r->cpu_times ? "true" : "false",
            r && pz_recording_oversubscribed(r) ? "true" : "false");
}
