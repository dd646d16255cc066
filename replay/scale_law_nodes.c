/* What the laws that name a loop's trip count at any count ask of the template's nodes
 * (scale_program_int.h, sp_loop_around, sp_everywhere, sp_peer_of, sp_ordered_beside,
 * sp_law_loop, sp_recorded_counts): a butterfly (sp_xor_law, log2(P) stages) and an exchange with
 * every member in turn (sp_pairs_law, members less one) find their steps by the kind of
 * partner they have, take a law only for a loop right around steps that every process
 * makes, of one trip count at every position, and say in their notes at which recorded
 * counts it held; the numbers' fits (scale_numbers.c) look for the loop around a step
 * too, and for how the trip counts of the loops around it grow (sp_loops_growth). */
#include <math.h>
#include <stdio.h>

#include "scale_program_int.h"

uint32_t sp_loop_around(const struct pz_scale_program *m, uint32_t k)
{
    uint32_t around = SP_NONE;

    for (uint32_t l = 0; l < k; l++)
        if (m->nodes[l].kind == SP_LOOP && m->nodes[l].end > k)
            around = l;
    return around;
}

int sp_guard_anywhere(const struct sp_guard *g)
{
    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
        if (g->pos[d] != SP_ANYWHERE || g->not_first[d] || g->not_last[d])
            return 0;
    return !g->every && !g->parity && !g->rank_not && !g->rank_is;
}

int sp_everywhere(const struct pz_scale_program *m, uint32_t k)
{
    return sp_guard_anywhere(&m->nodes[k].guard);
}

const struct sp_event *sp_peer_of(const struct pz_scale_program *m, uint32_t k, int kind)
{
    const struct sp_sym *s;

    if (m->nodes[k].kind != SP_STEP)
        return NULL;
    s = &m->table.syms[m->nodes[k].sym];
    for (uint32_t i = 0; i < s->n; i++)
        if (m->table.events[s->first + i].peer.kind == kind)
            return &m->table.events[s->first + i];
    return NULL;
}

int sp_ordered_beside(const struct pz_scale_program *m, uint32_t k, const struct sp_event *e)
{
    uint32_t j = e->peer.off[1] == PZ_SCALE_ORDERED_FIRST ? k + 1 : k - 1;
    const struct sp_event *f;

    if (!e->peer.off[1])
        return 1;
    if (j >= m->nnodes || sp_loop_around(m, j) != sp_loop_around(m, k) ||
        !(f = sp_peer_of(m, j, e->peer.kind)))
        return 0;
    return f->peer.off[1] == PZ_SCALE_ORDERED_FIRST + PZ_SCALE_ORDERED_SECOND - e->peer.off[1] &&
           f->peer.off[0] == e->peer.off[0] && f->peer.rank == e->peer.rank &&
           f->comm.kind == e->comm.kind && f->comm.keep == e->comm.keep;
}

uint32_t sp_law_loop(const struct pz_scale_program *m, uint32_t k)
{
    uint32_t l;

    if (!sp_everywhere(m, k) || (l = sp_loop_around(m, k)) == SP_NONE || m->nodes[l].trips)
        return SP_NONE;
    return l;
}

void sp_recorded_counts(const struct pz_scale_program *m, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t r = 0; r < m->nruns && used < len; r++)
        used += (size_t)snprintf(buf + used, len - used, "%s%d", r ? ", " : "",
                                 m->runs[r]->nprocs);
}

/* The trip counts of the loops around node k at nprocs, multiplied, as the synthesis
 * takes them on the program's grid laid out for nprocs. */
static double trips_around(const struct pz_scale_program *m, uint32_t k, int nprocs)
{
    struct pz_scale_grid g;
    double trips = 1;

    pz_scale_grid_layout(&g, nprocs, m->grid.ndims, m->grid.ascending);
    for (uint32_t l = sp_loop_around(m, k); l != SP_NONE; l = sp_loop_around(m, l))
        trips *= (double)sp_trips_at(m, l, &g, nprocs);
    return trips;
}

double sp_loops_growth(const struct pz_scale_program *m, uint32_t k)
{
    int low = 0, high = 0;
    double from, to;

    for (size_t r = 0; r < m->nruns; r++) {
        int procs = m->runs[r]->nprocs;

        if (!low || procs < low)
            low = procs;
        if (procs > high)
            high = procs;
    }
    if (high <= low)
        return 0;
    from = trips_around(m, k, low);
    to = trips_around(m, k, high);
    return from > 0 && to > from ? log(to / from) / log((double)high / low) : 0;
}
