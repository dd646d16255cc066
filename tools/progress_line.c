/* The progress line (progress_line.h). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdarg.h>
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

/* The line's beginning: "\rprognoz scale: fitting the model" and, when counts follow,
 * ": ". */
static void begin_line(const struct pz_progress_line *p, int counts)
{
    fprintf(stderr, "\rprognoz %s: %s%s", p->cmd, p->phase,
            p->phase[0] && counts ? ": " : "");
}

static void show(void *ud, const char *what, uint64_t done, uint64_t total)
{
    struct pz_progress_line *p = ud;
    double t;

    if (!p->on || (t = now()) - p->started < FIRST_AFTER || t - p->last < EVERY)
        return;
    p->last = t;
    p->shown = 1;
    begin_line(p, 1);
    if (total && done <= total)
        fprintf(stderr, "%" PRIu64 " of %" PRIu64 " %s (%d%%)\033[K", done, total, what,
                (int)(100.0 * (double)done / (double)total));
    else
        fprintf(stderr, "%" PRIu64 " %s\033[K", done, what);
    fflush(stderr);
}

void pz_progress_line_phase(struct pz_progress_line *p, const char *fmt, ...)
{
    va_list ap;
    double t;

    va_start(ap, fmt);
    vsnprintf(p->phase, sizeof(p->phase), fmt, ap);
    va_end(ap);
    if (!p->on || (t = now()) - p->started < FIRST_AFTER)
        return;
    p->last = t;
    p->shown = 1;
    begin_line(p, 0);
    fprintf(stderr, "\033[K");
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
