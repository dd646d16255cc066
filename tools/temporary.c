/* Temporary directories removed after use or on SIGINT and SIGTERM (temporary.h). */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "temporary.h"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* The temporary directory of the prediction under way, which SIGINT and SIGTERM remove
 * before the command dies of them; temporary_set while there is one. */
static char temporary_dir[4096];
static volatile sig_atomic_t temporary_set;

/* A record of getdents64, the directory reading that is a plain system call (opendir
 * and nftw allocate, so a signal handler cannot use them). */
struct dirent_record {
    unsigned long long ino;
    long long next;
    unsigned short len;
    unsigned char type;
    char name[];
};

/* Removes name under the directory parent, and everything in it: only system calls,
 * safe in a signal handler.  Entries removed while the directory is read may hide
 * others, so it is read again until a pass removes nothing. */
static void remove_tree(int parent, const char *name)
{
    _Alignas(unsigned long long) char buf[4096];   /* records are 8-byte aligned */
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW), removed = 1;
    long n;

    if (fd < 0) {
        unlinkat(parent, name, 0);
        return;
    }
    for (int pass = 0; removed && pass < 16; pass++) {
        removed = 0;
        lseek(fd, 0, SEEK_SET);
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
            for (long off = 0; off < n;) {
                const struct dirent_record *d = (const void *)(buf + off);

                off += d->len;
                if (strcmp(d->name, ".") != 0 && strcmp(d->name, "..") != 0) {
                    remove_tree(fd, d->name);
                    removed = 1;
                }
            }
        }
    }
    close(fd);
    unlinkat(parent, name, AT_REMOVEDIR);
}

/* SIGINT, SIGTERM: removes the temporary directory, then dies of the signal, which
 * SA_RESETHAND has given back its default action and which is delivered again as the
 * handler returns. */
static void interrupted(int sig)
{
    if (temporary_set)
        remove_tree(AT_FDCWD, temporary_dir);
    raise(sig);
}

void pz_temporary_clean_up_on_signals(void)
{
    static const int signals[] = { SIGINT, SIGTERM };
    struct sigaction act = { .sa_handler = interrupted, .sa_flags = SA_RESETHAND };
    struct sigaction old;

    sigemptyset(&act.sa_mask);
    sigaddset(&act.sa_mask, SIGINT);
    sigaddset(&act.sa_mask, SIGTERM);
    for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(signals[i], &act, NULL);
}

/* Makes the temporary directory from the template dir, with the signals that would
 * remove it held until it is known to their handler. */
static int make_registered(char *dir)
{
    sigset_t held, before;
    int rc = -1;

    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    sigprocmask(SIG_BLOCK, &held, &before);
    if (mkdtemp(dir) && strlen(dir) < sizeof(temporary_dir)) {
        memcpy(temporary_dir, dir, strlen(dir) + 1);
        temporary_set = 1;
        rc = 0;
    }
    sigprocmask(SIG_SETMASK, &before, NULL);
    return rc;
}

int pz_temporary_make(const char *what, char *dir, size_t len)
{
    const char *tmp = getenv("TMPDIR");

    if (snprintf(dir, len, "%s/prognoz-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", what) >=
        (int)len)
        return -1;
    return make_registered(dir);
}

void pz_temporary_clear(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void pz_temporary_remove(const char *dir)
{
    pz_temporary_clear(dir);
    temporary_set = 0;
}
