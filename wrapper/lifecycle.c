/* The recorder at MPI_Init and MPI_Finalize: recording turned on and the initialising
 * call recorded; the finalizing call recorded and the trace written. */
#include <stdint.h>

#include "checkpoint.h"
#include "ending.h"
#include "hooks.h"
#include "lifecycle.h"
#include "markers.h"
#include "prognoz.h"
#include "runtime.h"
#include "session.h"

/* The calling thread's recording state, made (its buffer faulted in) on first use. */
static struct pz_thread *recording_thread(void)
{
    return pz_thread_current ? pz_thread_current : pz_thread_attach();
}

/* Records the call that initialised or finalises MPI on thread t (NULL: not recorded);
 * cpu: the thread's CPU time at enter and at leave. */
static void record_call(struct pz_thread *t, int call, uint64_t enter, uint64_t leave,
                        const uint64_t cpu[2])
{
    struct pz_record r = { .enter = enter, .leave = leave, .call = (uint16_t)call,
                           .aux = pz_record_cpu ? PZ_AUX_CPU : 0 };

    if (t) {
        t->nitems = 0;
        pz_thread_commit_call(t, &r, cpu);
    }
}

void pz_lifecycle_start(int thread_level, uint64_t enter, uint64_t cpu_enter, int call)
{
    int ok = pz_runtime_begin(thread_level);

    if (ok)
        ok = pz_session_open() == 0;
    pz_runtime_begun(ok);
    if (ok) {
        struct pz_thread *t = recording_thread();
        uint64_t leave, cpu[2] = { cpu_enter, 0 };

        /* Every process leaves MPI_Init at once, as without the recorder (MPICH's ends
           in its process manager's barrier): the recorder's start takes longer on rank
           0 (the trace folder, the clock offsets), which would otherwise show as a
           skew of the processes that their first communication absorbs (114 ms in a
           run of 2).  ok is the same on every process: both steps above agree on it. */
        PMPI_Barrier(pz_session.comm);
        leave = pz_ticks();
        cpu[1] = pz_cpu_now();
        record_call(t, call, enter, leave, cpu);
        pz_ending_arm();
        pz_checkpoint_arm();
    }
}

void pz_lifecycle_record(int call, uint64_t when, uint64_t cpu)
{
    record_call(recording_thread(), call, when, when, (const uint64_t[2]){ cpu, cpu });
}

void pz_lifecycle_finish(uint64_t enter, uint64_t cpu)
{
    if (!pz_runtime_on())
        return;
    for (struct pz_thread *t = pz_thread_first(); t; t = t->next)
        pz_markers_close_all(t, enter);
    pz_lifecycle_record(PZ_CALL_MPI_Finalize, enter, cpu);
    prognoz_recorder = 0;
    if (!pz_session.archive_open && pz_session_open() != 0) {
        pz_thread_release_all();
        pz_runtime_stop();
        return;
    }
    pz_session_write();
    pz_runtime_stop();
    pz_thread_release_all();
}
