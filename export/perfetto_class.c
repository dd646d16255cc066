/* The categories and colours of the classes of MPI calls in the Perfetto export; the
 * classes themselves are trace/call_class.c's. */
#include "perfetto.h"

enum pz_perfetto_class pz_perfetto_class(const struct pz_region_info *region)
{
    return (enum pz_perfetto_class)pz_call_class(region);
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
