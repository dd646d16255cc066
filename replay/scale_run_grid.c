/* The process grid of a recording (scale_run.h): the topology of a communicator
 * MPI_Cart_create made of every process in the world's order, if a message uses one, or
 * if a call uses a slice of it (MPI_Cart_sub's) and every message fits it; else, of
 * MPI_Dims_create's
 * layouts in 1, 2 and 3 dimensions, the one in which every point-to-point peer is a
 * neighbour (-1, 0 or +1 per dimension, or across the ends of a dimension longer than 2,
 * which is then periodic) and the distinct offsets are the fewest, the fewer dimensions
 * winning a tie; or a topology of every process that no message uses, where the messages
 * fit it with no more distinct offsets.  The messages of a communicator and tag that only
 * messages to or from world rank 0 carry (a gather or scatter written by hand) take no
 * part in the choice. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "scale_run_int.h"
#include "trace.h"
#include "trace_calls.h"

/* 3^PZ_SCALE_MAX_DIMS neighbour offsets */
#define NEIGHBOURS 27

/* One candidate layout and what the messages make of it. */
struct candidate {
    struct pz_scale_grid g;
    int fits;                       /* every peer so far is a neighbour */
    uint8_t seen[NEIGHBOURS];       /* of each neighbour offset */
    int distinct;
};

/* The message from process p to process q in layout c. */
static void place_message(struct candidate *c, int p, int q)
{
    int a[PZ_SCALE_MAX_DIMS], b[PZ_SCALE_MAX_DIMS], code = 0;

    pz_scale_grid_coords(&c->g, p, a);
    pz_scale_grid_coords(&c->g, q, b);
    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++) {
        int n = c->g.dims[d], off = b[d] - a[d];

        if (n > 2 && (off == n - 1 || off == 1 - n)) {   /* across the ends */
            off = off > 0 ? -1 : 1;
            c->g.periodic[d] = 1;
        }
        if (off < -1 || off > 1) {
            c->fits = 0;
            return;
        }
        code = code * 3 + off + 1;
    }
    if (!c->seen[code]) {
        c->seen[code] = 1;
        c->distinct++;
    }
}

/* The neighbours of process p's neighbourhood collective raw as messages to them. */
static void place_neighbours(struct pz_scale_reading *r, struct candidate *c, int nc, int p,
                             const struct pz_scale_raw *raw)
{
    double *bytes;
    int *q, n = pz_scale_nbr_lists(r, p, raw, &bytes, &q);

    for (int j = 0; j < n; j++)
        for (int k = 0; q[j] >= 0 && (bytes[j] != 0 || bytes[n + j] != 0) && k < nc; k++)
            if (c[k].fits)
                place_message(&c[k], p, q[j]);
    free(bytes);
    free(q);
}

/* Every message and one-sided target of every process in each layout that still fits,
 * and every neighbour of its neighbourhood collectives (the lists name the same peers
 * messages would). */
static void place_messages(struct pz_scale_reading *r, struct candidate *c, int nc)
{
    for (int p = 0; p < r->run->nprocs; p++) {
        const struct pz_scale_process *proc = &r->run->procs[p];

        for (size_t i = 0; i < proc->nevents; i++) {
            const struct pz_scale_raw *raw = &r->raw[p][i];
            int q;

            if (raw->nbr)
                place_neighbours(r, c, nc, p, raw);
            if (!pz_scale_has_target(proc->events[i].kind) || raw->common || raw->any ||
                raw->rooted)
                continue;
            /* a peer that is not defined fails when the peers are made relative */
            if ((q = pz_call_process(r->in, p, raw->comm, raw->peer)) < 0)
                continue;
            for (int k = 0; k < nc; k++)
                if (c[k].fits)
                    place_message(&c[k], p, q);
        }
    }
}

/* Whether communicator comm has every process, in the world's order, and a topology of
 * at most PZ_SCALE_MAX_DIMS dimensions: its grid into g. */
static int world_topology(struct pz_scale_reading *r, uint32_t comm, struct pz_scale_grid *g)
{
    const struct pz_cart_def *t = pz_trace_in_cart(r->in, comm);
    const int *procs;

    if (!t || t->ndims < 1 || t->ndims > PZ_SCALE_MAX_DIMS ||
        pz_trace_in_comm(r->in, comm, &procs) != r->run->nprocs)
        return 0;
    for (int p = 0; p < r->run->nprocs; p++)
        if (procs[p] != p)
            return 0;
    memset(g, 0, sizeof(*g));
    g->ndims = (int)t->ndims;
    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++) {
        g->dims[d] = d < g->ndims ? (int)t->dims[d] : 1;
        g->periodic[d] = d < g->ndims && t->periodic[d];
    }
    g->from_topology = 1;
    return 1;
}

/* The grid of the first world-wide topology a message of the run uses; 0 if none. */
static int grid_from_topology(struct pz_scale_reading *r)
{
    for (int p = 0; p < r->run->nprocs; p++)
        for (size_t i = 0; i < r->run->procs[p].nevents; i++)
            if (pz_scale_has_target(r->run->procs[p].events[i].kind) &&
                world_topology(r, r->raw[p][i].comm, &r->run->grid))
                return 1;
    return 0;
}

/* Whether the members of communicator comm are a slice of grid g other than the whole
 * grid: they differ along some dimensions over their whole length (a row, a column, a
 * plane) and agree along the others.  A communicator of one process is a slice along a
 * dimension of length 1 (a row of a grid of 2 x 1). */
static int slice_of(struct pz_scale_reading *r, uint32_t comm, const struct pz_scale_grid *g)
{
    const int *procs;
    int n = pz_trace_in_comm(r->in, comm, &procs), first[PZ_SCALE_MAX_DIMS];
    int at[PZ_SCALE_MAX_DIMS], varies[PZ_SCALE_MAX_DIMS] = {0}, along = 1;

    if (n <= 1) {
        for (int d = 0; n >= 0 && d < g->ndims; d++)
            if (g->dims[d] == 1)
                return 1;
        return 0;
    }
    if (n >= r->run->nprocs)
        return 0;
    pz_scale_grid_coords(g, procs[0], first);
    for (int i = 1; i < n; i++) {
        pz_scale_grid_coords(g, procs[i], at);
        for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
            varies[d] |= at[d] != first[d];
    }
    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
        if (varies[d])
            along *= g->dims[d];
    return along == n;
}

/* How many distinct offsets the run's messages and neighbours take in grid g, -1 when
 * one is not next to its sender. */
static int offsets_in(struct pz_scale_reading *r, const struct pz_scale_grid *g)
{
    struct candidate c = { .g = *g, .fits = 1 };

    place_messages(r, &c, 1);
    return c.fits ? c.distinct : -1;
}

/* The world-wide topology that communicator comm, one with a topology of its own of
 * fewer dimensions (MPI_Cart_sub's), is a slice of, into g: one defined before it, as
 * MPI_Cart_sub's grid is made before its slices. */
static int parent_topology(struct pz_scale_reading *r, uint32_t comm, struct pz_scale_grid *g)
{
    const struct pz_cart_def *t = pz_trace_in_cart(r->in, comm);

    if (!t || world_topology(r, comm, g))
        return 0;
    for (uint32_t c = 0; c < comm; c++)
        if (world_topology(r, c, g) && t->ndims < (uint32_t)g->ndims && slice_of(r, comm, g))
            return 1;
    return 0;
}

/* Whether every message of the run is on a communicator with a topology of its own that
 * is a slice of grid g (MPI_Cart_sub's rows and columns of it), whoever its peers in it
 * are. */
static int all_on_slices(struct pz_scale_reading *r, const struct pz_scale_grid *g)
{
    int some = 0;

    for (int p = 0; p < r->run->nprocs; p++)
        for (size_t i = 0; i < r->run->procs[p].nevents; i++) {
            uint32_t comm = r->raw[p][i].comm;

            if (!pz_scale_has_target(r->run->procs[p].events[i].kind) || r->raw[p][i].common)
                continue;
            if (comm == PZ_NONE32 || !pz_trace_in_cart(r->in, comm) || !slice_of(r, comm, g))
                return 0;
            some = 1;
        }
    return some;
}

/* The grid of the world-wide topology whose slices (MPI_Cart_sub's rows and columns) the
 * run's calls use, in place of run->grid (inferred from the messages) where there is no
 * message or the messages fit it with fewer distinct offsets, or every message is on
 * such a slice (an exchange with every member of a row, whose partners are no
 * neighbours): a program that talks along the rows and columns of a grid by collectives
 * alone has its grid, as one whose messages use the topology does, and one whose
 * messages follow another grid (a ring) keeps theirs. */
static void grid_from_slices(struct pz_scale_reading *r)
{
    uint8_t *seen = NULL;
    uint32_t nseen = 0;
    struct pz_scale_grid g;
    int found = 0, theirs, mine;

    for (int p = 0; p < r->run->nprocs && !found; p++)
        for (size_t i = 0; i < r->run->procs[p].nevents && !found; i++) {
            uint32_t comm = r->raw[p][i].comm;

            if (comm == PZ_NONE32 || (comm < nseen && seen[comm]))
                continue;
            if (pz_grow((void **)&seen, &nseen, comm, 1) != 0)
                break;
            seen[comm] = 1;
            found = parent_topology(r, comm, &g);
        }
    free(seen);
    if (!found)
        return;
    theirs = offsets_in(r, &r->run->grid);
    mine = offsets_in(r, &g);
    if ((mine >= 0 && (mine < theirs || theirs == 0)) || (mine < 0 && all_on_slices(r, &g)))
        r->run->grid = g;
}

/* The grid of the first topology of every process in the world's order that no message
 * uses and that the messages fit with no more distinct offsets than run->grid (inferred
 * from them), in its place: a program that asks MPI_Cart_create for its neighbours
 * (MPI_Cart_shift) and then sends to them on MPI_COMM_WORLD (LAMMPS, which frees the
 * topology) has the layout it chose, which need not be MPI_Dims_create's (LAMMPS's
 * 3 x 3 x 4 at 36 processes, where MPI_Dims_create's is 4 x 3 x 3). */
static void grid_from_defined_topology(struct pz_scale_reading *r)
{
    struct pz_scale_grid g;
    int theirs = offsets_in(r, &r->run->grid);

    for (uint32_t comm = 0; comm < pz_trace_in_ncomms(r->in); comm++)
        if (world_topology(r, comm, &g)) {
            int mine = offsets_in(r, &g);

            if (mine > 0 && (theirs < 0 || mine <= theirs)) {
                r->run->grid = g;
                return;
            }
        }
}

/* The layout of MPI_Dims_create in which the messages fit best (above). */
static void infer_from_messages(struct pz_scale_reading *r)
{
    struct candidate c[PZ_SCALE_MAX_DIMS] = { 0 };
    struct pz_scale_run *run = r->run;
    int best = -1;

    if (r->ndims >= 1 && r->ndims <= PZ_SCALE_MAX_DIMS) {
        struct candidate forced = { .fits = 1 };

        pz_scale_grid_balanced(&forced.g, run->nprocs, r->ndims);
        forced.g.first_fastest = (uint8_t)r->first_fastest;
        place_messages(r, &forced, 1);
        run->grid = forced.g;
        return;
    }
    for (int k = 0; k < PZ_SCALE_MAX_DIMS; k++) {
        pz_scale_grid_balanced(&c[k].g, run->nprocs, k + 1);
        c[k].g.first_fastest = (uint8_t)r->first_fastest;
        c[k].fits = 1;
    }
    place_messages(r, c, PZ_SCALE_MAX_DIMS);
    for (int k = 0; k < PZ_SCALE_MAX_DIMS; k++)
        if (c[k].fits && (best < 0 || c[k].distinct < c[best].distinct))
            best = k;
    if (best >= 0)
        run->grid = c[best].g;
    else
        pz_scale_grid_balanced(&run->grid, run->nprocs, 1);
}

/* A message's channel: its communicator and tag, and whether a message on it is
 * between two processes other than world rank 0. */
struct channel {
    uint64_t key;
    uint8_t unrooted;
};

static int is_message(uint8_t kind)
{
    return kind == PZ_REC_SEND || kind == PZ_REC_ISEND || kind == PZ_REC_RECV ||
           kind == PZ_REC_IRECV;
}

static int by_key(const void *a, const void *b)
{
    const struct channel *x = a, *y = b;

    return x->key < y->key ? -1 : x->key > y->key;
}

/* The channel of event i of process p, its world partner into *q (-1: none). */
static uint64_t channel_of(struct pz_scale_reading *r, int p, size_t i, int *q)
{
    const struct pz_scale_raw *raw = &r->raw[p][i];

    *q = raw->comm == PZ_NONE32 || raw->peer == PZ_NONE32
             ? -1 : pz_call_process(r->in, p, raw->comm, raw->peer);
    return (uint64_t)raw->comm << 32 | r->run->procs[p].events[i].tag;
}

/* The channels of the run's messages, each once, unrooted where one of its messages
 * is; sorted, into *out, their number (-1: memory). */
static long channels(struct pz_scale_reading *r, struct channel **out)
{
    uint32_t n = 0, cap = 0, w = 0;
    struct channel *v = NULL;

    for (int p = 0; p < r->run->nprocs; p++)
        for (size_t i = 0; i < r->run->procs[p].nevents; i++) {
            int q;
            uint64_t key = channel_of(r, p, i, &q);

            if (!is_message(r->run->procs[p].events[i].kind) || q < 0)
                continue;
            if (pz_grow((void **)&v, &cap, n, sizeof(*v)) != 0) {
                free(v);
                return -1;
            }
            v[n++] = (struct channel){key, p != 0 && q != 0};
        }
    if (n)
        qsort(v, n, sizeof(*v), by_key);
    for (uint32_t i = 0; i < n; i++)
        if (w && v[w - 1].key == v[i].key)
            v[w - 1].unrooted |= v[i].unrooted;
        else
            v[w++] = v[i];
    *out = v;
    return (long)w;
}

/* Marks the messages of the channels that only messages to or from world rank 0 use
 * (struct pz_scale_raw.rooted), at 3 processes or more (at 2 every message is so): a
 * gather to rank 0 written by hand makes every process a partner of rank 0, which only
 * a grid of 2 along every dimension has as neighbours, whatever grid the program's other
 * messages follow (a ring).  Left unmarked when memory runs out. */
static void mark_rooted(struct pz_scale_reading *r)
{
    struct channel *v;
    long n;

    if (r->run->nprocs < 3 || (n = channels(r, &v)) <= 0)
        return;
    for (int p = 0; p < r->run->nprocs; p++)
        for (size_t i = 0; i < r->run->procs[p].nevents; i++) {
            int q;
            struct channel key = {channel_of(r, p, i, &q), 0};
            const struct channel *c;

            if (!is_message(r->run->procs[p].events[i].kind) || q < 0)
                continue;
            c = bsearch(&key, v, (size_t)n, sizeof(*v), by_key);
            r->raw[p][i].rooted = c && !c->unrooted;
        }
    free(v);
}

void pz_scale_infer_grid(struct pz_scale_reading *r)
{
    mark_rooted(r);
    if (!grid_from_topology(r)) {
        infer_from_messages(r);
        if (r->ndims == 0 && !r->first_fastest) {
            grid_from_slices(r);
            if (!r->run->grid.from_topology)
                grid_from_defined_topology(r);
        }
    }
    for (int p = 0; p < r->run->nprocs; p++)
        pz_scale_grid_coords(&r->run->grid, p, r->run->procs[p].coords);
}

int pz_scale_grid_offset(const struct pz_scale_grid *g, int d, const int *a, const int *b)
{
    int n = g->dims[d], off = b[d] - a[d];

    if (d < g->ndims && g->periodic[d]) {
        if (2 * off > n)
            off -= n;
        else if (2 * off < -n)
            off += n;
    }
    return off;
}
