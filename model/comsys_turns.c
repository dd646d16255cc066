/* The duplex factors by size (docs/machines.md, duplex_factors): on a transport whose
 * two directions take turns, as MPICH's over TCP on one host where each process drives
 * both its send and its receive through the same progress engine, an exchange both
 * ways takes longer than one way by a factor that depends on the size: about 1.4 for
 * small eager messages, above 2 for rendezvous messages of tens and hundreds of KiB,
 * 1.1 to 2 for MiB.  A message is on its way from the moment both its ends are there
 * (an eager one from its departure, a rendezvous one from when both its send and its
 * receive were posted) until its data arrives; while it is, a message the other way at
 * its nodes (into its source or out of its destination) delays its arrival by its
 * size's factor - 1 times the overlap.  The later message bears the whole overlap, its
 * arrival computed after the earlier one's, so that an exchange begun together ends
 * after the factor times one way, as the calibration's exchanges both ways measured.
 * Each node keeps only its latest message in and out: the one any later message
 * overlaps most.  Kept only on a machine with duplex factors. */
#include <math.h>
#include <stdlib.h>

#include "comsys_int.h"
#include "cost.h"

/* A message on its way: from, until. */
struct span {
    double from, until;
};

/* Per node, its latest messages out and in. */
struct turns {
    struct span out, in;
};

int pz_cs_turns_init(struct pz_comsys *cs)
{
    int nodes = pz_nodes_for(cs->machine, cs->nprocs);

    if (cs->machine->duplex_factors.n == 0)
        return 0;
    cs->turns = calloc((size_t)(nodes > 0 ? nodes : 1), sizeof(*cs->turns));
    return cs->turns ? 0 : -1;
}

void pz_cs_turns_free(struct pz_comsys *cs)
{
    free(cs->turns);
}

/* The factor of a message of bytes: its step's, the last step's beyond every bound. */
static double factor_of(const struct pz_size_factors *f, double bytes)
{
    for (int i = 0; i < f->n; i++)
        if (bytes <= f->step[i].upto)
            return f->step[i].factor;
    return f->step[f->n - 1].factor;
}

static double overlap(struct span a, struct span b)
{
    return fmin(a.until, b.until) - fmax(a.from, b.from);
}

double pz_cs_turns_arrives(struct pz_comsys *cs, int from, int to, double bytes,
                           double start, double arrival)
{
    struct turns *src, *dst;
    struct span way = { start, arrival };
    double both;

    if (!cs->turns || pz_cs_same_node(cs, from, to))
        return arrival;
    src = &cs->turns[cs->node[from]];
    dst = &cs->turns[cs->node[to]];
    both = fmax(overlap(way, src->in), overlap(way, dst->out));
    if (both > 0)
        way.until += (factor_of(&cs->machine->duplex_factors, bytes) - 1) * both;
    if (way.until > src->out.until)
        src->out = way;
    if (way.until > dst->in.until)
        dst->in = way;
    return way.until;
}
