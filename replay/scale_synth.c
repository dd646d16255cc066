/* Synthesizing the run at P processes (scale_program.h): the grid MPI_Dims_create would
 * lay out with the recordings' number of dimensions and periodicity, the communicators
 * (the world, the process alone, every instance of each slice and groups class the
 * template uses), and
 * for each process the template's steps whose guards hold there, loops repeated their
 * fitted trip counts, each step after its fitted computation.  A process's records are
 * made a step at a time by its cursor, which keeps where the walk of the template is (a
 * stack of the loops it is in); the values at P are computed once and shared by every
 * cursor, so that memory grows with the processes by a cursor each at most (the sink's
 * path has one alive at a time), never with the calls. */
#include <math.h>
#include <otf2/OTF2_Events.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_program_int.h"
#include "scale_sample.h"

/* seconds since the start in the ticks of the recording whose definitions the
 * synthesized archive copies (the largest). */
static uint64_t ticks(const struct pz_scale_run *clock, double seconds)
{
    /* never negative: rounding by hand, llround is slow */
    return clock->offset + (uint64_t)(seconds * clock->resolution + 0.5);
}

/* The CPU time of the prognoz:cpu_time attribute, ns. */
static uint64_t cpu_ns(double seconds)
{
    return (uint64_t)(seconds * 1e9 + 0.5);
}

/* One slice class of the template: the communicators sharing the coordinates of the
 * dimensions not kept. */
struct slice {
    uint8_t keep;
    uint32_t first;           /* its first instance in the communicators */
};

/* One groups class of the template (scale_run.h: blocks, ranks equal modulo k, the
 * leaders): its instances in the communicators from first. */
struct group {
    struct pz_scale_comm c;
    uint32_t first;
};

/* Requests posted and not yet completed, the first posted first: of one slot (v ids),
 * or waiting for one completing step (slots too). */
struct fifo {
    uint64_t *v;
    uint32_t *slots;
    struct posted *when;
    uint32_t head, tail, cap;
};

/* The synthesis at P: what every process shares. */
struct pz_scale_synth {
    const struct pz_scale_program *m;
    struct pz_scale_grid g;
    int nprocs;
    struct pz_synth_comm *comms;
    uint32_t ncomms;
    int *members;
    char *names;
    struct slice slices[1 << PZ_SCALE_MAX_DIMS];
    int nslices;
    struct group *groups;
    uint32_t ngroups;
    uint32_t *window_base;     /* [comm]: the number of its first window (struct
                                  pz_synth_comm.windows) */
    uint64_t *counts;          /* [node], loops */
    uint64_t *sizes;           /* [event * SP_NSIZES + w], then the completions' at event
                                  nevents + slot (sp_sizes_at) */
    double *gap;               /* [node * (nclasses + 1) + class], s */
    double *pred_gap;          /* [pred], s */
    double *after_gap;         /* [prev + 1], s */
    const struct sp_ratios **ratios;   /* [node]: its computations' (sp_ratios_at) */
    struct sp_lists *lists;    /* of the v events whose members' sizes differ */
};

/* Where a request was posted: the iteration of the loop right around its posting and
 * that loop's trip count, and the trip count of the last loop before it there (struct
 * level's done, count and ended), which a call over many requests completing it later,
 * after that loop, gives its completion's partner and tag (a butterfly's stage i, posted
 * in iteration i, waited for after the stages). */
struct posted {
    uint64_t done, count, ended;
};

/* A loop the walk is in: its node, its trip count here, the iterations done, and the
 * trip count of the last loop its body ran in this iteration (0: none yet), which tags
 * past that loop follow (struct sp_event.tag_after). */
struct level {
    uint32_t node;
    uint64_t count, done, ended;
};

/* One process's synthesis, resumable a step at a time. */
struct pz_scale_cursor {
    struct pz_scale_synth *s;
    int proc, coords[PZ_SCALE_MAX_DIMS];
    uint8_t flags[PZ_SCALE_MAX_DIMS];
    uint32_t cls;
    double now, cpu;
    uint64_t computed;         /* the computations drawn so far (sp_ratio_draw) */
    uint32_t *passes;          /* [node]: how many times it was made */
    uint64_t next_request, any_received;
    uint32_t last;             /* the place of the last step made (emit_step), SP_NONE */
    struct fifo *fifos;        /* [slot]: for the calls of one request that complete them */
    struct fifo *waiting;      /* [node]: for a call over many requests */
    uint64_t *last_id;         /* [slot]: the last request posted, 0 none (the tests') */
    uint32_t next;             /* the node the walk looks at next */
    struct level *loops;       /* [depth]: the loops it is in, innermost last */
    uint32_t depth;
    uint64_t ended;            /* outside loops, struct level's ended */
    const struct posted *posted;   /* while a call over many requests completes one */
    /* during pz_scale_cursor_next: where the records go, and the error */
    pz_scale_put_fn *put;
    void *ctx;
    char *err;
    size_t errlen;
};

/* --- communicators */

static int kept(uint8_t keep, int d)
{
    return (keep >> d) & 1;
}

/* The instance of slice keep holding coords, and the rank of coords in it. */
static void slice_place(const struct pz_scale_grid *g, uint8_t keep, const int *c,
                        uint32_t *instance, uint32_t *rank)
{
    uint32_t in = 0, rk = 0;

    for (int d = 0; d < g->ndims; d++) {
        if (kept(keep, d))
            rk = rk * (uint32_t)g->dims[d] + (uint32_t)c[d];
        else
            in = in * (uint32_t)g->dims[d] + (uint32_t)c[d];
    }
    *instance = in;
    *rank = rk;
}

static uint32_t slice_size(const struct pz_scale_grid *g, uint8_t keep)
{
    uint32_t n = 1;

    for (int d = 0; d < g->ndims; d++)
        if (kept(keep, d))
            n *= (uint32_t)g->dims[d];
    return n;
}

static void collect_slices(struct pz_scale_synth *s)
{
    for (uint32_t i = 0; i < s->m->nevents; i++) {
        const struct sp_event *e = s->m->events[i].sig;
        int j;

        if (e->comm.kind != PZ_SCALE_COMM_SLICE)
            continue;
        for (j = 0; j < s->nslices && s->slices[j].keep != e->comm.keep; j++)
            ;
        if (j == s->nslices)
            s->slices[s->nslices++].keep = e->comm.keep;
    }
}

static void slice_name(const struct pz_scale_grid *g, uint8_t keep, uint32_t instance,
                       char *buf, size_t len)
{
    if (g->ndims == 2 && keep == 2)
        snprintf(buf, len, "row %u", instance);
    else if (g->ndims == 2 && keep == 1)
        snprintf(buf, len, "column %u", instance);
    else
        snprintf(buf, len, "slice %u of dimensions%s%s%s", instance, kept(keep, 0) ? " 0" : "",
                 kept(keep, 1) ? " 1" : "", kept(keep, 2) ? " 2" : "");
}

/* The groups classes the template's events use, each once, into s->groups; -1 when
 * memory runs out. */
static int collect_groups(struct pz_scale_synth *s)
{
    for (uint32_t i = 0; i < s->m->nevents; i++) {
        const struct pz_scale_comm *c = &s->m->events[i].sig->comm;
        uint32_t j;
        struct group *v;

        if (!pz_scale_is_group(c->kind))
            continue;
        for (j = 0; j < s->ngroups && (s->groups[j].c.kind != c->kind ||
                                       s->groups[j].c.k != c->k); j++)
            ;
        if (j < s->ngroups)
            continue;
        if (!(v = realloc(s->groups, (s->ngroups + 1) * sizeof(*v))))
            return -1;
        s->groups = v;
        s->groups[s->ngroups++] = (struct group){ .c = *c };
    }
    return 0;
}

static void group_name(const struct pz_scale_comm *c, uint32_t instance, char *buf, size_t len)
{
    if (c->kind == PZ_SCALE_COMM_BLOCKS)
        snprintf(buf, len, "block %u of %u ranks", instance, c->k);
    else if (c->kind == PZ_SCALE_COMM_PARTS)
        snprintf(buf, len, "block %u of %u", instance, c->k);
    else if (c->kind == PZ_SCALE_COMM_STRIDE)
        snprintf(buf, len, "ranks %u modulo %u", instance, c->k);
    else
        snprintf(buf, len, "leaders, every %u-th rank", c->k);
}

#define NAME_LEN 48

/* Every instance of every groups class, from s->comms[*at] and *mem on. */
static void make_groups(struct pz_scale_synth *s, uint32_t *at, int **mem)
{
    for (uint32_t j = 0; j < s->ngroups; j++) {
        const struct pz_scale_comm *c = &s->groups[j].c;
        uint32_t count = pz_scale_group_count(c, s->nprocs);

        s->groups[j].first = *at;
        for (uint32_t i = 0; i < count; i++, (*at)++) {
            char *name = s->names + (size_t)*at * NAME_LEN;
            uint32_t size = 0, in;

            /* the instance's first member: its size */
            pz_scale_group_of(c, s->nprocs, pz_scale_group_member(c, s->nprocs, i, 0), &size,
                              &in);
            group_name(c, i, name, NAME_LEN);
            s->comms[*at] = (struct pz_synth_comm){size, *mem, 0, name, 0};
            for (uint32_t r = 0; r < size; r++)
                (*mem)[r] = pz_scale_group_member(c, s->nprocs, i, r);
            *mem += size;
        }
    }
}

static int make_comms(struct pz_scale_synth *s)
{
    uint32_t n = 2, at = 2;
    size_t nmembers = 0;
    int *mem;

    collect_slices(s);
    for (int j = 0; j < s->nslices; j++) {
        s->slices[j].first = n;
        n += (uint32_t)s->nprocs / slice_size(&s->g, s->slices[j].keep);
        nmembers += (size_t)s->nprocs;
    }
    if (collect_groups(s) != 0)
        return -1;
    for (uint32_t j = 0; j < s->ngroups; j++) {
        n += pz_scale_group_count(&s->groups[j].c, s->nprocs);
        nmembers += (size_t)s->nprocs;
    }
    if (!(s->comms = calloc(n, sizeof(*s->comms))) ||
        !(s->members = malloc((nmembers ? nmembers : 1) * sizeof(int))) ||
        !(s->names = calloc(n, NAME_LEN)))
        return -1;
    s->ncomms = n;
    s->comms[0] = (struct pz_synth_comm){(uint32_t)s->nprocs, NULL, 0, "MPI_COMM_WORLD", 0};
    s->comms[1] = (struct pz_synth_comm){1, NULL, 1, "MPI_COMM_SELF", 0};
    mem = s->members;
    for (int j = 0; j < s->nslices; j++) {
        uint8_t keep = s->slices[j].keep;
        uint32_t size = slice_size(&s->g, keep), count = (uint32_t)s->nprocs / size;

        for (uint32_t i = 0; i < count; i++, at++) {
            char *name = s->names + (size_t)at * NAME_LEN;

            slice_name(&s->g, keep, i, name, NAME_LEN);
            s->comms[at] = (struct pz_synth_comm){size, mem + (size_t)i * size, 0, name, 0};
        }
        /* every rank at its place in its instance: instances in order, ranks row-major */
        for (int r = 0; r < s->nprocs; r++) {
            int c[PZ_SCALE_MAX_DIMS];
            uint32_t in, rk;

            pz_scale_grid_coords(&s->g, r, c);
            slice_place(&s->g, keep, c, &in, &rk);
            mem[(size_t)in * size + rk] = r;
        }
        mem += s->nprocs;
    }
    make_groups(s, &at, &mem);
    return 0;
}

/* The instances of the class of communicators c at P: comms[*first .. *first + *n - 1]. */
static void class_instances(const struct pz_scale_synth *s, const struct pz_scale_comm *c,
                            uint32_t *first, uint32_t *n)
{
    *first = c->kind == PZ_SCALE_COMM_SELF;
    *n = c->kind == PZ_SCALE_COMM_WORLD || c->kind == PZ_SCALE_COMM_SELF;
    for (int j = 0; c->kind == PZ_SCALE_COMM_SLICE && j < s->nslices; j++)
        if (s->slices[j].keep == c->keep) {
            *first = s->slices[j].first;
            *n = (uint32_t)s->nprocs / slice_size(&s->g, c->keep);
        }
    for (uint32_t j = 0; pz_scale_is_group(c->kind) && j < s->ngroups; j++)
        if (s->groups[j].c.kind == c->kind && s->groups[j].c.k == c->k) {
            *first = s->groups[j].first;
            *n = pz_scale_group_count(c, s->nprocs);
        }
}

/* The windows of every communicator: as many as the slots (PZ_SCALE_WINDOW_SLOT) of the
 * one-sided events on its class, each instance its own (a window made on the rows is
 * one window per row); s->window_base numbers them.  -1 when memory runs out. */
static int make_windows(struct pz_scale_synth *s)
{
    uint32_t next = 0;

    for (uint32_t i = 0; i < s->m->nevents; i++) {
        const struct sp_event *e = s->m->events[i].sig;
        uint32_t first, n, slots = e->tag / PZ_SCALE_WINDOW_SLOT + 1;

        if (!pz_rec_is_rma(e->kind) || e->comm.kind == PZ_SCALE_COMM_NONE)
            continue;
        class_instances(s, &e->comm, &first, &n);
        for (uint32_t k = first; k < first + n && k < s->ncomms; k++)
            if (s->comms[k].windows < slots)
                s->comms[k].windows = slots;
    }
    if (!(s->window_base = malloc((s->ncomms ? s->ncomms : 1) * sizeof(*s->window_base))))
        return -1;
    for (uint32_t k = 0; k < s->ncomms; k++) {
        s->window_base[k] = next;
        next += s->comms[k].windows;
    }
    return 0;
}

/* --- the values at P */

uint64_t sp_whole_at(const struct pz_scale_model *f, int nprocs)
{
    double v = pz_scale_model_at(f, nprocs);

    return v <= 0 ? 0 : (uint64_t)llround(v);
}

uint64_t sp_trips_at(const struct pz_scale_program *m, uint32_t k,
                     const struct pz_scale_grid *g, int nprocs)
{
    const struct sp_node *nd = &m->nodes[k];

    if (nd->pairs)
        return sp_comm_members(&nd->pairs_comm, g, nprocs) + 1 - nd->pairs;
    /* a binomial tree's children: rank 0's, the most */
    if (nd->tree)
        return (uint64_t)sp_tree_children(0, nprocs);
    return sp_whole_at(&nd->count, nprocs);
}

static int values_at(struct pz_scale_synth *s)
{
    const struct pz_scale_program *m = s->m;
    uint32_t cols = m->nclasses + 1;

    if (!(s->counts = calloc(m->nnodes ? m->nnodes : 1, sizeof(*s->counts))) ||
        !(s->sizes = calloc(((size_t)m->nevents + m->nslots + 1) * SP_NSIZES,
                            sizeof(*s->sizes))) ||
        !(s->gap = calloc((m->nnodes ? m->nnodes : 1) * (size_t)cols, sizeof(*s->gap))) ||
        !(s->pred_gap = calloc(m->npreds ? m->npreds : 1, sizeof(*s->pred_gap))) ||
        !(s->ratios = calloc(m->nnodes ? m->nnodes : 1, sizeof(*s->ratios))))
        return -1;
    for (uint32_t i = 0; i < m->npreds; i++)
        s->pred_gap[i] = pz_scale_model_at(&m->preds[i].gap, s->nprocs);
    if (!(s->after_gap = calloc((size_t)m->nnodes + 1, sizeof(*s->after_gap))))
        return -1;
    for (uint32_t k = 0; k <= m->nnodes; k++)
        s->after_gap[k] = pz_scale_model_at(&m->after[k], s->nprocs);
    for (uint32_t k = 0; k < m->nnodes; k++) {
        if (m->nodes[k].kind == SP_LOOP)
            s->counts[k] = sp_trips_at(m, k, &s->g, s->nprocs);
        else
            for (uint32_t c = 0; c < cols; c++)
                s->gap[(size_t)k * cols + c] =
                    pz_scale_model_at(&m->gap[(size_t)k * cols + c], s->nprocs);
        s->ratios[k] = sp_ratios_at(m, k, s->nprocs);
    }
    for (uint32_t i = 0; i < m->nevents; i++)
        sp_sizes_at(&m->events[i].sizes, s->nprocs,
                    sp_comm_members(&m->events[i].sig->comm, &s->g, s->nprocs),
                    s->sizes + (size_t)i * SP_NSIZES);
    for (uint32_t i = 0; i < m->nslots; i++)
        sp_sizes_at(&m->done[i].sizes, s->nprocs,
                    sp_comm_members(&m->done[i].sig.comm, &s->g, s->nprocs),
                    s->sizes + ((size_t)m->nevents + i) * SP_NSIZES);
    return 0;
}

/* The instances of the communicator of e: the first, and how many (0: none). */
static uint32_t instances_of(const struct pz_scale_synth *s, const struct sp_event *e,
                             uint32_t *first)
{
    uint32_t count = e->comm.kind == PZ_SCALE_COMM_WORLD;

    *first = 0;
    for (int j = 0; e->comm.kind == PZ_SCALE_COMM_SLICE && j < s->nslices; j++)
        if (s->slices[j].keep == e->comm.keep) {
            *first = s->slices[j].first;
            count = (uint32_t)s->nprocs / slice_size(&s->g, e->comm.keep);
        }
    return count;
}

/* The per-peer lists of every v event whose members' sizes differ and of every
 * neighbourhood collective, on every instance of its communicator; those of a
 * nonblocking neighbourhood collective's completion of slot i at nevents + i. */
static int lists_at(struct pz_scale_synth *s)
{
    const struct pz_scale_program *m = s->m;
    uint32_t first, count;

    if (!(s->lists = sp_lists_new(m->nevents + m->nslots)))
        return -1;
    for (uint32_t i = 0; i < m->nslots; i++) {
        const struct sp_done *d = &m->done[i];

        if (d->nbr && (count = instances_of(s, &d->sig, &first)) &&
            sp_lists_add_neighbours(s->lists, m->nevents + i, d->nbr, &d->sig.comm, &s->g,
                                    s->comms + first, first, count) != 0)
            return -1;
    }
    for (uint32_t i = 0; i < m->nevents; i++) {
        const struct sp_event *e = m->events[i].sig;

        count = instances_of(s, e, &first);
        if (m->events[i].nbr && count &&
            sp_lists_add_neighbours(s->lists, i, m->events[i].nbr, &e->comm, &s->g,
                                    s->comms + first, first, count) != 0)
            return -1;
        if (m->events[i].v && count &&
            sp_lists_add(s->lists, i, m->events[i].v, e, &s->g, s->comms + first, first,
                         count, s->sizes + (size_t)i * SP_NSIZES) != 0)
            return -1;
    }
    return 0;
}

/* --- requests */

static int push(struct fifo *f, uint64_t id, uint32_t slot, struct posted when)
{
    if (f->tail == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 4;
        uint64_t *v;
        uint32_t *slots;
        struct posted *w;

        if (f->head) {
            memmove(f->v, f->v + f->head, (f->tail - f->head) * sizeof(*f->v));
            memmove(f->slots, f->slots + f->head, (f->tail - f->head) * sizeof(*f->slots));
            memmove(f->when, f->when + f->head, (f->tail - f->head) * sizeof(*f->when));
            f->tail -= f->head;
            f->head = 0;
            return push(f, id, slot, when);
        }
        if (!(v = realloc(f->v, cap * sizeof(*v))))
            return -1;
        f->v = v;
        if (!(slots = realloc(f->slots, cap * sizeof(*slots))))
            return -1;
        f->slots = slots;
        if (!(w = realloc(f->when, cap * sizeof(*w))))
            return -1;
        f->when = w;
        f->cap = cap;
    }
    f->when[f->tail] = when;
    f->slots[f->tail] = slot;
    f->v[f->tail++] = id;
    return 0;
}

/* --- one process */

static int emit(struct pz_scale_cursor *c, struct pz_rec *rec)
{
    if (c->put(c->ctx, c->proc, rec) == 0)
        return 0;
    snprintf(c->err, c->errlen, "the synthesized run could not be written (process %d)",
             c->proc);
    return -1;
}

static void blank(struct pz_rec *rec, uint8_t kind, uint64_t time)
{
    memset(rec, 0, sizeof(*rec));
    rec->kind = kind;
    rec->time = time;
    rec->region = rec->comm = rec->peer = PZ_NONE32;
    rec->tag = 0;
    rec->request = PZ_NONE64;
    rec->callsite = rec->send_list = rec->recv_list = PZ_NONE32;
    rec->cpu = PZ_NONE64;
}

/* The communicator of event e at this process, its size and the process's rank in it. */
static void comm_of(const struct pz_scale_cursor *c, const struct sp_event *e, uint32_t *comm,
                    uint32_t *size, uint32_t *rank)
{
    const struct pz_scale_synth *s = c->s;

    if (e->comm.kind == PZ_SCALE_COMM_NONE) {
        *comm = PZ_NONE32;
        *size = 1;
        *rank = 0;
        return;
    }
    if (e->comm.kind == PZ_SCALE_COMM_SELF) {
        *comm = 1;
        *size = 1;
        *rank = 0;
        return;
    }
    for (int j = 0; e->comm.kind == PZ_SCALE_COMM_SLICE && j < s->nslices; j++)
        if (s->slices[j].keep == e->comm.keep) {
            uint32_t in;

            slice_place(&s->g, e->comm.keep, c->coords, &in, rank);
            *comm = s->slices[j].first + in;
            *size = slice_size(&s->g, e->comm.keep);
            return;
        }
    for (uint32_t j = 0; pz_scale_is_group(e->comm.kind) && j < s->ngroups; j++) {
        int64_t in;

        if (s->groups[j].c.kind == e->comm.kind && s->groups[j].c.k == e->comm.k &&
            (in = pz_scale_group_of(&e->comm, s->nprocs, c->proc, size, rank)) >= 0) {
            *comm = s->groups[j].first + (uint32_t)in;
            return;
        }
    }
    *comm = 0;
    *size = (uint32_t)s->nprocs;
    *rank = (uint32_t)c->proc;
}

/* The bit of the partner of stage e (PZ_SCALE_PEER_XOR) at this point of the walk:
 * rank + j, j the iteration of the loop right around its step (of the one around its
 * poster for a completion), or when its bits go down, -1 - rank + (count - 1 - j), count
 * the loop's trips. */
static int64_t stage_bit(const struct pz_scale_cursor *c, const struct sp_event *e)
{
    const struct level *loop = c->depth ? &c->loops[c->depth - 1] : NULL;
    int64_t j = c->posted ? (int64_t)c->posted->done : loop ? (int64_t)loop->done : 0;
    int64_t count = c->posted ? (int64_t)c->posted->count : loop ? (int64_t)loop->count : 1;

    return e->peer.rank >= 0 ? e->peer.rank + j : -1 - e->peer.rank + count - 1 - j;
}

/* The peer of e as a rank of its communicator; -1 with err when it does not exist. */
static int64_t peer_of(struct pz_scale_cursor *c, const struct sp_event *e, uint32_t size,
                       uint32_t rank)
{
    const struct pz_scale_grid *g = &c->s->g;
    int at[PZ_SCALE_MAX_DIMS];
    uint32_t in, rk;

    switch (e->peer.kind) {
    case PZ_SCALE_PEER_NONE:
    case PZ_SCALE_PEER_NEIGHBOURS:   /* in its lists */
        return PZ_NONE32;
    case PZ_SCALE_PEER_RANK:
    case PZ_SCALE_PEER_LAST:
        if ((uint32_t)e->peer.rank >= size)
            break;
        return e->peer.kind == PZ_SCALE_PEER_RANK ? (uint32_t)e->peer.rank
                                                  : size - 1 - (uint32_t)e->peer.rank;
    case PZ_SCALE_PEER_ANY:
        /* the other processes in turn (a note says so) */
        return size < 2 ? rank : (rank + 1 + c->any_received++ % (size - 1)) % size;
    case PZ_SCALE_PEER_XOR: {
        int64_t bit = stage_bit(c, e);

        if (bit >= 0 && bit < 31 && (rank ^ (1u << bit)) < size)
            return rank ^ (1u << bit);
        break;
    }
    case PZ_SCALE_PEER_PAIR: {
        /* the member at distance d = the first distance + j, j the iteration of the loop
           right around it (of the one around its poster for a completion), in its form */
        const struct level *loop = c->depth ? &c->loops[c->depth - 1] : NULL;
        int64_t j = c->posted ? (int64_t)c->posted->done : loop ? (int64_t)loop->done : 0;
        int64_t q = sp_pair_partner(e->peer.off[0], rank, e->peer.rank + j, size);

        if (q >= 0)
            return q;
        break;
    }
    case PZ_SCALE_PEER_TURN: {
        /* the root turns: member (first + j) mod n, j as for a pair */
        const struct level *loop = c->depth ? &c->loops[c->depth - 1] : NULL;
        int64_t j = c->posted ? (int64_t)c->posted->done : loop ? (int64_t)loop->done : 0;

        if (e->peer.rank >= 0 && size > 0)
            return (uint32_t)(((int64_t)e->peer.rank + j) % size);
        break;
    }
    case PZ_SCALE_PEER_TREE:
        if (sp_tree_parent((int)rank) >= 0)
            return (uint32_t)sp_tree_parent((int)rank);
        break;
    case PZ_SCALE_PEER_TRANSPOSE: {
        int bits = 0;

        while ((1u << bits) < size)
            bits++;
        if ((1u << bits) == size)
            return sp_transpose_partner((int)rank, bits);
        break;
    }
    case PZ_SCALE_PEER_OFFSET:
    case PZ_SCALE_PEER_SKEW:
        memcpy(at, c->coords, sizeof(at));
        if (e->peer.kind == PZ_SCALE_PEER_SKEW)
            /* off[0] periodic: the grid's rank wraps it, however far */
            at[e->peer.off[0]] += e->peer.off[2] * c->coords[e->peer.off[1]];
        for (int i = 0, d = 0; e->peer.kind == PZ_SCALE_PEER_OFFSET && d < g->ndims; d++)
            if (e->comm.kind != PZ_SCALE_COMM_SLICE || kept(e->comm.keep, d))
                at[d] += e->peer.off[i++];
        if (pz_scale_grid_rank(g, at) < 0)
            break;
        if (e->comm.kind != PZ_SCALE_COMM_SLICE)
            return pz_scale_grid_rank(g, at);
        pz_scale_grid_coords(g, pz_scale_grid_rank(g, at), at);
        slice_place(g, e->comm.keep, at, &in, &rk);
        return rk;
    }
    snprintf(c->err, c->errlen, "process %d of %d: the peer of a call does not exist "
             "(rank %d of a communicator of %u processes)", c->proc, c->s->nprocs,
             e->peer.rank, size);
    return -1;
}

/* The tag of e at this point of the walk (in step c->last): a tag advancing with the
 * iteration of the loop right around its step, or past the loop before it (struct
 * sp_event.tag_step), as it does there. */
static uint32_t tag_now(const struct pz_scale_cursor *c, const struct sp_event *e)
{
    const struct level *in = c->depth ? &c->loops[c->depth - 1] : NULL;
    uint64_t j = in ? in->done : 0;

    if (e->tag_after)
        j = in ? in->ended : c->ended;
    if (c->posted)
        j = e->tag_after ? c->posted->ended : c->posted->done;

    return e->tag + (uint32_t)j * e->tag_step;
}

/* On a node shorter than the largest (the last of blocks, some of a cyclic placement),
 * the sizes of event index ev fitted per other member (struct sp_sizes.per_peer), which
 * the values at P give for the largest node, rank 0's, for the others of its own. */
static void node_share(const struct pz_scale_synth *s, uint32_t ev, const struct sp_event *e,
                       int root, uint32_t size, struct pz_rec *rec)
{
    const struct pz_scale_program *m = s->m;
    const struct sp_sizes *z = ev < m->nevents ? &m->events[ev].sizes
                                               : &m->done[ev - m->nevents].sizes;
    uint32_t largest = sp_comm_members(&e->comm, &s->g, s->nprocs);
    int sent = root ? SP_ROOT_SENT : SP_SENT, received = root ? SP_ROOT_RECEIVED : SP_RECEIVED;

    if (largest < 2 || size >= largest)
        return;
    if ((z->per_peer >> sent) & 1)
        rec->bytes = rec->bytes / (largest - 1) * (size - 1);
    if ((z->per_peer >> received) & 1)
        rec->bytes2 = rec->bytes2 / (largest - 1) * (size - 1);
}

/* The ends of a prefix reduction (MPI_Scan, MPI_Exscan and their nonblocking and
 * persistent forms): rank i combines the data of ranks 0 to i (to i - 1), so the first
 * member receives nothing and the last sends nothing (docs/trace-format.md, "Bytes of
 * collectives").  Their sizes are fitted as the largest over the members, the middle
 * ones', which the ends are not: at P the ends move what they move at every count. */
static void prefix_ends(struct pz_rec *rec, uint32_t size, uint32_t rank)
{
    if (rec->coll_op != OTF2_COLLECTIVE_OP_SCAN && rec->coll_op != OTF2_COLLECTIVE_OP_EXSCAN)
        return;
    if (rec->kind != PZ_REC_COLL_END && rec->kind != PZ_REC_NBC_COMPLETE)
        return;
    if (rank == 0)
        rec->bytes2 = 0;
    if (rank + 1 == size)
        rec->bytes = 0;
}

/* One-sided record rec of signature e, made as a message's (its communicator and target
 * as ranks): on its window (s->window_base), the slot out of its tag; a lock's id its
 * target's rank (every process's: undefined), as the recorder gives it, which is unique
 * per process and window like a lock; a request-based transfer's matching id and its
 * completion's the request's, unique in the process (struct pz_scale_cursor's
 * next_request), the other transfers' 0. */
static void one_sided(const struct pz_scale_synth *s, const struct sp_event *e,
                      struct pz_rec *rec)
{
    if (rec->comm != PZ_NONE32 && rec->comm < s->ncomms)
        rec->comm = s->window_base[rec->comm] + e->tag / PZ_SCALE_WINDOW_SLOT;
    rec->tag = e->tag % PZ_SCALE_RMA_REQUEST;
    if (rec->kind == PZ_REC_RMA_OP_COMPLETE)
        rec->peer = PZ_NONE32;
    if (rec->kind == PZ_REC_RMA_LOCK || rec->kind == PZ_REC_RMA_RELEASE)
        rec->request = rec->peer == PZ_NONE32 ? OTF2_UNDEFINED_UINT64 : rec->peer;
    else if (rec->kind != PZ_REC_RMA_OP_COMPLETE && !(e->tag & PZ_SCALE_RMA_REQUEST))
        rec->request = 0;
}

/* A record of signature e, its sizes the values at P of index ev (s->sizes), the root's
 * at the root of a collective, or this member's of a v collective whose members' differ
 * (struct sp_vsizes), with its per-peer lists (struct sp_lists: their numbers), or this
 * process's block of a message's (struct sp_dim_blocks). */
static int emit_record(struct pz_scale_cursor *c, const struct sp_event *e, uint32_t ev,
                       uint64_t request, uint64_t at)
{
    const struct pz_scale_program *m = c->s->m;
    struct pz_rec rec;
    uint32_t size, rank;
    int64_t peer;
    const uint64_t *sizes;
    uint64_t member[2];
    uint32_t lists[2];
    const struct sp_dim_blocks *blocks;

    blank(&rec, e->kind, at);
    rec.coll_op = e->coll_op;
    comm_of(c, e, &rec.comm, &size, &rank);
    /* a request's sender and tag, or root, are its completion's, borrowed to tell it apart */
    if (e->kind != PZ_REC_IRECV_REQUEST && e->kind != PZ_REC_NBC_REQUEST) {
        if ((peer = peer_of(c, e, size, rank)) < 0)
            return -1;
        rec.peer = (uint32_t)peer;
        rec.tag = tag_now(c, e);
    }
    sizes = c->s->sizes + (size_t)ev * SP_NSIZES;
    if (rec.peer == rank)      /* the root (another event's sizes are the same there) */
        sizes += SP_ROOT_SENT;
    rec.bytes = sizes[SP_SENT];
    rec.bytes2 = sizes[SP_RECEIVED];
    if (e->comm.node == PZ_SCALE_NODE_COMM)
        node_share(c->s, ev, e, rec.peer == rank, size, &rec);
    /* the last block of one rank when k does not divide P, a row of a grid of 2 x 1: a
     * collective of 1 member moves nothing (its sizes are fitted where it has more) */
    if (size == 1 && (pz_scale_is_group(e->comm.kind) ||
                      (e->comm.kind == PZ_SCALE_COMM_SLICE &&
                       (e->kind == PZ_REC_COLL_END || e->kind == PZ_REC_NBC_COMPLETE))))
        rec.bytes = rec.bytes2 = 0;
    prefix_ends(&rec, size, rank);
    if (sp_lists_of(c->s->lists, ev, rec.comm, rank, lists, member) == 0) {
        rec.send_list = lists[0];
        rec.recv_list = lists[1];
        rec.bytes = member[0];
        rec.bytes2 = member[1];
    } else if (ev < m->nevents && m->events[ev].v && rec.comm < c->s->ncomms) {
        sp_vsizes_at(m->events[ev].v, e, &c->s->g, c->s->comms[rec.comm].members, size, rank,
                     c->s->sizes + (size_t)ev * SP_NSIZES, member);
        rec.bytes = member[0];
        rec.bytes2 = member[1];
    } else if ((blocks = ev < m->nevents ? m->events[ev].blocks
                                         : m->done[ev - m->nevents].blocks) != NULL) {
        rec.bytes = sp_dim_blocks_at(blocks, &c->s->g, c->s->nprocs, c->proc);
    }
    rec.request = request;
    if (pz_rec_is_rma(rec.kind))
        one_sided(c->s, e, &rec);
    return emit(c, &rec);
}

static int out_of_memory(struct pz_scale_cursor *c)
{
    snprintf(c->err, c->errlen, "out of memory synthesizing process %d", c->proc);
    return -1;
}

/* A posting's new request goes where its completion will find it: the slot's fifo for a
 * call of one request, the completing step's for a call over many. */
static int post(struct pz_scale_cursor *c, int32_t slot, uint64_t id)
{
    const struct sp_done *d = &c->s->m->done[slot];
    const struct level *in = c->depth ? &c->loops[c->depth - 1] : NULL;
    struct posted when = { in ? in->done : 0, in ? in->count : 1, in ? in->ended : c->ended };

    c->last_id[slot] = id;
    /* one no call names is kept for a call like its own to complete (pending_alike) */
    if ((d->by_signature || d->node == SP_NONE) &&
        push(&c->fifos[slot], id, (uint32_t)slot, when) != 0)
        return out_of_memory(c);
    if (d->node != SP_NONE && push(&c->waiting[d->node], id, (uint32_t)slot, when) != 0)
        return out_of_memory(c);
    return 0;
}

/* Do postings a and b post the same request but for its tag: the same kind of call on
 * the same communicator to the same peer. */
static int posts_alike(const struct sp_event *a, const struct sp_event *b)
{
    return a->kind == b->kind && a->comm.kind == b->comm.kind &&
           a->comm.keep == b->comm.keep && a->comm.k == b->comm.k &&
           a->peer.kind == b->peer.kind &&
           !memcmp(a->peer.off, b->peer.off, sizeof(a->peer.off)) &&
           a->peer.rank == b->peer.rank;
}

/* The fifo of the oldest request pending here that a posting like slot's posted, NULL
 * when none is.  A loop's first iteration completes a request posted before the loop,
 * where later iterations complete the previous iteration's (a receive posted one chunk
 * ahead): the signature names the latter (sp_tag_loops), whose slot is then empty. */
static struct fifo *pending_alike(struct pz_scale_cursor *c, int32_t slot)
{
    const struct pz_scale_program *m = c->s->m;
    const struct sp_event *like = NULL;
    struct fifo *oldest = NULL;

    for (uint32_t i = 0; i < m->nevents && !like; i++)
        if (m->events[i].slot == slot)
            like = m->events[i].sig;
    for (uint32_t i = 0; like && i < m->nevents; i++) {
        const struct sp_tevent *te = &m->events[i];
        struct fifo *f = te->slot >= 0 ? &c->fifos[te->slot] : NULL;

        if (f && f->head < f->tail && posts_alike(te->sig, like) &&
            (!oldest || f->v[f->head] < oldest->v[oldest->head]))
            oldest = f;
    }
    return oldest;
}

static int emit_event(struct pz_scale_cursor *c, uint32_t ev, uint64_t at)
{
    const struct sp_tevent *te = &c->s->m->events[ev];
    uint64_t request = PZ_NONE64;

    if (te->slot >= 0) {
        request = ++c->next_request;
        if (post(c, te->slot, request) != 0)
            return -1;
    } else if (te->completes >= 0 && te->sig->kind == PZ_REC_REQUEST_TEST) {
        /* a test leaves its request pending */
        request = c->last_id[te->completes] ? c->last_id[te->completes] : ++c->next_request;
    } else if (te->completes >= 0) {
        struct fifo *f = &c->fifos[te->completes];

        if (f->head == f->tail)
            f = pending_alike(c, te->completes);
        /* a request never posted here gets an id of its own: the replay ignores it */
        request = f ? f->v[f->head++] : ++c->next_request;
    }
    return emit_record(c, te->sig, ev, request, at);
}

/* The completions of step k, a call over many requests: of those posted for it, all, or
 * as many as each call completed in the recordings, the first posted first. */
static int emit_completions(struct pz_scale_cursor *c, uint32_t k, uint64_t at)
{
    const struct pz_scale_program *m = c->s->m;
    struct fifo *f = &c->waiting[k];
    uint32_t n = f->tail - f->head, per_call = m->nodes[k].per_call;

    if (per_call && per_call < n)
        n = per_call;
    for (; n > 0; n--, f->head++) {
        uint32_t slot = f->slots[f->head];
        int rc;

        c->posted = &f->when[f->head];
        rc = emit_record(c, &m->done[slot].sig, m->nevents + slot, f->v[f->head], at);
        c->posted = NULL;
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Whether step k begins the body of a loop of a butterfly's stages: the computation
 * before its first stage (a time step's work) and that between its stages (adding up
 * what a stage received) are told apart by the step before (struct sp_node.stages). */
static int begins_stages(const struct pz_scale_program *m, uint32_t k)
{
    return k > 0 && m->nodes[k - 1].kind == SP_LOOP && m->nodes[k - 1].stages;
}

/* The computation before step k: its class's own fit (but where k begins_stages), else
 * the one chosen for the pair of steps around it, else (a pair never recorded) the one
 * after the previous step or the one before k over all processes, whichever spreads
 * least.  Into *ratios, what varies it: k's (sp_ratios_at), NULL for the grouping by
 * the previous step, whose computations are not all before k (scale_vary.h), and where
 * k begins_stages. */
static double gap_before(const struct pz_scale_cursor *c, uint32_t k,
                         const struct sp_ratios **ratios)
{
    const struct pz_scale_synth *s = c->s;
    const struct pz_scale_program *m = s->m;
    size_t at = (size_t)k * (m->nclasses + 1);
    uint32_t after = c->last == SP_NONE ? 0 : c->last + 1;

    /* k's computations, of both kinds, vary by their mix */
    *ratios = begins_stages(m, k) ? NULL : s->ratios[k];
    if (m->gap_own[at + c->cls] && !begins_stages(m, k))
        return s->gap[at + c->cls];
    for (uint32_t i = m->pred_head[k]; i != SP_NONE; i = m->preds[i].next)
        if (m->preds[i].prev == c->last) {
            if (m->preds[i].by_prev)
                *ratios = NULL;
            return s->pred_gap[i];
        }
    if (m->after_spread[after] < m->before_spread[k]) {
        *ratios = NULL;
        return s->after_gap[after];
    }
    return s->gap[at + m->nclasses];
}

/* The node whose call is made at step node k: k, or where k is one of two blocking
 * calls with its partner ordered by rank (struct pz_scale_peer.off[1], a butterfly's
 * stage or an exchange with every member in turn), this process's rank is above the
 * partner's and it makes the other too, the other of the two (the model checked that
 * it is the step node beside k, sp_ordered_beside). */
static uint32_t ordered_by_rank(struct pz_scale_cursor *c, uint32_t k)
{
    const struct pz_scale_program *m = c->s->m;
    const struct sp_node *nd = &m->nodes[k];
    const struct sp_sym *sym = &m->table.syms[nd->sym];
    const struct sp_event *e = sym->n ? m->events[nd->first_event].sig : NULL;
    uint32_t comm, size, rank, other;
    int64_t partner;

    if (!e || (e->peer.kind != PZ_SCALE_PEER_PAIR && e->peer.kind != PZ_SCALE_PEER_XOR) ||
        !e->peer.off[1])
        return k;
    comm_of(c, e, &comm, &size, &rank);
    if ((partner = peer_of(c, e, size, rank)) < 0 || rank < partner)
        return k;
    other = e->peer.off[1] == PZ_SCALE_ORDERED_FIRST ? k + 1 : k - 1;
    return sp_guard_holds(&m->nodes[other].guard, &c->s->g, c->proc, c->flags) ? other : k;
}

/* Step node `at` made: the computation before it, and its call, or where it is one of
 * a pair made the other way round the other's (ordered_by_rank, made). */
static int emit_step(struct pz_scale_cursor *c, uint32_t at)
{
    const struct pz_scale_program *m = c->s->m;
    uint32_t made = ordered_by_rank(c, at);
    const struct sp_node *nd = &m->nodes[made];
    const struct sp_sym *sym = &m->table.syms[nd->sym];
    int call = sym->step_kind == PZ_SCALE_CALL;
    const struct sp_ratios *ratios;
    double gap = gap_before(c, at, &ratios) * sp_ratio_draw(ratios, c->passes[at]++,
                                                            (uint32_t)c->proc, c->computed++);
    uint64_t enter, leave;
    struct pz_rec rec;

    c->now += gap;
    c->cpu += gap;
    enter = ticks(m->runs[m->largest], c->now);
    c->now += nd->duration;
    leave = ticks(m->runs[m->largest], c->now);
    c->last = at;
    if (sym->step_kind != PZ_SCALE_END) {
        blank(&rec, PZ_REC_ENTER, enter);
        rec.region = nd->region;
        rec.cpu = call ? cpu_ns(c->cpu) : PZ_NONE64;
        if (emit(c, &rec) != 0)
            return -1;
    }
    for (uint32_t i = 0; i < sym->n; i++) {
        const struct sp_tevent *te = &m->events[nd->first_event + i];
        uint8_t kind = te->sig->kind;
        int at_enter = kind == PZ_REC_COLL_BEGIN || kind == PZ_REC_ISEND ||
                       kind == PZ_REC_IRECV_REQUEST || kind == PZ_REC_NBC_REQUEST ||
                       kind == PZ_REC_SEND || kind == PZ_REC_RMA_COLL_BEGIN ||
                       kind == PZ_REC_RMA_WIN_DESTROY || kind == PZ_REC_RMA_PUT ||
                       kind == PZ_REC_RMA_GET || kind == PZ_REC_RMA_ATOMIC;

        /* a call to MPI_PROC_NULL: no message, no request */
        if (te->guarded && !sp_guard_holds(&te->peers, &c->s->g, c->proc, c->flags))
            continue;
        if (emit_event(c, nd->first_event + i, at_enter ? enter : leave) != 0)
            return -1;
    }
    if (emit_completions(c, made, leave) != 0)
        return -1;
    if (sym->step_kind == PZ_SCALE_BEGIN)
        return 0;
    blank(&rec, PZ_REC_LEAVE, leave);
    rec.region = nd->region;
    rec.cpu = call ? cpu_ns(c->cpu) : PZ_NONE64;
    return emit(c, &rec);
}

/* The trip count of loop k at this process: its class of position's, where the loop's
 * differ (struct sp_trips). */
static uint64_t trips_here(const struct pz_scale_cursor *c, uint32_t k)
{
    const struct sp_trips *t = c->s->m->nodes[k].trips;
    uint64_t count = c->s->counts[k], fewer;
    uint16_t key;

    if (c->s->m->nodes[k].tree)
        return (uint64_t)sp_tree_children(c->proc, c->s->nprocs);
    if (!t)
        return count;
    key = sp_trips_key(c->s->m, &c->s->g, c->flags, c->proc);
    for (uint32_t i = 0; i < t->nkeys; i++)
        if (t->keys[i] == key) {
            if (!t->fewer[i])
                return sp_whole_at(&t->count[i], c->s->nprocs);
            fewer = sp_whole_at(&t->count[i], c->s->nprocs);
            return fewer < count ? count - fewer : 0;
        }
    return count;
}

/* The next step of the walk whose guard holds here, SP_NONE at the end: the template's
 * nodes in order, a loop's body repeated its trip count, as a recursion over the loops
 * would go. */
static uint32_t next_step(struct pz_scale_cursor *c)
{
    const struct pz_scale_synth *s = c->s;
    const struct sp_node *nodes = s->m->nodes;

    for (;;) {
        uint32_t k = c->next;
        struct level *in = c->depth ? &c->loops[c->depth - 1] : NULL;
        uint64_t *ended = in ? &in->ended : &c->ended;

        if (k == (in ? nodes[in->node].end : s->m->nnodes)) {
            if (!in)
                return SP_NONE;
            if (++in->done < in->count) {
                in->ended = 0;
                c->next = in->node + 1;
            } else {
                c->next = nodes[in->node].end;
                c->depth--;
                *(c->depth ? &c->loops[c->depth - 1].ended : &c->ended) = in->count;
            }
        } else if (nodes[k].kind == SP_LOOP) {
            /* a loop whose trip count the data decide: pass by pass */
            uint64_t count = nodes[k].passes
                                 ? sp_data_trips_at(s->m, k, s->nprocs, c->passes[k]++)
                                 : trips_here(c, k);

            if (count == 0) {
                *ended = 0;
                c->next = nodes[k].end;
            } else {
                c->loops[c->depth++] = (struct level){k, count, 0, 0};
                c->next = k + 1;
                /* the computation before a butterfly's stages, as the walk kept it */
                if (nodes[k].stages)
                    c->last = k;
            }
        } else {
            c->next = k + 1;
            if (sp_guard_holds(&nodes[k].guard, &s->g, c->proc, c->flags))
                return k;
        }
    }
}

struct pz_scale_cursor *pz_scale_cursor_new(struct pz_scale_synth *s, int proc)
{
    const struct pz_scale_program *m = s->m;
    struct pz_scale_cursor *c = calloc(1, sizeof(*c));
    uint64_t mask;

    if (!c)
        return NULL;
    c->s = s;
    c->proc = proc;
    c->last = SP_NONE;
    if (!(c->fifos = calloc(m->nslots ? m->nslots : 1, sizeof(*c->fifos))) ||
        !(c->waiting = calloc(m->nnodes ? m->nnodes : 1, sizeof(*c->waiting))) ||
        !(c->last_id = calloc(m->nslots ? m->nslots : 1, sizeof(*c->last_id))) ||
        !(c->loops = calloc(m->nnodes ? m->nnodes : 1, sizeof(*c->loops))) ||
        !(c->passes = calloc(m->nnodes ? m->nnodes : 1, sizeof(*c->passes)))) {
        pz_scale_cursor_free(c);
        return NULL;
    }
    pz_scale_grid_coords(&s->g, proc, c->coords);
    sp_positions(&s->g, c->coords, c->flags);
    mask = sp_class_mask(m, &s->g, proc, c->flags);
    for (c->cls = 0; c->cls < m->nclasses && m->classes[c->cls].mask != mask; c->cls++)
        ;
    return c;
}

void pz_scale_cursor_free(struct pz_scale_cursor *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; c->fifos && i < c->s->m->nslots; i++) {
        free(c->fifos[i].v);
        free(c->fifos[i].slots);
        free(c->fifos[i].when);
    }
    for (uint32_t k = 0; c->waiting && k < c->s->m->nnodes; k++) {
        free(c->waiting[k].v);
        free(c->waiting[k].slots);
        free(c->waiting[k].when);
    }
    free(c->fifos);
    free(c->waiting);
    free(c->last_id);
    free(c->loops);
    free(c->passes);
    free(c);
}

int pz_scale_cursor_next(struct pz_scale_cursor *c, pz_scale_put_fn *put, void *ctx,
                         char *err, size_t errlen)
{
    uint32_t k;

    if ((k = next_step(c)) == SP_NONE)
        return 0;
    c->put = put;
    c->ctx = ctx;
    c->err = err;
    c->errlen = errlen;
    return emit_step(c, k) == 0 ? 1 : -1;
}

/* --- the synthesis */

void pz_scale_synth_cut(struct pz_scale_synth *s, uint32_t loop, uint64_t passes)
{
    s->counts[loop] = passes;
}

void pz_scale_synth_free(struct pz_scale_synth *s)
{
    if (!s)
        return;
    free(s->comms);
    free(s->window_base);
    free(s->groups);
    free(s->members);
    free(s->names);
    free(s->counts);
    free(s->sizes);
    free(s->gap);
    free(s->pred_gap);
    free(s->after_gap);
    free(s->ratios);
    sp_lists_free(s->lists);
    free(s);
}

struct pz_scale_synth *pz_scale_synth_new(const struct pz_scale_program *m, int nprocs,
                                          char *err, size_t errlen)
{
    struct pz_scale_synth *s;

    if (nprocs < 1) {
        snprintf(err, errlen, "cannot synthesize a run of %d processes", nprocs);
        return NULL;
    }
    if (!(s = calloc(1, sizeof(*s)))) {
        snprintf(err, errlen, "out of memory synthesizing %d processes", nprocs);
        return NULL;
    }
    s->m = m;
    s->nprocs = nprocs;
    pz_scale_grid_layout(&s->g, nprocs, m->grid.ndims, m->grid.ascending);
    memcpy(s->g.periodic, m->grid.periodic, sizeof(s->g.periodic));
    s->g.first_fastest = m->grid.first_fastest;
    if (sp_untold_check(m, &s->g, err, errlen) != 0 ||
        sp_tree_check(m, nprocs, err, errlen) != 0 ||
        sp_xor_check(m, nprocs, err, errlen) != 0 ||
        sp_pairs_check(m, &s->g, nprocs, err, errlen) != 0 ||
        sp_half_check(m, nprocs, err, errlen) != 0) {
        pz_scale_synth_free(s);
        return NULL;
    }
    if (make_comms(s) != 0 || make_windows(s) != 0 || values_at(s) != 0 || lists_at(s) != 0) {
        snprintf(err, errlen, "out of memory synthesizing %d processes", nprocs);
        pz_scale_synth_free(s);
        return NULL;
    }
    return s;
}

const struct pz_synth_comm *pz_scale_synth_comms(const struct pz_scale_synth *s, uint32_t *n)
{
    *n = s->ncomms;
    return s->comms;
}

int pz_scale_synth_nprocs(const struct pz_scale_synth *s)
{
    return s->nprocs;
}

const struct pz_scale_program *pz_scale_synth_program(const struct pz_scale_synth *s)
{
    return s->m;
}

const char *const *pz_scale_synth_lists(const struct pz_scale_synth *s, uint32_t *n)
{
    return sp_lists_texts(s->lists, n);
}

/* Every step of process p through put. */
static int synthesize_process(struct pz_scale_synth *s, int p, pz_scale_put_fn *put, void *ctx,
                              char *err, size_t errlen)
{
    struct pz_scale_cursor *c = pz_scale_cursor_new(s, p);
    int rc;

    if (!c) {
        snprintf(err, errlen, "out of memory synthesizing process %d", p);
        return -1;
    }
    while ((rc = pz_scale_cursor_next(c, put, ctx, err, errlen)) > 0)
        ;
    pz_scale_cursor_free(c);
    return rc;
}

int pz_scale_synth_all(struct pz_scale_synth *s, pz_scale_put_fn *put, void *ctx, char *err,
                       size_t errlen)
{
    int rc = 0;

    for (int p = 0; p < s->nprocs && rc == 0; p++)
        rc = synthesize_process(s, p, put, ctx, err, errlen);
    return rc;
}

int pz_scale_synthesize(const struct pz_scale_program *m, int nprocs,
                        const struct pz_scale_sink *sink, char *err, size_t errlen)
{
    struct pz_scale_synth *s = pz_scale_synth_new(m, nprocs, err, errlen);
    int rc = 0;

    if (!s)
        return -1;
    if (sink->comms(sink->ctx, s->comms, s->ncomms) != 0) {
        snprintf(err, errlen, "the synthesized run's communicators could not be written");
        rc = -1;
    }
    if (rc == 0)
        rc = pz_scale_synth_all(s, sink->event, sink->ctx, err, errlen);
    pz_scale_synth_free(s);
    return rc;
}
