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

/* The name of the program of this process's parent (MPI's local launcher), read into
 * path (its whole path); "" when it cannot be read. */
static const char *parent_program(char *path, size_t size)
{
    char link[64];
    ssize_t n;
    const char *base;

    snprintf(link, sizeof(link), "/proc/%ld/exe", (long)getppid());
    n = readlink(link, path, size - 1);
    path[n > 0 ? n : 0] = '\0';
    base = strrchr(path, '/');
    return base ? base + 1 : path;
}

/* Whether Open MPI's mpiexec started this process.  Its parent says it best: MPICH's
 * hydra_pmi_proxy, or Open MPI's orterun, orted, prterun or prted.  Started through a
 * shell, the variables decide: Open MPI gives each process those of its place in the
 * job, OMPI_COMM_WORLD_SIZE among them, and MPICH's hydra the socket PMI_FD; an MPICH
 * job started from inside an Open MPI one inherits OMPI_COMM_WORLD_SIZE, but has its
 * own PMI_FD. */
static int started_by_openmpi(void)
{
    static const char *const openmpi[] = { "orterun", "orted", "prterun", "prted" };
    const char *size = getenv("OMPI_COMM_WORLD_SIZE"), *pmi_fd = getenv("PMI_FD");
    char path[PATH_MAX];
    const char *parent = parent_program(path, sizeof(path));

    if (strcmp(parent, "hydra_pmi_proxy") == 0)
        return 0;
    for (size_t i = 0; i < sizeof(openmpi) / sizeof(*openmpi); i++)
        if (strcmp(parent, openmpi[i]) == 0)
            return 1;
    return size && *size && !(pmi_fd && *pmi_fd);
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
