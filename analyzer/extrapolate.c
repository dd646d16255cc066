/* Extrapolating a cut run's analysis to its whole loop (extrapolate.h). */
#include <math.h>
#include <stddef.h>
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

/* What process p of node i computed per pass from cut a to cut b, k passes apart. */
static double computed(const struct pz_analysis *a, const struct pz_analysis *b, int i,
                       int p, uint64_t k)
{
    const struct pz_stats *x = &a->nodes[i].procs[p], *y = &b->nodes[i].procs[p];

    return ((y->exec - y->mpi) - (x->exec - x->mpi)) / (double)k;
}

/* How much of the processes' differences in computation at node i repeats pass after
 * pass: the regression of their differences from k[1] to k[2] on those from k[0] to
 * k[1], from 0 (none) to 1 (all); 1 when they compute alike. */
static double repeating(struct pz_analysis *const cut[3], const uint64_t k[3], int i)
{
    int n = cut[0]->nprocs;
    double mean1 = 0, mean2 = 0, across = 0, own = 0;

    for (int p = 0; p < n; p++) {
        mean1 += computed(cut[0], cut[1], i, p, k[1] - k[0]) / n;
        mean2 += computed(cut[1], cut[2], i, p, k[2] - k[1]) / n;
    }
    for (int p = 0; p < n; p++) {
        double d1 = computed(cut[0], cut[1], i, p, k[1] - k[0]) - mean1;
        double d2 = computed(cut[1], cut[2], i, p, k[2] - k[1]) - mean2;

        across += d1 * d2;
        own += d2 * d2;
    }
    return own <= 0 ? 1 : fmin(1, fmax(0, across / own));
}

/* Node i's sums at every process grown by f times their growth since cut a, each
 * process's difference from the processes' mean growth by f * keep. */
static void grow_node(struct pz_analysis *b, const struct pz_analysis *a, int i, double f,
                      double keep)
{
    int n = b->nprocs;

    for (size_t s = 0; s < STATS_SUMS; s++) {
        double mean = 0;

        for (int p = 0; p < n; p++)
            mean += (sum_of(&b->nodes[i].procs[p], s) - sum_of(&a->nodes[i].procs[p], s)) / n;
        for (int p = 0; p < n; p++) {
            struct pz_stats *y = &b->nodes[i].procs[p];
            double grew = sum_of(y, s) - sum_of(&a->nodes[i].procs[p], s);

            set_sum(y, s, at_least_0(sum_of(y, s) + f * (mean + keep * (grew - mean))));
        }
    }
    for (int p = 0; p < n; p++)
        b->nodes[i].procs[p].count = grown_count(b->nodes[i].procs[p].count,
                                                 a->nodes[i].procs[p].count, f);
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
    double f = (double)(n - k[2]) / (double)(k[2] - k[1]);
    double draws = f > 1 ? 1 / sqrt(f) : 1;

    for (int i = 0; i < b->nnodes; i++) {
        double kept = repeating(cut, k, i);

        grow_node(b, a, i, f, kept + (1 - kept) * draws);
    }
    grow_calls(b, a, f);
    b->messages = grown_count(b->messages, a->messages, f);
    b->clock_violations = grown_count(b->clock_violations, a->clock_violations, f);
    b->unmatched_sends = grown_count(b->unmatched_sends, a->unmatched_sends, f);
    b->unmatched_receives = grown_count(b->unmatched_receives, a->unmatched_receives, f);
    b->collectives = grown_count(b->collectives, a->collectives, f);
    b->incomplete_collectives =
        grown_count(b->incomplete_collectives, a->incomplete_collectives, f);
}
