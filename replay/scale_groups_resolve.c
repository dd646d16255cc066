/* The communicators that one recording alone cannot class, classed across the
 * recordings (scale_run.h, pz_scale_runs_resolve_groups): a split into groups of k is
 * the world at k processes or fewer, its leaders' communicator rank 0 alone, a split by
 * rank % k each process alone; the recordings where it is neither tell its class at the
 * same call of the same process.  Blocks whose size changes with P as P / b are b
 * blocks. */
#include <string.h>

#include "scale_run_int.h"

/* Does an event of process p at step s use class index `index`; with a message (whose
 * peer was made an offset in the world's grid) when messages is set. */
static int uses(const struct pz_scale_process *p, size_t s, uint32_t index, int messages)
{
    const struct pz_scale_step *st = &p->steps[s];

    for (uint32_t i = st->first; i < st->first + st->n; i++)
        if (p->events[i].comm == index && (!messages || pz_scale_is_message(p->events[i].kind)))
            return 1;
    return 0;
}

/* Where a communicator is first used, in the same terms at every count: its first
 * member's (the lowest process using it) first call on it, the function's name and how
 * many calls to it came before. */
struct use {
    int proc;
    const char *name;
    uint32_t nth;
};

/* The first use of class index `index` of run into *u: 0 when none, or when some
 * process sends or receives a message on it. */
static int first_use(const struct pz_scale_run *run, uint32_t index, struct use *u)
{
    const struct pz_scale_process *p = NULL;
    size_t s = 0;

    for (int q = 0; q < run->nprocs; q++)
        for (size_t t = 0; t < run->procs[q].nsteps; t++) {
            if (uses(&run->procs[q], t, index, 1))
                return 0;
            if (!p && uses(&run->procs[q], t, index, 0)) {
                p = &run->procs[q];
                u->proc = q;
                s = t;
            }
        }
    if (!p || !run->names[p->steps[s].region])
        return 0;
    u->name = run->names[p->steps[s].region];
    u->nth = 0;
    for (size_t t = 0; t < s; t++)
        u->nth += p->steps[t].region == p->steps[s].region;
    return 1;
}

/* The class of the call of use u in run (of its first event that has a communicator);
 * NULL when its process makes none. */
static const struct pz_scale_comm *class_at(const struct pz_scale_run *run,
                                            const struct use *u)
{
    const struct pz_scale_process *p;
    uint32_t nth = u->nth;

    if (u->proc >= run->nprocs)
        return NULL;
    p = &run->procs[u->proc];
    for (size_t s = 0; s < p->nsteps; s++) {
        const struct pz_scale_step *st = &p->steps[s];
        const char *here = run->names[st->region];

        if (st->kind != PZ_SCALE_CALL || !here || strcmp(here, u->name) != 0 || nth-- > 0)
            continue;
        for (uint32_t i = st->first; i < st->first + st->n; i++)
            if (p->events[i].comm < run->ncomms)
                return &run->comms[p->events[i].comm];
        return NULL;
    }
    return NULL;
}

/* Does group class g give process proc at nprocs processes the members of c: every
 * process (WORLD), or itself alone (SELF)? */
static int gives(const struct pz_scale_comm *g, int nprocs, int proc,
                 const struct pz_scale_comm *c)
{
    uint32_t size, in;

    if (pz_scale_group_of(g, nprocs, proc, &size, &in) < 0)
        return 0;
    return size == (c->kind == PZ_SCALE_COMM_WORLD ? (uint32_t)nprocs : 1);
}

/* The class the other recordings show at the call first using class index `index` of
 * runs[r] (struct use), into *out, and that call's process into *proc: 1 when they
 * show a group class, all the same one. */
static int shown(const struct pz_scale_run *runs, size_t n, size_t r, uint32_t index,
                 struct pz_scale_comm *out, int *proc)
{
    struct use u;
    int found = 0;

    if (!first_use(&runs[r], index, &u))
        return 0;
    *proc = u.proc;
    for (size_t o = 0; o < n; o++) {
        const struct pz_scale_comm *c = o == r ? NULL : class_at(&runs[o], &u);

        if (!c || !pz_scale_is_group(c->kind))
            continue;
        if (found && (c->kind != out->kind || c->k != out->k))
            return 0;
        *out = *c;
        found = 1;
    }
    return found;
}

/* The number of blocks b of P / b ranks each that every recording's class at the call
 * first using blocks class index `index` of runs[r] is, where their size is not the
 * same in all: 1 with *b, else 0.  A class already made b blocks counts as such. */
static int parts_shown(const struct pz_scale_run *runs, size_t n, size_t r, uint32_t index,
                       uint32_t *b)
{
    const struct pz_scale_comm *mine = &runs[r].comms[index];
    struct use u;
    uint32_t parts = 0;
    int differ = 0;

    if (!first_use(&runs[r], index, &u))
        return 0;
    for (size_t o = 0; o < n; o++) {
        const struct pz_scale_comm *c = o == r ? mine : class_at(&runs[o], &u);
        uint32_t here;

        if (!c || (c->kind != PZ_SCALE_COMM_BLOCKS && c->kind != PZ_SCALE_COMM_PARTS))
            continue;
        if (c->kind == PZ_SCALE_COMM_BLOCKS && runs[o].nprocs % (int)c->k)
            return 0;
        here = c->kind == PZ_SCALE_COMM_PARTS ? c->k : (uint32_t)runs[o].nprocs / c->k;
        if (parts && here != parts)
            return 0;
        parts = here;
        differ |= c->kind == PZ_SCALE_COMM_PARTS || c->k != mine->k;
    }
    *b = parts;
    return differ;
}

void pz_scale_runs_resolve_groups(struct pz_scale_run *runs, size_t n)
{
    for (size_t r = 0; r < n; r++)
        for (uint32_t i = 0; i < runs[r].ncomms; i++) {
            struct pz_scale_comm *c = &runs[r].comms[i];
            uint32_t b;

            if (c->kind == PZ_SCALE_COMM_BLOCKS && parts_shown(runs, n, r, i, &b))
                *c = (struct pz_scale_comm){ .kind = PZ_SCALE_COMM_PARTS, .k = b };
        }
    for (size_t r = 0; r < n; r++)
        for (uint32_t i = 0; i < runs[r].ncomms; i++) {
            struct pz_scale_comm *c = &runs[r].comms[i], g;
            int proc;

            if (c->ref && shown(runs, n, r, i, &g, &proc) &&
                gives(&g, runs[r].nprocs, proc, c)) {
                g.ref = 0;
                *c = g;
            }
        }
    pz_scale_runs_class_nodes(runs, n);
}
