/* Whether a model built from exchanges with every member in turn (scale_pairs.c) is
 * one, and the counts it can be synthesized at (scale_program_int.h: sp_pairs_candidate,
 * sp_pairs_law, sp_pairs_check).  Recorded at 2, 4 and 8 processes, such exchanges also
 * fit grids of neighbours (2 x 2 x 2 has every process next to every other); what tells
 * them is the loop: its trip count is the communicator's members less one at every
 * recorded count (1, 3 and 7), or its members where a process exchanges with itself
 * first, and its partner's distance grows with the iteration. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"

/* The world rank of the peer of message event e of process p of run, -1 when none in
 * the grid; the dimensions its communicator keeps into *keep (0xff: the world). */
static int peer_rank(const struct pz_scale_run *run, int p, const struct pz_scale_event *e,
                     uint8_t *keep)
{
    const struct pz_scale_comm *c;

    if (e->comm >= run->ncomms || e->peer.kind != PZ_SCALE_PEER_OFFSET)
        return -1;
    c = &run->comms[e->comm];
    if (c->kind != PZ_SCALE_COMM_WORLD && c->kind != PZ_SCALE_COMM_SLICE)
        return -1;
    *keep = c->kind == PZ_SCALE_COMM_WORLD ? 0xff : c->keep;
    return sp_offset_rank(run, p, c, &e->peer);
}

/* The members of a communicator keeping dimensions keep (0xff: the world) of run. */
static int members(const struct pz_scale_run *run, uint8_t keep)
{
    int n = 1;

    if (keep == 0xff)
        return run->nprocs;
    for (int d = 0; d < run->grid.ndims; d++)
        if ((keep >> d) & 1)
            n *= run->grid.dims[d];
    return n;
}

/* Whether process p of run exchanges with every other member of a communicator of 3
 * members or more (the world at 4 processes or more): its distinct partners on it. */
static int with_every_member(const struct pz_scale_run *run, int p, uint8_t *seen)
{
    const struct pz_scale_process *proc = &run->procs[p];
    uint8_t keeps[8];
    int nkeeps = 0;

    for (size_t i = 0; i < proc->nevents; i++) {
        uint8_t keep;
        int k;

        if (peer_rank(run, p, &proc->events[i], &keep) < 0)
            continue;
        for (k = 0; k < nkeeps && keeps[k] != keep; k++)
            ;
        if (k == nkeeps && nkeeps < 8)
            keeps[nkeeps++] = keep;
    }
    for (int k = 0; k < nkeeps; k++) {
        int n = members(run, keeps[k]), found = 0;

        if (n < 3 || (keeps[k] == 0xff && n < 4))
            continue;
        memset(seen, 0, (size_t)run->nprocs);
        for (size_t i = 0; i < proc->nevents; i++) {
            uint8_t keep;
            int q = peer_rank(run, p, &proc->events[i], &keep);

            if (q >= 0 && q != p && keep == keeps[k] && !seen[q]) {
                seen[q] = 1;
                found++;
            }
        }
        if (found == n - 1)
            return 1;
    }
    return 0;
}

int sp_pairs_candidate(const struct pz_scale_run *const *runs, size_t n)
{
    for (size_t r = 0; r < n; r++) {
        uint8_t *seen = malloc((size_t)runs[r]->nprocs);
        int found = 0;

        if (!seen)
            return 0;
        for (int p = 0; p < runs[r]->nprocs && !found; p++)
            found = with_every_member(runs[r], p, seen);
        free(seen);
        if (found)
            return 1;
    }
    return 0;
}

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

/* The note of the loop l around the first step k with such partners. */
static int note_law(struct pz_scale_program *m, uint32_t k, const struct sp_event *e)
{
    const char *form = sp_pair_form_text(e->peer.off[0]);
    const char *comm = e->comm.kind == PZ_SCALE_COMM_WORLD ? "the world"
                                                           : "a slice of the grid";
    char at[128];

    sp_recorded_counts(m, at, sizeof(at));
    return sp_note(m, "the messages of %s go to every other member of %s in turn, partner "
                   "%s at iteration i = %d .. n - 1 of a loop of n - %d iterations at every "
                   "recorded count (%s), n the communicator's members: an exchange with "
                   "every member in turn (an all-to-all written by hand) is taken, its trip "
                   "count n - %d at any count",
                   sp_sym_name(&m->table, m->nodes[k].sym), comm, form, e->peer.rank,
                   e->peer.rank, at, e->peer.rank);
}

int sp_pairs_law(struct pz_scale_program *m)
{
    uint32_t first = SP_NONE;

    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_event *e = sp_peer_of(m, k, PZ_SCALE_PEER_PAIR);
        uint32_t l;

        if (!e)
            continue;
        if ((l = law_loop(m, k)) == SP_NONE || !law_holds(m, l, e))
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
    return note_law(m, first, sp_peer_of(m, first, PZ_SCALE_PEER_PAIR)) != 0 ? -1 : 1;
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
