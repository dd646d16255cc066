/* Exchanges with every member of a communicator in turn (scale_program_int.h,
 * sp_pairs_*): an all-to-all written by hand, as FFTW's MPI transposes do it, where at
 * step i = 1 .. n - 1 each process exchanges with (rank + i) mod n and (rank - i) mod n
 * (a ring schedule), with rank XOR i (a pairwise schedule, n a power of two), or with
 * the i-th other rank in ascending or descending order (a loop over the ranks that skips
 * its own).  As recorded, each step's partner is an offset in the process grid that
 * differs from one process to the next (rank + i wraps at a different step at each), so
 * the processes share no sequence of steps.  Here each run of steps repeating a body
 * whose partners follow one of these forms, the distance growing by one from one
 * iteration to the next (scale_pairs_runs.c), is learned from every process of every
 * recording: its shapes, the forms each partner fits everywhere, the steps its tags
 * advance by, and for a twin (a blocking send and receive, scale_pairs_twin.c) the
 * orders of its calls; then rewritten into the same symbols in every iteration
 * (scale_pairs_rewrite.c), which sp_fold folds into a loop.  At 2 processes the one
 * exchange fits every form: a run of one iteration takes the body, forms and tag steps
 * that the runs of several iterations show at the other processes and counts. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "scale_pairs_int.h"

struct sp_pairs *sp_pairs_new(struct sp_table *t, int grid_too)
{
    struct sp_pairs *x = calloc(1, sizeof(*x));

    if (x && !(x->roots = sp_roots_new())) {
        free(x);
        return NULL;
    }
    if (x) {
        x->t = t;
        x->sh.t = t;
        x->sh.without_offsets = 1;
        x->grid_too = (uint8_t)(grid_too != 0);
    }
    return x;
}

void sp_pairs_free(struct sp_pairs *x)
{
    if (!x)
        return;
    sp_shapes_free(&x->sh);
    sp_roots_free(x->roots);
    free(x->bodies);
    free(x->rewritten);
    free(x);
}

/* Whether the shapes of syms[at .. at + y->period - 1] (within n) are body y's: in
 * order, or a twin's in either.  -1 when memory runs out. */
static int shapes_are(struct sp_pairs *x, const struct spp_body *y, const uint32_t *syms,
                      size_t n, size_t at)
{
    uint32_t s[SPP_MAX_BODY] = {0};

    if (at + y->period > n)
        return 0;
    for (size_t q = 0; q < y->period; q++)
        if ((s[q] = sp_shape(&x->sh, syms[at + q])) == SP_NONE)
            return -1;
    if (y->twin && s[0] == y->shape[1] && s[1] == y->shape[0])
        return 1;
    return !memcmp(s, y->shape, y->period * sizeof(*s));
}

struct spp_body *spp_body_at(struct sp_pairs *x, const uint32_t *syms, size_t n, size_t at,
                             size_t period, int twin, int *err)
{
    struct spp_body *best = NULL;

    for (size_t b = 0; b < x->nbodies; b++) {
        struct spp_body *y = &x->bodies[b];
        int rc;

        if ((period && y->period != period) || (twin >= 0 && y->twin != twin))
            continue;
        if ((rc = shapes_are(x, y, syms, n, at)) < 0) {
            *err = 1;
            return NULL;
        }
        if (rc && (!best || y->period > best->period))
            best = y;
    }
    return best;
}

int spp_reaches_every_member(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                             const uint32_t *syms, const struct spp_run *r)
{
    for (size_t q = 0; q < r->period; q++) {
        uint32_t sym = syms[spp_slot(x, syms, r, 0, q)];

        for (uint32_t i = 0; i < x->t->syms[sym].n; i++) {
            const struct sp_event *e = &sp_events_of(x->t, sym)[i];
            uint8_t fits = spp_forms_of(x, run, proc, syms, r, q, i);
            int me, p, n;

            if (!spp_pairable(e) || !fits || spp_partner(run, proc, e, &me, &p, &n) != 0)
                continue;
            for (int f = PZ_SCALE_PAIR_PLUS; f <= PZ_SCALE_PAIR_FORMS; f++) {
                int d = sp_pair_distance(f, me, p, n);

                if (((fits >> f) & 1) && d <= 1 && (int)r->count + d == n)
                    return 1;
            }
            return 0;
        }
    }
    return 0;
}

/* Whether the steps of run r (process proc's) send and receive as many bytes in every
 * iteration: the sizes of their messages, event by event. */
static int even_sizes(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                      const uint32_t *syms, const struct spp_run *r)
{
    const struct pz_scale_process *p = &run->procs[proc];

    for (size_t q = 0; q < r->period; q++) {
        const struct pz_scale_step *s0 = &p->steps[spp_slot(x, syms, r, 0, q)];

        for (size_t k = 1; k < r->count; k++) {
            const struct pz_scale_step *s = &p->steps[spp_slot(x, syms, r, k, q)];

            for (uint32_t i = 0; i < s->n && i < s0->n; i++)
                if (sp_is_message(p->events[s->first + i].kind) &&
                    p->events[s->first + i].bytes != p->events[s0->first + i].bytes)
                    return 0;
        }
    }
    return 1;
}

/* A new body for run r, its shapes r's (a twin's lo first), every form and order
 * allowed; NULL when memory runs out. */
static struct spp_body *new_body(struct sp_pairs *x, const uint32_t *syms,
                                 const struct spp_run *r)
{
    struct spp_body *y;

    if (pz_grow((void **)&x->bodies, &x->capbodies, x->nbodies, sizeof(*x->bodies)) != 0)
        return NULL;
    y = &x->bodies[x->nbodies++];
    y->period = (uint32_t)r->period;
    y->twin = r->twin;
    y->orders = SPP_ORDERS;
    for (size_t q = 0; q < r->period; q++) {
        y->shape[q] = sp_shape(&x->sh, syms[spp_slot(x, syms, r, 0, q)]);
        memset(y->forms[q], SPP_FORMS, sizeof(y->forms[q]));
    }
    return y;
}

/* The body of run r learned: its forms and orders narrowed to those fitting here too,
 * its tag steps taken (a tag whose step differs from one recording to the next keeps
 * the first and the rewrite then fails to merge them, as recordings that differ).  0,
 * -1. */
static int learn_run(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                     const uint32_t *syms, const struct spp_run *r)
{
    int err = 0;
    struct spp_body *y = spp_body_at(x, syms, r->at + r->period, r->at, r->period, r->twin,
                                     &err);

    if (err || (!y && !(y = new_body(x, syms, r))))
        return -1;
    y->orders &= r->orders | (uint8_t)(r->twin ? 0 : SPP_ORDERS);
    y->uneven |= !even_sizes(x, run, proc, syms, r);
    for (size_t q = 0; q < r->period; q++) {
        const struct sp_event *e0 = sp_events_of(x->t, syms[spp_slot(x, syms, r, 0, q)]);
        const struct sp_event *e1 = sp_events_of(x->t, syms[spp_slot(x, syms, r, 1, q)]);

        for (uint32_t i = 0; i < x->t->syms[syms[spp_slot(x, syms, r, 0, q)]].n &&
                             i < SP_MAX_EVENTS; i++) {
            if (spp_pairable(&e0[i]))
                y->forms[q][i] &= spp_forms_of(x, run, proc, syms, r, q, i);
            if (!y->tag_known[q][i]) {
                y->tag_step[q][i] = e1[i].tag - e0[i].tag;
                y->tag_first[q][i] = e0[i].tag;
                y->tag_known[q][i] = 1;
            }
            y->tag_mixed[q][i] |= e0[i].tag != y->tag_first[q][i];
        }
    }
    /* a process counts once per body (every run reaches every member, spp_find_run) */
    if (y->run != run) {
        y->run = run;
        y->nreached = 0;
        y->last = -1;
    }
    if (y->last != proc) {
        y->last = proc;
        y->nwhole += ++y->nreached == run->nprocs;
        y->nrooted += proc == 0 && run->nprocs >= 3;
        y->beyond_root |= proc != 0;
    }
    return 0;
}

int sp_pairs_learn(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                   const uint32_t *syms, size_t n)
{
    if (x->last != run) {
        x->last = run;
        x->nlarge += run->nprocs >= 3;
    }
    for (size_t at = 0; at < n;) {
        struct spp_run r;

        if (!spp_has_partner(x->t, syms[at])) {
            at++;
            continue;
        }
        if (spp_find_run(x, run, proc, syms, n, at, &r) != 0)
            return -1;
        if (!r.count) {
            if (sp_roots_learn(x->roots, x->t, run, proc, syms[at]) != 0)
                return -1;
            at++;
            continue;
        }
        if (learn_run(x, run, proc, syms, &r) != 0)
            return -1;
        at += r.period * r.count;
    }
    return 0;
}

int spp_body_taken(const struct sp_pairs *x, const struct spp_body *y)
{
    return !x->grid_too || !y->uneven;
}

/* Where the grid explains the exchanges too, whether some body that every process of a
 * recording ran has messages of different sizes from one iteration to the next: a
 * halo's faces, edges and corners, whose receives, posted without their sizes, may
 * follow no such body. */
static int uneven_exchange(const struct sp_pairs *x)
{
    for (size_t b = 0; x->grid_too && b < x->nbodies; b++)
        if (x->bodies[b].uneven && x->bodies[b].nwhole)
            return 1;
    return 0;
}

int sp_pairs_whole(const struct sp_pairs *x)
{
    if (uneven_exchange(x))
        return 0;
    for (size_t b = 0; b < x->nbodies; b++) {
        const struct spp_body *y = &x->bodies[b];
        int forms = !y->twin || spp_twin_order(y);

        for (uint32_t q = 0; q < y->period; q++)
            for (uint32_t i = 0; i < SP_MAX_EVENTS; i++)
                forms &= y->forms[q][i] != 0;
        /* where the grid explains the exchanges too, every recording must show them:
           made by every process, or by rank 0 alone in every recording of 3 or more */
        if (forms && spp_body_taken(x, y) &&
            (y->nwhole >= (x->grid_too ? x->nlarge : 1) ||
             (!y->beyond_root && y->nrooted && y->nrooted >= x->nlarge)))
            return 1;
    }
    return 0;
}
