/* Identities of intervals and call sites as strings: "FILE\nLINE\nID" for an interval
 * ("FILE\nLINE\nID\nsequential" for a sequential one), read back (intervals.c makes
 * them).  Needs no MPI: the assembly of partial traces reads them too (assemble.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interval_defs.h"

struct pz_interval_def *pz_intervals_parse(char **texts, uint32_t n)
{
    struct pz_interval_def *defs = calloc(n ? n : 1, sizeof(*defs));

    for (uint32_t i = 0; defs && i < n; i++) {
        char *line = strchr(texts[i], '\n'), *id = line ? strchr(line + 1, '\n') : NULL;

        if (!id)
            continue;
        defs[i].file = strndup(texts[i], (size_t)(line - texts[i]));
        defs[i].line = (unsigned)strtoul(line + 1, NULL, 10);
        defs[i].id = (unsigned)strtoul(id + 1, NULL, 10);
        defs[i].sequential = strstr(id + 1, "\nsequential") != NULL;
    }
    return defs;
}

void pz_intervals_free(struct pz_interval_def *all, uint32_t nall)
{
    for (uint32_t i = 0; all && i < nall; i++)
        free(all[i].file);
    free(all);
}
