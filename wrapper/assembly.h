/* The numbering of a partial run's definitions (assemble.h), for the assembly. */
#ifndef PZ_ASSEMBLY_H
#define PZ_ASSEMBLY_H

#include <stdint.h>

#include "comms.h"
#include "part.h"

/* The run's numbering of what the parts hold, as the unification at finalize makes it:
 * communicators by sorted global id, strings (count lists, intervals, call sites) in
 * order of first appearance, rank 0's first.  parts[r] is rank r's, ending NULL when
 * that rank left none; maps[r] likewise NULL then. */
struct pz_assembly_strings {
    char **all;                 /* distinct strings, borrowed from the parts */
    uint32_t nall;
    uint32_t **maps;            /* per rank: global number of each local string */
};

struct pz_assembly {
    int size;
    struct pz_global_comm *comms;   /* members borrowed from the parts */
    uint32_t ncomms;
    uint32_t **comm_maps;
    struct pz_assembly_strings lists, intervals, sites, io_handles, windows, rma_groups;
};

/* Unifies the parts of parts[0..size-1].  Returns 0, or -1 if memory ran out. */
int pz_assembly_unify(const struct pz_part *parts, int size, struct pz_assembly *a);

void pz_assembly_free(struct pz_assembly *a);

#endif
