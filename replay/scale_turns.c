/* Collectives whose root turns with the iteration of a loop (scale_program_int.h,
 * sp_turns_*): a SUMMA-like matrix product broadcasts, at step k, a panel along each row
 * of its process grid from member k mod n of the row's n, and another along each column.
 * As recorded, the root is another rank in every iteration, so the iterations are
 * different steps (at 4 processes, rows of 2, they fold into a loop over 2 of them, at 8
 * into none), and which iterations a process is the root in depends on its place in the
 * row: the processes share no sequence of steps.  Here a run of iterations of a body
 * whose rooted collectives' roots are (r + j) mod n at iteration j, or one root
 * throughout, some turning, is rewritten into the same symbols in every iteration, a
 * turning root as PZ_SCALE_PEER_TURN of r, which sp_fold folds into a loop.  A
 * communicator of one member (a row of a grid of 2 x 1), where every root is 0, shows no
 * turn: a step of a shape whose root turns in some run of some process of some recording
 * (sp_turns_learn) turns wherever it fits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "trace_calls.h"

/* The longest body looked for, in steps. */
#define MAX_BODY 16

/* How the roots of an event fit over a run's iterations, as bits. */
#define SAME 1u    /* one root throughout */
#define TURNS 2u   /* (r + j) mod n at iteration j */

struct sp_turns {
    struct sp_table *t;
    struct sp_shapes sh;       /* each step without its roots */
    uint64_t *turning;         /* [shape]: bit i when event i's root turned in a run */
    uint32_t nturning;
};

struct sp_turns *sp_turns_new(struct sp_table *t)
{
    struct sp_turns *x = calloc(1, sizeof(*x));

    if (x) {
        x->t = t;
        x->sh.t = t;
        x->sh.without_roots = 1;
    }
    return x;
}

void sp_turns_free(struct sp_turns *x)
{
    if (!x)
        return;
    sp_shapes_free(&x->sh);
    free(x->turning);
    free(x);
}

/* Is e a collective with one root, counted from the first or the last, that moves a
 * block of one size to or from each member (not a v collective, whose sizes name the
 * root's place). */
static int rooted(const struct sp_event *e)
{
    enum pz_coll_op op;

    if ((e->kind != PZ_REC_COLL_END && e->kind != PZ_REC_NBC_COMPLETE &&
         e->kind != PZ_REC_NBC_REQUEST) ||
        (e->peer.kind != PZ_SCALE_PEER_RANK && e->peer.kind != PZ_SCALE_PEER_LAST) ||
        pz_call_coll_op(e->coll_op, &op) != 0)
        return 0;
    return op == PZ_COLL_BCAST || op == PZ_COLL_SCATTER || op == PZ_COLL_GATHER ||
           op == PZ_COLL_REDUCE;
}

uint32_t sp_turns_members(const struct pz_scale_run *run, int proc, const struct pz_scale_comm *c)
{
    uint32_t size, in;

    if (!pz_scale_is_group(c->kind))
        return sp_comm_members(c, &run->grid, run->nprocs);
    return pz_scale_group_of(c, run->nprocs, proc, &size, &in) >= 0 ? size : 0;
}

int64_t sp_turns_root(const struct sp_event *e, uint32_t n)
{
    return e->peer.kind == PZ_SCALE_PEER_RANK ? e->peer.rank : (int64_t)n - 1 - e->peer.rank;
}

/* A run of a body: from `at`, `count` iterations of `period` steps. */
struct run_at {
    size_t at, period, count;
};

/* How rooted event i of body position q of run r fits at process proc: SAME, TURNS
 * (on a communicator whose members are known), both on one of 1 member; 0 neither. */
static unsigned event_fit(const struct sp_turns *x, const struct pz_scale_run *run, int proc,
                          const uint32_t *syms, const struct run_at *r, size_t q, uint32_t i)
{
    const struct sp_event *e0 = &sp_events_of(x->t, syms[r->at + q])[i];
    uint32_t n = sp_turns_members(run, proc, &e0->comm);
    int64_t r0 = sp_turns_root(e0, n);
    unsigned fits = n && r0 >= 0 && r0 < n ? SAME | TURNS : SAME;

    for (size_t k = 1; k < r->count && fits; k++) {
        const struct sp_event *e = &sp_events_of(x->t, syms[r->at + k * r->period + q])[i];

        if (e->peer.kind != e0->peer.kind || e->peer.rank != e0->peer.rank)
            fits &= n == 1 ? ~0u : ~SAME;
        if (n && sp_turns_root(e, n) != (r0 + (int64_t)k) % n)
            fits &= ~TURNS;
    }
    return fits;
}

/* Has event i of shape `shape` turned in a learned run. */
static int learned(const struct sp_turns *x, uint32_t shape, uint32_t i)
{
    return shape < x->nturning && i < 64 && ((x->turning[shape] >> i) & 1);
}

/* Does run r fit: the same shapes in every iteration, and every rooted event's roots
 * SAME or TURNS; when by_learned, TURNS for the events learned to turn and SAME for the
 * others.  *turn (may be NULL): bit i of [q] set for the events of body position q that
 * turn (by_learned: learned).  1 when some event turns, 0 when none or the run does not
 * fit, -1 when memory runs out. */
static int run_fits(struct sp_turns *x, const struct pz_scale_run *run, int proc,
                    const uint32_t *syms, const struct run_at *r, int by_learned,
                    uint64_t *turn)
{
    int some = 0;

    for (size_t q = 0; q < r->period; q++) {
        const struct sp_sym *s = &x->t->syms[syms[r->at + q]];
        uint32_t s0;
        int same = sp_same_shapes(&x->sh, syms, r->at, r->period, r->count, q, &s0);

        if (same <= 0)
            return same;
        if (turn)
            turn[q] = 0;
        for (uint32_t i = 0; i < s->n; i++) {
            unsigned fits, want;
            int turns;

            if (!rooted(&sp_events_of(x->t, syms[r->at + q])[i]))
                continue;
            fits = event_fit(x, run, proc, syms, r, q, i);
            turns = by_learned ? learned(x, s0, i) : fits == TURNS;
            want = by_learned ? (turns ? TURNS : SAME) : SAME | TURNS;
            if (!(fits & want))
                return 0;
            some |= turns;
            if (turn && turns)
                turn[q] |= (uint64_t)1 << i;
        }
    }
    return some;
}

/* The run of 2 iterations or more holding step `at`, the first rooted step not in one
 * before it (from `lo` on), its period the shortest that gives one, beginning up to a
 * period before `at` where the steps there repeat too, as many iterations as fit;
 * count 0 when none.  0 or -1 (memory). */
static int find_run(struct sp_turns *x, const struct pz_scale_run *run, int proc,
                    const uint32_t *syms, size_t n, size_t lo, size_t at, int by_learned,
                    struct run_at *r)
{
    r->count = 0;
    for (size_t p = 1; p <= MAX_BODY; p++) {
        struct run_at c = {at, p, 2};
        int fits;

        while (c.at > lo && c.at + p > at + 1 && c.at - 1 + p < n &&
               sp_shape(&x->sh, syms[c.at - 1]) == sp_shape(&x->sh, syms[c.at - 1 + p]))
            c.at--;
        if (c.at + 2 * p > n)
            continue;
        if ((fits = run_fits(x, run, proc, syms, &c, by_learned, NULL)) < 0)
            return -1;
        if (!fits)
            continue;
        while (c.at + (c.count + 1) * p <= n) {
            c.count++;
            if ((fits = run_fits(x, run, proc, syms, &c, by_learned, NULL)) < 0)
                return -1;
            if (!fits) {
                c.count--;
                break;
            }
        }
        *r = c;
        return 0;
    }
    return 0;
}

/* Does step sym have a rooted event (by_learned: one learned to turn). */
static int may_turn(struct sp_turns *x, uint32_t sym, int by_learned)
{
    const struct sp_sym *s = &x->t->syms[sym];
    uint32_t shape = by_learned ? sp_shape(&x->sh, sym) : 0;

    for (uint32_t i = 0; s->kind == SP_STEP && i < s->n; i++)
        if (rooted(&sp_events_of(x->t, sym)[i]) && (!by_learned || learned(x, shape, i)))
            return 1;
    return 0;
}

/* The events of the body of run r that turn marked in x->turning.  0 or -1. */
static int learn_run(struct sp_turns *x, const struct pz_scale_run *run, int proc,
                     const uint32_t *syms, const struct run_at *r)
{
    uint64_t turn[MAX_BODY];

    if (run_fits(x, run, proc, syms, r, 0, turn) < 0)
        return -1;
    for (size_t q = 0; q < r->period; q++) {
        uint32_t shape = sp_shape(&x->sh, syms[r->at + q]);

        if (!turn[q])
            continue;
        if (shape >= x->nturning) {
            uint64_t *v = realloc(x->turning, ((size_t)shape + 1) * sizeof(*v));

            if (!v)
                return -1;
            memset(v + x->nturning, 0, (shape + 1 - x->nturning) * sizeof(*v));
            x->turning = v;
            x->nturning = shape + 1;
        }
        x->turning[shape] |= turn[q];
    }
    return 0;
}

int sp_turns_learn(struct sp_turns *x, const struct pz_scale_run *run, int proc,
                   const uint32_t *syms, size_t n)
{
    for (size_t at = 0, lo = 0; at < n;) {
        struct run_at r;

        if (!may_turn(x, syms[at], 0)) {
            at++;
            continue;
        }
        if (find_run(x, run, proc, syms, n, lo, at, 0, &r) != 0)
            return -1;
        if (!r.count) {
            at++;
            continue;
        }
        if (learn_run(x, run, proc, syms, &r) != 0)
            return -1;
        at = lo = r.at + r.period * r.count;
    }
    return 0;
}

/* Step q of run r rewritten into done[q] (orig: the steps as interned, syms: as
 * rewritten so far): each turning root (turn[q]) as its root at the first iteration,
 * each poster in the body by its rewritten symbol, before the run as rewritten.  0, 1
 * when it cannot be (a poster in another iteration), -1 (memory). */
static int rewrite_step(struct sp_turns *x, const struct pz_scale_run *run, int proc,
                        const uint32_t *orig, const uint32_t *syms, const struct run_at *r,
                        const uint64_t *turn, size_t q, uint32_t *done)
{
    struct sp_event ev[SP_MAX_EVENTS];
    struct sp_sym proto = x->t->syms[syms[r->at + q]];

    for (uint32_t i = 0; i < proto.n; i++) {
        ev[i] = sp_events_of(x->t, syms[r->at + q])[i];
        if (ev[i].poster_sym != SP_NONE &&
            (ev[i].poster_sym = sp_run_poster(orig, syms, r->at, q, done,
                                              ev[i].poster_sym)) == SP_UNNAMED)
            return 1;
        if ((turn[q] >> i) & 1) {
            int64_t r0 = sp_turns_root(&ev[i], sp_turns_members(run, proc, &ev[i].comm));

            ev[i].peer = (struct pz_scale_peer){ .kind = PZ_SCALE_PEER_TURN,
                                                 .rank = (int32_t)r0 };
        }
    }
    return (done[q] = sp_table_step(x->t, &proto, ev)) == SP_NONE ? -1 : 0;
}

/* The run holding step `at` (from `lo` on) rewritten in place, its steps marked: 0, 1
 * when none is there, -1 (memory).  *start, *end: its first step and the step after it
 * (at + 1 when none). */
static int rewrite_run(struct sp_turns *x, const struct pz_scale_run *run, int proc,
                       const uint32_t *orig, uint32_t *syms, size_t n, size_t lo, size_t at,
                       uint8_t *marked, size_t *start, size_t *end)
{
    uint32_t done[MAX_BODY];
    uint64_t turn[MAX_BODY];
    struct run_at r;
    int rc;

    *end = at + 1;
    if (find_run(x, run, proc, syms, n, lo, at, 1, &r) != 0)
        return -1;
    if (!r.count)
        return 1;
    if (run_fits(x, run, proc, syms, &r, 1, turn) < 0)
        return -1;
    for (size_t q = 0; q < r.period; q++)
        if ((rc = rewrite_step(x, run, proc, orig, syms, &r, turn, q, done)) != 0)
            return rc;
    for (size_t k = 0; k < r.count; k++)
        memcpy(syms + r.at + k * r.period, done, r.period * sizeof(*done));
    memset(marked + r.at, 1, r.period * r.count);
    *start = r.at;
    *end = r.at + r.period * r.count;
    return 0;
}

/* What the runs of one process are rewritten with, and the runs rewritten: from
 * starts[i] to ends[i] (excluded). */
struct rewriting {
    struct sp_turns *x;
    const struct pz_scale_run *run;
    int proc;
    uint8_t ambiguous;
    size_t *starts, *ends, nruns;
};

/* Puts back as interned the run holding step pos (every run when none holds it). */
static void undo_run(struct rewriting *w, const uint32_t *orig, uint32_t *syms,
                     uint8_t *marked, size_t pos)
{
    for (size_t i = 0; i < w->nruns; i++) {
        size_t a = w->starts[i], b = w->ends[i];

        if (pos < a || pos >= b)
            continue;
        memcpy(syms + a, orig + a, (b - a) * sizeof(*syms));
        memset(marked + a, 0, b - a);
        w->starts[i] = w->starts[--w->nruns];
        w->ends[i] = w->ends[w->nruns];
        return;
    }
    for (size_t i = 0; i < w->nruns; i++) {
        memcpy(syms + w->starts[i], orig + w->starts[i],
               (w->ends[i] - w->starts[i]) * sizeof(*syms));
        memset(marked + w->starts[i], 0, w->ends[i] - w->starts[i]);
    }
    w->nruns = 0;
}

/* Every run of syms[0..n-1] rewritten in place (ctx: the struct rewriting; orig: as
 * interned; marked: the steps rewritten), then put back, one after the other, those
 * holding a root that folding the steps does not give back (sp_turns_wrong: two
 * collectives of one shape in a body fold into one loop), an sp_run_rewriter.  0 or -1
 * (memory). */
static int rewrite_runs(void *ctx, const uint32_t *orig, uint32_t *syms, size_t n,
                        uint8_t *marked)
{
    struct rewriting *w = ctx;
    size_t wrong;

    for (size_t at = 0, lo = 0; at < n;) {
        size_t start, end = at + 1;
        int rc = 1;

        if (may_turn(w->x, syms[at], 1) &&
            (rc = rewrite_run(w->x, w->run, w->proc, orig, syms, n, lo, at, marked, &start,
                              &end)) < 0)
            return -1;
        if (rc == 0) {
            w->starts[w->nruns] = start;
            w->ends[w->nruns++] = lo = end;
        }
        at = end;
    }
    while (w->nruns && (wrong = sp_turns_wrong(w->x->t, w->run, w->proc, orig, syms, n,
                                               w->ambiguous)) != n) {
        if (wrong == (size_t)SP_NONE)
            return -1;
        undo_run(w, orig, syms, marked, wrong);
    }
    return 0;
}

int sp_turns_rewrite(struct sp_turns *x, const struct pz_scale_run *run, int proc,
                     uint32_t *syms, size_t n, uint8_t ambiguous)
{
    struct rewriting w = {x, run, proc, ambiguous, NULL, NULL, 0};
    int rc = -1;

    if (!x->nturning)
        return 0;
    w.starts = malloc((n ? n : 1) * sizeof(*w.starts));
    w.ends = malloc((n ? n : 1) * sizeof(*w.ends));
    if (w.starts && w.ends)
        rc = sp_rewrite_runs(x->t, syms, n, rewrite_runs, &w);
    free(w.starts);
    free(w.ends);
    return rc;
}
