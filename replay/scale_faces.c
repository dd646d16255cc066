/* The law of a halo's faces taken across dimensions (scale_faces.h).  A block split over a
 * 3-D grid sends along dimension d a face of the other two sides: c / (dims[e] *
 * dims[f]).  Recorded at 2, 4 and 8 processes (2 x 1 x 1, 2 x 2 x 1, 2 x 2 x 2), the face
 * along dimension 0 is seen at 3 counts and its law is told, c / (dims[1] * dims[2]);
 * the one along dimension 2 at 8 alone (a constant), the one along 1 at 4 and 8, where
 * dims[0] is 2 in both (c / dims[2] fits as well as c / (dims[0] * dims[2])).  Their
 * law is then taken as the told one with the two dimensions exchanged, where it gives
 * every size recorded. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scale_faces.h"

/* The one world dimension e's offset moves along, -1 when none or several. */
static int along(const struct sp_event *e)
{
    int dim = -1;

    if (e->peer.kind != PZ_SCALE_PEER_OFFSET ||
        (e->comm.kind != PZ_SCALE_COMM_WORLD && e->comm.kind != PZ_SCALE_COMM_SLICE))
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

struct face {
    const struct pz_scale_model *law;
    int dim;
};

/* The first face's law of the template's events and completions, into *out. */
static int find_face(const struct pz_scale_program *m, struct face *out)
{
    for (uint32_t i = 0; i < m->nevents + m->nslots; i++) {
        const struct sp_event *e = i < m->nevents ? m->events[i].sig
                                                  : &m->done[i - m->nevents].sig;
        const struct sp_sizes *z = i < m->nevents ? &m->events[i].sizes
                                                  : &m->done[i - m->nevents].sizes;
        int d = along(e);

        if (d >= 0 && plain(z, SP_SENT) && face_law(&z->of[SP_SENT], d, m->grid.ndims)) {
            out->law = &z->of[SP_SENT];
            out->dim = d;
            return 1;
        }
    }
    return 0;
}

/* Takes for f, an exact model along dimension d seen at fewer counts than the face's
 * law, that law with dimensions d and face->dim exchanged, where it gives the size f
 * gives at every recording where d has more than 1 process (those that made the call):
 * 1, else 0. */
static int take_face(const struct pz_scale_program *m, const struct face *face, int d,
                     struct pz_scale_model *f)
{
    struct pz_scale_model g = *face->law;
    double c = 0;
    int seen = 0;

    if (f->npoints >= g.npoints || (f->grid_ndims == g.grid_ndims && f->grid[d] == 0 &&
                                    f->grid[face->dim] == g.grid[d]))
        return 0;
    g.grid[d] = face->law->grid[face->dim];
    g.grid[face->dim] = face->law->grid[d];
    for (size_t r = 0; r < m->nruns; r++) {
        const struct pz_scale_run *run = m->runs[r];
        double v, term;

        if (run->grid.dims[d] < 2)
            continue;
        v = f->c0 + f->c1 * pz_scale_model_term(f, run->nprocs, run->grid.dims);
        term = pz_scale_model_term(&g, run->nprocs, run->grid.dims);
        if (term <= 0 || v <= 0 || (seen && fabs(v / term - c) > 1e-9 * c))
            return 0;
        c = v / term;
        seen++;
    }
    if (seen != f->npoints || c != floor(c))
        return 0;
    g.c1 = c;
    g.npoints = f->npoints;
    g.max_error = g.mean_error = g.cv_error = 0;
    *f = g;
    return 1;
}

/* Where the event or completion i moves along dimension d, its sizes by the face's law
 * where it fits them: 1 when taken, else 0. */
static int retake(struct pz_scale_program *m, const struct face *face, uint32_t i, int *dim)
{
    const struct sp_event *e = i < m->nevents ? m->events[i].sig : &m->done[i - m->nevents].sig;
    struct sp_sizes *z = i < m->nevents ? &m->events[i].sizes : &m->done[i - m->nevents].sizes;
    int d = along(e), taken = 0;

    *dim = d;
    if (d < 0 || d == face->dim)
        return 0;
    for (int w = SP_SENT; w <= SP_RECEIVED; w++)
        if (plain(z, w) && take_face(m, face, d, &z->of[w])) {
            z->of[SP_ROOT_SENT + w] = z->of[w];
            taken = 1;
        }
    return taken;
}

int sp_face_laws(struct pz_scale_program *m)
{
    struct face face;
    uint8_t noted = 0;
    char law[160], taken[160];

    if (m->grid.ndims < 2 || !find_face(m, &face))
        return 0;
    pz_scale_model_format(face.law, law, sizeof(law));
    for (uint32_t i = 0; i < m->nevents + m->nslots; i++) {
        int d;

        if (!retake(m, &face, i, &d) || (noted >> d & 1))
            continue;
        noted |= (uint8_t)(1u << d);
        pz_scale_model_format(i < m->nevents ? &m->events[i].sizes.of[SP_SENT]
                                             : &m->done[i - m->nevents].sizes.of[SP_SENT],
                              taken, sizeof(taken));
        if (sp_note(m, "the sizes of the messages along dimension %d of the process grid, "
                    "recorded at fewer counts than those along dimension %d (%s, a halo's "
                    "face), take that law with the two dimensions exchanged where it gives "
                    "every size recorded: %s, in place of the forms or constants noted above "
                    "for them (recordings where dimension %d is longer at more counts "
                    "would tell)", d, face.dim, law, taken, d) != 0)
            return -1;
    }
    return 0;
}
