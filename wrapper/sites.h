/* Call sites of every MPI call, recorded when PROGNOZ_CALLSITES=1: the return address
 * into the program, kept after the record's items, numbered per process when the
 * buffer is written out, and resolved to file and line at finalize (callsite.h).  In the
 * trace a call's Enter event carries its site as the attribute "prognoz:callsite" of type
 * SOURCE_CODE_LOCATION. */
#ifndef PZ_SITES_H
#define PZ_SITES_H

#include <mpi.h>
#include <stdint.h>

#include "interval_defs.h"

/* Nonzero when every call records its call site (set once at start). */
extern int pz_record_sites;

/* The local number of a call site, new if needed; UINT32_MAX if memory ran out. */
uint32_t pz_sites_number(uintptr_t site);

/* Number of local call sites. */
uint32_t pz_sites_count(void);

/* Appends the identity of every local call site, in local order, to list (what
 * pz_sites_unify unifies; interval_defs.h). */
void pz_sites_identities(struct pz_callsites *cs, struct pz_strings *list);

/* Collective over comm: fills map[i] with the global number of local site i; rank 0
 * receives every call site of the run (file, line; id unused) in *all and *nall, free
 * with pz_intervals_free; elsewhere NULL and 0. */
int pz_sites_unify(MPI_Comm comm, uint32_t *map, struct pz_interval_def **all,
                   uint32_t *nall);

#endif
