/* Conversions of Open MPI's Fortran arguments (ompi_fortran.h) and the wrappers of its
 * Fortran routines of the 'hand' rows of mpi_calls.tbl, which gen_ompi_fortran.py does
 * not generate.  Built into libprognoz-openmpi.so only. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "ompi_fortran.h"

/* Open MPI's Fortran constants (libmpi.so): only their addresses matter. */
extern MPI_Fint mpi_fortran_bottom_, mpi_fortran_in_place_, mpi_fortran_status_ignore_,
    mpi_fortran_statuses_ignore_, mpi_fortran_unweighted_, mpi_fortran_weights_empty_;

void *pz_ompi_next(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

void *pz_ompi_buffer(const void *f)
{
    if (f == &mpi_fortran_bottom_)
        return MPI_BOTTOM;
    if (f == &mpi_fortran_in_place_)
        return MPI_IN_PLACE;
    return (void *)f;
}

void pz_ompi_indices_out(MPI_Fint *indices, int n)
{
    for (int i = 0; i < n; i++)
        pz_ompi_index_out(&indices[i]);
}

char *pz_ompi_string_in(const char *f, int len)
{
    char *c;

    while (len > 0 && f[len - 1] == ' ')
        len--;
    if ((c = malloc((size_t)len + 1))) {
        memcpy(c, f, (size_t)len);
        c[len] = '\0';
    }
    return c;
}

MPI_Status *pz_ompi_status_in(const MPI_Fint *f, MPI_Status *c)
{
    return f == &mpi_fortran_status_ignore_ ? MPI_STATUS_IGNORE : c;
}

MPI_Status *pz_ompi_status_read(const MPI_Fint *f, MPI_Status *c)
{
    MPI_Status_f2c(f, c);
    return c;
}

void pz_ompi_status_out(MPI_Fint *f, const MPI_Status *c)
{
    if (c != MPI_STATUS_IGNORE)
        MPI_Status_c2f(c, f);
}

/* At least one element, so that an empty array is no failed allocation. */
static void *array_of(int n, size_t size)
{
    return malloc((n > 0 ? (size_t)n : 1) * size);
}

MPI_Status *pz_ompi_statuses_in(const MPI_Fint *f, int n)
{
    if (f == &mpi_fortran_statuses_ignore_)
        return MPI_STATUSES_IGNORE;
    return array_of(n, sizeof(MPI_Status));
}

int pz_ompi_statuses_lost(const MPI_Fint *f, const MPI_Status *c)
{
    return f != &mpi_fortran_statuses_ignore_ && !c;
}

void pz_ompi_statuses_out(MPI_Fint *f, const MPI_Status *c, int n)
{
    if (c == MPI_STATUSES_IGNORE)
        return;
    for (int i = 0; i < n; i++)
        MPI_Status_c2f(&c[i], &f[i * PZ_OMPI_STATUS_SIZE]);
}

void pz_ompi_statuses_free(MPI_Status *c)
{
    if (c != MPI_STATUSES_IGNORE)
        free(c);
}

MPI_Request *pz_ompi_requests_in(const MPI_Fint *f, int n)
{
    MPI_Request *c = array_of(n, sizeof(*c));

    if (c)
        for (int i = 0; i < n; i++)
            c[i] = MPI_Request_f2c(f[i]);
    return c;
}

void pz_ompi_requests_out(MPI_Fint *f, const MPI_Request *c, int n)
{
    for (int i = 0; i < n; i++)
        f[i] = MPI_Request_c2f(c[i]);
}

static int group_size(MPI_Comm comm)
{
    int inter = 0, n = 0;

    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        PMPI_Comm_remote_size(comm, &n);
    else
        PMPI_Comm_size(comm, &n);
    return n;
}

/* A Cartesian topology has 2 neighbours per dimension; a graph's neighbours are both
 * its in- and out-neighbours. */
static int degree(MPI_Comm comm, int receive)
{
    int topo = MPI_UNDEFINED, n = 0, rank, in = 0, out = 0, weighted;

    PMPI_Topo_test(comm, &topo);
    if (topo == MPI_CART) {
        PMPI_Cartdim_get(comm, &n);
        return 2 * n;
    }
    if (topo == MPI_GRAPH) {
        PMPI_Comm_rank(comm, &rank);
        PMPI_Graph_neighbors_count(comm, rank, &n);
        return n;
    }
    if (topo == MPI_DIST_GRAPH) {
        PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
        return receive ? in : out;
    }
    return 0;
}

int pz_ompi_types_count(MPI_Comm comm, int neighborhood, int receive)
{
    return neighborhood ? degree(comm, receive) : group_size(comm);
}

MPI_Datatype *pz_ompi_types_in(const MPI_Fint *f, int n)
{
    MPI_Datatype *c = array_of(n, sizeof(*c));

    if (c)
        for (int i = 0; i < n; i++)
            c[i] = MPI_Type_f2c(f[i]);
    return c;
}

const int *pz_ompi_weights(const MPI_Fint *w)
{
    if (w == &mpi_fortran_unweighted_)
        return MPI_UNWEIGHTED;
    if (w == &mpi_fortran_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    return w;
}

/* The other names Open MPI gives the routine lower_, and its 'use mpi_f08' routine, of
 * the same arguments (gen_ompi_fortran.py's aliases). */
#define FORTRAN_NAMES(lower, upper, params) \
    PZ_EXPORT void lower params __attribute__((alias(#lower "_"))); \
    PZ_EXPORT void lower##__ params __attribute__((alias(#lower "_"))); \
    PZ_EXPORT void upper params __attribute__((alias(#lower "_"))); \
    PZ_EXPORT void lower##_f08_ params __attribute__((alias(#lower "_")))

static void set_ierror(MPI_Fint *ierror, int ret)
{
    if (ierror)
        *ierror = ret;
}

/* Open MPI's Fortran MPI_Init passes no arguments to C; the ierror of the f08 routines
 * is NULL when absent. */
PZ_EXPORT void mpi_init_(MPI_Fint *ierror);
FORTRAN_NAMES(mpi_init, MPI_INIT, (MPI_Fint *ierror));
void mpi_init_(MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Init(NULL, NULL));
}

PZ_EXPORT void mpi_init_thread_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror);
FORTRAN_NAMES(mpi_init_thread, MPI_INIT_THREAD,
              (const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror));
void mpi_init_thread_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Init_thread(NULL, NULL, *required, provided));
}

PZ_EXPORT void mpi_finalize_(MPI_Fint *ierror);
FORTRAN_NAMES(mpi_finalize, MPI_FINALIZE, (MPI_Fint *ierror));
void mpi_finalize_(MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Finalize());
}

PZ_EXPORT void mpi_abort_(const MPI_Fint *comm, const MPI_Fint *errorcode, MPI_Fint *ierror);
FORTRAN_NAMES(mpi_abort, MPI_ABORT,
              (const MPI_Fint *comm, const MPI_Fint *errorcode, MPI_Fint *ierror));
void mpi_abort_(const MPI_Fint *comm, const MPI_Fint *errorcode, MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Abort(MPI_Comm_f2c(*comm), *errorcode));
}

/* MPI_PCONTROL(LEVEL) has no IERROR. */
PZ_EXPORT void mpi_pcontrol_(const MPI_Fint *level);
FORTRAN_NAMES(mpi_pcontrol, MPI_PCONTROL, (const MPI_Fint *level));
void mpi_pcontrol_(const MPI_Fint *level)
{
    MPI_Pcontrol(*level);
}
