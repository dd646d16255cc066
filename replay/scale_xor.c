/* Butterflies (scale_program_int.h, sp_xor_*): a recursive doubling, a hypercube
 * exchange, the reductions of the NAS benchmarks, where stage i of log2(P) exchanges
 * with the process whose rank is the caller's XOR 2^i.  Recorded at 2, 4 and 8
 * processes, its partners are the neighbours of MPI_Dims_create's 2 x 1 x 1, 2 x 2 x 1
 * and 2 x 2 x 2 grids, and recorded at 16 they fit no grid: here every message on the
 * world is taken as a stage (PZ_SCALE_PEER_XOR, the bit of its partner), and each run
 * of back-to-back stages whose bit goes up or down by one from one iteration to the
 * next, from bit b, is rewritten into the same symbols in every iteration (the bit as b
 * plus or less the iteration; going down, as the bit of its last stage plus the
 * iterations left, so that its first bit follows from the loop's trip count, which the
 * law says at any count, whether the run begins at the rank's highest bit or at the
 * highest of a row of NPB CG's grid; each tag as its first value and its step), which
 * sp_fold folds into a loop of as many iterations as stages.  A run of one stage (at 2
 * processes) is the body the others show once: its tags advance, and its bits go, as
 * the runs of several stages at other counts or processes show (sp_xor_learn). */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "scale_program_int.h"

/* A run of stages: from `at`, `count` iterations of `period` steps, the first of bit
 * `bit`, the next of bit + dir (1: up, -1: down). */
struct stages {
    size_t at, period, count;
    int bit, dir;
};

struct sp_xor {
    struct sp_table *t;
    struct sp_shapes sh;       /* each step without its bits and tags */
    uint32_t *tag_step;        /* [event of shapes]: the step its tag advances by */
    uint8_t *known;            /* ... learned from a run of several stages */
    uint32_t captags;
    int8_t *dir_of;            /* [shape of a run's first step]: its bits' direction, 1 up,
                                  -1 down, learned from a run of several stages; 0 */
    uint32_t capdirs;
    struct stages *found;      /* the runs of stages the last sp_xor_rewrite rewrote, in
                                  order (sp_xor_enclose, sp_xor_starts) */
    uint32_t nfound, capfound;
};

struct sp_xor *sp_xor_new(struct sp_table *t)
{
    struct sp_xor *x = calloc(1, sizeof(*x));

    if (x) {
        x->t = t;
        x->sh.t = t;
        x->sh.without_bits = 1;
    }
    return x;
}

void sp_xor_free(struct sp_xor *x)
{
    if (!x)
        return;
    sp_shapes_free(&x->sh);
    free(x->tag_step);
    free(x->known);
    free(x->dir_of);
    free(x->found);
    free(x);
}

/* The world rank of the peer of event e of process proc, -1 when it is on another
 * communicator or has none in the grid. */
static int partner_rank(const struct pz_scale_run *run, int proc, const struct sp_event *e)
{
    if (e->comm.kind != PZ_SCALE_COMM_WORLD)
        return -1;
    return sp_offset_rank(run, proc, &e->comm, &e->peer);
}

/* The partner of event e of process proc as its bit into *bit: 0, or 1 when it is not
 * rank XOR 2^i on the world. */
static int partner_bit(const struct pz_scale_run *run, int proc, const struct sp_event *e,
                       int *bit)
{
    int q = partner_rank(run, proc, e);

    if (q < 0 || q == proc || ((q ^ proc) & ((q ^ proc) - 1)))
        return 1;
    for (*bit = 0; (1 << *bit) != (q ^ proc); (*bit)++)
        ;
    return 0;
}

/* Is the peer of event e of process proc its transpose partner (sp_xor_candidate took
 * such a message only in a step whose every message at every process goes to it). */
static int to_transpose_partner(const struct pz_scale_run *run, int proc,
                                const struct sp_event *e)
{
    int l = 0, q = partner_rank(run, proc, e);

    while ((1 << l) < run->nprocs)
        l++;
    return q >= 0 && (1 << l) == run->nprocs && q == sp_transpose_partner(proc, l);
}

/* Step s of syms (orig: as recorded) with its stages' partners as bits (the first of an
 * ordered pair marked so, scale_order.c), the messages to the transpose partner as such,
 * and its posters as converted; into syms[s].  0, 1 (not a butterfly's), -1 (memory). */
static int convert_step(struct sp_table *t, const struct pz_scale_run *run, int proc,
                        const uint32_t *orig, uint32_t *syms, size_t s)
{
    struct sp_event ev[SP_MAX_EVENTS];
    struct sp_sym proto = t->syms[orig[s]];
    int changed = 0;

    if (proto.kind != SP_STEP)
        return 0;
    /* a step too large to convert would keep its partners as the grid's neighbours at P */
    for (uint32_t i = 0; proto.n > SP_MAX_EVENTS && i < proto.n; i++)
        if (sp_events_of(t, orig[s])[i].peer.kind == PZ_SCALE_PEER_OFFSET)
            return 1;
    if (proto.n > SP_MAX_EVENTS)
        return 0;
    for (uint32_t i = 0; i < proto.n; i++) {
        uint32_t poster;
        int bit;

        ev[i] = sp_events_of(t, orig[s])[i];
        poster = ev[i].poster_sym;
        for (size_t j = s; poster != SP_NONE && j-- > 0;)
            if (orig[j] == poster) {
                changed |= syms[j] != poster;
                ev[i].poster_sym = syms[j];
                break;
            }
        if (ev[i].peer.kind != PZ_SCALE_PEER_OFFSET)
            continue;
        if (partner_bit(run, proc, &ev[i], &bit) == 0 && t->by_tree) {
            int role = sp_tree_role(proc, run->nprocs, bit);

            if (role < 0)
                return 1;
            memset(&ev[i].peer, 0, sizeof(ev[i].peer));
            ev[i].peer.kind = role ? PZ_SCALE_PEER_TREE : PZ_SCALE_PEER_XOR;
            ev[i].peer.rank = role ? 0 : bit;
        } else if (partner_bit(run, proc, &ev[i], &bit) == 0) {
            memset(&ev[i].peer, 0, sizeof(ev[i].peer));
            ev[i].peer.kind = PZ_SCALE_PEER_XOR;
            ev[i].peer.rank = bit;
            if (run->procs[proc].steps[s].ordered)
                ev[i].peer.off[0] = PZ_SCALE_XOR_ORDERED;
        } else if (to_transpose_partner(run, proc, &ev[i])) {
            memset(&ev[i].peer, 0, sizeof(ev[i].peer));
            ev[i].peer.kind = PZ_SCALE_PEER_TRANSPOSE;
        } else {
            return 1;
        }
        changed = 1;
    }
    if (changed && (syms[s] = sp_table_step(t, &proto, ev)) == SP_NONE)
        return -1;
    return 0;
}

int sp_xor_convert(struct sp_table *t, const struct pz_scale_run *run, int proc,
                   uint32_t *syms, size_t n)
{
    uint32_t *orig = malloc((n ? n : 1) * sizeof(*orig));
    int rc = 0;

    if (!orig)
        return -1;
    memcpy(orig, syms, n * sizeof(*orig));
    for (size_t s = 0; rc == 0 && s < n; s++)
        rc = convert_step(t, run, proc, orig, syms, s);
    free(orig);
    return rc;
}

/* The bit of step sym's stages: -1 when it has none, -2 when its events' differ. */
static int bit_of(const struct sp_table *t, uint32_t sym)
{
    const struct sp_sym *s = &t->syms[sym];
    int bit = -1;

    if (s->kind != SP_STEP)
        return -1;
    for (uint32_t i = 0; i < s->n; i++) {
        const struct sp_event *e = &sp_events_of(t, sym)[i];

        if (e->peer.kind != PZ_SCALE_PEER_XOR)
            continue;
        if (bit >= 0 && bit != e->peer.rank)
            return -2;
        bit = e->peer.rank;
    }
    return bit;
}


/* Is iteration k of run r (its at, period, bit and dir) iteration 0 with its bits
 * advanced by k: the same shapes, each stage of bit bit + k dir, the other steps without
 * stages.  -1 when memory runs out. */
static int iteration_alike(struct sp_xor *x, const uint32_t *syms, const struct stages *r,
                           size_t k)
{
    size_t at = r->at, period = r->period;
    int bit = r->bit;

    for (size_t q = 0; q < period; q++) {
        uint32_t a = syms[at + q], b = syms[at + k * period + q], sa, sb;
        int ba = bit_of(x->t, a), bb = bit_of(x->t, b);

        if ((sa = sp_shape(&x->sh, a)) == SP_NONE || (sb = sp_shape(&x->sh, b)) == SP_NONE)
            return -1;
        if (sa != sb || ba == -2 || (ba < 0) != (bb < 0) ||
            (ba >= 0 && (ba != bit || bb != bit + (int)k * r->dir)))
            return 0;
    }
    return 1;
}

/* The run of stages beginning at syms[at] (a step of bit >= 0): the shortest period
 * after which the first step comes back one bit up or down and every iteration is
 * alike, for as many iterations as follow; else one iteration, the steps from `at` that
 * are stages of the same bit or complete a request posted since `at`, up to the first
 * step again.  0, -1 (memory). */
static int find_stages(struct sp_xor *x, const uint32_t *syms, size_t n, size_t at,
                       struct stages *r)
{
    uint32_t first = sp_shape(&x->sh, syms[at]);

    r->at = at;
    r->bit = bit_of(x->t, syms[at]);
    r->count = 1;
    r->dir = 1;
    if (first == SP_NONE)
        return -1;
    for (size_t p = 1; p <= SP_MAX_PERIOD && at + 2 * p <= n; p++) {
        uint32_t s = sp_shape(&x->sh, syms[at + p]);
        int alike;

        if (s == SP_NONE)
            return -1;
        if (s != first || abs(bit_of(x->t, syms[at + p]) - r->bit) != 1)
            continue;
        r->period = p;
        r->dir = bit_of(x->t, syms[at + p]) - r->bit;
        if ((alike = iteration_alike(x, syms, r, 1)) < 0)
            return -1;
        if (!alike)
            continue;
        r->count = 2;
        while (at + (r->count + 1) * p <= n && (alike = iteration_alike(x, syms, r, r->count)) == 1)
            r->count++;
        return alike < 0 ? -1 : 0;
    }
    r->period = 1;
    r->dir = 1;
    while (at + r->period < n) {
        uint32_t next = syms[at + r->period];
        const struct sp_sym *s = &x->t->syms[next];
        int b = bit_of(x->t, next), posted = 0;

        for (uint32_t i = 0; s->kind == SP_STEP && i < s->n && !posted; i++) {
            uint32_t poster = sp_events_of(x->t, next)[i].poster_sym;

            for (size_t j = at; poster != SP_NONE && j < at + r->period && !posted; j++)
                posted = syms[j] == poster;
        }
        /* the first step again begins the stage of the next pass; a binomial tree's
           stages of one bit in a row are a broadcast's and a reduction's, two loops */
        if (s->kind != SP_STEP || s->step_kind != PZ_SCALE_CALL ||
            ((b != r->bit || x->t->by_tree) && !posted) || next == syms[at])
            break;
        r->period++;
    }
    return 0;
}

/* A step of its own shape (too many events) has no place of its tags. */
#define NO_PLACE (SP_NONE - 1)

/* The place of the step-of-shapes event i of step sym (x->tag_step's index), growing
 * the arrays; NO_PLACE for a step of its own shape; SP_NONE when memory runs out. */
static uint32_t tag_place(struct sp_xor *x, uint32_t sym, uint32_t i)
{
    uint32_t s = sp_shape(&x->sh, sym), at;

    if (s == SP_NONE)
        return SP_NONE;
    if (s & SP_OWN_SHAPE)
        return NO_PLACE;
    at = x->sh.table.syms[s].first + i;
    if (at >= x->captags) {
        uint32_t cap = x->sh.table.nevents > at ? x->sh.table.nevents : at + 1;
        uint32_t *v = realloc(x->tag_step, (size_t)cap * sizeof(*v));
        uint8_t *k;

        if (!v)
            return SP_NONE;
        x->tag_step = v;
        if (!(k = realloc(x->known, cap)))
            return SP_NONE;
        memset(k + x->captags, 0, cap - x->captags);
        x->known = k;
        x->captags = cap;
    }
    return at;
}

/* Does every tag of the run advance by the same step from one iteration to the next. */
static int tags_advance(const struct sp_xor *x, const uint32_t *syms, const struct stages *r)
{
    for (size_t q = 0; q < r->period; q++) {
        const struct sp_sym *s = &x->t->syms[syms[r->at + q]];

        for (uint32_t i = 0; s->kind == SP_STEP && i < s->n; i++) {
            uint32_t t0 = sp_events_of(x->t, syms[r->at + q])[i].tag,
                     step = sp_events_of(x->t, syms[r->at + r->period + q])[i].tag - t0;

            for (size_t k = 2; k < r->count; k++)
                if (sp_events_of(x->t, syms[r->at + k * r->period + q])[i].tag !=
                    t0 + (uint32_t)k * step)
                    return 0;
        }
    }
    return 1;
}

/* Into x->dir_of, the direction of run r's bits, by the shape of its first step.  0, or
 * -1 when memory runs out. */
static int learn_direction(struct sp_xor *x, const uint32_t *syms, const struct stages *r)
{
    uint32_t s = sp_shape(&x->sh, syms[r->at]);

    if (s == SP_NONE)
        return -1;
    if (s & SP_OWN_SHAPE)
        return 0;
    if (s >= x->capdirs) {
        uint32_t cap = x->sh.table.nsyms > s ? x->sh.table.nsyms : s + 1;
        int8_t *v = realloc(x->dir_of, cap);

        if (!v)
            return -1;
        memset(v + x->capdirs, 0, cap - x->capdirs);
        x->dir_of = v;
        x->capdirs = cap;
    }
    x->dir_of[s] = (int8_t)r->dir;
    return 0;
}

/* The direction learned for a run whose first step is sym (1 when none was). */
static int direction(struct sp_xor *x, uint32_t sym)
{
    uint32_t s = sp_shape(&x->sh, sym);

    return s != SP_NONE && s < x->capdirs && x->dir_of[s] ? x->dir_of[s] : 1;
}

int sp_xor_learn(struct sp_xor *x, const uint32_t *syms, size_t n)
{
    for (size_t at = 0; at < n;) {
        struct stages r;
        int advance;

        if (bit_of(x->t, syms[at]) < 0) {
            at++;
            continue;
        }
        if (find_stages(x, syms, n, at, &r) != 0 ||
            (r.count > 1 && learn_direction(x, syms, &r) != 0))
            return -1;
        advance = r.count > 1 && tags_advance(x, syms, &r);
        for (size_t q = 0; advance && q < r.period; q++) {
            const struct sp_sym *s = &x->t->syms[syms[at + q]];

            for (uint32_t i = 0; s->kind == SP_STEP && i < s->n; i++) {
                uint32_t place = tag_place(x, syms[at + q], i), step;

                if (place == SP_NONE)
                    return -1;
                if (place == NO_PLACE)
                    continue;
                step = sp_events_of(x->t, syms[at + r.period + q])[i].tag -
                       sp_events_of(x->t, syms[at + q])[i].tag;
                x->tag_step[place] = step;
                x->known[place] = 1;
            }
        }
        at += r.period * r.count;
    }
    return 0;
}

/* The tag step of event i of body step sym in run r: from its next iteration, else as
 * learned, else 0. */
static uint32_t tag_step_of(struct sp_xor *x, const uint32_t *syms, const struct stages *r,
                            size_t q, uint32_t i)
{
    uint32_t place;

    if (r->count > 1)
        return sp_events_of(x->t, syms[r->at + r->period + q])[i].tag -
               sp_events_of(x->t, syms[r->at + q])[i].tag;
    place = tag_place(x, syms[r->at + q], i);
    return place < x->captags && x->known[place] ? x->tag_step[place] : 0;
}

/* The symbol event ev of body position q of run r names as its poster (ev: iteration
 * 0's, later: the same event in iteration 1 when there is one, whose poster may be in
 * iteration 0, posted there for the next): a step of the run by its rewritten symbol, a
 * step before it as rewritten (syms; orig: as recorded), else ev's own.  SP_NONE: none
 * can be made (memory, or posters of each other). */
static uint32_t poster_of(struct sp_xor *x, const uint32_t *orig, const uint32_t *syms,
                          const struct stages *r, size_t q, const struct sp_event *ev,
                          const struct sp_event *later, uint32_t *done);

static uint32_t rewritten(struct sp_xor *x, const uint32_t *orig, const uint32_t *syms,
                          const struct stages *r, size_t q, uint32_t *done);

static uint32_t poster_of(struct sp_xor *x, const uint32_t *orig, const uint32_t *syms,
                          const struct stages *r, size_t q, const struct sp_event *ev,
                          const struct sp_event *later, uint32_t *done)
{
    size_t j = later ? sp_poster_at(syms, r->at, r->at + r->period + q, later->poster_sym)
                     : (size_t)SP_NONE;

    if (j == (size_t)SP_NONE && (j = sp_poster_at(syms, r->at, r->at + q, ev->poster_sym)) ==
                                    (size_t)SP_NONE) {
        j = sp_poster_at(orig, 0, r->at, ev->poster_sym);
        return j == (size_t)SP_NONE ? ev->poster_sym : syms[j];
    }
    return rewritten(x, orig, syms, r, (j - r->at) % r->period, done);
}

/* The rewritten symbol of body position q of run r (done[q], SP_NONE while
 * not made, SP_NONE - 1 while being made): iteration 0's events, each stage's bit the
 * run's first, or when the bits go down its last e as -1 - e (PZ_SCALE_PEER_XOR), each
 * tag advancing by its step, each poster by its rewritten symbol (poster_of).  SP_NONE:
 * none can be made (memory, or posters of each other). */
static uint32_t rewritten(struct sp_xor *x, const uint32_t *orig, const uint32_t *syms,
                          const struct stages *r, size_t q, uint32_t *done)
{
    struct sp_event ev[SP_MAX_EVENTS];
    struct sp_sym proto = x->t->syms[syms[r->at + q]];

    if (done[q] != SP_NONE)
        return done[q] == SP_NONE - 1 ? SP_NONE : done[q];
    if (proto.kind != SP_STEP || proto.n > SP_MAX_EVENTS)
        return done[q] = syms[r->at + q];
    done[q] = SP_NONE - 1;
    for (uint32_t i = 0; i < proto.n; i++) {
        const struct sp_event *later =
            r->count > 1 ? &sp_events_of(x->t, syms[r->at + r->period + q])[i] : NULL;

        ev[i] = sp_events_of(x->t, syms[r->at + q])[i];
        ev[i].tag_step = tag_step_of(x, syms, r, q, i);
        if (ev[i].peer.kind == PZ_SCALE_PEER_XOR && r->dir < 0)
            ev[i].peer.rank = -1 - (ev[i].peer.rank - (int32_t)(r->count - 1));
        if ((ev[i].poster_sym != SP_NONE || (later && later->poster_sym != SP_NONE)) &&
            (ev[i].poster_sym = poster_of(x, orig, syms, r, q, &ev[i], later,
                                          done)) == SP_NONE)
            return SP_NONE;
    }
    return done[q] = sp_table_step(x->t, &proto, ev);
}

/* Run r kept among x->found.  0 or -1 (memory). */
static int keep_run(struct sp_xor *x, const struct stages *r)
{
    if (pz_grow((void **)&x->found, &x->capfound, x->nfound, sizeof(*x->found)) != 0)
        return -1;
    x->found[x->nfound++] = *r;
    return 0;
}

/* The runs of stages of syms[0..n-1] rewritten (x: the struct sp_xor; orig: as
 * converted; marked: the steps rewritten), an sp_run_rewriter.  0 or -1 (memory). */
static int rewrite_runs(void *ctx, const uint32_t *orig, uint32_t *syms, size_t n,
                        uint8_t *marked)
{
    struct sp_xor *x = ctx;
    uint32_t done[SP_MAX_PERIOD];

    for (size_t at = 0; at < n;) {
        struct stages r;
        size_t q;

        if (bit_of(x->t, syms[at]) < 0) {
            at++;
            continue;
        }
        if (find_stages(x, syms, n, at, &r) != 0)
            return -1;
        if (r.period > SP_MAX_PERIOD || (r.count > 1 && !tags_advance(x, syms, &r))) {
            at += r.period * r.count;
            continue;
        }
        if (r.count == 1)
            r.dir = direction(x, syms[at]);
        memset(done, 0xff, r.period * sizeof(*done));
        for (q = 0; q < r.period && rewritten(x, orig, syms, &r, q, done) != SP_NONE;
             q++)
            ;
        /* a run whose steps are posters of each other is left as converted */
        if (q < r.period) {
            at += r.period * r.count;
            continue;
        }
        for (size_t k = 0; k < r.count; k++)
            memcpy(syms + at + k * r.period, done, r.period * sizeof(*done));
        memset(marked + at, 1, r.period * r.count);
        if (keep_run(x, &r) != 0)
            return -1;
        at += r.period * r.count;
    }
    return 0;
}

int sp_xor_rewrite(struct sp_xor *x, uint32_t *syms, size_t n)
{
    x->nfound = 0;
    return sp_rewrite_runs(x->t, syms, n, rewrite_runs, x);
}

/* Whether the run r of syms is its first iteration's symbols in every iteration. */
static int iterations_same(const uint32_t *syms, const struct stages *r)
{
    for (size_t k = 1; k < r->count; k++)
        if (memcmp(syms + r->at, syms + r->at + k * r->period, r->period * sizeof(*syms)))
            return 0;
    return 1;
}

/* Each run of stages of at least `least` iterations in syms[0..*n-1] replaced by its loop
 * symbol, of its count, or of count 0 when tree (a binomial tree's children, whatever
 * their number).  0 or -1 (memory). */
static int enclose(struct sp_xor *x, uint32_t *syms, size_t *n, size_t least, int tree)
{
    size_t w = 0, i = 0;

    for (uint32_t f = 0; f < x->nfound; f++) {
        const struct stages *r = &x->found[f];
        uint32_t loop;

        if (r->count < least || r->at < i || r->at + r->period * r->count > *n ||
            !iterations_same(syms, r))
            continue;
        while (i < r->at)
            syms[w++] = syms[i++];
        if ((loop = sp_table_loop(x->t, syms + r->at, (uint32_t)r->period,
                                  tree ? 0 : (uint32_t)r->count)) == SP_NONE)
            return -1;
        syms[w++] = loop;
        i = r->at + r->period * r->count;
    }
    while (i < *n)
        syms[w++] = syms[i++];
    *n = w;
    return 0;
}

int sp_xor_enclose(struct sp_xor *x, uint32_t *syms, size_t *n)
{
    return enclose(x, syms, n, 2, 0);
}

int sp_tree_enclose(struct sp_xor *x, int proc, int nprocs, uint32_t *syms, size_t *n)
{
    for (uint32_t f = 0; f < x->nfound; f++) {
        const struct stages *r = &x->found[f];
        int last = r->bit + r->dir * (int)(r->count - 1);

        /* the children from bit 0 up, or down to bit 0, every one */
        if ((int)r->count != sp_tree_children(proc, nprocs) ||
            (r->dir > 0 ? r->bit : last) != 0)
            return 1;
    }
    return enclose(x, syms, n, 1, 1);
}

void sp_xor_starts(const struct sp_xor *x, uint8_t *starts)
{
    for (uint32_t f = 0; f < x->nfound; f++)
        starts[x->found[f].at] = 1;
}
