/* The runs of steps of an exchange with every member in turn (scale_pairs_int.h): a body
 * of steps repeated back to back whose partners follow one form (scale_pair_forms.c),
 * the distance growing by one from one iteration to the next.  The shapes of the steps
 * (their partners and tags left out) are the same in every iteration, or for a twin's
 * two calls the same two in either order (scale_pairs_twin.c). */
#include "scale_pairs_int.h"

int spp_pairable(const struct sp_event *e)
{
    return e->peer.kind == PZ_SCALE_PEER_OFFSET &&
           (e->comm.kind == PZ_SCALE_COMM_WORLD || e->comm.kind == PZ_SCALE_COMM_SLICE);
}

int spp_has_partner(const struct sp_table *t, uint32_t sym)
{
    const struct sp_sym *s = &t->syms[sym];

    for (uint32_t i = 0; s->kind == SP_STEP && i < s->n; i++)
        if (spp_pairable(&sp_events_of(t, sym)[i]))
            return 1;
    return 0;
}

/* The rank of coordinates c in the slice keeping dimensions keep of grid g, row-major
 * over them; its members into *n. */
static int slice_rank(const struct pz_scale_grid *g, uint8_t keep, const int *c, int *n)
{
    int r = 0;

    *n = 1;
    for (int d = 0; d < g->ndims; d++)
        if ((keep >> d) & 1) {
            r = r * g->dims[d] + c[d];
            *n *= g->dims[d];
        }
    return r;
}

int spp_partner(const struct pz_scale_run *run, int proc, const struct sp_event *e, int *me,
                int *q, int *n)
{
    const struct pz_scale_grid *g = &run->grid;
    int at[PZ_SCALE_MAX_DIMS], w;

    if ((w = sp_offset_rank(run, proc, &e->comm, &e->peer)) < 0)
        return -1;
    if (e->comm.kind == PZ_SCALE_COMM_WORLD) {
        *me = proc;
        *q = w;
        *n = run->nprocs;
        return 0;
    }
    *me = slice_rank(g, e->comm.keep, run->procs[proc].coords, n);
    pz_scale_grid_coords(g, w, at);
    *q = slice_rank(g, e->comm.keep, at, n);
    return 0;
}

size_t spp_slot(struct sp_pairs *x, const uint32_t *syms, const struct spp_run *r, size_t k,
                size_t q)
{
    size_t first = r->at + k * r->period;

    if (!r->twin)
        return first + q;
    return first + (q ^ (sp_shape(&x->sh, syms[first]) != r->lo));
}

uint8_t spp_forms_of(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                     const uint32_t *syms, const struct spp_run *r, size_t q, uint32_t i)
{
    uint8_t fits = SPP_FORMS;
    int d0[PZ_SCALE_PAIR_FORMS + 1] = {0};

    for (size_t k = 0; k < r->count && fits; k++) {
        const struct sp_event *e = &sp_events_of(x->t, syms[spp_slot(x, syms, r, k, q)])[i];
        int me, p, n;

        if (!spp_pairable(e) || spp_partner(run, proc, e, &me, &p, &n) != 0)
            return 0;
        for (int f = PZ_SCALE_PAIR_PLUS; f <= PZ_SCALE_PAIR_FORMS; f++) {
            int d = sp_pair_distance(f, me, p, n);

            if (!k)
                d0[f] = d;
            if (d != d0[f] + (int)k || d >= n)
                fits &= (uint8_t)~(1u << f);
        }
    }
    return fits;
}

/* Are the iterations of run r alike: the same shapes, and every partner of the body
 * fitting some form.  -1 when memory runs out. */
static int run_alike(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                     const uint32_t *syms, const struct spp_run *r)
{
    int partners = 0;

    for (size_t q = 0; q < r->period; q++) {
        uint32_t s0 = sp_shape(&x->sh, syms[r->at + q]);
        const struct sp_sym *s = &x->t->syms[syms[r->at + q]];

        if (s0 == SP_NONE)
            return -1;
        if ((s0 & SP_OWN_SHAPE) || s->kind != SP_STEP)
            return 0;
        for (size_t k = 1; k < r->count; k++) {
            uint32_t sk = sp_shape(&x->sh, syms[r->at + k * r->period + q]);

            if (sk == SP_NONE)
                return -1;
            if (sk != s0)
                return 0;
        }
        for (uint32_t i = 0; i < s->n; i++) {
            if (!spp_pairable(&sp_events_of(x->t, syms[r->at + q])[i]))
                continue;
            if (!spp_forms_of(x, run, proc, syms, r, q, i))
                return 0;
            partners = 1;
        }
    }
    return partners;
}

/* Are the iterations of run r alike, as a twin's where it begins as one. */
static int alike(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                 const uint32_t *syms, struct spp_run *r)
{
    return r->twin ? spp_twin_alike(x, run, proc, syms, r) : run_alike(x, run, proc, syms, r);
}

int spp_find_run(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                 const uint32_t *syms, size_t n, size_t at, struct spp_run *r)
{
    *r = (struct spp_run){.at = at};
    for (size_t p = 1; p <= SPP_MAX_BODY && at + 2 * p <= n; p++) {
        struct spp_run c = {at, p, 2, 0, 0, 0};
        int rc;

        if (p == 2 && (rc = spp_twin_start(x, run, proc, syms, n, at)) != 0) {
            if (rc < 0)
                return -1;
            c.twin = 1;
        }
        if ((rc = alike(x, run, proc, syms, &c)) <= 0) {
            if (rc < 0)
                return -1;
            continue;
        }
        while (at + (c.count + 1) * p <= n) {
            struct spp_run longer = c;

            longer.count++;
            if ((rc = alike(x, run, proc, syms, &longer)) < 0)
                return -1;
            if (!rc)
                break;
            c = longer;
        }
        if (!spp_reaches_every_member(x, run, proc, syms, &c))
            continue;
        *r = c;
        return 0;
    }
    return 0;
}
