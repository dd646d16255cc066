/* The MPI-IO file handles a process opened, each with a small local reference that its
 * I/O events carry, and their unification at finalize into one numbering for the whole
 * run (docs/trace-format.md).  The members of a collective MPI_File_open share one
 * handle: its identity is the communicator's, the number of opens on it before, and
 * the file's name, the same on every member. */
#ifndef PZ_IOFILES_H
#define PZ_IOFILES_H

#include <mpi.h>
#include <stdint.h>

/* The reference of a file handle the wrapper did not see opened. */
#define PZ_IO_NO_HANDLE UINT32_MAX

/* Registers fh, just opened by MPI_File_open on comm; returns its local reference, or
 * PZ_IO_NO_HANDLE if memory ran out.  Thread-safe, as every function below. */
uint32_t pz_io_opened(MPI_Comm comm, const char *filename, MPI_File fh);

/* Local reference of the open handle fh, PZ_IO_NO_HANDLE if unknown. */
uint32_t pz_io_handle(MPI_File fh);

/* Forgets the MPI handle of reference ref, being closed; the reference stays defined. */
void pz_io_closed(uint32_t ref);

/* Number of local references so far. */
uint32_t pz_io_count(void);

/* Collective over comm: numbers the handles of the run.  map[ref] receives the global
 * number of each local reference.  On rank 0, *keys and *nkeys receive the identity
 * of every handle in global order, "GID LEADER SEQ NAME" (io_defs.h); elsewhere
 * NULL and 0.  Free with pz_free_strings (unify.h).  Returns 0 or -1. */
int pz_io_unify(MPI_Comm comm, uint32_t *map, char ***keys, uint32_t *nkeys);

#endif
