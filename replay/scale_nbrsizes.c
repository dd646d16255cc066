/* The sizes of neighbourhood collectives (struct sp_nbrsizes).
 *
 * MPI_Neighbor_alltoallv and its kin exchange with the neighbours of the communicator's
 * topology only; the recorder writes them as an Alltoallv whose per-peer lists are
 * nonzero at the neighbours (docs/trace-format.md).  Where those neighbours are, for
 * every process, next to it in the process grid (scale_run_comm.c: offsets -1, 0 or +1
 * per dimension), the exchange is a halo exchange like a stencil's point-to-point
 * messages, and is modelled as they are: one size per offset and way, a function of P
 * fitted over the recordings.  A process synthesized sends each neighbour that exists
 * at its place in the larger grid the size of that neighbour's offset, and nothing to
 * the others. */
#include <math.h>
#include <stdlib.h>

#include "scale_program_int.h"

/* Offset code o's offset in the communicator's dimension i. */
static int offset_in(int o, int i)
{
    for (int k = PZ_SCALE_MAX_DIMS - 1; k > i; k--)
        o /= 3;
    return o % 3 - 1;
}

int sp_neighbour(const struct pz_scale_grid *g, const struct pz_scale_comm *c,
                 const int *coords, int o)
{
    int at[PZ_SCALE_MAX_DIMS];

    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
        at[d] = coords[d];
    for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++) {
        int d = sp_world_dim(c, i), off = offset_in(o, i);

        if (off && d < 0)
            return -1;
        if (d >= 0)
            at[d] += off;
    }
    return pz_scale_grid_rank(g, at);
}

/* The largest sizes (out[0] sent, out[1] received) the processes of recording r that
 * have a neighbour at o moved to it; 0 when none has one, else 1, or 2 when they moved
 * different amounts. */
static int largest_at(const struct pz_scale_program *m, const struct sp_event *e,
                      const struct sp_seen *seen, size_t r, int o, uint64_t *out)
{
    const struct pz_scale_run *run = m->runs[r];
    int have = 0, differ = 0;

    for (int p = 0; seen && p < run->nprocs; p++) {
        const struct pz_scale_nbr *t = seen[p].nbr;
        uint64_t v[2];

        if (!seen[p].seen || !t || sp_neighbour(&run->grid, &e->comm, run->procs[p].coords,
                                                o) < 0)
            continue;
        v[0] = t->sent[o];
        v[1] = t->received[o];
        for (int w = 0; w < 2; w++) {
            differ |= seen[p].varies || (have && v[w] != out[w]);
            if (!have || v[w] > out[w])
                out[w] = v[w];
        }
        have = 1;
    }
    return have ? 1 + differ : 0;
}

int sp_nbrsizes_fit(const struct pz_scale_program *m, const struct sp_event *e,
                    struct sp_seen *const *seen, struct sp_nbrsizes **out)
{
    const struct sp_grid_use grid = {m->grid.ndims, 1};   /* a halo: the block's side */
    struct sp_nbrsizes *z = calloc(1, sizeof(*z));
    struct pz_scale_point pt[2][64];

    if (!(*out = z))
        return -1;
    for (int o = 0; o < PZ_SCALE_OFFSETS; o++) {
        size_t n = 0;
        int any = 0;

        for (size_t r = 0; r < m->nruns && n < 64; r++) {
            uint64_t size[2];
            int found = largest_at(m, e, seen[r], r, o, size);

            if (!found)
                continue;
            z->differ |= (uint32_t)(found == 2) << o;
            any |= size[0] || size[1];
            for (int w = 0; w < 2; w++) {
                pt[w][n] = (struct pz_scale_point){.procs = m->runs[r]->nprocs,
                                                   .time = (double)size[w]};
                for (int d = 0; d < PZ_SCALE_FIT_DIMS; d++)
                    pt[w][n].dims[d] = m->runs[r]->grid.dims[d];
            }
            n++;
        }
        if (!any) {
            z->differ &= ~(1u << o);
            continue;
        }
        z->offsets |= 1u << o;
        /* too few counts give a constant, which stands */
        for (int w = 0; w < 2; w++)
            sp_fit(pt[w], n, SP_WHOLE, &grid, &z->of[o][w]);
    }
    return 0;
}

/* The rank of world rank q in comm, -1 none. */
static int64_t member_rank(const struct pz_synth_comm *comm, int q)
{
    if (!comm->members)
        return q < (int)comm->size ? q : -1;
    for (uint32_t j = 0; j < comm->size; j++)
        if (comm->members[j] == q)
            return j;
    return -1;
}

void sp_nbrsizes_row(const struct sp_nbrsizes *z, const struct pz_scale_grid *g,
                     const struct pz_scale_comm *c, const struct pz_synth_comm *comm,
                     const int *coords, uint64_t *out)
{
    int nprocs = 1;

    for (int d = 0; d < g->ndims; d++)
        nprocs *= g->dims[d];
    for (uint32_t j = 0; j < 2 * comm->size; j++)
        out[j] = 0;
    for (int o = 0; o < PZ_SCALE_OFFSETS; o++) {
        int q = z->offsets >> o & 1 ? sp_neighbour(g, c, coords, o) : -1;
        int64_t j = q < 0 ? -1 : member_rank(comm, q);

        for (int w = 0; j >= 0 && w < 2; w++) {
            double x = pz_scale_model_at(&z->of[o][w], nprocs);

            out[j * 2 + w] += x > 0 ? (uint64_t)llround(x) : 0;
        }
    }
}
