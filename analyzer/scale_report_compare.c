/* The scaling report's comparison of the machines (docs/predict.md, "Scaling: the
 * report", **Comparison.**): derived from the table's values and findings alone, for
 * someone choosing a machine.  Which one runs the whole program fastest at the largest
 * count they share, up to which count each keeps the whole run scaling, whether the
 * others fix what stops scaling first on the slowest and whether a faster network can. */
#include <stdarg.h>
#include <string.h>

#include "scale_report_table.h"

size_t pz_scale_entry_at(const struct pz_scale_table *t, size_t m, int ranks)
{
    const struct pz_scale_machine *s = &t->machines[m];
    size_t e = 0;

    while (e < s->n && s->entries[e].ranks != ranks)
        e++;
    return e;
}

const struct pz_scale_value *pz_scale_value_at(const struct pz_scale_table *t, size_t i,
                                               size_t m, int ranks)
{
    size_t e = pz_scale_entry_at(t, m, ranks);
    const struct pz_scale_value *v;

    if (e == t->machines[m].n)
        return NULL;
    v = pz_scale_table_value(t, i, m, e);
    return v->present ? v : NULL;
}

/* The largest count of the first machine that every machine has, or 0. */
static int largest_shared_count(const struct pz_scale_table *t)
{
    const struct pz_scale_machine *first = &t->machines[0];

    for (size_t e = first->n; e-- > 0;) {
        int ranks = first->entries[e].ranks;
        size_t m = 1;

        while (m < t->in->nseries && pz_scale_entry_at(t, m, ranks) < t->machines[m].n)
            m++;
        if (m == t->in->nseries)
            return ranks;
    }
    return 0;
}

double pz_scale_whole_time(const struct pz_scale_table *t, size_t m)
{
    size_t e = pz_scale_entry_at(t, m, t->comparison.ranks);

    return pz_scale_table_value(t, 0, m, e)->c.execution_time;
}

static enum pz_scale_remedy remedy_of(enum pz_scale_cause cause,
                                      const struct pz_characteristics *c)
{
    switch (cause) {
    case PZ_SCALE_CAUSE_COMMUNICATION:
        return PZ_SCALE_REMEDY_NETWORK;
    case PZ_SCALE_CAUSE_SYNCHRONIZATION:
        return c->synchronization > c->load_imbalance ? PZ_SCALE_REMEDY_NETWORK
                                                      : PZ_SCALE_REMEDY_NONE;
    case PZ_SCALE_CAUSE_LOAD_IMBALANCE:
    case PZ_SCALE_CAUSE_INSUFFICIENT_PARALLELISM:
        return PZ_SCALE_REMEDY_NONE;
    default:
        return PZ_SCALE_REMEDY_DEPENDS;
    }
}

/* The value the slowest's finding names: its interval at its stopping count. */
static const struct pz_scale_value *slowest_stop(const struct pz_scale_table *t)
{
    size_t m = t->comparison.slowest;
    const struct pz_scale_finding *f = &t->findings[m];

    return pz_scale_table_value(t, (size_t)f->interval, m, f->entry);
}

void pz_scale_compare(struct pz_scale_table *t)
{
    struct pz_scale_comparison *c = &t->comparison;
    const struct pz_scale_finding *f;

    memset(c, 0, sizeof(*c));
    if (t->in->nseries < 2)
        return;
    c->ranks = largest_shared_count(t);
    if (!c->ranks)
        return;
    for (size_t m = 1; m < t->in->nseries; m++) {
        if (pz_scale_whole_time(t, m) < pz_scale_whole_time(t, c->fastest))
            c->fastest = m;
        if (pz_scale_whole_time(t, m) > pz_scale_whole_time(t, c->slowest))
            c->slowest = m;
    }
    f = &t->findings[c->slowest];
    if (f->interval >= 0)
        c->remedy = remedy_of(f->cause, &slowest_stop(t)->c);
}

const char *pz_scale_remedy_key(enum pz_scale_remedy remedy)
{
    static const char *const keys[] = { "network", "none", "depends" };

    return keys[remedy];
}

/* Appends to the sentence in buf, which stays terminated when it is full. */
__attribute__((format(printf, 3, 4)))
static void add(char *buf, size_t len, const char *format, ...)
{
    size_t used = strlen(buf);
    va_list ap;

    if (used + 1 >= len)
        return;
    va_start(ap, format);
    vsnprintf(buf + used, len - used, format, ap);
    va_end(ap);
}

/* "N.NN times faster than", or "as fast as" on equal times. */
static void faster_than(char *buf, size_t len, double faster, double slower)
{
    if (faster > 0 && slower > faster)
        add(buf, len, "%.2f times faster than", slower / faster);
    else
        add(buf, len, "as fast as");
}

static void say_fastest(const struct pz_scale_table *t, char *buf, size_t len)
{
    const struct pz_scale_comparison *c = &t->comparison;
    const char *separator = ": ";

    add(buf, len, "At %d processes %s runs the whole program fastest, in %.6f s", c->ranks,
        t->machines[c->fastest].machine, pz_scale_whole_time(t, c->fastest));
    for (size_t m = 0; m < t->in->nseries; m++) {
        if (m == c->fastest)
            continue;
        add(buf, len, "%s", separator);
        faster_than(buf, len, pz_scale_whole_time(t, c->fastest), pz_scale_whole_time(t, m));
        add(buf, len, " %s (%.6f s)", t->machines[m].machine, pz_scale_whole_time(t, m));
        separator = ", ";
    }
    add(buf, len, ".");
}

int pz_scale_keeps_up_to(const struct pz_scale_table *t, size_t m)
{
    return t->machines[m].entries[pz_scale_stop_entry(t, 0, m) - 1].ranks;
}

static void say_keeps(const struct pz_scale_table *t, char *buf, size_t len)
{
    add(buf, len, "The whole run keeps a scaling efficiency of at least %.2g",
        PZ_SCALE_STOP_EFFICIENCY);
    for (size_t m = 0; m < t->in->nseries; m++) {
        const struct pz_scale_machine *s = &t->machines[m];

        add(buf, len, "%s on %s ", m ? "," : "", s->machine);
        if (pz_scale_stop_entry(t, 0, m) == s->base + 1 && s->base + 1 < s->n)
            add(buf, len, "only at its base count, %d processes", s->entries[s->base].ranks);
        else
            add(buf, len, "up to %d processes", pz_scale_keeps_up_to(t, m));
    }
    add(buf, len, ".");
}

/* Interval i at `ranks` processes on machine m: "0.087 (0.000875 s) on myrinet-2proc". */
static void say_value_on(const struct pz_scale_table *t, size_t i, size_t m, int ranks,
                         char *buf, size_t len)
{
    const struct pz_scale_value *v = pz_scale_value_at(t, i, m, ranks);

    if (!v)
        add(buf, len, "- (not predicted)");
    else if (v->relative)
        add(buf, len, "%.3f (%.6f s)", v->scaling_efficiency, v->c.execution_time);
    else
        add(buf, len, "- (%.6f s)", v->c.execution_time);
    add(buf, len, " on %s", t->machines[m].machine);
}

int pz_scale_fixes(const struct pz_scale_table *t, size_t i, size_t m, int ranks)
{
    const struct pz_scale_value *v = pz_scale_value_at(t, i, m, ranks);

    return v && v->relative && v->scaling_efficiency >= PZ_SCALE_STOP_EFFICIENCY;
}

/* The machines that fix interval i: "A fixes it", "A and B fix it", "A, B and C fix it". */
static void say_fixers(const struct pz_scale_table *t, size_t i, int ranks, char *buf,
                       size_t len)
{
    size_t n = 0, total = 0;

    for (size_t m = 0; m < t->in->nseries; m++)
        total += m != t->comparison.slowest && pz_scale_fixes(t, i, m, ranks);
    if (!total) {
        add(buf, len, "no other machine keeps it at %.2g or more", PZ_SCALE_STOP_EFFICIENCY);
        return;
    }
    for (size_t m = 0; m < t->in->nseries; m++) {
        if (m == t->comparison.slowest || !pz_scale_fixes(t, i, m, ranks))
            continue;
        n++;
        add(buf, len, "%s%s", n == 1 ? "" : n == total ? " and " : ", ", t->machines[m].machine);
    }
    add(buf, len, " fix%s it (%.2g or more)", total == 1 ? "es" : "", PZ_SCALE_STOP_EFFICIENCY);
}

static void say_fix(const struct pz_scale_table *t, char *buf, size_t len)
{
    size_t slow = t->comparison.slowest;
    const struct pz_scale_machine *s = &t->machines[slow];
    const struct pz_scale_finding *f = &t->findings[slow];
    const struct pz_scale_value *v;
    const char *separator = " ";
    char label[600];

    if (f->interval < 0) {
        add(buf, len, "On the slowest machine, %s, no interval stops scaling up to %d "
            "processes: there is nothing for the others to fix.", s->machine,
            s->entries[s->n - 1].ranks);
        return;
    }
    v = slowest_stop(t);
    pz_scale_interval_label(t, (size_t)f->interval, label, sizeof(label));
    add(buf, len, "On the slowest machine, %s, %s stops scaling first: at %d processes its "
        "scaling efficiency is %.3f (%.6f s). There it is", s->machine, label, v->ranks,
        v->scaling_efficiency, v->c.execution_time);
    for (size_t m = 0; m < t->in->nseries; m++) {
        if (m == slow)
            continue;
        add(buf, len, "%s", separator);
        say_value_on(t, (size_t)f->interval, m, v->ranks, buf, len);
        separator = ", ";
    }
    add(buf, len, ": ");
    say_fixers(t, (size_t)f->interval, v->ranks, buf, len);
    add(buf, len, ".");
}

/* Why the cause's kind of lost time yields, or not, to a faster network. */
static const char *remedy_reason(enum pz_scale_cause cause, enum pz_scale_remedy remedy)
{
    switch (cause) {
    case PZ_SCALE_CAUSE_COMMUNICATION:
        return "time in transfers, which a faster network can remove";
    case PZ_SCALE_CAUSE_SYNCHRONIZATION:
        if (remedy == PZ_SCALE_REMEDY_NETWORK)
            return "the waiting follows from late transfers, which a faster network can "
                   "remove";
        /* waiting no longer than the imbalance: the imbalance's reason */
        /* fall through */
    case PZ_SCALE_CAUSE_LOAD_IMBALANCE:
        return "no network fixes this: the processes wait for the slowest's computation";
    case PZ_SCALE_CAUSE_INSUFFICIENT_PARALLELISM:
        return "no network fixes this: the computation is duplicated in sequential "
               "intervals, not divided between the processes";
    case PZ_SCALE_CAUSE_IDLE:
        return "the processes wait outside the interval for the slowest, which a faster "
               "network shortens only as far as transfers keep the slowest there";
    default:
        return "MPI_Init, MPI_Finalize and communicator management, which a faster network "
               "shortens only as far as they transfer data";
    }
}

static void say_remedy(const struct pz_scale_table *t, char *buf, size_t len)
{
    const struct pz_scale_comparison *c = &t->comparison;
    const struct pz_scale_finding *f = &t->findings[c->slowest];
    const struct pz_scale_value *v;

    if (f->interval < 0)
        return;
    v = slowest_stop(t);
    add(buf, len, "Its largest lost part there on %s is %s, %.6f s",
        t->machines[c->slowest].machine, pz_scale_cause_name(f->cause), f->cause_time);
    if (f->cause == PZ_SCALE_CAUSE_SYNCHRONIZATION)
        add(buf, len, ", %s its load imbalance, %.6f s",
            c->remedy == PZ_SCALE_REMEDY_NETWORK ? "more than" : "no more than",
            v->c.load_imbalance);
    add(buf, len, ": %s.", remedy_reason(f->cause, c->remedy));
}

/* The fastest at the comparison's count among the machines with `ppn` processes per
 * node. */
static size_t fastest_with(const struct pz_scale_table *t, int ppn)
{
    size_t best = t->in->nseries;

    for (size_t m = 0; m < t->in->nseries; m++)
        if (t->in->procs_per_node[m] == ppn &&
            (best == t->in->nseries || pz_scale_whole_time(t, m) < pz_scale_whole_time(t, best)))
            best = m;
    return best;
}

static void say_nodes(const struct pz_scale_table *t, char *buf, size_t len)
{
    const int *ppn = t->in->procs_per_node;
    int ranks = t->comparison.ranks, most = ppn ? ppn[0] : 0, fewest = most;
    size_t dense, sparse;

    for (size_t m = 1; ppn && m < t->in->nseries; m++) {
        most = ppn[m] > most ? ppn[m] : most;
        fewest = ppn[m] < fewest ? ppn[m] : fewest;
    }
    if (most == fewest)
        return;
    add(buf, len, "Processes per node:");
    for (size_t m = 0; m < t->in->nseries; m++)
        add(buf, len, "%s %d on %s (%d nodes at %d processes)", m ? "," : "", ppn[m],
            t->machines[m].machine, (ranks + ppn[m] - 1) / ppn[m], ranks);
    dense = fastest_with(t, most);
    sparse = fastest_with(t, fewest);
    if (pz_scale_whole_time(t, dense) > pz_scale_whole_time(t, sparse)) {
        size_t m = dense;
        int k = most;

        dense = sparse, most = fewest;
        sparse = m, fewest = k;
    }
    add(buf, len, ". The fastest with %d per node, %s, runs it ", most, t->machines[dense].machine);
    faster_than(buf, len, pz_scale_whole_time(t, dense), pz_scale_whole_time(t, sparse));
    add(buf, len, " the fastest with %d, %s", fewest, t->machines[sparse].machine);
    add(buf, len, ": machines compared whole, whose networks may differ too, not the nodes "
        "alone.");
}

void pz_scale_comparison_text(const struct pz_scale_table *t,
                              enum pz_scale_comparison_sentence which, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!t->comparison.ranks)
        return;
    switch (which) {
    case PZ_SCALE_SAY_FASTEST:
        say_fastest(t, buf, len);
        break;
    case PZ_SCALE_SAY_KEEPS:
        say_keeps(t, buf, len);
        break;
    case PZ_SCALE_SAY_FIX:
        say_fix(t, buf, len);
        break;
    case PZ_SCALE_SAY_REMEDY:
        say_remedy(t, buf, len);
        break;
    default:
        say_nodes(t, buf, len);
    }
}
