/* Bytes of a number of elements of a datatype: asked by nearly every traced call with a
 * buffer, so the sizes of predefined datatypes, which never change, are cached and the
 * common case is inline.  Derived datatypes may be freed and their handles reused:
 * their sizes are always asked of MPI. */
#ifndef PZ_BYTES_H
#define PZ_BYTES_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>

/* A slot holds (handle + 1) << 32 | the size, or | UINT32_MAX for a derived type. */
#define PZ_TYPE_SLOTS 64
extern _Atomic uint64_t pz_type_sizes[PZ_TYPE_SLOTS];

static inline _Atomic uint64_t *pz_type_slot(uint32_t handle)
{
    return &pz_type_sizes[(handle * 2654435761u) >> 26];
}

/* Size of type asked of MPI, and remembered if the type is predefined. */
int pz_type_size_asked(MPI_Datatype type);

/* Bytes of count elements of type; 0 for no elements or MPI_DATATYPE_NULL. */
static inline uint64_t pz_bytes(int count, MPI_Datatype type)
{
    uint32_t handle = (uint32_t)MPI_Type_c2f(type);
    uint64_t known;

    if (count <= 0 || type == MPI_DATATYPE_NULL)
        return 0;
    known = atomic_load_explicit(pz_type_slot(handle), memory_order_relaxed);
    if ((uint32_t)(known >> 32) == handle + 1 && (int32_t)known >= 0)
        return (uint64_t)count * (uint32_t)known;
    return (uint64_t)count * (uint64_t)pz_type_size_asked(type);
}

#endif
