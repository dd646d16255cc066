/* Conversions for the 'use mpi_f08' wrappers, and the wrappers of the f08 routines
 * that start and end MPI ('hand' rows of mpi_calls.tbl): they call the C wrappers of
 * init.c, so that recording starts and the trace is written as for a C program. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "fortran.h"
#include "runtime.h"

#if PZ_F08

/* MPICH's TYPE(MPI_Status) and MPI_Status have the same fields (mpi.h says their order
 * must match); a status is copied field by field. */
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status), "status layouts differ");

/* The f08 MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are variables of MPICH's Fortran module
 * (libmpichfort), compared by address like the statuses to ignore.  Weak: a C program
 * does not load libmpichfort. */
extern MPI_Fint __mpi_f08_link_constants_MOD_mpi_unweighted __attribute__((weak));
extern MPI_Fint __mpi_f08_link_constants_MOD_mpi_weights_empty __attribute__((weak));

void pz_f08_scratch_free(struct pz_f08_scratch *s)
{
    free(s->heap);
    s->heap = NULL;
}

/* Room for n elements of size bytes; NULL if out of memory. */
static void *scratch(struct pz_f08_scratch *s, int n, size_t size)
{
    s->heap = NULL;
    if (n <= 0 || (size_t)n * size <= sizeof(s->inline_))
        return &s->inline_;
    return s->heap = malloc((size_t)n * size);
}

void *pz_f08_next(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);

    if (!f) {
        pz_runtime_warn("%s: out of memory and no MPI definition to fall back on", name);
        abort();
    }
    return f;
}

char *pz_f08_string_in(const char *f, size_t len)
{
    char *c;

    while (len > 0 && f[len - 1] == ' ')
        len--;
    while (len > 0 && *f == ' ') {
        f++;
        len--;
    }
    if (!(c = malloc(len + 1)))
        return NULL;
    memcpy(c, f, len);
    c[len] = '\0';
    return c;
}

void pz_f08_indices_out(MPI_Fint *indices, int n)
{
    if (n == MPI_UNDEFINED)
        return;
    for (int i = 0; i < n; i++)
        pz_f08_index_out(&indices[i]);
}

static void status_f2c(MPI_Status *c, const MPI_F08_status *f)
{
    c->count_lo = f->count_lo;
    c->count_hi_and_cancelled = f->count_hi_and_cancelled;
    c->MPI_SOURCE = f->MPI_SOURCE;
    c->MPI_TAG = f->MPI_TAG;
    c->MPI_ERROR = f->MPI_ERROR;
}

static void status_c2f(MPI_F08_status *f, const MPI_Status *c)
{
    f->count_lo = c->count_lo;
    f->count_hi_and_cancelled = c->count_hi_and_cancelled;
    f->MPI_SOURCE = c->MPI_SOURCE;
    f->MPI_TAG = c->MPI_TAG;
    f->MPI_ERROR = c->MPI_ERROR;
}

MPI_Status *pz_f08_status_in(const MPI_F08_status *f, MPI_Status *c)
{
    if (f == MPI_F08_STATUS_IGNORE)
        return MPI_STATUS_IGNORE;
    status_f2c(c, f);
    return c;
}

MPI_Status *pz_f08_status_read(const MPI_F08_status *f, MPI_Status *c)
{
    status_f2c(c, f);
    return c;
}

void pz_f08_status_out(MPI_F08_status *f, const MPI_Status *c)
{
    if (c != MPI_STATUS_IGNORE)
        status_c2f(f, c);
}

MPI_Status *pz_f08_statuses_in(struct pz_f08_scratch *s, const MPI_F08_status *f, int n)
{
    MPI_Status *c;

    s->heap = NULL;
    if (f == MPI_F08_STATUSES_IGNORE)
        return MPI_STATUSES_IGNORE;
    if (!(c = scratch(s, n, sizeof(*c))))
        return NULL;
    for (int i = 0; i < n; i++)
        status_f2c(&c[i], &f[i]);
    return c;
}

void pz_f08_statuses_out(MPI_F08_status *f, const MPI_Status *c, int n)
{
    if (c == MPI_STATUSES_IGNORE)
        return;
    for (int i = 0; i < n; i++)
        status_c2f(&f[i], &c[i]);
}

MPI_Request *pz_f08_requests_in(struct pz_f08_scratch *s, const MPI_Fint *f, int n)
{
    MPI_Request *c = scratch(s, n, sizeof(*c));

    if (c)
        for (int i = 0; i < n; i++)
            c[i] = MPI_Request_f2c(f[i]);
    return c;
}

void pz_f08_requests_out(MPI_Fint *f, const MPI_Request *c, int n)
{
    for (int i = 0; i < n; i++)
        f[i] = MPI_Request_c2f(c[i]);
}

const int *pz_f08_weights(const MPI_Fint *w)
{
    if (w && w == &__mpi_f08_link_constants_MOD_mpi_unweighted)
        return MPI_UNWEIGHTED;
    if (w && w == &__mpi_f08_link_constants_MOD_mpi_weights_empty)
        return MPI_WEIGHTS_EMPTY;
    return w;
}

static void set_ierror(MPI_Fint *ierror, int ret)
{
    if (ierror)
        *ierror = ret;
}

/* MPICH's f08 MPI_Init passes no arguments to C. */
PZ_EXPORT void mpi_init_f08_(MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Init(NULL, NULL));
}

PZ_EXPORT void mpi_init_thread_f08_(const MPI_Fint *required, MPI_Fint *provided,
                                    MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Init_thread(NULL, NULL, *required, provided));
}

PZ_EXPORT void mpi_finalize_f08_(MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Finalize());
}

PZ_EXPORT void mpi_abort_f08_(const MPI_Fint *comm, const MPI_Fint *errorcode,
                              MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Abort(MPI_Comm_f2c(*comm), *errorcode));
}

PZ_EXPORT void mpi_pcontrol_f08_(const MPI_Fint *level, MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Pcontrol(*level));
}

#endif /* PZ_F08 */
