/* The variation of the computation before each step (scale_vary.h): the recorded
 * computations kept while walking the recordings, their ratios to their class's mean,
 * and the synthesis's draws among them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "scale_program_int.h"
#include "scale_vary.h"

void pz_scale_ratios(double *v, size_t n)
{
    double sum = 0, mean;

    for (size_t i = 0; i < n; i++)
        sum += v[i];
    mean = n ? sum / (double)n : 0;
    for (size_t i = 0; i < n; i++) {
        v[i] = mean > 0 ? v[i] / mean : 1;
        if (fabs(v[i] - 1) < 1e-9)
            v[i] = 1;
    }
}

/* A number uniform in [0, 1) from proc and i: SplitMix64's finalizer over a Weyl
 * sequence, whose neighbouring values are as independent as a draw needs. */
static double uniform(uint32_t proc, uint64_t i)
{
    uint64_t z = ((((uint64_t)proc << 40) ^ i) + 1) * 0x9E3779B97F4A7C15ull;

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

double pz_scale_draw(const double *ratios, size_t n, uint32_t proc, uint64_t i)
{
    size_t j;

    if (!n)
        return 1;
    j = (size_t)(uniform(proc, i) * (double)n);
    return ratios[j < n ? j : n - 1];
}

int sp_ratio_add(struct pz_scale_program *m, uint32_t k, uint32_t cls, size_t run,
                 const void *proc, double gap)
{
    struct sp_ratios *q;

    if (!m->ratios) {
        m->nratios = (size_t)m->nnodes * m->nclasses * m->nruns;
        if (!(m->ratios = calloc(m->nratios ? m->nratios : 1, sizeof(*m->ratios))))
            return -1;
    }
    q = &m->ratios[((size_t)k * m->nclasses + cls) * m->nruns + run];
    if (pz_grow((void **)&q->v, &q->cap, q->n, sizeof(*q->v)) != 0 ||
        pz_grow((void **)&q->pass, &q->pass_cap, q->n, sizeof(*q->pass)) != 0)
        return -1;
    /* a process's computations before k follow one another: its passes count up */
    q->pass[q->n] = q->n && q->last == proc ? q->pass[q->n - 1] + 1 : 0;
    q->last = proc;
    q->v[q->n++] = gap;
    return 0;
}

/* Node k's ratios in recording run, into q: each class's computations over its mean
 * (in place, in the walking buffers), then all of them by pass, the passes' ratios from
 * q->first[pass]. */
static int merge_classes(const struct pz_scale_program *m, uint32_t k, size_t run,
                         struct sp_ratios *q)
{
    struct sp_ratios *by_class = m->ratios + (size_t)k * m->nclasses * m->nruns + run;
    uint32_t n = 0, npasses = 0;

    for (uint32_t c = 0; c < m->nclasses; c++) {
        struct sp_ratios *one = &by_class[c * m->nruns];

        pz_scale_ratios(one->v, one->n);
        for (uint32_t i = 0; i < one->n; i++)
            if (one->pass[i] >= npasses)
                npasses = one->pass[i] + 1;
        n += one->n;
    }
    if (!n)
        return 0;
    if (!(q->v = malloc(n * sizeof(*q->v))) ||
        !(q->first = calloc((size_t)npasses + 1, sizeof(*q->first))))
        return -1;
    /* a counting sort by pass: first[j + 1] counts pass j, then becomes where it ends */
    for (uint32_t c = 0; c < m->nclasses; c++)
        for (uint32_t i = 0; i < by_class[c * m->nruns].n; i++)
            q->first[by_class[c * m->nruns].pass[i] + 1]++;
    for (uint32_t j = 0; j < npasses; j++)
        q->first[j + 1] += q->first[j];
    for (uint32_t c = 0; c < m->nclasses; c++) {
        const struct sp_ratios *one = &by_class[c * m->nruns];

        for (uint32_t i = 0; i < one->n; i++)
            q->v[q->first[one->pass[i]]++] = one->v[i];
    }
    /* each first[j] now ends pass j: shifted one pass up, it begins it */
    memmove(q->first + 1, q->first, npasses * sizeof(*q->first));
    q->first[0] = 0;
    q->n = q->cap = n;
    q->npasses = npasses;
    return 0;
}

int sp_ratios_finish(struct pz_scale_program *m)
{
    size_t n = (size_t)m->nnodes * m->nruns;
    struct sp_ratios *merged = calloc(n ? n : 1, sizeof(*merged));
    int rc = 0;

    if (!merged)
        return -1;
    for (uint32_t k = 0; m->ratios && k < m->nnodes && rc == 0; k++)
        for (size_t r = 0; r < m->nruns && rc == 0; r++) {
            merged[(size_t)k * m->nruns + r].procs = m->runs[r]->nprocs;
            rc = merge_classes(m, k, r, &merged[(size_t)k * m->nruns + r]);
        }
    sp_ratios_free(m);
    m->ratios = merged;
    m->nratios = n;
    return rc;
}

double sp_ratio_draw(const struct sp_ratios *q, uint32_t pass, uint32_t proc, uint64_t i)
{
    if (!q)
        return 1;
    if (pass >= q->npasses)
        return pz_scale_draw(q->v, q->n, proc, i);
    return pz_scale_draw(q->v + q->first[pass], q->first[pass + 1] - q->first[pass], proc, i);
}

const struct sp_ratios *sp_ratios_at(const struct pz_scale_program *m, uint32_t k,
                                     int nprocs)
{
    const struct sp_ratios *best = NULL;
    double best_distance = HUGE_VAL;
    int best_procs = 0;

    for (size_t r = 0; r < m->nruns; r++) {
        const struct sp_ratios *q = &m->ratios[(size_t)k * m->nruns + r];
        double distance = q->n ? fabs(log((double)q->procs / nprocs)) : HUGE_VAL;

        if (q->n && (distance < best_distance - 1e-12 ||
                     (distance < best_distance + 1e-12 && q->procs > best_procs))) {
            best = q;
            best_distance = distance;
            best_procs = q->procs;
        }
    }
    return best;
}

void sp_ratios_free(struct pz_scale_program *m)
{
    for (size_t i = 0; m->ratios && i < m->nratios; i++) {
        free(m->ratios[i].v);
        free(m->ratios[i].pass);
        free(m->ratios[i].first);
    }
    free(m->ratios);
    m->ratios = NULL;
    m->nratios = 0;
}
