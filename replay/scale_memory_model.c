/* The figures of a program's run at a count that its memory follows (scale_memory.h),
 * read from the model's template: its steps, slots, intervals, messages, communicators
 * and v collectives, counted at P as the synthesis makes them (scale_synth.c). */
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "scale_memory.h"
#include "scale_program_int.h"
#include "trace_calls.h"

/* Distinct tags or partners are taken at most so many per message of the template:
 * beyond, the analysis's channels are not what bounds the run. */
#define MAX_DISTINCT 1000000u
/* Trip counts and their products are taken at most so large: the records of a process
 * are counted to tell whether it has fewer than a queue holds. */
#define MAX_TRIPS ((uint64_t)1 << 40)

/* A class of communicators, the key of the count of instances. */
struct comm_class {
    uint8_t kind, keep;
    uint32_t k;
    uint8_t collective;        /* a collective runs on it */
};

/* A message's channel in the template: the sender's communicator class, its peer and
 * its tag, as a key compared bytewise. */
struct channel {
    uint8_t kind, keep, peer_kind;
    int8_t off[PZ_SCALE_MAX_DIMS];
    uint32_t k, tag, tag_step;
    int32_t rank;
};

struct counting {
    const struct pz_scale_program *m;
    struct pz_scale_grid g;
    int nprocs;
    struct comm_class classes[64];
    size_t nclasses;
    struct channel *channels;
    size_t nchannels;
    uint64_t loop_trips[64];   /* of the loops around the node being counted */
    uint64_t loop_passes[64];  /* and the product of theirs and the outer ones' */
    int depth;
};

static int is_collective(uint8_t kind)
{
    return kind == PZ_REC_COLL_BEGIN || kind == PZ_REC_COLL_END ||
           kind == PZ_REC_NBC_REQUEST || kind == PZ_REC_NBC_COMPLETE;
}

/* Notes event e's communicator class (not the world's, the process alone's, or none). */
static void note_class(struct counting *c, const struct sp_event *e)
{
    const struct pz_scale_comm *cm = &e->comm;
    size_t i = 0;

    if (cm->kind == PZ_SCALE_COMM_WORLD || cm->kind == PZ_SCALE_COMM_SELF ||
        cm->kind == PZ_SCALE_COMM_NONE || cm->kind == PZ_SCALE_COMM_OTHER)
        return;
    while (i < c->nclasses && (c->classes[i].kind != cm->kind ||
                               c->classes[i].keep != cm->keep || c->classes[i].k != cm->k))
        i++;
    if (i == c->nclasses) {
        if (i == sizeof(c->classes) / sizeof(c->classes[0]))
            return;
        c->classes[c->nclasses++] = (struct comm_class){ cm->kind, cm->keep, cm->k, 0 };
    }
    c->classes[i].collective |= is_collective(e->kind);
}

/* The trip count of loop node k at P, as the synthesis makes it, from 1 to MAX_TRIPS. */
static uint64_t trips_at(const struct counting *c, uint32_t k)
{
    uint64_t t = sp_trips_at(c->m, k, &c->g, c->nprocs);

    return t < 1 ? 1 : t > MAX_TRIPS ? MAX_TRIPS : t;
}

/* The trip count of the innermost loop around the node counted, 1 outside loops. */
static uint64_t innermost_trips(const struct counting *c)
{
    uint64_t t = c->depth ? c->loop_trips[c->depth - 1] : 1;

    return t < 1 ? 1 : t > MAX_DISTINCT ? MAX_DISTINCT : t;
}

/* The distinct channels of send event e: one, or one per iteration of the loop around it
 * where its tag advances with the iteration or its partner is a butterfly's stage. */
static uint64_t note_channel(struct counting *c, const struct sp_event *e)
{
    struct channel key;
    struct channel *grown;

    memset(&key, 0, sizeof(key));
    key.kind = e->comm.kind;
    key.keep = e->comm.keep;
    key.k = e->comm.k;
    key.peer_kind = e->peer.kind;
    memcpy(key.off, e->peer.off, sizeof(key.off));
    key.rank = e->peer.rank;
    key.tag = e->tag;
    key.tag_step = e->tag_step;
    for (size_t i = 0; i < c->nchannels; i++)
        if (!memcmp(&c->channels[i], &key, sizeof(key)))
            return 0;
    if (!(grown = realloc(c->channels, (c->nchannels + 1) * sizeof(*grown))))
        return 1;
    c->channels = grown;
    c->channels[c->nchannels++] = key;
    return e->tag_step || e->peer.kind == PZ_SCALE_PEER_XOR ||
           e->peer.kind == PZ_SCALE_PEER_PAIR ? innermost_trips(c) : 1;
}

uint64_t sp_step_records(const struct pz_scale_program *m, uint32_t i)
{
    const struct sp_node *nd = &m->nodes[i];
    const struct sp_sym *sym = &m->table.syms[nd->sym];
    uint64_t n = (sym->step_kind == PZ_SCALE_CALL ? 2 : 1) + sym->n, completes = 0, own = 0;

    for (uint32_t s = 0; s < m->nslots; s++)
        completes += m->done[s].node == i;
    for (uint32_t e = 0; e < sym->n; e++)
        own += m->events[nd->first_event + e].sig->poster_sym != SP_NONE;
    return n + (completes > own ? completes - own : 0);
}

/* Counts step node i: its records, its messages' channels, its communicators, and
 * whether it begins an interval of a region not seen yet (regions[0..*nregions-1]). */
static void count_step(struct counting *c, uint32_t i, struct pz_scale_memory_figures *f,
                       uint32_t *regions, uint32_t *nregions)
{
    const struct pz_scale_program *m = c->m;
    const struct sp_node *nd = &m->nodes[i];
    const struct sp_sym *sym = &m->table.syms[nd->sym];
    uint64_t records = sp_step_records(m, i);
    uint32_t r = 0;

    if (records > f->step_records)
        f->step_records = (uint32_t)records;
    f->records += records * (c->depth ? c->loop_passes[c->depth - 1] : 1);
    for (uint32_t e = 0; e < sym->n; e++) {
        const struct sp_event *ev = m->events[nd->first_event + e].sig;

        note_class(c, ev);
        if (ev->kind == PZ_REC_SEND || ev->kind == PZ_REC_ISEND)
            f->channels += note_channel(c, ev);
    }
    if (sym->step_kind != PZ_SCALE_BEGIN)
        return;
    while (r < *nregions && regions[r] != nd->region)
        r++;
    if (r == *nregions)
        regions[(*nregions)++] = nd->region;
}

/* Walks the template's nodes, the loops' trip counts at P kept for the nodes inside. */
static void count_nodes(struct counting *c, struct pz_scale_memory_figures *f)
{
    const struct pz_scale_program *m = c->m;
    uint32_t *regions = calloc(m->nnodes ? m->nnodes : 1, sizeof(*regions)), nregions = 0;
    uint32_t ends[64];

    for (uint32_t i = 0; i < m->nnodes; i++) {
        while (c->depth && ends[c->depth - 1] <= i)
            c->depth--;
        if (m->nodes[i].kind == SP_LOOP) {
            if (c->depth < 64) {
                uint64_t outer = c->depth ? c->loop_passes[c->depth - 1] : 1;

                ends[c->depth] = m->nodes[i].end;
                c->loop_trips[c->depth] = trips_at(c, i);
                c->loop_passes[c->depth] = outer * c->loop_trips[c->depth];
                if (c->loop_passes[c->depth] > MAX_TRIPS)
                    c->loop_passes[c->depth] = MAX_TRIPS;
                c->depth++;
            }
        } else if (regions) {
            count_step(c, i, f, regions, &nregions);
        }
    }
    for (uint32_t s = 0; s < m->nslots; s++)
        note_class(c, &m->done[s].sig);
    f->intervals = 1 + nregions;
    free(regions);
}

/* The records of a stretch of the template around its synchronizing collectives on the
 * world, each of which every process enters before any leaves: those before the first
 * (and it), after the last (and it), and the most between two; total alone without
 * any. */
struct span {
    uint64_t total, prefix, suffix, inner;
    int sync;
};

static uint64_t capped(uint64_t v)
{
    return v > MAX_TRIPS ? MAX_TRIPS : v;
}

static uint64_t larger(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* a then b. */
static struct span concat(struct span a, struct span b)
{
    struct span r = { capped(a.total + b.total), 0, 0, 0, a.sync || b.sync };

    if (a.sync && b.sync) {
        r.prefix = a.prefix;
        r.suffix = b.suffix;
        r.inner = larger(larger(a.inner, b.inner), capped(a.suffix + b.prefix));
    } else if (a.sync) {
        r.prefix = a.prefix;
        r.suffix = capped(a.suffix + b.total);
        r.inner = a.inner;
    } else if (b.sync) {
        r.prefix = capped(a.total + b.prefix);
        r.suffix = b.suffix;
        r.inner = b.inner;
    }
    return r;
}

/* body repeated trips times. */
static struct span repeat(struct span body, uint64_t trips)
{
    struct span r = body;

    r.total = capped(body.total * trips);
    if (body.sync && trips > 1)
        r.inner = larger(body.inner, capped(body.suffix + body.prefix));
    return r;
}

/* Whether operation op ends at every member only once every member entered it. */
static int synchronizing(enum pz_coll_op op)
{
    switch (op) {
    case PZ_COLL_BARRIER: case PZ_COLL_ALLGATHER: case PZ_COLL_ALLGATHERV:
    case PZ_COLL_ALLTOALL: case PZ_COLL_ALLTOALLV: case PZ_COLL_ALLTOALLW:
    case PZ_COLL_ALLREDUCE: case PZ_COLL_REDUCE_SCATTER: case PZ_COLL_REDUCE_SCATTER_BLOCK:
        return 1;
    default:
        return 0;
    }
}

/* Whether step node i is a collective on the world that synchronizes its members. */
static int world_collective(const struct pz_scale_program *m, uint32_t i)
{
    const struct sp_node *nd = &m->nodes[i];

    for (uint32_t e = 0; e < m->table.syms[nd->sym].n; e++) {
        const struct sp_event *ev = m->events[nd->first_event + e].sig;
        enum pz_coll_op op;

        if (ev->kind == PZ_REC_COLL_END && ev->comm.kind == PZ_SCALE_COMM_WORLD &&
            pz_call_coll_op(ev->coll_op, &op) == 0 && synchronizing(op))
            return 1;
    }
    return 0;
}

/* The span of nodes [from, to) at P, loops nested at most depth deep more. */
static struct span span_of(const struct counting *c, uint32_t from, uint32_t to, int depth)
{
    const struct pz_scale_program *m = c->m;
    struct span all = { 0, 0, 0, 0, 0 };

    for (uint32_t i = from; i < to;) {
        const struct sp_node *nd = &m->nodes[i];

        if (nd->kind == SP_LOOP) {
            struct span none = { 0, 0, 0, 0, 0 };
            struct span body = depth ? span_of(c, i + 1, nd->end, depth - 1) : none;

            all = concat(all, repeat(body, trips_at(c, i)));
            i = nd->end > i ? nd->end : i + 1;
        } else {
            uint64_t r = sp_step_records(m, i);
            struct span step = { r, r, r, 0, world_collective(m, i) };

            all = concat(all, step);
            i++;
        }
    }
    return all;
}

/* The most records a process makes between two synchronizing collectives on the world,
 * into f->stretch, and before the first or after the last (all, without any), into
 * f->loose. */
static void stretches(const struct counting *c, struct pz_scale_memory_figures *f)
{
    struct span s = span_of(c, 0, c->m->nnodes, 64);

    f->stretch = s.sync ? s.inner : 0;
    f->loose = s.sync ? larger(s.prefix, s.suffix) : s.total;
}

/* The members of an instance of class cm at P, and the instances. */
static uint32_t members_of(const struct counting *c, const struct pz_scale_comm *cm,
                           uint64_t *instances)
{
    uint32_t n = sp_comm_members(cm, &c->g, c->nprocs);

    if (!n) {
        *instances = 0;
        return 0;
    }
    if (pz_scale_is_group(cm->kind))
        *instances = pz_scale_group_count(cm, c->nprocs);
    else
        *instances = cm->kind == PZ_SCALE_COMM_SELF ? (uint64_t)c->nprocs
                                                    : ((uint64_t)c->nprocs + n - 1) / n;
    return n;
}

/* The communicators of the run at P: instances and members of every class noted, P
 * per instance a collective runs on (the world's included). */
static void count_comms(struct counting *c, struct pz_scale_memory_figures *f)
{
    const struct pz_scale_program *m = c->m;
    int world_collective = 0;

    for (uint32_t e = 0; e < m->nevents; e++)
        world_collective |= m->events[e].sig->comm.kind == PZ_SCALE_COMM_WORLD &&
                            is_collective(m->events[e].sig->kind);
    f->comms = 2;
    f->coll_members = world_collective ? (uint64_t)c->nprocs : 0;
    f->coll_classes = (uint32_t)world_collective;
    for (size_t i = 0; i < c->nclasses; i++) {
        struct pz_scale_comm cm = { .kind = c->classes[i].kind, .keep = c->classes[i].keep,
                                    .k = c->classes[i].k };
        uint64_t instances;
        uint32_t n = members_of(c, &cm, &instances);

        f->comms += instances;
        f->members += instances * n;
        if (c->classes[i].collective) {
            f->coll_members += instances * (uint64_t)c->nprocs;
            f->coll_classes++;
        }
    }
}

static uint32_t digits(uint64_t v)
{
    uint32_t d = 1;

    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

static int op_of(const struct sp_event *e, enum pz_coll_op *op)
{
    return (e->kind == PZ_REC_COLL_END || e->kind == PZ_REC_NBC_COMPLETE) &&
           pz_call_coll_op(e->coll_op, op) == 0;
}

/* The lists of v event i on its k instances of n members: how many distinct texts (an
 * Allgatherv's members share one; a rooted one's root alone has one), each of n numbers
 * of the digits of a member's mean per peer and a comma; the model's per-peer counts of
 * the members with lists, the largest event's. */
static void count_v(const struct counting *c, uint32_t i, uint32_t n, uint64_t k,
                    struct pz_scale_memory_figures *f)
{
    const struct sp_tevent *te = &c->m->events[i];
    uint64_t sizes[SP_NSIZES], texts = 0, with = 0, per_peer;
    enum pz_coll_op op = PZ_COLL_NOPS;

    op_of(te->sig, &op);
    sp_sizes_at(&te->sizes, c->nprocs, n, sizes);
    per_peer = sizes[SP_SENT] > sizes[SP_RECEIVED] ? sizes[SP_SENT] : sizes[SP_RECEIVED];
    if (op == PZ_COLL_ALLTOALLV || op == PZ_COLL_ALLTOALLW)
        per_peer /= n ? n : 1;
    for (uint32_t r = 0; r < n; r++) {
        unsigned l = sp_vsizes_lists(te->sig, n, r);

        texts += (l & SP_SEND_LIST ? 1 : 0) + (l & SP_RECV_LIST ? 1 : 0);
        with += l != 0;
    }
    if (op == PZ_COLL_ALLGATHERV)
        texts = 1;
    f->list_texts += k * texts;
    f->list_bytes += k * texts * n * (digits(per_peer) + 1);
    if (k * with * 2 * n > f->v_counts)
        f->v_counts = k * with * 2 * n;
}

/* A neighbourhood collective's lists: two a member, of n numbers, nearly all "0,". */
static void count_neighbours(uint32_t n, uint64_t k, struct pz_scale_memory_figures *f)
{
    f->list_texts += k * 2 * n;
    f->list_bytes += k * 2 * n * 2 * (uint64_t)n;
    if (k * 2 * (uint64_t)n * n > f->v_counts)
        f->v_counts = k * 2 * (uint64_t)n * n;
}

/* The messages a member of an all-to-all collective has in flight at most: MPICH's
 * scattered algorithm posts 32 receives and 32 sends before it waits for them
 * (model/coll_alltoall.c, SCATTERED_BLOCK). */
#define ALLTOALL_IN_FLIGHT 64u

/* Whether collective event i, of operation op on n members, is an all-to-all MPICH 4
 * makes by its scattered algorithm (model/coll.c): an Alltoallv, an Alltoallw, an
 * Alltoall of blocks from 257 bytes (or of fewer than 8 members) to 32 KiB. */
static int scattered(const struct counting *c, uint32_t i, enum pz_coll_op op, uint32_t n)
{
    uint64_t sizes[SP_NSIZES], block;

    if (op == PZ_COLL_ALLTOALLV || op == PZ_COLL_ALLTOALLW)
        return 1;
    if (op != PZ_COLL_ALLTOALL)
        return 0;
    sp_sizes_at(&c->m->events[i].sizes, c->nprocs, n, sizes);
    block = larger(sizes[SP_SENT], sizes[SP_RECEIVED]) / (n ? n : 1);
    return (block > 256 || n < 8) && block <= 32768;
}

/* The v collectives' lists, and the messages of the all-to-all collectives in flight;
 * the collectives of a communicator run one after the other, so the largest's. */
static void count_collectives(const struct counting *c, struct pz_scale_memory_figures *f)
{
    const struct pz_scale_program *m = c->m;

    for (uint32_t i = 0; i < m->nevents; i++) {
        const struct sp_event *e = m->events[i].sig;
        enum pz_coll_op op;
        uint64_t k;
        uint32_t n;

        if (!op_of(e, &op) || !(n = members_of(c, &e->comm, &k)))
            continue;
        if (scattered(c, i, op, n)) {
            uint64_t each = 2 * ((uint64_t)n - 1) < ALLTOALL_IN_FLIGHT ? 2 * ((uint64_t)n - 1)
                                                                       : ALLTOALL_IN_FLIGHT;

            if (k * n * each > f->in_flight)
                f->in_flight = k * n * each;
        }
        if (m->events[i].nbr)
            count_neighbours(n, k, f);
        else if (m->events[i].v)
            count_v(c, i, n, k, f);
    }
}

void pz_scale_memory_figures_of(const struct pz_scale_program *m, int nprocs,
                                struct pz_scale_memory_figures *f)
{
    struct counting c;

    memset(&c, 0, sizeof(c));
    memset(f, 0, sizeof(*f));
    c.m = m;
    c.nprocs = nprocs;
    pz_scale_grid_layout(&c.g, nprocs, m->grid.ndims, m->grid.ascending);
    memcpy(c.g.periodic, m->grid.periodic, sizeof(c.g.periodic));
    c.g.first_fastest = m->grid.first_fastest;
    f->nprocs = nprocs;
    f->nodes = m->nnodes;
    f->slots = m->nslots;
    count_nodes(&c, f);
    stretches(&c, f);
    count_comms(&c, f);
    count_collectives(&c, f);
    free(c.channels);
}
