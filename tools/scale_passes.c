/* The sampling of a long run's passes (scale_passes.h). */
#include <string.h>

#include "extrapolate.h"
#include "scale_passes.h"

static void free_all(struct pz_analysis *a, int n)
{
    for (int i = 0; i < n; i++)
        pz_analysis_free(&a[i]);
}

/* Every pass replayed, after the cuts were not enough. */
static int replay_whole(pz_replay_cut_fn *replay, void *ctx, uint64_t passes,
                        struct pz_analysis *out, struct pz_passes_outcome *o)
{
    o->replayed += passes;
    o->k1 = o->k2 = 0;
    return replay(ctx, passes, out);
}

int pz_replay_by_passes(pz_replay_cut_fn *replay, pz_cut_drift_fn *drift, void *ctx,
                        uint64_t passes, struct pz_analysis *out, struct pz_passes_outcome *o)
{
    struct pz_analysis a[3];
    uint64_t k[3] = { PZ_PASSES_FIRST, 2 * PZ_PASSES_FIRST, 4 * PZ_PASSES_FIRST };

    memset(o, 0, sizeof(*o));
    memset(a, 0, sizeof(a));
    if (passes < PZ_PASSES_LEAST)
        return replay_whole(replay, ctx, passes, out, o);
    for (int i = 0; i < 3; i++) {
        o->replayed += k[i];
        if (replay(ctx, k[i], &a[i]) != 0) {
            free_all(a, i);
            return -1;
        }
    }
    for (;;) {
        int alike = pz_analysis_alike(&a[0], &a[1]) && pz_analysis_alike(&a[1], &a[2]);

        o->change = alike ? pz_analysis_rate_change(&a[0], &a[1], &a[2], k[0], k[1], k[2]) : 1;
        o->drift = drift ? drift(ctx, k[1], k[2]) : 0;
        if (alike && o->change <= PZ_PASSES_SETTLED && o->drift <= PZ_PASSES_SETTLED) {
            struct pz_analysis *cut[3] = { &a[0], &a[1], &a[2] };

            pz_analysis_extrapolate(cut, k, passes);
            *out = a[2];
            free_all(a, 2);
            o->k1 = k[1];
            o->k2 = k[2];
            return 0;
        }
        pz_analysis_free(&a[0]);
        if (2 * k[2] > passes / 4) {
            free_all(a + 1, 2);
            return replay_whole(replay, ctx, passes, out, o);
        }
        a[0] = a[1];
        a[1] = a[2];
        k[0] = k[1];
        k[1] = k[2];
        k[2] *= 2;
        o->replayed += k[2];
        if (replay(ctx, k[2], &a[2]) != 0) {
            free_all(a, 2);
            return -1;
        }
    }
}
