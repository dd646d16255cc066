/* Folding a process's steps into loops (scale_program_int.h): a run of symbols that
 * repeats back to back becomes one loop symbol with its trip count, the shortest period
 * first, and passes repeat until nothing folds, so that loops nest (an inner loop's
 * symbol repeats in the outer loop's body). */
#include <string.h>

#include "scale_program_int.h"

/* The longest body looked for: an iteration of a time step loop has tens of calls. */
#define MAX_PERIOD 512

static int repeats(const uint32_t *s, size_t period)
{
    return !memcmp(s, s + period, period * sizeof(*s));
}

/* One pass: returns the number of loops made, or -1. */
static long fold_pass(struct sp_table *t, uint32_t *s, size_t *n)
{
    size_t i = 0, w = 0;
    long made = 0;

    while (i < *n) {
        size_t period, longest = (*n - i) / 2, k = 0;

        if (longest > MAX_PERIOD)
            longest = MAX_PERIOD;
        for (period = 1; period <= longest; period++)
            if (s[i] == s[i + period] && repeats(s + i, period))
                break;
        if (period > longest) {
            s[w++] = s[i++];
            continue;
        }
        for (k = 2; i + (k + 1) * period <= *n && repeats(s + i + (k - 1) * period, period);)
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

int sp_fold(struct sp_table *t, uint32_t *syms, size_t *n)
{
    long made;

    while ((made = fold_pass(t, syms, n)) > 0)
        ;
    return made < 0 ? -1 : 0;
}
