/* Bytes of the v and w collectives, summed over their per-peer counts (coll_bytes.h). */
#include "coll_bytes.h"

uint64_t pz_coll_sum(struct pz_counts counts, MPI_Datatype type, const MPI_Datatype *types,
                     int size, int self)
{
    uint64_t sum = 0;

    if (!counts.at)
        return 0;
    for (int i = 0; i < size; i++)
        if (i != self)
            sum += pz_bytes(pz_count_at(counts, i), types ? types[i] : type);
    return sum;
}
