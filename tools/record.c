/* prognoz record: runs a command (normally mpiexec) with the recorder preloaded in
 * every process it starts, and the trace directory set; when the run ended without
 * MPI_Finalize, assembles the partial trace its processes left (assemble.h).  prognoz
 * ends as the command did: same exit status, or killed by the same signal. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "assemble.h"
#include "commands.h"
#include "long_options.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: prognoz record [-o DIR] -- COMMAND [ARGS...]\n"
            "       prognoz record --finish DIR\n"
            "\n"
            "Runs COMMAND, typically 'mpiexec -n 4 ./app', with libprognoz.so preloaded, so\n"
            "that every MPI process it starts records its MPI calls into DIR/traces.otf2.\n"
            "\n"
            "  -o DIR   trace directory (default: $PROGNOZ_DIR, else ./prognoz-trace);\n"
            "           a trace already in DIR is replaced\n"
            "\n"
            "A run that ends without MPI_Finalize (MPI_Abort, a crash, a signal, exit)\n"
            "leaves a partial trace, marked so, with what each process recorded until then.\n"
            "--finish DIR assembles it after a run started without 'prognoz record'.\n"
            "\n"
            "environment:\n"
            "  PROGNOZ_BUFFER=SIZE  record buffer per thread, e.g. 64M (the default); when it\n"
            "                       fills, it is written out and the flush is marked\n"
            "  PROGNOZ_DISABLE=1    run without recording\n"
            "  PROGNOZ_CALLSITES=1  also keep the file and line of every MPI call (build with -g)\n"
            "  PROGNOZ_CPU_TIME=1   also keep each thread's CPU time at every call, for\n"
            "                       prognoz predict --compute cpu (more processes than cores)\n"
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

static pid_t child;

/* A termination asked of prognoz is passed on to the command, whose end prognoz
 * waits for (mpiexec passes it on to the processes, which save what they recorded). */
static void pass_on(int sig)
{
    if (child > 0)
        kill(child, sig);
}

/* Ends prognoz as the command ended. */
static int end_as(int status)
{
    if (WIFSIGNALED(status)) {
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* Runs command and, once it has ended, assembles a partial trace left in dir. */
static int run(char **command, const char *dir)
{
    time_t start = time(NULL);
    int status;

    /* like system(): the terminal's Ctrl-C reaches the command, which decides */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    signal(SIGTERM, pass_on);
    signal(SIGHUP, pass_on);
    child = fork();
    if (child == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        execvp(command[0], command);
        fprintf(stderr, "prognoz record: cannot run '%s': %s\n", command[0], strerror(errno));
        _exit(127);
    }
    if (child < 0) {
        fprintf(stderr, "prognoz record: cannot run '%s': %s\n", command[0], strerror(errno));
        return 1;
    }
    while (waitpid(child, &status, 0) < 0)
        if (errno != EINTR)
            return 1;
    if (pz_assemble_partial(dir && *dir ? dir : "prognoz-trace", start) > 0)
        fprintf(stderr, "prognoz: the run ended without MPI_Finalize; its partial trace is "
                "in %s/traces.otf2\n", dir && *dir ? dir : "prognoz-trace");
    return end_as(status);
}

/* --finish DIR: the partial trace of a run started without prognoz record. */
static int finish(const char *dir)
{
    int rc = pz_assemble_partial(dir, 0);

    if (rc == 0)
        fprintf(stderr, "prognoz record: no part of a run's trace in '%s'\n", dir);
    else if (rc > 0)
        fprintf(stderr, "prognoz: the partial trace is in %s/traces.otf2\n", dir);
    return rc > 0 ? 0 : 1;
}

int pz_cmd_record(int argc, char **argv)
{
    const char *dir = NULL, *lib = getenv("PROGNOZ_LIB");
    int i = 1;

    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--finish") && i + 2 == argc) {
            return finish(argv[i + 1]);
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            dir = argv[++i];
        } else {
            pz_unexpected_argument("record", argv[i]);
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
    return run(argv + i + 1, dir ? dir : getenv("PROGNOZ_DIR"));
}
