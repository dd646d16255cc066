/* The sizes of neighbourhood collectives (struct sp_nbrsizes).
 *
 * MPI_Neighbor_alltoallv and its kin, blocking or not, exchange with the neighbours of
 * the communicator's topology only; the recorder writes them as an Alltoallv whose
 * per-peer lists are nonzero at the neighbours (docs/trace-format.md).  Where those
 * neighbours are, for every process, next to it in the process grid (scale_run_comm.c:
 * offsets -1, 0 or +1 per dimension), the exchange is a halo exchange like a stencil's
 * point-to-point messages, and is modelled as they are: one size per offset and way, a
 * function of P fitted over the recordings.  A process synthesized sends each neighbour
 * that exists at its place in the larger grid the size of that neighbour's offset, and
 * nothing to the others.
 *
 * A recording in which a dimension the offset moves along is periodic and of 2
 * processes shows both neighbours along it at one offset (of 1, at the process itself):
 * it does not tell the offset's size, and is left out of its fit unless no recording
 * tells it.  Where the processes of a recording moved different amounts to an offset
 * (the faces of the boundary processes of a non-periodic grid, the last block of an
 * uneven split), and the processes of each position class (first, middle or last in
 * every dimension: the corners, edges and interior) moved one amount in every
 * recording, the size is fitted per class; a class found in fewer than two recordings
 * takes the largest.  Sizes that differ within every grouping by position are the
 * data's (a particle code's halos): they take the mean over the processes (with a
 * note). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Whether recording r tells the size at offset o of event e: no dimension of its
 * communicator is periodic and of 1 process there, or of 2 where o moves along it. */
static int tells(const struct pz_scale_program *m, const struct sp_event *e, size_t r, int o)
{
    uint8_t ambiguous = sp_ambiguous_dims(m, m->runs[r]);

    for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++) {
        int d = sp_world_dim(&e->comm, i);

        if (d >= 0 && (ambiguous >> d & 1) &&
            (m->runs[r]->grid.dims[d] == 1 || offset_in(o, i) != 0))
            return 0;
    }
    return 1;
}

/* Whether the process p of recording r is at position pos (NULL: any; 0 in a
 * dimension: anywhere along it) and has a neighbour at o in its table. */
static int counts_at(const struct pz_scale_program *m, const struct sp_event *e,
                     const struct sp_seen *seen, size_t r, int p, int o, const uint8_t *pos)
{
    const struct pz_scale_run *run = m->runs[r];
    uint8_t here[PZ_SCALE_MAX_DIMS];

    if (!seen[p].seen || !seen[p].nbr ||
        sp_neighbour(&run->grid, &e->comm, run->procs[p].coords, o) < 0)
        return 0;
    sp_positions(&run->grid, run->procs[p].coords, here);
    for (int d = 0; pos && d < PZ_SCALE_MAX_DIMS; d++)
        if (pos[d] && pos[d] != here[d])
            return 0;
    return 1;
}

/* The largest sizes (out[0] sent, out[1] received) the processes of recording r at
 * position pos (NULL: any) that have a neighbour at o moved to it; 0 when none has one,
 * else 1, or 2 when they moved different amounts. */
static int largest_at(const struct pz_scale_program *m, const struct sp_event *e,
                      const struct sp_seen *seen, size_t r, int o, const uint8_t *pos,
                      uint64_t *out)
{
    int have = 0, differ = 0;

    for (int p = 0; seen && p < m->runs[r]->nprocs; p++) {
        const struct pz_scale_nbr *t = seen[p].nbr;
        uint64_t v[2];

        if (!counts_at(m, e, seen, r, p, o, pos))
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

/* The mean sizes (out[0] sent, out[1] received) the processes of recording r that have
 * a neighbour at o moved to it (their first pass's), and each direction's smallest and
 * largest into spread[w][0 .. 1]; 0 when none has one. */
static int mean_over_procs(const struct pz_scale_program *m, const struct sp_event *e,
                           const struct sp_seen *seen, size_t r, int o, double *out,
                           uint64_t spread[2][2])
{
    double sum[2] = {0, 0};
    int n = 0;

    for (int p = 0; seen && p < m->runs[r]->nprocs; p++) {
        const struct pz_scale_nbr *t = seen[p].nbr;
        uint64_t v[2];

        if (!counts_at(m, e, seen, r, p, o, NULL))
            continue;
        v[0] = t->sent[o];
        v[1] = t->received[o];
        for (int w = 0; w < 2; w++) {
            if (!n)
                spread[w][0] = spread[w][1] = v[w];
            sum[w] += (double)v[w];
            spread[w][0] = v[w] < spread[w][0] ? v[w] : spread[w][0];
            spread[w][1] = v[w] > spread[w][1] ? v[w] : spread[w][1];
        }
        n++;
    }
    for (int w = 0; n && w < 2; w++)
        out[w] = sum[w] / n;
    return n > 0;
}

/* Which recordings are left out of offset o's fit: those that do not tell it, unless
 * none does (bit r). */
static uint64_t left_out(const struct pz_scale_program *m, const struct sp_event *e, int o)
{
    uint64_t untold = 0;

    for (size_t r = 0; r < m->nruns && r < 64; r++)
        if (!tells(m, e, r, o))
            untold |= (uint64_t)1 << r;
    return m->nruns <= 64 && untold == ((uint64_t)1 << (m->nruns - 1) << 1) - 1 ? 0 : untold;
}

/* Fits the sizes at offset o of the processes at position pos (NULL: the largest of
 * all) over the recordings in of[]; how many recordings have the class, or -1 when its
 * processes moved different amounts in one.  The last recording's sizes and index into
 * last[0 .. 2]. */
static int fit_at(const struct pz_scale_program *m, const struct sp_event *e,
                  struct sp_seen *const *seen, int o, const uint8_t *pos,
                  struct pz_scale_model *of, int *any, int *differ, uint64_t *last)
{
    /* a halo: the block's side */
    const struct sp_grid_use grid = {m->grid.ndims, 1, m->grid.ascending};
    struct pz_scale_point pt[2][64];
    uint64_t skip = left_out(m, e, o);
    size_t n = 0;

    for (size_t r = 0; r < m->nruns && n < 64; r++) {
        uint64_t size[2];
        int found;

        if ((r < 64 && (skip >> r & 1)) ||
            !(found = largest_at(m, e, seen[r], r, o, pos, size)))
            continue;
        if (found == 2 && pos)
            return -1;
        *differ |= found == 2;
        *any |= size[0] || size[1];
        last[0] = size[0];
        last[1] = size[1];
        last[2] = r;
        for (int w = 0; w < 2; w++) {
            pt[w][n] = (struct pz_scale_point){.procs = m->runs[r]->nprocs,
                                               .time = (double)size[w]};
            for (int d = 0; d < PZ_SCALE_FIT_DIMS; d++)
                pt[w][n].dims[d] = m->runs[r]->grid.dims[d];
        }
        n++;
    }
    /* too few counts give a constant, which stands */
    for (int w = 0; n && w < 2; w++)
        sp_fit(pt[w], n, SP_WHOLE, &grid, &of[w]);
    return (int)n;
}

/* Fits the sizes at offset o that differ within every class of position into z: the
 * mean over the processes that have that neighbour per recording, a function of P (in
 * whole bytes at P, as the point-to-point sizes that differ between processes); the
 * spread of the recording with the most processes that shows one between its
 * processes (the sent sizes', else the received), for the note. */
static void fit_mean(const struct pz_scale_program *m, const struct sp_event *e,
                     struct sp_seen *const *seen, int o, struct sp_nbrsizes *z)
{
    const struct sp_grid_use grid = {m->grid.ndims, 1, m->grid.ascending};
    struct pz_scale_point pt[2][64];
    uint64_t skip = left_out(m, e, o);
    size_t n = 0;

    for (size_t r = 0; r < m->nruns && n < 64; r++) {
        uint64_t spread[2][2];
        double mean[2];

        if ((r < 64 && (skip >> r & 1)) ||
            !mean_over_procs(m, e, seen[r], r, o, mean, spread))
            continue;
        for (int w = 0; w < 2; w++)
            if (spread[w][0] != spread[w][1] && m->runs[r]->nprocs > z->procs) {
                z->low = spread[w][0];
                z->high = spread[w][1];
                z->procs = m->runs[r]->nprocs;
            }
        for (int w = 0; w < 2; w++) {
            pt[w][n] = (struct pz_scale_point){.procs = m->runs[r]->nprocs, .time = mean[w]};
            for (int d = 0; d < PZ_SCALE_FIT_DIMS; d++)
                pt[w][n].dims[d] = m->runs[r]->grid.dims[d];
        }
        n++;
    }
    /* too few counts give a constant, which stands */
    for (int w = 0; n && w < 2; w++)
        (void)sp_fit(pt[w], n, SP_AMOUNT, &grid, &z->of[o][w]);
}

/* Adds the position of every process of the recordings that has a neighbour at o,
 * along the dimensions of `dims` only (0 along the others), to pos[] (distinct, at most
 * max); their number. */
static int positions_at(const struct pz_scale_program *m, const struct sp_event *e,
                        struct sp_seen *const *seen, int o, unsigned dims,
                        uint8_t (*pos)[PZ_SCALE_MAX_DIMS], int max)
{
    int n = 0;

    for (size_t r = 0; r < m->nruns; r++)
        for (int p = 0; seen[r] && p < m->runs[r]->nprocs; p++) {
            uint8_t here[PZ_SCALE_MAX_DIMS];
            int k = 0;

            if (!counts_at(m, e, seen[r], r, p, o, NULL))
                continue;
            sp_positions(&m->runs[r]->grid, m->runs[r]->procs[p].coords, here);
            for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
                here[d] = dims >> d & 1 ? here[d] : 0;
            while (k < n && memcmp(pos[k], here, sizeof(here)))
                k++;
            if (k == n && n < max)
                memcpy(pos[n++], here, sizeof(here));
        }
    return n;
}

/* The class of position pos at offset o: its own fit where two recordings or more have
 * it, else its share of the largest in the one that has it. */
static void fit_class(const struct pz_scale_program *m, const struct sp_event *e,
                      struct sp_seen *const *seen, int o, const uint8_t *pos,
                      struct sp_nbrclass *c)
{
    uint64_t last[3] = {0}, largest[3] = {0};
    int any = 0, differ = 0;

    c->offset = (uint8_t)o;
    memcpy(c->pos, pos, sizeof(c->pos));
    c->share[0] = c->share[1] = -1;
    switch (fit_at(m, e, seen, o, pos, c->of, &any, &differ, last)) {
    case 0:        /* only where the recordings do not tell: the largest */
        c->share[0] = c->share[1] = 1;
        return;
    case 1:
        break;
    default:
        return;
    }
    largest_at(m, e, seen[last[2]], last[2], o, NULL, largest);
    for (int w = 0; w < 2; w++)
        c->share[w] = largest[w] ? (double)last[w] / (double)largest[w] : 0;
}

/* Whether the processes of each class of position along the dimensions of `dims`
 * moved one amount to o in every recording; their classes into pos[], *n of them. */
static int classes_tell(const struct pz_scale_program *m, const struct sp_event *e,
                        struct sp_seen *const *seen, int o, unsigned dims,
                        uint8_t (*pos)[PZ_SCALE_MAX_DIMS], int *n)
{
    uint64_t skip = left_out(m, e, o), size[2];

    *n = positions_at(m, e, seen, o, dims, pos, 64);
    for (int k = 0; k < *n; k++)
        for (size_t r = 0; r < m->nruns; r++)
            if (!(r < 64 && (skip >> r & 1)) &&
                largest_at(m, e, seen[r], r, o, pos[k], size) == 2)
                return 0;
    return 1;
}

/* The sizes at offset o per position class, appended to *z (grown) with classed set,
 * when the processes of each class moved one amount in every recording: the classes of
 * position along the fewest dimensions that do.  1 when they do, 0 when no classes do,
 * -1 when memory runs out. */
static int fit_classes(const struct pz_scale_program *m, const struct sp_event *e,
                       struct sp_seen *const *seen, int o, struct sp_nbrsizes **z)
{
    uint8_t pos[64][PZ_SCALE_MAX_DIMS];   /* first, middle, last or both per dimension */
    unsigned all = (1u << m->grid.ndims) - 1, dims = 0;
    struct sp_nbrsizes *v;
    int n = 0;

    for (int k = 1; !dims && k <= m->grid.ndims; k++)
        for (unsigned d = 1; !dims && d <= all; d++)
            if (__builtin_popcount(d) == k && classes_tell(m, e, seen, o, d, pos, &n))
                dims = d;
    if (!dims || !n)
        return 0;
    v = realloc(*z, sizeof(**z) + ((*z)->nclasses + (uint32_t)n) * sizeof((*z)->classes[0]));
    if (!v)
        return -1;
    for (int k = 0; k < n; k++)
        fit_class(m, e, seen, o, pos[k], &v->classes[v->nclasses++]);
    v->classed |= 1u << o;
    *z = v;
    return 1;
}

int sp_nbrsizes_fit(const struct pz_scale_program *m, const struct sp_event *e,
                    struct sp_seen *const *seen, struct sp_nbrsizes **out)
{
    struct sp_nbrsizes *z = calloc(1, sizeof(*z));

    if (!(*out = z))
        return -1;
    for (int o = 0; o < PZ_SCALE_OFFSETS; o++) {
        int any = 0, differ = 0, classed;
        uint64_t last[3];

        if (!fit_at(m, e, seen, o, NULL, z->of[o], &any, &differ, last) || !any)
            continue;
        z->offsets |= 1u << o;
        if (!differ)
            continue;
        if ((classed = fit_classes(m, e, seen, o, &z)) < 0)
            return -1;
        *out = z;
        if (!classed)
            fit_mean(m, e, seen, o, z);
        z->differ |= (uint32_t)!classed << o;
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

/* The size at offset o and way w of the process at position pos, at nprocs: its
 * class's, else of[o]: the largest, or the mean where no class explains the sizes. */
static double size_of(const struct sp_nbrsizes *z, int o, int w, const uint8_t *pos,
                      int nprocs)
{
    double all = pz_scale_model_at(&z->of[o][w], nprocs);

    for (uint32_t i = 0; (z->classed >> o & 1) && i < z->nclasses; i++) {
        const struct sp_nbrclass *c = &z->classes[i];
        int d = 0;

        while (d < PZ_SCALE_MAX_DIMS && (!c->pos[d] || c->pos[d] == pos[d]))
            d++;
        if (c->offset == o && d == PZ_SCALE_MAX_DIMS)
            return c->share[w] < 0 ? pz_scale_model_at(&c->of[w], nprocs)
                                   : c->share[w] * all;
    }
    return all;
}

void sp_nbrsizes_row(const struct sp_nbrsizes *z, const struct pz_scale_grid *g,
                     const struct pz_scale_comm *c, const struct pz_synth_comm *comm,
                     const int *coords, uint64_t *out)
{
    uint8_t pos[PZ_SCALE_MAX_DIMS];
    int nprocs = 1;

    for (int d = 0; d < g->ndims; d++)
        nprocs *= g->dims[d];
    sp_positions(g, coords, pos);
    for (uint32_t j = 0; j < 2 * comm->size; j++)
        out[j] = 0;
    for (int o = 0; o < PZ_SCALE_OFFSETS; o++) {
        int q = z->offsets >> o & 1 ? sp_neighbour(g, c, coords, o) : -1;
        int64_t j = q < 0 ? -1 : member_rank(comm, q);

        for (int w = 0; j >= 0 && w < 2; w++) {
            double x = size_of(z, o, w, pos, nprocs);

            out[j * 2 + w] += x > 0 ? (uint64_t)llround(x) : 0;
        }
    }
}
