/* prognoz export: a recorded run written for another simulator (SimGrid's SMPI). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "machine.h"
#include "machines.h"
#include "simgrid.h"

#ifndef PZ_DEFAULT_MACHINE
#define PZ_DEFAULT_MACHINE "gigabit-switch"
#endif

static void usage(FILE *out)
{
    fprintf(out,
            "usage: prognoz export DIR --simgrid OUT [--machine FILE]\n"
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
            "                   shipped one (gigabit-switch)\n", PZ_DEFAULT_MACHINE);
}

struct options {
    const char *trace, *simgrid, *machine;
};

/* Returns 0, 1 when --help was asked, or 2 on a usage error (already reported). */
static int parse(int argc, char **argv, struct options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];

        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(arg, "--simgrid") || !strcmp(arg, "--machine")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "prognoz export: %s needs a value\n", arg);
                return 2;
            }
            *(!strcmp(arg, "--simgrid") ? &o->simgrid : &o->machine) = argv[++i];
        } else if (arg[0] != '-' && !o->trace) {
            o->trace = arg;
        } else {
            fprintf(stderr, "prognoz export: unexpected argument '%s'\n", arg);
            usage(stderr);
            return 2;
        }
    }
    if (!o->trace || !o->simgrid) {
        fprintf(stderr, "prognoz export: %s\n", !o->trace ? "no trace given" : "no --simgrid given");
        usage(stderr);
        return 2;
    }
    return 0;
}

int pz_cmd_export(int argc, char **argv)
{
    struct options o = { .machine = PZ_DEFAULT_MACHINE };
    struct pz_machine m;
    char err[8192];
    int rc = parse(argc, argv, &o), nprocs = 0;

    if (rc)
        return rc == 1 ? 0 : 2;
    if (pz_load_machine(o.machine, &m, err, sizeof(err)) != 0) {
        fprintf(stderr, "prognoz export: %s\n", err);
        pz_machine_release(&m);
        return 1;
    }
    rc = pz_simgrid_export(o.trace, &m, o.simgrid, &nprocs, err, sizeof(err));
    if (rc != 0)
        fprintf(stderr, "prognoz export: %s\n", err);
    else
        printf("prognoz export: %s written for machine '%s'; replay with\n"
               "  smpirun -np %d -platform %s/platform.xml -hostfile %s/hostfile "
               "-replay %s/traces.txt\n", o.simgrid, m.name, nprocs,
               o.simgrid, o.simgrid, o.simgrid);
    pz_machine_release(&m);
    return rc != 0;
}
