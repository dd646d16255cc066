/* The recorder's life: configuration from the environment, start after MPI_Init,
 * lazy start when MPI_Init was not seen, and the writing of the trace at MPI_Finalize. */
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

/* After PMPI_Init(_thread) succeeded; collective over MPI_COMM_WORLD.  enter and leave
 * are the times of the initialising call, cpu the thread's CPU times then (clock.h). */
void pz_runtime_start(int thread_level, uint64_t enter, uint64_t leave, const uint64_t cpu[2],
                      int call);

/* Before PMPI_Finalize; collective.  Writes the trace and stops recording.  enter and
 * cpu: the time and the thread's CPU time at which MPI_Finalize was called. */
void pz_runtime_finish(uint64_t enter, uint64_t cpu);

#endif
