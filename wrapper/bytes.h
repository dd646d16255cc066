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

/* Size of type asked of MPI (MPI_Type_size_x: a derived type may exceed 2 GiB), and
 * remembered if the type is predefined; 0 if MPI cannot tell. */
uint64_t pz_type_size_asked(MPI_Datatype type);

/* count × size in 64 bits; UINT64_MAX if the product does not fit, which no program's
 * memory reaches.  An int count (below 2^31) times a size below 2^32 always fits. */
static inline uint64_t pz_times_size(MPI_Count count, uint64_t size)
{
    uint64_t bytes;

    return __builtin_mul_overflow((uint64_t)count, size, &bytes) ? UINT64_MAX : bytes;
}

/* Bytes of count elements of type; 0 for no elements or MPI_DATATYPE_NULL.  The count is
 * an MPI_Count, as the large-count functions (MPI_Send_c...) take it; the int counts of
 * the others convert to it, at no cost once inlined. */
static inline uint64_t pz_bytes(MPI_Count count, MPI_Datatype type)
{
    uint32_t handle = (uint32_t)MPI_Type_c2f(type);
    uint64_t known;

    if (count <= 0 || type == MPI_DATATYPE_NULL)
        return 0;
    known = atomic_load_explicit(pz_type_slot(handle), memory_order_relaxed);
    if ((uint32_t)(known >> 32) == handle + 1 && (int32_t)known >= 0)
        return pz_times_size(count, (uint32_t)known);
    return pz_times_size(count, pz_type_size_asked(type));
}

/* An array of counts as an MPI function takes it: int elements, or MPI_Count elements
 * in the large-count functions (MPI_Alltoallv_c...).  One implementation reads both
 * through pz_count_at; the generated wrappers make it with pz_int_counts or
 * pz_wide_counts, as the parameter's type says. */
struct pz_counts {
    const void *at;            /* NULL: the function has no such array */
    int wide;                  /* elements are MPI_Count, not int */
};

#define PZ_COUNTS_NONE ((struct pz_counts){ NULL, 0 })

static inline struct pz_counts pz_int_counts(const int *counts)
{
    return (struct pz_counts){ counts, 0 };
}

static inline struct pz_counts pz_wide_counts(const MPI_Count *counts)
{
    return (struct pz_counts){ counts, 1 };
}

/* Element i of counts, which is not PZ_COUNTS_NONE. */
static inline MPI_Count pz_count_at(struct pz_counts counts, int i)
{
    return counts.wide ? ((const MPI_Count *)counts.at)[i] : ((const int *)counts.at)[i];
}

#endif
