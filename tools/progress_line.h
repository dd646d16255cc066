/* The progress line of a long command on the standard error: "prognoz predict: 1234567
 * of 4800000 records replayed (25%)".  Shown only when the standard error is a terminal
 * and --quiet was not given, not before a second has passed, at most ten times a
 * second, and erased at the end, so that output, pipes and logs never hold it. */
#ifndef PZ_TOOLS_PROGRESS_LINE_H
#define PZ_TOOLS_PROGRESS_LINE_H

#include "progress.h"

struct pz_progress_line {
    struct pz_progress_hook hook;   /* what the readers take: tells this line */
    const char *cmd;
    int on;                         /* a terminal, and not --quiet */
    int shown;                      /* the line is on the terminal */
    double started, last;           /* monotonic seconds: start, last shown */
    char phase[192];                /* the step of the work, "" if none */
};

/* Starts the clock of p for command cmd ("predict"). */
void pz_progress_line_init(struct pz_progress_line *p, const char *cmd, int quiet);

/* For a command of several steps: names the one that begins ("fitting the model"), which
 * the line shows before the counts told next ("prognoz scale: fitting the model: 300
 * records predicted"), at once once the first second has passed. */
void pz_progress_line_phase(struct pz_progress_line *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Erases the line, if shown. */
void pz_progress_line_end(struct pz_progress_line *p);

#endif
