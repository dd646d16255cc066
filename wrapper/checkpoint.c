/* Periodic checkpoints (checkpoint.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive.h"
#include "checkpoint.h"
#include "clock.h"
#include "evt_file.h"
#include "part.h"
#include "partial.h"
#include "runtime.h"
#include "session.h"

#define DEFAULT_INTERVAL 10
#define MAX_INTERVAL 1e6

_Atomic uint64_t pz_checkpoint_due = UINT64_MAX;

static uint64_t interval_ns;
static struct pz_anchor armed;    /* both clocks when armed: the tick rate from there */
static uint64_t deadline;         /* ns at which the next checkpoint is due */
static struct pz_thread *saver;   /* the thread whose events are saved, NULL before */
static uint64_t saved_size;       /* bytes of its saved file that hold them */

static uint64_t interval_of(const char *text)
{
    char *end;
    double seconds;

    if (!text || !*text)
        return (uint64_t)DEFAULT_INTERVAL * 1000000000u;
    seconds = strtod(text, &end);
    if (end != text && !*end && seconds >= 0 && seconds <= MAX_INTERVAL)
        return (uint64_t)(seconds * 1e9);
    if (pz_session.rank == 0)
        pz_runtime_warn("PROGNOZ_FLUSH_INTERVAL='%s' is not a number of seconds from 0 to "
                        "1000000; using %d", text, DEFAULT_INTERVAL);
    return (uint64_t)DEFAULT_INTERVAL * 1000000000u;
}

/* The next due time in ticks, at the tick rate seen since arming. */
static void schedule(struct pz_anchor now)
{
    double rate = now.ns > armed.ns && now.ticks > armed.ticks
                      ? (double)(now.ticks - armed.ticks) / (double)(now.ns - armed.ns)
                      : 1;

    atomic_store(&pz_checkpoint_due,
                 now.ticks + (uint64_t)((double)(deadline - now.ns) * rate));
}

void pz_checkpoint_arm(void)
{
    interval_ns = interval_of(getenv("PROGNOZ_FLUSH_INTERVAL"));
    if (!interval_ns)
        return;
    armed = pz_anchor_now();
    deadline = armed.ns + interval_ns;
    /* the tick rate is not known yet: ticks are at least a quarter of a nanosecond (a
     * time-stamp counter of 250 MHz), so the first check comes early, and measures it */
    atomic_store(&pz_checkpoint_due, armed.ticks + interval_ns / 4);
}

static void location_paths(uint64_t location, char *evt, char *saved, size_t size)
{
    snprintf(evt, size, "%s/traces/%llu.evt", pz_session.stage, (unsigned long long)location);
    snprintf(saved, size, "%s/traces/%llu.evt.saved", pz_session.stage,
             (unsigned long long)location);
}

static int can_take(const struct pz_thread *t)
{
    return pz_runtime_on() && pz_session.archive_open && !pz_archive_failed() &&
           !pz_partial_saved() && pz_thread_first() == t && !t->next;
}

/* The thread's records written out and appended to its saved file, and the part
 * written that says so; 0, or -1 after a warning. */
static int save(struct pz_thread *t)
{
    char evt[PATH_MAX + 64], saved[PATH_MAX + 64];

    pz_thread_flush(t);
    pz_archive_close_evt_writer(t->writer);
    t->writer = NULL;
    if (pz_archive_failed())
        return -1;
    location_paths(t->location, evt, saved, sizeof(evt));
    if (pz_evt_append(saved, &saved_size, evt) != 0) {
        pz_runtime_warn("cannot save the trace of rank %d in '%s': %s; no more checkpoints",
                        pz_session.rank, saved, strerror(errno));
        return -1;
    }
    saver = t;
    return pz_partial_checkpoint(t, saved_size);
}

void pz_checkpoint(struct pz_thread *t)
{
    struct pz_anchor now = pz_anchor_now();
    uint64_t start;

    if (now.ns < deadline) {
        schedule(now);
        return;
    }
    if (!can_take(t)) {
        atomic_store(&pz_checkpoint_due, UINT64_MAX);
        return;
    }
    start = pz_ticks();
    if (save(t) != 0) {
        atomic_store(&pz_checkpoint_due, UINT64_MAX);
        return;
    }
    /* the time it took shows in the trace as a flush of the buffer */
    t->flush_start = start;
    t->flush_end = pz_ticks();
    pz_thread_mark_flush(t);
    now = pz_anchor_now();
    deadline = now.ns + interval_ns;
    schedule(now);
}

void pz_checkpoint_join(void)
{
    char evt[PATH_MAX + 64], saved[PATH_MAX + 64], part[PATH_MAX + 64];
    int rc;

    atomic_store(&pz_checkpoint_due, UINT64_MAX);
    if (!saver || pz_archive_failed())
        return;
    location_paths(saver->location, evt, saved, sizeof(evt));
    /* no event file when nothing was written since the checkpoint */
    if (access(evt, F_OK) == 0)
        rc = pz_evt_append(saved, &saved_size, evt);
    else
        rc = pz_evt_cut(saved, saved_size);
    if (rc != 0 || rename(saved, evt) != 0)
        pz_runtime_warn("cannot join the trace of rank %d in '%s': %s", pz_session.rank, evt,
                        strerror(errno));
    snprintf(part, sizeof(part), "%s/" PZ_PART_PREFIX "%d", pz_session.stage, pz_session.rank);
    unlink(part);
    saver = NULL;
}
