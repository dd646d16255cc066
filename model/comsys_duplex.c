/* The duplex overhead (docs/machines.md, "Overheads"): a send posted while its
 * receiver's message to it is on its way takes longer, as on loopback TCP, where each
 * sender's kernel carries its data into the other's socket and the two directions slow
 * each other in the senders' CPUs.  On its way: from the start of that message's send
 * overhead until its data arrives, the whole one-way time, and not its send overhead
 * alone: the overheads a calibration fits within the ping-pong are a small part of the
 * one-way time, and the replayed exchanges of a program settle where each process sends
 * while the other's message is on its way, long after that message's overhead ended, so
 * that two overheads rarely overlap although the two messages do.  The later of the
 * two sends bears the whole overlap (the earlier one's cost is already known), as a
 * transfer does with duplex_factor.  Kept only on a machine with a duplex overhead. */
#include <math.h>
#include <stdlib.h>

#include "comsys_int.h"
#include "cost.h"

/* A process's latest send: when its overhead began, until when its data is on its way
 * (its overhead's end until the simulation knows when it arrives), and to whom (-1: none
 * yet). */
struct sending {
    double start, arrives;
    int to;
};

int pz_cs_duplex_init(struct pz_comsys *cs)
{
    if (!(cs->machine->duplex_overhead > 0))
        return 0;
    cs->sending = malloc((size_t)(cs->nprocs > 0 ? cs->nprocs : 1) * sizeof(*cs->sending));
    if (!cs->sending)
        return -1;
    for (int p = 0; p < cs->nprocs; p++)
        cs->sending[p] = (struct sending){ 0, 0, -1 };
    return 0;
}

void pz_cs_duplex_free(struct pz_comsys *cs)
{
    free(cs->sending);
}

/* How long [start, end] overlaps back's message on its way to process p. */
static double on_its_way(const struct sending *back, int p, double start, double end)
{
    if (back->to != p)
        return 0;
    return fmin(back->arrives, end) - fmax(back->start, start);
}

/* When a send of bytes from p to peer whose overhead o (its duplex overhead aside) ends
 * at end leaves: its tail earlier, at most o earlier (docs/machines.md, send_tail and
 * send_tail_per_byte; a process's own work, self_segments, the per-message tail alone).
 * Its process stays busy until end. */
static double departure(const struct pz_comsys *cs, int p, int peer, double bytes, double end,
                        double o)
{
    double tail = pz_cs_self_work(cs, p, peer) ? cs->machine->send_tail
                                                : pz_send_tail_time(cs->machine, bytes);

    return end - fmin(tail, o);
}

double pz_cs_send_occupy(struct pz_comsys *cs, int p, int peer, double at, double bytes)
{
    double o = pz_cs_send_overhead(cs, p, peer, bytes);
    double end = pz_cs_resume_occupy(cs, p, peer, at, o), start = end - o, overlap;

    if (!cs->sending || !(o > 0) || peer == p)   /* a message to oneself crosses nothing */
        return departure(cs, p, peer, bytes, end, o);
    overlap = on_its_way(&cs->sending[peer], p, start, end);
    if (overlap > 0) {
        end += cs->machine->duplex_overhead * overlap / o;
        cs->cpu_free[p] = end;
    }
    cs->sending[p] = (struct sending){ start, end, peer };
    return departure(cs, p, peer, bytes, end, o);
}

double pz_cs_duplex_arrives(struct pz_comsys *cs, int from, int to, double arrival)
{
    struct sending *s = cs->sending ? &cs->sending[from] : NULL;

    /* an earlier message to the same process arrives before the latest one: it keeps
       the latest on its way at least as long */
    if (s && s->to == to)
        s->arrives = fmax(s->arrives, arrival);
    return arrival;
}
