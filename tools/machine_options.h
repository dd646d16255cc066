/* The options predict and scale share: the machines to predict on and how the replay
 * times the run (--machine, --compute, --mpi, --coll), and --format's values. */
#ifndef PZ_TOOLS_MACHINE_OPTIONS_H
#define PZ_TOOLS_MACHINE_OPTIONS_H

#include "coll.h"
#include "machine.h"
#include "report.h"

#define PZ_MAX_MACHINES 16

struct pz_machine_options {
    const char *machines[PZ_MAX_MACHINES];   /* as given: files or shipped names */
    int nmachines;
    int compute_cpu;                         /* --compute cpu */
    int compute_given;                       /* --compute given, either way */
    const char *mpi;                         /* --mpi SET, or NULL */
    const struct pz_coll_algo *forced[PZ_COLL_NOPS];   /* --coll: NULL = machine's choice */
};

/* Whether opt is one of the options above (each takes a value). */
int pz_machine_option_is(const char *opt);

/* Takes option opt (pz_machine_option_is) with its value val.  Returns 0, or 2 after
 * reporting a usage error as "prognoz CMD: ...". */
int pz_machine_option(const char *cmd, const char *opt, const char *val,
                      struct pz_machine_options *o);

/* Loads o's machines into m[0..o->nmachines-1] (each set to the defaults first, and
 * released again on failure).  Returns 0, or -1 after reporting the error. */
int pz_machine_options_load(const char *cmd, const struct pz_machine_options *o,
                            struct pz_machine *m);

/* --format's value: text, json or html.  0, or -1. */
int pz_format_parse(const char *s, enum pz_report_format *f);

#endif
