/* Checks of a location's local definitions (DIR/traces/LOC.def) as OTF2 reads them:
 * OTF2 applies their mapping tables to the location's events without a word, and
 * ignores one of a type it does not know, so that a damaged file would read as events
 * on other communicators or of other functions.  What the recorder writes
 * (wrapper/localdefs.c) is checked: mapping tables of communicators, strings, regions
 * and call sites map to ids the global definitions have; those of OTF2's other types
 * (other tools write them) are let through, those of a type OTF2 does not know are
 * refused; clock offsets have a finite, non-negative deviation. */
#ifndef PZ_LOCAL_CHECK_H
#define PZ_LOCAL_CHECK_H

#include <stddef.h>
#include <otf2/otf2.h>

#include "defs.h"

/* What the callbacks check against, and the first problem they found ("" if none). */
struct pz_local_check {
    const struct pz_defs *defs;
    char problem[256];
};

/* Registers the checks on a definition reader of f's archive; data: a
 * struct pz_local_check, which must outlive the reading.  OTF2's reading ends at the
 * first problem. */
void pz_local_check_register(OTF2_Reader *otf, OTF2_DefReader *dr, struct pz_local_check *data);

#endif
