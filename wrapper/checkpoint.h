/* Periodic checkpoints: what a process recorded is written out every
 * PROGNOZ_FLUSH_INTERVAL seconds (10 by default, 0: never), so that a process killed
 * without warning (SIGKILL, the out-of-memory killer, a lost node), where no handler
 * runs, still leaves its trace up to its last checkpoint (docs/record.md).
 *
 * A checkpoint runs on the calling thread at the end of a traced call once the
 * interval has passed: the thread's records are written to its event file, which is
 * closed and appended to STAGE/traces/LOC.evt.saved (evt_file.h), and STAGE/part.RANK
 * is written as a part (part.h) saying the process was killed, with a "saved" line
 * giving the length of the saved file that holds its events.  The next records go to a
 * new event file, joined to the saved one when the process ends in any way that runs
 * code (pz_checkpoint_join); `prognoz record` assembles a killed one from the saved
 * file.  Only a process recording on one thread takes checkpoints: another thread's
 * buffer cannot be written out from the calling thread. */
#ifndef PZ_CHECKPOINT_H
#define PZ_CHECKPOINT_H

#include <stdatomic.h>
#include <stdint.h>

#include "thread.h"

/* Ticks at which the next checkpoint may be due; UINT64_MAX when none is to come. */
extern _Atomic uint64_t pz_checkpoint_due;

/* Once the archive is open: reads PROGNOZ_FLUSH_INTERVAL (rank 0 warns about a value
 * that is not a number of seconds from 0 to 1e6, and the default is used) and sets the
 * first due time. */
void pz_checkpoint_arm(void);

/* Called by the wrapper at the end of a call of thread t whose leave time reached
 * pz_checkpoint_due: takes the checkpoint if the interval has really passed. */
void pz_checkpoint(struct pz_thread *t);

/* Stops checkpoints and, once the event files are closed, joins the event file of the
 * thread that took them to its saved file, which becomes its event file again.  Warns
 * when that fails. */
void pz_checkpoint_join(void);

/* Inline in the wrapper's pz_call_leave: whether a checkpoint may be due at leave. */
static inline int pz_checkpoint_may_be_due(uint64_t leave)
{
    return leave >= atomic_load_explicit(&pz_checkpoint_due, memory_order_relaxed);
}

#endif
