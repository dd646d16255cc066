/* The definitions of a recorded run the replay needs: strings, regions (MPI functions
 * by name, intervals), processes and their threads, communicators as processes, the
 * clock, and prognoz's attributes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls_gen.h"
#include "names.h"
#include "trace_in_int.h"

void pz_trace_in_fail(struct pz_trace_in *t, const char *what)
{
    if (!t->error[0])
        snprintf(t->error, sizeof(t->error), "%s: %s", t->path, what);
}

/* Grows *v (elements of size) so that index i is valid; new elements are zero. */
static int reserve(void **v, uint32_t *n, uint32_t i, size_t size)
{
    uint32_t cap = *n ? *n : 16;
    void *grown;

    if (i < *n)
        return 0;
    while (cap <= i)
        cap *= 2;
    if (!(grown = realloc(*v, cap * size)))
        return -1;
    memset((char *)grown + (size_t)*n * size, 0, (size_t)(cap - *n) * size);
    *v = grown;
    *n = cap;
    return 0;
}

static OTF2_CallbackCode on_string(void *ud, OTF2_StringRef self, const char *s)
{
    struct pz_trace_in *t = ud;

    if (reserve((void **)&t->strings, &t->nstrings, self, sizeof(char *)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    free(t->strings[self]);
    return (t->strings[self] = strdup(s)) ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
}

static int call_named(const char *name)
{
    for (int id = 0; name && id < PZ_NCALLS; id++)
        if (!strcmp(pz_calls[id].name, name))
            return id;
    return -1;
}

static OTF2_CallbackCode on_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name,
                                   OTF2_StringRef canonical, OTF2_StringRef description,
                                   OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                   OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                   uint32_t end)
{
    struct pz_trace_in *t = ud;
    struct pz_region_info *g;

    (void)canonical, (void)description, (void)role, (void)file, (void)begin, (void)end;
    if (reserve((void **)&t->regions, &t->nregions, self, sizeof(*g)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    g = &t->regions[self];
    g->name_ref = name;
    g->kind = paradigm == OTF2_PARADIGM_MPI ? PZ_REGION_MPI
              : (flags & OTF2_REGION_FLAG_PHASE) ? PZ_REGION_INTERVAL : PZ_REGION_OTHER;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t events,
                                     OTF2_LocationGroupRef group)
{
    struct pz_trace_in *t = ud;
    struct location_def *grown = realloc(t->locations, (t->nlocations + 1) * sizeof(*grown));

    (void)name, (void)events;
    if (!grown)
        return OTF2_CALLBACK_INTERRUPT;
    t->locations = grown;
    t->locations[t->nlocations++] = (struct location_def){ self, group, type, -1 };
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_clock(void *ud, uint64_t resolution, uint64_t offset,
                                  uint64_t length, uint64_t realtime)
{
    struct pz_trace_in *t = ud;

    (void)length, (void)realtime;
    t->resolution = resolution;
    t->offset = offset;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name,
                                  OTF2_GroupType type, OTF2_Paradigm paradigm,
                                  OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    struct pz_trace_in *t = ud;
    struct group_def *g;

    (void)name, (void)flags;
    if (reserve((void **)&t->groups, &t->ngroups, self, sizeof(*g)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    g = &t->groups[self];
    free(g->members);
    g->type = type;
    g->paradigm = paradigm;
    g->n = n;
    if (!(g->members = malloc((n ? n : 1) * sizeof(uint64_t))))
        return OTF2_CALLBACK_INTERRUPT;
    memcpy(g->members, members, n * sizeof(uint64_t));
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                 OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    struct pz_trace_in *t = ud;

    (void)name, (void)parent, (void)flags;
    if (reserve((void **)&t->comms, &t->ncomms, self, sizeof(struct comm_def)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    t->comms[self].group = group;
    t->comms[self].defined = 1;
    t->comms[self].size = -1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_intercomm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                      OTF2_GroupRef a, OTF2_GroupRef b, OTF2_CommRef common,
                                      OTF2_CommFlag flags)
{
    struct pz_trace_in *t = ud;

    (void)name, (void)common, (void)flags;
    if (reserve((void **)&t->comms, &t->ncomms, self, sizeof(struct comm_def)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    t->comms[self].group = a;
    t->comms[self].remote = b;
    t->comms[self].inter = 1;
    t->comms[self].defined = 1;
    t->comms[self].size = -1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_attribute(void *ud, OTF2_AttributeRef self, OTF2_StringRef name,
                                      OTF2_StringRef description, OTF2_Type type)
{
    struct pz_trace_in *t = ud;
    const char *s = pz_trace_in_string(t, name);

    (void)description;
    if (!s)
        return OTF2_CALLBACK_SUCCESS;
    if (type == OTF2_TYPE_SOURCE_CODE_LOCATION && !strcmp(s, PZ_NAME_CALLSITE))
        t->callsite = self;
    else if (type == OTF2_TYPE_STRING && !strcmp(s, PZ_NAME_SEND_BYTES))
        t->send_list = self;
    else if (type == OTF2_TYPE_STRING && !strcmp(s, PZ_NAME_RECV_BYTES))
        t->recv_list = self;
    else if (type == OTF2_TYPE_UINT64 && !strcmp(s, PZ_NAME_CPU_TIME))
        t->cpu = self;
    return OTF2_CALLBACK_SUCCESS;
}

static int by_group_then_id(const void *x, const void *y)
{
    const struct location_def *a = x, *b = y;

    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

/* Threads, not accelerator streams or metrics, make MPI calls and compute. */
static int replayed(const struct location_def *l)
{
    return l->type != OTF2_LOCATION_TYPE_ACCELERATOR_STREAM &&
           l->type != OTF2_LOCATION_TYPE_METRIC;
}

/* Processes are the location groups with a thread, in the order of their ids (as the
 * analyzer numbers them); their threads follow each other by location id. */
static int number_threads(struct pz_trace_in *t)
{
    size_t n = t->nlocations ? t->nlocations : 1;
    const struct location_def *prev = NULL;

    qsort(t->locations, t->nlocations, sizeof(*t->locations), by_group_then_id);
    t->thread_location = malloc(n * sizeof(uint64_t));
    t->thread_rank = malloc(n * sizeof(int));
    t->first_thread = malloc(n * sizeof(int));
    if (!t->thread_location || !t->thread_rank || !t->first_thread)
        return -1;
    for (uint32_t i = 0; i < t->nlocations; i++) {
        struct location_def *l = &t->locations[i];
        int th = t->nthreads;

        if (!replayed(l))
            continue;
        if (!prev || prev->group != l->group)
            t->first_thread[t->nprocs++] = th;
        t->thread_location[th] = l->id;
        t->thread_rank[th] = t->nprocs - 1;
        l->thread = t->nthreads++;
        prev = l;
    }
    return 0;
}

/* The process of location loc, -1 if it is not replayed. */
static int rank_of_location(const struct pz_trace_in *t, uint64_t loc)
{
    for (uint32_t i = 0; i < t->nlocations; i++)
        if (t->locations[i].id == loc)
            return t->locations[i].thread < 0 ? -1 : t->thread_rank[t->locations[i].thread];
    return -1;
}

static const struct group_def *group_of(const struct pz_trace_in *t, OTF2_GroupRef g)
{
    return g < t->ngroups && t->groups[g].members ? &t->groups[g] : NULL;
}

/* The processes of group g's members into out: a member of a COMM_GROUP is a rank of
 * the COMM_LOCATIONS group (world), whose members are locations. */
static void members(const struct pz_trace_in *t, const struct group_def *g,
                    const struct group_def *world, int *out)
{
    for (uint32_t i = 0; i < g->n; i++) {
        uint64_t m = g->members[i];

        out[i] = g->type == OTF2_GROUP_TYPE_COMM_LOCATIONS ? rank_of_location(t, m)
                 : world && m < world->n ? rank_of_location(t, world->members[m])
                                         : -1;
    }
}

static int resolve_comm(struct pz_trace_in *t, struct comm_def *c, const struct group_def *world)
{
    const struct group_def *g = group_of(t, c->group);
    const struct group_def *b = c->inter ? group_of(t, c->remote) : NULL;
    uint32_t n;

    if (!g || (c->inter && !b))
        return 0;
    if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
        c->size = 0;
        return 0;
    }
    n = g->n + (b ? b->n : 0);
    if (!(c->procs = malloc((n ? n : 1) * sizeof(int))))
        return -1;
    members(t, g, world, c->procs);
    if (b)
        members(t, b, world, c->procs + g->n);
    c->local = b ? (int)g->n : 0;
    c->size = (int)n;
    return 0;
}

/* World is MPI's COMM_LOCATIONS group: a hybrid run (Score-P) also has OpenMP's. */
static int resolve_comms(struct pz_trace_in *t)
{
    const struct group_def *world = NULL;

    for (uint32_t g = 0; g < t->ngroups; g++) {
        const struct group_def *x = &t->groups[g];

        if (x->type != OTF2_GROUP_TYPE_COMM_LOCATIONS || !x->members ||
            (world && world->paradigm == OTF2_PARADIGM_MPI))
            continue;
        world = x;
    }
    for (uint32_t c = 0; c < t->ncomms; c++)
        if (t->comms[c].defined && resolve_comm(t, &t->comms[c], world) != 0)
            return -1;
    return 0;
}

int pz_trace_in_read_defs(struct pz_trace_in *t)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(t->otf);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    uint64_t n;

    t->callsite = t->send_list = t->recv_list = t->cpu = OTF2_UNDEFINED_ATTRIBUTE;
    if (!gdr || !cb) {
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
        pz_trace_in_fail(t, "cannot read the global definitions");
        return -1;
    }
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
    OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(cb, on_intercomm);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, on_attribute);
    OTF2_Reader_RegisterGlobalDefCallbacks(t->otf, gdr, cb, t);
    if (OTF2_Reader_ReadAllGlobalDefinitions(t->otf, gdr, &n) != OTF2_SUCCESS)
        pz_trace_in_fail(t, "cannot read the global definitions");
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseGlobalDefReader(t->otf, gdr);
    if (t->error[0])
        return -1;
    /* names once every string is known: the MPI functions among them by name */
    for (uint32_t i = 0; i < t->nregions; i++) {
        struct pz_region_info *g = &t->regions[i];
        const char *name = pz_trace_in_string(t, g->name_ref);

        g->name = name ? name : "?";
        g->call = g->kind == PZ_REGION_MPI ? call_named(name) : -1;
        g->synchronous = g->call == PZ_CALL_MPI_Ssend || g->call == PZ_CALL_MPI_Issend;
        g->buffered = g->call == PZ_CALL_MPI_Bsend || g->call == PZ_CALL_MPI_Ibsend;
    }
    if (!t->resolution) {
        pz_trace_in_fail(t, "the trace has no clock properties");
        return -1;
    }
    if (number_threads(t) != 0 || resolve_comms(t) != 0) {
        pz_trace_in_fail(t, "out of memory");
        return -1;
    }
    if (t->nprocs == 0) {
        pz_trace_in_fail(t, "the trace has no locations");
        return -1;
    }
    return 0;
}

void pz_trace_in_free_defs(struct pz_trace_in *t)
{
    for (uint32_t i = 0; i < t->nstrings; i++)
        free(t->strings[i]);
    free(t->strings);
    free(t->regions);
    free(t->locations);
    for (uint32_t i = 0; i < t->ngroups; i++)
        free(t->groups[i].members);
    free(t->groups);
    for (uint32_t i = 0; i < t->ncomms; i++)
        free(t->comms[i].procs);
    free(t->comms);
    free(t->thread_location);
    free(t->thread_rank);
    free(t->first_thread);
}

const char *pz_trace_in_string(const struct pz_trace_in *t, uint32_t ref)
{
    return ref < t->nstrings ? t->strings[ref] : NULL;
}

const struct pz_region_info *pz_trace_in_region(const struct pz_trace_in *t, uint32_t ref)
{
    static const struct pz_region_info unknown = { "?", PZ_REGION_OTHER, -1, 0, 0, 0 };

    return ref < t->nregions && t->regions[ref].name ? &t->regions[ref] : &unknown;
}

int pz_trace_in_comm(const struct pz_trace_in *t, uint32_t comm, const int **procs)
{
    if (comm >= t->ncomms || !t->comms[comm].defined)
        return -1;
    *procs = t->comms[comm].procs;
    return t->comms[comm].size;
}

int pz_trace_in_comm_local(const struct pz_trace_in *t, uint32_t comm)
{
    return comm < t->ncomms && t->comms[comm].defined ? t->comms[comm].local : 0;
}
