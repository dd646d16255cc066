/* The progress line (progress_line.h). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress_line.h"

#define FIRST_AFTER 1.0    /* s: quick work shows nothing */
#define EVERY 0.1          /* s between two updates */

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void show(void *ud, const char *what, uint64_t done, uint64_t total)
{
    struct pz_progress_line *p = ud;
    double t;

    if (!p->on || (t = now()) - p->started < FIRST_AFTER || t - p->last < EVERY)
        return;
    p->last = t;
    p->shown = 1;
    if (total && done <= total)
        fprintf(stderr, "\rprognoz %s: %" PRIu64 " of %" PRIu64 " %s (%d%%)\033[K", p->cmd,
                done, total, what, (int)(100.0 * (double)done / (double)total));
    else
        fprintf(stderr, "\rprognoz %s: %" PRIu64 " %s\033[K", p->cmd, done, what);
    fflush(stderr);
}

void pz_progress_line_init(struct pz_progress_line *p, const char *cmd, int quiet)
{
    *p = (struct pz_progress_line){ .hook = { show, p }, .cmd = cmd,
                               .on = !quiet && isatty(STDERR_FILENO) };
    p->started = now();
}

void pz_progress_line_end(struct pz_progress_line *p)
{
    if (p->shown)
        fprintf(stderr, "\r\033[K");
    p->shown = 0;
}
