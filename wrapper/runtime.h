/* The recorder's state: configuration from the environment, recording on or off, and
 * the lazy start when MPI_Init was not seen.  MPI_Init and MPI_Finalize drive it through
 * lifecycle.h. */
#ifndef PZ_RUNTIME_H
#define PZ_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include <otf2/otf2.h>

/* Nonzero while calls are being recorded.  Starts recording lazily on the first call
 * after MPI was initialised behind the wrapper's back. */
int pz_runtime_recording(void);

/* Nonzero when the program asked for MPI_THREAD_MULTIPLE; set once at start. */
extern int pz_runtime_multiple;

/* Inline: the request tables ask it at every post and completion (requests.c). */
static inline int pz_runtime_threaded(void)
{
    return pz_runtime_multiple;
}

/* Bytes of each thread's record buffer (PROGNOZ_BUFFER). */
size_t pz_runtime_buffer_size(void);

/* OTF2 location id of this process's thread number index. */
uint64_t pz_runtime_location(uint32_t index);

/* The event writer of a location, or NULL while no archive is open. */
OTF2_EvtWriter *pz_runtime_evt_writer(uint64_t location);

/* Prints "prognoz: warning: ..." on stderr. */
void pz_runtime_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Turning recording on after PMPI_Init(_thread) succeeded, collective over
 * MPI_COMM_WORLD, in two steps under the lock that keeps a lazy start out between them:
 * pz_runtime_begin configures this process and returns nonzero if every process could
 * (the lock is then held); pz_runtime_begun turns recording on if ok, else off, and
 * releases the lock. */
int pz_runtime_begin(int thread_level);
void pz_runtime_begun(int ok);

/* Nonzero while recording is on (no lazy start). */
int pz_runtime_on(void);

/* Turns recording off for good: finished, or the trace cannot be written. */
void pz_runtime_stop(void);

#endif
