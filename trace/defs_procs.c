/* Processes, threads and communicators of the definitions (defs.h). */
#include <stdlib.h>

#include "defs_int.h"

static int by_group_then_id(const void *x, const void *y)
{
    const struct pz_location_def *a = x, *b = y;

    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static int by_id(const void *x, const void *y)
{
    const struct pz_location_def *a = x, *b = y;

    return (a->id > b->id) - (a->id < b->id);
}

/* Threads, not accelerator streams or metric locations, make MPI calls and compute. */
static int is_thread(const struct pz_location_def *l)
{
    return l->type != OTF2_LOCATION_TYPE_ACCELERATOR_STREAM &&
           l->type != OTF2_LOCATION_TYPE_METRIC;
}

static int number_threads(struct pz_defs *d)
{
    size_t n = d->nlocations ? d->nlocations : 1;
    const struct pz_location_def *prev = NULL;    /* the last thread numbered */

    if (d->nlocations)    /* qsort wants a valid array even for none */
        qsort(d->locations, d->nlocations, sizeof(*d->locations), by_group_then_id);
    d->thread_location = malloc(n * sizeof(uint64_t));
    d->thread_rank = malloc(n * sizeof(int));
    d->first_thread = malloc(n * sizeof(int));
    if (!d->thread_location || !d->thread_rank || !d->first_thread)
        return -1;
    for (uint32_t i = 0; i < d->nlocations; i++) {
        struct pz_location_def *l = &d->locations[i];
        int th = d->nthreads;

        if (!is_thread(l))
            continue;
        /* compared with the last thread, not the last location: Score-P numbers a
           process's locations as it creates them, a metric location may come between
           its master thread and its OpenMP threads */
        if (!prev || prev->group != l->group)
            d->first_thread[d->nprocs++] = th;
        else
            d->threaded = 1;
        d->thread_location[th] = l->id;
        d->thread_rank[th] = d->nprocs - 1;
        l->thread = d->nthreads++;
        prev = l;
    }
    if (d->nlocations)
        qsort(d->locations, d->nlocations, sizeof(*d->locations), by_id);
    return 0;
}

static uint32_t location_slot(OTF2_LocationRef loc, uint32_t n)
{
    return (uint32_t)((loc * 0x9E3779B97F4A7C15u) >> 32) & (n - 1);
}

/* Every event asks which thread it belongs to: a hash answers in a probe or two. */
static int hash_locations(struct pz_defs *d)
{
    uint32_t n = 16;

    while (n < 2 * (uint64_t)d->nlocations)
        n *= 2;
    if (!(d->location_slots = calloc(n, sizeof(uint32_t))))
        return -1;
    d->nlocation_slots = n;
    for (uint32_t i = 0; i < d->nlocations; i++) {
        uint32_t s = location_slot(d->locations[i].id, n);

        while (d->location_slots[s])
            s = (s + 1) & (n - 1);
        d->location_slots[s] = i + 1;
    }
    return 0;
}

int pz_defs_number(struct pz_defs *d)
{
    return number_threads(d) != 0 || hash_locations(d) != 0 ? -1 : 0;
}

uint64_t pz_defs_thread_events(const struct pz_defs *d)
{
    uint64_t n = 0;

    for (uint32_t i = 0; i < d->nlocations; i++)
        if (d->locations[i].thread >= 0)
            n += d->locations[i].events;
    return n;
}

int pz_defs_thread(const struct pz_defs *d, OTF2_LocationRef loc)
{
    uint32_t n = d->nlocation_slots;

    for (uint32_t s = location_slot(loc, n); d->location_slots[s]; s = (s + 1) & (n - 1))
        if (d->locations[d->location_slots[s] - 1].id == loc)
            return d->locations[d->location_slots[s] - 1].thread;
    return -1;
}

/* The process of location loc, -1 if it is not read. */
static int process_of(const struct pz_defs *d, uint64_t loc)
{
    int th = pz_defs_thread(d, loc);

    return th < 0 ? -1 : d->thread_rank[th];
}

static const struct pz_group_def *group_of(const struct pz_defs *d, OTF2_GroupRef g)
{
    return g < d->ngroups && d->groups[g].members ? &d->groups[g] : NULL;
}

/* The world: MPI's COMM_LOCATIONS group, else the last one of another paradigm. */
static const struct pz_group_def *world_of(const struct pz_defs *d)
{
    const struct pz_group_def *other = NULL;

    for (uint32_t g = 0; g < d->ngroups; g++) {
        const struct pz_group_def *x = &d->groups[g];

        if (x->type != OTF2_GROUP_TYPE_COMM_LOCATIONS || !x->members)
            continue;
        if (x->paradigm == OTF2_PARADIGM_MPI)
            return x;
        other = x;
    }
    return other;
}

/* The processes of group g's members into out: locations for a COMM_LOCATIONS group,
 * else world ranks. */
static void members(const struct pz_defs *d, const struct pz_group_def *g,
                    const struct pz_group_def *world, int *out)
{
    for (uint32_t i = 0; i < g->n; i++) {
        uint64_t m = g->members[i];

        out[i] = g->type == OTF2_GROUP_TYPE_COMM_LOCATIONS ? process_of(d, m)
                 : world && m < world->n ? process_of(d, world->members[m])
                                         : -1;
    }
}

int pz_defs_group_processes(const struct pz_defs *d, uint32_t group, int **procs)
{
    const struct pz_group_def *g = group < d->ngroups ? &d->groups[group] : NULL;

    *procs = NULL;
    if (!g || g->type != OTF2_GROUP_TYPE_COMM_GROUP || (g->n && !g->members))
        return -1;
    if (g->n == 0)
        return 0;
    if (!(*procs = malloc(g->n * sizeof(int))))
        return -1;
    members(d, g, world_of(d), *procs);
    return (int)g->n;
}

static int resolve_comm(const struct pz_defs *d, struct pz_comm_def *c,
                        const struct pz_group_def *world)
{
    const struct pz_group_def *g = group_of(d, c->group);
    const struct pz_group_def *b = c->inter ? group_of(d, c->remote) : NULL;

    if (!g || (c->inter && !b)) {
        c->defined = 0;
        return 0;
    }
    if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
        c->self = 1;
        c->size = 1;
        return 0;
    }
    c->size = g->n + (b ? b->n : 0);
    c->local = b ? g->n : 0;
    if (!(c->procs = malloc((c->size ? c->size : 1) * sizeof(int))))
        return -1;
    members(d, g, world, c->procs);
    if (b)
        members(d, b, world, c->procs + g->n);
    return 0;
}

int pz_defs_resolve_comms(struct pz_defs *d)
{
    const struct pz_group_def *world = world_of(d);

    for (uint32_t c = 0; c < d->ncomms; c++)
        if (d->comms[c].defined && resolve_comm(d, &d->comms[c], world) != 0)
            return -1;
    return 0;
}

const struct pz_comm_def *pz_defs_comm(const struct pz_defs *d, uint32_t comm)
{
    return comm < d->ncomms && d->comms[comm].defined ? &d->comms[comm] : NULL;
}

uint32_t pz_comm_rank(const struct pz_comm_def *c, int p)
{
    uint32_t i = 0;

    if (c->self)
        return 0;
    /* the world, and every communicator listing processes in their order: at once,
       where the search would take a time growing with the processes */
    if (p >= 0 && (uint32_t)p < c->size && c->procs[p] == p)
        return (uint32_t)p;
    while (i < c->size && c->procs[i] != p)
        i++;
    return i;
}

int pz_comm_process(const struct pz_comm_def *c, uint32_t rank, int p)
{
    uint32_t first = 0, n;

    if (!c)
        return -1;
    if (c->self)
        return rank == 0 ? p : -1;
    n = c->size;
    if (c->local) {    /* the group p is not in */
        uint32_t i = pz_comm_rank(c, p);

        first = i < c->local ? c->local : 0;
        n = i < c->local ? c->size - c->local : c->local;
    }
    return rank < n ? c->procs[first + rank] : -1;
}
