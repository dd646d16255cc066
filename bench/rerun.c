/* Running the benchmark program again in a fresh process (rerun.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rerun.h"

int pz_bench_rerun(char *const argv[], const char *who)
{
    pid_t pid;
    int status;

    fflush(stdout);
    if ((pid = fork()) < 0) {
        fprintf(stderr, "%s: fork: %s\n", who, strerror(errno));
        return -1;
    }
    if (pid == 0) {
        execv("/proc/self/exe", argv);
        fprintf(stderr, "%s: exec: %s\n", who, strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
