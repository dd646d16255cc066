/* Identities of intervals and call sites as strings: "FILE\nLINE\nID" for an interval
 * ("FILE\nLINE\nID\nsequential" for a sequential one), and back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "interval_defs.h"
#include "unify.h"

void pz_intervals_add_identity(struct pz_strings *list, struct pz_callsites *cs,
                               uintptr_t site, unsigned id, int sequential)
{
    struct pz_source_loc loc;
    char text[4200];

    pz_callsites_resolve(cs, site, &loc);
    snprintf(text, sizeof(text), "%s\n%u\n%u%s", loc.file, loc.line, id,
             sequential ? "\nsequential" : "");
    pz_strings_add(list, text);
}

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
