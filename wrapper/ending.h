/* The ways a recorded process can end without MPI_Finalize, each leading to
 * pz_partial_save (partial.h): MPI_Abort (init.c calls pz_ending_abort), exit() before
 * MPI_Finalize, and the fatal signals a crash, mpiexec or a batch system deliver.  The
 * process still ends as it would without the recorder: same exit status, same signal. */
#ifndef PZ_ENDING_H
#define PZ_ENDING_H

#include <stdint.h>

/* Once the archive is open: catches exit() and the signals SIGABRT, SIGTERM, SIGINT
 * and SIGXCPU whose action is still the default, and the faults SIGSEGV, SIGBUS,
 * SIGFPE and SIGILL unless ignored (a handler of the program or of MPI for a fault is
 * called after saving).  A signal other than a fault that the program or MPI handle
 * themselves is left to them, since their handler may let the run go on; if they then
 * call exit(), that is caught. */
void pz_ending_arm(void);

/* In MPI_Abort, before PMPI_Abort: records the call (enter: ticks) and saves. */
void pz_ending_abort(int errorcode, uint64_t enter, uint64_t cpu);

#endif
