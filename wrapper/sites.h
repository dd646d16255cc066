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

/* The code of the objects a call site never lies in: MPI's libraries (those whose file
 * name begins with "libmpi" or "libpmpi": libmpi, libmpich, libmpichfort, libmpifort,
 * Open MPI's libmpi_mpifh and libmpi_usempif08...) and the recorder when it is a shared
 * object of its own (its use mpi_f08 wrappers call its C wrappers).  Found once, by
 * address range, when the first call site is taken; objects loaded later are not seen.
 * Filled in before ready is set, never changed after. */
#define PZ_SITES_MAX_RANGES 16
struct pz_sites_bindings {
    int ready;
    unsigned n;
    uintptr_t lo, hi; /* the hull of the ranges: most program code lies outside it */
    struct {
        uintptr_t start, end;
    } range[PZ_SITES_MAX_RANGES];
};
extern struct pz_sites_bindings pz_sites_bindings;

/* Nonzero if ADDRESS lies in the code of pz_sites_bindings (ready or not). */
static inline int pz_sites_in_binding(uintptr_t address)
{
    const struct pz_sites_bindings *b = &pz_sites_bindings;

    if (address < b->lo || address >= b->hi)
        return 0;
    for (unsigned i = 0; i < b->n; i++)
        if (address >= b->range[i].start && address < b->range[i].end)
            return 1;
    return 0;
}

/* The slow path of pz_sites_program_call: finds the bindings' code the first time, and
 * unwinds the stack when RETURN_ADDRESS lies in it. */
uintptr_t pz_sites_unwind_bindings(uintptr_t return_address);

/* The call site of the MPI call in progress, whose wrapper returns to RETURN_ADDRESS;
 * call it inside the wrapper, with the callers' frames still on the stack.  When a
 * binding made the call (mpif.h and use mpi through MPICH's libmpichfort, use mpi_f08
 * through the recorder's own wrappers, C++ through libmpicxx), the return address of the
 * first frame outside the bindings' code: the program's call of the binding.  Otherwise
 * RETURN_ADDRESS itself, at the cost of a few comparisons; also when no frame lies
 * outside the bindings or the stack cannot be unwound. */
static inline uintptr_t pz_sites_program_call(uintptr_t return_address)
{
    if (__builtin_expect(!__atomic_load_n(&pz_sites_bindings.ready, __ATOMIC_ACQUIRE), 0)
        || __builtin_expect(pz_sites_in_binding(return_address), 0))
        return pz_sites_unwind_bindings(return_address);
    return return_address;
}

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
