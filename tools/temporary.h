/* Temporary directories of the commands that write traces only to read them back
 * (predict, scale): made under $TMPDIR (or /tmp), removed after use, and removed too if
 * SIGINT or SIGTERM ends the command while one exists.  One at a time. */
#ifndef PZ_TOOLS_TEMPORARY_H
#define PZ_TOOLS_TEMPORARY_H

#include <stddef.h>

/* Installs the removal for SIGINT and SIGTERM, unless the signal is ignored (as in a job
 * started in the background by a shell without job control). */
void pz_temporary_clean_up_on_signals(void);

/* Makes a new directory $TMPDIR/prognoz-WHAT-XXXXXX into dir (len bytes).  Returns 0, or
 * -1 (errno tells why). */
int pz_temporary_make(const char *what, char *dir, size_t len);

/* Removes path (a directory inside the one pz_temporary_make made, or any path) and
 * everything in it; nothing if it does not exist. */
void pz_temporary_clear(const char *path);

/* Removes the directory made by pz_temporary_make and everything in it. */
void pz_temporary_remove(const char *dir);

#endif
