/* Whether recordings may be of exchanges with every member in turn (scale_program_int.h,
 * sp_pairs_candidate, sp_pairs_grid_too, sp_pairs_note_grid): some process of some
 * recording sends to or receives from every other member of the world or of a row or
 * column of the grid, which the model of such exchanges (scale_pairs.c) is then tried
 * for first.  Where every dimension of the grid has at most 2 processes in every
 * recording (2, 4 and 8: 2 x 1 x 1, 2 x 2 x 1, 2 x 2 x 2), every process is also a
 * neighbour of every other in the grid, and a halo exchange with 26 neighbours (LULESH's,
 * HPCG's, found by rank arithmetic in ascending order of the ranks at 8) sends to them
 * in the order of a loop over the ranks: there the exchange with every member is taken
 * only where the program made no grid of its own (MPI_Cart_create) and the evidence
 * holds at every process of every recording of 3 or more (scale_pairs.c): each run
 * reaches every other member, its messages of one size to every partner (a halo's
 * faces, edges and corners differ), and a note says what is assumed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"

/* The world rank of the peer of message event e of process p of run, -1 when none in
 * the grid; the dimensions its communicator keeps into *keep (0xff: the world). */
static int peer_rank(const struct pz_scale_run *run, int p, const struct pz_scale_event *e,
                     uint8_t *keep)
{
    const struct pz_scale_comm *c;

    if (e->comm >= run->ncomms || e->peer.kind != PZ_SCALE_PEER_OFFSET)
        return -1;
    c = &run->comms[e->comm];
    if (c->kind != PZ_SCALE_COMM_WORLD && c->kind != PZ_SCALE_COMM_SLICE)
        return -1;
    *keep = c->kind == PZ_SCALE_COMM_WORLD ? 0xff : c->keep;
    return sp_offset_rank(run, p, c, &e->peer);
}

/* The members of a communicator keeping dimensions keep (0xff: the world) of run. */
static int members(const struct pz_scale_run *run, uint8_t keep)
{
    int n = 1;

    if (keep == 0xff)
        return run->nprocs;
    for (int d = 0; d < run->grid.ndims; d++)
        if ((keep >> d) & 1)
            n *= run->grid.dims[d];
    return n;
}

/* Whether process p of run exchanges with every other member of a communicator of 3
 * members or more (the world at 4 processes or more): its distinct partners on it. */
static int with_every_member(const struct pz_scale_run *run, int p, uint8_t *seen)
{
    const struct pz_scale_process *proc = &run->procs[p];
    uint8_t keeps[8];
    int nkeeps = 0;

    for (size_t i = 0; i < proc->nevents; i++) {
        uint8_t keep;
        int k;

        if (peer_rank(run, p, &proc->events[i], &keep) < 0)
            continue;
        for (k = 0; k < nkeeps && keeps[k] != keep; k++)
            ;
        if (k == nkeeps && nkeeps < 8)
            keeps[nkeeps++] = keep;
    }
    for (int k = 0; k < nkeeps; k++) {
        int n = members(run, keeps[k]), found = 0;

        if (n < 3 || (keeps[k] == 0xff && n < 4))
            continue;
        memset(seen, 0, (size_t)run->nprocs);
        for (size_t i = 0; i < proc->nevents; i++) {
            uint8_t keep;
            int q = peer_rank(run, p, &proc->events[i], &keep);

            if (q >= 0 && q != p && keep == keeps[k] && !seen[q]) {
                seen[q] = 1;
                found++;
            }
        }
        if (found == n - 1)
            return 1;
    }
    return 0;
}

int sp_pairs_grid_too(const struct pz_scale_run *const *runs, size_t n)
{
    for (size_t r = 0; r < n; r++)
        for (int d = 0; d < runs[r]->grid.ndims; d++)
            if (runs[r]->grid.dims[d] > 2)
                return 0;
    return 1;
}

int sp_pairs_candidate(const struct pz_scale_run *const *runs, size_t n)
{
    int grid_too = sp_pairs_grid_too(runs, n);

    for (size_t r = 0; r < n; r++)
        if (grid_too && runs[r]->grid.from_topology)
            return 0;
    for (size_t r = 0; r < n; r++) {
        uint8_t *seen = malloc((size_t)runs[r]->nprocs);
        int found = 0;

        if (!seen)
            return 0;
        for (int p = 0; p < runs[r]->nprocs && !found; p++)
            found = with_every_member(runs[r], p, seen);
        free(seen);
        if (found)
            return 1;
    }
    return 0;
}

int sp_pairs_note_grid(struct pz_scale_program *m)
{
    char at[128];

    if (!sp_pairs_grid_too(m->runs, m->nruns))
        return 0;
    sp_recorded_counts(m, at, sizeof(at));
    return sp_note(m, "every dimension of the process grid has at most 2 processes in every "
                   "recording (%s), where every process is also a neighbour of every other: "
                   "the messages that every process, or rank 0 alone, exchanges with every "
                   "other member in turn, in loops of n - 1 iterations, of one size to every "
                   "partner, without a grid made by MPI_Cart_create, are taken for an "
                   "exchange with every member (an all-to-all written by hand, or rank 0's "
                   "gather or scatter), not a halo exchange with the grid's neighbours; a "
                   "halo of 26 neighbours whose messages are all of one size looks the same "
                   "there, which a recording with 3 processes along some dimension (12: 3 x "
                   "2 x 2) would tell apart", at);
}
