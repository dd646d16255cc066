/* The loop a long run is sampled by (scale_sample.h): the records of every step, times
 * the trip counts of the loops around it, charged to each of those loops. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#include "scale_program_int.h"
#include "scale_sample.h"

/* The passes the loops l holds make together at nprocs (grid g): the product of their
 * trip counts as the synthesis takes them. */
static double passes_of(const struct pz_scale_program *m, const struct sp_loops *l,
                        const struct pz_scale_grid *g, int nprocs)
{
    double times = 1;

    for (uint32_t d = 0; d < l->depth; d++)
        times *= (double)sp_trips_at(m, l->stack[d], g, nprocs);
    return times;
}

static uint64_t saturated(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* A loop every process makes the same number of times, pass after pass, whose passes
 * are the run's passes of it: none of the loops around it makes more than one (from the
 * second pass of an outer loop on, a cut run's passes would not be the whole run's,
 * their draws following the passes' numbers, scale_vary.h); not an exchange with every
 * member in turn, whose passes are its partners, not a count a cut can shorten. */
static int samplable(const struct sp_node *nd, int nested)
{
    return nd->kind == SP_LOOP && !nd->trips && !nd->passes && !nd->pairs && !nd->tree && !nested;
}

/* Into in_loop[k] (zeroed, m->nnodes of them) the records in loop k's passes, into
 * nested[k] whether a loop around it makes more than one pass, and the run's records in
 * *total. */
static void count_records(const struct pz_scale_program *m, const struct pz_scale_grid *g,
                          int nprocs, uint64_t *in_loop, uint8_t *nested, uint64_t *total)
{
    struct sp_loops l = { { 0 }, 0 };

    *total = 0;
    for (uint32_t i = 0; i < m->nnodes; i++) {
        sp_loops_at(m, &l, i);
        if (m->nodes[i].kind == SP_LOOP) {
            /* the loops around it, before itself, the last of l */
            for (uint32_t d = 0; d + 1 < l.depth; d++)
                nested[i] |= sp_trips_at(m, l.stack[d], g, nprocs) > 1;
            continue;
        }
        double r = (double)sp_step_records(m, i) * passes_of(m, &l, g, nprocs);
        uint64_t n = r > 1e18 ? (uint64_t)1e18 : (uint64_t)r;

        *total = saturated(*total, n);
        for (uint32_t d = 0; d < l.depth; d++)
            in_loop[l.stack[d]] = saturated(in_loop[l.stack[d]], n);
    }
}

int pz_scale_sample_loop(const struct pz_scale_program *m, int nprocs, uint64_t least,
                         struct pz_scale_sample *out)
{
    uint64_t *in_loop = calloc(m->nnodes ? m->nnodes : 1, sizeof(*in_loop)), total;
    uint8_t *nested = calloc(m->nnodes ? m->nnodes : 1, 1);
    struct pz_scale_grid g;
    int found = 0;

    if (!in_loop || !nested) {
        free(in_loop);
        free(nested);
        return 0;
    }
    pz_scale_grid_layout(&g, nprocs, m->grid.ndims, m->grid.ascending);
    count_records(m, &g, nprocs, in_loop, nested, &total);
    for (uint32_t k = 0; k < m->nnodes; k++) {
        uint64_t passes;

        if (!samplable(&m->nodes[k], nested[k]) ||
            (passes = sp_trips_at(m, k, &g, nprocs)) < least ||
            (found && in_loop[k] <= out->in_loop))
            continue;
        *out = (struct pz_scale_sample){ k, passes, total, in_loop[k] };
        found = 1;
    }
    free(in_loop);
    free(nested);
    return found;
}

/* The mean of q's ratios over the passes from .. to - 1: those of each pass the
 * recording made, all of them for the passes beyond (sp_ratio_draw); 1 without any. */
static double mean_ratio(const struct sp_ratios *q, uint64_t from, uint64_t to)
{
    double all = 0, sum = 0;
    uint64_t recorded;

    if (!q || !q->n || to <= from)
        return 1;
    for (uint32_t i = 0; i < q->n; i++)
        all += q->v[i] / q->n;
    recorded = to < q->npasses ? to : q->npasses;
    for (uint64_t p = from; p < recorded; p++) {
        uint32_t a = q->first[p], b = q->first[p + 1];
        double mean = 0;

        for (uint32_t i = a; i < b; i++)
            mean += q->v[i] / (b - a);
        sum += b > a ? mean : all;
    }
    if (to > recorded)
        sum += (double)(to - (from > recorded ? from : recorded)) * all;
    return sum / (double)(to - from);
}

double pz_scale_sample_drift(const struct pz_scale_program *m, int nprocs,
                             const struct pz_scale_sample *s, uint64_t k1, uint64_t k2)
{
    struct sp_loops l = { { 0 }, 0 };   /* the loops inside the sample's */
    struct pz_scale_grid g;
    double window = 0, rest = 0;

    pz_scale_grid_layout(&g, nprocs, m->grid.ndims, m->grid.ascending);
    for (uint32_t i = s->loop + 1; i < m->nodes[s->loop].end; i++) {
        if (sp_loops_at(m, &l, i) && m->nodes[i].kind == SP_LOOP)
            continue;
        /* the step's computations, counted per process, run `times` times a pass */
        double times = passes_of(m, &l, &g, nprocs), w = pz_scale_model_at(
            &m->gap[(size_t)i * (m->nclasses + 1) + m->nclasses], nprocs);
        const struct sp_ratios *q = sp_ratios_at(m, i, nprocs);

        if (!(w > 0) || !(times > 0))
            continue;
        window += w * times * mean_ratio(q, (uint64_t)((double)k1 * times),
                                         (uint64_t)((double)k2 * times));
        rest += w * times * mean_ratio(q, (uint64_t)((double)k2 * times),
                                       (uint64_t)((double)s->passes * times));
    }
    return window > 0 ? fabs(rest - window) / window : 0;
}

void pz_scale_sample_where(const struct pz_scale_program *m, const struct pz_scale_sample *s,
                           char *buf, size_t len)
{
    snprintf(buf, len, "%s", m->loop_where && m->loop_where[s->loop] ? m->loop_where[s->loop]
                                                                     : "a loop");
}
