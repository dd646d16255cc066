/* A butterfly's blocking send and receive ordered by the partner's bit (scale_program_int.h,
 * sp_order_*).  A recursive doubling written with MPI_Send and MPI_Recv cannot let both
 * partners send first (each would wait for the other's receive), so at each stage the
 * process below its partner (rank < partner) sends first and the other receives first:
 * which call a process makes first changes with its rank's bit at that stage, and no
 * loop describes every process.  The model is then built from copies of the recordings
 * in which every such pair is made in the order of the process below its partner, both
 * calls marked with their place (struct pz_scale_step.ordered, then the partner's
 * off[1], PZ_SCALE_ORDERED_FIRST and SECOND, as an exchange with every member in turn
 * marks its pairs), and the synthesis makes the pair the other way round where the
 * caller's rank is above its partner's.  The computation before each call stays where
 * it was recorded: the first call of a pair has the computation before the pair,
 * whichever it is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "trace.h"

/* The one message of step st of process p of run, its kind (PZ_REC_SEND or PZ_REC_RECV:
 * a blocking call) and its partner rank p XOR 2^i on the world into *q; 0 when the step
 * is no such call. */
static uint8_t blocking_stage(const struct pz_scale_run *run, int p,
                              const struct pz_scale_step *st, int *q)
{
    const struct pz_scale_event *e = &run->procs[p].events[st->first];

    if (st->kind != PZ_SCALE_CALL || st->n != 1 || e->peer.kind != PZ_SCALE_PEER_OFFSET ||
        (e->kind != PZ_REC_SEND && e->kind != PZ_REC_RECV) || e->comm >= run->ncomms ||
        run->comms[e->comm].kind != PZ_SCALE_COMM_WORLD)
        return 0;
    *q = sp_offset_rank(run, p, &run->comms[e->comm], &e->peer);
    if (*q < 0 || *q == p || ((*q ^ p) & ((*q ^ p) - 1)))
        return 0;
    return e->kind;
}

/* Whether steps s and s + 1 of process p of run are a send and a receive, in either
 * order, with one partner rank XOR 2^i; its rank into *q. */
static int pair_at(const struct pz_scale_run *run, int p, const struct pz_scale_step *steps,
                   int *q)
{
    uint8_t a, b;
    int other;

    a = blocking_stage(run, p, &steps[0], q);
    b = a ? blocking_stage(run, p, &steps[1], &other) : 0;
    return a && b && a != b && other == *q;
}

/* Steps s and s + 1 trade places, each computation before a call kept at its place. */
static void swap_calls(struct pz_scale_step *steps)
{
    struct pz_scale_step first = steps[0];

    steps[0] = steps[1];
    steps[1] = first;
    steps[1].gap_wall = steps[0].gap_wall;
    steps[1].gap_cpu = steps[0].gap_cpu;
    steps[0].gap_wall = first.gap_wall;
    steps[0].gap_cpu = first.gap_cpu;
}

/* Process p of copy (its steps its own) with every pair in the order of the process
 * below its partner, both marked with their place; how many it made the other way
 * round. */
static size_t order_process(struct pz_scale_run *copy, int p)
{
    struct pz_scale_process *proc = &copy->procs[p];
    size_t swapped = 0;
    int q;

    for (size_t s = 0; s + 1 < proc->nsteps; s++) {
        if (!pair_at(copy, p, &proc->steps[s], &q))
            continue;
        if (q < p) {
            swap_calls(&proc->steps[s]);
            swapped++;
        }
        proc->steps[s++].ordered = PZ_SCALE_ORDERED_FIRST;
        proc->steps[s].ordered = PZ_SCALE_ORDERED_SECOND;
    }
    return swapped;
}

/* A copy of run sharing all but its processes and their steps, into *copy.  0 or -1. */
static int copy_run(const struct pz_scale_run *run, struct pz_scale_run *copy)
{
    *copy = *run;
    if (!(copy->procs = calloc((size_t)run->nprocs, sizeof(*copy->procs))))
        return -1;
    for (int p = 0; p < run->nprocs; p++) {
        size_t n = run->procs[p].nsteps;

        copy->procs[p] = run->procs[p];
        if (!(copy->procs[p].steps = malloc((n ? n : 1) * sizeof(*copy->procs[p].steps))))
            return -1;
        memcpy(copy->procs[p].steps, run->procs[p].steps, n * sizeof(*copy->procs[p].steps));
    }
    return 0;
}

void sp_order_free(struct pz_scale_run *copies, size_t n)
{
    for (size_t r = 0; copies && r < n; r++) {
        for (int p = 0; copies[r].procs && p < copies[r].nprocs; p++)
            free(copies[r].procs[p].steps);
        free(copies[r].procs);
    }
    free(copies);
}

int sp_order_copy(const struct pz_scale_run *const *runs, size_t n,
                  struct pz_scale_run **copies)
{
    size_t swapped = 0;

    if (!(*copies = calloc(n, sizeof(**copies))))
        return -1;
    for (size_t r = 0; r < n; r++) {
        if (copy_run(runs[r], &(*copies)[r]) != 0) {
            sp_order_free(*copies, n);
            *copies = NULL;
            return -1;
        }
        for (int p = 0; p < runs[r]->nprocs; p++)
            swapped += order_process(&(*copies)[r], p);
    }
    if (swapped)
        return 1;
    sp_order_free(*copies, n);
    *copies = NULL;
    return 0;
}

/* The first step node of m that is the first of an ordered pair, SP_NONE; *apart set
 * when a call of such a pair has not the other beside it (the folds put them apart). */
static uint32_t first_pair(const struct pz_scale_program *m, int *apart)
{
    uint32_t first = SP_NONE;

    *apart = 0;
    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_event *e = sp_peer_of(m, k, PZ_SCALE_PEER_XOR);

        if (!e || !e->peer.off[1])
            continue;
        *apart |= !sp_ordered_beside(m, k, e);
        if (first == SP_NONE && e->peer.off[1] == PZ_SCALE_ORDERED_FIRST)
            first = k;
    }
    return first;
}

int sp_order_taken(struct pz_scale_program *m, char *kept, size_t keptlen)
{
    int apart;
    uint32_t k = first_pair(m, &apart);
    const char *a, *b;

    if (apart) {
        kept[0] = '\0';
        return 0;
    }
    if (k == SP_NONE)
        return 1;
    a = sp_sym_name(&m->table, m->nodes[k].sym);
    b = sp_sym_name(&m->table, m->nodes[k + 1].sym);
    if (sp_xor_short_grids(m) && sp_peer_of(m, k, PZ_SCALE_PEER_XOR)->peer.rank < 0) {
        snprintf(kept, keptlen, "%s and %s with partners rank XOR 2^i, log2(P) of them in "
                 "a loop at every recorded count, each process making first the one its "
                 "partner's bit decides, are also the stages of a recursive doubling, "
                 "which differs from the grid from twice the largest count on; "
                 "but they go from the highest bit down, as a loop over the dimensions of "
                 "the grid from the first addresses them (MPI_Dims_create's layout, ranks "
                 "in row-major order: the first dimension is the highest bit), and a halo "
                 "exchange ordered by the parity of the position makes the same calls: the "
                 "grid is kept; a recording where a dimension has more than 2 processes "
                 "would tell", a, b);
        return 0;
    }
    return sp_note(m, "%s and %s of each stage of the butterfly are made in the order the "
                   "partner's bit decides (the process below its partner, rank < partner, "
                   "makes %s first, the other %s first), as a recursive doubling of "
                   "blocking calls orders them", a, b, a, b) != 0 ? -1 : 1;
}
