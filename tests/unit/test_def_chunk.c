/* The chunk size of the definitions prognoz writes (trace/def_chunk.h). */
#include <criterion/criterion.h>

#include "def_chunk.h"

/* A group of n members needs 9 n + 65536 bytes. */
Test(def_chunk, the_smallest_chunk_until_a_group_of_every_process_needs_more)
{
    /* 9 * 1024 + 65536 = 74752 <= 262144 */
    cr_expect_eq(pz_def_chunk(1024), 256 * 1024);
    /* 9 * 21845 + 65536 = 262141 <= 262144; one more process: 262150 */
    cr_expect_eq(pz_def_chunk(21845), 256 * 1024);
    cr_expect_eq(pz_def_chunk(21846), 512 * 1024);
    /* 9 * 65536 + 65536 = 655360: 1 MiB */
    cr_expect_eq(pz_def_chunk(65536), 1024 * 1024);
}

Test(def_chunk, at_most_otf2s_largest)
{
    /* 9 * 2^20 + 65536 = 9502720: 16 MiB; 2^22 processes would need more */
    cr_expect_eq(pz_def_chunk(1u << 20), 16 * 1024 * 1024);
    cr_expect_eq(pz_def_chunk(1u << 22), 16 * 1024 * 1024);
}
