/* prognoz record: runs a command (normally mpiexec) with the recorder preloaded in
 * every process it starts, and the trace directory set.  The recorder is the one built
 * for the MPI library of the command's program (program_mpi.h): libprognoz.so for
 * MPICH's ABI, libprognoz-openmpi.so for Open MPI's.  When the run ended without
 * MPI_Finalize, assembles the partial trace its processes left (assemble.h).  It says
 * which recorder it chose in one line, unless --quiet or PROGNOZ_LIB chose.  prognoz
 * ends as the command did: same exit status, or killed by the same signal. */
#include <errno.h>
#include <limits.h>
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
#include "program_mpi.h"

/* The recorders' file names; PZ_OPENMPI_RECORDER is "" when configure found no Open MPI. */
#define PZ_MPICH_RECORDER "libprognoz.so"

extern char **environ;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: prognoz record [-o DIR] [--quiet] -- COMMAND [ARGS...]\n"
            "       prognoz record --finish DIR\n"
            "\n"
            "Runs COMMAND, typically 'mpiexec -n 4 ./app', with the recorder preloaded, so\n"
            "that every MPI process it starts records its MPI calls into DIR/traces.otf2.\n"
            "The recorder is the one for the MPI library the program is linked with:\n"
            "libprognoz.so for MPICH, libprognoz-openmpi.so for Open MPI (%s).  Open MPI's\n"
            "mpiexec is given -x for LD_PRELOAD and every PROGNOZ_ variable.\n"
            "\n"
            "  -o DIR   trace directory (default: $PROGNOZ_DIR, else ./prognoz-trace);\n"
            "           a trace already in DIR is replaced\n"
            "  --quiet  no line saying which recorder was chosen\n"
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
            "  PROGNOZ_LIB=PATH     the library to preload, whatever the program's MPI\n"
            "  PROGNOZ_LIBDIR=DIR   where the recorders are (default: %s)\n"
            "\nSee prognoz-record(1).\n",
            *PZ_OPENMPI_RECORDER ? "built" : "not built", PZ_LIBDIR);
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

/* Says which recorder was chosen for the program, and from which of its libraries. */
static void say_recorder(const struct pz_program_mpi *mpi)
{
    if (mpi->abi == PZ_MPI_NONE)
        fprintf(stderr, "prognoz: recording with the MPICH recorder (no program of the "
                "command is linked with an MPI library)\n");
    else if (mpi->by_launcher)
        fprintf(stderr, "prognoz: recording with the Open MPI recorder (no program of the "
                "command is linked with an MPI library; %s is Open MPI's mpiexec)\n",
                mpi->program);
    else
        fprintf(stderr, "prognoz: recording with the %s recorder (%s)\n",
                mpi->abi == PZ_MPI_OPENMPI ? "Open MPI" : "MPICH", mpi->library);
}

/* The recorder for the program of command: PROGNOZ_LIB, else the one built for its MPI
 * in PROGNOZ_LIBDIR (or LIBDIR), in path; NULL, said, if there is none. */
static const char *recorder(const struct pz_program_mpi *mpi, char *path, size_t size)
{
    const char *lib = getenv("PROGNOZ_LIB"), *dir = getenv("PROGNOZ_LIBDIR");

    if (lib && *lib)
        return lib;
    if (mpi->abi == PZ_MPI_OPENMPI && !*PZ_OPENMPI_RECORDER) {
        fprintf(stderr, "prognoz record: '%s' uses Open MPI (%s), but this prognoz was built "
                "without Open MPI (configure --with-openmpi)\n", mpi->program, mpi->library);
        return NULL;
    }
    snprintf(path, size, "%s/%s", dir && *dir ? dir : PZ_LIBDIR,
             mpi->abi == PZ_MPI_OPENMPI ? PZ_OPENMPI_RECORDER : PZ_MPICH_RECORDER);
    return path;
}

/* command with "-x NAME" after Open MPI's mpiexec for LD_PRELOAD and each PROGNOZ_
 * variable, which it passes on to processes on other nodes only when told to. */
static char **with_exported_environment(char **command)
{
    size_t n = 0, words = 0;
    char **out;

    while (command[n])
        n++;
    for (char **e = environ; *e; e++)
        words += 2;
    if (!(out = calloc(n + words + 1, sizeof(*out))))
        return NULL;
    words = 0;
    out[words++] = command[0];
    for (char **e = environ; *e; e++) {
        if (strncmp(*e, "LD_PRELOAD=", 11) && strncmp(*e, "PROGNOZ_", 8))
            continue;
        out[words++] = "-x";
        if (!(out[words++] = strndup(*e, strcspn(*e, "="))))
            return NULL;
    }
    for (size_t i = 1; i <= n; i++)
        out[words++] = command[i];
    return out;
}

int pz_cmd_record(int argc, char **argv)
{
    const char *dir = NULL, *lib;
    char path[PATH_MAX], warning[512], **command;
    struct pz_program_mpi mpi;
    int i = 1, quiet = 0;

    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--finish") && i + 2 == argc) {
            return finish(argv[i + 1]);
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            dir = argv[++i];
        } else if (!strcmp(argv[i], "--quiet")) {
            quiet = 1;
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
    command = argv + i + 1;
    pz_program_mpi(command, &mpi);
    if (!(lib = recorder(&mpi, path, sizeof(path))))
        return 1;
    if (access(lib, R_OK) != 0) {
        fprintf(stderr, "prognoz record: cannot read the recorder library '%s': %s\n", lib,
                strerror(errno));
        return 1;
    }
    if (!quiet && lib == path)
        say_recorder(&mpi);
    if (pz_program_mpi_mismatch(&mpi, warning, sizeof(warning)))
        fprintf(stderr, "%s\n", warning);
    if ((dir && setenv("PROGNOZ_DIR", dir, 1) != 0) || set_preload(lib) != 0) {
        fprintf(stderr, "prognoz record: cannot set the environment: %s\n", strerror(errno));
        return 1;
    }
    if (mpi.openmpi_launcher && !(command = with_exported_environment(command))) {
        fprintf(stderr, "prognoz record: out of memory\n");
        return 1;
    }
    return run(command, dir ? dir : getenv("PROGNOZ_DIR"));
}
