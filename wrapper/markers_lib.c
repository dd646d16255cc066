/* libprognoz-markers: interval markers as functions, for Fortran (include/prognoz.fh)
 * and other languages that cannot use the macros of prognoz.h.  Linked into the program,
 * it needs nothing from prognoz: without the recorder the functions do nothing. */
#include "prognoz.h"

void prognoz_begin_f(int id);
void prognoz_end_f(int id);
void prognoz_seq_f(int id);

/* The marker pair, attributed to the caller of the public function. */
static void mark(int tag, void *site)
{
    if (!&prognoz_recorder || !prognoz_recorder)
        return;
    if (prognoz_marker_site)
        prognoz_marker_site(site);
    MPI_Send(NULL, 0, MPI_BYTE, 0, tag, MPI_COMM_SELF);
    MPI_Recv(NULL, 0, MPI_BYTE, 0, tag, MPI_COMM_SELF, MPI_STATUS_IGNORE);
}

__attribute__((noinline)) void prognoz_begin_f(int id)
{
    mark(PROGNOZ_TAG_BEGIN(id), __builtin_return_address(0));
}

__attribute__((noinline)) void prognoz_end_f(int id)
{
    mark(PROGNOZ_TAG_END(id), __builtin_return_address(0));
}

__attribute__((noinline)) void prognoz_seq_f(int id)
{
    mark(PROGNOZ_TAG_BEGIN_SEQ(id), __builtin_return_address(0));
}
