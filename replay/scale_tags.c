/* Loops whose iterations differ by their tags alone (scale_program_int.h, sp_tag_loops):
 * a pipeline that tags each chunk with its number, a solver that tags each step's
 * messages with the step.  Their steps are different symbols in every iteration, so
 * sp_fold cannot fold them, and each computation would be fitted on a single sample per
 * recording.  Here a process's steps are compared by their shape (the symbol without
 * its tags, its poster's shape for its poster); where the shapes of a period repeat back
 * to back and every tag advances by the same amount from one iteration to the next, the
 * iterations are rewritten into the same symbols, each tag as its first value and its
 * step.  Whether the rewritten steps fold so that the iteration of the loop right around
 * each of them gives back every recorded tag is then checked by folding them: a run
 * that does not is left as recorded.  The steps right after a run whose tags go on
 * advancing (a last chunk sent after the loop) are rewritten too, their tags as forms
 * of the loop's trip count, which the recordings at each count then share.  Where the
 * smallest recordings run such a loop twice or once (a ring of P - 1 steps tagged by the
 * step at 3 processes, an odd-even transposition's phases at 4 and 2), its steps are
 * rewritten as the body a longer run of the same steps taught (struct sp_tag_learned),
 * once every process has been rewritten: two iterations as a run, one as a lone step. */
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "trace.h"

/* Fewer iterations tell no arithmetic progression: any two tags are one (but for a
 * body learned from a longer run, struct sp_tag_learned). */
#define MIN_ITERATIONS 3

/* The most steps after a run looked at for iterations past its last. */
#define TAIL_PERIODS 2

/* A run of iterations rewritten: from `at`, `count` iterations of `period` steps, and
 * steps after them up to `end` (an iteration past the last, struct sp_event.tag_after). */
struct run {
    size_t at, period, count, end;
};

struct tagging {
    struct sp_table *t;
    struct sp_shapes sh;       /* each step without its tags */
    const uint32_t *orig;      /* the steps as recorded */
    uint32_t *syms;            /* ... as rewritten */
    size_t n;
    uint8_t *marked;           /* [i]: in a run rewritten */
    uint8_t *lone;             /* [i]: rewritten as a learned body's step at its first
                                  iteration, in a loop run once (rewrite_lone) */
    struct run *runs;
    size_t nruns;
    struct sp_tag_learned *learned;
};

/* Does every tag of the steps from `at` advance by as much from iteration k - 1 to k as
 * from iteration 0 to 1.  A one-sided record's "tag" is its window's slot (scale_run.c),
 * which names a window rather than counts: windows made one after another in a loop
 * are different windows, and stay different steps. */
static int advances_alike(const struct tagging *g, size_t at, size_t period, size_t k)
{
    for (size_t q = 0; q < period; q++) {
        const struct sp_event *e0 = sp_events_of(g->t, g->orig[at + q]),
                              *e1 = sp_events_of(g->t, g->orig[at + period + q]),
                              *a = sp_events_of(g->t, g->orig[at + (k - 1) * period + q]),
                              *b = sp_events_of(g->t, g->orig[at + k * period + q]);

        for (uint32_t i = 0; i < g->t->syms[g->orig[at + q]].n; i++)
            if (b[i].tag - a[i].tag != e1[i].tag - e0[i].tag ||
                (pz_rec_is_rma(e0[i].kind) && e1[i].tag != e0[i].tag))
                return 0;
    }
    return 1;
}

/* The rewritten symbol of body position q of the run from `at` (done[q], SP_NONE while
 * not made, SP_NONE - 1 while being made): iteration 0's events, each tag advancing as
 * it does to iteration 1, each poster found in the run by its rewritten symbol (as
 * iteration 1 shows it, whose poster may be in iteration 0).  SP_NONE: none can be made
 * (memory, or posters of each other). */
static uint32_t rewritten(struct tagging *g, size_t at, size_t period, size_t q,
                          uint32_t *done)
{
    struct sp_event ev[SP_MAX_EVENTS];
    struct sp_sym proto = g->t->syms[g->orig[at + q]];
    const uint32_t later = g->orig[at + period + q];

    if (done[q] != SP_NONE)
        return done[q] == SP_NONE - 1 ? SP_NONE : done[q];
    if (proto.n > SP_MAX_EVENTS)
        return SP_NONE;
    done[q] = SP_NONE - 1;
    for (uint32_t i = 0; i < proto.n; i++) {
        const struct sp_event *next = &sp_events_of(g->t, later)[i];
        uint32_t poster = next->poster_sym;

        ev[i] = sp_events_of(g->t, g->orig[at + q])[i];
        ev[i].tag_step = next->tag - ev[i].tag;
        size_t j = sp_poster_at(g->orig, at, at + period + q, poster);

        ev[i].poster_sym = poster;
        if (j != (size_t)SP_NONE &&
            (ev[i].poster_sym = rewritten(g, at, period, (j - at) % period, done)) == SP_NONE)
            return SP_NONE;
    }
    return done[q] = sp_table_step(g->t, &proto, ev);
}

/* Is step x, after `count` iterations of the run from `at` (body: their rewritten
 * symbols), the body's position q in an iteration up to 2 past the last, its tags
 * advancing as q's: then its events into ev, tagged from the trip count
 * (struct sp_event.tag_after), and whether any tag advances into *advances. */
static int past_the_end(const struct tagging *g, const uint32_t *body, size_t count,
                        size_t q, size_t x, struct sp_event *ev, int *advances)
{
    const struct sp_sym *b = &g->t->syms[body[q]];
    const struct sp_event *r = sp_events_of(g->t, g->orig[x]);
    int64_t iteration = -1;

    *advances = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        const struct sp_event *e = &g->t->events[b->first + i];
        int64_t apart = (int32_t)(r[i].tag - e->tag), step = (int32_t)e->tag_step;

        ev[i] = *e;
        ev[i].tag_after = 1;
        if (!step) {
            if (apart)
                return 0;
            continue;
        }
        if (apart % step || (iteration >= 0 && apart / step != iteration) ||
            apart / step < (int64_t)count || apart / step > (int64_t)count + 2)
            return 0;
        iteration = apart / step;
        ev[i].tag = r[i].tag - (uint32_t)count * e->tag_step;
        *advances = 1;
    }
    return 1;
}

/* The symbol of step x after the run from `at` rewritten as an iteration past its last
 * (past_the_end; its poster the run's rewritten one), or orig[x]: when it is none, or
 * its tags do not advance and its poster is not rewritten.  SP_NONE when memory runs
 * out. */
static uint32_t rewritten_after(struct tagging *g, const uint32_t *h, size_t at,
                                size_t period, size_t count, const uint32_t *body, size_t x)
{
    struct sp_event ev[SP_MAX_EVENTS];
    size_t end = at + period * count;
    int advances;

    for (size_t q = 0; q < period; q++) {
        struct sp_sym proto = g->t->syms[g->orig[x]];
        int moved = 0;

        if (h[at + q] != h[x] || !past_the_end(g, body, count, q, x, ev, &advances))
            continue;
        for (uint32_t i = 0; i < proto.n; i++) {
            uint32_t poster = sp_events_of(g->t, g->orig[x])[i].poster_sym;
            size_t j = sp_poster_at(g->orig, at, x, poster);

            ev[i].poster_sym = poster;
            if (j != (size_t)SP_NONE) {
                ev[i].poster_sym = j < end ? body[(j - at) % period] : g->syms[j];
                moved |= ev[i].poster_sym != poster;
            }
        }
        return advances || moved ? sp_table_step(g->t, &proto, ev) : g->orig[x];
    }
    return g->orig[x];
}

/* Rewrites the steps after `count` iterations of the run from `at` that are iterations
 * past its last (rewritten_after): the end of what was rewritten, or SP_NONE. */
static size_t rewrite_after(struct tagging *g, const uint32_t *h, size_t at, size_t period,
                            size_t count, const uint32_t *body)
{
    size_t x = at + period * count, last = x;

    for (; x < g->n && x < at + period * (count + TAIL_PERIODS) && !g->marked[x]; x++) {
        uint32_t sym = rewritten_after(g, h, at, period, count, body, x);

        if (sym == SP_NONE)
            return (size_t)SP_NONE;
        if (sym != g->orig[x]) {
            g->syms[x] = sym;
            last = x + 1;
        }
    }
    for (x = at + period * count; x < last; x++)
        g->marked[x] = 1;
    return last;
}

/* Rewrites `count` iterations of `period` steps from `at`: 0, 1 when they cannot be, -1
 * when memory runs out. */
static int rewrite(struct tagging *g, const uint32_t *h, size_t at, size_t period,
                   size_t count)
{
    size_t end;

    uint32_t *done = malloc(period * sizeof(*done));
    struct run *v = realloc(g->runs, (g->nruns + 1) * sizeof(*v));

    if (!done || !v) {
        free(done);
        return -1;
    }
    g->runs = v;
    memset(done, 0xff, period * sizeof(*done));
    for (size_t q = 0; q < period; q++)
        if (rewritten(g, at, period, q, done) == SP_NONE) {
            free(done);
            return 1;
        }
    for (size_t i = 0; i < period * count; i++) {
        g->syms[at + i] = done[i % period];
        g->marked[at + i] = 1;
    }
    end = rewrite_after(g, h, at, period, count, done);
    free(done);
    if (end == (size_t)SP_NONE)
        return -1;
    g->runs[g->nruns++] = (struct run){at, period, count, end};
    return 0;
}

/* A shape met among a process's steps (shared_shapes): the first symbol of that shape,
 * whether another symbol has it too; shape SP_NONE: an empty slot. */
struct shape_seen {
    uint32_t shape, sym;
    uint8_t shared;
};

/* Into cand (allocated, *ncand of them, increasing), the positions of the steps whose
 * shape h[i] another symbol of the process has too: the only ones where a step can have
 * the shape of the step a period later and not its symbol (find_runs).  Each shape's
 * first symbol is kept in an open addressing table of twice n slots or more.  -1 when
 * memory runs out. */
static int shared_shapes(const struct tagging *g, const uint32_t *h, size_t **cand,
                         size_t *ncand)
{
    size_t cap = sp_slots_for(g->n), *at = malloc((g->n ? g->n : 1) * sizeof(*at));
    struct shape_seen *v;

    *ncand = 0;
    *cand = NULL;
    if (!at || !(v = malloc(cap * sizeof(*v)))) {
        free(at);
        return -1;
    }
    for (size_t j = 0; j < cap; j++)
        v[j].shape = SP_NONE;
    for (size_t i = 0; i < g->n; i++) {
        size_t j = sp_slot_of(h[i], cap);

        while (v[j].shape != SP_NONE && v[j].shape != h[i])
            j = (j + 1) & (cap - 1);
        if (v[j].shape == SP_NONE)
            v[j] = (struct shape_seen){h[i], g->orig[i], 0};
        v[j].shared |= v[j].sym != g->orig[i];
        at[i] = j;
    }
    /* at: each step's slot, then in place the positions kept (never past the one read) */
    for (size_t i = 0; i < g->n; i++)
        if (v[at[i]].shared)
            at[(*ncand)++] = i;
    free(v);
    *cand = at;
    return 0;
}

/* Whether step `first`, of shape `shape`, followed an iteration later by step `second`,
 * is a body step learned: one of that shape whose tags are first's, each advancing as it
 * does to second. */
static int learned_step(struct tagging *g, uint32_t shape, uint32_t first, uint32_t second)
{
    const struct sp_event *a = sp_events_of(g->t, first), *b = sp_events_of(g->t, second);

    for (size_t j = 0; j < g->learned->n; j++) {
        uint32_t l = g->learned->bodies[j], i = 0, n = g->t->syms[l].n;
        const struct sp_event *e = sp_events_of(g->t, l);

        if (sp_shape(&g->sh, l) != shape)
            continue;
        while (i < n && !e[i].tag_after && e[i].tag == a[i].tag &&
               e[i].tag_step == b[i].tag - a[i].tag)
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

/* Whether the 2 iterations of `period` steps from `at` (h: the shapes) are a body
 * learned, step by step. */
static int learned_pair(struct tagging *g, const uint32_t *h, size_t at, size_t period)
{
    for (size_t q = 0; q < period; q++)
        if (!learned_step(g, h[at + q], g->orig[at + q], g->orig[at + period + q]))
            return 0;
    return 1;
}

/* How many iterations of `period` steps from i to rewrite as one run (len, diff,
 * free_to: find_runs's): 3 or more whose tags advance alike, or 2 of a body learned;
 * 0 when none.  A run of 2 left is pending (struct sp_tag_learned). */
static size_t run_length(struct tagging *g, const uint32_t *h, size_t i, size_t period,
                         const size_t *len, const size_t *diff, const size_t *free_to)
{
    size_t n = g->n, k = 2;

    if (len[i] < period || diff[i] >= i + period || free_to[i] < i + 2 * period)
        return 0;
    if (i + MIN_ITERATIONS * period <= n && len[i] >= 2 * period &&
        free_to[i] >= i + MIN_ITERATIONS * period && advances_alike(g, i, period, 2)) {
        while (i + (k + 1) * period <= n && len[i + (k - 1) * period] >= period &&
               free_to[i] >= i + (k + 1) * period && advances_alike(g, i, period, k))
            k++;
        return k;
    }
    if (!g->learned)
        return 0;
    if (g->learned->pairs && learned_pair(g, h, i, period))
        return 2;
    g->learned->pending = 1;
    return 0;
}

/* The runs of one period, left to right among the steps not yet rewritten (h: the
 * shapes; cand[0..ncand-1]: shared_shapes's; len, diff, free_to: scratch of n). */
static int find_runs(struct tagging *g, const uint32_t *h, const size_t *cand, size_t ncand,
                     size_t period, size_t *len, size_t *diff, size_t *free_to)
{
    size_t n = g->n, first, c;

    /* a run has a step whose shape is the next iteration's and whose symbol is not:
       where none has, the period has none (and most have none); such a step's shape is
       another symbol's too */
    for (c = 0; c < ncand && cand[c] + period < n &&
                (h[cand[c]] != h[cand[c] + period] ||
                 g->orig[cand[c]] == g->orig[cand[c] + period]);
         c++)
        ;
    if (c == ncand || (first = cand[c]) + period >= n)
        return 0;
    /* len[i]: how many steps from i equal in shape the steps a period later; diff[i]:
       the first from i that differs as recorded; free_to[i]: the first rewritten */
    len[n - period] = 0;
    diff[n - period] = n;
    free_to[n - 1] = g->marked[n - 1] ? n - 1 : n;
    for (size_t i = n - 1; i-- > 0;)
        free_to[i] = g->marked[i] ? i : free_to[i + 1];
    for (size_t i = n - period; i-- > 0;) {
        len[i] = h[i] == h[i + period] ? len[i + 1] + 1 : 0;
        diff[i] = g->orig[i] != g->orig[i + period] ? i : diff[i + 1];
    }
    for (size_t i = first >= period ? first - period + 1 : 0; i + 2 * period <= n;) {
        size_t k = run_length(g, h, i, period, len, diff, free_to);
        int rc;

        if (!k) {
            i++;
            continue;
        }
        if ((rc = rewrite(g, h, i, period, k)) < 0)
            return -1;
        i += rc ? 1 : k * period;
    }
    return 0;
}

static int gives_back_list(const struct tagging *g, const uint32_t *list, uint32_t n,
                           uint64_t j, int inside, size_t *pos);

/* Expands folded symbol sym from step *pos of the recorded steps, in iteration j of the
 * loop right around it (inside: whether there is one), after a loop of `ended` trips in
 * its list (SP_NONE: none): 0 when every tag it gives is the recorded one, else 1 with
 * *pos at the first step that differs. */
static int gives_back(const struct tagging *g, uint32_t sym, uint64_t j, int inside,
                      uint64_t ended, size_t *pos)
{
    const struct sp_sym *s = &g->t->syms[sym];

    if (s->kind == SP_LOOP) {
        for (uint64_t it = 0; it < s->count; it++)
            if (gives_back_list(g, g->t->bodies + s->first, s->n, it, 1, pos))
                return 1;
        return 0;
    }
    for (uint32_t i = 0; i < s->n; i++) {
        const struct sp_event *e = &g->t->events[s->first + i];
        uint64_t at = e->tag_after ? ended : j;
        int known = e->tag_after ? ended != SP_NONE : inside || g->lone[*pos];

        if (e->tag_step && (!known || e->tag + (uint32_t)at * e->tag_step !=
                                          sp_events_of(g->t, g->orig[*pos])[i].tag))
            return 1;
    }
    (*pos)++;
    return 0;
}

static int gives_back_list(const struct tagging *g, const uint32_t *list, uint32_t n,
                           uint64_t j, int inside, size_t *pos)
{
    uint64_t ended = SP_NONE;

    for (uint32_t i = 0; i < n; i++) {
        if (gives_back(g, list[i], j, inside, ended, pos))
            return 1;
        if (g->t->syms[list[i]].kind == SP_LOOP)
            ended = g->t->syms[list[i]].count;
    }
    return 0;
}

/* Folds the rewritten steps: the first step whose tag the folding does not give back,
 * g->n when every one is, or SP_NONE when memory runs out. */
static size_t first_wrong(struct tagging *g, uint8_t ambiguous)
{
    uint32_t *f = malloc(g->n * sizeof(*f));
    size_t nf = g->n, pos = 0;

    if (!f)
        return (size_t)SP_NONE;
    memcpy(f, g->syms, g->n * sizeof(*f));
    if (sp_fold(g->t, f, &nf, ambiguous) != 0) {
        free(f);
        return (size_t)SP_NONE;
    }
    gives_back_list(g, f, (uint32_t)nf, 0, 0, &pos);
    free(f);
    return pos;
}

/* Puts back as recorded the run holding step pos, or every run when none holds it. */
static void undo_run(struct tagging *g, size_t pos)
{
    for (size_t r = 0; r < g->nruns; r++) {
        struct run *u = &g->runs[r];

        if (pos < u->at || pos >= u->end)
            continue;
        memcpy(g->syms + u->at, g->orig + u->at, (u->end - u->at) * sizeof(*g->syms));
        *u = g->runs[--g->nruns];
        return;
    }
    memcpy(g->syms, g->orig, g->n * sizeof(*g->syms));
    g->nruns = 0;
}

/* The body step learned that step `sym` of shape `shape` is at the first iteration of
 * its loop: of that shape and its tags, one of which advances; SP_NONE if none.  Not
 * for a step completing a request (its poster would be rewritten too). */
static uint32_t lone_body(struct tagging *g, uint32_t shape, uint32_t sym)
{
    const struct sp_event *a = sp_events_of(g->t, sym);

    for (uint32_t i = 0; i < g->t->syms[sym].n; i++)
        if (a[i].poster_sym != SP_NONE)
            return SP_NONE;
    for (size_t j = 0; j < g->learned->n; j++) {
        uint32_t l = g->learned->bodies[j], i = 0, n = g->t->syms[l].n, steps = 0;
        const struct sp_event *e = sp_events_of(g->t, l);

        if (sp_shape(&g->sh, l) != shape)
            continue;
        for (; i < n && !e[i].tag_after && e[i].tag == a[i].tag; i++)
            steps += e[i].tag_step != 0;
        if (i == n && steps)
            return l;
    }
    return SP_NONE;
}

/* Whether a run rewritten at the process has step symbol sym in its body. */
static int in_runs(const struct tagging *g, uint32_t sym)
{
    for (size_t r = 0; r < g->nruns; r++)
        for (size_t q = 0; q < g->runs[r].period; q++)
            if (g->syms[g->runs[r].at + q] == sym)
                return 1;
    return 0;
}

/* Rewrites each step left that is a learned body's step at its first iteration, at a
 * process whose runs have no such step, as that step: its loop runs once there (an
 * odd-even transposition's phases at 2 processes, tagged 0 for 2 phases at 4).  It is
 * kept where the folded steps give it back outside loops (gives_back).  0 or -1. */
static int rewrite_lone(struct tagging *g, const uint32_t *h)
{
    for (size_t i = 0; i < g->n; i++) {
        uint32_t l;
        struct run *v;

        if (g->marked[i] || (l = lone_body(g, h[i], g->orig[i])) == SP_NONE || in_runs(g, l))
            continue;
        if (!(v = realloc(g->runs, (g->nruns + 1) * sizeof(*v))))
            return -1;
        g->runs = v;
        g->runs[g->nruns++] = (struct run){i, 1, 1, i + 1};
        g->syms[i] = l;
        g->marked[i] = g->lone[i] = 1;
    }
    return 0;
}

/* Adds the bodies of the runs of 3 iterations or more kept to g->learned.  0 or -1. */
static int learn(struct tagging *g)
{
    struct sp_tag_learned *l = g->learned;

    for (size_t r = 0; l && r < g->nruns; r++)
        for (size_t q = 0; g->runs[r].count >= MIN_ITERATIONS && q < g->runs[r].period; q++) {
            uint32_t sym = g->syms[g->runs[r].at + q], *v;
            size_t j = 0;

            while (j < l->n && l->bodies[j] != sym)
                j++;
            if (j < l->n)
                continue;
            if (l->n == l->cap) {
                if (!(v = realloc(l->bodies, (l->cap ? 2 * l->cap : 16) * sizeof(*v))))
                    return -1;
                l->bodies = v;
                l->cap = l->cap ? 2 * l->cap : 16;
            }
            l->bodies[l->n++] = sym;
        }
    return 0;
}

void sp_tag_learned_free(struct sp_tag_learned *l)
{
    free(l->bodies);
    memset(l, 0, sizeof(*l));
}

static int rewrite_runs(struct tagging *g, uint8_t ambiguous)
{
    uint32_t *h = malloc(g->n * sizeof(*h));
    size_t *scratch = malloc(3 * g->n * sizeof(*scratch)), *cand = NULL, ncand, wrong;
    int rc = -1;

    if (!h || !scratch)
        goto out;
    for (size_t i = 0; i < g->n; i++)
        if ((h[i] = sp_shape(&g->sh, g->orig[i])) == SP_NONE)
            goto out;
    if (shared_shapes(g, h, &cand, &ncand) != 0)
        goto out;
    for (size_t p = 1; p <= SP_MAX_PERIOD && 2 * p <= g->n && ncand; p++)
        if (find_runs(g, h, cand, ncand, p, scratch, scratch + g->n, scratch + 2 * g->n) != 0)
            goto out;
    if (g->learned && g->learned->pairs && g->learned->n && rewrite_lone(g, h) != 0)
        goto out;
    while (g->nruns && (wrong = first_wrong(g, ambiguous)) != g->n) {
        if (wrong == (size_t)SP_NONE)
            goto out;
        undo_run(g, wrong);
    }
    rc = learn(g);
out:
    free(h);
    free(scratch);
    free(cand);
    return rc;
}

int sp_tag_loops(struct sp_table *t, uint32_t *syms, size_t n, uint8_t ambiguous,
                 struct sp_tag_learned *learned)
{
    struct tagging g = {.t = t, .sh = {.t = t}, .syms = syms, .n = n, .learned = learned};
    uint32_t *orig;
    int rc = -1;

    if (!t->tag_loops)
        return 0;
    orig = malloc((n ? n : 1) * sizeof(*orig));

    if (!orig || !(g.marked = calloc(n ? n : 1, 1)) || !(g.lone = calloc(n ? n : 1, 1)))
        goto out;
    memcpy(orig, syms, n * sizeof(*orig));
    g.orig = orig;
    rc = rewrite_runs(&g, ambiguous);
    t->tagged |= g.nruns > 0;
    /* a loop run once or twice here may be one rewritten at other processes */
    if (learned && !g.nruns)
        learned->pending = 1;
    if (rc != 0)
        memcpy(syms, orig, n * sizeof(*syms));
out:
    sp_shapes_free(&g.sh);
    free(g.marked);
    free(g.lone);
    free(g.runs);
    free(orig);
    return rc;
}
