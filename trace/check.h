/* What every reader checks of each event of a location: that its time does not go
 * back (a damaged trace, a flipped bit, would otherwise give absurd durations).  One
 * compare per event, inline: readers call it from their event callbacks. */
#ifndef PZ_CHECK_H
#define PZ_CHECK_H

#include <stdint.h>

struct pz_defs;
struct pz_trace_file;

/* A location's time so far. */
struct pz_time_check {
    uint64_t last;   /* timestamp of its latest event, 0 before the first */
};

/* Notes the timestamp of a location's next event; nonzero if it is before the one of
 * the event before (c->last then still holds that one). */
static inline int pz_time_check(struct pz_time_check *c, uint64_t time)
{
    if (time < c->last)
        return 1;
    c->last = time;
    return 0;
}

/* Records f's error for event number `event` of location loc, at time after c->last:
 * "PATH: location 3: time goes back at event 1234 (12.5 s after 12.7 s)", times in
 * seconds since the clock's offset of defs. */
void pz_time_check_fail(struct pz_trace_file *f, const struct pz_defs *defs, uint64_t loc,
                        uint64_t event, uint64_t time, const struct pz_time_check *c);

#endif
