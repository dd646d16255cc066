/* The conversions of Open MPI's Fortran arguments (wrapper/ompi_fortran.h) that need no
 * running MPI: CHARACTER arguments, LOGICALs, 1-based indices and the Fortran constants
 * known by their addresses.  The lengths of the datatype arrays of the Alltoallw family
 * ask MPI: integration/fortran_alltoallw.sh checks them. */
#include <stdlib.h>

#include <criterion/criterion.h>

#include "ompi_fortran.h"

/* Open MPI's Fortran constants (libmpi.so), as the program's Fortran code passes them. */
extern MPI_Fint mpi_fortran_bottom_, mpi_fortran_in_place_, mpi_fortran_status_ignore_,
    mpi_fortran_statuses_ignore_, mpi_fortran_unweighted_, mpi_fortran_weights_empty_;

Test(ompi_fortran, strings_lose_their_trailing_blanks_only)
{
    /* a CHARACTER(LEN=11) 'data.bin' is padded with 3 blanks; the length excludes any NUL */
    char *c = pz_ompi_string_in("data.bin   ", 11);

    cr_assert_str_eq(c, "data.bin");
    free(c);
    c = pz_ompi_string_in(" a b  xyz", 6);   /* ' a b  ': the leading blank stays */
    cr_assert_str_eq(c, " a b");
    free(c);
    c = pz_ompi_string_in("   ", 3);
    cr_assert_str_eq(c, "");
    free(c);
}

Test(ompi_fortran, logicals)
{
    MPI_Fint f = 0;

    cr_assert_eq(pz_ompi_logical_in(&f), 0);
    f = 1;
    cr_assert_eq(pz_ompi_logical_in(&f), 1);
    f = -1;   /* another compiler's .TRUE. */
    cr_assert_eq(pz_ompi_logical_in(&f), 1);
    pz_ompi_logical_out(&f, 7);
    cr_assert_eq(f, 1);
    pz_ompi_logical_out(&f, 0);
    cr_assert_eq(f, 0);
}

Test(ompi_fortran, indices_become_1_based)
{
    MPI_Fint index = 0, indices[3] = { 0, 2, 5 };

    pz_ompi_index_out(&index);
    cr_assert_eq(index, 1);
    index = MPI_UNDEFINED;
    pz_ompi_index_out(&index);
    cr_assert_eq(index, MPI_UNDEFINED);
    pz_ompi_indices_out(indices, 2);   /* only the first 2 of the array */
    cr_assert_eq(indices[0], 1);
    cr_assert_eq(indices[1], 3);
    cr_assert_eq(indices[2], 5);
    pz_ompi_indices_out(indices, MPI_UNDEFINED);
    cr_assert_eq(indices[0], 1);
}

Test(ompi_fortran, buffer_constants)
{
    int buf[2];

    cr_assert_eq(pz_ompi_buffer(&mpi_fortran_bottom_), MPI_BOTTOM);
    cr_assert_eq(pz_ompi_buffer(&mpi_fortran_in_place_), MPI_IN_PLACE);
    cr_assert_eq(pz_ompi_buffer(buf), (void *)buf);
}

Test(ompi_fortran, status_constants)
{
    MPI_Fint f[PZ_OMPI_STATUS_SIZE];
    MPI_Status c, *many;

    cr_assert_eq(pz_ompi_status_in(&mpi_fortran_status_ignore_, &c), MPI_STATUS_IGNORE);
    cr_assert_eq(pz_ompi_status_in(f, &c), &c);
    many = pz_ompi_statuses_in(&mpi_fortran_statuses_ignore_, 3);
    cr_assert_eq(many, MPI_STATUSES_IGNORE);
    cr_assert_not(pz_ompi_statuses_lost(&mpi_fortran_statuses_ignore_, many));
    pz_ompi_statuses_free(many);
    /* an empty array is no failed allocation */
    many = pz_ompi_statuses_in(f, 0);
    cr_assert_not(pz_ompi_statuses_lost(f, many));
    pz_ompi_statuses_free(many);
}

Test(ompi_fortran, weight_constants)
{
    MPI_Fint w[1] = { 4 };

    cr_assert_eq(pz_ompi_weights(&mpi_fortran_unweighted_), MPI_UNWEIGHTED);
    cr_assert_eq(pz_ompi_weights(&mpi_fortran_weights_empty_), MPI_WEIGHTS_EMPTY);
    cr_assert_eq(pz_ompi_weights(w), w);
}

Test(ompi_fortran, no_datatypes_is_no_failed_allocation)
{
    /* the ignored send types of an in-place Alltoallw, or a rank without neighbours */
    MPI_Datatype *c = pz_ompi_types_in(NULL, 0);

    cr_assert_not_null(c);
    free(c);
}
