/* Per-peer byte lists: text by hand, one id per distinct list. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "singleton.h"
#include "vcounts.h"

TestSuite(vcounts, .init = singleton_up, .fini = singleton_down);

Test(vcounts, lists_are_bytes_per_peer_and_kept_once)
{
    const int a[3] = { 1, 2, 3 }, b[3] = { 0, 0, 5 };
    uint32_t first = pz_vcounts_intern(pz_int_counts(a), MPI_DOUBLE, NULL, 3);
    uint32_t second = pz_vcounts_intern(pz_int_counts(b), MPI_INT, NULL, 3);
    int len;
    char *text;

    cr_assert_eq(first, 0);
    cr_assert_eq(second, 1);
    cr_assert_eq(pz_vcounts_intern(pz_int_counts(a), MPI_DOUBLE, NULL, 3), first, "same list, same id");
    cr_assert_eq(pz_vcounts_count(), 2);
    text = pz_vcounts_pack(&len);
    cr_assert_str_eq(text, "8,16,24");
    cr_assert_str_eq(text + strlen(text) + 1, "0,0,20");
    cr_assert_eq(len, (int)(strlen("8,16,24") + strlen("0,0,20") + 2));
    free(text);
}

Test(vcounts, w_lists_use_each_peers_type)
{
    const int counts[3] = { 2, 2, 2 };
    const MPI_Datatype types[3] = { MPI_CHAR, MPI_SHORT, MPI_DOUBLE };
    int len;
    char *text;

    pz_vcounts_intern(pz_int_counts(counts), MPI_DATATYPE_NULL, types, 3);
    text = pz_vcounts_pack(&len);
    cr_assert_str_eq(text, "2,4,16");
    free(text);
}

Test(vcounts, no_counts_no_list)
{
    cr_assert_eq(pz_vcounts_intern(PZ_COUNTS_NONE, MPI_INT, NULL, 4), PZ_NO_COUNTS);
    cr_assert_eq(pz_vcounts_count(), 0);
}

/* A singleton run: unification keeps the process's numbering. */
Test(vcounts, unification_of_one_process)
{
    const int a[2] = { 1, 1 }, b[2] = { 2, 2 };
    uint32_t map[2], nall;
    char **all;

    pz_vcounts_intern(pz_int_counts(a), MPI_INT, NULL, 2);
    pz_vcounts_intern(pz_int_counts(b), MPI_INT, NULL, 2);
    cr_assert_eq(pz_vcounts_unify(MPI_COMM_WORLD, map, &all, &nall), 0);
    cr_assert_eq(nall, 2);
    cr_assert_eq(map[0], 0);
    cr_assert_eq(map[1], 1);
    cr_assert_str_eq(all[0], "4,4");
    cr_assert_str_eq(all[1], "8,8");
    pz_vcounts_free_global(all, nall);
}

/* The lists of the large-count forms (MPI_Alltoallv_c): MPI_Count counts above 2^31.
 * 3 000 000 000 shorts (2 bytes) are 6 000 000 000 bytes; 1 short is 2. */
Test(vcounts, wide_counts_give_64_bit_lists)
{
    const MPI_Count counts[2] = { (MPI_Count)3000000000, 1 };
    int len;
    char *text;

    pz_vcounts_intern(pz_wide_counts(counts), MPI_SHORT, NULL, 2);
    text = pz_vcounts_pack(&len);
    cr_assert_str_eq(text, "6000000000,2");
    free(text);
}
