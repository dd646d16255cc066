/* The duplex overhead (docs/machines.md, "Overheads"): a send whose CPU overhead runs
 * while its receiver is spending its own on a send back to it takes longer, as on
 * loopback TCP, where each sender's kernel carries its data into the other's socket
 * and the two directions slow each other in the senders' CPUs.  The later of the two
 * sends bears the whole overlap (the earlier one's end is already known), as a
 * transfer does with duplex_factor.  Kept only on a machine with a duplex overhead. */
#include <math.h>
#include <stdlib.h>

#include "comsys_int.h"

/* A process's latest send overhead: when it ran, and to whom (-1: none yet). */
struct sending {
    double start, end;
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

double pz_cs_send_occupy(struct pz_comsys *cs, int p, int peer, double at, double o)
{
    double end = pz_cs_resume_occupy(cs, p, peer, at, o), start = end - o, overlap;
    const struct sending *back;

    if (!cs->sending || !(o > 0))
        return end;
    back = &cs->sending[peer];
    overlap = back->to == p ? fmin(back->end, end) - fmax(back->start, start) : 0;
    if (overlap > 0) {
        end += cs->machine->duplex_overhead * overlap / o;
        cs->cpu_free[p] = end;
    }
    cs->sending[p] = (struct sending){ start, end, peer };
    return end;
}
