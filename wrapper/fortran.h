/* The 'use mpi_f08' entry points of MPICH that call PMPI_ directly, bypassing the C
 * MPI_ symbols: conversions between their Fortran arguments and C (wrappers_f08_gen.c
 * and fortran.c use them).  Every such wrapper converts its arguments, calls the C
 * wrapper MPI_Xxx (so a Fortran call is recorded by the same code as a C call, once) and
 * converts the results back.
 *
 * The ABI is MPICH's (gfortran): every argument is passed by reference; a derived-type
 * handle such as TYPE(MPI_Comm) is one INTEGER, so it arrives as a pointer to one
 * MPI_Fint; the optional ierror is NULL when absent; TYPE(MPI_Status) is MPI_F08_status;
 * LOGICAL is an INTEGER that MPICH's f08 routines set to 1 or 0.  A program's
 * MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are the objects MPI_F08_STATUS_IGNORE and
 * MPI_F08_STATUSES_IGNORE point to (MPICH compares addresses with the same objects).
 * Other MPI libraries: nothing is defined (PZ_F08 is 0). */
#ifndef PZ_FORTRAN_H
#define PZ_FORTRAN_H

#include <stddef.h>
#include <stdlib.h>
#include <mpi.h>

#include "hooks.h"

#if defined(MPICH_NUMVERSION)
#define PZ_F08 1
#else
#define PZ_F08 0
#endif

#if PZ_F08

/* Fortran INTEGER and C int are the same, so integer arguments pass as they are. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER is not a C int");

/* MPICH's LOGICAL values (gfortran's); its f08 routines store flag = (flag_c != 0). */
#define PZ_F08_TRUE 1
#define PZ_F08_FALSE 0

/* What the f08 routines of this MPICH add to the C indices that Waitany, Testany,
 * Waitsome and Testsome return.  Before 4.1 they add nothing: MPICH 4.0's f08 binding
 * returns 0-based indices (pmodels/mpich#6270, fixed in 4.1 by #5763), and a wrapper
 * must not change what the program sees. */
#if MPICH_NUMVERSION < 40100000
#define PZ_F08_INDEX_BASE 0
#else
#define PZ_F08_INDEX_BASE 1
#endif

/* Elements of an array argument converted without allocating. */
#define PZ_F08_INLINE 16

/* Room for a converted array: inline for small arrays, else on the heap. */
struct pz_f08_scratch {
    void *heap;
    union {
        MPI_Request requests[PZ_F08_INLINE];
        MPI_Status statuses[PZ_F08_INLINE];
    } inline_;
};

void pz_f08_scratch_free(struct pz_f08_scratch *s);

/* The next definition of an f08 routine after this library's: MPICH's own, which a
 * wrapper calls (unrecorded) if it cannot convert its arguments for want of memory. */
void *pz_f08_next(const char *name);

static inline int pz_f08_logical_in(const MPI_Fint *v)
{
    return *v != PZ_F08_FALSE;
}

static inline void pz_f08_logical_out(MPI_Fint *v, int c)
{
    *v = c ? PZ_F08_TRUE : PZ_F08_FALSE;
}

/* An index into an array of requests after the call; MPI_UNDEFINED stays. */
static inline void pz_f08_index_out(MPI_Fint *index)
{
    if (*index >= 0)
        *index += PZ_F08_INDEX_BASE;
}

/* The first n indices of an array after the call (n may be MPI_UNDEFINED). */
void pz_f08_indices_out(MPI_Fint *indices, int n);

/* A status argument: the C status c holding a copy of *f, or MPI_STATUS_IGNORE. */
MPI_Status *pz_f08_status_in(const MPI_F08_status *f, MPI_Status *c);
/* A status the call only reads (MPI_Get_count): always a copy, as MPICH passes it on. */
MPI_Status *pz_f08_status_read(const MPI_F08_status *f, MPI_Status *c);
/* Copies the C status back unless it is MPI_STATUS_IGNORE. */
void pz_f08_status_out(MPI_F08_status *f, const MPI_Status *c);

/* An array of n statuses: a copy of f in s, MPI_STATUSES_IGNORE, or NULL if out of
 * memory. */
MPI_Status *pz_f08_statuses_in(struct pz_f08_scratch *s, const MPI_F08_status *f, int n);
void pz_f08_statuses_out(MPI_F08_status *f, const MPI_Status *c, int n);

/* An array of n requests converted in s; NULL if out of memory. */
MPI_Request *pz_f08_requests_in(struct pz_f08_scratch *s, const MPI_Fint *f, int n);
void pz_f08_requests_out(MPI_Fint *f, const MPI_Request *c, int n);

/* A CHARACTER argument of len characters (its length gfortran passes hidden, a size_t
 * after the routine's last argument) as a C string to free(), leading and trailing
 * blanks left out as MPICH's own routine leaves them out; NULL if out of memory. */
char *pz_f08_string_in(const char *f, size_t len);

/* Graph edge weights: the C MPI_UNWEIGHTED or MPI_WEIGHTS_EMPTY for the Fortran ones. */
const int *pz_f08_weights(const MPI_Fint *w);

/* The hand-written f08 wrappers (fortran.c), of the 'hand' rows of mpi_calls.tbl. */
PZ_EXPORT void mpi_init_f08_(MPI_Fint *ierror);
PZ_EXPORT void mpi_init_thread_f08_(const MPI_Fint *required, MPI_Fint *provided,
                                    MPI_Fint *ierror);
PZ_EXPORT void mpi_finalize_f08_(MPI_Fint *ierror);
PZ_EXPORT void mpi_abort_f08_(const MPI_Fint *comm, const MPI_Fint *errorcode,
                              MPI_Fint *ierror);
PZ_EXPORT void mpi_pcontrol_f08_(const MPI_Fint *level, MPI_Fint *ierror);

#endif /* PZ_F08 */

#endif
