/* The chunk size of the definitions of an archive prognoz writes.  Every reader of the
 * archive pays it once per location: OTF2 fills a whole chunk when it opens a location's
 * local definitions, and its writer fills one when it closes each location's, on memory
 * it takes anew (bench/README.md, "Reading the local definitions").  So it is the
 * smallest OTF2 takes, 256 KiB, unless a definition may not fit in it: a group of all
 * nprocs processes, 9 bytes a member at most (a compressed 64-bit id), and 64 KiB for
 * the rest of the record; then the smallest power of two that holds it, at most OTF2's
 * largest, 16 MiB. */
#ifndef PZ_DEF_CHUNK_H
#define PZ_DEF_CHUNK_H

#include <stdint.h>
#include <otf2/otf2.h>

static inline uint64_t pz_def_chunk(uint64_t nprocs)
{
    uint64_t need = 9 * nprocs + 64 * 1024, chunk = OTF2_CHUNK_SIZE_MIN;

    while (chunk < need && chunk < OTF2_CHUNK_SIZE_MAX)
        chunk *= 2;
    return chunk;
}

#endif
