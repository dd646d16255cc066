/* The recorder at MPI_Init and MPI_Finalize (init.c). */
#ifndef PZ_LIFECYCLE_H
#define PZ_LIFECYCLE_H

#include <stdint.h>

/* After PMPI_Init(_thread) succeeded; collective over MPI_COMM_WORLD.  enter and leave
 * are the times of the initialising call, cpu the thread's CPU times then (clock.h). */
void pz_lifecycle_start(int thread_level, uint64_t enter, uint64_t leave,
                        const uint64_t cpu[2], int call);

/* Before PMPI_Finalize; collective.  Writes the trace and stops recording.  enter and
 * cpu: the time and the thread's CPU time at which MPI_Finalize was called. */
void pz_lifecycle_finish(uint64_t enter, uint64_t cpu);

/* Records call as made at when (ticks) and returning at once, on the calling thread;
 * cpu: the thread's CPU time then.  For the calls that end the recording. */
void pz_lifecycle_record(int call, uint64_t when, uint64_t cpu);

#endif
