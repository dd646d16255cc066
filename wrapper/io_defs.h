/* The global definitions of MPI-IO and one-sided windows, written by rank 0 at finalize
 * after the communicators: the I/O paradigm "MPI-IO" (id 0), one IoRegularFile per
 * distinct file name in order of first appearance, and one IoHandle per handle of the
 * run, named after its file and scoped by the communicator that opened it; one RmaWin
 * per window of the run, on the communicator that created it (docs/trace-format.md). */
#ifndef PZ_IO_DEFS_H
#define PZ_IO_DEFS_H

#include <otf2/otf2.h>

#include "globaldefs.h"

/* The I/O paradigm's identification and name, as Score-P writes them. */
#define PZ_IO_PARADIGM_MPI_IO "MPI-IO"

/* Writes the definitions of run's I/O handles (run->io_handles: identities as handles.h
 * makes them, "GID LEADER SEQ NAME"), numbering new strings from *next_string on.
 * Writes nothing for a run without handles. */
void pz_write_io_definitions(OTF2_GlobalDefWriter *w, OTF2_StringRef *next_string,
                             const struct pz_run_info *run);

/* Writes the definitions of run's windows (run->rma_windows, identities alike), named
 * "MPI window N", flag CREATE_DESTROY_EVENTS; nothing for a run without windows. */
void pz_write_rma_definitions(OTF2_GlobalDefWriter *w, OTF2_StringRef *next_string,
                              const struct pz_run_info *run);

#endif
