/* The class of an MPI call (call_class.h), by the category of its function in
 * prognoz's table (wrapper/mpi_calls.tbl): the wait and probe families hold blocking
 * functions and their testing twins, told apart by name. */
#include <string.h>

#include "call_class.h"
#include "calls_gen.h"

/* MPI_Test, MPI_Testall..., MPI_Iprobe, MPI_Improbe: return at once. */
static int tests(const char *name)
{
    return !strncmp(name, "MPI_Test", 8) || !strncmp(name, "MPI_I", 5);
}

enum pz_call_class pz_call_class(const struct pz_region_info *region)
{
    const struct pz_call_info *call;

    if (region->call < 0 || region->call >= PZ_NCALLS)
        return PZ_CLASS_OTHER;
    call = &pz_calls[region->call];
    switch (call->category) {
    case PZ_CAT_COLL: case PZ_CAT_NBR:
        return PZ_CLASS_COLLECTIVE;
    case PZ_CAT_SEND:
        return PZ_CLASS_SEND;
    case PZ_CAT_ISEND: case PZ_CAT_ISENDRECV:
        return PZ_CLASS_ISEND;
    case PZ_CAT_RECV: case PZ_CAT_SENDRECV: case PZ_CAT_SENDRECV_REPLACE: case PZ_CAT_MRECV:
        return PZ_CLASS_RECV;
    case PZ_CAT_IRECV: case PZ_CAT_IMRECV:
        return PZ_CLASS_IRECV;
    case PZ_CAT_PROBE: case PZ_CAT_MPROBE: case PZ_CAT_WAIT: case PZ_CAT_WAITALL:
    case PZ_CAT_WAITANY: case PZ_CAT_WAITSOME:
        return tests(call->name) ? PZ_CLASS_IRECV : PZ_CLASS_RECV;
    default:
        return PZ_CLASS_OTHER;
    }
}

enum pz_call_class pz_call_class_of(struct pz_trace_in *in, int th, size_t len,
                                    const struct pz_region_info *region)
{
    const struct pz_rec *r;
    enum pz_category cat = region->call >= 0 && region->call < PZ_NCALLS
                               ? pz_calls[region->call].category : PZ_CAT_PLAIN;

    if (cat != PZ_CAT_START && cat != PZ_CAT_STARTALL)
        return pz_call_class(region);
    for (size_t i = 1; i < len && (r = pz_trace_in_peek(in, th, i)); i++) {
        if (r->kind == PZ_REC_ISEND)
            return PZ_CLASS_ISEND;
        if (r->kind == PZ_REC_IRECV_REQUEST)
            return PZ_CLASS_IRECV;
        if (r->kind == PZ_REC_NBC_REQUEST)      /* a persistent collective */
            return PZ_CLASS_COLLECTIVE;
    }
    return PZ_CLASS_OTHER;
}
