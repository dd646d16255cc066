/* Merging the folded steps of every process of every recording into one template
 * (scale_program_int.h).  The template is a sequence every process's steps are a
 * subsequence of, loop by loop: a step of a process that the template has further on
 * is matched there (the template's steps in between are missing at this process, to be
 * explained by guards, scale_guard.c); a step it lacks is inserted.  A step a recording
 * cannot tell apart (sp_open: a call to MPI_PROC_NULL, an offset in a periodic dimension
 * of 1 or 2 processes) matches the template's step it is compatible with at its
 * process, and a template step made so becomes the step another process shows whole.
 * Processes with the fewest such steps go first, then those of the largest recording
 * with the most steps (its interior), so that the others mostly match.  Whether the
 * result describes every process is checked afterwards, exactly (scale_walk.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"

struct bnode;
struct blist {
    struct bnode *v;
    size_t n, cap;
};
struct bnode {
    uint8_t kind;
    uint32_t sym;
    struct blist body;
    size_t run;         /* STEP: the process that made sym, for sp_compatible */
    uint32_t proc;
};

/* The process being merged. */
struct merging {
    struct pz_scale_program *m;     /* its table grows by the calls made whole */
    size_t run;
    uint32_t proc;
};

static void blist_free(struct blist *l)
{
    for (size_t i = 0; i < l->n; i++)
        blist_free(&l->v[i].body);
    free(l->v);
}

static int blist_insert(struct blist *l, size_t at, const struct bnode *b)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        struct bnode *v = realloc(l->v, cap * sizeof(*v));

        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    memmove(l->v + at + 1, l->v + at, (l->n - at) * sizeof(*l->v));
    l->v[at] = *b;
    l->n++;
    return 0;
}

static int list_has_step(const struct blist *l, uint32_t sym)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i].kind == SP_STEP ? l->v[i].sym == sym : list_has_step(&l->v[i].body, sym))
            return 1;
    return 0;
}

/* A loop of the template and a loop symbol are the same loop when they share a step. */
static int shares_step(const struct sp_table *t, const struct blist *l, uint32_t loop)
{
    const struct sp_sym *s = &t->syms[loop];

    for (uint32_t i = 0; i < s->n; i++) {
        uint32_t b = t->bodies[s->first + i];

        if (t->syms[b].kind == SP_STEP ? list_has_step(l, b) : shares_step(t, l, b))
            return 1;
    }
    return 0;
}

/* Can step symbols a and b, not equal, be one step made at two places (sp_compatible
 * either way, or halves of one call: sp_union): calls of one function, and, where both
 * have as many events (none can be missing from either, so they must be of one variant),
 * of one variant or of one event each.  Told before the events are aligned: a process
 * whose steps the template mostly lacks (a loop run as many times as the data says,
 * which folds differently at each process) looks for each through the rest of a
 * template of as many steps, most of them other variants of the same call. */
static int may_be_same(const struct sp_sym *a, const struct sp_sym *b)
{
    return a->region == b->region && a->step_kind == b->step_kind && a->ends == b->ends &&
           (a->n != b->n || a->variant == b->variant || a->n == 1);
}

/* Is template node b the process's symbol sym: equal, compatible at the process, a
 * step b's process made without what sym shows (then b becomes sym), or the other half
 * of a call b's process made only half of (sp_union: then b becomes the whole call). */
static int same(const struct merging *g, struct bnode *b, uint32_t sym)
{
    const struct sp_table *t = &g->m->table;
    struct sp_at here, there;

    if (b->kind != t->syms[sym].kind)
        return 0;
    if (b->kind != SP_STEP)
        return shares_step(t, &b->body, sym);
    if (b->sym == sym)
        return 1;
    if (!may_be_same(&t->syms[b->sym], &t->syms[sym]))
        return 0;
    here = sp_at_process(g->m, g->run, g->proc);
    if (sp_compatible(t, b->sym, sym, &here, NULL))
        return 1;
    there = sp_at_process(g->m, b->run, b->proc);
    if (!sp_compatible(t, sym, b->sym, &there, NULL)) {
        uint32_t whole = sp_union(&g->m->table, b->sym, sym);

        if (whole == SP_NONE || !sp_compatible(t, whole, sym, &here, NULL) ||
            !sp_compatible(t, whole, b->sym, &there, NULL))
            return 0;
        sym = whole;
    }
    b->sym = sym;
    b->run = g->run;
    b->proc = g->proc;
    return 1;
}

static int merge_list(const struct merging *g, struct blist *l, const uint32_t *s, size_t n);

/* How many of the process's symbols s[0..n-1] are one iteration of template loop b: its
 * body's length when b's body is steps only and s begins with steps each equal to the
 * body's in turn, or compatible with it at the process; else 0.  A loop over the
 * neighbours a process has (an MPI_Waitany per receive) runs once where it has one,
 * and is not folded there, but it is the same loop. */
static size_t one_iteration(const struct merging *g, const struct bnode *b, const uint32_t *s,
                            size_t n)
{
    const struct sp_table *t = &g->m->table;
    struct sp_at here;

    if (b->kind != SP_LOOP || b->body.n == 0 || b->body.n > n)
        return 0;
    here = sp_at_process(g->m, g->run, g->proc);
    for (size_t x = 0; x < b->body.n; x++) {
        const struct bnode *step = &b->body.v[x];

        if (step->kind != SP_STEP || t->syms[s[x]].kind != SP_STEP ||
            (step->sym != s[x] && !sp_compatible(t, step->sym, s[x], &here, NULL)))
            return 0;
    }
    return b->body.n;
}

/* Whether step symbol sym has a tag that advances with the iteration of its loop
 * (sp_tag_loops). */
static int stepped(const struct sp_table *t, uint32_t sym)
{
    for (uint32_t i = 0; i < t->syms[sym].n; i++)
        if (t->events[t->syms[sym].first + i].tag_step)
            return 1;
    return 0;
}

/* How many of the process's symbols s[0..n-1] are one iteration of template loop b
 * without some of its steps: the longest run of steps of b's body, in its order, one of
 * them with a tag that advances; else 0.  A loop whose tags advance, rewritten at the
 * process where it runs once (sp_tag_loops), is that loop, and the steps its body has
 * that the process lacks are for guards to explain (an odd-even transposition's phases
 * at 2 processes: the even rank's exchange with rank + 1 alone). */
static size_t stepped_iteration(const struct merging *g, const struct bnode *b,
                                const uint32_t *s, size_t n)
{
    const struct sp_table *t = &g->m->table;
    size_t y = 0;
    int some = 0;

    if (b->kind != SP_LOOP)
        return 0;
    for (size_t x = 0; x < b->body.n && y < n; x++)
        if (b->body.v[x].kind == SP_STEP && b->body.v[x].sym == s[y])
            some |= stepped(t, s[y++]);
    return some ? y : 0;
}

/* Merges the process's symbols from s[0] (n in all) at the template's position *i: the
 * first template node from there that is s[0], or the first loop s begins one iteration
 * of, else s[0] inserted at *i.  Returns how many symbols were merged, or 0 when memory
 * runs out. */
static size_t merge_symbol(const struct merging *g, struct blist *l, size_t *i,
                           const uint32_t *s, size_t n)
{
    const struct sp_table *t = &g->m->table;
    const struct sp_sym *ss = &t->syms[s[0]];
    size_t k = *i, once = 0;
    struct bnode fresh = {.kind = ss->kind, .sym = s[0], .run = g->run, .proc = g->proc};

    while (k < l->n && !same(g, &l->v[k], s[0]) && !(once = one_iteration(g, &l->v[k], s, n)) &&
           !(once = stepped_iteration(g, &l->v[k], s, n)))
        k++;
    ss = &t->syms[s[0]];    /* same() may have grown the table */
    if (k == l->n) {
        if (blist_insert(l, *i, &fresh) != 0)
            return 0;
        k = *i;
    }
    *i = k + 1;
    if (once)
        return merge_list(g, &l->v[k].body, s, once) != 0 ? 0 : once;
    if (ss->kind == SP_LOOP) {
        /* the body may move as the table grows: copy it */
        uint32_t *body = malloc(ss->n * sizeof(*body));
        int rc;

        if (!body)
            return 0;
        memcpy(body, t->bodies + ss->first, ss->n * sizeof(*body));
        rc = merge_list(g, &l->v[k].body, body, ss->n);
        free(body);
        return rc != 0 ? 0 : 1;
    }
    return 1;
}

static int merge_list(const struct merging *g, struct blist *l, const uint32_t *s, size_t n)
{
    size_t i = 0, merged;

    for (size_t j = 0; j < n; j += merged)
        if (!(merged = merge_symbol(g, l, &i, s + j, n - j)))
            return -1;
    return 0;
}

static size_t count_nodes(const struct blist *l)
{
    size_t n = l->n;

    for (size_t i = 0; i < l->n; i++)
        n += count_nodes(&l->v[i].body);
    return n;
}

static void flatten(struct pz_scale_program *m, const struct blist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        struct sp_node *nd = &m->nodes[m->nnodes++];

        memset(nd, 0, sizeof(*nd));
        nd->kind = l->v[i].kind;
        nd->sym = l->v[i].kind == SP_STEP ? l->v[i].sym : SP_NONE;
        if (nd->kind == SP_LOOP) {
            flatten(m, &l->v[i].body);
            nd->end = m->nnodes;
        }
    }
}

struct order {
    size_t open, run, proc, nsteps;
};

static int by_open_run_steps(const void *a, const void *b)
{
    const struct order *x = a, *y = b;

    if (x->open != y->open)
        return x->open < y->open ? -1 : 1;
    if (x->run != y->run)
        return x->run < y->run ? -1 : 1;
    return x->nsteps > y->nsteps ? -1 : x->nsteps < y->nsteps;
}

/* The open steps of a folded sequence, in loops once. */
static size_t count_open(const struct pz_scale_program *m, const uint32_t *s, size_t n,
                         size_t run)
{
    const struct sp_table *t = &m->table;
    size_t open = 0;

    for (size_t i = 0; i < n; i++)
        open += t->syms[s[i]].kind == SP_LOOP
                    ? count_open(m, t->bodies + t->syms[s[i]].first, t->syms[s[i]].n, run)
                    : (size_t)sp_open(t, s[i], m->ambiguous[run]);
    return open;
}

/* Whether the processes of recording r are left to the walks, not merged: where loops
 * whose trip count the data decide are one symbol (sp_table.data_trips), a recording in
 * which steps cannot be told apart (sp_ambiguous_dims: a periodic dimension of 1 or 2
 * processes) folds none of their passes whose body is of such steps alone, and shows
 * the iterations unfolded, which no loop of the template merges with; a recording
 * that tells every step makes the template, which the walks then check the others
 * against, step by step. */
static int unfolded_elsewhere(const struct pz_scale_program *m, size_t r)
{
    if (!m->table.data_trips || !m->ambiguous[r])
        return 0;
    for (size_t q = 0; q < m->nruns; q++)
        if (!m->ambiguous[q])
            return 1;
    return 0;
}

int sp_merge(struct pz_scale_program *m, uint32_t *const *const *folded,
             const size_t *const *nfolded, char *err, size_t errlen)
{
    struct blist top = {0};
    struct order *ord;
    size_t n = 0, k = 0, total;
    int rc = -1;

    for (size_t r = 0; r < m->nruns; r++)
        n += (size_t)m->runs[r]->nprocs;
    if (!(ord = malloc(n * sizeof(*ord))))
        goto out;
    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; p < m->runs[r]->nprocs; p++)
            /* the fewest steps to tell apart first, then the largest recording */
            ord[k++] = (struct order){count_open(m, folded[r][p], nfolded[r][p], r),
                                      r == m->largest ? 0 : r + 1, (size_t)p,
                                      m->runs[r]->procs[p].nsteps};
    qsort(ord, n, sizeof(*ord), by_open_run_steps);
    for (k = 0; k < n; k++) {
        size_t r = ord[k].run ? ord[k].run - 1 : m->largest;
        struct merging g = {m, r, (uint32_t)ord[k].proc};

        if (unfolded_elsewhere(m, r))
            continue;
        if (merge_list(&g, &top, folded[r][ord[k].proc], nfolded[r][ord[k].proc]) != 0)
            goto out;
    }
    total = count_nodes(&top);
    if (!(m->nodes = malloc((total ? total : 1) * sizeof(*m->nodes))))
        goto out;
    m->nnodes = 0;
    flatten(m, &top);
    rc = 0;
out:
    if (rc != 0)
        snprintf(err, errlen, "out of memory merging the recordings' processes");
    blist_free(&top);
    free(ord);
    return rc;
}
