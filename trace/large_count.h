/* MPI 4.0's large-count forms (MPI_Send_c, ...): the readers take one as its sibling,
 * the int-count form of the same name without "_c" (docs/mpi-table.md). */
#ifndef PZ_LARGE_COUNT_H
#define PZ_LARGE_COUNT_H

#include <stddef.h>

/* Writes into form (size bytes) the name of the int-count form of MPI function name:
 * name less a final "_c" ("MPI_Ssend" for "MPI_Ssend_c"), else name itself.  Returns 0,
 * or -1 with form unchanged if it does not fit. */
int pz_int_count_form(const char *name, char *form, size_t size);

#endif
