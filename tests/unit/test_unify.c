/* Unification of per-process strings and the numbering of call sites, on one process. */
#include <criterion/criterion.h>

#include "singleton.h"
#include "intervals.h"
#include "sites.h"
#include "unify.h"

TestSuite(unify, .init = singleton_up, .fini = singleton_down);

Test(unify, repeated_strings_get_one_number_in_order_of_first_appearance)
{
    struct pz_strings list = { 0 };
    uint32_t map[4], nall;
    char **all;

    pz_strings_add(&list, "b");
    pz_strings_add(&list, "a");
    pz_strings_add(&list, "b");
    pz_strings_add(&list, "");
    cr_assert_eq(list.n, 4);
    cr_assert_eq(pz_unify_strings(MPI_COMM_WORLD, list.text, (int)list.len, list.n, map, &all,
                                  &nall), 0);
    cr_assert_eq(nall, 3);
    cr_assert_eq(map[0], 0);
    cr_assert_eq(map[1], 1);
    cr_assert_eq(map[2], 0);
    cr_assert_eq(map[3], 2);
    cr_assert_str_eq(all[0], "b");
    cr_assert_str_eq(all[1], "a");
    cr_assert_str_eq(all[2], "");
    pz_free_strings(all, nall);
    free(list.text);
}

Test(unify, nothing_to_unify)
{
    uint32_t map[1], nall = 7;
    char **all;

    cr_assert_eq(pz_unify_strings(MPI_COMM_WORLD, "", 0, 0, map, &all, &nall), 0);
    cr_assert_eq(nall, 0);
    pz_free_strings(all, nall);
}

Test(sites, each_address_is_numbered_once)
{
    cr_assert_eq(pz_sites_number(0x400123), 0);
    cr_assert_eq(pz_sites_number(0x400456), 1);
    cr_assert_eq(pz_sites_number(0x400123), 0);
    for (uintptr_t a = 0; a < 3000; a++)
        pz_sites_number(0x500000 + a);
    cr_assert_eq(pz_sites_count(), 3002, "the table grew and kept every site");
    cr_assert_eq(pz_sites_number(0x400456), 1);
    cr_assert_eq(pz_sites_number(0x500000 + 2999), 3001);
}

/* Interval identities as the processes exchange them: "FILE\nLINE\nID", and a fourth
 * line "sequential" for an interval begun by a sequential marker. */
Test(unify, interval_identities_read_back_with_their_kind)
{
    char plain[] = "/src/a.c\n12\n3", seq[] = "/src/b.c\n40\n65535\nsequential";
    char *texts[] = { plain, seq };
    struct pz_interval_def *defs = pz_intervals_parse(texts, 2);

    cr_assert_not_null(defs);
    cr_assert_str_eq(defs[0].file, "/src/a.c");
    cr_assert_eq(defs[0].line, 12);
    cr_assert_eq(defs[0].id, 3);
    cr_assert_not(defs[0].sequential);
    cr_assert_str_eq(defs[1].file, "/src/b.c");
    cr_assert_eq(defs[1].line, 40);
    cr_assert_eq(defs[1].id, 65535);
    cr_assert(defs[1].sequential);
    pz_intervals_free(defs, 2);
}
