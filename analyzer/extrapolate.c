/* Extrapolating a cut run's analysis to its whole loop (extrapolate.h). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "extrapolate.h"

/* struct pz_stats is a count followed by sums, all doubles: each is extrapolated alike. */
#define STATS_SUMS ((sizeof(struct pz_stats) - offsetof(struct pz_stats, exec)) / sizeof(double))
_Static_assert(offsetof(struct pz_stats, exec) + STATS_SUMS * sizeof(double) ==
                   sizeof(struct pz_stats),
               "struct pz_stats: a count, then doubles only");

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static int nodes_alike(const struct pz_analysis *a, const struct pz_analysis *b)
{
    for (int i = 0; i < a->nnodes; i++) {
        const struct pz_node *x = &a->nodes[i], *y = &b->nodes[i];

        if (!same_text(x->file, y->file) || x->line != y->line || x->id != y->id ||
            x->level != y->level || x->parent != y->parent)
            return 0;
    }
    return 1;
}

static int calls_alike(const struct pz_analysis *a, const struct pz_analysis *b)
{
    for (int i = 0; i < a->nfunctions; i++)
        if (!same_text(a->functions[i].name, b->functions[i].name))
            return 0;
    for (int i = 0; i < a->ncallsites; i++) {
        const struct pz_callsite *x = &a->callsites[i], *y = &b->callsites[i];

        if (!same_text(x->file, y->file) || x->line != y->line ||
            !same_text(x->function, y->function))
            return 0;
    }
    return 1;
}

int pz_analysis_alike(const struct pz_analysis *a, const struct pz_analysis *b)
{
    return a->nprocs == b->nprocs && a->nranks == b->nranks && a->nnodes == b->nnodes &&
           a->nfunctions == b->nfunctions && a->ncallsites == b->ncallsites &&
           nodes_alike(a, b) && calls_alike(a, b);
}

/* The whole run's execution time, MPI time and synchronization, summed over the
 * processes. */
static void whole_run(const struct pz_analysis *a, double out[3])
{
    out[0] = out[1] = out[2] = 0;
    for (int p = 0; a->nnodes && p < a->nprocs; p++) {
        const struct pz_stats *s = &a->nodes[0].procs[p];

        out[0] += s->exec;
        out[1] += s->mpi;
        out[2] += s->sync;
    }
}

double pz_analysis_rate_change(const struct pz_analysis *a0, const struct pz_analysis *a1,
                               const struct pz_analysis *a2, uint64_t k0, uint64_t k1,
                               uint64_t k2)
{
    double w0[3], w1[3], w2[3], worst = 0;

    if (!(k0 < k1 && k1 < k2))
        return 1;
    whole_run(a0, w0);
    whole_run(a1, w1);
    whole_run(a2, w2);
    double pace = (w2[0] - w1[0]) / (double)(k2 - k1);

    if (pace <= 0)
        return 0;
    for (int i = 0; i < 3; i++) {
        double before = (w1[i] - w0[i]) / (double)(k1 - k0);
        double after = (w2[i] - w1[i]) / (double)(k2 - k1);

        worst = fmax(worst, fabs(after - before) / pace);
    }
    return worst;
}

static double at_least_0(double v)
{
    return v > 0 ? v : 0;
}

static uint64_t grown_count(uint64_t b, uint64_t a, double f)
{
    return (uint64_t)llround(at_least_0((double)b + ((double)b - (double)a) * f));
}

static double sum_of(const struct pz_stats *s, size_t i)
{
    double v;

    memcpy(&v, (const char *)s + offsetof(struct pz_stats, exec) + i * sizeof(double),
           sizeof(v));
    return v;
}

static void set_sum(struct pz_stats *s, size_t i, double v)
{
    memcpy((char *)s + offsetof(struct pz_stats, exec) + i * sizeof(double), &v, sizeof(v));
}

/* The sums of a process's statistics extrapolated one by one: the computation (the
 * execution less the MPI time) in place of the execution, which is rebuilt from it. */
#define COMPUTED 0   /* the index of exec among the sums */

static double value(const struct pz_stats *s, size_t field)
{
    return field == COMPUTED ? s->exec - s->mpi : sum_of(s, field);
}

/* What process p of node i added to field per pass from cut a to cut b, k passes apart. */
static double per_pass(const struct pz_analysis *a, const struct pz_analysis *b, int i, int p,
                       size_t field, uint64_t k)
{
    return (value(&b->nodes[i].procs[p], field) - value(&a->nodes[i].procs[p], field)) /
           (double)k;
}

/* How much of the processes' differences in field at node i repeats pass after pass:
 * their differences from k[0] to k[1] regressed on those from k[1] to k[2], from 0 (none:
 * the draws alone) to 1 (all); 1 when the processes are alike.  Regressed that way, it
 * is the share of the later differences' variance that the earlier ones share: what to
 * keep of them. */
static double repeating(struct pz_analysis *const cut[3], const uint64_t k[3], int i,
                        size_t field)
{
    int n = cut[0]->nprocs;
    double mean1 = 0, mean2 = 0, across = 0, own = 0;

    for (int p = 0; p < n; p++) {
        mean1 += per_pass(cut[0], cut[1], i, p, field, k[1] - k[0]) / n;
        mean2 += per_pass(cut[1], cut[2], i, p, field, k[2] - k[1]) / n;
    }
    for (int p = 0; p < n; p++) {
        double d1 = per_pass(cut[0], cut[1], i, p, field, k[1] - k[0]) - mean1;
        double d2 = per_pass(cut[1], cut[2], i, p, field, k[2] - k[1]) - mean2;

        across += d1 * d2;
        own += d2 * d2;
    }
    return own <= 0 ? 1 : fmin(1, fmax(0, across / own));
}

/* Field of node i at every process, grown by f times its growth since cut[1]: the
 * processes' mean growth, and each one's difference from it by its repeating part and
 * draws times the rest, into out[p]. */
static void grow_field(struct pz_analysis *const cut[3], const uint64_t k[3], int i,
                       size_t field, double f, double draws, double *out)
{
    const struct pz_analysis *a = cut[1], *b = cut[2];
    int n = b->nprocs;
    double kept = repeating(cut, k, i, field), keep = kept + (1 - kept) * draws, mean = 0;

    for (int p = 0; p < n; p++)
        mean += (value(&b->nodes[i].procs[p], field) - value(&a->nodes[i].procs[p], field)) / n;
    for (int p = 0; p < n; p++) {
        double now = value(&b->nodes[i].procs[p], field);
        double grew = now - value(&a->nodes[i].procs[p], field);

        out[p] = at_least_0(now + f * (mean + keep * (grew - mean)));
    }
}

/* Node i's statistics at every process grown to the whole run (extrapolate.h); each
 * sum's differences between the processes are judged on their own (a reduction's root
 * waits alike at every pass where the computations' draws do not repeat), and the
 * execution is the computation and the MPI time grown.  grown[] has room for every sum
 * of every process. */
static void grow_node(struct pz_analysis *const cut[3], const uint64_t k[3], int i,
                      double f, double draws, double *grown)
{
    struct pz_analysis *b = cut[2];
    int n = b->nprocs;
    size_t mpi = (offsetof(struct pz_stats, mpi) - offsetof(struct pz_stats, exec)) /
                 sizeof(double);

    for (size_t field = 0; field < STATS_SUMS; field++)
        grow_field(cut, k, i, field, f, draws, grown + field * (size_t)n);
    for (int p = 0; p < n; p++) {
        struct pz_stats *y = &b->nodes[i].procs[p];

        for (size_t field = 0; field < STATS_SUMS; field++)
            set_sum(y, field, grown[field * (size_t)n + (size_t)p]);
        y->exec = grown[COMPUTED * (size_t)n + (size_t)p] + grown[mpi * (size_t)n + (size_t)p];
        y->count = grown_count(y->count, cut[1]->nodes[i].procs[p].count, f);
    }
}

static void grow_calls(struct pz_analysis *b, const struct pz_analysis *a, double f)
{
    for (int i = 0; i < b->nfunctions; i++) {
        struct pz_function *y = &b->functions[i];
        const struct pz_function *x = &a->functions[i];

        y->calls = grown_count(y->calls, x->calls, f);
        y->time = at_least_0(y->time + (y->time - x->time) * f);
        y->bytes_sent = grown_count(y->bytes_sent, x->bytes_sent, f);
        y->bytes_received = grown_count(y->bytes_received, x->bytes_received, f);
    }
    for (int i = 0; i < b->ncallsites; i++) {
        struct pz_callsite *y = &b->callsites[i];

        y->calls = grown_count(y->calls, a->callsites[i].calls, f);
        y->time = at_least_0(y->time + (y->time - a->callsites[i].time) * f);
    }
}

void pz_analysis_extrapolate(struct pz_analysis *const cut[3], const uint64_t k[3], uint64_t n)
{
    struct pz_analysis *b = cut[2];
    const struct pz_analysis *a = cut[1];
    double f, draws, *grown;

    if (!(k[0] < k[1] && k[1] < k[2] && k[2] <= n) ||
        !(grown = malloc(STATS_SUMS * ((size_t)b->nprocs + 1) * sizeof(*grown))))
        return;
    f = (double)(n - k[2]) / (double)(k[2] - k[1]);
    draws = f > 1 ? 1 / sqrt(f) : 1;
    for (int i = 0; i < b->nnodes; i++)
        grow_node(cut, k, i, f, draws, grown);
    free(grown);
    grow_calls(b, a, f);
    b->messages = grown_count(b->messages, a->messages, f);
    b->clock_violations = grown_count(b->clock_violations, a->clock_violations, f);
    b->unmatched_sends = grown_count(b->unmatched_sends, a->unmatched_sends, f);
    b->unmatched_receives = grown_count(b->unmatched_receives, a->unmatched_receives, f);
    b->collectives = grown_count(b->collectives, a->collectives, f);
    b->incomplete_collectives =
        grown_count(b->incomplete_collectives, a->incomplete_collectives, f);
}
