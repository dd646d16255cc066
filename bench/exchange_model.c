/* exchange_model: what a machine file's model makes of calibrate's program loop, for
 * comparing with what calibrate measured (bench/README.md, "small exchanges over TCP").
 * Built by make bench (or make bench/exchange_model in the build tree):
 *
 *   bench/exchange_model MACHINE BYTES COMPUTE_US
 *
 * Two processes on nodes of their own repeat 2000 times: compute COMPUTE_US, then
 * MPI_Irecv and MPI_Isend of BYTES to the other and MPI_Waitall (one MPI call from the
 * receive's post to the wait's end, so that the resume overhead sees the computation).
 * Prints the period of process 0 beyond COMPUTE_US over the iterations after the
 * 100th, and the mean distance between the two processes' sends leaving their CPUs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "comsys.h"
#include "machine.h"

#define COUNT 2000
#define SETTLED 100

/* A process's current iteration: when its exchange is posted (its computation's end),
 * whether it is, its two requests and its MPI call. */
struct process {
    double start;
    int posted, done, req[2], call;
};

/* The process whose exchange is due next: not posted, the earliest start; -1 if none. */
static int due(const struct process *x)
{
    int p = -1;

    for (int i = 0; i < 2; i++)
        if (!x[i].posted && x[i].done < COUNT && (p < 0 || x[i].start < x[p].start))
            p = i;
    return p;
}

int main(int argc, char **argv)
{
    struct pz_machine m;
    struct pz_comsys *cs;
    struct process x[2];
    char err[512];
    double bytes, compute, first = NAN, sent[2] = { 0, 0 }, apart = 0;
    int napart = 0;

    if (argc != 4) {
        fprintf(stderr, "usage: exchange_model MACHINE BYTES COMPUTE_US\n");
        return 2;
    }
    pz_machine_defaults(&m);
    if (pz_machine_load(argv[1], &m, err, sizeof(err)) != 0) {
        fprintf(stderr, "exchange_model: %s\n", err);
        return 1;
    }
    bytes = atof(argv[2]);
    compute = atof(argv[3]) * 1e-6;
    m.procs_per_node = 1;
    if (!(cs = pz_comsys_new(&m, 2)))
        return 1;
    for (int i = 0; i < 2; i++) {
        x[i] = (struct process){ compute, 0, 0, { -1, -1 }, -1 };
        pz_comsys_leave(cs, i, pz_comsys_enter(cs, i, 0), 0);
    }
    while (x[0].done < COUNT || x[1].done < COUNT) {
        int p = due(x);

        if (p >= 0 && x[p].start <= pz_comsys_next(cs)) {
            x[p].call = pz_comsys_enter(cs, p, x[p].start);
            x[p].req[0] = pz_comsys_recv(cs, p, 1 - p, 0, 0, x[p].start);
            x[p].req[1] = pz_comsys_send(cs, p, 1 - p, 0, 0, bytes, PZ_SEND_STANDARD,
                                         x[p].start);
            sent[p] = pz_comsys_cpu_free(cs, p);
            x[p].posted = 1;
        } else if (pz_comsys_next(cs) == INFINITY) {
            break;
        } else {
            pz_comsys_step(cs);
        }
        for (int i = 0; i < 2; i++) {
            struct process *q = &x[i];
            double end;

            if (!q->posted || pz_comsys_done(cs, q->req[0]) < 0 ||
                pz_comsys_done(cs, q->req[1]) < 0)
                continue;
            end = fmax(pz_comsys_deliver(cs, q->req[1], q->start),
                       pz_comsys_deliver(cs, q->req[0], q->start));
            end = fmax(end, pz_comsys_cpu_free(cs, i));
            pz_comsys_leave(cs, i, q->call, end);
            pz_comsys_release(cs, q->req[0]);
            pz_comsys_release(cs, q->req[1]);
            q->posted = 0;
            q->done++;
            q->start = end + compute;
            if (i == 0 && q->done == SETTLED)
                first = q->start;
            if (i == 1 && q->done > SETTLED) {
                apart += fabs(sent[1] - sent[0]);
                napart++;
            }
        }
    }
    pz_comsys_free(cs);
    if (x[0].done < COUNT || napart == 0) {
        fprintf(stderr, "exchange_model: the model stopped before the end\n");
        return 1;
    }
    printf("per exchange beyond the computation: %.3f us; sends %.3f us apart (mean)\n",
           ((x[0].start - first) / (COUNT - SETTLED) - compute) * 1e6, apart / napart * 1e6);
    return 0;
}
