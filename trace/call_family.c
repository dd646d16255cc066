/* The families of MPI functions (call_family.h). */
#include "call_family.h"
#include "calls_gen.h"

enum pz_call_family pz_call_family(int call)
{
    if (call < 0 || call >= PZ_NCALLS)
        return PZ_FAMILY_OTHER;
    switch (pz_calls[call].category) {
    case PZ_CAT_IO: case PZ_CAT_IO_OPEN: case PZ_CAT_IO_CLOSE: case PZ_CAT_IO_ACCESS:
    case PZ_CAT_IO_IACCESS: case PZ_CAT_IO_SPLIT_BEGIN: case PZ_CAT_IO_SPLIT_END:
    case PZ_CAT_IO_SEEK: case PZ_CAT_IO_SYNC:
        return PZ_FAMILY_IO;
    case PZ_CAT_RMA: case PZ_CAT_RMA_WIN_NEW: case PZ_CAT_RMA_WIN_FREE: case PZ_CAT_RMA_PUT:
    case PZ_CAT_RMA_GET: case PZ_CAT_RMA_ACC: case PZ_CAT_RMA_FETCH: case PZ_CAT_RMA_FENCE:
    case PZ_CAT_RMA_LOCK: case PZ_CAT_RMA_UNLOCK: case PZ_CAT_RMA_FLUSH:
    case PZ_CAT_RMA_EPOCH: case PZ_CAT_RMA_EPOCH_END:
        return PZ_FAMILY_RMA;
    default:
        return PZ_FAMILY_OTHER;
    }
}
