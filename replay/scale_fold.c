/* Folding a process's steps into loops (scale_program_int.h): a run of symbols that
 * repeats back to back becomes one loop symbol with its trip count.  Each pass folds the
 * shortest period found anywhere in the sequence, and passes repeat until nothing folds,
 * so that loops nest (an inner loop's symbol repeats in the outer loop's body): inner
 * loops are folded everywhere before a longer period could swallow some of their
 * iterations unfolded (x x a x x a: the x's first, then (x2 a)2).
 *
 * When the table asks for it (struct sp_table.widest), each pass instead folds the
 * repeat that covers the most recorded steps, its body folded on its own: the outer
 * loops first.  The shortest period first may fold a repeat that straddles the
 * iterations of a longer loop (a time step ending with the call it begins with: the
 * two halves of LAMMPS's time step, x y z then z y x, make x x and z z at every step),
 * whose phase then differs where that loop ends, so that the walks cannot tell one
 * more iteration from what follows the loop. */
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

/* --- the widest repeat first */

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
    uint64_t steps;            /* recorded steps covered; 0: none found */
};

/* Keeps the repeat of s from at, period long and count times, in *best when it covers
 * more recorded steps (before: their running sum over s), the shorter period first in
 * a tie (tried first), then the leftmost. */
static void consider(const struct sp_table *t, const uint32_t *s, const uint64_t *before,
                     uint8_t ambiguous, struct repeat r, struct repeat *best)
{
    r.steps = before[r.at + r.count * r.period] - before[r.at];
    if (r.steps > best->steps && !all_open(t, s + r.at, r.period, ambiguous))
        *best = r;
}

/* The repeat of s[0..n-1] that covers the most recorded steps: for each period, every
 * run of positions i where s[i] = s[i + period] is a repeat from its first position of
 * as many whole periods as the run and one period hold. */
static struct repeat widest_repeat(const struct sp_table *t, const uint32_t *s, size_t n,
                                   const uint64_t *before, uint8_t ambiguous)
{
    struct repeat best = {0};

    for (size_t period = 1; period <= MAX_PERIOD && 2 * period <= n; period++) {
        size_t run = 0;

        for (size_t i = 0; i + period <= n; i++) {
            if (i + period < n && s[i] == s[i + period]) {
                run++;
                continue;
            }
            if (run >= period)
                consider(t, s, before, ambiguous,
                         (struct repeat){i - run, period, (run + period) / period, 0}, &best);
            run = 0;
        }
    }
    return best;
}

static int fold_widest(struct sp_table *t, uint32_t *s, size_t *n, uint8_t ambiguous);

/* Folds every back-to-back repeat of body[0..period-1] in s, leftmost first, into
 * loops of body folded (folded[0..nf-1]).  -1 when memory runs out. */
static int fold_body(struct sp_table *t, uint32_t *s, size_t *n, const uint32_t *body,
                     size_t period, const uint32_t *folded, size_t nf)
{
    size_t i = 0, w = 0;

    while (i < *n) {
        size_t k = 0;

        while (i + (k + 1) * period <= *n &&
               !memcmp(s + i + k * period, body, period * sizeof(*s)))
            k++;
        if (k < 2) {
            s[w++] = s[i++];
            continue;
        }
        if (k > UINT32_MAX ||
            (s[w] = sp_table_loop(t, folded, (uint32_t)nf, (uint32_t)k)) == SP_NONE)
            return -1;
        w++;
        i += k * period;
    }
    *n = w;
    return 0;
}

static int fold_widest(struct sp_table *t, uint32_t *s, size_t *n, uint8_t ambiguous)
{
    uint64_t *before = NULL;
    uint32_t *body = NULL;
    int rc = -1;

    for (;;) {
        struct repeat r;
        size_t nf;

        free(before);
        if (!(before = malloc((*n + 1) * sizeof(*before))))
            break;
        before[0] = 0;
        for (size_t i = 0; i < *n; i++)
            before[i + 1] = before[i] + steps_of(t, s[i]);
        if ((r = widest_repeat(t, s, *n, before, ambiguous)).steps == 0) {
            rc = 0;
            break;
        }
        /* the body as recorded, to find its repeats, then folded on its own */
        free(body);
        if (!(body = malloc(2 * r.period * sizeof(*body))))
            break;
        memcpy(body, s + r.at, r.period * sizeof(*body));
        memcpy(body + r.period, s + r.at, r.period * sizeof(*body));
        nf = r.period;
        if (fold_widest(t, body + r.period, &nf, ambiguous) != 0 ||
            fold_body(t, s, n, body, r.period, body + r.period, nf) != 0)
            break;
    }
    free(before);
    free(body);
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
