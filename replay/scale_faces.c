/* The sizes of a halo's messages along a dimension seen at fewer counts, taken from the
 * same calls along another (scale_faces.h).  A block split over a 3-D grid sends along
 * dimension d a face of the other two sides: c / (dims[e] * dims[f]).  Recorded at 2, 4
 * and 8 processes (2 x 1 x 1, 2 x 2 x 1, 2 x 2 x 2), the face along dimension 0 is seen
 * at 3 counts and its law is told, c / (dims[1] * dims[2]); the one along dimension 2 at
 * 8 alone (a constant), the one along 1 at 4 and 8, where dims[0] is 2 in both (c /
 * dims[2] fits as well as c / (dims[0] * dims[2])).  The exchange along each dimension
 * is the same calls (a stretch of steps along it, adjacent to the others'): each call's
 * sizes then take the law of the same call along the nearest other dimension, with the
 * two dimensions exchanged, where it gives every size recorded.  Where the dimension is
 * periodic and of at most 2 processes in every recording and the other's law is no
 * face's (LAMMPS's halos, which the data decide), the sizes follow that law scaled to
 * theirs at the largest recording that has them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_faces.h"

/* The one world dimension e's offset moves along, -1 when none or several. */
static int along(const struct sp_event *e)
{
    int dim = -1;

    if (!sp_grid_offset(e))
        return -1;
    for (int i = 0; i < PZ_SCALE_MAX_DIMS; i++) {
        int d = sp_world_dim(&e->comm, i);

        if (d < 0 || e->peer.off[i] == 0)
            continue;
        if (dim >= 0)
            return -1;
        dim = d;
    }
    return dim;
}

/* Is size w of z a plain exact model (no blocks, no mean, no share per member). */
static int plain(const struct sp_sizes *z, int w)
{
    return !z->unit[w] && !z->item[w] && !((z->per_peer >> w) & 1) &&
           z->of[w].max_error == 0;
}

/* A face's law: a grid model through the origin along dimension d, not of dims[d], of
 * at least two dimensions, told by 3 recordings or more. */
static int face_law(const struct pz_scale_model *f, int d, int ndims)
{
    int others = 0;

    if (f->grid_ndims != ndims || f->c0 != 0 || f->npoints < 3 || f->grid[d] != 0)
        return 0;
    for (int i = 0; i < ndims; i++)
        others += f->grid[i] < 0;
    return others >= 2;
}

/* --- the same calls along another dimension */

/* A stretch: consecutive steps of one loop's body (or outside loops) whose messages go
 * along one dimension alone, and their message events. */
struct stretch {
    int dim;
    uint32_t first, n;   /* in the events of stretches (struct stretches.ev) */
    uint32_t scope;      /* the innermost loop node around it, SP_NONE: none */
    uint32_t after;      /* the stretch before it is adjacent: no message between */
};

struct stretches {
    struct stretch *v;
    uint32_t n;
    uint32_t *ev;        /* m->events indices */
    uint32_t *node;      /* the step of each */
    uint32_t nev;
};

/* The one dimension of node k's message events (-2: none, -1: several). */
static int node_dim(const struct pz_scale_program *m, uint32_t k)
{
    const struct sp_node *nd = &m->nodes[k];
    int dim = -2;

    for (uint32_t i = 0; i < m->table.syms[nd->sym].n; i++) {
        const struct sp_event *e = m->events[nd->first_event + i].sig;
        int d = along(e);

        if (e->peer.kind != PZ_SCALE_PEER_OFFSET)
            continue;
        if (d < 0 || (dim >= 0 && d != dim))
            return -1;
        dim = d;
    }
    return dim;
}

/* The stretches of the template, in its order, into s (allocated: freed by the caller
 * even when this fails).  A step whose messages go along several dimensions, or along
 * none (to the process itself), ends a stretch; one without messages does not.  0 or -1. */
static int cut(const struct pz_scale_program *m, struct stretches *s)
{
    struct sp_loops loops = { 0 };
    uint32_t open = 0;

    if (!(s->v = malloc((m->nnodes ? m->nnodes : 1) * sizeof(*s->v))) ||
        !(s->ev = malloc((m->nevents ? m->nevents : 1) * sizeof(*s->ev))) ||
        !(s->node = malloc((m->nevents ? m->nevents : 1) * sizeof(*s->node))))
        return -1;
    s->n = s->nev = 0;
    for (uint32_t k = 0; k < m->nnodes; k++) {
        const struct sp_node *nd = &m->nodes[k];
        uint32_t scope;
        int d;

        if (sp_loops_at(m, &loops, k))
            open = 0;
        if (nd->kind != SP_STEP || (d = node_dim(m, k)) == -2)
            continue;
        scope = sp_loops_innermost(&loops);
        if (d < 0) {
            open = 0;
            continue;
        }
        if (!open || s->v[s->n - 1].dim != d) {
            s->v[s->n] = (struct stretch){ .dim = d, .first = s->nev, .scope = scope,
                                           .after = open };
            s->n++;
        }
        open = 1;
        for (uint32_t i = 0; i < m->table.syms[nd->sym].n; i++)
            if (along(m->events[nd->first_event + i].sig) == d) {
                s->node[s->nev] = k;
                s->ev[s->nev++] = nd->first_event + i;
                s->v[s->n - 1].n++;
            }
    }
    return 0;
}

/* Do stretch a's events come in stretch b from its event `from` on, in the same order
 * (their tags may name their dimension). */
static int same_shape(const struct pz_scale_program *m, const struct stretches *s,
                      const struct stretch *a, const struct stretch *b, uint32_t from)
{
    if (from + a->n > b->n)
        return 0;
    for (uint32_t j = 0; j < a->n; j++) {
        const struct sp_event *x = m->events[s->ev[a->first + j]].sig;
        const struct sp_event *y = m->events[s->ev[b->first + from + j]].sig;

        if (x->kind != y->kind || x->comm.kind != y->comm.kind)
            return 0;
    }
    return 1;
}

/* The dimensions periodic and of at most 2 processes in every recording. */
static uint8_t untold_dims(const struct pz_scale_program *m)
{
    uint8_t mask = 0xff;

    if (!m->ambiguous)
        return 0;
    for (size_t r = 0; r < m->nruns; r++)
        mask &= m->ambiguous[r];
    return m->nruns ? mask : 0;
}

/* Target t's law (an exact model along dimension d, over fewer recordings than the
 * source's) as the source's face law along d' with d and d' exchanged, where it gives
 * the size t gives at every recording where d has more than 1 process (those that made
 * the call): 1 when taken, else 0. */
static int take_face(const struct pz_scale_program *m, const struct pz_scale_model *src,
                     int dd, int d, struct pz_scale_model *t)
{
    struct pz_scale_model g = *src;
    double c = 0;
    int seen = 0;

    if (t->grid_ndims == g.grid_ndims && t->grid[d] == 0 && t->grid[dd] == g.grid[d])
        return 0;
    g.grid[d] = src->grid[dd];
    g.grid[dd] = src->grid[d];
    for (size_t r = 0; r < m->nruns; r++) {
        const struct pz_scale_run *run = m->runs[r];
        double v, term;

        if (run->grid.dims[d] < 2)
            continue;
        v = t->c0 + t->c1 * pz_scale_model_term(t, run->nprocs, run->grid.dims);
        term = pz_scale_model_term(&g, run->nprocs, run->grid.dims);
        if (term <= 0 || v <= 0 || (seen && fabs(v / term - c) > 1e-9 * c))
            return 0;
        c = v / term;
        seen++;
    }
    if (seen != t->npoints || c != floor(c))
        return 0;
    g.c1 = c;
    g.npoints = t->npoints;
    g.max_error = g.mean_error = g.cv_error = 0;
    *t = g;
    return 1;
}

/* Target t as the source's law scaled to t's size at run r: 1 when taken, else 0. */
static int take_scaled(const struct pz_scale_program *m, const struct pz_scale_model *src,
                       int r, struct pz_scale_model *t)
{
    const struct pz_scale_run *run = m->runs[r];
    struct pz_scale_model f = *src;
    double at, v = t->c0 + t->c1 * pz_scale_model_term(t, run->nprocs, run->grid.dims);

    /* both at the recording's own grid (MPI_Cart_create's, which may not be
       MPI_Dims_create's: LAMMPS at 4 is 1 x 2 x 2) */
    at = src->c0 + src->c1 * pz_scale_model_term(src, run->nprocs, run->grid.dims);
    if (src->c1 == 0 || v <= 0 || at <= 0)
        return 0;
    f.c0 *= v / at;
    f.c1 *= v / at;
    f.npoints = t->npoints;
    *t = f;
    return 1;
}

/* The largest recording where dimension d has more than 1 process, -1 when none. */
static int largest_run(const struct pz_scale_program *m, int d)
{
    int at = -1;

    for (size_t r = 0; r < m->nruns; r++)
        if (m->runs[r]->grid.dims[d] > 1 && (at < 0 || m->runs[r]->nprocs > m->runs[at]->nprocs))
            at = (int)r;
    return at;
}

/* Sizes t of a call along dimension d from sizes src of the same call along dd, fitted
 * over more recordings: the face's law exchanged, where it gives every size t recorded,
 * else (untold: d periodic and of at most 2 processes in every recording) the law, a
 * grid's with the two dimensions exchanged, scaled to t's size at the largest recording
 * that has it; 1 when either is taken. */
static int transfer(const struct pz_scale_program *m, const struct sp_sizes *src,
                    struct sp_sizes *t, int dd, int d, int untold)
{
    int taken = 0, run = largest_run(m, d);

    for (int w = SP_SENT; w <= SP_RECEIVED; w++) {
        const struct pz_scale_model *f = &src->of[w];
        int got;

        if (t->unit[w] || (t->per_peer >> w & 1) || src->unit[w] || (src->per_peer >> w & 1) ||
            t->of[w].npoints >= f->npoints)
            continue;
        got = plain(src, w) && plain(t, w) && face_law(f, dd, m->grid.ndims) &&
              take_face(m, f, dd, d, &t->of[w]);
        if (!got && untold && run >= 0) {
            struct pz_scale_model g = *f;

            if (g.grid_ndims > 0) {
                g.grid[d] = f->grid[dd];
                g.grid[dd] = f->grid[d];
            }
            got = take_scaled(m, &g, run, &t->of[w]);
        }
        if (got)
            t->of[SP_ROOT_SENT + w] = t->of[w];
        taken |= got;
    }
    return taken;
}

/* The nearest stretch along each other dimension than stretch a's, within the
 * stretches adjacent to it, whose events a's are, into near[dimension] (SP_NONE: none),
 * and where they begin in it into from[dimension]: its first ones when it comes after
 * a, its last ones when before (the exchanges along every dimension forward, then along
 * every one backward, as LAMMPS's forward and reverse communications, make the last
 * dimension's two one stretch). */
static void nearest(const struct pz_scale_program *m, const struct stretches *s, uint32_t a,
                    uint32_t *near, uint32_t *from)
{
    const struct stretch *t = &s->v[a];
    uint32_t lo = a, hi = a;

    for (int d = 0; d < PZ_SCALE_MAX_DIMS; d++)
        near[d] = SP_NONE;
    while (lo > 0 && s->v[lo].after && s->v[lo - 1].scope == t->scope)
        lo--;
    while (hi + 1 < s->n && s->v[hi + 1].after && s->v[hi + 1].scope == t->scope)
        hi++;
    for (uint32_t dist = 1; dist <= a - lo || dist <= hi - a; dist++)
        for (int side = 0; side < 2; side++) {
            uint32_t b = side ? a + dist : a - dist, at;

            if ((side ? dist > hi - a : dist > a - lo) || s->v[b].dim == t->dim ||
                near[s->v[b].dim] != SP_NONE || s->v[b].n < t->n)
                continue;
            at = side ? 0 : s->v[b].n - t->n;
            if (!same_shape(m, s, t, &s->v[b], at))
                continue;
            near[s->v[b].dim] = b;
            from[s->v[b].dim] = at;
        }
}

/* The sizes of event ev (or with slots, its request's completion) along d from the one
 * of the stretches near it fitted over the most recordings; 1 when taken, the law into
 * law. */
static int from_nearest(struct pz_scale_program *m, const struct stretches *s,
                        const uint32_t *near, const uint32_t *from, uint32_t j, int d,
                        int untold, int slots, char *law, size_t len)
{
    uint32_t ev = s->ev[s->v[near[PZ_SCALE_MAX_DIMS]].first + j], best = SP_NONE;
    int most = 0, dd = -1;
    struct sp_sizes *t;
    const struct sp_sizes *src;

    for (int e = 0; e < PZ_SCALE_MAX_DIMS; e++) {
        uint32_t other;
        const struct sp_sizes *z;

        if (near[e] == SP_NONE)
            continue;
        other = s->ev[s->v[near[e]].first + from[e] + j];
        if (slots && (m->events[other].slot < 0 || m->events[ev].slot < 0))
            continue;
        z = slots ? &m->done[m->events[other].slot].sizes : &m->events[other].sizes;
        if (z->of[SP_SENT].npoints > most) {
            most = z->of[SP_SENT].npoints;
            best = other;
            dd = e;
        }
    }
    if (best == SP_NONE)
        return 0;
    t = slots ? &m->done[m->events[ev].slot].sizes : &m->events[ev].sizes;
    src = slots ? &m->done[m->events[best].slot].sizes : &m->events[best].sizes;
    if (!transfer(m, src, t, dd, d, untold))
        return 0;
    pz_scale_model_format(&t->of[SP_SENT], law, len);
    return 1;
}

int sp_face_laws(struct pz_scale_program *m, size_t first_note)
{
    struct stretches s = { 0 };
    uint8_t untold = untold_dims(m), noted = 0;
    size_t at = first_note;
    int rc = 0;

    if (m->grid.ndims < 2)
        return 0;
    if (cut(m, &s) != 0)
        rc = -1;
    for (uint32_t a = 0; rc == 0 && a < s.n; a++) {
        uint32_t near[PZ_SCALE_MAX_DIMS + 1], from[PZ_SCALE_MAX_DIMS];
        int d = s.v[a].dim;

        nearest(m, &s, a, near, from);
        near[PZ_SCALE_MAX_DIMS] = a;
        for (uint32_t j = 0; rc == 0 && j < s.v[a].n; j++)
            for (int slots = 0; rc == 0 && slots < 2; slots++) {
                char law[160];

                if (!from_nearest(m, &s, near, from, j, d, untold >> d & 1, slots, law,
                                  sizeof(law)) || (noted >> d & 1))
                    continue;
                noted |= (uint8_t)(1u << d);
                rc = sp_note_at(m, &at, "the sizes of the messages along dimension %d of the "
                             "process grid, recorded at fewer counts than those of the same "
                             "calls along another dimension just before or after them, take "
                             "their law: a halo's face with the two dimensions exchanged, "
                             "where it gives every size recorded, or along a periodic "
                             "dimension of at most 2 processes in every recording, that law "
                             "scaled to their size at the largest recording that has them "
                             "(%s, %s first), in "
                             "place of the forms or constants noted below for them "
                             "(recordings where dimension %d is longer at more counts would "
                             "tell)", d, law, sp_sym_name(&m->table,
                                             m->nodes[s.node[s.v[a].first + j]].sym), d);
            }
    }
    free(s.v);
    free(s.ev);
    free(s.node);
    return rc;
}
