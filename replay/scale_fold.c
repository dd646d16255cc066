/* Folding a process's steps into loops (scale_program_int.h): a run of symbols that
 * repeats back to back becomes one loop symbol with its trip count.  Each pass folds the
 * shortest period found anywhere in the sequence, and passes repeat until nothing folds,
 * so that loops nest (an inner loop's symbol repeats in the outer loop's body): inner
 * loops are folded everywhere before a longer period could swallow some of their
 * iterations unfolded (x x a x x a: the x's first, then (x2 a)2). */
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

int sp_fold(struct sp_table *t, uint32_t *syms, size_t *n, uint8_t ambiguous)
{
    size_t period;

    while ((period = shortest_period(t, syms, *n, ambiguous)) > 0)
        if (fold_pass(t, syms, n, period, ambiguous) < 0)
            return -1;
    return 0;
}
