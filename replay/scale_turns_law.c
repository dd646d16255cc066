/* What the model takes of the collectives whose root turns with the iteration
 * (scale_program_int.h, sp_turns_wrong, sp_turns_note): a run of them rewritten into one
 * symbol per body position (scale_turns.c) stands for its iterations only where the
 * loop sp_fold then makes right around each of them counts those iterations: two
 * broadcasts of one shape from the same root in each iteration (a body of two
 * iterations' worth, as the folding sees it) fold into one loop twice as long, whose
 * iteration would turn the root twice as fast.  The folding is checked against every
 * root recorded; the notes say what is taken and what no recording tells. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"

/* What the walk of a folded process compares with. */
struct walk {
    const struct sp_table *t;
    const struct pz_scale_run *run;
    int proc;
    const uint32_t *orig;
    size_t n, pos;
};

static int gives_back_list(struct walk *w, const uint32_t *list, uint32_t n, uint64_t j);

/* Expands folded symbol sym from step w->pos of the recorded steps, at iteration j of
 * the loop right around it (0 outside one): 0 when every root that turns is the recorded
 * one, else 1 with w->pos at the first step that differs.  A loop whose trip count the
 * data decide (count 0) is not walked: 0. */
static int gives_back(struct walk *w, uint32_t sym, uint64_t j)
{
    const struct sp_sym *s = &w->t->syms[sym];

    if (s->kind == SP_LOOP) {
        for (uint64_t it = 0; it < s->count; it++)
            if (gives_back_list(w, w->t->bodies + s->first, s->n, it))
                return 1;
        if (!s->count)
            w->pos = w->n;
        return 0;
    }
    if (w->pos >= w->n)
        return 0;
    for (uint32_t i = 0; i < s->n; i++) {
        const struct sp_event *e = &w->t->events[s->first + i];
        uint32_t n = sp_turns_members(w->run, w->proc, &e->comm);

        if (e->peer.kind != PZ_SCALE_PEER_TURN)
            continue;
        if (!n || sp_turns_root(&sp_events_of(w->t, w->orig[w->pos])[i], n) !=
                      (int64_t)((e->peer.rank + j) % n))
            return 1;
    }
    w->pos++;
    return 0;
}

static int gives_back_list(struct walk *w, const uint32_t *list, uint32_t n, uint64_t j)
{
    for (uint32_t i = 0; i < n; i++)
        if (gives_back(w, list[i], j))
            return 1;
    return 0;
}

size_t sp_turns_wrong(struct sp_table *t, const struct pz_scale_run *run, int proc,
                      const uint32_t *orig, const uint32_t *syms, size_t n, uint8_t ambiguous)
{
    uint32_t *f = malloc((n ? n : 1) * sizeof(*f));
    struct walk w = {t, run, proc, orig, n, 0};
    size_t nf = n;

    if (!f)
        return (size_t)SP_NONE;
    memcpy(f, syms, n * sizeof(*f));
    if (sp_fold(t, f, &nf, ambiguous) != 0) {
        free(f);
        return (size_t)SP_NONE;
    }
    if (!gives_back_list(&w, f, (uint32_t)nf, 0))
        w.pos = n;
    free(f);
    return w.pos;
}

/* The most members node k's communicator has in a recording that made it. */
static uint32_t most_members(const struct pz_scale_program *m, uint32_t k,
                             const struct pz_scale_comm *c)
{
    uint32_t most = 0;

    for (size_t r = 0; r < m->nruns; r++) {
        uint32_t n = sp_comm_members(c, &m->runs[r]->grid, m->runs[r]->nprocs);

        if (m->first_proc[(size_t)k * m->nruns + r] != SP_NONE && n > most)
            most = n;
    }
    return most;
}

/* Where step node k was first made, for notes: "PATH: process P, interval 'x', call 3". */
static void place_of(const struct pz_scale_program *m, uint32_t k, char *buf, size_t len)
{
    char where[160];

    for (size_t r = 0; r < m->nruns; r++) {
        uint32_t proc = m->first_proc[(size_t)k * m->nruns + r];

        if (proc == SP_NONE)
            continue;
        sp_where(m, r, proc, m->first_step[(size_t)k * m->nruns + r], where, sizeof(where));
        snprintf(buf, len, "%s: process %u, %s", m->runs[r]->path, proc, where);
        return;
    }
    snprintf(buf, len, "never recorded");
}

int sp_turns_note(struct pz_scale_program *m)
{
    uint32_t first = SP_NONE, narrow = SP_NONE;
    char counts[128], where[512];

    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_event *e = sp_peer_of(m, k, PZ_SCALE_PEER_TURN);

        if (!e)
            continue;
        first = first == SP_NONE ? k : first;
        if (narrow == SP_NONE && most_members(m, k, &e->comm) <= 2)
            narrow = k;
    }
    if (first == SP_NONE)
        return 0;
    sp_recorded_counts(m, counts, sizeof(counts));
    if (sp_note(m, "the root of %s turns with the iteration j of the loop right around it, "
                "member (r + j) mod n of its communicator's n, at every recorded count (%s): "
                "a collective whose root turns with the loop's step (SUMMA's broadcasts "
                "along the rows and columns of its grid) is taken",
                sp_sym_name(&m->table, m->nodes[first].sym), counts) != 0)
        return -1;
    if (narrow == SP_NONE)
        return 0;
    place_of(m, narrow, where, sizeof(where));
    return sp_note(m, "%s (%s) turns its root on a communicator of at most 2 members in "
                   "every recording (%s): that it turns over every member, not over 2 of "
                   "them (root j mod 2 records the same), is assumed; a recording where it "
                   "has 3 members or more would tell",
                   sp_sym_name(&m->table, m->nodes[narrow].sym), where, counts);
}
