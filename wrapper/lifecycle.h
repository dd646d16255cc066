/* The recorder at MPI_Init and MPI_Finalize (init.c). */
#ifndef PZ_LIFECYCLE_H
#define PZ_LIFECYCLE_H

#include <stdint.h>

/* After PMPI_Init(_thread) succeeded; collective over MPI_COMM_WORLD.  enter is the
 * time the initialising call began and cpu_enter the thread's CPU time then (clock.h).
 * The call is recorded as returning when the recorder is ready: its own start (its
 * buffer, the archive, the clocks) is part of MPI_Init, not of the program's first
 * computation, which it would otherwise lengthen by tens of milliseconds. */
void pz_lifecycle_start(int thread_level, uint64_t enter, uint64_t cpu_enter, int call);

/* Before PMPI_Finalize; collective.  Writes the trace and stops recording.  enter and
 * cpu: the time and the thread's CPU time at which MPI_Finalize was called. */
void pz_lifecycle_finish(uint64_t enter, uint64_t cpu);

/* Records call as made at when (ticks) and returning at once, on the calling thread;
 * cpu: the thread's CPU time then.  For the calls that end the recording. */
void pz_lifecycle_record(int call, uint64_t when, uint64_t cpu);

#endif
