/* prognoz calibrate: runs the MPI program prognoz-calibrate (tools/calibrate_mpi.c)
 * with the same arguments.  prognoz itself is not an MPI program; under
 * `mpiexec -n 2 prognoz calibrate ...` every rank execs into the calibration program,
 * which inherits the process manager's environment and joins the same job. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

int pz_cmd_calibrate(int argc, char **argv)
{
    const char *prog = getenv("PROGNOZ_CALIBRATE");
    char **args;

    if (!prog || !*prog)
        prog = PZ_CALIBRATE;
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
