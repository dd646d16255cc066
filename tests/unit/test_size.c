/* PROGNOZ_BUFFER sizes. */
#include <criterion/criterion.h>

#include "size.h"

Test(size, plain_numbers_are_bytes)
{
    cr_assert_eq(pz_parse_size("4096"), 4096);
    cr_assert_eq(pz_parse_size("0"), 0);
}

Test(size, binary_units)
{
    cr_assert_eq(pz_parse_size("64K"), 65536);
    cr_assert_eq(pz_parse_size("64k"), 65536);
    cr_assert_eq(pz_parse_size("3M"), 3u * 1048576);
    cr_assert_eq(pz_parse_size("512KiB"), 524288);
    cr_assert_eq(pz_parse_size("2MB"), 2u * 1048576);
    cr_assert_eq(pz_parse_size("1G"), 1073741824u);
}

Test(size, malformed_sizes_are_zero)
{
    cr_assert_eq(pz_parse_size(""), 0);
    cr_assert_eq(pz_parse_size("M"), 0);
    cr_assert_eq(pz_parse_size("12X"), 0);
    cr_assert_eq(pz_parse_size("1.5M"), 0);
    cr_assert_eq(pz_parse_size("64 M"), 0);
    cr_assert_eq(pz_parse_size("64Mi"), 0);
    cr_assert_eq(pz_parse_size("99999999999999999999G"), 0);
}
