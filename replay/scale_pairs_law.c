/* Whether a model built from exchanges with every member in turn (scale_pairs.c) is
 * one, and the counts it can be synthesized at (scale_program_int.h: sp_pairs_law,
 * sp_pairs_bound, sp_pairs_check).  Recorded at 2, 4 and 8 processes, such exchanges
 * also fit grids of neighbours (2 x 2 x 2 has every process next to every other); what
 * tells them is the loop: its trip count is the communicator's members less one at every
 * recorded count (1, 3 and 7), or its members where a process exchanges with itself
 * first, and its partner's distance grows with the iteration. */
#include <stdio.h>
#include <math.h>

#include "scale_program_int.h"

/* Whether every PZ_SCALE_PEER_PAIR event of the steps of loop l's body has e's first
 * distance (peer.rank) and e's communicator class. */
static int body_agrees(const struct pz_scale_program *m, uint32_t l, const struct sp_event *e)
{
    for (uint32_t k = l + 1; k < m->nodes[l].end; k++) {
        const struct sp_sym *s;

        if (m->nodes[k].kind != SP_STEP)
            continue;
        s = &m->table.syms[m->nodes[k].sym];
        for (uint32_t i = 0; i < s->n; i++) {
            const struct sp_event *f = &m->table.events[s->first + i];

            if (f->peer.kind == PZ_SCALE_PEER_PAIR &&
                (f->peer.rank != e->peer.rank || f->comm.kind != e->comm.kind ||
                 f->comm.keep != e->comm.keep))
                return 0;
        }
    }
    return 1;
}

uint32_t sp_pairs_bound(const struct pz_scale_program *m, size_t r, uint32_t k)
{
    const struct pz_scale_run *run = m->runs[r];

    if (!m->table.by_pairs)
        return UINT32_MAX;
    for (uint32_t j = k + 1; j < m->nodes[k].end; j++) {
        const struct sp_event *e = sp_peer_of(m, j, PZ_SCALE_PEER_PAIR);

        if (m->nodes[j].kind == SP_LOOP)
            j = m->nodes[j].end - 1;
        else if (e)
            return sp_comm_members(&e->comm, &run->grid, run->nprocs) - (uint32_t)e->peer.rank;
    }
    return UINT32_MAX;
}

/* The loop a law of its trip count may be taken for around step node k: sp_law_loop's,
 * or where the root of a gather written by hand alone makes k (its guard the root's
 * rank and nothing else: the loop receiving from every other process in turn), the
 * loop right around k, of one trip count. */
static uint32_t law_loop(const struct pz_scale_program *m, uint32_t k)
{
    struct sp_guard g = m->nodes[k].guard;
    uint32_t l;

    if (!g.rank_is)
        return sp_law_loop(m, k);
    g.rank_is = 0;
    if (!sp_guard_anywhere(&g) || (l = sp_loop_around(m, k)) == SP_NONE ||
        m->nodes[l].trips)
        return SP_NONE;
    return l;
}

/* Does loop l's trip count give the members of e's communicator less its first distance
 * at every recorded count. */
static int law_holds(const struct pz_scale_program *m, uint32_t l, const struct sp_event *e)
{
    if (e->peer.rank < 0 || e->peer.rank > 1 || !body_agrees(m, l, e))
        return 0;
    for (size_t r = 0; r < m->nruns; r++) {
        const struct pz_scale_run *run = m->runs[r];
        long long want = (long long)sp_comm_members(&e->comm, &run->grid, run->nprocs) -
                         e->peer.rank;

        if (llround(pz_scale_model_at(&m->nodes[l].count, run->nprocs)) != want)
            return 0;
    }
    return 1;
}

/* Into buf, where step node k is the first of two blocking calls ordered by rank
 * (sp_ordered_beside), what the synthesis does of them, after "; "; else "". */
static void order_text(const struct pz_scale_program *m, uint32_t k, const struct sp_event *e,
                       char *buf, size_t len)
{
    const char *first = sp_sym_name(&m->table, m->nodes[k].sym);

    buf[0] = '\0';
    if (e->peer.off[1] == PZ_SCALE_ORDERED_FIRST)
        snprintf(buf, len, "; the two calls of each step (%s and %s) are ordered by rank, %s "
                 "first where the process's rank is below its partner's, %s first where it "
                 "is above, as in every recording", first,
                 sp_sym_name(&m->table, m->nodes[k + 1].sym), first,
                 sp_sym_name(&m->table, m->nodes[k + 1].sym));
}

/* The note of the loop l around the first step k with such partners. */
static int note_law(struct pz_scale_program *m, uint32_t k, const struct sp_event *e)
{
    const char *form = sp_pair_form_text(e->peer.off[0]);
    const char *comm = e->comm.kind == PZ_SCALE_COMM_WORLD ? "the world"
                                                           : "a slice of the grid";
    char at[128], order[256];

    sp_recorded_counts(m, at, sizeof(at));
    order_text(m, k, e, order, sizeof(order));
    return sp_note(m, "the messages of %s go to every other member of %s in turn, partner "
                   "%s at iteration i = %d .. n - 1 of a loop of n - %d iterations at every "
                   "recorded count (%s), n the communicator's members: an exchange with "
                   "every member in turn (an all-to-all written by hand, or a gather or "
                   "scatter by one process) is taken, its trip count n - %d at any count%s",
                   sp_sym_name(&m->table, m->nodes[k].sym), comm, form, e->peer.rank,
                   e->peer.rank, at, e->peer.rank, order);
}

int sp_pairs_law(struct pz_scale_program *m)
{
    uint32_t first = SP_NONE;

    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_event *e = sp_peer_of(m, k, PZ_SCALE_PEER_PAIR);
        uint32_t l;

        if (!e)
            continue;
        if ((l = law_loop(m, k)) == SP_NONE || !law_holds(m, l, e) || !sp_ordered_beside(m, k, e))
            return 0;
        if (first == SP_NONE)
            first = k;
    }
    if (first == SP_NONE)
        return 0;
    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_event *e = sp_peer_of(m, k, PZ_SCALE_PEER_PAIR);
        struct sp_node *l;

        if (!e)
            continue;
        l = &m->nodes[sp_loop_around(m, k)];
        l->pairs = (uint8_t)(e->peer.rank + 1);
        l->pairs_comm = e->comm;
        if (e->comm.kind == PZ_SCALE_COMM_WORLD)
            l->count = (struct pz_scale_model){.c0 = -e->peer.rank, .c1 = 1,
                                               .origin = e->peer.rank == 0, .a_num = 1,
                                               .a_den = 1, .npoints = l->count.npoints};
    }
    if (note_law(m, first, sp_peer_of(m, first, PZ_SCALE_PEER_PAIR)) != 0 ||
        sp_pairs_note_grid(m) != 0)
        return -1;
    return 1;
}

int sp_pairs_check(const struct pz_scale_program *m, const struct pz_scale_grid *g,
                   int nprocs, char *err, size_t errlen)
{
    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_event *e = sp_peer_of(m, k, PZ_SCALE_PEER_PAIR);
        uint32_t n;

        if (!e || e->peer.off[0] != PZ_SCALE_PAIR_XOR)
            continue;
        n = sp_comm_members(&e->comm, g, nprocs);
        if (n & (n - 1)) {
            snprintf(err, errlen, "the partners of %s are rank XOR i for i = %d .. n - 1 "
                     "(a pairwise exchange with every member in turn), which takes a power "
                     "of two members, not %u (at %d processes)",
                     sp_sym_name(&m->table, m->nodes[k].sym), e->peer.rank, n, nprocs);
            return -1;
        }
    }
    return 0;
}
