/* The wrappers written by hand: initialisation starts recording, finalisation writes
 * the trace (mpi_calls.tbl marks them 'hand'). */
#include "ending.h"
#include "hooks.h"
#include "lifecycle.h"
#include "runtime.h"

static int thread_level(void)
{
    int level = MPI_THREAD_SINGLE;

    PMPI_Query_thread(&level);
    return level;
}

/* The thread's CPU time is read here whether PROGNOZ_CPU_TIME is set or not (the
 * environment is read once MPI is initialised): a few hundred ns, once a run. */
PZ_EXPORT int MPI_Init(int *argc, char ***argv)
{
    uint64_t cpu = pz_cpu_now(), enter = pz_ticks();
    int ret = PMPI_Init(argc, argv);

    if (ret == MPI_SUCCESS)
        pz_lifecycle_start(thread_level(), enter, cpu, PZ_CALL_MPI_Init);
    return ret;
}

PZ_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    uint64_t cpu = pz_cpu_now(), enter = pz_ticks();
    int ret = PMPI_Init_thread(argc, argv, required, provided);

    if (ret == MPI_SUCCESS)
        pz_lifecycle_start(*provided, enter, cpu, PZ_CALL_MPI_Init_thread);
    return ret;
}

PZ_EXPORT int MPI_Finalize(void)
{
    uint64_t cpu = pz_cpu_now(), enter = pz_ticks();

    if (pz_runtime_recording())
        pz_lifecycle_finish(enter, cpu);
    return PMPI_Finalize();
}

/* MPI_Abort ends every process at once: this one saves what it recorded first
 * (ending.h); the others are killed by MPI. */
PZ_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
    if (pz_runtime_recording())
        pz_ending_abort(errorcode, pz_ticks(), pz_cpu_now());
    return PMPI_Abort(comm, errorcode);
}

PZ_EXPORT int MPI_Pcontrol(const int level, ...)
{
    struct pz_call call;

    if (!pz_call_enter(&call, PZ_CALL_MPI_Pcontrol))
        return PMPI_Pcontrol(level);
    call.ret = PMPI_Pcontrol(level);
    pz_call_returned(&call);
    return pz_call_leave(&call);
}
