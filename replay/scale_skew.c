/* Skews (scale_program_int.h, sp_skews_*): Cannon's matrix product shifts A along the
 * rows of a periodic q x q grid by each process's row, B along the columns by its
 * column, before its steps of shifts by one.  Recorded, such a partner is an offset in
 * the grid like a neighbour's, but one that changes with a coordinate: at 3 x 3 the
 * rows send A by 0, -1 and -2 = +1 the short way round, which the merge of the
 * processes' steps would take as a constant offset per class of position (first,
 * middle, last), giving both middle rows of 4 x 4 -1.  Here an offset event of a step
 * whose offset along a periodic dimension d is s * (the coordinate along another
 * dimension e) modulo d's extent, s = +1 or -1, 0 along the others, at every process of
 * every recording that makes the step, is taken as that law (PZ_SCALE_PEER_SKEW), when
 * some recording shows it made at coordinates 1 and 2 along e with d of 3 processes or
 * more: there its offsets 0, s and 2s are distinct and tell s from -s, and a constant
 * offset per class would be one whose first class sends to itself and whose others go
 * s and 2s away, which is the skew.  A step is known by its shape without offsets but
 * with its tags (sp_shape), so that every process's call is one step of the program,
 * and calls that differ by their tags alone (Cannon's skews and shifts) are two.  A
 * recording of 1 or 2 processes along d fits every law there (its offsets are 0, or
 * the same process either way round). */
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "trace.h"

/* The laws: offset s * coords[e] along d, numbered (d * PZ_SCALE_MAX_DIMS + e) * 2 +
 * (s > 0). */
#define LAWS (PZ_SCALE_MAX_DIMS * PZ_SCALE_MAX_DIMS * 2)

/* What the recordings show of one event of a step's shape: bit l of each for law l. */
struct seen {
    uint32_t fits;             /* holds at every process that made it so far */
    uint32_t told;             /* some recording tells it (above) */
    uint32_t moved;            /* some process made it at an offset along the law's d */
    uint32_t at1, at2;         /* the recording being learned made it at coordinate 1 (2)
                                  along the law's e */
    uint8_t made;              /* some process made it */
};

struct sp_skews {
    struct sp_table *t;
    struct sp_shapes sh;       /* each step without its offsets, with its tags */
    uint8_t periodic[PZ_SCALE_MAX_DIMS];   /* the model's grid's */
    struct seen *of;           /* [event of sh.table] */
    uint32_t cap;
};

static int law_d(int l)
{
    return l / 2 / PZ_SCALE_MAX_DIMS;
}

static int law_e(int l)
{
    return l / 2 % PZ_SCALE_MAX_DIMS;
}

static int law_s(int l)
{
    return l % 2 ? 1 : -1;
}

struct sp_skews *sp_skews_new(struct sp_table *t, const uint8_t *periodic)
{
    struct sp_skews *x = calloc(1, sizeof(*x));

    if (x) {
        x->t = t;
        x->sh.t = t;
        x->sh.without_offsets = 1;
        x->sh.with_tags = 1;
        memcpy(x->periodic, periodic, sizeof(x->periodic));
    }
    return x;
}

void sp_skews_free(struct sp_skews *x)
{
    if (!x)
        return;
    sp_shapes_free(&x->sh);
    free(x->of);
    free(x);
}

/* The offsets of e's peer per dimension of grid g (0 along those a slice does not
 * keep) into off, and the dimensions it may be along into *along: 0 when e's peer is no
 * offset on the world or a slice. */
static void world_offsets(const struct pz_scale_grid *g, const struct sp_event *e, int *off,
                          uint8_t *along)
{
    *along = 0;
    if (e->peer.kind != PZ_SCALE_PEER_OFFSET ||
        (e->comm.kind != PZ_SCALE_COMM_WORLD && e->comm.kind != PZ_SCALE_COMM_SLICE))
        return;
    for (int i = 0, d = 0; d < PZ_SCALE_MAX_DIMS; d++) {
        int kept = d < g->ndims &&
                   (e->comm.kind == PZ_SCALE_COMM_WORLD || (e->comm.keep >> d & 1));

        off[d] = kept ? e->peer.off[i++] : 0;
        *along |= (uint8_t)(kept << d);
    }
}

/* Is x a multiple of n. */
static int zero_mod(int x, int n)
{
    return x % n == 0;
}

/* The laws that offsets off (along the dimensions `along`) follow at coordinates c of
 * grid g: d periodic in the model (a skew wraps around it) and one of `along`, e
 * another dimension. */
static uint32_t laws_at(const struct sp_skews *x, const struct pz_scale_grid *g,
                        const int *c, const int *off, uint8_t along)
{
    uint32_t laws = 0;

    for (int l = 0; l < LAWS; l++) {
        int d = law_d(l), e = law_e(l), ok = d != e && d < g->ndims && e < g->ndims &&
                                             x->periodic[d] && (along >> d & 1);

        for (int o = 0; ok && o < g->ndims; o++)
            ok = zero_mod(off[o] - (o == d ? law_s(l) * c[e] : 0), g->dims[o]);
        laws |= (uint32_t)ok << l;
    }
    return laws;
}

/* x->of grown to cover every event of the shapes.  0 or -1. */
static int grow(struct sp_skews *x)
{
    uint32_t n = x->sh.table.nevents;
    struct seen *v;

    if (n <= x->cap)
        return 0;
    if (!(v = realloc(x->of, (size_t)n * sizeof(*v))))
        return -1;
    memset(v + x->cap, 0, (size_t)(n - x->cap) * sizeof(*v));
    x->of = v;
    x->cap = n;
    return 0;
}

/* Learns step sym made at process proc of run.  0 or -1. */
static int learn_step(struct sp_skews *x, const struct pz_scale_run *run, int proc,
                      uint32_t sym)
{
    const int *c = run->procs[proc].coords;
    uint32_t shape, n = x->t->syms[sym].n;

    if (x->t->syms[sym].kind != SP_STEP)
        return 0;
    if ((shape = sp_shape(&x->sh, sym)) == SP_NONE || grow(x) != 0)
        return -1;
    for (uint32_t i = 0; !(shape & SP_OWN_SHAPE) && i < n; i++) {
        struct seen *s = &x->of[x->sh.table.syms[shape].first + i];
        int off[PZ_SCALE_MAX_DIMS];
        uint8_t along;
        uint32_t laws;
        const struct sp_event *e = &sp_events_of(x->t, sym)[i];

        world_offsets(&run->grid, e, off, &along);
        if (!along || !sp_is_message(e->kind))
            continue;
        laws = laws_at(x, &run->grid, c, off, along);
        s->fits = s->made ? s->fits & laws : laws;
        s->made = 1;
        for (int l = 0; l < LAWS; l++) {
            s->at1 |= (uint32_t)(c[law_e(l)] == 1) << l;
            s->at2 |= (uint32_t)(c[law_e(l)] == 2) << l;
            s->moved |= (uint32_t)(!zero_mod(off[law_d(l)], run->grid.dims[law_d(l)])) << l;
        }
    }
    return 0;
}

int sp_skews_learn(struct sp_skews *x, const struct pz_scale_run *run, uint32_t *const *syms)
{
    uint32_t long_d = 0;

    for (uint32_t i = 0; i < x->cap; i++)
        x->of[i].at1 = x->of[i].at2 = 0;
    for (int p = 0; p < run->nprocs; p++)
        for (size_t k = 0; k < run->procs[p].nsteps; k++)
            if (learn_step(x, run, p, syms[p][k]) != 0)
                return -1;
    for (int l = 0; l < LAWS; l++)
        long_d |= (uint32_t)(law_d(l) < run->grid.ndims && run->grid.dims[law_d(l)] >= 3) << l;
    for (uint32_t i = 0; i < x->cap; i++)
        x->of[i].told |= x->of[i].at1 & x->of[i].at2 & long_d;
    return 0;
}

/* The first law event i of shape follows at every process of every recording that
 * makes it, and that some recording tells (told), or (not told) that none tells though
 * some process makes it at an offset; -1 for none. */
static int first_law(const struct sp_skews *x, uint32_t shape, uint32_t i, int told)
{
    const struct seen *s;
    uint32_t laws;

    if ((shape & SP_OWN_SHAPE) || x->sh.table.syms[shape].first + i >= x->cap)
        return -1;
    s = &x->of[x->sh.table.syms[shape].first + i];
    laws = told ? s->fits & s->told : s->fits & s->moved & ~s->told;
    for (int l = 0; l < LAWS; l++)
        if (laws >> l & 1)
            return l;
    return -1;
}

/* Step k of syms (orig: as interned) with its events' partners taken as skews, its
 * posters as converted; into syms[k].  0 or -1. */
static int convert_step(struct sp_skews *x, const uint32_t *orig, uint32_t *syms, size_t k)
{
    struct sp_event ev[SP_MAX_EVENTS];
    struct sp_sym proto = x->t->syms[orig[k]];
    uint32_t shape;
    int changed;

    if (proto.kind != SP_STEP || proto.n > SP_MAX_EVENTS)
        return 0;
    if ((shape = sp_shape(&x->sh, orig[k])) == SP_NONE)
        return -1;
    memcpy(ev, sp_events_of(x->t, orig[k]), proto.n * sizeof(*ev));
    changed = sp_repost(x->t, orig, syms, 0, k, ev);
    for (uint32_t i = 0; i < proto.n; i++) {
        int l = first_law(x, shape, i, 1);

        if (l < 0)
            continue;
        ev[i].peer = (struct pz_scale_peer){.kind = PZ_SCALE_PEER_SKEW,
                                            .off = {(int8_t)law_d(l), (int8_t)law_e(l),
                                                    (int8_t)law_s(l)}};
        changed = 1;
    }
    if (changed && (syms[k] = sp_table_step(x->t, &proto, ev)) == SP_NONE)
        return -1;
    return 0;
}

int sp_skews_convert(struct sp_skews *x, uint32_t *syms, size_t n)
{
    uint32_t *orig = malloc((n ? n : 1) * sizeof(*orig));
    int rc = 0;

    if (!orig)
        return -1;
    memcpy(orig, syms, n * sizeof(*orig));
    for (size_t k = 0; rc == 0 && k < n; k++)
        rc = convert_step(x, orig, syms, k);
    free(orig);
    return rc;
}

/* The note of event e of shape (its region), taken as skew l, or (taken 0) following
 * skew l in every recording, none telling it; no "): " in it, which the report reads as
 * the end of a note's place (analyzer/scale_notes.c groups notes by what follows).
 * 0 or -1. */
static int note_one(struct pz_scale_program *m, const char *region, const struct sp_event *e,
                    int l, int taken, const char *at)
{
    const char *way = e->kind == PZ_REC_SEND || e->kind == PZ_REC_ISEND ? "sent" : "received";

    if (taken)
        return sp_note(m, "the partners of the messages %s by %s are at an offset along "
                       "dimension %d equal to %s the coordinate along dimension %d, modulo the "
                       "extent of dimension %d, at every process of every recorded count "
                       "(%s); a skew, as Cannon's algorithm makes, is taken",
                       way, region, law_d(l), law_s(l) > 0 ? "plus" : "minus", law_e(l),
                       law_d(l), at);
    return sp_note(m, "the partners of the messages %s by %s may be at an offset along "
                   "dimension %d equal to plus or minus the coordinate along dimension %d (a "
                   "skew, as Cannon's algorithm makes) or at one offset per class of position "
                   "(first, middle, last); no recorded count (%s) has 3 processes or more "
                   "along both to tell, and the offsets per class are taken, which may not "
                   "extrapolate the partners faithfully; a recording of 3 x 3 or more would "
                   "tell", way, region, law_d(l), law_e(l), at);
}

int sp_skews_note(const struct sp_skews *x, struct pz_scale_program *m)
{
    char at[128];

    sp_recorded_counts(m, at, sizeof(at));
    for (uint32_t shape = 0; shape < x->sh.table.nsyms; shape++)
        for (uint32_t i = 0; i < x->sh.table.syms[shape].n; i++) {
            const struct sp_event *e = &sp_events_of(&x->sh.table, shape)[i];
            const char *region = x->sh.table.syms[shape].region;
            int l = first_law(x, shape, i, 1);

            if ((l >= 0 && note_one(m, region, e, l, 1, at) != 0) ||
                (l < 0 && (l = first_law(x, shape, i, 0)) >= 0 &&
                 note_one(m, region, e, l, 0, at) != 0))
                return -1;
        }
    return 0;
}
