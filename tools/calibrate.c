/* prognoz calibrate: runs the MPI program prognoz-calibrate (tools/calibrate_mpi.c)
 * with the same arguments.  prognoz itself is not an MPI program; under
 * `mpiexec -n 2 prognoz calibrate ...` every rank execs into the calibration program,
 * which inherits the process manager's environment and joins the same job: the one
 * built with Open MPI when Open MPI's mpiexec started it, else MPICH's. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

/* Whether Open MPI's mpiexec started this process: it gives each the variables of its
 * place in the job, OMPI_COMM_WORLD_SIZE among them, which MPICH's does not. */
static int started_by_openmpi(void)
{
    const char *size = getenv("OMPI_COMM_WORLD_SIZE");

    return size && *size;
}

/* The calibration program for the MPI whose mpiexec started this process, into path:
 * PROGNOZ_CALIBRATE (else the installed one) for MPICH, the same name followed by
 * "-openmpi" for Open MPI; NULL, said, when this prognoz has no program for Open MPI. */
static const char *program(char *path, size_t size)
{
    const char *prog = getenv("PROGNOZ_CALIBRATE");

    if (!started_by_openmpi())
        return prog && *prog ? prog : PZ_CALIBRATE;
    if (!*PZ_CALIBRATE_OPENMPI) {
        fprintf(stderr, "prognoz calibrate: Open MPI's mpiexec started it, but this prognoz "
                "was built without Open MPI (configure --with-openmpi); run it with "
                "MPICH's (mpiexec.mpich)\n");
        return NULL;
    }
    if (!prog || !*prog)
        return PZ_CALIBRATE_OPENMPI;
    if (snprintf(path, size, "%s-openmpi", prog) >= (int)size) {
        fprintf(stderr, "prognoz calibrate: PROGNOZ_CALIBRATE is too long a path\n");
        return NULL;
    }
    return path;
}

int pz_cmd_calibrate(int argc, char **argv)
{
    char path[PATH_MAX];
    const char *prog = program(path, sizeof(path));
    char **args;

    if (!prog)
        return 1;
    args = malloc(((size_t)argc + 1) * sizeof(*args));
    if (!args) {
        fprintf(stderr, "prognoz calibrate: out of memory\n");
        return 1;
    }
    args[0] = (char *)prog;
    for (int i = 1; i < argc; i++)
        args[i] = argv[i];
    args[argc] = NULL;
    execv(prog, args);
    fprintf(stderr, "prognoz calibrate: cannot run the calibration program '%s': %s "
                    "(PROGNOZ_CALIBRATE names another)\n", prog, strerror(errno));
    free(args);
    return 127;
}
