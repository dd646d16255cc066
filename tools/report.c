/* prognoz report: the characteristics of a recorded (or predicted) run, for the whole
 * run and every interval. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "commands.h"
#include "long_options.h"
#include "progress_line.h"
#include "report.h"
#include "report_html.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: prognoz report DIR [--format text|json|html] [--per-process] [-o FILE]\n"
            "\n"
            "Analyzes the trace DIR/traces.otf2 (or the archive file given) and prints, for\n"
            "the whole run and every interval, execution time, efficiency, lost, MPI, idle\n"
            "and communication time and their spread over the processes (docs/report.md).\n"
            "\n"
            "  --format FORMAT     text (the default), json, or html (one page)\n"
            "  --per-process       also every process's values\n"
            "  -o FILE             write the report to FILE instead of the standard output\n"
            "  --quiet             no progress on a terminal\n"
            "\nSee prognoz-report(1).\n");
}

struct options {
    const char *trace, *output;
    enum pz_report_format format;
    int per_process, quiet;
};

/* Returns 0, 1 when --help was asked, or 2 on a usage error (already reported). */
static int parse(int argc, char **argv, struct options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];

        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(arg, "--per-process")) {
            o->per_process = 1;
        } else if (!strcmp(arg, "--quiet")) {
            o->quiet = 1;
        } else if (!strcmp(arg, "--format") && i + 1 < argc) {
            arg = argv[++i];
            if (!strcmp(arg, "text"))
                o->format = PZ_REPORT_TEXT;
            else if (!strcmp(arg, "json"))
                o->format = PZ_REPORT_JSON;
            else if (!strcmp(arg, "html"))
                o->format = PZ_REPORT_HTML;
            else {
                fprintf(stderr, "prognoz report: unknown format '%s' (text, json or html)\n",
                        arg);
                return 2;
            }
        } else if (!strcmp(arg, "-o") && i + 1 < argc) {
            o->output = argv[++i];
        } else if (arg[0] != '-' && !o->trace && !pz_long_option_of(arg)) {
            o->trace = arg;
        } else {
            pz_unexpected_argument("report", arg);
            usage(stderr);
            return 2;
        }
    }
    if (!o->trace) {
        fprintf(stderr, "prognoz report: no trace given\n");
        usage(stderr);
        return 2;
    }
    return 0;
}

/* The page, with the timeline of the trace's calls (PROGNOZ_HTML_LIMIT bounds it): 0,
 * -1 if writing failed, -2 for another failure (already said). */
static int html(FILE *out, const struct pz_analysis *a, const struct options *o)
{
    struct pz_html_run run = { .trace = o->trace };
    char err[1024];

    if (pz_html_limit_from_env(&run.limit, err, sizeof(err)) != 0 ||
        pz_report_html_run(out, a, o->per_process, &run, err, sizeof(err)) != 0) {
        if (ferror(out))
            return -1;
        fprintf(stderr, "prognoz report: %s\n", err);
        return -2;
    }
    return 0;
}

int pz_cmd_report(int argc, char **argv)
{
    struct options o = { .format = PZ_REPORT_TEXT };
    struct pz_analysis a;
    struct pz_progress_line progress;
    char err[1024];
    FILE *out = stdout;
    int rc = parse(argc, argv, &o);

    if (rc)
        return rc == 1 ? 0 : 2;
    pz_progress_line_init(&progress, "report", o.quiet);
    rc = pz_analyze_with_progress(o.trace, &a, &progress.hook, err, sizeof(err));
    pz_progress_line_end(&progress);
    if (rc != 0) {
        fprintf(stderr, "prognoz report: %s\n", err);
        return 1;
    }
    if (o.output && !(out = fopen(o.output, "w"))) {
        fprintf(stderr, "prognoz report: cannot write '%s': %s\n", o.output, strerror(errno));
        pz_analysis_free(&a);
        return 1;
    }
    for (int i = 0; i < a.nwarnings; i++)
        fprintf(stderr, "prognoz report: warning: %s\n", a.warnings[i]);
    rc = o.format == PZ_REPORT_HTML ? html(out, &a, &o)
                                    : pz_report_write(out, &a, o.format, o.per_process);
    if (fflush(out) != 0 || ferror(out))
        rc = -1;
    if (out != stdout && fclose(out) != 0)
        rc = -1;
    if (rc == -2) {
        rc = 1;
    } else if (rc != 0) {
        fprintf(stderr, "prognoz report: cannot write '%s': %s\n",
                o.output ? o.output : "the standard output", strerror(errno));
        rc = 1;
    }
    pz_analysis_free(&a);
    return rc;
}
