/* prognoz predict: a recorded run replayed on models of other clusters, reported like
 * a recorded one (one machine) or side by side with the recording (several). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"
#include "commands.h"
#include "engine.h"
#include "long_options.h"
#include "machine.h"
#include "machine_options.h"
#include "open.h"
#include "partial_notice.h"
#include "progress_line.h"
#include "report.h"
#include "report_html.h"
#include "temporary.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: prognoz predict DIR --machine FILE [--machine FILE ...] [options]\n"
            "\n"
            "Replays the run recorded in DIR on the model of each machine (docs/machines.md,\n"
            "share/machines/) and reports it: with one machine, the report of prognoz report\n"
            "for the predicted run; with several, the recording and each machine side by side.\n"
            "\n"
            "  --machine FILE      a machine file, or the name of a shipped one (repeatable,\n"
            "                      up to 16): ethernet-100-hub, gigabit-switch, myrinet-2proc\n"
            "  --format FORMAT     text (the default), json, or html\n"
            "  --per-process       also every process's values (one machine)\n"
            "  -o FILE             write the report to FILE instead of the standard output\n"
            "  --trace-out DIR     also write the predicted trace: DIR/traces.otf2, or with\n"
            "                      several machines DIR/NAME/traces.otf2 per machine\n"
            "  --quiet             no progress on a terminal\n"
            "  --compute wall|cpu  computation from the recorded wall-clock time (default), or\n"
            "                      from the CPU time recorded with PROGNOZ_CPU_TIME=1 (the\n"
            "                      default for a run recorded with more processes than cores)\n"
            "  --mpi SET           the collective algorithms: mpich1, mpich-1.2.5, mpich4,\n"
            "                      openmpi4\n"
            "  --coll OP=ALGO      force an algorithm, e.g. allgather=bruck (repeatable;\n"
            "                      docs/collectives.md)\n"
            "\nSee prognoz-predict(1).\n");
}

struct options {
    const char *trace, *output, *trace_out;
    int per_process, quiet;
    enum pz_report_format format;
    struct pz_machine_options m;
    struct pz_progress_line *progress;
};

/* One option with its value at argv[*i]; 0, or 2 after reporting a usage error. */
static int parse_valued(int argc, char **argv, int *i, struct options *o)
{
    const char *opt = argv[*i], *val = *i + 1 < argc ? argv[++*i] : NULL;

    if (!val) {
        fprintf(stderr, "prognoz predict: %s needs a value\n", opt);
        return 2;
    }
    if (pz_machine_option_is(opt))
        return pz_machine_option("predict", opt, val, &o->m);
    if (!strcmp(opt, "-o") || !strcmp(opt, "--trace-out")) {
        *(!strcmp(opt, "-o") ? &o->output : &o->trace_out) = val;
        return 0;
    }
    if (pz_format_parse(val, &o->format) == 0)
        return 0;
    fprintf(stderr, "prognoz predict: unknown format '%s' (text, json or html)\n", val);
    return 2;
}

static int is_valued(const char *arg)
{
    return pz_machine_option_is(arg) || !strcmp(arg, "--format") || !strcmp(arg, "-o") ||
           !strcmp(arg, "--trace-out");
}

/* Returns 0, 1 when --help was asked, or 2 on a usage error (already reported). */
static int parse(int argc, char **argv, struct options *o)
{
    struct stat st;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(argv[i], "--per-process")) {
            o->per_process = 1;
        } else if (!strcmp(argv[i], "--quiet")) {
            o->quiet = 1;
        } else if (is_valued(argv[i])) {
            if (parse_valued(argc, argv, &i, o) != 0)
                return 2;
        } else if (argv[i][0] != '-' && !o->trace && !pz_long_option_of(argv[i])) {
            o->trace = argv[i];
        } else {
            pz_unexpected_argument("predict", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (!o->trace || !o->m.nmachines) {
        fprintf(stderr, "prognoz predict: %s\n", !o->trace ? "no trace given" : "no --machine given");
        usage(stderr);
        return 2;
    }
    if (o->m.nmachines > 1 && o->per_process) {
        fprintf(stderr, "prognoz predict: --per-process takes one machine\n");
        return 2;
    }
    if (o->output && stat(o->output, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "prognoz predict: -o '%s' is a directory: -o names the report's file, "
                "--trace-out DIR writes the predicted trace\n", o->output);
        return 2;
    }
    return 0;
}

/* A recording of more processes than cores, said in one line: computations are then
 * timed by the recorded CPU times when the trace has them and --compute did not say
 * otherwise, the wall clock's times being stretched by the waits for a core. */
static void check_recording(struct options *o)
{
    struct pz_trace_file f;
    struct pz_defs defs;
    char line[512];

    if (pz_trace_file_open(&f, o->trace, &defs) == 0 &&
        pz_recording_caveat(&defs.recording, line, sizeof(line))) {
        if (defs.recording.cpu_times && !o->m.compute_given)
            o->m.compute_cpu = 1;
        fprintf(stderr, "prognoz predict: %s; %s\n", line,
                o->m.compute_cpu && defs.recording.cpu_times
                    ? "computations are timed by the CPU times it recorded"
                : defs.recording.cpu_times
                    ? "--compute cpu would time them by the CPU times it recorded"
                    : "record it with PROGNOZ_CPU_TIME=1 to time them by CPU time");
    }
    pz_trace_file_close(&f);
    pz_defs_release(&defs);
}

/* The run's MPI-IO, which the model has no file system for, said in one line when it
 * has some: its calls take their recorded time times each machine's io_scale. */
static void io_notice(const struct pz_machine *m, const struct pz_prediction *results, int n)
{
    if (n == 0 || results[0].io_calls == 0)
        return;
    fprintf(stderr, "prognoz predict: I/O is not modelled: the run's %llu MPI-IO calls are "
            "replayed at their recorded time x io_scale (",
            (unsigned long long)results[0].io_calls);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s%s %g", i ? ", " : "", m[i].name, m[i].io_scale);
    fprintf(stderr, ")\n");
}

/* Where the predicted trace of machine i goes: --trace-out, --trace-out/NAME, or a
 * directory of its own under $TMPDIR (*temporary set) removed after the report. */
static int trace_dir(const struct options *o, const struct pz_machine *m, char *dir,
                     size_t len, int *temporary)
{
    *temporary = !o->trace_out;
    if (o->trace_out && o->m.nmachines == 1) {
        snprintf(dir, len, "%s", o->trace_out);
    } else if (o->trace_out) {
        if ((mkdir(o->trace_out, 0777) != 0 && errno != EEXIST) ||
            snprintf(dir, len, "%s/%s", o->trace_out, m->name) >= (int)len)
            return -1;
    } else if (pz_temporary_make("predict", dir, len) != 0) {
        return -1;
    }
    return 0;
}

/* Predicts the run on machine m into *a and *result; endings, when the recording is
 * partial, says how its processes ended (pz_partial_endings): the replay then ends
 * where no process can go on when a process's recording ended before MPI_Finalize (it
 * leaves its partners waiting), and says so, and an error says the recording is
 * partial. */
static int predict_one(const struct options *o, const struct pz_machine *m,
                       const char *endings, struct pz_analysis *a,
                       struct pz_prediction *result)
{
    struct pz_predict_options po = { .machine = m, .compute_cpu = o->m.compute_cpu,
                                     .progress = &o->progress->hook };
    char dir[4096], err[8192];
    int temporary, rc = -1;

    memcpy(po.forced, o->m.forced, sizeof(po.forced));
    po.stop_when_stuck = endings != NULL;
    if (trace_dir(o, m, dir, sizeof(dir), &temporary) != 0) {
        fprintf(stderr, "prognoz predict: cannot create a directory for the predicted trace "
                "'%s': %s\n", dir, strerror(errno));
        return -1;
    }
    po.output = dir;
    if (pz_predict(o->trace, &po, result, err, sizeof(err)) != 0) {
        pz_progress_line_end(o->progress);
        fprintf(stderr, "prognoz predict: %s%s%s%s\n", err,
                endings ? " (the recording is partial: " : "", endings ? endings : "",
                endings ? ")" : "");
    } else if (pz_analyze_with_progress(dir, a, &o->progress->hook, err, sizeof(err)) != 0) {
        pz_progress_line_end(o->progress);
        fprintf(stderr, "prognoz predict: the predicted trace: %s\n", err);
    } else {
        rc = 0;
        pz_progress_line_end(o->progress);
        if (result->stopped[0])
            fprintf(stderr, "prognoz predict: the recording is partial: on %s the replay ends "
                    "at %.6f s, where %s, for a process whose recording had ended; what was "
                    "recorded after that is not predicted\n", m->name, result->end,
                    result->stopped);
        if (o->m.compute_cpu && result->cpu_gaps == 0 && result->wall_gaps > 0)
            fprintf(stderr, "prognoz predict: warning: %s has no CPU times (record with "
                    "PROGNOZ_CPU_TIME=1): computations are timed by the wall clock\n",
                    o->trace);
    }
    if (temporary)
        pz_temporary_remove(dir);
    return rc;
}

/* What the reports say of the machine a run was predicted on. */
static void describe(FILE *out, enum pz_report_format format, const void *machine)
{
    if (format == PZ_REPORT_JSON)
        pz_machine_write_json(out, machine);
    else
        pz_machine_summary(out, machine);
}

/* What the replay of machine m did, for the JSON. */
static struct pz_replay_summary replay_summary(const struct options *o,
                                               const struct pz_prediction *p)
{
    return (struct pz_replay_summary){
        .end = p->end, .records = p->records, .calls = p->calls,
        .compute = o->m.compute_cpu ? "cpu" : "wall", .cpu_timed = p->cpu_gaps,
        .wall_timed = p->wall_gaps,
    };
}

/* Machine m's one-line summary, in memory; NULL if memory ran out. */
static char *summary_of(const struct pz_machine *m)
{
    char *summary = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&summary, &len);

    if (!f)
        return NULL;
    pz_machine_summary(f, m);
    if (fclose(f) != 0) {
        free(summary);
        return NULL;
    }
    summary[strcspn(summary, "\n")] = '\0';
    return summary;
}

/* The page of a predicted run into out: marked as a prediction on machine m, with the
 * timeline of the predicted trace when it is kept (--trace-out). */
static int html(FILE *out, const struct options *o, const struct pz_machine *m,
                const struct pz_analysis *a)
{
    struct pz_html_run run = { .trace = o->trace_out, .machine = summary_of(m) };
    char err[1024];
    int rc;

    if (!run.machine)
        return -1;
    rc = pz_html_limit_from_env(&run.limit, err, sizeof(err));
    if (rc == 0)
        rc = pz_report_html_run(out, a, o->per_process, &run, err, sizeof(err));
    if (rc != 0)
        fprintf(stderr, "prognoz predict: %s\n", err);
    free((char *)run.machine);
    return rc;
}

/* The text comparison of runs[] with the recording, in memory; NULL if memory ran out. */
static char *comparison_text(const struct pz_analysis *recorded,
                             const struct pz_compared *runs, int n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    if (!f)
        return NULL;
    if (pz_report_compare(f, recorded, runs, n, describe) != 0 || fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* The page of the recording and the predictions side by side, each machine's timeline
 * from its predicted trace when kept (--trace-out DIR: DIR/NAME). */
static int html_compare(FILE *out, const struct options *o, const struct pz_machine *m,
                        const struct pz_analysis *recorded, const struct pz_analysis *a,
                        const struct pz_compared *compared)
{
    struct pz_html_predicted runs[PZ_MAX_MACHINES];
    char traces[PZ_MAX_MACHINES][4096], err[1024];
    struct pz_html_run run = { .trace = o->trace };
    char *comparison = comparison_text(recorded, compared, o->m.nmachines);
    int n = 0, rc = -1;

    for (; comparison && n < o->m.nmachines; n++) {
        if (snprintf(traces[n], sizeof(traces[n]), "%s/%s", o->trace_out ? o->trace_out : "",
                     m[n].name) >= (int)sizeof(traces[n]))
            break;
        runs[n] = (struct pz_html_predicted){ m[n].name, summary_of(&m[n]),
                                              o->trace_out ? traces[n] : NULL, &a[n] };
        if (!runs[n].machine)
            break;
    }
    if (n < o->m.nmachines)
        snprintf(err, sizeof(err), "out of memory, or a path too long under '%s'",
                 o->trace_out ? o->trace_out : "");
    else if ((rc = pz_html_limit_from_env(&run.limit, err, sizeof(err))) == 0)
        rc = pz_report_html_compare(out, recorded, runs, n, &run, comparison, err,
                                    sizeof(err));
    if (rc != 0)
        fprintf(stderr, "prognoz predict: %s\n", err);
    while (n-- > 0)
        free((char *)runs[n].machine);
    free(comparison);
    return rc;
}

/* The JSON of the prediction on every machine: the recording's report first. */
static int write_json(FILE *out, const struct options *o, const struct pz_machine *m,
                      const struct pz_analysis *recorded, const struct pz_analysis *a,
                      const struct pz_prediction *results)
{
    struct pz_replay_summary r[PZ_MAX_MACHINES];
    struct pz_predicted runs[PZ_MAX_MACHINES];

    for (int i = 0; i < o->m.nmachines; i++) {
        r[i] = replay_summary(o, &results[i]);
        runs[i] = (struct pz_predicted){ &a[i], &m[i], &r[i] };
    }
    return pz_report_json_prediction(out, recorded, runs, o->m.nmachines, o->per_process,
                                     describe);
}

/* The report of the predictions a[] on machines m[] into out: JSON; the predicted run
 * after its machine (one machine); or the recorded one and each machine side by side. */
static int write_to(FILE *out, const struct options *o, const struct pz_machine *m,
                    const struct pz_analysis *recorded, const struct pz_analysis *a,
                    const struct pz_prediction *results)
{
    struct pz_compared runs[PZ_MAX_MACHINES];

    if (o->format == PZ_REPORT_JSON)
        return write_json(out, o, m, recorded, a, results);
    if (o->m.nmachines == 1) {
        if (o->format == PZ_REPORT_HTML)
            return html(out, o, m, a);
        if (o->format == PZ_REPORT_TEXT)
            describe(out, o->format, m);
        return pz_report_write(out, a, o->format, o->per_process);
    }
    if (recorded->partial)
        pz_partial_notice(out, "", recorded->partial);
    for (int i = 0; i < o->m.nmachines; i++)
        runs[i] = (struct pz_compared){ m[i].name, &a[i], &m[i] };
    if (o->format == PZ_REPORT_HTML)
        return html_compare(out, o, m, recorded, a, runs);
    return pz_report_compare(out, recorded, runs, o->m.nmachines, describe);
}

/* Whether the report shows the recorded run: JSON, and the side-by-side table. */
static int needs_recorded(const struct options *o)
{
    return o->format == PZ_REPORT_JSON || o->m.nmachines > 1;
}

/* The report, to -o's file or the standard output; the exit status. */
static int write_report(const struct options *o, const struct pz_machine *m,
                        const struct pz_analysis *a, const struct pz_prediction *results)
{
    struct pz_analysis recorded;
    char err[8192];
    FILE *out;
    int rc = 0;

    if (needs_recorded(o)) {
        rc = pz_analyze_with_progress(o->trace, &recorded, &o->progress->hook, err,
                                      sizeof(err));
        pz_progress_line_end(o->progress);
        if (rc != 0) {
            fprintf(stderr, "prognoz predict: %s\n", err);
            return 1;
        }
    }
    if (!(out = o->output ? fopen(o->output, "w") : stdout)) {
        fprintf(stderr, "prognoz predict: cannot write '%s': %s\n", o->output,
                strerror(errno));
        rc = -1;
    } else {
        rc = write_to(out, o, m, needs_recorded(o) ? &recorded : NULL, a, results);
        if (fflush(out) != 0 || ferror(out))
            rc = -1;
        if (out != stdout && fclose(out) != 0)
            rc = -1;
        if (rc != 0)
            fprintf(stderr, "prognoz predict: cannot write '%s': %s\n",
                    o->output ? o->output : "the standard output", strerror(errno));
    }
    if (needs_recorded(o))
        pz_analysis_free(&recorded);
    return rc != 0;
}

int pz_cmd_predict(int argc, char **argv)
{
    struct options o = { .format = PZ_REPORT_TEXT };
    struct pz_machine m[PZ_MAX_MACHINES];
    struct pz_analysis a[PZ_MAX_MACHINES];
    struct pz_prediction results[PZ_MAX_MACHINES];
    struct pz_progress_line progress;
    char *endings;
    int rc = parse(argc, argv, &o), done = 0;

    if (rc)
        return rc == 1 ? 0 : 2;
    pz_progress_line_init(&progress, "predict", o.quiet);
    o.progress = &progress;
    check_recording(&o);
    pz_temporary_clean_up_on_signals();
    if (pz_machine_options_load("predict", &o.m, m) != 0)
        return 1;
    endings = pz_partial_endings(o.trace);
    while (done < o.m.nmachines && predict_one(&o, &m[done], endings, &a[done], &results[done]) == 0) {
        /* a predicted run of a partial trace is partial too: its report says so */
        a[done].partial = endings ? strdup(endings) : NULL;
        done++;
    }
    free(endings);
    if (done == o.m.nmachines)
        io_notice(m, results, done);
    rc = done == o.m.nmachines ? write_report(&o, m, a, results) : 1;
    for (int i = 0; i < done; i++)
        pz_analysis_free(&a[i]);
    for (int i = 0; i < o.m.nmachines; i++)
        pz_machine_release(&m[i]);
    return rc;
}
