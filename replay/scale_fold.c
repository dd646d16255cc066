/* Folding a process's steps into loops (scale_program_int.h): a run of symbols that
 * repeats back to back becomes one loop symbol with its trip count.  Each pass folds the
 * shortest period found anywhere in the sequence, and passes repeat until nothing folds,
 * so that loops nest (an inner loop's symbol repeats in the outer loop's body): inner
 * loops are folded everywhere before a longer period could swallow some of their
 * iterations unfolded (x x a x x a: the x's first, then (x2 a)2).
 *
 * When the table asks for it (struct sp_table.widest), each pass instead folds the
 * repeats that cover the most recorded steps, each body folded on its own: the outer
 * loops first.  The shortest period first may fold a repeat that straddles the
 * iterations of a longer loop (a time step ending with the call it begins with: the
 * two halves of LAMMPS's time step, x y z then z y x, make x x and z z at every step),
 * whose phase then differs where that loop ends, so that the walks cannot tell one
 * more iteration from what follows the loop. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"

/* The longest body looked for: an iteration of a time step loop has tens of calls. */
#define MAX_PERIOD 512

/* A body of open steps only is no loop (sp_fold). */
static int all_open(const struct sp_table *t, const uint32_t *s, size_t period,
                    uint8_t ambiguous)
{
    for (size_t i = 0; i < period; i++)
        if (!sp_open(t, s[i], ambiguous))
            return 0;
    return 1;
}

static int repeats(const struct sp_table *t, const uint32_t *s, size_t period,
                   uint8_t ambiguous)
{
    return !memcmp(s, s + period, period * sizeof(*s)) && !all_open(t, s, period, ambiguous);
}

/* The shortest period that repeats back to back anywhere in s[0..n-1], 0 if none. */
static size_t shortest_period(const struct sp_table *t, const uint32_t *s, size_t n,
                              uint8_t ambiguous)
{
    size_t best = MAX_PERIOD + 1;

    for (size_t i = 0; i < n; i++)
        for (size_t period = 1; period < best && i + 2 * period <= n; period++)
            if (s[i] == s[i + period] && repeats(t, s + i, period, ambiguous)) {
                best = period;
                break;
            }
    return best > MAX_PERIOD ? 0 : best;
}

/* One pass folding the repeats of one period: returns the number of loops made, or -1. */
static long fold_pass(struct sp_table *t, uint32_t *s, size_t *n, size_t period,
                      uint8_t ambiguous)
{
    size_t i = 0, w = 0;
    long made = 0;

    while (i < *n) {
        size_t k;

        if (i + 2 * period > *n || s[i] != s[i + period] ||
            !repeats(t, s + i, period, ambiguous)) {
            s[w++] = s[i++];
            continue;
        }
        for (k = 2; i + (k + 1) * period <= *n &&
                    repeats(t, s + i + (k - 1) * period, period, ambiguous);)
            k++;
        if (k > UINT32_MAX || (s[w] = sp_table_loop(t, s + i, (uint32_t)period,
                                                    (uint32_t)k)) == SP_NONE)
            return -1;
        w++;
        i += k * period;
        made++;
    }
    *n = w;
    return made;
}

/* --- the widest repeats first */

/* The recorded steps symbol sym stands for: 1 for a step, a loop's count times its
 * body's. */
static uint64_t steps_of(const struct sp_table *t, uint32_t sym)
{
    const struct sp_sym *y = &t->syms[sym];
    uint64_t n = 0;

    if (y->kind != SP_LOOP)
        return 1;
    for (uint32_t i = 0; i < y->n; i++)
        n += steps_of(t, t->bodies[y->first + i]);
    return n * y->count;
}

struct repeat {
    size_t at, period, count;
    uint64_t steps;            /* recorded steps covered */
    size_t last;               /* a repeat found: the last position i of its run with
                                  s[i] = s[i + period] */
};

struct repeats {
    struct repeat *v;
    size_t n, cap;
};

static int add_repeat(struct repeats *l, struct repeat r)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        struct repeat *v = realloc(l->v, cap * sizeof(*v));

        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = r;
    return 0;
}

/* The repeat of period p whose run of positions i with s[i] = s[i + p] is [first,
 * last]: from first, as many whole periods as the run and one period hold; added to l
 * unless it holds fewer than 2 or its body is of open steps only.  -1 when memory runs
 * out. */
static int add_run(const struct sp_table *t, const uint32_t *s, const uint64_t *before,
                   uint8_t ambiguous, size_t p, size_t first, size_t last,
                   struct repeats *l)
{
    struct repeat r = {first, p, (last - first + 1 + p) / p, 0, last};

    if (r.count < 2 || all_open(t, s + first, p, ambiguous))
        return 0;
    r.steps = before[first + r.count * p] - before[first];
    return add_repeat(l, r);
}

/* The last position met of a symbol (next_occurrences); sym SP_NONE: an empty slot. */
struct occurrence {
    uint32_t sym;
    size_t at;
};

/* Into next[i], the next position of s[i]'s symbol in s[0..n-1], SIZE_MAX for none:
 * from the last position back, each symbol's last position met kept in an open
 * addressing table of twice n slots or more (the table's symbols may far outnumber n).
 * -1 when memory runs out. */
static int next_occurrences(const uint32_t *s, size_t n, size_t *next)
{
    size_t cap = sp_slots_for(n);
    struct occurrence *o;

    if (!(o = malloc(cap * sizeof(*o))))
        return -1;
    for (size_t j = 0; j < cap; j++)
        o[j].sym = SP_NONE;
    for (size_t i = n; i-- > 0;) {
        size_t j = sp_slot_of(s[i], cap);

        while (o[j].sym != SP_NONE && o[j].sym != s[i])
            j = (j + 1) & (cap - 1);
        next[i] = o[j].sym == s[i] ? o[j].at : SIZE_MAX;
        o[j] = (struct occurrence){s[i], i};
    }
    free(o);
    return 0;
}

/* Every repeat of s[0..n-1] (before: the recorded steps before each symbol): for each
 * period p, each run of positions i where s[i] = s[i + p] is a repeat from the run's
 * first position (add_run).  The pairs are found from each position's next occurrences
 * of its symbol (within MAX_PERIOD), not by comparing every position at every period.
 * -1 when memory runs out. */
static int find_repeats(const struct sp_table *t, const uint32_t *s, size_t n,
                        const uint64_t *before, uint8_t ambiguous, struct repeats *l)
{
    size_t *next = malloc((n ? n : 1) * sizeof(*next));
    size_t first[MAX_PERIOD + 1], last[MAX_PERIOD + 1];
    int rc = -1;

    if (!next || next_occurrences(s, n, next) != 0)
        goto out;
    memset(last, 0xff, sizeof(last));
    for (size_t i = 0; i < n; i++)
        for (size_t j = next[i]; j != SIZE_MAX && j - i <= MAX_PERIOD && 2 * (j - i) <= n;
             j = next[j]) {
            size_t p = j - i;

            if (last[p] != SIZE_MAX && last[p] + 1 == i) {
                last[p] = i;
                continue;
            }
            if (last[p] != SIZE_MAX &&
                add_run(t, s, before, ambiguous, p, first[p], last[p], l) != 0)
                goto out;
            first[p] = last[p] = i;
        }
    for (size_t p = 1; p <= MAX_PERIOD; p++)
        if (last[p] != SIZE_MAX &&
            add_run(t, s, before, ambiguous, p, first[p], last[p], l) != 0)
            goto out;
    rc = 0;
out:
    free(next);
    return rc;
}

/* The most recorded steps first, then the shorter period, then the leftmost. */
static int by_steps(const void *a, const void *b)
{
    const struct repeat *x = a, *y = b;

    if (x->steps != y->steps)
        return x->steps > y->steps ? -1 : 1;
    if (x->period != y->period)
        return x->period < y->period ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

static int by_position(const void *a, const void *b)
{
    const struct repeat *x = a, *y = b;

    return (x->at > y->at) - (x->at < y->at);
}

/* What a pass has done with each position (struct repeat): kept in a repeat to fold, or
 * left for the next pass, inside a repeat that overlapped one kept. */
enum { FREE, TAKEN, DEFERRED };

/* Whether positions [at, at + len) of a pass are all FREE. */
static int all_free(const uint8_t *mark, size_t at, size_t len)
{
    for (size_t i = at; i < at + len; i++)
        if (mark[i] != FREE)
            return 0;
    return 1;
}

/* A number the rotations of body[0..period-1] share (a sum over its symbols, each
 * mixed as splitmix64 does): every window of period steps in a run of that period is
 * a rotation of the run's first, so that a body's copies are only in the runs of its
 * period with its number. */
static uint64_t rotation_key(const uint32_t *body, size_t period)
{
    uint64_t key = 0;

    for (size_t i = 0; i < period; i++) {
        uint64_t x = body[i] + 0x9e3779b97f4a7c15u;

        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
        key += x ^ (x >> 31);
    }
    return key;
}

/* A repeat found, by its period and its body's rotation key: the runs where a body's
 * copies may be, left to right (by_key). */
struct keyed {
    size_t period;
    uint64_t key;
    size_t at, rep;            /* rep: the repeat's index in the list */
    size_t first;              /* the first of the keyed with this period and key */
};

static int by_key(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;

    if (x->period != y->period)
        return x->period < y->period ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

/* Into *keyed, l's repeats by period, key and position, each with the first of its
 * period and key, and into where[i] the place of l->v[i].  -1 when memory runs out. */
static int key_repeats(const uint32_t *s, const struct repeats *l, struct keyed **keyed,
                       size_t **where)
{
    size_t n = l->n ? l->n : 1;
    struct keyed *k = malloc(n * sizeof(*k));

    *keyed = k;
    if (!k || !(*where = malloc(n * sizeof(**where))))
        return -1;
    for (size_t i = 0; i < l->n; i++)
        k[i] = (struct keyed){l->v[i].period, rotation_key(s + l->v[i].at, l->v[i].period),
                              l->v[i].at, i, 0};
    qsort(k, l->n, sizeof(*k), by_key);
    for (size_t i = 0; i < l->n; i++) {
        k[i].first = i && k[i - 1].period == k[i].period && k[i - 1].key == k[i].key
                         ? k[i - 1].first : i;
        (*where)[k[i].rep] = i;
    }
    return 0;
}

/* The copies of body (of r's period) in run r, two or more back to back on free
 * positions, from *from on, as scanning every position from *from leftmost first
 * finds them: each added to kept and its positions TAKEN, *from past it.  A copy
 * begins where r's window is body, at the phases found first; copies follow each other
 * while their steps are in the run (s[i] = s[i + period] up to r->last) and free (up to
 * the first position not free, found once for the run, left to right).  -1 when
 * memory runs out. */
static int take_copies(const uint32_t *s, const struct repeat *r, const uint32_t *body,
                       uint8_t *mark, size_t *from, struct repeats *kept)
{
    size_t p = r->period, end = r->last + p + 1, at = *from > r->at ? *from : r->at;
    size_t phase = (at - r->at) % p, busy = at;
    uint8_t match[MAX_PERIOD];
    int any = 0;

    if (at + p > r->last + 1)
        return 0;
    for (size_t f = 0; f < p; f++)
        any |= match[f] = s[r->at + f] == body[0] &&
                          !memcmp(s + r->at + f, body, p * sizeof(*s));
    for (size_t j = at; any && j + p <= r->last + 1;) {
        size_t k = 0;

        if (match[phase]) {
            if (busy < j)
                busy = j;
            while (busy < end && mark[busy] == FREE)
                busy++;
            k = (busy - j) / p;
        }
        if (k < 2) {
            j++;
            phase = phase + 1 == p ? 0 : phase + 1;
            continue;
        }
        if (add_repeat(kept, (struct repeat){j, p, k, 0, 0}) != 0)
            return -1;
        memset(mark + j, TAKEN, k * p);
        j += k * p;            /* of the same phase */
        *from = j;
    }
    return 0;
}

/* Into kept (by position), the repeats a pass folds: of l's, the widest first (struct
 * repeat), each on free positions only, with every other back-to-back repeat of its
 * body, leftmost first, on free positions, so that its copies elsewhere fold in the same
 * phase.  A repeat that overlaps one kept is left for the next pass, and so are the
 * narrower ones within it: where the loop kept ends (LAMMPS's time steps after their
 * last exchange), the repeat it overlapped has begun inside it, in another phase, and
 * begins after it once it is a loop.  A body's copies are looked for in the runs of its
 * period and rotation key only (key_repeats), not at every position: as many scans of
 * the whole pass as bodies kept grew with the recording.  -1 when memory runs out. */
static int keep_disjoint(const uint32_t *s, struct repeats *l, uint8_t *mark,
                         struct repeats *kept)
{
    struct keyed *keyed = NULL;
    size_t *where = NULL;
    int rc = -1;

    qsort(l->v, l->n, sizeof(*l->v), by_steps);
    if (key_repeats(s, l, &keyed, &where) != 0)
        goto out;
    for (size_t i = 0; i < l->n; i++) {
        const struct repeat *r = &l->v[i];
        size_t len = r->count * r->period, from = 0;

        if (!all_free(mark, r->at, len)) {
            for (size_t j = r->at; j < r->at + len; j++)
                mark[j] = mark[j] == FREE ? DEFERRED : mark[j];
            continue;
        }
        for (size_t b = keyed[where[i]].first;
             b < l->n && keyed[b].first == keyed[where[i]].first; b++)
            if (take_copies(s, &l->v[keyed[b].rep], s + r->at, mark, &from, kept) != 0)
                goto out;
    }
    qsort(kept->v, kept->n, sizeof(*kept->v), by_position);
    rc = 0;
out:
    free(keyed);
    free(where);
    return rc;
}

static int fold_widest(struct sp_table *t, uint32_t *s, size_t *n, uint8_t ambiguous);

/* Replaces each repeat v[0..kept-1] (by position) of s with one loop of its body, the
 * body folded on its own (into scratch).  -1 when memory runs out. */
static int replace_repeats(struct sp_table *t, uint32_t *s, size_t *n,
                           const struct repeat *v, size_t kept, uint32_t *scratch,
                           uint8_t ambiguous)
{
    size_t i = 0, w = 0;

    for (size_t k = 0; k < kept; k++) {
        size_t nb = v[k].period;

        while (i < v[k].at)
            s[w++] = s[i++];
        memcpy(scratch, s + v[k].at, nb * sizeof(*s));
        if (fold_widest(t, scratch, &nb, ambiguous) != 0 || v[k].count > UINT32_MAX ||
            (s[w++] = sp_table_loop(t, scratch, (uint32_t)nb, (uint32_t)v[k].count)) ==
                SP_NONE)
            return -1;
        i = v[k].at + v[k].count * v[k].period;
    }
    while (i < *n)
        s[w++] = s[i++];
    *n = w;
    return 0;
}

/* Each pass folds the repeats that cover the most recorded steps, and then those
 * overlapping none of them, each body folded on its own: a repeat that would straddle
 * the iterations of a wider one is not made.  Passes repeat while something folds (the
 * loops just made may repeat in turn). */
static int fold_widest(struct sp_table *t, uint32_t *s, size_t *n, uint8_t ambiguous)
{
    struct repeats l = {0}, kept = {0};
    uint64_t *before = NULL;
    uint8_t *mark = NULL;
    uint32_t *scratch = NULL;
    int rc = -1;

    do {
        free(before);
        free(mark);
        free(scratch);
        l.n = kept.n = 0;
        if (!(before = malloc((*n + 1) * sizeof(*before))) || !(mark = calloc(*n + 1, 1)) ||
            !(scratch = malloc((MAX_PERIOD + 1) * sizeof(*scratch))))
            goto out;
        before[0] = 0;
        for (size_t i = 0; i < *n; i++)
            before[i + 1] = before[i] + steps_of(t, s[i]);
        if (find_repeats(t, s, *n, before, ambiguous, &l) != 0 ||
            keep_disjoint(s, &l, mark, &kept) != 0 ||
            (kept.n && replace_repeats(t, s, n, kept.v, kept.n, scratch, ambiguous) != 0))
            goto out;
    } while (kept.n);
    rc = 0;
out:
    free(l.v);
    free(kept.v);
    free(before);
    free(mark);
    free(scratch);
    return rc;
}

int sp_fold(struct sp_table *t, uint32_t *syms, size_t *n, uint8_t ambiguous)
{
    size_t period;

    if (t->widest)
        return fold_widest(t, syms, n, ambiguous);

    while ((period = shortest_period(t, syms, *n, ambiguous)) > 0)
        if (fold_pass(t, syms, n, period, ambiguous) < 0)
            return -1;
    return 0;
}
