/* Intervals and marker misuses at finalize.  Strings carry identities between
 * processes (interval_defs.h), the text itself for a warning. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "callsite.h"
#include "interval_defs.h"
#include "intervals.h"
#include "markers.h"
#include "names.h"
#include "runtime.h"
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

static void where(struct pz_callsites *cs, uintptr_t site, char *buf, size_t len)
{
    struct pz_source_loc loc;

    pz_callsites_resolve(cs, site, &loc);
    snprintf(buf, len, "%s:%u", loc.file, loc.line);
}

static void identities(struct pz_callsites *cs, struct pz_strings *p)
{
    for (uint32_t i = 0; i < pz_markers_count(); i++)
        pz_intervals_add_identity(p, cs, pz_markers_site(i), pz_markers_id(i),
                                  pz_markers_sequential(i));
}

static void warnings(struct pz_callsites *cs, struct pz_strings *p)
{
    const struct pz_misuse_note *notes;
    uint32_t n = pz_markers_misuses(&notes);

    for (uint32_t i = 0; i < n; i++) {
        char at[4200], inner[4200], text[8600];

        where(cs, notes[i].site, at, sizeof(at));
        switch (notes[i].kind) {
        case PZ_MISUSE_END_UNOPENED:
            snprintf(text, sizeof(text), "%s: end of interval %u, but no interval %u is open: "
                     "ignored", at, notes[i].id, notes[i].id);
            break;
        case PZ_MISUSE_END_SKIPS:
            where(cs, pz_markers_site(notes[i].interval), inner, sizeof(inner));
            snprintf(text, sizeof(text), "%s: end of interval %u while interval %u begun at %s "
                     "is open inside it: both end there", at, notes[i].id,
                     pz_markers_id(notes[i].interval), inner);
            break;
        case PZ_MISUSE_OPEN_AT_END:
            snprintf(text, sizeof(text), "%s: interval %u was still open at MPI_Finalize: "
                     "ended there", at, notes[i].id);
            break;
        }
        pz_strings_add(p, text);
    }
}

/* The warnings in the trace, for the report to show them again. */
static void store_warnings(char **all, uint32_t nall)
{
    char name[64];

    for (uint32_t i = 0; i < nall; i++) {
        snprintf(name, sizeof(name), PZ_MARKER_WARNING_PROPERTY, i + 1);
        pz_archive_set_property(name, all[i]);
    }
}

static void report_warnings(MPI_Comm comm, struct pz_strings *p)
{
    uint32_t *ignored = malloc((size_t)(p->n ? p->n : 1) * sizeof(uint32_t)), nall;
    char **all;

    pz_unify_strings(comm, p->text ? p->text : "", (int)p->len, p->n, ignored, &all, &nall);
    for (uint32_t i = 0; i < nall; i++)
        pz_runtime_warn("%s", all[i]);
    store_warnings(all, nall);
    pz_free_strings(all, nall);
    free(ignored);
}

int pz_intervals_unify(MPI_Comm comm, uint32_t *map, struct pz_interval_def **all,
                       uint32_t *nall)
{
    struct pz_callsites *cs = pz_callsites_open();
    struct pz_strings ids = { 0 }, warns = { 0 };
    char **texts;
    int rc;

    identities(cs, &ids);
    warnings(cs, &warns);
    pz_callsites_close(cs);
    rc = pz_unify_strings(comm, ids.text ? ids.text : "", (int)ids.len, ids.n, map, &texts,
                          nall);
    *all = pz_intervals_parse(texts, *nall);
    pz_free_strings(texts, *nall);
    report_warnings(comm, &warns);
    free(ids.text);
    free(warns.text);
    return rc;
}
