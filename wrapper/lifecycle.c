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

/* Records the call that initialised or finalises MPI on the calling thread; cpu: the
 * thread's CPU time at enter and at leave. */
static void record_call(int call, uint64_t enter, uint64_t leave, const uint64_t cpu[2])
{
    struct pz_thread *t = pz_thread_current ? pz_thread_current : pz_thread_attach();
    struct pz_record r = { .enter = enter, .leave = leave, .call = (uint16_t)call,
                           .aux = pz_record_cpu ? PZ_AUX_CPU : 0 };

    if (t) {
        t->nitems = 0;
        pz_thread_commit_call(t, &r, cpu);
    }
}

void pz_lifecycle_start(int thread_level, uint64_t enter, uint64_t leave,
                        const uint64_t cpu[2], int call)
{
    int ok = pz_runtime_begin(thread_level);

    if (ok)
        ok = pz_session_open() == 0;
    pz_runtime_begun(ok);
    if (ok) {
        record_call(call, enter, leave, cpu);
        pz_ending_arm();
        pz_checkpoint_arm();
    }
}

void pz_lifecycle_record(int call, uint64_t when, uint64_t cpu)
{
    record_call(call, when, when, (const uint64_t[2]){ cpu, cpu });
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
