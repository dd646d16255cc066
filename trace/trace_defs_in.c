/* The definitions of a recorded run as the replay asks for them (trace_in.h), on top of
 * the one definitions reader (defs.h). */
#include "trace_in_int.h"

const char *pz_trace_in_string(const struct pz_trace_in *t, uint32_t ref)
{
    return pz_defs_string(&t->defs, ref);
}

const struct pz_region_info *pz_trace_in_region(const struct pz_trace_in *t, uint32_t ref)
{
    static const struct pz_region_info unknown = { .name = "?", .kind = PZ_REGION_OTHER,
                                                   .call = -1 };

    return ref < t->defs.nregions && t->defs.regions[ref].name ? &t->defs.regions[ref]
                                                               : &unknown;
}

const struct pz_comm_def *pz_trace_in_comm_def(const struct pz_trace_in *t, uint32_t comm)
{
    return pz_defs_comm(&t->defs, comm);
}

uint32_t pz_trace_in_ncomms(const struct pz_trace_in *t)
{
    return t->defs.ncomms;
}

const struct pz_cart_def *pz_trace_in_cart(const struct pz_trace_in *t, uint32_t comm)
{
    return pz_defs_cart(&t->defs, comm);
}

int pz_trace_in_comm(const struct pz_trace_in *t, uint32_t comm, const int **procs)
{
    const struct pz_comm_def *c = pz_defs_comm(&t->defs, comm);

    if (!c)
        return -1;
    *procs = c->procs;
    return c->self ? 0 : (int)c->size;
}

uint32_t pz_trace_in_window_comm(const struct pz_trace_in *t, uint32_t window)
{
    return window < t->defs.nwindows && t->defs.window_comms[window]
               ? t->defs.window_comms[window] - 1
               : PZ_NONE32;
}

int pz_trace_in_group(const struct pz_trace_in *t, uint32_t group, int **procs)
{
    return pz_defs_group_processes(&t->defs, group, procs);
}

int pz_trace_in_comm_local(const struct pz_trace_in *t, uint32_t comm)
{
    const struct pz_comm_def *c = pz_defs_comm(&t->defs, comm);

    return c ? (int)c->local : 0;
}
