/* Preloaded after the recorder by integration/finalize_tcp.sh: rank 0 enters
 * PMPI_Finalize LATE_FINALIZE_MS milliseconds (200 if unset) after leaving the
 * recorder, as a rank 0 does that is slower than the others to finish the recorder's
 * finalization (it alone prints the summary; a loaded machine may not run it at once). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

int PMPI_Finalize(void)
{
    int (*next)(void) = (int (*)(void))dlsym(RTLD_NEXT, "PMPI_Finalize");
    const char *ms = getenv("LATE_FINALIZE_MS");
    long delay = ms ? atol(ms) : 200;
    int rank = 0;

    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        nanosleep(&(struct timespec){ delay / 1000, delay % 1000 * 1000000L }, NULL);
    return next();
}
