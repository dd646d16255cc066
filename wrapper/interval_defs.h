/* The identity of an interval or of a call site (file, line, id), and the string
 * "FILE\nLINE\nID" that carries it between processes for unification (unify.h): what
 * the intervals (intervals.h) and the call sites (sites.h) of a run are made of. */
#ifndef PZ_INTERVAL_DEFS_H
#define PZ_INTERVAL_DEFS_H

#include <stdint.h>

/* One interval of the run. */
struct pz_interval_def {
    char *file;
    unsigned line;
    unsigned id;
    int sequential;        /* begun by a sequential marker (markers.h) */
};

/* Appends to list the identity string of code address site with id, resolved by cs;
 * what pz_intervals_parse reads back.  A sequential interval's identity has a fourth
 * line, "sequential". */
struct pz_callsites;
struct pz_strings;
void pz_intervals_add_identity(struct pz_strings *list, struct pz_callsites *cs,
                               uintptr_t site, unsigned id, int sequential);

/* The n identities of texts; free with pz_intervals_free. */
struct pz_interval_def *pz_intervals_parse(char **texts, uint32_t n);

void pz_intervals_free(struct pz_interval_def *all, uint32_t nall);

#endif
