/* The class of an MPI call, by the category of its function in prognoz's table
 * (wrapper/mpi_calls.tbl): the wait and probe families hold blocking functions and their
 * testing twins, told apart by name. */
#include <string.h>

#include "calls_gen.h"
#include "perfetto.h"

/* MPI_Test, MPI_Testall..., MPI_Iprobe, MPI_Improbe: return at once. */
static int tests(const char *name)
{
    return !strncmp(name, "MPI_Test", 8) || !strncmp(name, "MPI_I", 5);
}

enum pz_perfetto_class pz_perfetto_class(const struct pz_region_info *region)
{
    const struct pz_call_info *call;

    if (region->call < 0 || region->call >= PZ_NCALLS)
        return PZ_PERFETTO_OTHER;
    call = &pz_calls[region->call];
    switch (call->category) {
    case PZ_CAT_COLL:
        return PZ_PERFETTO_COLLECTIVE;
    case PZ_CAT_SEND:
        return PZ_PERFETTO_SEND;
    case PZ_CAT_ISEND:
        return PZ_PERFETTO_ISEND;
    case PZ_CAT_RECV: case PZ_CAT_SENDRECV: case PZ_CAT_SENDRECV_REPLACE: case PZ_CAT_MRECV:
        return PZ_PERFETTO_RECV;
    case PZ_CAT_IRECV: case PZ_CAT_IMRECV:
        return PZ_PERFETTO_IRECV;
    case PZ_CAT_PROBE: case PZ_CAT_MPROBE: case PZ_CAT_WAIT: case PZ_CAT_WAITALL:
    case PZ_CAT_WAITANY: case PZ_CAT_WAITSOME:
        return tests(call->name) ? PZ_PERFETTO_IRECV : PZ_PERFETTO_RECV;
    default:
        return PZ_PERFETTO_OTHER;
    }
}

/* The colours are the nearest of chrome://tracing's fixed palette (catapult's
 * color_scheme): black; green (0,125,0) and seafoam (126,200,148); midnight blue
 * (0,0,180) and vista blue (133,160,210); light grey (221,221,221). */
static const struct {
    const char *category, *colour;
} classes[PZ_PERFETTO_NCLASSES] = {
    [PZ_PERFETTO_COLLECTIVE] = { "collective", "black" },
    [PZ_PERFETTO_SEND] = { "blocking send", "good" },
    [PZ_PERFETTO_ISEND] = { "nonblocking send", "thread_state_running" },
    [PZ_PERFETTO_RECV] = { "blocking receive or wait", "light_memory_dump" },
    [PZ_PERFETTO_IRECV] = { "nonblocking receive or test", "thread_state_runnable" },
    [PZ_PERFETTO_OTHER] = { "other MPI", "grey" },
};

const char *pz_perfetto_category(enum pz_perfetto_class c)
{
    return classes[c].category;
}

const char *pz_perfetto_colour(enum pz_perfetto_class c)
{
    return classes[c].colour;
}
