/* The frame both rewrites of runs of steps share (scale_program_int.h, sp_rewrite_runs):
 * a butterfly's stages (sp_xor_rewrite) and an exchange with every member in turn
 * (sp_pairs_rewrite) replace the iterations of each run by the same symbols, working
 * from a copy of the steps as they were, and then remake every step outside the runs
 * whose completion names a poster rewritten (a wait after the loop), or the template
 * would find no poster for it. */
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"

/* Every step outside the runs rewritten (not marked) whose poster's symbol was
 * rewritten, remade naming the rewritten poster (sp_repost), left to right so that a
 * poster remade is found remade.  0 or -1 (memory). */
static int repost_outside(struct sp_table *t, const uint32_t *orig, uint32_t *syms, size_t n,
                          const uint8_t *marked)
{
    struct sp_event ev[SP_MAX_EVENTS];

    for (size_t i = 0; i < n; i++) {
        struct sp_sym proto = t->syms[orig[i]];

        if (marked[i] || proto.kind != SP_STEP || proto.n > SP_MAX_EVENTS)
            continue;
        memcpy(ev, sp_events_of(t, orig[i]), proto.n * sizeof(*ev));
        if (sp_repost(t, orig, syms, 0, i, ev) &&
            (syms[i] = sp_table_step(t, &proto, ev)) == SP_NONE)
            return -1;
    }
    return 0;
}

int sp_rewrite_runs(struct sp_table *t, uint32_t *syms, size_t n, sp_run_rewriter rewrite,
                    void *ctx)
{
    uint32_t *orig = malloc((n ? n : 1) * sizeof(*orig));
    uint8_t *marked = calloc(n ? n : 1, 1);
    int rc = -1;

    if (!orig || !marked)
        goto out;
    memcpy(orig, syms, n * sizeof(*orig));
    rc = rewrite(ctx, orig, syms, n, marked);
    if (rc == 0)
        rc = repost_outside(t, orig, syms, n, marked);
out:
    free(orig);
    free(marked);
    return rc;
}
