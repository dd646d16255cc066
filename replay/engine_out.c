/* What both halves of the replay engine (engine.c, engine_call.c) do to the outside:
 * write a predicted record, stop the replay with a message, name a thread in one. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "engine_int.h"

void pz_engine_fail(struct engine *e, const char *fmt, ...)
{
    va_list ap;

    if (e->error[0])
        return;
    va_start(ap, fmt);
    vsnprintf(e->error, sizeof(e->error), fmt, ap);
    va_end(ap);
}

struct pz_name pz_engine_name(const struct engine *e, int th)
{
    struct pz_name n;

    if (e->threaded)
        snprintf(n.text, sizeof(n.text), "thread %d.%d", e->threads[th].rank,
                 pz_trace_in_thread(e->in, th));
    else
        snprintf(n.text, sizeof(n.text), "rank %d", e->threads[th].rank);
    return n;
}

void pz_engine_emit(struct engine *e, int th, const struct pz_rec *rec, double t)
{
    double ticks = t * e->resolution;

    if (!e->out || rec->kind == PZ_REC_FLUSH)
        return;
    if (pz_trace_out_event(e->out, th, rec, e->offset + (uint64_t)llround(ticks > 0 ? ticks : 0)) != 0)
        pz_engine_fail(e, "cannot write the predicted trace");
}
