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
    case PZ_CAT_RMA:
        return PZ_FAMILY_RMA;
    default:
        return PZ_FAMILY_OTHER;
    }
}
