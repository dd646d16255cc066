/* The sizes of a collective on the lines of the grid along one dimension seen at fewer
 * counts, taken from the same call on the lines along another (scale_faces.h,
 * sp_slice_laws).  A SUMMA-like product of two N x N matrices over a 2-D grid broadcasts
 * along each row a block of N / dims[0] x N / P and along each column one of N / P x N /
 * dims[1]: c / (dims[0]^2 dims[1]) and c / (dims[0] dims[1]^2) bytes, the one law with
 * the two dimensions exchanged.  Recorded at 2, 4 and 8 processes (2 x 1, 2 x 2, 4 x 2),
 * a row of 1 process moves nothing at 2, so the rows' sizes are seen at 4 and 8 alone,
 * where dims[1] is 2 in both: c / P^2 fits them as well, and gives half the real size at
 * 16 (4 x 4); the columns' are seen at all three, and their law is told.  The call on
 * the rows then takes the columns' law with the two dimensions exchanged, where it gives
 * every size recorded, each role of a rooted collective (the root, the others) apart. */
#include <math.h>

#include "scale_faces.h"

/* The farthest a step is looked for on either side of the call, in nodes. */
#define NEAR 8

/* The one dimension of the grid events on communicators of class c move along: the
 * dimension a line of it keeps; -1 for any other class. */
static int line_of(const struct pz_scale_comm *c, int ndims)
{
    for (int d = 0; c->kind == PZ_SCALE_COMM_SLICE && d < ndims; d++)
        if (c->keep == 1u << d)
            return d;
    return -1;
}

/* Is e the end of a collective (its sizes fitted) on a line of the grid. */
static int on_line(const struct sp_event *e, int ndims)
{
    return (e->kind == PZ_REC_COLL_END || e->kind == PZ_REC_NBC_COMPLETE) &&
           line_of(&e->comm, ndims) >= 0;
}

/* The event of step node j that is event i of node k (the same call, the same kind of
 * record and operation) on a line along another dimension; SP_NONE when there is none. */
static uint32_t same_call(const struct pz_scale_program *m, uint32_t k, uint32_t j, uint32_t i)
{
    const struct sp_sym *a = &m->table.syms[m->nodes[k].sym];
    const struct sp_sym *b = &m->table.syms[m->nodes[j].sym];
    const struct sp_event *x, *y;

    if (a->region != b->region || a->n != b->n)
        return SP_NONE;
    x = m->events[m->nodes[k].first_event + i].sig;
    y = m->events[m->nodes[j].first_event + i].sig;
    if (x->kind != y->kind || x->coll_op != y->coll_op || !on_line(y, m->grid.ndims) ||
        line_of(&y->comm, m->grid.ndims) == line_of(&x->comm, m->grid.ndims))
        return SP_NONE;
    return m->nodes[j].first_event + i;
}

/* The nearest step to node k in the same loop's body, with no loop between them, that
 * makes event i of k on a line along another dimension: that event's index in m->events,
 * SP_NONE when none does. */
static uint32_t nearest(const struct pz_scale_program *m, uint32_t k, uint32_t i)
{
    uint32_t around = sp_loop_around(m, k);
    int open[2] = {1, 1};

    for (uint32_t dist = 1; dist <= NEAR && (open[0] || open[1]); dist++)
        for (int side = 0; side < 2; side++) {
            uint32_t j = side ? k + dist : k - dist, ev;

            if (!open[side])
                continue;
            if ((side ? j >= m->nnodes : dist > k) || m->nodes[j].kind != SP_STEP ||
                sp_loop_around(m, j) != around) {
                open[side] = 0;
                continue;
            }
            if ((ev = same_call(m, k, j, i)) != SP_NONE)
                return ev;
        }
    return SP_NONE;
}

/* The members of a line along dimension d of run r. */
static uint32_t members(const struct pz_scale_program *m, size_t r, int d)
{
    return (uint32_t)m->runs[r]->grid.dims[d];
}

/* Size w of target t (along d, exact over fewer recordings) as size w of source src
 * (along dd, exact over 3 or more, through the origin, of the grid) with d and dd
 * exchanged, per other member where src's is, where that gives the size t gives at
 * every recording where a line along d has 2 members or more (those that moved data):
 * 1 when taken, else 0. */
static int take_exchanged(const struct pz_scale_program *m, const struct sp_sizes *src,
                          struct sp_sizes *t, int w, int dd, int d)
{
    const struct pz_scale_model *f = &src->of[w];
    struct pz_scale_model g = *f, *to = &t->of[w];
    int src_peer = (src->per_peer >> w) & 1, t_peer = (t->per_peer >> w) & 1, seen = 0;
    double c = 0;

    if (src->unit[w] || src->item[w] || t->unit[w] || t->item[w] || f->max_error != 0 ||
        to->max_error != 0 || f->grid_ndims != m->grid.ndims || f->c0 != 0 || f->c1 == 0 ||
        f->npoints < 3 || to->npoints >= f->npoints)
        return 0;
    g.grid[d] = f->grid[dd];
    g.grid[dd] = f->grid[d];
    for (size_t r = 0; r < m->nruns; r++) {
        const struct pz_scale_run *run = m->runs[r];
        uint32_t n = members(m, r, d);
        double v, term;

        if (n < 2)
            continue;
        v = to->c0 + to->c1 * pz_scale_model_term(to, run->nprocs, run->grid.dims);
        v = src_peer == t_peer ? v : src_peer ? v / (n - 1) : v * (n - 1);
        term = pz_scale_model_term(&g, run->nprocs, run->grid.dims);
        if (term <= 0 || v <= 0 || (seen && fabs(v / term - c) > 1e-9 * c))
            return 0;
        c = v / term;
        seen++;
    }
    if (seen != to->npoints || c != floor(c))
        return 0;
    g.c1 = c;
    g.npoints = to->npoints;
    *to = g;
    t->per_peer = (uint8_t)((t->per_peer & ~(1u << w)) | (unsigned)src_peer << w);
    return 1;
}

/* Every size of event ev from those of event src (along dd), ev's along d: the first
 * taken (enum sp_size_which), -1 when none was. */
static int transfer(struct pz_scale_program *m, uint32_t ev, uint32_t src, int dd, int d)
{
    int first = -1;

    for (int w = 0; w < SP_NSIZES; w++)
        if (take_exchanged(m, &m->events[src].sizes, &m->events[ev].sizes, w, dd, d) &&
            first < 0)
            first = w;
    return first;
}

int sp_slice_laws(struct pz_scale_program *m, size_t *at)
{
    uint8_t noted = 0;

    for (uint32_t k = 0; m->grid.ndims >= 2 && k < m->nnodes; k++) {
        const struct sp_sym *s = &m->table.syms[m->nodes[k].sym];

        for (uint32_t i = 0; m->nodes[k].kind == SP_STEP && i < s->n; i++) {
            uint32_t ev = m->nodes[k].first_event + i, src;
            int d, dd, w;
            char law[160];

            if (!on_line(m->events[ev].sig, m->grid.ndims) ||
                (src = nearest(m, k, i)) == SP_NONE)
                continue;
            d = line_of(&m->events[ev].sig->comm, m->grid.ndims);
            dd = line_of(&m->events[src].sig->comm, m->grid.ndims);
            if ((w = transfer(m, ev, src, dd, d)) < 0 || (noted >> d & 1))
                continue;
            noted |= (uint8_t)(1u << d);
            pz_scale_model_format(&m->events[ev].sizes.of[w], law, sizeof(law));
            if (sp_note_at(m, at, "the sizes of the collectives on the lines of the process "
                           "grid along dimension %d, recorded at fewer counts than those of "
                           "the same calls on the lines along dimension %d just before or "
                           "after them, take their law with the two dimensions exchanged, "
                           "where it gives every size recorded (%s first: %s bytes%s), in "
                           "place of the forms or constants noted below for them (recordings "
                           "where dimension %d has 2 processes or more at more counts would "
                           "tell)",
                           d, dd, s->region, law,
                           (m->events[ev].sizes.per_peer >> w & 1) ? " per other member" : "",
                           d) != 0)
                return -1;
        }
    }
    return 0;
}
