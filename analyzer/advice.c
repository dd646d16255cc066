/* Advice on an interval from its characteristics. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "advice.h"

#define SHARE(part, whole) ((whole) > 0 ? 100.0 * (part) / (whole) : 0.0)

struct advisor {
    const struct pz_analysis *a;
    const struct pz_node *n;
    struct pz_characteristics m;
    char name[300];
    char (*out)[PZ_ADVICE_LEN];
    int count;
};

static void say(struct advisor *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct advisor *v, const char *fmt, ...)
{
    va_list ap;

    if (v->count >= PZ_ADVICE_MAX)
        return;
    va_start(ap, fmt);
    vsnprintf(v->out[v->count++], PZ_ADVICE_LEN, fmt, ap);
    va_end(ap);
}

static struct pz_spread spread(const struct advisor *v, size_t field)
{
    return pz_characteristic_spread(v->a, v->n, field);
}

/* The wait state that weighs most, by name, with the process that waits most in it. */
static void worst_wait(struct advisor *v)
{
    static const struct { const char *name; size_t field; } waits[] = {
        { "Late Sender (receives posted before their message was sent)",
          offsetof(struct pz_characteristics, late_sender) },
        { "Late Receiver (sends blocked until the receive was posted)",
          offsetof(struct pz_characteristics, late_receiver) },
        { "Wait at Barrier", offsetof(struct pz_characteristics, wait_at_barrier) },
        { "Wait at NxN (all-to-all collectives waiting for the last process)",
          offsetof(struct pz_characteristics, wait_at_nxn) },
        { "Early Reduce (the root waiting for the senders)",
          offsetof(struct pz_characteristics, early_reduce) },
        { "Late Broadcast (processes waiting for the root)",
          offsetof(struct pz_characteristics, late_broadcast) },
    };
    size_t worst = 0;
    double most = -1;

    for (size_t i = 0; i < sizeof(waits) / sizeof(waits[0]); i++) {
        double t = *(const double *)((const char *)&v->m + waits[i].field);

        if (t > most) {
            most = t;
            worst = i;
        }
    }
    if (most > 0) {
        struct pz_spread s = spread(v, waits[worst].field);

        say(v, "The largest wait state in %s is %s: %.6f s, most on process %s (%.6f s).",
            v->name, waits[worst].name, most, pz_process_label(v->a, s.max_proc).text, s.max);
    }
}

static void synchronization(struct advisor *v)
{
    const struct pz_characteristics *m = &v->m;
    struct pz_spread cpu = spread(v, offsetof(struct pz_characteristics, cpu_time));

    say(v, "Of it, %.6f s (%.0f%%) is synchronization: processes waiting for their partners, "
        "not transferring data.", m->synchronization,
        SHARE(m->synchronization, m->communication_time));
    if (m->load_imbalance >= 0.5 * m->synchronization)
        say(v, "The waiting comes from load imbalance (%.6f s): process %s computes %.6f s, "
            "process %s %.6f s; balance the work between them.", m->load_imbalance,
            pz_process_label(v->a, cpu.max_proc).text, cpu.max,
            pz_process_label(v->a, cpu.min_proc).text, cpu.min);
    else if (m->time_variation >= 0.5 * m->synchronization)
        say(v, "The waiting comes from collective operations ending at different times "
            "(time variation %.6f s) rather than from unequal computation.", m->time_variation);
    worst_wait(v);
}

static void communication(struct advisor *v)
{
    const struct pz_characteristics *m = &v->m;

    say(v, "Communication takes %.6f s of the %.6f s lost in %s (%.0f%%): point-to-point "
        "%.6f s, collective %.6f s, all-to-all %.6f s.", m->communication_time, m->lost_time,
        v->name, SHARE(m->communication_time, m->lost_time), m->sendrecv_time,
        m->collective_time, m->alltoall_time);
    if (m->synchronization >= 0.5 * m->communication_time)
        synchronization(v);
    else
        say(v, "Little of it is waiting (synchronization %.6f s): the transfers themselves "
            "cost; send fewer or larger messages, or overlap them with computation.",
            m->synchronization);
}

/* Whether node s lies inside node n or is n. */
static int within(const struct pz_analysis *a, int s, const struct pz_node *n)
{
    for (; s >= 0; s = a->nodes[s].parent)
        if (&a->nodes[s] == n)
            return 1;
    return 0;
}

/* The outermost sequential interval within v's interval that loses most, -1 if none. */
static int worst_sequential(const struct advisor *v, double *lost, int *processors)
{
    int worst = -1;

    *lost = 0;
    for (int s = 0; s < v->a->nnodes; s++) {
        const struct pz_node *n = &v->a->nodes[s];
        struct pz_characteristics c;

        if (!n->sequential || (n->parent >= 0 && v->a->nodes[n->parent].sequential) ||
            !within(v->a, s, v->n))
            continue;
        pz_characteristics_of(v->a, n, &c);
        if (c.insufficient_parallelism > *lost) {
            *lost = c.insufficient_parallelism;
            *processors = c.processors;
            worst = s;
        }
    }
    return worst;
}

/* 003's first question: is the loss computation that every process repeats? */
static void insufficient(struct advisor *v)
{
    double lost;
    int processors = 0, s = worst_sequential(v, &lost, &processors);

    say(v, "Insufficient parallelism takes %.6f s of the %.6f s lost in %s (%.0f%%): "
        "computation that every process executing it duplicates.", v->m.insufficient_parallelism,
        v->m.lost_time, v->name, SHARE(v->m.insufficient_parallelism, v->m.lost_time));
    if (s >= 0) {
        const struct pz_node *n = &v->a->nodes[s];

        say(v, "Most of it is sequential interval %u (%s:%u): %.6f s lost repeating it on %d "
            "processes; divide its work between them, or compute it once and send the result.",
            n->id, strrchr(n->file, '/') ? strrchr(n->file, '/') + 1 : n->file, n->line, lost,
            processors);
    }
}

static void idle(struct advisor *v)
{
    struct pz_spread exec = spread(v, offsetof(struct pz_characteristics, execution_time));

    say(v, "Idle time is %.6f s of the %.6f s lost in %s (%.0f%%): process %s executes it "
        "for %.6f s, process %s for only %.6f s.", v->m.idle_time, v->m.lost_time, v->name,
        SHARE(v->m.idle_time, v->m.lost_time), pz_process_label(v->a, exec.max_proc).text,
        exec.max, pz_process_label(v->a, exec.min_proc).text, exec.min);
}

int pz_advice(const struct pz_analysis *a, const struct pz_node *n,
              char sentences[][PZ_ADVICE_LEN])
{
    struct advisor v = { .a = a, .n = n, .out = sentences };
    const struct pz_characteristics *m = &v.m;
    double other;

    pz_characteristics_of(a, n, &v.m);
    if (m->total_time <= 0 || m->lost_time < 0.1 * m->total_time)
        return 0;
    if (n->parent < 0)
        snprintf(v.name, sizeof(v.name), "the whole run");
    else
        snprintf(v.name, sizeof(v.name), "interval %u (%s:%u)", n->id,
                 strrchr(n->file, '/') ? strrchr(n->file, '/') + 1 : n->file, n->line);
    say(&v, "%c%s loses %.0f%% of its processors' time (efficiency %.3f, lost %.6f s of "
        "%.6f s).", v.name[0] - 'a' + 'A', v.name + 1,
        SHARE(m->lost_time, m->total_time), m->efficiency, m->lost_time, m->total_time);
    /* the largest part of the lost time; on a tie, the first in 003's order */
    other = m->mpi_time - m->communication_time;
    if (m->insufficient_parallelism > 0 && m->insufficient_parallelism >= m->communication_time &&
        m->insufficient_parallelism >= m->idle_time && m->insufficient_parallelism >= other)
        insufficient(&v);
    else if (m->communication_time >= m->idle_time && m->communication_time >= other)
        communication(&v);
    else if (m->idle_time >= other)
        idle(&v);
    else if (m->io_time > 0 || m->rma_time > 0)
        say(&v, "MPI calls other than communication take %.6f s of it: MPI-IO %.6f s, "
            "one-sided %.6f s, the rest %.6f s (creating communicators, MPI_Init, probes "
            "without messages...).", other, m->io_time, m->rma_time,
            fmax(other - m->io_time - m->rma_time, 0));
    else
        say(&v, "MPI calls other than communication take %.6f s of it (creating "
            "communicators, MPI_Init, probes without messages...).", other);
    return v.count;
}
