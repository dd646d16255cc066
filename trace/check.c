/* The error of a time going back (check.h). */
#include "check.h"
#include "defs.h"
#include "open.h"

static double seconds(const struct pz_defs *defs, uint64_t time)
{
    return (double)(int64_t)(time - defs->offset) / (double)defs->resolution;
}

void pz_time_check_fail(struct pz_trace_file *f, const struct pz_defs *defs, uint64_t loc,
                        uint64_t event, uint64_t time, const struct pz_time_check *c)
{
    pz_trace_file_fail(f, "location %llu: time goes back at event %llu (%.9f s after %.9f s)",
                       (unsigned long long)loc, (unsigned long long)event,
                       seconds(defs, time), seconds(defs, c->last));
}
