/* prognoz scale: recordings of one program at a few process counts, extrapolated to
 * other counts and predicted on models of clusters (docs/predict.md, "Scaling"). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"
#include "commands.h"
#include "engine.h"
#include "long_options.h"
#include "machine_options.h"
#include "open.h"
#include "progress_line.h"
#include "scale_archive.h"
#include "scale_job.h"
#include "scale_local.h"
#include "scale_memory.h"
#include "scale_replay.h"
#include "scale_report.h"

/* Predicted records between two looks at the clock of the progress line */
#define PROGRESS_EVERY 4096

static void usage(FILE *out)
{
    fprintf(out,
            "usage: prognoz scale DIR DIR DIR ... --ranks N[,N...] --machine FILE [options]\n"
            "\n"
            "Models the program recorded in the DIRs (one recording per process count, say\n"
            "2, 4 and 8 processes) as a function of the process count, synthesizes its run\n"
            "at each count asked for and at the recorded ones, replays each on the model of\n"
            "each machine and reports time, speedup, efficiency and lost time per interval\n"
            "(docs/predict.md, \"Scaling\").\n"
            "\n"
            "  --ranks N,N...      the process counts to predict (up to %d)\n"
            "  --machine FILE      a machine file, or the name of a shipped one (repeatable,\n"
            "                      up to %d): ethernet-100-hub, gigabit-switch, myrinet-2proc\n"
            "  --format FORMAT     text (the default), json, or html (a page with plots)\n"
            "  -o FILE             write the report to FILE instead of the standard output\n"
            "  --trace-out DIR     also write each synthesized run as DIR/P<N>/traces.otf2\n"
            "                      (DIR/P<N>-block<K> or -cyclic<K> per machines' nodes\n"
            "                      where the program splits by node and they differ)\n"
            "  --compute wall|cpu  computation from the recorded wall-clock time (default), or\n"
            "                      from the CPU time recorded with PROGNOZ_CPU_TIME=1 (use it\n"
            "                      when the recordings ran more processes than cores)\n"
            "  --mpi SET           the collective algorithms: mpich1, mpich-1.2.5, mpich4,\n"
            "                      openmpi4\n"
            "  --replay-passes auto|all|sample\n"
            "                      replay every pass of the program's main loop (all), or\n"
            "                      a sample of them and the rest at the rate they settled at\n"
            "                      (sample, where the loop makes %d passes or more); auto,\n"
            "                      the default: a sample in runs of over 2^26 records\n"
            "  --coll OP=ALGO      force an algorithm, e.g. allgather=bruck (repeatable;\n"
            "                      docs/collectives.md)\n"
            "  --quiet             no progress on a terminal\n"
            "\nSee prognoz-scale(1).\n",
            MAX_COUNTS, PZ_MAX_MACHINES, PZ_PASSES_LEAST);
}

/* "16,64,256" into o->counts; 0, or -1 (a count missing too: "", "16,", "16,,32"). */
static int parse_ranks(const char *s, struct options *o)
{
    for (;;) {
        char *end;
        long n;

        errno = 0;
        n = strtol(s, &end, 10);
        if (end == s || errno || n < 1 || n > MAX_RANKS || (*end && *end != ',') ||
            o->ncounts == MAX_COUNTS)
            return -1;
        o->counts[o->ncounts++] = (int)n;
        if (!*end)
            return 0;
        s = end + 1;
    }
}

/* --replay-passes's value; 0, or 2 after reporting a usage error. */
static int parse_passes(const char *val, struct options *o)
{
    static const char *const names[] = { "auto", "all", "sample" };

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcmp(val, names[i])) {
            o->passes = (enum replay_passes)i;
            return 0;
        }
    fprintf(stderr, "prognoz scale: --replay-passes '%s': expected auto, all or sample\n", val);
    return 2;
}

/* One option with its value at argv[*i]; 0, or 2 after reporting a usage error. */
static int parse_valued(int argc, char **argv, int *i, struct options *o)
{
    const char *opt = argv[*i], *val = *i + 1 < argc ? argv[++*i] : NULL;

    if (!val) {
        fprintf(stderr, "prognoz scale: %s needs a value\n", opt);
        return 2;
    }
    if (pz_machine_option_is(opt))
        return pz_machine_option("scale", opt, val, &o->m);
    if (!strcmp(opt, "-o")) {
        o->output = val;
    } else if (!strcmp(opt, "--trace-out")) {
        o->trace_out = val;
    } else if (!strcmp(opt, "--replay-passes")) {
        return parse_passes(val, o);
    } else if (!strcmp(opt, "--ranks")) {
        if (parse_ranks(val, o) != 0) {
            fprintf(stderr, "prognoz scale: --ranks '%s': expected process counts from 1 to "
                    "%d separated by commas, at most %d\n", val, MAX_RANKS, MAX_COUNTS);
            return 2;
        }
    } else if (pz_format_parse(val, &o->format) != 0) {
        fprintf(stderr, "prognoz scale: unknown format '%s' (text, json or html)\n", val);
        return 2;
    }
    return 0;
}

static int is_valued(const char *arg)
{
    static const char *const valued[] = { "--format", "-o", "--trace-out", "--ranks",
                                          "--replay-passes" };

    for (size_t i = 0; i < sizeof(valued) / sizeof(valued[0]); i++)
        if (!strcmp(arg, valued[i]))
            return 1;
    return pz_machine_option_is(arg);
}

/* Returns 0, 1 when --help was asked, or 2 on a usage error (already reported). */
static int parse(int argc, char **argv, struct options *o)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(argv[i], "--quiet")) {
            o->quiet = 1;
        } else if (is_valued(argv[i])) {
            if (parse_valued(argc, argv, &i, o) != 0)
                return 2;
        } else if (argv[i][0] != '-' && !pz_long_option_of(argv[i])) {
            if (o->nrecordings == MAX_RECORDINGS) {
                fprintf(stderr, "prognoz scale: %s: at most %d recordings\n", argv[i],
                        MAX_RECORDINGS);
                return 2;
            }
            o->recordings[o->nrecordings++] = argv[i];
        } else {
            pz_unexpected_argument("scale", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (!o->nrecordings || !o->m.nmachines || !o->ncounts) {
        fprintf(stderr, "prognoz scale: %s\n", !o->nrecordings ? "no recording given" :
                !o->m.nmachines ? "no --machine given" : "no --ranks given");
        usage(stderr);
        return 2;
    }
    return 0;
}

/* An error, on a line of its own: the progress line is erased first. */
static void complain(const struct job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void complain(const struct job *j, const char *fmt, ...)
{
    va_list ap;

    pz_progress_line_end(j->progress);
    fputs("prognoz scale: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Reads again, in ndims dimensions, the recordings whose grid was inferred in fewer:
 * at a small count a grid of fewer dimensions fits as well. */
static int read_in_dimensions(struct job *j, int ndims, int first_fastest, char *err,
                              size_t errlen)
{
    for (int r = 0; r < j->nruns; r++) {
        struct pz_scale_run *run = &j->runs[r];

        if (run->grid.from_topology || run->grid.ndims >= ndims)
            continue;
        pz_progress_line_phase(j->progress, "reading recording %d of %d again (%s)", r + 1,
                               j->nruns, j->o->recordings[r]);
        pz_scale_run_free(run);
        j->folded[r] = 0;
        if (pz_scale_run_read_layout(j->o->recordings[r], ndims, first_fastest, run, err,
                                     errlen) != 0)
            return -1;
    }
    return 0;
}

/* The calls left out of the recordings (fold_local_calls). */
static size_t folded_total(const struct job *j)
{
    size_t all = 0;

    for (int r = 0; r < j->nruns; r++)
        all += j->folded[r];
    return all;
}

/* Leaves the calls that neither move data nor wait out of every recording read
 * (scale_local.h), counted into j->folded (a recording not read again keeps its count)
 * and named in j->folded_names; 0 when there are none, in which case the model is the
 * one built with them. */
static size_t fold_local_calls(struct job *j)
{
    for (int r = 0; r < j->nruns; r++) {
        size_t n = pz_scale_run_fold_local(&j->runs[r], j->folded_names,
                                           sizeof(j->folded_names));

        if (n)
            j->folded[r] = n;
    }
    return folded_total(j);
}

/* Reads the recordings (again: j->nruns of them are read) with their inferred grids'
 * ranks numbered with the first dimension fastest or not, each in the dimensions of the
 * one of most, at least min_ndims; builds their model into j->program (NULL, the reason
 * in err, if none). */
static int read_and_build(struct job *j, int first_fastest, int min_ndims, char *err,
                          size_t errlen)
{
    const struct pz_scale_run *runs[MAX_RECORDINGS];
    int ndims = min_ndims;

    for (int r = 0; r < j->o->nrecordings; r++) {
        struct pz_scale_run *run = &j->runs[r];

        if (r < j->nruns && run->grid.from_topology)
            continue;
        pz_progress_line_phase(j->progress, "reading recording %d of %d (%s)", r + 1,
                               j->o->nrecordings, j->o->recordings[r]);
        if (r < j->nruns)
            pz_scale_run_free(run);
        j->folded[r] = 0;
        if (pz_scale_run_read_layout(j->o->recordings[r], 0, first_fastest, run, err,
                                     errlen) != 0)
            return -1;
        if (r == j->nruns)
            j->nruns++;
    }
    for (int r = 0; r < j->nruns; r++)
        if (j->runs[r].grid.ndims > ndims)
            ndims = j->runs[r].grid.ndims;
    j->built_in_2d[first_fastest] |= ndims >= 2;
    if (read_in_dimensions(j, ndims, first_fastest, err, errlen) != 0)
        return -1;
    if (j->fold_local && !fold_local_calls(j)) {
        snprintf(err, errlen, "no call that neither moves data nor waits to leave out");
        return -1;
    }
    pz_scale_runs_resolve_groups(j->runs, (size_t)j->nruns);
    for (int r = 0; r < j->nruns; r++)
        runs[r] = &j->runs[r];
    pz_progress_line_phase(j->progress, "fitting the model");
    j->program = pz_scale_program_build(runs, (size_t)j->nruns, j->o->m.compute_cpu, err,
                                        errlen);
    return j->program ? 0 : -1;
}

/* A program that splits its processes into the rows and the columns of a 2-D grid it
 * computes itself (NAS FT: NP1 x NP2, NP2 = P / NP1 >= NP1, rows of NP2 consecutive
 * ranks, columns of the ranks equal modulo NP2) and sends no message that shows the
 * grid: its communicators are blocks and strides whose sizes change with P as no
 * constant class's do, but they are the slices of MPI_Dims_create's 2-D grid (NP2 x NP1)
 * with the first dimension fastest.  Where the model cannot be built otherwise, the
 * recordings are read in that grid, then in the other numbering: each unless a model
 * was already tried so, in 2 dimensions or more (the same reading again). */
static int read_as_2d_grid(struct job *j, char *err, size_t errlen)
{
    for (int first_fastest = 1; first_fastest >= 0; first_fastest--)
        if (!j->built_in_2d[first_fastest] && read_and_build(j, first_fastest, 2, err, errlen) == 0)
            return 0;
    return -1;
}

/* A program that numbers its blocks x + nx (y + ny z), nx the largest side (HPCG), fits
 * MPI_Cart_create's numbering at some counts (2 x 2 x 1, 2 x 2 x 2) but not across them:
 * where the model cannot be built, the recordings whose grids were inferred are read
 * again numbered the other way; 0, or -1 with the first reason in err. */
static int read_and_build_any(struct job *j, char *err, size_t errlen)
{
    char other[4096];
    int inferred = 0;

    if (read_and_build(j, 0, 1, err, errlen) == 0)
        return 0;
    for (int r = 0; r < j->nruns; r++)
        inferred |= !j->runs[r].grid.from_topology && j->runs[r].grid.ndims > 1;
    if (j->nruns == j->o->nrecordings &&
        ((inferred && read_and_build(j, 1, 1, other, sizeof(other)) == 0) ||
         read_as_2d_grid(j, other, sizeof(other)) == 0))
        return 0;
    return -1;
}

/* The recordings and their model; where it cannot be built, built again without the
 * calls that neither move data nor wait (a root asking its rank between broadcasts the
 * others make without), with a note saying so; the first reason is told when that
 * fails too. */
static int read_recordings(struct job *j)
{
    char err[4096], other[4096];

    if (read_and_build_any(j, err, sizeof(err)) == 0)
        return 0;
    j->fold_local = 1;
    j->built_in_2d[0] = j->built_in_2d[1] = 0;
    if (j->nruns == j->o->nrecordings && read_and_build_any(j, other, sizeof(other)) == 0) {
        snprintf(j->notes[j->nnotes++], sizeof(j->notes[0]),
                 "the model cannot be built with the %zu calls that neither move data nor "
                 "wait (%s) in the recordings, which follow no pattern of the process "
                 "grid: they are left out of the synthesized runs, their time counted as "
                 "the computation before the next call", folded_total(j), j->folded_names);
        return 0;
    }
    complain(j, "%s", err);
    return -1;
}

static void add_count(struct job *j, int n, int recorded)
{
    int i = 0;

    while (i < j->ncounts && j->counts[i] < n)
        i++;
    if (i < j->ncounts && j->counts[i] == n) {
        j->recorded[i] |= recorded;
        return;
    }
    memmove(&j->counts[i + 1], &j->counts[i], (size_t)(j->ncounts - i) * sizeof(int));
    memmove(&j->recorded[i + 1], &j->recorded[i], (size_t)(j->ncounts - i) * sizeof(int));
    j->counts[i] = n;
    j->recorded[i] = recorded;
    j->ncounts++;
}

/* The nodes machine i has at count c as the synthesis follows them (scale_program.h);
 * one node of every process where it cannot (a node map, the leaders of a cyclic
 * placement). */
static struct pz_scale_nodes nodes_of(const struct job *j, int c, int i)
{
    const struct pz_machine *mc = &j->machines[i];
    struct pz_scale_nodes n = { 0, (uint32_t)j->counts[c] };

    if (!mc->node_map)
        pz_scale_nodes_at(j->program, mc->procs_per_node, mc->placement == PZ_PLACE_CYCLIC,
                          j->counts[c], &n);
    return n;
}

/* The runs at count c: one per distinct nodes of the machines where the program has
 * communicators that follow them, else one for all.  Machine i's run is run[i]; the
 * number of runs. */
static int runs_at(const struct job *j, int c, struct pz_scale_nodes *nodes, int *run)
{
    int n = 0;

    for (int i = 0; i < j->o->m.nmachines; i++) {
        struct pz_scale_nodes here = { 0, (uint32_t)j->counts[c] };
        int r = 0;

        if (pz_scale_program_nodes(j->program))
            here = nodes_of(j, c, i);
        while (r < n && (nodes[r].cyclic != here.cyclic || nodes[r].k != here.k))
            r++;
        if (r == n)
            nodes[n++] = here;
        run[i] = r;
    }
    return n;
}

/* Where the run synthesized at count c goes: --trace-out/P<N>, or when the machines'
 * nodes make several runs (runs_at), --trace-out/P<N>-block<K> (nodes of K consecutive
 * ranks) or P<N>-cyclic<K> (K nodes, rank r on node r mod K). */
static int synthesized_dir(const struct job *j, int c, const struct pz_scale_nodes *nodes,
                           int nruns, char *dir, size_t len)
{
    const char *root = j->o->trace_out;
    char layout[32] = "";

    if (mkdir(root, 0777) != 0 && errno != EEXIST) {
        complain(j, "cannot create '%s': %s", root, strerror(errno));
        return -1;
    }
    if (nruns > 1)
        snprintf(layout, sizeof(layout), "-%s%u", nodes->cyclic ? "cyclic" : "block", nodes->k);
    if (snprintf(dir, len, "%s/P%d%s", root, j->counts[c], layout) >= (int)len) {
        complain(j, "'%s': path too long", root);
        return -1;
    }
    return 0;
}

/* Where the predicted records go: the analysis, counted for the progress line. */
struct feed {
    struct pz_analysis_stream *analysis;
    struct pz_progress_line *progress;
    uint64_t records;
};

static int give_record(void *ctx, int th, const struct pz_rec *rec, uint64_t time)
{
    struct feed *f = ctx;

    if (++f->records % PROGRESS_EVERY == 0)
        pz_progress_tell(&f->progress->hook, "records predicted", f->records, 0);
    return pz_analysis_stream_record(f->analysis, th, rec, time);
}

static void thread_done(void *ctx, int th)
{
    pz_analysis_stream_done(((struct feed *)ctx)->analysis, th);
}

/* The analysis of the run predicted from dir's archive or from synth, to be given its
 * records; NULL after reporting the error (and removing the archive, scale_discard). */
static struct pz_analysis_stream *open_analysis(struct job *j, int c, const char *dir,
                                                const struct pz_scale_synth *synth)
{
    struct pz_analysis_stream *s = NULL;
    struct pz_defs defs;
    char name[64], err[8192];

    snprintf(name, sizeof(name), "the predicted run at %d processes", j->counts[c]);
    if ((synth ? pz_scale_synth_defs(synth, &defs, err, sizeof(err))
               : pz_trace_defs_read(dir, &defs, err, sizeof(err))) != 0)
        pz_defs_release(&defs);
    else
        s = pz_analysis_stream_open(&defs, name, err, sizeof(err));
    if (!s)
        complain(j, "%s%s", err, scale_discard(j));
    return s;
}

/* Replays the synthesized run on machine i, from its archive in dir or, without one,
 * as synth makes it (cut to `cut` passes of the sample's loop, 0: not cut), and
 * analyzes the predicted run into *a as it is predicted. */
int scale_predict_into(struct job *j, int c, int i, const char *dir,
                       struct pz_scale_synth *synth, uint64_t cut, struct pz_analysis *a)
{
    struct pz_predict_options po = { .machine = &j->machines[i],
                                     .compute_cpu = j->o->m.compute_cpu };
    struct feed feed = { .progress = j->progress };
    struct pz_replay_sink sink = { give_record, thread_done, &feed };
    struct pz_prediction result;
    char err[8192], passes[64] = "";

    memcpy(po.forced, j->o->m.forced, sizeof(po.forced));
    if (cut)
        snprintf(passes, sizeof(passes), ", %llu passes of %llu", (unsigned long long)cut,
                 (unsigned long long)j->sample.passes);
    pz_progress_line_phase(j->progress, "%s and replaying %d processes (count %d of %d%s) "
                           "on %s (machine %d of %d)", synth ? "synthesizing" : "reading",
                           j->counts[c], c + 1, j->ncounts, passes, j->machines[i].name,
                           i + 1, j->o->m.nmachines);
    if (!(feed.analysis = open_analysis(j, c, dir, synth)))
        return -1;
    po.sink = &sink;
    if ((synth ? pz_scale_predict(synth, &po, &result, err, sizeof(err))
               : pz_predict(dir, &po, &result, err, sizeof(err))) != 0) {
        complain(j, "%d processes on %s: %s%s", j->counts[c], j->machines[i].name, err,
                 scale_discard(j));
        pz_analysis_stream_close(feed.analysis, a, err, sizeof(err));
        pz_analysis_free(a);
        return -1;
    }
    if (pz_analysis_stream_close(feed.analysis, a, err, sizeof(err)) != 0) {
        complain(j, "%s%s", err, scale_discard(j));
        return -1;
    }
    return 0;
}

/* Predicts run r at count c (runs_at) on the machines it is theirs, from its archive
 * in dir or as synth makes it; into done[i] whether machine i's analysis is made.  0, or
 * -1 after reporting the error. */
static int predict_machines(struct job *j, int c, int r, const int *run, const char *dir,
                            struct pz_scale_synth *synth, int *done)
{
    for (int i = 0; i < j->o->m.nmachines; i++)
        if (run[i] == r && !(done[i] = scale_predict_on(j, c, i, dir, synth) == 0))
            return -1;
    return 0;
}

/* Synthesizes run r at count c and predicts it on its machines, in memory. */
static int predict_run_in_memory(struct job *j, int c, int r, const int *run, int *done)
{
    char err[4096];
    struct pz_scale_synth *synth = pz_scale_synth_new(j->program, j->counts[c], err,
                                                      sizeof(err));
    int rc;

    if (!synth) {
        complain(j, "the run at %d processes: %s", j->counts[c], err);
        return -1;
    }
    rc = predict_machines(j, c, r, run, NULL, synth, done);
    pz_scale_synth_free(synth);
    return rc;
}

/* Whether dir holds a trace already, which the synthesis refuses to write over. */
static int trace_there(const char *dir)
{
    char path[4300];
    struct stat st;

    snprintf(path, sizeof(path), "%s/traces.otf2", dir);
    return stat(path, &st) == 0;
}

/* Synthesizes run r at count c into its --trace-out directory and predicts it on its
 * machines from there; a trace written for it is removed when either fails. */
static int predict_run(struct job *j, int c, const struct pz_scale_nodes *nodes, int nruns,
                       int r, const int *run, int *done)
{
    char dir[sizeof(j->written)], err[4096];
    int rc;

    if (pz_scale_program_nodes(j->program))
        pz_scale_program_follow_nodes(j->program, &nodes[r]);
    if (!j->o->trace_out)
        return predict_run_in_memory(j, c, r, run, done);
    if (synthesized_dir(j, c, &nodes[r], nruns, dir, sizeof(dir)) != 0)
        return -1;
    pz_progress_line_phase(j->progress, "synthesizing %d processes (count %d of %d) into %s",
                           j->counts[c], c + 1, j->ncounts, dir);
    if (!trace_there(dir))
        snprintf(j->written, sizeof(j->written), "%s", dir);
    if (pz_scale_synthesize_archive(j->program, j->counts[c], dir, err, sizeof(err)) != 0) {
        complain(j, "the run at %d processes: %s%s", j->counts[c], err, scale_discard(j));
        return -1;
    }
    rc = predict_machines(j, c, r, run, dir, NULL, done);
    j->written[0] = '\0';
    return rc;
}

/* Whether the run at every count fits in the memory this process may take, estimated
 * from the model (scale_memory.h): the counts in increasing order, each with the
 * analyses the smaller ones leave for the report; else says so for the first that does
 * not, on one line, before any is synthesized. */
static int counts_fit_model(const struct job *j)
{
    uint64_t held = pz_scale_memory_resident(), heap_free = pz_scale_memory_heap_free();
    uint64_t peak = pz_scale_memory_peak(), kept = 0;
    struct pz_scale_memory m = pz_scale_memory_available(held);
    int nmachines = j->o->m.nmachines;

    for (int c = 0; c < j->ncounts; c++) {
        struct pz_scale_memory_figures f;
        struct pz_scale_memory_estimate e;
        struct pz_scale_sample s;
        /* a sampled count holds the analyses of two cuts besides the one being made */
        int cuts_held = scale_samples(j, c, &s) ? 2 : 0;
        char msg[320];

        pz_scale_memory_figures_of(j->program, j->counts[c], &f);
        f.held = held;
        f.heap_free = heap_free;
        f.peak = peak;
        f.kept = kept + (uint64_t)(nmachines - 1 + cuts_held) * (uint64_t)j->counts[c];
        pz_scale_memory_estimate(&f, &e);
        if (!pz_scale_memory_fits(j->counts[c], &e, &m, msg, sizeof(msg))) {
            complain(j, "--ranks %d: %s", j->counts[c], msg);
            return 0;
        }
        kept += (uint64_t)nmachines * (uint64_t)j->counts[c];
    }
    return 1;
}

/* Every count on every machine; 0, or -1 after reporting the error.  *made tells how
 * many counts have all their analyses (the failing one's are freed here). */
static int predict_all(struct job *j, int *made)
{
    for (*made = 0; *made < j->ncounts; ++*made) {
        struct pz_scale_nodes nodes[PZ_MAX_MACHINES];
        int run[PZ_MAX_MACHINES], done[PZ_MAX_MACHINES] = { 0 }, rc = 0;
        int nruns = runs_at(j, *made, nodes, run);

        scale_choose_sampling(j, *made);
        for (int r = 0; r < nruns && rc == 0; r++)
            rc = predict_run(j, *made, nodes, nruns, r, run, done);
        if (rc != 0) {
            for (int i = 0; i < j->o->m.nmachines; i++)
                if (done[i])
                    pz_analysis_free(&j->analyses[i * j->ncounts + *made]);
            return -1;
        }
        scale_note_sampling(j, *made);
    }
    return 0;
}

static void free_analyses(struct job *j, int made)
{
    for (int i = 0; i < j->o->m.nmachines; i++)
        for (int c = 0; c < made; c++)
            pz_analysis_free(&j->analyses[i * j->ncounts + c]);
    free(j->analyses);
}

/* A recording whose computations took clearly longer than their CPU time had
 * processes waiting for a core. */
#define STRETCHED 1.25

/* The recording of the fewest processes above n (their counts differ); -1: none.  The
 * counts named in increasing order, whatever the order of the recordings given. */
static int run_above(const struct job *j, int n)
{
    int best = -1;

    for (int r = 0; r < j->nruns; r++)
        if (j->runs[r].nprocs > n && (best < 0 || j->runs[r].nprocs < j->runs[best].nprocs))
            best = r;
    return best;
}

/* A note naming the counts recorded with more processes than a node's cores: even their
 * CPU times rise with the sharing (the caches others left cold), which no fit in P can
 * tell from a growth (docs/predict.md, "Scaling: the computation model"). */
static void note_shared_cores(struct job *j)
{
    char *note = j->notes[j->nnotes];
    size_t len = sizeof(j->notes[0]), used = 0;
    int shared = 0;

    for (int r = run_above(j, 0); r >= 0 && used < len; r = run_above(j, j->runs[r].nprocs))
        if (j->runs[r].oversubscribed)
            used += (size_t)snprintf(note + used, len - used, "%s%d",
                                     shared++ ? ", " : "the recordings at ", j->runs[r].nprocs);
    if (!shared || used >= len)
        return;
    snprintf(note + used, len - used, " processes ran more processes than a node has cores: "
             "their computations' times, CPU times too, rise with the sharing, which the "
             "computation model takes for growth with P; recordings with a core per process "
             "(over several nodes if need be) give models to trust");
    j->nnotes++;
}

/* Notes on how the recordings' computations are timed: stretched ones, and without CPU
 * times none can be told. */
static void note_computation_times(struct job *j)
{
    int without = 0;

    for (int r = 0; r < j->nruns; r++) {
        double stretch = pz_scale_run_stretch(&j->runs[r]);

        without |= stretch < 0;
        if (stretch >= STRETCHED && j->nnotes < MAX_RECORDINGS)
            snprintf(j->notes[j->nnotes++], sizeof(j->notes[0]),
                     "%s: its computations took %.1f times their CPU time: more processes "
                     "than cores, or other load; %s", j->o->recordings[r], stretch,
                     j->o->m.compute_cpu ? "their CPU times are used (--compute cpu)"
                                         : "use --compute cpu, the wall clock stretches "
                                           "them");
    }
    if (without && !j->o->m.compute_cpu)
        snprintf(j->notes[j->nnotes++], sizeof(j->notes[0]),
                 "recordings without CPU times: if they ran more processes than cores, "
                 "their computations are stretched; record with PROGNOZ_CPU_TIME=1 and "
                 "use --compute cpu");
    note_shared_cores(j);
}

/* How machine i's nodes are followed, into buf: its node size and placement, or why
 * they are not. */
static void machine_nodes(const struct job *j, int i, char *buf, size_t len)
{
    const struct pz_machine *mc = &j->machines[i];
    struct pz_scale_nodes n;

    if (mc->node_map)
        snprintf(buf, len, "%s: a node map, not followed: one node of every process",
                 mc->name);
    else if (mc->placement == PZ_PLACE_CYCLIC &&
             pz_scale_nodes_at(j->program, mc->procs_per_node, 1, MAX_RANKS, &n) != 0)
        snprintf(buf, len, "%s: %d per node placed cyclically, whose first processes (ranks "
                 "0 to the number of nodes - 1) no class holds, not followed: one node of "
                 "every process", mc->name, mc->procs_per_node);
    else
        snprintf(buf, len, "%s: %d per node%s", mc->name, mc->procs_per_node,
                 mc->placement == PZ_PLACE_CYCLIC ? ", placed cyclically (ranks equal modulo "
                 "the nodes' number)" : " (blocks of consecutive ranks)");
}

/* A note on the communicators that follow each machine's nodes, when there are. */
static void note_nodes(struct job *j)
{
    int has = pz_scale_program_nodes(j->program);
    char *note = j->notes[j->nnotes];
    size_t len = sizeof(j->notes[0]), used;

    if (!has)
        return;
    used = (size_t)snprintf(note, len, "the communicator of the processes sharing a node "
                            "(MPI_Comm_split_type, every process in every recording)%s "
                            "follow%s each machine's nodes, of every process up to a node's "
                            "size: ", has & PZ_SCALE_HAS_LEADERS ?
                            " and that of the first process of each (rank 0 alone in every "
                            "recording)" : "", has & PZ_SCALE_HAS_LEADERS ? "" : "s");
    for (int i = 0; i < j->o->m.nmachines && used < len; i++) {
        char one[MACHINE_NODES_LEN];

        machine_nodes(j, i, one, sizeof(one));
        used += (size_t)snprintf(note + used, len - used, "%s%s", i ? "; " : "", one);
    }
    j->nnotes++;
}

/* The smallest recorded count. */
static int smallest_recorded(const struct job *j)
{
    int smallest = j->runs[0].nprocs;

    for (int r = 1; r < j->nruns; r++)
        if (j->runs[r].nprocs < smallest)
            smallest = j->runs[r].nprocs;
    return smallest;
}

/* Writes into buf the counts asked for below the smallest recorded one where model c
 * gives no time though it gives some there; how many. */
static int vanishing_counts(const struct job *j, const struct pz_scale_compute *c, char *buf,
                            size_t len)
{
    int smallest = smallest_recorded(j), n = 0;
    size_t used = 0;

    buf[0] = 0;
    if (pz_scale_model_at(&c->time, smallest) <= 0)
        return 0;
    for (int k = 0; k < j->ncounts && j->counts[k] < smallest; k++)
        if (pz_scale_model_at(&c->time, j->counts[k]) <= 0 && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%d", n++ ? ", " : "",
                                     j->counts[k]);
    return n;
}

/* Notes on the computation models that give 0 s or less at a count asked for, which
 * the replay takes as no computation: below the smallest recorded count, where nothing
 * holds a model above 0 (scale_fit.h). */
static void note_vanishing_computations(struct job *j)
{
    size_t n = pz_scale_program_ncompute(j->program);
    int first = j->nnotes, more = 0;

    for (size_t i = 0; i < n; i++) {
        const struct pz_scale_compute *c = pz_scale_program_compute(j->program, i);
        char counts[160], formula[160];

        if (!vanishing_counts(j, c, counts, sizeof(counts)))
            continue;
        if (j->nnotes - first == MAX_VANISHING - 1) {
            more++;
            continue;
        }
        pz_scale_model_format(&c->time, formula, sizeof(formula));
        snprintf(j->notes[j->nnotes++], sizeof(j->notes[0]),
                 "%s, processes '%s': the computation model %s gives 0 s or less at P = "
                 "%s, below the smallest recording (P = %d): the predictions there replay "
                 "that computation as taking no time",
                 c->interval[0] ? c->interval : "the whole run", c->class_name, formula,
                 counts, smallest_recorded(j));
    }
    if (more)
        snprintf(j->notes[j->nnotes++], sizeof(j->notes[0]),
                 "%d more computation models give 0 s or less at counts below the smallest "
                 "recording (P = %d): the predictions there replay those computations as "
                 "taking no time", more, smallest_recorded(j));
}

/* The fitted computation models as the report shows them. */
struct formulas {
    struct pz_scale_formula *f;
    char (*text)[160];
    size_t n;
};

static int make_formulas(const struct job *j, struct formulas *out)
{
    size_t n = pz_scale_program_ncompute(j->program);

    out->n = n;
    out->f = calloc(n ? n : 1, sizeof(*out->f));
    out->text = calloc(n ? n : 1, sizeof(*out->text));
    if (!out->f || !out->text)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const struct pz_scale_compute *c = pz_scale_program_compute(j->program, i);

        pz_scale_model_format(&c->time, out->text[i], sizeof(out->text[i]));
        out->f[i] = (struct pz_scale_formula){ c->interval, c->class_name, out->text[i],
                                               c->time.max_error };
    }
    return 0;
}

/* The report of every machine's series into -o's file or the standard output. */
static int write_report_to(FILE *out, const struct job *j, const struct formulas *f)
{
    struct pz_scale_series series[PZ_MAX_MACHINES];
    struct pz_scale_entry entries[PZ_MAX_MACHINES][MAX_COUNTS + MAX_RECORDINGS];
    struct pz_scale_recording recordings[MAX_RECORDINGS];
    int ppn[PZ_MAX_MACHINES], rc;
    size_t model_notes = pz_scale_program_nnotes(j->program), nnotes = model_notes;
    const char **notes = malloc((nnotes + (size_t)j->nnotes + 1) * sizeof(*notes));

    if (!notes) {
        fprintf(stderr, "prognoz scale: out of memory\n");
        return -1;
    }
    for (size_t i = 0; i < nnotes; i++)
        notes[i] = pz_scale_program_note(j->program, i);
    for (int i = 0; i < j->nnotes; i++)
        notes[nnotes++] = j->notes[i];
    for (int r = 0; r < j->nruns; r++)
        recordings[r] = (struct pz_scale_recording){ j->o->recordings[r], j->runs[r].nprocs };
    for (int i = 0; i < j->o->m.nmachines; i++) {
        for (int c = 0; c < j->ncounts; c++)
            entries[i][c] = (struct pz_scale_entry){ j->counts[c], j->recorded[c],
                                                     &j->analyses[i * j->ncounts + c] };
        series[i] = (struct pz_scale_series){ j->machines[i].name, entries[i],
                                              (size_t)j->ncounts };
        ppn[i] = j->machines[i].procs_per_node;
    }
    rc = pz_scale_report_write(out, j->o->format, &(struct pz_scale_input){
        .recordings = recordings, .nrecordings = (size_t)j->nruns,
        .series = series, .nseries = (size_t)j->o->m.nmachines,
        .formulas = f->f, .nformulas = f->n, .notes = notes, .nnotes = nnotes,
        .model_notes = model_notes, .procs_per_node = ppn });
    free(notes);
    return rc;
}

static int write_report(const struct job *j)
{
    struct formulas f = { 0 };
    FILE *out = stdout;
    int rc = 1;

    if (j->o->output && !(out = fopen(j->o->output, "w")))
        complain(j, "cannot write '%s': %s", j->o->output, strerror(errno));
    else if (make_formulas(j, &f) != 0)
        complain(j, "out of memory");
    else if (write_report_to(out, j, &f) != 0 || fflush(out) != 0)
        complain(j, "cannot write the report");
    else
        rc = 0;
    if (out && out != stdout && fclose(out) != 0 && rc == 0) {
        complain(j, "cannot write '%s'", j->o->output);
        rc = 1;
    }
    free(f.f);
    free(f.text);
    return rc;
}

static int run(struct job *j)
{
    int made = 0, rc = 1;

    if (read_recordings(j) != 0)
        return 1;
    note_computation_times(j);
    for (int r = 0; r < j->nruns; r++)
        add_count(j, j->runs[r].nprocs, 1);
    for (int c = 0; c < j->o->ncounts; c++)
        add_count(j, j->o->counts[c], 0);
    note_vanishing_computations(j);
    note_nodes(j);
    if (!counts_fit_model(j))
        return 1;
    j->analyses = calloc((size_t)(j->ncounts * j->o->m.nmachines), sizeof(*j->analyses));
    if (!j->analyses) {
        complain(j, "out of memory");
        return 1;
    }
    if (predict_all(j, &made) == 0) {
        pz_progress_line_end(j->progress);
        rc = write_report(j);
    }
    free_analyses(j, made);
    return rc;
}

/* Whether every count asked for fits in the memory this process may take by the floor
 * every program needs (scale_memory.h); else says so for the smallest that does not, on
 * one line.  Checked before the recordings are read: a count of millions is refused at
 * once. */
static int counts_fit_floor(const struct options *o)
{
    struct pz_scale_memory m = pz_scale_memory_available(0);
    int smallest = 0;
    char msg[256];

    for (int c = 0; c < o->ncounts; c++)
        if (!pz_scale_memory_floor_fits(o->counts[c], &m, msg, sizeof(msg)) &&
            (!smallest || o->counts[c] < smallest))
            smallest = o->counts[c];
    if (!smallest)
        return 1;
    pz_scale_memory_floor_fits(smallest, &m, msg, sizeof(msg));
    fprintf(stderr, "prognoz scale: --ranks %d: %s\n", smallest, msg);
    return 0;
}

int pz_cmd_scale(int argc, char **argv)
{
    static struct job j;
    struct options o = { .format = PZ_REPORT_TEXT };
    struct pz_progress_line progress;
    int rc = parse(argc, argv, &o);

    if (rc)
        return rc == 1 ? 0 : 2;
    j.o = &o;
    if (!counts_fit_floor(&o))
        return 1;
    if (pz_machine_options_load("scale", &o.m, j.machines) != 0)
        return 1;
    pz_progress_line_init(&progress, "scale", o.quiet);
    j.progress = &progress;
    rc = run(&j);
    pz_progress_line_end(&progress);
    if (j.program)
        pz_scale_program_free(j.program);
    for (int r = 0; r < j.nruns; r++)
        pz_scale_run_free(&j.runs[r]);
    for (int i = 0; i < o.m.nmachines; i++)
        pz_machine_release(&j.machines[i]);
    return rc;
}
