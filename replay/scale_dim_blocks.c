/* Point-to-point sizes that differ between processes as a block distribution along a
 * dimension of the grid (struct sp_dim_blocks).  A code splitting N cells over the d
 * processes of a dimension gives the process at coordinate c floor(N / d) of them, one
 * more when c < N mod d, and its halo along another dimension is that block of cells:
 * at 601 cells over 4 processes, 151, 150, 150 and 150.  The largest, which the fit of
 * a size over P takes (scale_numbers.c), gives every process 151.  The law is taken
 * only when, for one dimension, every recording agrees: the two sizes a recording has
 * differ by the item's bytes (the unit), the larger at the coordinates below some k (N
 * mod d), N there being the smaller's items times d plus k; a recording with one size
 * (d divides N) gives N as that size's items times d.  N is then an exact whole form of
 * P over the recordings (usually a constant), and must give back every process's size.
 * As in the blocks of v collectives (scale_vsizes.c), but along the grid, not over a
 * communicator's ranks. */
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "trace.h"

int sp_offset_message(const struct sp_event *e)
{
    return (e->kind == PZ_REC_SEND || e->kind == PZ_REC_RECV || e->kind == PZ_REC_ISEND ||
            e->kind == PZ_REC_IRECV) &&
           e->peer.kind == PZ_SCALE_PEER_OFFSET;
}

/* A process's coordinate along dimension d of its recording's grid, and the
 * dimension's extent (1 beyond the grid's dimensions). */
static void place_along(const struct pz_scale_run *run, int p, int d, uint32_t *c,
                        uint32_t *extent)
{
    int inside = d < run->grid.ndims;

    *c = inside ? (uint32_t)run->procs[p].coords[d] : 0;
    *extent = inside ? (uint32_t)run->grid.dims[d] : 1;
}

/* The sizes of one recording's processes, by their coordinate along dimension d: the
 * smallest, the largest, up to which coordinate (exclusive) the largest was moved, and
 * the dimension's extent. */
struct bounds {
    uint64_t lo, hi;
    uint32_t upto, extent;
    uint8_t has;
};

/* The bounds of recording run (seen: its processes' sizes); -1 when a process's size
 * changed from one pass to the next. */
static int bounds_of(const struct pz_scale_run *run, const struct sp_seen *seen, int d,
                     struct bounds *b)
{
    memset(b, 0, sizeof(*b));
    for (int p = 0; seen && p < run->nprocs; p++) {
        uint32_t c;

        if (!seen[p].seen)
            continue;
        if (seen[p].varies)
            return -1;
        place_along(run, p, d, &c, &b->extent);
        if (!b->has || seen[p].bytes < b->lo)
            b->lo = seen[p].bytes;
        if (!b->has || seen[p].bytes > b->hi)
            b->hi = seen[p].bytes;
        b->has = 1;
    }
    for (int p = 0; seen && p < run->nprocs; p++) {
        uint32_t c, extent;

        place_along(run, p, d, &c, &extent);
        if (seen[p].seen && seen[p].bytes == b->hi && c + 1 > b->upto)
            b->upto = c + 1;
    }
    return 0;
}

/* Whether b gives every process of recording run its size. */
static int holds_at(const struct sp_dim_blocks *b, const struct pz_scale_run *run,
                    const struct sp_seen *seen)
{
    uint64_t items = sp_whole_at(&b->items, run->nprocs);

    for (int p = 0; seen && p < run->nprocs; p++) {
        uint32_t c, extent;

        place_along(run, p, b->dim, &c, &extent);
        if (seen[p].seen && seen[p].bytes != sp_block_share(b->unit, extent, c, items))
            return 0;
    }
    return 1;
}

/* The law along dimension d into b: 1 when it gives every size recorded, else 0. */
static int fit_along(const struct pz_scale_program *m, struct sp_seen *const *seen, int d,
                     struct sp_dim_blocks *b)
{
    struct bounds at[64];
    struct pz_scale_point p[64];
    size_t np = 0;

    b->dim = (uint8_t)d;
    b->unit = 0;
    for (size_t r = 0; r < m->nruns; r++) {
        if (bounds_of(m->runs[r], seen[r], d, &at[r]) != 0)
            return 0;
        if (!at[r].has || at[r].hi == at[r].lo)
            continue;
        if (b->unit && at[r].hi - at[r].lo != b->unit)
            return 0;
        b->unit = at[r].hi - at[r].lo;
    }
    if (!b->unit)
        return 0;
    for (size_t r = 0; r < m->nruns; r++) {
        if (!at[r].has)
            continue;
        if (at[r].lo % b->unit)
            return 0;
        p[np] = (struct pz_scale_point){
            .procs = m->runs[r]->nprocs,
            .time = (double)(at[r].lo / b->unit * at[r].extent +
                             (at[r].hi != at[r].lo ? at[r].upto : 0))};
        memcpy(p[np++].dims, m->runs[r]->grid.dims, sizeof(p[0].dims));
    }
    if (sp_fit(p, np, SP_WHOLE, NULL, &b->items) != 1)
        return 0;
    for (size_t r = 0; r < m->nruns; r++)
        if (!holds_at(b, m->runs[r], seen[r]))
            return 0;
    return 1;
}

int sp_dim_blocks_fit(const struct pz_scale_program *m, const struct sp_event *e,
                      struct sp_seen *const *seen, struct sp_dim_blocks **out)
{
    struct sp_dim_blocks b;

    *out = NULL;
    if (!sp_offset_message(e) || m->nruns > 64)
        return 0;
    for (int d = 0; d < m->grid.ndims; d++)
        if (e->peer.off[d] == 0 && fit_along(m, seen, d, &b)) {
            if (!(*out = malloc(sizeof(**out))))
                return -1;
            **out = b;
            return 0;
        }
    return 0;
}

uint64_t sp_dim_blocks_at(const struct sp_dim_blocks *b, const struct pz_scale_grid *g,
                          int nprocs, int proc)
{
    int c[PZ_SCALE_MAX_DIMS] = {0};

    pz_scale_grid_coords(g, proc, c);
    return sp_block_share(b->unit, (uint32_t)g->dims[b->dim], (uint32_t)c[b->dim],
                          sp_whole_at(&b->items, nprocs));
}
