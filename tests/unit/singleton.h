/* A singleton MPI for unit tests that need datatype sizes: the recorder is linked into
 * the test program, so it is switched off first. */
#ifndef PZ_TEST_SINGLETON_H
#define PZ_TEST_SINGLETON_H

#include <mpi.h>
#include <stdlib.h>

static inline void singleton_up(void)
{
    setenv("PROGNOZ_DISABLE", "1", 1);
    MPI_Init(NULL, NULL);
}

static inline void singleton_down(void)
{
    MPI_Finalize();
}

#endif
