/* The communicators that one recording alone cannot class, classed across the
 * recordings (scale_run.h, pz_scale_runs_resolve_groups): a split into groups of k is
 * the world at k processes or fewer, its leaders' communicator rank 0 alone, a split by
 * rank % k each process alone; the recordings where it is neither tell its class at the
 * same call of the same process.  Blocks whose size changes with P as P / b are b
 * blocks. */
#include <stdlib.h>
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

/* A run's first uses of every class index, found in one pass over its steps: a pass
 * per class was quadratic in a program that creates thousands of communicators (an
 * MPI_Comm_dup in a loop).  `at` is NULL when memory ran out: each is then looked for
 * in a pass of its own. */
struct firsts {
    struct use *at;          /* [class index]: proc -1 when no step uses it */
    uint8_t *messages;       /* [class index]: some process sends or receives on it */
};

/* A run's calls by function, to find a process's nth call of one at once: the region
 * references sorted by name, each name's first reference (its canon), and for the
 * processes asked about so far their calls sorted by canon, in order within one. */
struct named {
    const char *name;
    uint32_t region;
};

struct call_at {
    uint32_t canon;
    uint32_t step;
};

struct calls {
    struct named *sorted;    /* the named regions, by name then reference */
    uint32_t nsorted;
    uint32_t *canon;         /* [region] */
    struct call_at **of;     /* [proc], NULL until asked; */
    size_t *n;               /* and how many */
    int failed;              /* memory ran out: each is looked for by a scan */
};

/* The scan first_use makes without struct firsts. */
static int scan_first_use(const struct pz_scale_run *run, uint32_t index, struct use *u)
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

/* Process q's steps into f: the first step using each class index not used before,
 * with how many steps of its region came before (*seen, by region, zeroed here). */
static void first_uses_of(const struct pz_scale_run *run, int q, struct firsts *f,
                          uint32_t *seen)
{
    const struct pz_scale_process *p = &run->procs[q];

    memset(seen, 0, run->nnames * sizeof(*seen));
    for (size_t t = 0; t < p->nsteps; t++) {
        const struct pz_scale_step *st = &p->steps[t];
        int named = st->region < run->nnames && run->names[st->region];

        for (uint32_t i = st->first; i < st->first + st->n; i++) {
            uint32_t index = p->events[i].comm;

            if (index >= run->ncomms)
                continue;
            f->messages[index] |= (uint8_t)pz_scale_is_message(p->events[i].kind);
            if (f->at[index].proc < 0)
                f->at[index] = (struct use){ q, named ? run->names[st->region] : NULL,
                                             named ? seen[st->region] : 0 };
        }
        if (st->region < run->nnames)
            seen[st->region]++;
    }
}

static void firsts_find(const struct pz_scale_run *run, struct firsts *f)
{
    uint32_t *seen = calloc(run->nnames ? run->nnames : 1, sizeof(*seen));

    f->at = malloc((run->ncomms ? run->ncomms : 1) * sizeof(*f->at));
    f->messages = calloc(run->ncomms ? run->ncomms : 1, sizeof(*f->messages));
    if (!seen || !f->at || !f->messages) {
        free(f->at);
        free(f->messages);
        free(seen);
        *f = (struct firsts){ NULL, NULL };
        return;
    }
    for (uint32_t i = 0; i < run->ncomms; i++)
        f->at[i].proc = -1;
    for (int q = 0; q < run->nprocs; q++)
        first_uses_of(run, q, f, seen);
    free(seen);
}

static void firsts_free(struct firsts *f)
{
    free(f->at);
    free(f->messages);
}

/* The first use of class index `index` of run into *u: 0 when none, or when some
 * process sends or receives a message on it. */
static int first_use(const struct pz_scale_run *run, const struct firsts *f, uint32_t index,
                     struct use *u)
{
    if (!f || !f->at)
        return scan_first_use(run, index, u);
    if (f->messages[index] || f->at[index].proc < 0 || !f->at[index].name)
        return 0;
    *u = f->at[index];
    return 1;
}

static int by_name_only(const void *a, const void *b)
{
    const struct named *x = a, *y = b;

    return strcmp(x->name, y->name);
}

static int by_name(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    int c = strcmp(x->name, y->name);

    return c ? c : (x->region > y->region) - (x->region < y->region);
}

static int by_canon(const void *a, const void *b)
{
    const struct call_at *x = a, *y = b;

    if (x->canon != y->canon)
        return x->canon < y->canon ? -1 : 1;
    return (x->step > y->step) - (x->step < y->step);
}

/* The names of run's regions, sorted, and each one's canon; c->failed when memory ran
 * out. */
static void calls_init(const struct pz_scale_run *run, struct calls *c)
{
    memset(c, 0, sizeof(*c));
    c->sorted = malloc((run->nnames ? run->nnames : 1) * sizeof(*c->sorted));
    c->canon = malloc((run->nnames ? run->nnames : 1) * sizeof(*c->canon));
    c->of = calloc(run->nprocs ? (size_t)run->nprocs : 1, sizeof(*c->of));
    c->n = calloc(run->nprocs ? (size_t)run->nprocs : 1, sizeof(*c->n));
    if (!c->sorted || !c->canon || !c->of || !c->n) {
        c->failed = 1;
        return;
    }
    for (uint32_t r = 0; r < run->nnames; r++)
        if (run->names[r])
            c->sorted[c->nsorted++] = (struct named){ run->names[r], r };
    qsort(c->sorted, c->nsorted, sizeof(*c->sorted), by_name);
    for (uint32_t i = 0; i < c->nsorted; i++)
        c->canon[c->sorted[i].region] = i > 0 && !strcmp(c->sorted[i].name, c->sorted[i - 1].name)
                                            ? c->canon[c->sorted[i - 1].region]
                                            : c->sorted[i].region;
}

static void calls_free(const struct pz_scale_run *run, struct calls *c)
{
    for (int q = 0; c->of && q < run->nprocs; q++)
        free(c->of[q]);
    free(c->of);
    free(c->n);
    free(c->sorted);
    free(c->canon);
}

/* Process q's calls of named functions, sorted by canon (built when first asked);
 * NULL when memory runs out (c->failed then). */
static const struct call_at *calls_of(const struct pz_scale_run *run, struct calls *c, int q)
{
    const struct pz_scale_process *p = &run->procs[q];
    size_t n = 0;

    if (c->of[q] || c->failed)
        return c->of[q];
    if (!(c->of[q] = malloc((p->nsteps ? p->nsteps : 1) * sizeof(*c->of[q])))) {
        c->failed = 1;
        return NULL;
    }
    for (size_t s = 0; s < p->nsteps; s++) {
        const struct pz_scale_step *st = &p->steps[s];

        if (st->kind == PZ_SCALE_CALL && st->region < run->nnames && run->names[st->region])
            c->of[q][n++] = (struct call_at){ c->canon[st->region], (uint32_t)s };
    }
    qsort(c->of[q], n, sizeof(*c->of[q]), by_canon);
    c->n[q] = n;
    return c->of[q];
}

/* The step of u's call in run: its process's nth call of the function; 1 with *step, 0
 * when it makes fewer, -1 when memory ran out. */
static int call_step(const struct pz_scale_run *run, struct calls *c, const struct use *u,
                     size_t *step)
{
    struct named key = { u->name, 0 }, *hit;
    const struct call_at *list;
    size_t lo = 0, hi;

    if (!c || c->failed || !(list = calls_of(run, c, u->proc)))
        return -1;
    hit = bsearch(&key, c->sorted, c->nsorted, sizeof(*c->sorted), by_name_only);
    if (!hit)
        return 0;
    key.region = c->canon[hit->region];
    for (hi = c->n[u->proc]; lo < hi;) {     /* the first of canon key.region */
        size_t mid = lo + (hi - lo) / 2;

        if (list[mid].canon < key.region)
            lo = mid + 1;
        else
            hi = mid;
    }
    lo += u->nth;
    if (lo >= c->n[u->proc] || list[lo].canon != key.region)
        return 0;
    *step = list[lo].step;
    return 1;
}

/* The class of process p's call at step s: of its first event that has a communicator;
 * NULL when it has none. */
static const struct pz_scale_comm *class_of_step(const struct pz_scale_run *run,
                                                 const struct pz_scale_process *p, size_t s)
{
    const struct pz_scale_step *st = &p->steps[s];

    for (uint32_t i = st->first; i < st->first + st->n; i++)
        if (p->events[i].comm < run->ncomms)
            return &run->comms[p->events[i].comm];
    return NULL;
}

/* The scan class_at makes without struct calls. */
static const struct pz_scale_comm *scan_class_at(const struct pz_scale_run *run,
                                                 const struct use *u)
{
    const struct pz_scale_process *p = &run->procs[u->proc];
    uint32_t nth = u->nth;

    for (size_t s = 0; s < p->nsteps; s++) {
        const struct pz_scale_step *st = &p->steps[s];
        const char *here = run->names[st->region];

        if (st->kind != PZ_SCALE_CALL || !here || strcmp(here, u->name) != 0 || nth-- > 0)
            continue;
        return class_of_step(run, p, s);
    }
    return NULL;
}

/* The class of the call of use u in run (of its first event that has a communicator);
 * NULL when its process makes none. */
static const struct pz_scale_comm *class_at(const struct pz_scale_run *run, struct calls *c,
                                            const struct use *u)
{
    size_t s;
    int found;

    if (u->proc >= run->nprocs)
        return NULL;
    if ((found = call_step(run, c, u, &s)) < 0)
        return scan_class_at(run, u);
    return found ? class_of_step(run, &run->procs[u->proc], s) : NULL;
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

/* The recordings, each one's first uses and its calls by function. */
struct lookup {
    struct pz_scale_run *runs;
    size_t n;
    struct firsts *firsts;   /* [run] */
    struct calls *calls;     /* [run] */
};

/* The class the other recordings show at the call first using class index `index` of
 * runs[r] (struct use), into *out, and that call's process into *proc: 1 when they
 * show a group class, all the same one. */
static int shown(struct lookup *lk, size_t r, uint32_t index, struct pz_scale_comm *out,
                 int *proc)
{
    struct use u;
    int found = 0;

    if (!first_use(&lk->runs[r], lk->firsts ? &lk->firsts[r] : NULL, index, &u))
        return 0;
    *proc = u.proc;
    for (size_t o = 0; o < lk->n; o++) {
        const struct pz_scale_comm *c = o == r ? NULL : class_at(&lk->runs[o], lk->calls ? &lk->calls[o] : NULL, &u);

        if (!c || !pz_scale_is_group(c->kind))
            continue;
        if (found && (c->kind != out->kind || c->k != out->k))
            return 0;
        *out = *c;
        found = 1;
    }
    return found;
}

/* Does slice class s of run's grid give its processes the members of c, every process
 * (WORLD) or each alone (SELF): the lengths of the dimensions s keeps multiply to as
 * many.  A row of a grid of 2 x 1 is each process alone, a column the world. */
static int slice_gives(const struct pz_scale_comm *s, const struct pz_scale_run *run,
                       const struct pz_scale_comm *c)
{
    int members = 1;

    for (int d = 0; d < run->grid.ndims; d++)
        if ((s->keep >> d) & 1)
            members *= run->grid.dims[d];
    return members == (c->kind == PZ_SCALE_COMM_WORLD ? run->nprocs : 1);
}

/* The slice of the grid every other recording that classes the call first using class
 * index `index` of runs[r] shows there, into *out: 1 when they all show one, the same
 * (MPI_Comm_split's rows of MPI_Dims_create's grid, recorded where a row is every
 * process or one). */
static int slice_shown(struct lookup *lk, size_t r, uint32_t index, struct pz_scale_comm *out)
{
    struct use u;
    int found = 0;

    if (!first_use(&lk->runs[r], lk->firsts ? &lk->firsts[r] : NULL, index, &u))
        return 0;
    for (size_t o = 0; o < lk->n; o++) {
        const struct pz_scale_comm *c =
            o == r ? NULL : class_at(&lk->runs[o], lk->calls ? &lk->calls[o] : NULL, &u);

        if (!c || c->ref)
            continue;
        if (c->kind != PZ_SCALE_COMM_SLICE || (found && c->keep != out->keep))
            return 0;
        *out = *c;
        found = 1;
    }
    return found;
}

/* The number of blocks b of P / b ranks each that every recording's class at the call
 * first using blocks class index `index` of runs[r] is, where their size is not the
 * same in all: 1 with *b, else 0.  A class already made b blocks counts as such. */
static int parts_shown(struct lookup *lk, size_t r, uint32_t index, uint32_t *b)
{
    const struct pz_scale_comm *mine = &lk->runs[r].comms[index];
    struct use u;
    uint32_t parts = 0;
    int differ = 0;

    if (!first_use(&lk->runs[r], lk->firsts ? &lk->firsts[r] : NULL, index, &u))
        return 0;
    for (size_t o = 0; o < lk->n; o++) {
        const struct pz_scale_comm *c = o == r ? mine : class_at(&lk->runs[o], lk->calls ? &lk->calls[o] : NULL, &u);
        uint32_t here;

        if (!c || (c->kind != PZ_SCALE_COMM_BLOCKS && c->kind != PZ_SCALE_COMM_PARTS))
            continue;
        if (c->kind == PZ_SCALE_COMM_BLOCKS && lk->runs[o].nprocs % (int)c->k)
            return 0;
        here = c->kind == PZ_SCALE_COMM_PARTS ? c->k : (uint32_t)lk->runs[o].nprocs / c->k;
        if (parts && here != parts)
            return 0;
        parts = here;
        differ |= c->kind == PZ_SCALE_COMM_PARTS || c->k != mine->k;
    }
    *b = parts;
    return differ;
}

/* Each run's first uses and calls by function; those memory lacks for are looked for
 * by scans (struct firsts, struct calls). */
static void lookup_init(struct lookup *lk, struct pz_scale_run *runs, size_t n)
{
    lk->runs = runs;
    lk->n = n;
    lk->firsts = calloc(n ? n : 1, sizeof(*lk->firsts));
    lk->calls = calloc(n ? n : 1, sizeof(*lk->calls));
    if (!lk->firsts || !lk->calls) {
        free(lk->firsts);
        free(lk->calls);
        lk->firsts = NULL;
        lk->calls = NULL;
    }
    for (size_t r = 0; lk->firsts && r < n; r++) {
        firsts_find(&runs[r], &lk->firsts[r]);
        calls_init(&runs[r], &lk->calls[r]);
    }
}

static void lookup_free(struct lookup *lk)
{
    for (size_t r = 0; lk->firsts && r < lk->n; r++) {
        firsts_free(&lk->firsts[r]);
        calls_free(&lk->runs[r], &lk->calls[r]);
    }
    free(lk->firsts);
    free(lk->calls);
}

/* Each communicator still the world or the process alone that the other recordings show
 * as one slice at the same call as that slice, where its recording's grid makes it as
 * many members; else of no class: the grid is read in another numbering than the
 * program's (a split's rows, which the other numbering makes columns). */
static void resolve_slices(struct lookup *lk)
{
    const struct pz_scale_comm none = {.kind = PZ_SCALE_COMM_OTHER};

    for (size_t r = 0; r < lk->n; r++)
        for (uint32_t i = 0; i < lk->runs[r].ncomms; i++) {
            struct pz_scale_comm *c = &lk->runs[r].comms[i], s;

            if (c->ref && slice_shown(lk, r, i, &s))
                *c = slice_gives(&s, &lk->runs[r], c) ? s : none;
        }
}

void pz_scale_runs_resolve_groups(struct pz_scale_run *runs, size_t n)
{
    struct lookup lk;

    lookup_init(&lk, runs, n);
    for (size_t r = 0; r < n; r++)
        for (uint32_t i = 0; i < runs[r].ncomms; i++) {
            struct pz_scale_comm *c = &runs[r].comms[i];
            uint32_t b;

            if (c->kind == PZ_SCALE_COMM_BLOCKS && parts_shown(&lk, r, i, &b))
                *c = (struct pz_scale_comm){ .kind = PZ_SCALE_COMM_PARTS, .k = b };
        }
    for (size_t r = 0; r < n; r++)
        for (uint32_t i = 0; i < runs[r].ncomms; i++) {
            struct pz_scale_comm *c = &runs[r].comms[i], g;
            int proc;

            if (c->ref && shown(&lk, r, i, &g, &proc) && gives(&g, runs[r].nprocs, proc, c)) {
                g.ref = 0;
                *c = g;
            }
        }
    resolve_slices(&lk);
    lookup_free(&lk);
    pz_scale_runs_class_nodes(runs, n);
}
