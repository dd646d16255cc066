/* MPI 4.0's large-count forms (MPI_Send_c, ...): the readers take one as its sibling,
 * the int-count form of the same name without "_c" (docs/mpi-table.md); and the ids of
 * the table's functions by name. */
#ifndef PZ_LARGE_COUNT_H
#define PZ_LARGE_COUNT_H

#include <stddef.h>

/* Writes into form (size bytes) the name of the int-count form of MPI function name:
 * name less a final "_c" ("MPI_Ssend" for "MPI_Ssend_c"), else name itself.  Returns 0,
 * or -1 with form unchanged if it does not fit. */
int pz_int_count_form(const char *name, char *form, size_t size);

/* The id (enum pz_call_id) of the function of prognoz's table named exactly name; -1 for
 * NULL or a function the table does not have. */
int pz_call_named(const char *name);

/* pz_call_named of name's int-count form: MPI_Ssend's id for MPI_Ssend_c. */
int pz_int_form_call(const char *name);

#endif
