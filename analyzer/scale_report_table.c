/* The scaling report's table: the intervals matched across the predicted runs, their
 * characteristics per machine and count, speedup and scaling efficiency against the
 * base count, and per machine the interval that stops scaling first. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "names.h"
#include "scale_report_table.h"

static int by_ranks(const void *x, const void *y)
{
    const struct pz_scale_entry *a = x, *b = y;

    return (a->ranks > b->ranks) - (a->ranks < b->ranks);
}

/* The smallest recorded count, else the smallest: entries are sorted. */
static size_t base_entry(const struct pz_scale_entry *entries, size_t n)
{
    for (size_t e = 0; e < n; e++)
        if (entries[e].recorded)
            return e;
    return 0;
}

static int sort_machines(const struct pz_scale_input *in, struct pz_scale_table *t)
{
    size_t first = 0;

    t->machines = calloc(in->nseries, sizeof(*t->machines));
    if (!t->machines)
        return -1;
    for (size_t m = 0; m < in->nseries; m++) {
        struct pz_scale_machine *s = &t->machines[m];

        s->machine = in->series[m].machine;
        s->n = in->series[m].n;
        s->entries = malloc(s->n * sizeof(*s->entries));
        if (!s->entries)
            return -1;
        memcpy(s->entries, in->series[m].entries, s->n * sizeof(*s->entries));
        qsort(s->entries, s->n, sizeof(*s->entries), by_ranks);
        s->base = base_entry(s->entries, s->n);
        s->first = first;
        first += s->n;
    }
    t->nvalues = first;
    return 0;
}

static int same_node(const struct pz_node *a, const struct pz_node *b)
{
    return a->level == b->level && a->line == b->line && a->id == b->id &&
           !strcmp(a->file, b->file);
}

/* Node n of analysis a, or NULL. */
static const struct pz_node *find_node(const struct pz_analysis *a, const struct pz_node *n)
{
    for (int i = 0; i < a->nnodes; i++)
        if (same_node(&a->nodes[i], n))
            return &a->nodes[i];
    return NULL;
}

static int known(const struct pz_scale_table *t, const struct pz_node *n)
{
    for (size_t i = 0; i < t->nintervals; i++)
        if (same_node(t->intervals[i].node, n))
            return 1;
    return 0;
}

/* As the recorder names the interval's region (trace/names.h). */
static void region_name(const struct pz_node *n, char *buf, size_t len)
{
    const char *base = strrchr(n->file, '/') ? strrchr(n->file, '/') + 1 : n->file;

    if (n->parent < 0)
        buf[0] = '\0';
    else
        snprintf(buf, len, PZ_INTERVAL_NAME_FORMAT, n->sequential ? PZ_SEQUENTIAL_PREFIX : "",
                 n->id, base, n->line);
}

static int add_interval(struct pz_scale_table *t, const struct pz_node *n, uint32_t *cap)
{
    struct pz_scale_interval *i;

    if (pz_grow((void **)&t->intervals, cap, (uint32_t)t->nintervals, sizeof(*t->intervals)))
        return -1;
    i = &t->intervals[t->nintervals];
    i->node = n;
    region_name(n, i->region, sizeof(i->region));
    i->values = calloc(t->nvalues, sizeof(*i->values));
    if (!i->values)
        return -1;
    t->nintervals++;
    return 0;
}

/* Every run's intervals, each once, in the report order of the first run that has it. */
static int collect_intervals(struct pz_scale_table *t)
{
    uint32_t cap = 0;

    for (size_t m = 0; m < t->in->nseries; m++)
        for (size_t e = 0; e < t->machines[m].n; e++) {
            const struct pz_analysis *a = t->machines[m].entries[e].a;
            int *order = malloc(((size_t)a->nnodes + 1) * sizeof(int));   /* never 0 bytes */

            if (!order)
                return -1;
            pz_report_order(a, order);
            for (int k = 0; k < a->nnodes; k++)
                if (!known(t, &a->nodes[order[k]]) &&
                    add_interval(t, &a->nodes[order[k]], &cap)) {
                    free(order);
                    return -1;
                }
            free(order);
        }
    return 0;
}

static void fill_values(struct pz_scale_table *t, struct pz_scale_interval *i)
{
    for (size_t m = 0; m < t->in->nseries; m++) {
        const struct pz_scale_machine *s = &t->machines[m];
        struct pz_scale_value *v = &i->values[s->first];
        const struct pz_scale_value *base = &v[s->base];

        for (size_t e = 0; e < s->n; e++) {
            const struct pz_node *n = find_node(s->entries[e].a, i->node);

            v[e].ranks = s->entries[e].ranks;
            v[e].recorded = s->entries[e].recorded;
            v[e].present = n != NULL;
            if (n)
                pz_characteristics_of(s->entries[e].a, n, &v[e].c);
        }
        for (size_t e = 0; e < s->n; e++) {
            double t0 = base->c.execution_time, tp = v[e].c.execution_time;

            v[e].relative = base->present && v[e].present && tp > 0;
            if (!v[e].relative)
                continue;
            v[e].speedup = t0 / tp;
            v[e].scaling_efficiency = t0 * base->ranks / (tp * v[e].ranks);
        }
    }
}

double pz_scale_cause_time(const struct pz_characteristics *c, enum pz_scale_cause cause)
{
    switch (cause) {
    case PZ_SCALE_CAUSE_COMMUNICATION:
        return c->communication_time - c->synchronization;
    case PZ_SCALE_CAUSE_SYNCHRONIZATION:
        return c->synchronization;
    case PZ_SCALE_CAUSE_LOAD_IMBALANCE:
        return c->load_imbalance;
    case PZ_SCALE_CAUSE_IDLE:
        return c->idle_time;
    case PZ_SCALE_CAUSE_INSUFFICIENT_PARALLELISM:
        return c->insufficient_parallelism;
    default:
        return c->mpi_time - c->communication_time;
    }
}

const char *pz_scale_cause_key(enum pz_scale_cause cause)
{
    static const char *const keys[PZ_SCALE_NCAUSES] = {
        "communication", "synchronization", "load_imbalance", "idle",
        "insufficient_parallelism", "other_mpi",
    };

    return keys[cause];
}

const char *pz_scale_cause_name(enum pz_scale_cause cause)
{
    static const char *const names[PZ_SCALE_NCAUSES] = {
        "communication", "synchronization", "load imbalance", "idle time",
        "insufficient parallelism", "other MPI calls",
    };

    return names[cause];
}

const char *pz_scale_cause_words(enum pz_scale_cause cause)
{
    static const char *const words[PZ_SCALE_NCAUSES] = {
        "communication (transferring data, waiting left out)",
        "synchronization (waiting for partners in MPI calls)",
        "load imbalance (computation unequal between processes)",
        "idle time (processes outside the interval while the slowest is in it)",
        "insufficient parallelism (computation duplicated in sequential intervals)",
        "other MPI calls (MPI_Init, MPI_Finalize, communicator management)",
    };

    return words[cause];
}

size_t pz_scale_stop_entry(const struct pz_scale_table *t, size_t i, size_t m)
{
    const struct pz_scale_machine *s = &t->machines[m];

    for (size_t e = s->base + 1; e < s->n; e++) {
        const struct pz_scale_value *v = pz_scale_table_value(t, i, m, e);

        if (v->relative && v->scaling_efficiency < PZ_SCALE_STOP_EFFICIENCY)
            return e;
    }
    return s->n;
}

static int significant(const struct pz_scale_table *t, size_t i, size_t m)
{
    size_t base = t->machines[m].base;
    const struct pz_scale_value *v = pz_scale_table_value(t, i, m, base);
    const struct pz_scale_value *whole = pz_scale_table_value(t, 0, m, base);

    return v->present &&
           v->c.execution_time >= PZ_SCALE_SIGNIFICANT_SHARE * whole->c.execution_time;
}

/* Makes interval i of machine m the finding if it stops scaling at a smaller count than
 * the finding's, or at the same count with a lower scaling efficiency. */
static void consider(const struct pz_scale_table *t, size_t m, size_t i,
                     struct pz_scale_finding *f)
{
    size_t e = pz_scale_stop_entry(t, i, m);
    double efficiency;

    if (e == t->machines[m].n || !significant(t, i, m))
        return;
    efficiency = pz_scale_table_value(t, i, m, e)->scaling_efficiency;
    if (f->interval < 0 || e < f->entry ||
        (e == f->entry &&
         efficiency < pz_scale_table_value(t, (size_t)f->interval, m, e)->scaling_efficiency)) {
        f->interval = (int)i;
        f->entry = e;
    }
}

/* The interval of machine m that stops scaling first; the whole run (interval 0) only if
 * no other does. */
static void find_first_stop(const struct pz_scale_table *t, size_t m, struct pz_scale_finding *f)
{
    f->interval = -1;
    f->entry = t->machines[m].n - 1;
    for (size_t i = 1; i < t->nintervals; i++)
        consider(t, m, i, f);
    if (f->interval < 0)
        consider(t, m, 0, f);
}

static void largest_cause(const struct pz_characteristics *c, struct pz_scale_finding *f)
{
    f->cause = PZ_SCALE_CAUSE_COMMUNICATION;
    f->cause_time = pz_scale_cause_time(c, f->cause);
    for (int k = 1; k < PZ_SCALE_NCAUSES; k++)
        if (pz_scale_cause_time(c, (enum pz_scale_cause)k) > f->cause_time) {
            f->cause = (enum pz_scale_cause)k;
            f->cause_time = pz_scale_cause_time(c, f->cause);
        }
}

static int find_stops(struct pz_scale_table *t)
{
    t->findings = calloc(t->in->nseries, sizeof(*t->findings));
    if (!t->findings)
        return -1;
    for (size_t m = 0; m < t->in->nseries; m++) {
        struct pz_scale_finding *f = &t->findings[m];

        find_first_stop(t, m, f);
        largest_cause(&pz_scale_table_value(t, f->interval < 0 ? 0 : (size_t)f->interval, m,
                                            f->entry)->c, f);
    }
    return 0;
}

int pz_scale_table_build(const struct pz_scale_input *in, struct pz_scale_table *t)
{
    memset(t, 0, sizeof(*t));
    t->in = in;
    if (sort_machines(in, t) || collect_intervals(t)) {
        pz_scale_table_free(t);
        return -1;
    }
    for (size_t i = 0; i < t->nintervals; i++)
        fill_values(t, &t->intervals[i]);
    if (t->nintervals && find_stops(t)) {
        pz_scale_table_free(t);
        return -1;
    }
    if (t->nintervals)
        pz_scale_compare(t);
    return 0;
}

void pz_scale_table_free(struct pz_scale_table *t)
{
    for (size_t m = 0; t->machines && m < t->in->nseries; m++)
        free(t->machines[m].entries);
    for (size_t i = 0; i < t->nintervals; i++)
        free(t->intervals[i].values);
    free(t->machines);
    free(t->intervals);
    free(t->findings);
    memset(t, 0, sizeof(*t));
}

const struct pz_scale_value *pz_scale_table_value(const struct pz_scale_table *t, size_t i,
                                                  size_t m, size_t e)
{
    return &t->intervals[i].values[t->machines[m].first + e];
}

void pz_scale_interval_label(const struct pz_scale_table *t, size_t i, char *buf, size_t len)
{
    const struct pz_node *n = t->intervals[i].node;

    if (n->parent < 0)
        snprintf(buf, len, "the whole run");
    else
        snprintf(buf, len, "%sinterval %u at %s:%u", n->sequential ? "sequential " : "", n->id,
                 n->file, n->line);
}

void pz_scale_finding_sentence(const struct pz_scale_table *t, size_t m, char *buf, size_t len)
{
    const struct pz_scale_machine *s = &t->machines[m];
    const struct pz_scale_finding *f = &t->findings[m];
    const struct pz_scale_value *v;
    char label[600];

    if (f->interval < 0) {
        v = pz_scale_table_value(t, 0, m, f->entry);
        if (v->relative)
            snprintf(buf, len, "%s: every interval keeps a scaling efficiency of at least %.2g "
                     "up to %d processes (the whole run: %.3f).", s->machine,
                     PZ_SCALE_STOP_EFFICIENCY, v->ranks, v->scaling_efficiency);
        else
            snprintf(buf, len, "%s: every interval keeps a scaling efficiency of at least %.2g "
                     "up to %d processes.", s->machine, PZ_SCALE_STOP_EFFICIENCY, v->ranks);
        return;
    }
    v = pz_scale_table_value(t, (size_t)f->interval, m, f->entry);
    pz_scale_interval_label(t, (size_t)f->interval, label, sizeof(label));
    snprintf(buf, len, "%s: %s stops scaling first: at %d processes its scaling efficiency is "
             "%.3f (speedup %.3f over %d processes); the largest part of its lost time there "
             "is %s, %.6f s (lost time %.6f s).", s->machine, label, v->ranks,
             v->scaling_efficiency, v->speedup, s->entries[s->base].ranks,
             pz_scale_cause_words(f->cause), f->cause_time, v->c.lost_time);
}
