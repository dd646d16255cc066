/* prognoz export: a recorded run written for another simulator (SimGrid's SMPI), or as
 * a timeline for Perfetto and chrome://tracing. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "long_options.h"
#include "machine.h"
#include "machines.h"
#include "partial_notice.h"
#include "perfetto.h"
#include "progress_line.h"
#include "simgrid.h"
#include "units.h"

#ifndef PZ_DEFAULT_MACHINE
#define PZ_DEFAULT_MACHINE "gigabit-switch"
#endif

static void usage(FILE *out)
{
    fprintf(out,
            "usage: prognoz export DIR --simgrid OUT [--machine FILE]\n"
            "       prognoz export DIR --perfetto FILE [--perfetto-limit SIZE]\n"
            "\n"
            "Writes the run recorded in DIR as SimGrid SMPI time-independent traces in OUT\n"
            "(made if missing), with a platform and a hostfile for the machine file\n"
            "(default %s), to be replayed with\n"
            "  smpirun -np P -platform OUT/platform.xml -hostfile OUT/hostfile \\\n"
            "          -replay OUT/traces.txt\n"
            "docs/simgrid.md describes the files and how they map the recording.\n"
            "\n"
            "  --simgrid OUT    the directory of the SimGrid files\n"
            "  --machine FILE   the machine file (docs/machines.md), or the name of a\n"
            "                   shipped one (gigabit-switch)\n"
            "\n"
            "With --perfetto, writes the run recorded (or predicted) in DIR to FILE ('-': the\n"
            "standard output) as a timeline that https://ui.perfetto.dev and chrome://tracing\n"
            "open (Chrome trace event JSON): a process per rank, the MPI calls of each thread\n"
            "coloured by class with their arguments, intervals on a track of their own,\n"
            "messages as arrows from send to receive.  docs/perfetto.md describes the events.\n"
            "\n"
            "  --perfetto FILE         the JSON file\n"
            "  --perfetto-limit SIZE   stop writing calls once FILE holds SIZE (\"200MB\",\n"
            "                          \"1GiB\"); the file says what it left out.  Default:\n"
            "                          no limit\n"
            "\n"
            "  --quiet                 no progress on a terminal\n"
            "\nSee prognoz-export(1).\n", PZ_DEFAULT_MACHINE);
}

struct options {
    const char *trace, *simgrid, *machine, *perfetto, *limit;
    int machine_given, quiet;
    struct pz_progress_line progress;
};

/* The value of option argv[*i]: the next argument, or NULL (reported). */
static const char *value_of(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "prognoz export: %s needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

/* The option argv[*i] with its value into o; 1 if it is none of export's, -1 if its
 * value is missing (reported). */
static int option(int argc, char **argv, int *i, struct options *o)
{
    static const char *const names[] = { "--simgrid", "--machine", "--perfetto",
                                         "--perfetto-limit" };
    const char **slots[] = { &o->simgrid, &o->machine, &o->perfetto, &o->limit };

    for (size_t k = 0; k < sizeof(names) / sizeof(*names); k++) {
        if (strcmp(argv[*i], names[k]) != 0)
            continue;
        if (!(*slots[k] = value_of(argc, argv, i)))
            return -1;
        o->machine_given |= k == 1;
        return 0;
    }
    return 1;
}

/* What is missing or does not fit together; NULL if nothing. */
static const char *incomplete(const struct options *o)
{
    if (!o->trace)
        return "no trace given";
    if (!o->simgrid && !o->perfetto)
        return "no --simgrid given, nor --perfetto";
    if (o->machine_given && !o->simgrid)
        return "--machine is for --simgrid";
    if (o->limit && !o->perfetto)
        return "--perfetto-limit is for --perfetto";
    return NULL;
}

/* Returns 0, 1 when --help was asked, or 2 on a usage error (already reported). */
static int parse(int argc, char **argv, struct options *o)
{
    const char *missing;
    int rc;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];

        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(arg, "--quiet")) {
            o->quiet = 1;
        } else if ((rc = option(argc, argv, &i, o)) <= 0) {
            if (rc < 0)
                return 2;
        } else if (arg[0] != '-' && !o->trace && !pz_long_option_of(arg)) {
            o->trace = arg;
        } else {
            pz_unexpected_argument("export", arg);
            usage(stderr);
            return 2;
        }
    }
    if ((missing = incomplete(o))) {
        fprintf(stderr, "prognoz export: %s\n", missing);
        usage(stderr);
        return 2;
    }
    return 0;
}

/* The run as a Perfetto timeline; the exit status. */
static int export_perfetto(struct options *o)
{
    struct pz_perfetto_options po = { .source = o->trace, .progress = &o->progress.hook };
    struct pz_perfetto_summary s;
    char err[8192];
    double limit = 0;
    int rc;

    if (o->limit && (pz_parse_bytes(o->limit, &limit) != 0 || limit < 1 || limit > 1e18)) {
        fprintf(stderr, "prognoz export: --perfetto-limit '%s': expected a size such as "
                "200MB\n", o->limit);
        return 2;
    }
    po.limit = (uint64_t)llround(limit);
    rc = pz_perfetto_export(o->trace, o->perfetto, &po, &s, err, sizeof(err));
    pz_progress_line_end(&o->progress);
    if (rc != 0) {
        fprintf(stderr, "prognoz export: %s\n", err);
        return 1;
    }
    fprintf(strcmp(o->perfetto, "-") ? stdout : stderr,
            "prognoz export: %s written: %d processes, %" PRIu64 " MPI calls, %" PRIu64
            " messages; open it in https://ui.perfetto.dev or chrome://tracing\n",
            o->perfetto, s.processes, s.calls, s.messages);
    if (s.cut)
        fprintf(stderr, "prognoz export: the limit of %s left out %" PRIu64 " MPI calls and %"
                PRIu64 " messages after %.3f us\n", o->limit, s.calls_left_out,
                s.messages_left_out, s.cut_us);
    return 0;
}

/* The run for SimGrid; the exit status. */
static int export_simgrid(struct options *o)
{
    struct pz_machine m;
    char err[8192];
    int rc, nprocs = 0;

    if (pz_load_machine(o->machine, &m, err, sizeof(err)) != 0) {
        fprintf(stderr, "prognoz export: %s\n", err);
        pz_machine_release(&m);
        return 1;
    }
    rc = pz_simgrid_export_with_progress(o->trace, &m, o->simgrid, &nprocs,
                                         &o->progress.hook, err, sizeof(err));
    pz_progress_line_end(&o->progress);
    if (rc != 0)
        fprintf(stderr, "prognoz export: %s\n", err);
    else
        printf("prognoz export: %s written for machine '%s'; replay with\n"
               "  smpirun -np %d -platform %s/platform.xml -hostfile %s/hostfile "
               "-replay %s/traces.txt\n", o->simgrid, m.name, nprocs,
               o->simgrid, o->simgrid, o->simgrid);
    pz_machine_release(&m);
    return rc != 0;
}

int pz_cmd_export(int argc, char **argv)
{
    struct options o = { .machine = PZ_DEFAULT_MACHINE };
    int rc = parse(argc, argv, &o);
    char *endings;

    if (rc)
        return rc == 1 ? 0 : 2;
    pz_progress_line_init(&o.progress, "export", o.quiet);
    if (o.simgrid && (rc = export_simgrid(&o)) != 0)
        return rc;
    if (o.perfetto && (rc = export_perfetto(&o)) != 0)
        return rc;
    /* once exported, a trace that reads; on stderr: the standard output may be the
     * export itself */
    if ((endings = pz_partial_endings(o.trace)))
        pz_partial_notice(stderr, "prognoz export: ", endings);
    free(endings);
    return 0;
}
