/* Saving what a process recorded when the run ends without MPI_Finalize: its event
 * files closed and its part written (part.h), with no communication.  The ways of
 * ending that lead here are caught by ending.c. */
#ifndef PZ_PARTIAL_H
#define PZ_PARTIAL_H

#include <stdint.h>

struct pz_thread;

/* Ends recording on this process and saves it, once: the intervals still open are
 * closed at when (ticks), every thread's buffer is written to its event file, which is
 * closed, and STAGE/part.RANK is written; ending says how the process ended ("MPI_Abort
 * (error code 4)").  Does nothing unless recording is on with the archive open, or
 * when called a second time.  Not async-signal-safe (ending.c forks first). */
void pz_partial_save(const char *ending, uint64_t when);

/* How a process that a checkpoint saved ended, as far as its part can tell: nothing
 * ran at its end (checkpoint.h). */
#define PZ_PARTIAL_KILLED "killed by an unknown signal (SIGKILL?): recorded until its last flush"

/* Writes the part of a checkpoint: ending PZ_PARTIAL_KILLED, thread t the only one,
 * its events in the first saved bytes of its saved file.  0, or -1 after a warning. */
int pz_partial_checkpoint(const struct pz_thread *t, uint64_t saved);

/* Whether a part was saved or is being saved by this process. */
int pz_partial_saved(void);

#endif
