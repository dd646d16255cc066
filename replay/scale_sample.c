/* The loop a long run is sampled by (scale_sample.h): the records of every step, times
 * the trip counts of the loops around it, charged to each of those loops. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "scale_program_int.h"
#include "scale_sample.h"

/* The trip count of loop node k at nprocs, as the synthesis takes it. */
static uint64_t trips_at(const struct pz_scale_program *m, uint32_t k, int nprocs)
{
    double t = pz_scale_model_at(&m->nodes[k].count, nprocs);

    return t <= 0 ? 0 : (uint64_t)llround(t);
}

static int samplable(const struct sp_node *nd)
{
    return nd->kind == SP_LOOP && !nd->trips && !nd->passes;
}

/* Into in_loop[k] (zeroed, m->nnodes of them) the records in loop k's passes, and the
 * run's in *total. */
static void count_records(const struct pz_scale_program *m, int nprocs, uint64_t *in_loop,
                          uint64_t *total)
{
    uint32_t loop[64], depth = 0;
    double times[64];   /* the passes of loop[d] and the loops around it, as a product */

    *total = 0;
    for (uint32_t i = 0; i < m->nnodes; i++) {
        while (depth && m->nodes[loop[depth - 1]].end <= i)
            depth--;
        if (m->nodes[i].kind == SP_LOOP) {
            if (depth < 64) {
                times[depth] = (depth ? times[depth - 1] : 1) * (double)trips_at(m, i, nprocs);
                loop[depth++] = i;
            }
            continue;
        }
        double r = (double)sp_step_records(m, i) * (depth ? times[depth - 1] : 1);
        uint64_t n = r > 1e18 ? (uint64_t)1e18 : (uint64_t)r;

        *total += n;
        for (uint32_t d = 0; d < depth; d++)
            in_loop[loop[d]] += n;
    }
}

int pz_scale_sample_loop(const struct pz_scale_program *m, int nprocs, uint64_t least,
                         struct pz_scale_sample *out)
{
    uint64_t *in_loop = calloc(m->nnodes ? m->nnodes : 1, sizeof(*in_loop)), total;
    int found = 0;

    if (!in_loop)
        return 0;
    count_records(m, nprocs, in_loop, &total);
    for (uint32_t k = 0; k < m->nnodes; k++) {
        uint64_t passes;

        if (!samplable(&m->nodes[k]) || (passes = trips_at(m, k, nprocs)) < least ||
            (found && in_loop[k] <= out->in_loop))
            continue;
        *out = (struct pz_scale_sample){ k, passes, total, in_loop[k] };
        found = 1;
    }
    free(in_loop);
    return found;
}

void pz_scale_sample_where(const struct pz_scale_program *m, const struct pz_scale_sample *s,
                           char *buf, size_t len)
{
    snprintf(buf, len, "%s", m->loop_where && m->loop_where[s->loop] ? m->loop_where[s->loop]
                                                                     : "a loop");
}
