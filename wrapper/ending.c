/* Catching the ends without MPI_Finalize (ending.h).
 *
 * A signal handler may only do async-signal-safe work, and writing OTF2 is not: the
 * handler forks with _Fork (safe, runs no fork handlers) and the child, a frozen copy of
 * the process, writes the part while the handler waits for it at most SAVE_SECONDS.  If
 * the copy cannot finish (the signal came while a thread held a lock the writing needs,
 * say malloc's after a heap corruption), it is killed and only this process's records
 * are lost; the process itself never hangs.  Then the previous action is restored and
 * the signal comes again, so the process dies of it as it would have. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "ending.h"
#include "hooks.h"
#include "lifecycle.h"
#include "partial.h"
#include "runtime.h"

enum { SAVE_SECONDS = 10 };

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
                                     SIGTERM, SIGINT, SIGXCPU };

static void on_exit_save(int status, void *unused)
{
    char ending[64];

    (void)unused;
    if (!pz_runtime_on())
        return;
    snprintf(ending, sizeof(ending), "exit without MPI_Finalize (status %d)", status);
    pz_partial_save(ending, pz_ticks());
}

/* The child of the fork: save, then leave without running anything of the program. */
static void save_in_child(int sig)
{
    char ending[64];

    for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
        signal(fatal_signals[i], SIG_DFL);
    snprintf(ending, sizeof(ending), "killed by signal %d (SIG%s)", sig, sigabbrev_np(sig));
    pz_partial_save(ending, pz_ticks());
    _exit(0);
}

/* Waits for the child at most SAVE_SECONDS, then kills it. */
static void wait_bounded(pid_t child)
{
    struct timespec tick = { 0, 10 * 1000 * 1000 };
    int status;

    for (int i = 0; i < SAVE_SECONDS * 100; i++) {
        if (waitpid(child, &status, WNOHANG) != 0)
            return;
        nanosleep(&tick, NULL);
    }
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
}

/* What each caught signal did before: the default, or for a fault the handler of the
 * program or of MPI (UCX prints a backtrace), called once the part is saved. */
static struct sigaction previous[NSIG];

static int is_fault(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL;
}

static void on_fatal_signal(int sig, siginfo_t *info, void *context)
{
    static volatile sig_atomic_t handling;

    (void)context;
    if (!handling && pz_runtime_on() && !pz_partial_saved()) {
        pid_t child;

        handling = 1;
        child = _Fork();
        if (child == 0)
            save_in_child(sig);
        if (child > 0)
            wait_bounded(child);
    }
    sigaction(sig, &previous[sig], NULL);
    /* a fault of the program recurs when the instruction is retried, now reaching the
     * previous action with its own information; a signal sent is sent again, pending
     * until this handler returns */
    if (!is_fault(sig) || info->si_code <= 0)
        raise(sig);
}

void pz_ending_arm(void)
{
    static int armed;

    if (armed)
        return;
    armed = 1;
    on_exit(on_exit_save, NULL);
    for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
        int sig = fatal_signals[i];
        struct sigaction mine = { .sa_sigaction = on_fatal_signal,
                                  .sa_flags = SA_SIGINFO | SA_ONSTACK };
        int by_default;

        if (sigaction(sig, NULL, &previous[sig]) != 0)
            continue;
        by_default = !(previous[sig].sa_flags & SA_SIGINFO) &&
                     previous[sig].sa_handler == SIG_DFL;
        if (!by_default && (!is_fault(sig) || previous[sig].sa_handler == SIG_IGN))
            continue;
        sigemptyset(&mine.sa_mask);
        sigaction(sig, &mine, NULL);
    }
}

void pz_ending_abort(int errorcode, uint64_t enter, uint64_t cpu)
{
    char ending[64];

    if (!pz_runtime_on())
        return;
    pz_lifecycle_record(PZ_CALL_MPI_Abort, enter, cpu);
    snprintf(ending, sizeof(ending), "MPI_Abort (error code %d)", errorcode);
    pz_partial_save(ending, enter);
}
