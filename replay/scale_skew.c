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
 * the same process either way round).
 * Where one call with one tag makes the skews, the shifts and the shifts back that
 * restore the blocks (the textbook's Cannon), a law holds for none of the shape's calls
 * taken together: each of the first OCCURRENCES calls of a shape at a process, and each
 * of its last OCCURRENCES, is then learned on its own too, and taken as a skew where
 * that occurrence follows one at every process of every recording. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "scale_program_int.h"
#include "trace.h"

/* The laws: offset s * coords[e] along d, numbered (d * PZ_SCALE_MAX_DIMS + e) * 2 +
 * (s > 0). */
#define LAWS (PZ_SCALE_MAX_DIMS * PZ_SCALE_MAX_DIMS * 2)

/* The occurrences of a shape at a process learned on their own, from its first and
 * from its last (Cannon's skew of A and of B, and its two shifts back); a key per
 * occurrence: k from the first, OCCURRENCES + k from the last. */
#define OCCURRENCES 4
#define KEYS (2 * OCCURRENCES)
/* What is learned of one event of a shape: slot 0 of every occurrence, slot 1 + key of
 * occurrence key alone. */
#define SLOTS (1 + KEYS)

/* What the recordings show of one event of a step's shape: bit l of each for law l. */
struct seen {
    uint32_t fits;             /* holds at every process that made it so far */
    uint32_t told;             /* some recording tells it (above) */
    uint32_t moved;            /* some process made it at an offset along the law's d */
    uint32_t at1, at2;         /* the recording being learned made it at coordinate 1 (2)
                                  along the law's e */
    uint8_t made;              /* some process made it */
    uint8_t used;              /* of an occurrence: a step was taken as its law */
};

struct sp_skews {
    struct sp_table *t;
    struct sp_shapes sh;       /* each step without its offsets, with its tags */
    uint8_t periodic[PZ_SCALE_MAX_DIMS];   /* the model's grid's */
    struct seen (*of)[SLOTS];  /* [event of sh.table] */
    uint32_t cap;
    uint32_t *shapes;          /* the shapes of the steps of the process at hand */
    uint32_t capshapes;
    struct count {             /* [shape]: its steps at the process, and before the
                                  step at hand */
        uint32_t total, so_far;
    } *counts;
    uint32_t capcounts;
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
    free(x->shapes);
    free(x->counts);
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

/* The shapes of a process's steps syms[0..n-1] into x->shapes, how many steps of each it
 * makes into x->counts (so_far zeroed), x->of grown to cover every event of the shapes.
 * 0 or -1. */
static int count_shapes(struct sp_skews *x, const uint32_t *syms, size_t n)
{
    if (n && pz_grow((void **)&x->shapes, &x->capshapes, (uint32_t)(n - 1),
                     sizeof(*x->shapes)) != 0)
        return -1;
    for (size_t k = 0; k < n; k++)
        if ((x->shapes[k] = sp_shape(&x->sh, syms[k])) == SP_NONE)
            return -1;
    if ((x->sh.table.nsyms &&
         pz_grow((void **)&x->counts, &x->capcounts, x->sh.table.nsyms - 1,
                 sizeof(*x->counts)) != 0) ||
        (x->sh.table.nevents &&
         pz_grow((void **)&x->of, &x->cap, x->sh.table.nevents - 1, sizeof(*x->of)) != 0))
        return -1;
    if (x->counts)
        memset(x->counts, 0, x->capcounts * sizeof(*x->counts));
    for (size_t k = 0; k < n; k++)
        if (!(x->shapes[k] & SP_OWN_SHAPE))
            x->counts[x->shapes[k]].total++;
    return 0;
}

/* Where an occurrence of a shape stands at its process (count_shapes). */
struct occurrence {
    uint32_t shape;
    uint32_t from_first, from_last;   /* 0: the first (the last) */
};

/* The occurrence step k of the process at hand is, the steps before it counted. */
static struct occurrence occurrence_at(struct sp_skews *x, size_t k)
{
    struct occurrence o = {x->shapes[k], 0, 0};

    if (!(o.shape & SP_OWN_SHAPE)) {
        o.from_first = x->counts[o.shape].so_far++;
        o.from_last = x->counts[o.shape].total - 1 - o.from_first;
    }
    return o;
}

/* What the recordings show of event i of occurrence o's shape: of every occurrence
 * (key < 0), of its place from the first (key 0) or from the last (key 1); NULL when
 * that place is not learned on its own, or the shape is a step's own. */
static struct seen *seen_of(const struct sp_skews *x, struct occurrence o, uint32_t i, int key)
{
    uint32_t ev, place = key ? o.from_last : o.from_first;

    if ((o.shape & SP_OWN_SHAPE) || (ev = x->sh.table.syms[o.shape].first + i) >= x->cap)
        return NULL;
    if (key < 0)
        return &x->of[ev][0];
    if (place >= OCCURRENCES)
        return NULL;
    return &x->of[ev][1 + key * OCCURRENCES + (int)place];
}

/* Offsets off, laws following them, made at coordinates c of grid g, added to s. */
static void observe(struct seen *s, uint32_t laws, const int *c, const int *off,
                    const struct pz_scale_grid *g)
{
    if (!s)
        return;
    s->fits = s->made ? s->fits & laws : laws;
    s->made = 1;
    for (int l = 0; l < LAWS; l++) {
        s->at1 |= (uint32_t)(c[law_e(l)] == 1) << l;
        s->at2 |= (uint32_t)(c[law_e(l)] == 2) << l;
        s->moved |= (uint32_t)(!zero_mod(off[law_d(l)], g->dims[law_d(l)])) << l;
    }
}

/* Learns step sym, occurrence o, made at process proc of run. */
static void learn_step(struct sp_skews *x, const struct pz_scale_run *run, int proc,
                       uint32_t sym, struct occurrence o)
{
    const int *c = run->procs[proc].coords;

    for (uint32_t i = 0; !(o.shape & SP_OWN_SHAPE) && i < x->t->syms[sym].n; i++) {
        int off[PZ_SCALE_MAX_DIMS];
        uint8_t along;
        uint32_t laws;
        const struct sp_event *e = &sp_events_of(x->t, sym)[i];

        world_offsets(&run->grid, e, off, &along);
        if (!along || !sp_is_message(e->kind))
            continue;
        laws = laws_at(x, &run->grid, c, off, along);
        for (int key = -1; key <= 1; key++)
            observe(seen_of(x, o, i, key), laws, c, off, &run->grid);
    }
}

/* The laws some recording tells (told) from what the recording just learned shows. */
static void tell(struct seen *s, size_t n, uint32_t long_d)
{
    for (size_t i = 0; i < n; i++)
        s[i].told |= s[i].at1 & s[i].at2 & long_d;
}

static void forget_coordinates(struct seen *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        s[i].at1 = s[i].at2 = 0;
}

int sp_skews_learn(struct sp_skews *x, const struct pz_scale_run *run, uint32_t *const *syms)
{
    uint32_t long_d = 0;

    forget_coordinates((struct seen *)x->of, (size_t)x->cap * SLOTS);
    for (int p = 0; p < run->nprocs; p++) {
        if (count_shapes(x, syms[p], run->procs[p].nsteps) != 0)
            return -1;
        for (size_t k = 0; k < run->procs[p].nsteps; k++)
            learn_step(x, run, p, syms[p][k], occurrence_at(x, k));
    }
    for (int l = 0; l < LAWS; l++)
        long_d |= (uint32_t)(law_d(l) < run->grid.ndims && run->grid.dims[law_d(l)] >= 3) << l;
    tell((struct seen *)x->of, (size_t)x->cap * SLOTS, long_d);
    return 0;
}

/* The first law s shows followed at every process of every recording that makes it,
 * and that some recording tells (told), or (not told) that none tells though some
 * process makes it at an offset; -1 for none (or no s). */
static int first_law(const struct seen *s, int told)
{
    uint32_t laws;

    if (!s)
        return -1;
    laws = told ? s->fits & s->told : s->fits & s->moved & ~s->told;
    for (int l = 0; l < LAWS; l++)
        if (laws >> l & 1)
            return l;
    return -1;
}

/* The law event i of occurrence o is taken as: every occurrence's, else its place's
 * from the first, else from the last (that place marked used); -1 for none. */
static int law_of(struct sp_skews *x, struct occurrence o, uint32_t i)
{
    for (int key = -1; key <= 1; key++) {
        struct seen *s = seen_of(x, o, i, key);
        int l = first_law(s, 1);

        if (l >= 0) {
            s->used |= key >= 0;
            return l;
        }
    }
    return -1;
}

/* Step k of syms (orig: as interned), occurrence o, with its events' partners taken as
 * skews, its posters as converted; into syms[k].  0 or -1. */
static int convert_step(struct sp_skews *x, const uint32_t *orig, uint32_t *syms, size_t k,
                        struct occurrence o)
{
    struct sp_event ev[SP_MAX_EVENTS];
    struct sp_sym proto = x->t->syms[orig[k]];
    int changed;

    if (proto.kind != SP_STEP || proto.n > SP_MAX_EVENTS)
        return 0;
    memcpy(ev, sp_events_of(x->t, orig[k]), proto.n * sizeof(*ev));
    changed = sp_repost(x->t, orig, syms, 0, k, ev);
    for (uint32_t i = 0; i < proto.n; i++) {
        int l = law_of(x, o, i);

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
    int rc;

    if (!orig)
        return -1;
    memcpy(orig, syms, n * sizeof(*orig));
    rc = count_shapes(x, syms, n);
    for (size_t k = 0; rc == 0 && k < n; k++)
        rc = convert_step(x, orig, syms, k, occurrence_at(x, k));
    free(orig);
    return rc;
}

/* The note of event e made by `what`, taken as skew l, or (taken 0) following skew l in
 * every recording, none telling it; no "): " in it, which the report reads as the end
 * of a note's place (analyzer/scale_notes.c groups notes by what follows).  0 or -1. */
static int note_one(struct pz_scale_program *m, const char *what, const struct sp_event *e,
                    int l, int taken, const char *at)
{
    const char *way = e->kind == PZ_REC_SEND || e->kind == PZ_REC_ISEND ? "sent" : "received";

    if (taken)
        return sp_note(m, "the partners of the messages %s by %s are at an offset along "
                       "dimension %d equal to %s the coordinate along dimension %d, modulo the "
                       "extent of dimension %d, at every process of every recorded count "
                       "(%s); a skew, as Cannon's algorithm makes, is taken",
                       way, what, law_d(l), law_s(l) > 0 ? "plus" : "minus", law_e(l),
                       law_d(l), at);
    return sp_note(m, "the partners of the messages %s by %s may be at an offset along "
                   "dimension %d equal to plus or minus the coordinate along dimension %d (a "
                   "skew, as Cannon's algorithm makes) or at one offset per class of position "
                   "(first, middle, last); no recorded count (%s) has 3 processes or more "
                   "along both to tell, and the offsets per class are taken, which may not "
                   "extrapolate the partners faithfully; a recording of 3 x 3 or more would "
                   "tell", way, what, law_d(l), law_e(l), at);
}

/* The notes of the occurrences of event i of shape taken as skews on their own (their
 * place's law used); into *noted whether there was one.  0 or -1. */
static int note_occurrences(const struct sp_skews *x, struct pz_scale_program *m,
                            uint32_t shape, uint32_t i, const char *at, int *noted)
{
    static const char *const place_name[KEYS] = {
        "1st", "2nd", "3rd", "4th", "last", "2nd to last", "3rd to last", "4th to last"};
    const struct sp_event *e = &sp_events_of(&x->sh.table, shape)[i];
    const struct seen *s = &x->of[x->sh.table.syms[shape].first + i][1];
    char what[160];
    int l;

    for (int key = 0; key < KEYS; key++) {
        if (!s[key].used || (l = first_law(&s[key], 1)) < 0)
            continue;
        snprintf(what, sizeof(what), "the %s %s of its kind at each process",
                 place_name[key], x->sh.table.syms[shape].region);
        if (note_one(m, what, e, l, 1, at) != 0)
            return -1;
        *noted = 1;
    }
    return 0;
}

int sp_skews_note(const struct sp_skews *x, struct pz_scale_program *m)
{
    char at[128];

    sp_recorded_counts(m, at, sizeof(at));
    for (uint32_t shape = 0; shape < x->sh.table.nsyms; shape++)
        for (uint32_t i = 0; i < x->sh.table.syms[shape].n; i++) {
            const struct sp_event *e = &sp_events_of(&x->sh.table, shape)[i];
            const char *region = x->sh.table.syms[shape].region;
            uint32_t ev = x->sh.table.syms[shape].first + i;
            int l, noted = 0;

            if (ev >= x->cap)
                continue;
            if ((l = first_law(&x->of[ev][0], 1)) >= 0) {
                if (note_one(m, region, e, l, 1, at) != 0)
                    return -1;
                continue;
            }
            if (note_occurrences(x, m, shape, i, at, &noted) != 0 ||
                (!noted && (l = first_law(&x->of[ev][0], 0)) >= 0 &&
                 note_one(m, region, e, l, 0, at) != 0))
                return -1;
        }
    return 0;
}
