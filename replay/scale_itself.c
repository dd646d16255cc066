/* Why a step sent to the process itself where a dimension of the grid has 1 process is
 * in no recording where it has 2 (scale_program_int.h, sp_itself_why).  A program whose
 * neighbours along a periodic dimension come from MPI_Cart_shift, or from rank
 * arithmetic modulo the dimension's length, sends to itself where the dimension has 1
 * process, and to its one neighbour, both sides at once, where it has 2; a program that
 * does not wrap sends to no one along it there.  The recordings show a grid's
 * periodicity only where a dimension has 3 processes or more (scale_grid.c): where it
 * has at most 2 in every one, the model takes it as not wrapping, its calls to the
 * process itself as steps of their own, made where it has 1 process and nowhere it has
 * 2, which no guard of positions says.  Whether the dimension wraps, and which
 * neighbour each call addresses along it, are then what the recordings cannot tell. */
#include <stdio.h>

#include "scale_program_int.h"

/* Whether every offset peer of node k's events is the process itself, at least one. */
static int sends_to_itself(const struct pz_scale_program *m, uint32_t k)
{
    const struct sp_sym *s = &m->table.syms[m->nodes[k].sym];
    int some = 0;

    for (uint32_t j = 0; j < s->n; j++) {
        const struct sp_event *e = &m->table.events[s->first + j];

        if (!sp_grid_offset(e))
            continue;
        for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++)
            if (sp_world_dim(&e->comm, i) >= 0 && e->peer.off[i] != 0)
                return 0;
        some = 1;
    }
    return some;
}

/* The dimension that has 1 process in every recording that made node k and 2 in every
 * other, none of them from a topology (which says whether it wraps); -1 if none. */
static int single_where_made(const struct pz_scale_program *m, uint32_t k)
{
    for (int d = 0; d < m->grid.ndims; d++) {
        size_t r = 0;

        for (; r < m->nruns; r++) {
            int made = m->first_proc[(size_t)k * m->nruns + r] != SP_NONE;

            if (m->runs[r]->grid.from_topology || m->runs[r]->grid.dims[d] != (made ? 1 : 2))
                break;
        }
        if (r == m->nruns)
            return d;
    }
    return -1;
}

int sp_itself_why(const struct pz_scale_program *m, uint32_t k, char *why, size_t len)
{
    size_t with = 0, without = 0;
    int d;

    if (!sends_to_itself(m, k) || (d = single_where_made(m, k)) < 0)
        return 0;
    while (m->first_proc[(size_t)k * m->nruns + with] == SP_NONE)
        with++;
    while (m->first_proc[(size_t)k * m->nruns + without] != SP_NONE)
        without++;
    snprintf(why, len, "; its messages go to the process itself in %s, where the grid's "
             "dimension %d has 1 process, as a program's to its neighbours along a "
             "dimension that wraps around do (MPI_Cart_shift's on a periodic grid, or rank "
             "arithmetic modulo its length), and the dimension has 2 processes in %s and "
             "at most 2 in every recording, where the previous process and the next are "
             "one: whether it wraps around, and which neighbour each call addresses along "
             "it, cannot be told; a recording where it has 3 processes or more would tell",
             m->runs[with]->path, d, m->runs[without]->path);
    return 1;
}
