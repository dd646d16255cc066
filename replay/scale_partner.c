/* The process an offset peer names (scale_program_int.h, sp_offset_rank): a butterfly's
 * stages (scale_xor.c, scale_xor_law.c) and an exchange with every member in turn
 * (scale_pairs.c, scale_pairs_law.c) both recognise their partners by the world rank of
 * the process a recorded offset in the grid reaches, on the world or within a slice. */
#include <string.h>

#include "scale_program_int.h"

int sp_offset_rank(const struct pz_scale_run *run, int proc, const struct pz_scale_comm *c,
                   const struct pz_scale_peer *peer)
{
    const struct pz_scale_grid *g = &run->grid;
    int at[PZ_SCALE_MAX_DIMS];

    memcpy(at, run->procs[proc].coords, sizeof(at));
    for (int i = 0, d = 0; d < g->ndims; d++)
        if (c->kind != PZ_SCALE_COMM_SLICE || ((c->keep >> d) & 1))
            at[d] += peer->off[i++];
    return pz_scale_grid_rank(g, at);
}
