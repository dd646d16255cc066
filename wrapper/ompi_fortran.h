/* Open MPI's Fortran routines of mpif.h and 'use mpi' (libmpi_mpifh) and of 'use
 * mpi_f08' (libmpi_usempif08), which call PMPI_ directly, bypassing the C MPI_ symbols:
 * conversions between their arguments and C (wrappers_fortran_gen.c, from
 * gen_ompi_fortran.py, and ompi_fortran.c use them).
 * Every wrapper converts its arguments, calls the C wrapper MPI_Xxx (so a Fortran call
 * is recorded by the same code as a C call, once) and converts the results back.
 *
 * The ABI is Open MPI's (gfortran): every argument is passed by reference; a handle is
 * an INTEGER (MPI_Fint) converted by MPI_<X>_f2c and MPI_<X>_c2f; a status is an
 * INTEGER array of sizeof(MPI_Status) bytes (MPI_STATUS_SIZE); LOGICAL is an INTEGER,
 * .TRUE. 1.  The f08 routines take the same: TYPE(MPI_Comm) is one INTEGER,
 * TYPE(MPI_Status) a status's INTEGERs, the optional ierror is NULL when absent.
 * MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE, MPI_UNWEIGHTED and
 * MPI_WEIGHTS_EMPTY are the addresses of Open MPI's common blocks mpi_fortran_*_
 * (libmpi.so), which the program's Fortran code passes. */
#ifndef PZ_OMPI_FORTRAN_H
#define PZ_OMPI_FORTRAN_H

#include <mpi.h>

#include "hooks.h"

/* Fortran INTEGER and C int are the same, so integer arguments pass as they are. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER is not a C int");

/* The INTEGERs of one Fortran status. */
#define PZ_OMPI_STATUS_SIZE (sizeof(MPI_Status) / sizeof(MPI_Fint))

/* The next definition of a Fortran routine after this library's: Open MPI's own, which a
 * wrapper calls (unrecorded) if it cannot convert its arguments for want of memory. */
void *pz_ompi_next(const char *name);

/* A choice buffer: MPI_BOTTOM and MPI_IN_PLACE for the Fortran ones, else itself. */
void *pz_ompi_buffer(const void *f);

static inline int pz_ompi_logical_in(const MPI_Fint *v)
{
    return *v != 0;
}

static inline void pz_ompi_logical_out(MPI_Fint *v, int c)
{
    *v = c ? 1 : 0;
}

/* An index into an array of requests after the call, 1-based; MPI_UNDEFINED stays. */
static inline void pz_ompi_index_out(MPI_Fint *index)
{
    if (*index >= 0)
        *index += 1;
}

/* The first n indices of an array after the call (n may be MPI_UNDEFINED). */
void pz_ompi_indices_out(MPI_Fint *indices, int n);

/* A CHARACTER argument of len characters as a C string without its trailing blanks, to
 * free; NULL if out of memory. */
char *pz_ompi_string_in(const char *f, int len);

/* A status argument: c, or MPI_STATUS_IGNORE for the Fortran one. */
MPI_Status *pz_ompi_status_in(const MPI_Fint *f, MPI_Status *c);
/* A status the call only reads (MPI_Get_count): its copy in c. */
MPI_Status *pz_ompi_status_read(const MPI_Fint *f, MPI_Status *c);
/* Copies the C status back unless it is MPI_STATUS_IGNORE. */
void pz_ompi_status_out(MPI_Fint *f, const MPI_Status *c);

/* An array of n statuses, to release with pz_ompi_statuses_free: a new array, or
 * MPI_STATUSES_IGNORE for the Fortran one; pz_ompi_statuses_lost(f, c) says whether
 * it could not be allocated. */
MPI_Status *pz_ompi_statuses_in(const MPI_Fint *f, int n);
int pz_ompi_statuses_lost(const MPI_Fint *f, const MPI_Status *c);
void pz_ompi_statuses_out(MPI_Fint *f, const MPI_Status *c, int n);
void pz_ompi_statuses_free(MPI_Status *c);

/* An array of n requests converted into a new array, to free; NULL if out of memory. */
MPI_Request *pz_ompi_requests_in(const MPI_Fint *f, int n);
void pz_ompi_requests_out(MPI_Fint *f, const MPI_Request *c, int n);

/* The length of a datatype array of an Alltoallw-like call on comm: the processes of
 * the communicator (of its remote group if an intercommunicator) for (I)Alltoallw; for
 * the neighborhood ones (neighborhood nonzero) its topology's out-degree for the send
 * types, in-degree for the receive types (receive nonzero), 0 without a topology. */
int pz_ompi_types_count(MPI_Comm comm, int neighborhood, int receive);

/* An array of n datatypes converted into a new array, to free; NULL if out of memory. */
MPI_Datatype *pz_ompi_types_in(const MPI_Fint *f, int n);

/* Graph edge weights: the C MPI_UNWEIGHTED or MPI_WEIGHTS_EMPTY for the Fortran ones. */
const int *pz_ompi_weights(const MPI_Fint *w);

#endif
