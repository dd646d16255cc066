/* collectives: the communication model's speed on collectives alone, counted as the
 * point-to-point messages their algorithms generate (bench/README.md, "Collectives").
 *
 *   collectives [--machine FILE] [--mpi SET] [--ranks P] [--bytes N] [--instances K]
 *
 * For each collective operation, K instances one after the other on a communicator of
 * P processes (all members start the next one when the last has left the previous one),
 * with blocks of N bytes, on the machine (default gigabit-switch, mpich4):
 * prints the algorithm chosen, the messages generated, the simulated time, the CPU
 * seconds, and messages per CPU second.  Peak memory is that of the whole run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "comsys.h"

#ifndef PZ_BENCH_MACHINE
#define PZ_BENCH_MACHINE "share/machines/gigabit-switch.conf"
#endif

static const enum pz_coll_op ops[] = {
    PZ_COLL_BARRIER, PZ_COLL_BCAST, PZ_COLL_GATHER, PZ_COLL_SCATTER, PZ_COLL_ALLGATHER,
    PZ_COLL_ALLTOALL, PZ_COLL_REDUCE, PZ_COLL_ALLREDUCE, PZ_COLL_REDUCE_SCATTER_BLOCK,
    PZ_COLL_SCAN,
};
static const char *const names[] = {
    "barrier", "bcast", "gather", "scatter", "allgather", "alltoall", "reduce",
    "allreduce", "reduce_scatter_block", "scan",
};

struct options {
    const char *machine, *mpi;
    int ranks, instances;
    double bytes;
};

static double cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* K instances of op by every member, each starting when the previous one has ended on
 * every member (the model's time only moves forward); the simulated end, or -1. */
static double run(struct pz_comsys *cs, int comm, struct pz_coll c, int ranks, int instances,
                  int *parts)
{
    double end = 0;

    for (int k = 0; k < instances && end >= 0; k++) {
        double start = end;

        for (c.me = 0; c.me < ranks; c.me++)
            if ((parts[c.me] = pz_comsys_collective(cs, comm, &c, start)) < 0)
                return -1;
        for (int i = 0; i < ranks && end >= 0; i++) {
            double done = pz_comsys_wait(cs, 1, &parts[i], start);

            pz_comsys_release(cs, parts[i]);
            if (done < 0)
                end = -1;
            else if (done > end)
                end = done;
        }
    }
    return end;
}

static int bench_op(const struct pz_machine *m, const struct options *o, int which)
{
    struct pz_coll c = { .op = ops[which], .size = o->ranks, .bytes = o->bytes };
    struct pz_comsys *cs = pz_comsys_new(m, o->ranks);
    int *procs = malloc((size_t)o->ranks * sizeof(int)), *parts = malloc((size_t)o->ranks * sizeof(int));
    const struct pz_coll_algo *algo = pz_coll_choose(m->mpi, &c);
    double cpu, end;
    int comm;

    if (!cs || !procs || !parts || !algo) {
        fprintf(stderr, "collectives: out of memory, or no algorithm for %s\n", names[which]);
        return -1;
    }
    for (int i = 0; i < o->ranks; i++)
        procs[i] = i;
    comm = pz_comsys_comm(cs, o->ranks, procs);
    cpu = cpu_now();
    end = run(cs, comm, c, o->ranks, o->instances, parts);
    cpu = cpu_now() - cpu;
    printf("%-22s %-40s %12llu %12.6f %9.3f %12.0f\n", names[which], algo->name,
           pz_comsys_messages(cs), end, cpu, (double)pz_comsys_messages(cs) / cpu);
    pz_comsys_free(cs);
    free(procs);
    free(parts);
    return end < 0 ? -1 : 0;
}

static int parse(int argc, char **argv, struct options *o)
{
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--machine"))
            o->machine = argv[i + 1];
        else if (!strcmp(argv[i], "--mpi"))
            o->mpi = argv[i + 1];
        else if (!strcmp(argv[i], "--ranks"))
            o->ranks = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--bytes"))
            o->bytes = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--instances"))
            o->instances = atoi(argv[i + 1]);
        else
            return -1;
    }
    return argc % 2 == 1 && o->ranks > 0 && o->instances > 0 && o->bytes >= 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    struct options o = { PZ_BENCH_MACHINE, NULL, 256, 10, 8 };
    struct pz_machine m;
    struct rusage ru;
    char err[1024];
    int rc = 0;

    if (parse(argc, argv, &o) != 0) {
        fprintf(stderr, "usage: collectives [--machine FILE] [--mpi SET] [--ranks P] "
                "[--bytes N] [--instances K]\n");
        return 2;
    }
    pz_machine_defaults(&m);
    if (pz_machine_load(o.machine, &m, err, sizeof(err)) != 0 ||
        (o.mpi && pz_machine_set_mpi(&m, o.mpi) != 0)) {
        fprintf(stderr, "collectives: %s\n", o.mpi ? "bad --mpi or machine file" : err);
        return 1;
    }
    printf("# %d ranks, %g B blocks, %d instances, machine %s, MPI %s\n", o.ranks, o.bytes,
           o.instances, m.name, m.mpi);
    printf("%-22s %-40s %12s %12s %9s %12s\n", "operation", "algorithm", "messages",
           "simulated s", "CPU s", "messages/s");
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        rc |= bench_op(&m, &o, (int)i);
    getrusage(RUSAGE_SELF, &ru);
    printf("# peak memory %.1f MB\n", ru.ru_maxrss / 1024.0);
    pz_machine_release(&m);
    return rc ? 1 : 0;
}
