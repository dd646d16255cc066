/* Exchanges with every member of a communicator in turn (scale_program_int.h,
 * sp_pairs_*): an all-to-all written by hand, as FFTW's MPI transposes do it, where at
 * step i = 1 .. n - 1 each process exchanges with (rank + i) mod n and (rank - i) mod n
 * (a ring schedule) or with rank XOR i (a pairwise schedule, n a power of two).  As
 * recorded, each step's partner is an offset in the process grid that differs from one
 * process to the next (rank + i wraps at a different step at each), so the processes
 * share no sequence of steps.  Here each run of steps repeating a body whose partners
 * follow one of these forms, the distance growing by one from one iteration to the
 * next, is rewritten into the same symbols in every iteration (PZ_SCALE_PEER_PAIR: the
 * form and the distance at the first iteration; tags as their first value and their
 * step), which sp_fold folds into a loop.  At 2 processes the one exchange fits every
 * form: a run of one iteration takes the body, forms and tag steps that the runs of
 * several iterations show at the other processes and counts (sp_pairs_learn). */
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"

/* The longest body looked for, in steps. */
#define MAX_BODY 16

/* The forms a partner may follow, as bits (enum pz_scale_pair_form). */
#define FORMS ((1u << (PZ_SCALE_PAIR_FORMS + 1)) - (1u << PZ_SCALE_PAIR_PLUS))

/* A body learned: its steps' shapes and, per event of each, the forms its partner
 * fitted at every process seen, and the step its tag advances by. */
struct body {
    uint32_t shape[MAX_BODY];
    uint32_t period;
    uint8_t forms[MAX_BODY][SP_MAX_EVENTS];
    uint32_t tag_step[MAX_BODY][SP_MAX_EVENTS];
    uint8_t tag_known[MAX_BODY][SP_MAX_EVENTS];
    const struct pz_scale_run *run;    /* the recording it was learned from last, */
    int nreached, last;        /* how many of its processes reached every member with it,
                                  the last of them, */
    uint8_t whole;             /* and whether every process of one recording did */
};

struct sp_pairs {
    struct sp_table *t;
    struct sp_shapes sh;       /* each step without its partners and tags */
    struct body *bodies;
    size_t nbodies, capbodies;
    struct sp_roots *roots;    /* the calls to rank 0 in no run */
};

struct sp_pairs *sp_pairs_new(struct sp_table *t)
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
    free(x);
}

/* Does event e name a partner an exchange with every member may have: an offset on the
 * world or a slice of the grid. */
static int pairable(const struct sp_event *e)
{
    return e->peer.kind == PZ_SCALE_PEER_OFFSET &&
           (e->comm.kind == PZ_SCALE_COMM_WORLD || e->comm.kind == PZ_SCALE_COMM_SLICE);
}

/* The rank of coordinates c in the slice keeping dimensions keep of grid g, row-major
 * over them; its members into *n. */
static int slice_rank(const struct pz_scale_grid *g, uint8_t keep, const int *c, int *n)
{
    int r = 0;

    *n = 1;
    for (int d = 0; d < g->ndims; d++)
        if ((keep >> d) & 1) {
            r = r * g->dims[d] + c[d];
            *n *= g->dims[d];
        }
    return r;
}

/* Process proc's rank in e's communicator (*me), its partner's (*q) and the members (*n):
 * 0, or -1 when the partner is not in the grid. */
static int partner(const struct pz_scale_run *run, int proc, const struct sp_event *e,
                   int *me, int *q, int *n)
{
    const struct pz_scale_grid *g = &run->grid;
    int at[PZ_SCALE_MAX_DIMS], w;

    if ((w = sp_offset_rank(run, proc, &e->comm, &e->peer)) < 0)
        return -1;
    if (e->comm.kind == PZ_SCALE_COMM_WORLD) {
        *me = proc;
        *q = w;
        *n = run->nprocs;
        return 0;
    }
    *me = slice_rank(g, e->comm.keep, run->procs[proc].coords, n);
    pz_scale_grid_coords(g, w, at);
    *q = slice_rank(g, e->comm.keep, at, n);
    return 0;
}

/* A run of a body: from `at`, `count` iterations of `period` steps. */
struct run_at {
    size_t at, period, count;
};

/* The forms event i of body position q of run r fits at process proc: its distance
 * growing by one from one iteration to the next, below the members.  0: none, or not
 * an event with a partner. */
static uint8_t forms_of(const struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                        const uint32_t *syms, const struct run_at *r, size_t q, uint32_t i)
{
    uint8_t fits = FORMS;
    int d0[PZ_SCALE_PAIR_FORMS + 1] = {0};

    for (size_t k = 0; k < r->count && fits; k++) {
        const struct sp_event *e = &sp_events_of(x->t, syms[r->at + k * r->period + q])[i];
        int me, p, n;

        if (!pairable(e) || partner(run, proc, e, &me, &p, &n) != 0)
            return 0;
        for (int f = PZ_SCALE_PAIR_PLUS; f <= PZ_SCALE_PAIR_FORMS; f++) {
            int d = sp_pair_distance(f, me, p, n);

            if (!k)
                d0[f] = d;
            if (d != d0[f] + (int)k || d >= n)
                fits &= (uint8_t)~(1u << f);
        }
    }
    return fits;
}

/* Are the iterations of run r alike: the same shapes, and every partner of the body
 * fitting some form.  -1 when memory runs out. */
static int run_alike(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                     const uint32_t *syms, const struct run_at *r)
{
    int partners = 0;

    for (size_t q = 0; q < r->period; q++) {
        uint32_t s0 = sp_shape(&x->sh, syms[r->at + q]);
        const struct sp_sym *s = &x->t->syms[syms[r->at + q]];

        if (s0 == SP_NONE)
            return -1;
        if ((s0 & SP_OWN_SHAPE) || s->kind != SP_STEP)
            return 0;
        for (size_t k = 1; k < r->count; k++) {
            uint32_t sk = sp_shape(&x->sh, syms[r->at + k * r->period + q]);

            if (sk == SP_NONE)
                return -1;
            if (sk != s0)
                return 0;
        }
        for (uint32_t i = 0; i < s->n; i++) {
            if (!pairable(&sp_events_of(x->t, syms[r->at + q])[i]))
                continue;
            if (!forms_of(x, run, proc, syms, r, q, i))
                return 0;
            partners = 1;
        }
    }
    return partners;
}

/* The run of 2 iterations or more beginning at syms[at], its period the shortest that
 * gives one, as many iterations as follow alike; count 0 when none.  0, -1 (memory). */
static int find_run(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                    const uint32_t *syms, size_t n, size_t at, struct run_at *r)
{
    r->at = at;
    r->count = 0;
    for (size_t p = 1; p <= MAX_BODY && at + 2 * p <= n; p++) {
        struct run_at c = {at, p, 2};
        int alike = run_alike(x, run, proc, syms, &c);

        if (alike < 0)
            return -1;
        if (!alike)
            continue;
        while (at + (c.count + 1) * p <= n) {
            c.count++;
            if ((alike = run_alike(x, run, proc, syms, &c)) < 0)
                return -1;
            if (!alike) {
                c.count--;
                break;
            }
        }
        *r = c;
        return 0;
    }
    return 0;
}

/* Whether step sym has a partner an exchange may have. */
static int has_partner(const struct sp_table *t, uint32_t sym)
{
    const struct sp_sym *s = &t->syms[sym];

    for (uint32_t i = 0; s->kind == SP_STEP && i < s->n; i++)
        if (pairable(&sp_events_of(t, sym)[i]))
            return 1;
    return 0;
}

/* The body learned whose shapes begin at syms[at] (its period fitting in n), of period
 * `period`, or the longest when period is 0; NULL.  *err set when memory runs out. */
static struct body *body_at(struct sp_pairs *x, const uint32_t *syms, size_t n, size_t at,
                            size_t period, int *err)
{
    struct body *best = NULL;

    for (size_t b = 0; b < x->nbodies; b++) {
        struct body *y = &x->bodies[b];
        size_t q = 0;

        if (period && y->period != period)
            continue;
        for (; q < y->period && at + q < n; q++) {
            uint32_t s = sp_shape(&x->sh, syms[at + q]);

            if (s == SP_NONE) {
                *err = 1;
                return NULL;
            }
            if (s != y->shape[q])
                break;
        }
        if (q == y->period && (!best || y->period > best->period))
            best = y;
    }
    return best;
}

/* Does run r reach every other member: its first partner's distance at its first
 * iteration, 0 or 1, and its iterations as many as the members less that, in some form. */
static int reaches_every_member(const struct sp_pairs *x, const struct pz_scale_run *run,
                                int proc, const uint32_t *syms, const struct run_at *r)
{
    for (size_t q = 0; q < r->period; q++) {
        const struct sp_sym *s = &x->t->syms[syms[r->at + q]];

        for (uint32_t i = 0; i < s->n; i++) {
            const struct sp_event *e = &sp_events_of(x->t, syms[r->at + q])[i];
            uint8_t fits = forms_of(x, run, proc, syms, r, q, i);
            int me, p, n;

            if (!pairable(e) || !fits || partner(run, proc, e, &me, &p, &n) != 0)
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

/* The body of run r learned: its forms narrowed to those fitting here too, its tag
 * steps taken (a tag whose step differs from one recording to the next keeps the first
 * and the rewrite then fails to merge them, as recordings that differ).  0, -1. */
static int learn_run(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                     const uint32_t *syms, const struct run_at *r)
{
    int err = 0;
    struct body *y = body_at(x, syms + r->at, r->period, 0, r->period, &err);

    if (err)
        return -1;
    if (!y) {
        if (x->nbodies == x->capbodies) {
            size_t cap = x->capbodies ? 2 * x->capbodies : 4;
            struct body *v = realloc(x->bodies, cap * sizeof(*v));

            if (!v)
                return -1;
            x->bodies = v;
            x->capbodies = cap;
        }
        y = &x->bodies[x->nbodies++];
        memset(y, 0, sizeof(*y));
        y->period = (uint32_t)r->period;
        for (size_t q = 0; q < r->period; q++) {
            y->shape[q] = sp_shape(&x->sh, syms[r->at + q]);
            memset(y->forms[q], FORMS, sizeof(y->forms[q]));
        }
    }
    for (size_t q = 0; q < r->period; q++) {
        const struct sp_sym *s = &x->t->syms[syms[r->at + q]];

        for (uint32_t i = 0; i < s->n && i < SP_MAX_EVENTS; i++) {
            uint32_t step = sp_events_of(x->t, syms[r->at + r->period + q])[i].tag -
                            sp_events_of(x->t, syms[r->at + q])[i].tag;

            if (pairable(&sp_events_of(x->t, syms[r->at + q])[i]))
                y->forms[q][i] &= forms_of(x, run, proc, syms, r, q, i);
            if (!y->tag_known[q][i]) {
                y->tag_step[q][i] = step;
                y->tag_known[q][i] = 1;
            }
        }
    }
    /* a process counts once per body: its first run reaching every member */
    if (y->run != run) {
        y->run = run;
        y->nreached = 0;
        y->last = -1;
    }
    if (y->last != proc && reaches_every_member(x, run, proc, syms, r)) {
        y->last = proc;
        y->whole |= ++y->nreached == run->nprocs;
    }
    return 0;
}

int sp_pairs_learn(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                   const uint32_t *syms, size_t n)
{
    for (size_t at = 0; at < n;) {
        struct run_at r;

        if (!has_partner(x->t, syms[at])) {
            at++;
            continue;
        }
        if (find_run(x, run, proc, syms, n, at, &r) != 0)
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

int sp_pairs_whole(const struct sp_pairs *x)
{
    for (size_t b = 0; b < x->nbodies; b++) {
        const struct body *y = &x->bodies[b];
        int forms = 1;

        for (uint32_t q = 0; q < y->period; q++)
            for (uint32_t i = 0; i < SP_MAX_EVENTS; i++)
                forms &= y->forms[q][i] != 0;
        if (y->whole && forms)
            return 1;
    }
    return 0;
}

/* Does every tag of run r advance by the step y learned (or, not learned, by one step
 * from one iteration to the next). */
static int tags_advance(const struct sp_pairs *x, const uint32_t *syms, const struct run_at *r,
                        const struct body *y)
{
    for (size_t q = 0; q < r->period; q++) {
        const struct sp_sym *s = &x->t->syms[syms[r->at + q]];

        for (uint32_t i = 0; i < s->n; i++) {
            uint32_t t0 = sp_events_of(x->t, syms[r->at + q])[i].tag;

            for (size_t k = 1; k < r->count; k++)
                if (sp_events_of(x->t, syms[r->at + k * r->period + q])[i].tag !=
                    t0 + (uint32_t)k * y->tag_step[q][i])
                    return 0;
        }
    }
    return 1;
}

/* Step q of run r rewritten into done[q] (orig: the steps as interned, syms: as
 * rewritten so far): each partner in the first of the forms y allows that fits here,
 * as its distance at the first iteration, each tag with its step, each poster in the
 * body by its rewritten symbol, before the run as rewritten.  0, 1 when it cannot be
 * (no form fits, a poster in another iteration), -1 (memory). */
static int rewrite_step(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                        const uint32_t *orig, const uint32_t *syms, const struct run_at *r,
                        const struct body *y, size_t q, uint32_t *done)
{
    struct sp_event ev[SP_MAX_EVENTS];
    struct sp_sym proto = x->t->syms[syms[r->at + q]];

    for (uint32_t i = 0; i < proto.n; i++) {
        uint8_t fits;

        ev[i] = sp_events_of(x->t, syms[r->at + q])[i];
        ev[i].tag_step = y->tag_step[q][i];
        if (ev[i].poster_sym != SP_NONE) {
            size_t j = sp_poster_at(orig, 0, r->at + q, ev[i].poster_sym);

            if (j != (size_t)SP_NONE && j >= r->at && j - r->at >= q)
                return 1;
            if (j != (size_t)SP_NONE)
                ev[i].poster_sym = j >= r->at ? done[j - r->at] : syms[j];
        }
        if (!pairable(&ev[i]))
            continue;
        if (!(fits = y->forms[q][i] & forms_of(x, run, proc, syms, r, q, i)))
            return 1;
        for (int f = PZ_SCALE_PAIR_PLUS; f <= PZ_SCALE_PAIR_FORMS; f++)
            if ((fits >> f) & 1) {
                int me, p, n;

                partner(run, proc, &ev[i], &me, &p, &n);
                memset(&ev[i].peer, 0, sizeof(ev[i].peer));
                ev[i].peer.kind = PZ_SCALE_PEER_PAIR;
                ev[i].peer.off[0] = (int8_t)f;
                ev[i].peer.rank = sp_pair_distance(f, me, p, n);
                break;
            }
    }
    return (done[q] = sp_table_step(x->t, &proto, ev)) == SP_NONE ? -1 : 0;
}

/* The run at syms[at] rewritten in place, its steps marked: 0, 1 when none is there,
 * -1 (memory).  *skip: the steps it covers (1 when none). */
static int rewrite_run(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                       const uint32_t *orig, uint32_t *syms, size_t n, size_t at,
                       uint8_t *marked, size_t *skip)
{
    uint32_t done[MAX_BODY];
    struct run_at r;
    const struct body *y;
    int err = 0, rc;

    *skip = 1;
    if (find_run(x, run, proc, syms, n, at, &r) != 0)
        return -1;
    /* a call to rank 0 in no run (a gather by hand) */
    if (!r.count && (rc = sp_roots_rewrite(x->roots, x->t, run, proc, &syms[at])) != 0) {
        marked[at] = 1;
        return rc < 0 ? -1 : 0;
    }
    y = body_at(x, syms, n, at, r.count ? r.period : 0, &err);
    if (err)
        return -1;
    if (!y)
        return 1;
    if (!r.count)
        r = (struct run_at){at, y->period, 1};
    if (!tags_advance(x, syms, &r, y))
        return 1;
    for (size_t q = 0; q < r.period; q++)
        if ((rc = rewrite_step(x, run, proc, orig, syms, &r, y, q, done)) != 0)
            return rc;
    for (size_t k = 0; k < r.count; k++)
        memcpy(syms + at + k * r.period, done, r.period * sizeof(*done));
    memset(marked + at, 1, r.period * r.count);
    *skip = r.period * r.count;
    return 0;
}

/* What the runs of one process are rewritten with. */
struct rewriting {
    struct sp_pairs *x;
    const struct pz_scale_run *run;
    int proc;
};

/* Every run of syms[0..n-1] rewritten in place (w: the struct rewriting; orig: as
 * interned; marked: the steps rewritten), an sp_run_rewriter.  0 or -1 (memory). */
static int rewrite_runs(void *ctx, const uint32_t *orig, uint32_t *syms, size_t n,
                        uint8_t *marked)
{
    const struct rewriting *w = ctx;

    for (size_t at = 0; at < n;) {
        size_t skip = 1;

        if (has_partner(w->x->t, syms[at]) &&
            rewrite_run(w->x, w->run, w->proc, orig, syms, n, at, marked, &skip) < 0)
            return -1;
        at += skip;
    }
    return 0;
}

int sp_pairs_rewrite(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                     uint32_t *syms, size_t n)
{
    struct rewriting w = {x, run, proc};

    return sp_rewrite_runs(x->t, syms, n, rewrite_runs, &w);
}
