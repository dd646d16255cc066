/* Call sites: the source file and line of a code address of this process.
 *
 * The recorder keeps raw return addresses on the hot path (one word per call); at
 * MPI_Finalize every process turns its own addresses into source locations, because
 * only it knows its load map: shared objects and address-space randomisation differ
 * between processes.  Resolution reads ELF and DWARF through elfutils' libdwfl and
 * costs milliseconds, so it must never run on the hot path.
 *
 * Debug information is the object's own DWARF or a separate debug file on this machine:
 * under /usr/lib/debug/.build-id by build id, or the file .gnu_debuglink names, next to
 * the object, in its .debug/ or under /usr/lib/debug.  Never on the network: debuginfod
 * servers (DEBUGINFOD_URLS) are not asked and libdebuginfod is not loaded, so that a
 * thousand ranks finishing at once neither download debug files nor pull libcurl in.
 *
 * Cost: opening reads the load map only; the first address in an object reads its
 * symbol table (sorted once) and, through libdw, the line tables it needs.  5000
 * addresses spread over all the code of a process linked with MPI take about 0.1 s
 * (tests/unit/callsite_probe bench 5000); an address seen again about 0.5 us.
 *
 * Not thread safe: one thread opens, resolves and closes. */
#ifndef PZ_CALLSITE_H
#define PZ_CALLSITE_H

#include <stdint.h>

/* Source location of a code address of this process. */
struct pz_source_loc {
    /* The source file as DWARF's line table names it (usually absolute; relative when
     * the compiler recorded it so).  For code without line information: the path of the
     * object file (executable or shared library) the address lies in, as the load map
     * names it.  Never NULL. */
    const char *file;
    /* Line of the call instruction, 1-based; 0 when unknown. */
    unsigned line;
    /* The function symbol whose range holds the address (the out-of-line function the
     * code was compiled into), from the object's .symtab, else its .dynsym.  Of aliases
     * the global, unversioned one with the fewest leading underscores ("printf", not
     * "_IO_printf").  C++ names stay mangled.  NULL if none: no symbol table, a static
     * function of a library with .dynsym only, a symbol without size. */
    const char *function;
};

/* A resolver for the address space of this process. */
struct pz_callsites;

/* Reads this process's load map (/proc/self/maps) as it is now, so open after the
 * addresses were captured: objects dlopen()ed later are not seen, and an address in an
 * object dlclose()d before is unknown, or resolved against whatever is mapped there now.
 * ELF and DWARF files are read lazily, on the first address that falls into them.
 * NULL on failure. */
struct pz_callsites *pz_callsites_open(void);

/* Resolves the call instruction that precedes RETURN_ADDRESS (a value of
 * __builtin_return_address(0) taken in the callee): the location of RETURN_ADDRESS - 1,
 * which lies inside the call even when the call is the last instruction of a line or of
 * a function.
 *
 * Inlined code: file and line are the line-table row of the call instruction, i.e. the
 * line of the call in the source it was written in (the inlined function's body), as
 * addr2line reports it without -i; function names the symbol the code was inlined into.
 *
 * Returns 0 when the address lies in a mapped object, with *OUT filled in as far as
 * known; -1 when nothing at all is known (address 0, an address outside every mapped
 * object, or CS NULL), with OUT->file "??", line 0, function NULL. */
int pz_callsites_resolve(struct pz_callsites *cs, uintptr_t return_address,
                         struct pz_source_loc *out);

/* Frees the resolver.  Every string a resolve returned stays valid until then. */
void pz_callsites_close(struct pz_callsites *cs);

#endif
