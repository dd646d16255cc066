/* A launcher as Open MPI 5's mpiexec is linked: with libopen-pal and no MPI library
 * (integration/openmpi.sh, (f); linked with --no-as-needed, which keeps the library it
 * calls nothing of).  It runs Open MPI's mpiexec, named by OPENMPI_MPIEXEC, with its own
 * arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *mpiexec = getenv("OPENMPI_MPIEXEC");

    if (!mpiexec || argc < 1) {
        fprintf(stderr, "pal_launcher: OPENMPI_MPIEXEC is not set\n");
        return 2;
    }
    argv[0] = (char *)mpiexec;
    execvp(mpiexec, argv);
    perror(mpiexec);
    return 127;
}
