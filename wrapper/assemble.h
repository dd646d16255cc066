/* The trace of a run that ended without MPI_Finalize, assembled afterwards from what
 * each process left (part.h) in the run's staging folder DIR/.prognoz-new-XXXXXX: the
 * global definitions are rebuilt as the unification at finalize would have made them,
 * every location gets its local definitions, a process that left nothing gets an empty
 * event file, and DIR/traces.otf2 is installed with the OTF2 property
 * PZ_PARTIAL_PROPERTY (trace/names.h) saying how each process ended.  Needs no MPI:
 * `prognoz record` calls it once the command it ran has ended. */
#ifndef PZ_ASSEMBLE_H
#define PZ_ASSEMBLE_H

#include <time.h>

/* The partial trace left in dir by a run that wrote its parts at time since or later,
 * if any (the newest): assembled and installed as dir/traces.otf2.  Returns 1 when a
 * trace was installed, 0 when dir holds no such part, -1 after a message on stderr. */
int pz_assemble_partial(const char *dir, time_t since);

#endif
