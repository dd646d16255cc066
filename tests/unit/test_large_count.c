/* The int-count sibling of a large-count form's name (trace/large_count.h). */
#include <criterion/criterion.h>

#include "large_count.h"

Test(large_count, sibling_of_a_c_form)
{
    char form[16];

    cr_assert_eq(pz_int_count_form("MPI_Ssend_c", form, sizeof(form)), 0);
    cr_expect_str_eq(form, "MPI_Ssend");
}

Test(large_count, other_names_as_they_are)
{
    char form[16];

    cr_assert_eq(pz_int_count_form("MPI_Send", form, sizeof(form)), 0);
    cr_expect_str_eq(form, "MPI_Send");
    /* "_c" alone is no suffix of a name: nothing before it */
    cr_assert_eq(pz_int_count_form("_c", form, sizeof(form)), 0);
    cr_expect_str_eq(form, "_c");
    /* only the final "_c" goes */
    cr_assert_eq(pz_int_count_form("MPI_c_c", form, sizeof(form)), 0);
    cr_expect_str_eq(form, "MPI_c");
}

Test(large_count, too_long_for_the_room)
{
    char form[10] = "unchanged";

    /* "MPI_Bcast_c" less "_c" is 9 characters and its end: fits in 10 */
    cr_assert_eq(pz_int_count_form("MPI_Bcast_c", form, sizeof(form)), 0);
    cr_expect_str_eq(form, "MPI_Bcast");
    /* "MPI_Barrier" is 11 characters and its end: not in 10, form left as it was */
    cr_expect_eq(pz_int_count_form("MPI_Barrier", form, sizeof(form)), -1);
    cr_expect_str_eq(form, "MPI_Bcast");
}
