/* The runs of an exchange with every member in turn rewritten (scale_program_int.h,
 * sp_pairs_rewrite): each run of a body learned (scale_pairs.c), or one iteration of one
 * at 2 processes, becomes the same symbols in every iteration, each partner as its form
 * and its distance at the first iteration (PZ_SCALE_PEER_PAIR), each tag as its first
 * value and its step, so that sp_fold folds the run into a loop.  A twin's two calls
 * (scale_pairs_twin.c) ordered by rank become the call first where the rank is below the
 * partner's and the other, in every iteration, which the synthesis swaps where it is
 * above; a call to rank 0 in no run, as sp_roots learned it. */
#include <string.h>

#include "grow.h"
#include "scale_pairs_int.h"

/* Does every tag of run r advance by the step y learned (or, not learned, by one step
 * from one iteration to the next). */
static int tags_advance(struct sp_pairs *x, const uint32_t *syms, const struct spp_run *r,
                        const struct spp_body *y)
{
    for (size_t q = 0; q < r->period; q++) {
        const struct sp_sym *s = &x->t->syms[syms[spp_slot(x, syms, r, 0, q)]];

        for (uint32_t i = 0; i < s->n; i++) {
            uint32_t t0 = sp_events_of(x->t, syms[spp_slot(x, syms, r, 0, q)])[i].tag;

            for (size_t k = 1; k < r->count; k++)
                if (sp_events_of(x->t, syms[spp_slot(x, syms, r, k, q)])[i].tag !=
                    t0 + (uint32_t)k * y->tag_step[q][i])
                    return 0;
        }
    }
    return 1;
}

/* Whether the tags of one iteration of body y (run r, found where no run of y is) are
 * those y's runs begin with, where every run begins with the same. */
static int tags_begin(struct sp_pairs *x, const uint32_t *syms, const struct spp_run *r,
                      const struct spp_body *y)
{
    for (size_t q = 0; q < r->period; q++) {
        uint32_t sym = syms[spp_slot(x, syms, r, 0, q)];

        for (uint32_t i = 0; i < x->t->syms[sym].n && i < SP_MAX_EVENTS; i++)
            if (y->tag_known[q][i] && !y->tag_mixed[q][i] &&
                sp_events_of(x->t, sym)[i].tag != y->tag_first[q][i])
                return 0;
    }
    return 1;
}

/* The body step written at position p of every iteration of run r in order `order`
 * (a twin's, else 0): p; in a twin's ordered by rank the one first where the rank is
 * below the partner's (p = 0) and the other; in a twin's of one order, the one at p in
 * the first iteration. */
static size_t step_at(struct sp_pairs *x, const uint32_t *syms, const struct spp_run *r,
                      uint8_t order, size_t p)
{
    if (!r->twin)
        return p;
    if (order & SPP_BY_RANK)
        return p ^ (order == SPP_HI_BELOW);
    return p ^ (sp_shape(&x->sh, syms[r->at]) != r->lo);
}

/* The partner of ev[i] (process proc's), fitting forms `fits`, as the first of them and
 * its distance, `place` its place in a twin's steps ordered by rank (struct
 * pz_scale_peer.off[1]: 0, or PZ_SCALE_ORDERED_FIRST or PZ_SCALE_ORDERED_SECOND). */
static void as_pair(const struct pz_scale_run *run, int proc, struct sp_event *e,
                    uint8_t fits, int8_t place)
{
    for (int f = PZ_SCALE_PAIR_PLUS; f <= PZ_SCALE_PAIR_FORMS; f++)
        if ((fits >> f) & 1) {
            int me, p, n;

            spp_partner(run, proc, e, &me, &p, &n);
            memset(&e->peer, 0, sizeof(e->peer));
            e->peer.kind = PZ_SCALE_PEER_PAIR;
            e->peer.off[0] = (int8_t)f;
            e->peer.off[1] = place;
            e->peer.rank = sp_pair_distance(f, me, p, n);
            return;
        }
}

/* Body step q of run r rewritten into done[p], p its position in every iteration (orig:
 * the steps as interned, syms: as rewritten so far; place: as_pair's): each partner in
 * the first of the forms y allows that fits here, as its distance at the first
 * iteration, each tag with its step, each poster in the body by its rewritten symbol,
 * before the run as rewritten.  0, 1 when it cannot be (no form fits, a poster in
 * another iteration), -1 (memory). */
static int rewrite_step(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                        const uint32_t *orig, const uint32_t *syms, const struct spp_run *r,
                        const struct spp_body *y, size_t q, size_t p, int8_t place,
                        uint32_t *done)
{
    struct sp_event ev[SP_MAX_EVENTS];
    size_t from = spp_slot(x, syms, r, 0, q);
    struct sp_sym proto = x->t->syms[syms[from]];

    for (uint32_t i = 0; i < proto.n; i++) {
        uint8_t fits;

        ev[i] = sp_events_of(x->t, syms[from])[i];
        ev[i].tag_step = y->tag_step[q][i];
        if (ev[i].poster_sym != SP_NONE) {
            size_t j = sp_poster_at(orig, 0, from, ev[i].poster_sym);

            if (j != (size_t)SP_NONE && j >= r->at && j - r->at >= p)
                return 1;
            if (j != (size_t)SP_NONE)
                ev[i].poster_sym = j >= r->at ? done[j - r->at] : syms[j];
        }
        if (!spp_pairable(&ev[i]))
            continue;
        if (!(fits = y->forms[q][i] & spp_forms_of(x, run, proc, syms, r, q, i)))
            return 1;
        as_pair(run, proc, &ev[i], fits, place);
    }
    return (done[p] = sp_table_step(x->t, &proto, ev)) == SP_NONE ? -1 : 0;
}

/* Run r of body y, found at syms[at] (count 0: none, one iteration of y is looked for
 * there, taken where it reaches every other member: on a communicator of 2), as the run
 * to rewrite, a twin's order into *order (0 for others): 0, 1 when there is none (the
 * iteration not y's, tags or an order y does not take), -1.  A step of y's shape on a
 * larger communicator, or with other tags than y's runs begin with, is another exchange
 * (a ring's receive from the left beside a gather written by hand: taken for one
 * iteration of the gather's run, it was a step at the distance P - 1, one of its own in
 * each recording). */
static int run_of(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                  const uint32_t *syms, const struct spp_body *y, struct spp_run *r,
                  uint8_t *order)
{
    int rc;

    if (!spp_body_taken(x, y))
        return 1;
    *order = y->twin ? spp_twin_order(y) : 0;
    if (!r->count) {
        *r = (struct spp_run){r->at, y->period, 1, y->twin, 0, 0};
        if (y->twin && (rc = spp_twin_alike(x, run, proc, syms, r)) <= 0)
            return rc < 0 ? -1 : 1;
        if (!spp_reaches_every_member(x, run, proc, syms, r) || !tags_begin(x, syms, r, y))
            return 1;
    }
    if (y->twin && !(r->orders & *order))
        return 1;
    return tags_advance(x, syms, r, y) ? 0 : 1;
}

/* Run r kept among those rewritten (struct sp_pairs.rewritten).  0 or -1. */
static int keep_run(struct sp_pairs *x, const struct spp_run *r)
{
    if (pz_grow((void **)&x->rewritten, &x->caprewritten, x->nrewritten,
                sizeof(*x->rewritten)) != 0)
        return -1;
    x->rewritten[x->nrewritten++] = *r;
    return 0;
}

/* The run at syms[at] rewritten in place, its steps marked: 0, 1 when none is there,
 * -1 (memory).  *skip: the steps it covers (1 when none). */
static int rewrite_run(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                       const uint32_t *orig, uint32_t *syms, size_t n, size_t at,
                       uint8_t *marked, size_t *skip)
{
    uint32_t done[SPP_MAX_BODY];
    struct spp_run r;
    const struct spp_body *y;
    uint8_t order;
    int err = 0, rc;

    *skip = 1;
    if (spp_find_run(x, run, proc, syms, n, at, &r) != 0)
        return -1;
    /* a call to rank 0 in no run (a gather by hand) */
    if (!r.count && (rc = sp_roots_rewrite(x->roots, x->t, run, proc, &syms[at])) != 0) {
        marked[at] = 1;
        return rc < 0 ? -1 : 0;
    }
    y = spp_body_at(x, syms, n, at, r.count ? r.period : 0, r.count ? r.twin : -1, &err);
    if (err)
        return -1;
    if (!y || (rc = run_of(x, run, proc, syms, y, &r, &order)) != 0)
        return y ? rc : 1;
    for (size_t p = 0; p < r.period; p++) {
        int8_t place = (order & SPP_BY_RANK) ? (int8_t)(p ? PZ_SCALE_ORDERED_SECOND
                                                          : PZ_SCALE_ORDERED_FIRST) : 0;

        if ((rc = rewrite_step(x, run, proc, orig, syms, &r, y, step_at(x, syms, &r, order, p),
                               p, place, done)) != 0)
            return rc;
    }
    for (size_t k = 0; k < r.count; k++)
        memcpy(syms + at + k * r.period, done, r.period * sizeof(*done));
    memset(marked + at, 1, r.period * r.count);
    *skip = r.period * r.count;
    return keep_run(x, &r);
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

        if (spp_has_partner(w->x->t, syms[at]) &&
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

    x->nrewritten = 0;
    return sp_rewrite_runs(x->t, syms, n, rewrite_runs, &w);
}

/* Whether rewritten runs a and b (a first) are iterations of one body back to back:
 * b begins where a ends, with the same steps as rewritten (syms). */
static int follows(const uint32_t *syms, const struct spp_run *a, const struct spp_run *b)
{
    return a->at + a->period * a->count == b->at && a->period == b->period &&
           !memcmp(syms + a->at, syms + b->at, a->period * sizeof(*syms));
}

int sp_pairs_fold_runs(struct sp_pairs *x, uint32_t *syms, size_t *n)
{
    size_t w = 0, from = 0;
    int after_one = 0;     /* the run before follows another of its body */

    for (size_t i = 0; i < x->nrewritten; i++) {
        const struct spp_run *r = &x->rewritten[i];
        int before = after_one;

        /* read before the steps move: those of the runs from i on are still in place */
        after_one = i + 1 < x->nrewritten && follows(syms, r, r + 1);
        /* one iteration (at 2 processes) is a loop where another is right beside it */
        if (r->count < 2 && !before && !after_one)
            continue;
        memmove(syms + w, syms + from, (r->at - from) * sizeof(*syms));
        w += r->at - from;
        if ((syms[w++] = sp_table_loop(x->t, syms + r->at, (uint32_t)r->period,
                                       (uint32_t)r->count)) == SP_NONE)
            return -1;
        from = r->at + r->period * r->count;
    }
    memmove(syms + w, syms + from, (*n - from) * sizeof(*syms));
    *n = w + *n - from;
    return 0;
}
