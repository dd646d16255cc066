/* What both halves of the replay engine (engine.c, engine_call.c) do to the outside:
 * write or deliver a predicted record, stop the replay with a message, name a thread in
 * one. */
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

/* The call or region where thread th's record rec lies: the region it enters or
 * leaves, else the MPI call it belongs to. */
static const char *place_of(const struct engine *e, int th, const struct pz_rec *rec)
{
    uint32_t region = rec->kind == PZ_REC_ENTER || rec->kind == PZ_REC_LEAVE
                          ? rec->region : e->threads[th].call_region;

    return pz_trace_in_region(e->in, region)->name;
}

/* llround of x, 0 <= x < 2^63, without the library call (one per predicted record):
 * x less its whole part is exact in a double, so the half is found exactly. */
static uint64_t round_half_up(double x)
{
    uint64_t whole = (uint64_t)x;

    return whole + (x - (double)whole >= 0.5);
}

void pz_engine_emit(struct engine *e, int th, const struct pz_rec *rec, double t)
{
    double ticks = t * e->resolution;

    const struct pz_replay_sink *sink = e->o->sink;
    uint64_t time;

    if ((!e->out && !sink) || rec->kind == PZ_REC_FLUSH)
        return;
    /* OTF2 timestamps are 64-bit and readers take them as signed: past 2^63 ticks
     * (292 years in ns) a time cannot be written, only saturated into a wrong one. */
    if (!(ticks < ldexp(1, 63) - (double)e->offset)) {
        pz_engine_fail(e, "predicted time exceeds 2^63 clock ticks (%.3g s) at %s in %s",
                       t, pz_engine_name(e, th).text, place_of(e, th, rec));
        return;
    }
    time = e->offset + round_half_up(ticks > 0 ? ticks : 0);
    if (e->out && pz_trace_out_event(e->out, th, rec, time) != 0)
        pz_engine_fail(e, "cannot write the predicted trace");
    if (sink && sink->record(sink->ctx, th, rec, time) != 0)
        pz_engine_fail(e, "cannot deliver the predicted run");
}
