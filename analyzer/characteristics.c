/* Characteristics from the times of each process, by the definitions of
 * docs/characteristics.md.  Interval execution time is the longest of the processes';
 * a process's idle time is what it lacks of that; lost time is MPI time plus idle time
 * plus insufficient parallelism; productive time is the rest; integral values are sums
 * over the processes. */
#include <string.h>

#include "analysis.h"

static double interval_execution(const struct pz_analysis *a, const struct pz_node *n)
{
    double longest = 0;

    for (int p = 0; p < a->nprocs; p++)
        if (n->procs[p].count && n->procs[p].exec > longest)
            longest = n->procs[p].exec;
    return longest;
}

static double longest_cpu(const struct pz_analysis *a, const struct pz_node *n)
{
    double longest = 0;

    for (int p = 0; p < a->nprocs; p++)
        if (n->procs[p].count && n->procs[p].exec - n->procs[p].mpi > longest)
            longest = n->procs[p].exec - n->procs[p].mpi;
    return longest;
}

/* Process p's values, given the interval's execution time and longest CPU time. */
static void share(const struct pz_stats *s, double execution, double cpu_max,
                  struct pz_characteristics *c)
{
    memset(c, 0, sizeof(*c));
    if (!s->count)
        return;
    c->exe_count = s->count;
    c->processors = 1;
    c->execution_time = s->exec;
    c->total_time = execution;
    c->mpi_time = s->mpi;
    c->cpu_time = s->exec - s->mpi;
    c->idle_time = execution - s->exec;
    c->insufficient_parallelism = s->insufficient;
    c->lost_time = c->insufficient_parallelism + c->mpi_time + c->idle_time;
    c->productive_time = c->total_time - c->lost_time;
    c->efficiency = c->total_time > 0 ? c->productive_time / c->total_time : 1.0;
    c->sendrecv_time = s->sendrecv;
    c->collective_time = s->collective;
    c->alltoall_time = s->alltoall;
    c->communication_time = s->sendrecv + s->collective + s->alltoall;
    c->time_of_start = s->start;
    c->overlap = s->overlap;
    c->load_imbalance = cpu_max - c->cpu_time;
    c->synchronization = s->sync;
    c->real_synchronization = s->late_sender + s->late_receiver + s->wait_barrier +
                              s->wait_nxn + s->early_reduce + s->late_broadcast +
                              s->lock_contention;
    c->time_variation = s->variation;
    c->late_sender = s->late_sender;
    c->late_sender_wrong_order = s->wrong_order;
    c->late_receiver = s->late_receiver;
    c->wait_at_barrier = s->wait_barrier;
    c->barrier_completion = s->barrier_completion;
    c->wait_at_nxn = s->wait_nxn;
    c->nxn_completion = s->nxn_completion;
    c->early_reduce = s->early_reduce;
    c->late_broadcast = s->late_broadcast;
    c->io_time = s->io;
    c->rma_time = s->rma;
    c->io_bytes_read = s->io_read;
    c->io_bytes_written = s->io_written;
    c->rma_bytes_put = s->rma_put;
    c->rma_bytes_got = s->rma_got;
    c->lock_contention = s->lock_contention;
}

/* Adds every time of c to sum (the integral characteristics). */
static void add(struct pz_characteristics *sum, const struct pz_characteristics *c)
{
    sum->total_time += c->total_time;
    sum->productive_time += c->productive_time;
    sum->lost_time += c->lost_time;
    sum->insufficient_parallelism += c->insufficient_parallelism;
    sum->mpi_time += c->mpi_time;
    sum->cpu_time += c->cpu_time;
    sum->idle_time += c->idle_time;
    sum->communication_time += c->communication_time;
    sum->sendrecv_time += c->sendrecv_time;
    sum->collective_time += c->collective_time;
    sum->alltoall_time += c->alltoall_time;
    sum->time_of_start += c->time_of_start;
    sum->overlap += c->overlap;
    sum->load_imbalance += c->load_imbalance;
    sum->synchronization += c->synchronization;
    sum->real_synchronization += c->real_synchronization;
    sum->time_variation += c->time_variation;
    sum->late_sender += c->late_sender;
    sum->late_sender_wrong_order += c->late_sender_wrong_order;
    sum->late_receiver += c->late_receiver;
    sum->wait_at_barrier += c->wait_at_barrier;
    sum->barrier_completion += c->barrier_completion;
    sum->wait_at_nxn += c->wait_at_nxn;
    sum->nxn_completion += c->nxn_completion;
    sum->early_reduce += c->early_reduce;
    sum->late_broadcast += c->late_broadcast;
    sum->io_time += c->io_time;
    sum->rma_time += c->rma_time;
    sum->io_bytes_read += c->io_bytes_read;
    sum->io_bytes_written += c->io_bytes_written;
    sum->rma_bytes_put += c->rma_bytes_put;
    sum->rma_bytes_got += c->rma_bytes_got;
    sum->lock_contention += c->lock_contention;
}

struct pz_interval_bounds pz_interval_bounds(const struct pz_analysis *a,
                                             const struct pz_node *n)
{
    return (struct pz_interval_bounds){ interval_execution(a, n), longest_cpu(a, n) };
}

void pz_characteristics_within(const struct pz_node *n, const struct pz_interval_bounds *b,
                               int p, struct pz_characteristics *out)
{
    share(&n->procs[p], b->execution, b->cpu_max, out);
}

void pz_characteristics_of_process(const struct pz_analysis *a, const struct pz_node *n,
                                   int p, struct pz_characteristics *out)
{
    struct pz_interval_bounds b = pz_interval_bounds(a, n);

    pz_characteristics_within(n, &b, p, out);
}

void pz_characteristics_of(const struct pz_analysis *a, const struct pz_node *n,
                           struct pz_characteristics *out)
{
    double execution = interval_execution(a, n), cpu_max = longest_cpu(a, n);

    memset(out, 0, sizeof(*out));
    for (int p = 0; p < a->nprocs; p++) {
        struct pz_characteristics c;

        share(&n->procs[p], execution, cpu_max, &c);
        if (c.exe_count > out->exe_count)
            out->exe_count = c.exe_count;
        out->processors += c.processors;
        add(out, &c);
    }
    out->execution_time = execution;
    out->efficiency = out->total_time > 0 ? out->productive_time / out->total_time : 1.0;
}

struct pz_spread pz_characteristic_spread(const struct pz_analysis *a, const struct pz_node *n,
                                          size_t field)
{
    struct pz_spread s = { 0, 0, 0, -1, -1 };
    struct pz_interval_bounds b = pz_interval_bounds(a, n);
    int count = 0;

    for (int p = 0; p < a->nprocs; p++) {
        struct pz_characteristics c;
        double v;

        pz_characteristics_within(n, &b, p, &c);
        if (!c.exe_count)
            continue;
        memcpy(&v, (const char *)&c + field, sizeof(v));
        if (s.min_proc < 0 || v < s.min) {
            s.min = v;
            s.min_proc = p;
        }
        if (s.max_proc < 0 || v > s.max) {
            s.max = v;
            s.max_proc = p;
        }
        s.mean += v;
        count++;
    }
    if (count)
        s.mean /= count;
    return s;
}
