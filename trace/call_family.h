/* The families of MPI functions whose time the analysis reports as parts of MPI time of
 * their own: MPI-IO (MPI_File_*) and one-sided communication (MPI_Win_*, MPI_Put, ...),
 * by the category of the function in prognoz's table (wrapper/mpi_calls.tbl). */
#ifndef PZ_CALL_FAMILY_H
#define PZ_CALL_FAMILY_H

enum pz_call_family { PZ_FAMILY_OTHER, PZ_FAMILY_IO, PZ_FAMILY_RMA };

/* The family of the function with call id `call` (enum pz_call_id); PZ_FAMILY_OTHER for
 * an id outside the table (-1: a function the table does not have). */
enum pz_call_family pz_call_family(int call);

#endif
