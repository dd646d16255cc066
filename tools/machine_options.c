/* Options of the machines to predict on (machine_options.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine_keys.h"
#include "machine_options.h"
#include "machines.h"

static const char *const op_names[PZ_COLL_NKINDS] = PZ_COLL_OP_NAMES;

int pz_format_parse(const char *s, enum pz_report_format *f)
{
    if (!strcmp(s, "text"))
        *f = PZ_REPORT_TEXT;
    else if (!strcmp(s, "json"))
        *f = PZ_REPORT_JSON;
    else if (!strcmp(s, "html"))
        *f = PZ_REPORT_HTML;
    else
        return -1;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The model's algorithms of op, in alphabetical order. */
static void print_algorithms(enum pz_coll_op op)
{
    const char *names[64];
    size_t n = 0;
    const struct pz_coll_algo *a;

    while (n < sizeof(names) / sizeof(*names) && (a = pz_coll_algorithm(op, n)))
        names[n++] = a->name;
    qsort(names, n, sizeof(*names), by_name);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, " %s", names[i]);
}

/* --coll's error: what is expected, with the operations, or the algorithms of the
 * operation named (kind >= 0). */
static void coll_error(const char *cmd, const char *val, const char *op, int kind)
{
    fprintf(stderr, "prognoz %s: --coll '%s': ", cmd, val);
    if (kind < 0) {
        fprintf(stderr, "expected OPERATION=ALGORITHM, the operations:");
        for (int i = 0; i < PZ_COLL_NKINDS; i++)
            fprintf(stderr, " %s", op_names[i]);
    } else {
        fprintf(stderr, "the algorithms of %s:", op);
        print_algorithms((enum pz_coll_op)kind);
    }
    fprintf(stderr, " (docs/collectives.md)\n");
}

/* "allgather=bruck"; 0, or 2 after reporting what it should be. */
static int parse_coll(const char *cmd, const char *s, struct pz_machine_options *o)
{
    char op[64];
    const char *eq = strchr(s, '=');
    const struct pz_coll_algo *algo;
    int kind = -1;

    if (eq && (size_t)(eq - s) < sizeof(op)) {
        memcpy(op, s, (size_t)(eq - s));
        op[eq - s] = '\0';
        kind = pz_coll_op_named(op);
    }
    if (kind < 0 || !(algo = pz_coll_named((enum pz_coll_op)kind, eq + 1))) {
        coll_error(cmd, s, op, kind);
        return 2;
    }
    o->forced[kind] = algo;
    return 0;
}

/* --mpi's value: one of the sets a machine file's mpi key takes; 0, or 2 after
 * reporting them. */
static int parse_mpi(const char *cmd, const char *val, struct pz_machine_options *o)
{
    const struct pz_key_def *k = &pz_machine_keys[PZ_KEY_MPI];

    for (int i = 0; i < k->nwords; i++) {
        if (!strcmp(val, k->words[i])) {
            o->mpi = val;
            return 0;
        }
    }
    fprintf(stderr, "prognoz %s: --mpi '%s': expected", cmd, val);
    for (int i = 0; i < k->nwords; i++)
        fprintf(stderr, "%s %s", i == 0 ? "" : i + 1 == k->nwords ? " or" : ",", k->words[i]);
    fprintf(stderr, "\n");
    return 2;
}

int pz_machine_option_is(const char *opt)
{
    static const char *const options[] = { "--machine", "--compute", "--mpi", "--coll" };

    for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
        if (!strcmp(opt, options[i]))
            return 1;
    return 0;
}

int pz_machine_option(const char *cmd, const char *opt, const char *val,
                      struct pz_machine_options *o)
{
    if (!strcmp(opt, "--machine")) {
        if (o->nmachines < PZ_MAX_MACHINES) {
            o->machines[o->nmachines++] = val;
            return 0;
        }
        fprintf(stderr, "prognoz %s: at most %d machines\n", cmd, PZ_MAX_MACHINES);
    } else if (!strcmp(opt, "--compute")) {
        o->compute_cpu = !strcmp(val, "cpu");
        o->compute_given = 1;
        if (o->compute_cpu || !strcmp(val, "wall"))
            return 0;
        fprintf(stderr, "prognoz %s: --compute '%s': expected wall or cpu\n", cmd, val);
    } else if (!strcmp(opt, "--coll")) {
        return parse_coll(cmd, val, o);
    } else {
        return parse_mpi(cmd, val, o);
    }
    return 2;
}

int pz_machine_options_load(const char *cmd, const struct pz_machine_options *o,
                            struct pz_machine *m)
{
    char err[1024];

    for (int i = 0; i < o->nmachines; i++)
        pz_machine_defaults(&m[i]);
    for (int i = 0; i < o->nmachines; i++) {
        if (pz_load_machine(o->machines[i], &m[i], err, sizeof(err)) != 0) {
            fprintf(stderr, "prognoz %s: %s\n", cmd, err);
            for (int j = 0; j < o->nmachines; j++)
                pz_machine_release(&m[j]);
            return -1;
        }
        if (o->mpi)   /* one of the sets: parse_mpi took no other */
            pz_machine_set_mpi(&m[i], o->mpi);
    }
    return 0;
}
