/* prognoz record: runs a command (normally mpiexec) with the recorder preloaded in
 * every process it starts, and the trace directory set. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: prognoz record [-o DIR] -- COMMAND [ARGS...]\n"
            "\n"
            "Runs COMMAND, typically 'mpiexec -n 4 ./app', with libprognoz.so preloaded, so\n"
            "that every MPI process it starts records its MPI calls into DIR/traces.otf2.\n"
            "\n"
            "  -o DIR   trace directory (default: $PROGNOZ_DIR, else ./prognoz-trace);\n"
            "           a trace already in DIR is replaced\n"
            "\n"
            "environment:\n"
            "  PROGNOZ_BUFFER=SIZE  record buffer per thread, e.g. 64M (the default); when it\n"
            "                       fills, it is written out and the flush is marked\n"
            "  PROGNOZ_DISABLE=1    run without recording\n"
            "  PROGNOZ_CALLSITES=1  also keep the file and line of every MPI call (build with -g)\n"
            "  PROGNOZ_LIB=PATH     the library to preload (default: %s)\n"
            "\nSee prognoz-record(1).\n",
            PZ_LIBRARY);
}

/* LD_PRELOAD with lib in front of what was there. */
static int set_preload(const char *lib)
{
    const char *old = getenv("LD_PRELOAD");
    size_t len = strlen(lib) + (old ? strlen(old) + 1 : 0) + 1;
    char *value = malloc(len);

    if (!value)
        return -1;
    snprintf(value, len, "%s%s%s", lib, old && *old ? " " : "", old ? old : "");
    return setenv("LD_PRELOAD", value, 1);
}

int pz_cmd_record(int argc, char **argv)
{
    const char *dir = NULL, *lib = getenv("PROGNOZ_LIB");
    int i = 1;

    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            dir = argv[++i];
        } else {
            fprintf(stderr, "prognoz record: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (i + 1 >= argc) {
        fprintf(stderr, "prognoz record: no command to run after '--'\n");
        usage(stderr);
        return 2;
    }
    if (!lib || !*lib)
        lib = PZ_LIBRARY;
    if (access(lib, R_OK) != 0) {
        fprintf(stderr, "prognoz record: cannot read the recorder library '%s': %s\n", lib,
                strerror(errno));
        return 1;
    }
    if ((dir && setenv("PROGNOZ_DIR", dir, 1) != 0) || set_preload(lib) != 0) {
        fprintf(stderr, "prognoz record: cannot set the environment: %s\n", strerror(errno));
        return 1;
    }
    execvp(argv[i + 1], argv + i + 1);
    fprintf(stderr, "prognoz record: cannot run '%s': %s\n", argv[i + 1], strerror(errno));
    return 127;
}
