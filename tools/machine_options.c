/* Options of the machines to predict on (machine_options.h). */
#include <stdio.h>
#include <string.h>

#include "machine_options.h"
#include "machines.h"

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

/* "allgather=bruck" */
static int parse_coll(const char *s, struct pz_machine_options *o)
{
    char op[64];
    const char *eq = strchr(s, '=');
    const struct pz_coll_algo *algo;
    int kind;

    if (!eq || (size_t)(eq - s) >= sizeof(op))
        return -1;
    memcpy(op, s, (size_t)(eq - s));
    op[eq - s] = '\0';
    if ((kind = pz_coll_op_named(op)) < 0 || !(algo = pz_coll_named(kind, eq + 1)))
        return -1;
    o->forced[kind] = algo;
    return 0;
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
        if (o->compute_cpu || !strcmp(val, "wall"))
            return 0;
        fprintf(stderr, "prognoz %s: --compute '%s': expected wall or cpu\n", cmd, val);
    } else if (!strcmp(opt, "--coll")) {
        if (parse_coll(val, o) == 0)
            return 0;
        fprintf(stderr, "prognoz %s: --coll '%s': expected OPERATION=ALGORITHM of "
                "docs/collectives.md\n", cmd, val);
    } else {
        o->mpi = val;
        return 0;
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
        } else if (o->mpi && pz_machine_set_mpi(&m[i], o->mpi) != 0) {
            fprintf(stderr, "prognoz %s: --mpi '%s': expected mpich1, mpich-1.2.5 or "
                    "mpich4\n", cmd, o->mpi);
        } else {
            continue;
        }
        for (int j = 0; j < o->nmachines; j++)
            pz_machine_release(&m[j]);
        return -1;
    }
    return 0;
}
