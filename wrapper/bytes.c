/* The cache of the sizes of predefined datatypes (bytes.h). */
#include "bytes.h"

_Atomic uint64_t pz_type_sizes[PZ_TYPE_SLOTS];

uint64_t pz_type_size_asked(MPI_Datatype type)
{
    uint32_t handle = (uint32_t)MPI_Type_c2f(type);
    _Atomic uint64_t *slot = pz_type_slot(handle);
    MPI_Count size = 0;
    int ni, na, nd, combiner;

    if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size < 0)
        size = 0;
    if ((uint32_t)(atomic_load_explicit(slot, memory_order_relaxed) >> 32) != handle + 1) {
        PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
        atomic_store_explicit(slot, (uint64_t)(handle + 1) << 32 |
                                        (uint32_t)(combiner == MPI_COMBINER_NAMED ? size : -1),
                              memory_order_relaxed);
    }
    return (uint64_t)size;
}
