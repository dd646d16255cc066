/* How a long read tells its progress: the readers of a trace (the analyzer, the replay's
 * record streams) call a hook the command gives them, which decides what to show; the
 * libraries never print. */
#ifndef PZ_PROGRESS_H
#define PZ_PROGRESS_H

#include <stdint.h>

struct pz_progress_hook {
    /* done of total units of what ("events read", "records replayed") so far; called
     * often (every few ten thousand units), so it must be cheap */
    void (*fn)(void *ud, const char *what, uint64_t done, uint64_t total);
    void *ud;
};

/* Tells h, unless it is NULL or has no fn. */
static inline void pz_progress_tell(const struct pz_progress_hook *h, const char *what,
                                    uint64_t done, uint64_t total)
{
    if (h && h->fn)
        h->fn(h->ud, what, done, total);
}

/* The events of a read in one batch: readers read at most this many between calls. */
#define PZ_PROGRESS_BATCH 65536

#endif
