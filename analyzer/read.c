/* Reading a trace into the tree of intervals.  Definitions first (regions classified
 * by name through the MPI function table, intervals by their PHASE flag), then the
 * events of each process, one location at a time, keeping only the stack of open
 * regions: memory grows with processes and intervals, not with the events. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <otf2/otf2.h>

#include "analysis.h"
#include "calls_gen.h"
#include "names.h"
#include "anchor.h"
#include "reader.h"

static struct reader *current;   /* for OTF2's error callback */

void pz_reader_fail(struct reader *r, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (r->failed)
        return;
    r->failed = 1;
    n = snprintf(r->err, r->errlen, "%s: ", r->path);
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

static OTF2_ErrorCode otf2_error(void *data, const char *file, uint64_t line,
                                 const char *function, OTF2_ErrorCode code, const char *fmt,
                                 va_list va)
{
    char msg[512];

    (void)data, (void)file, (void)line, (void)function;
    vsnprintf(msg, sizeof(msg), fmt ? fmt : "", va);
    if (current)
        pz_reader_fail(current, "%s%s%s", OTF2_Error_GetDescription(code), msg[0] ? ": " : "", msg);
    return code;
}

int pz_reserve(void **v, uint32_t *n, uint32_t i, size_t size)
{
    uint32_t want = i + 1, cap = *n;
    void *grown;

    if (want <= cap)
        return 0;
    while (cap < want)
        cap = cap ? 2 * cap : 64;
    if (!(grown = realloc(*v, cap * size)))
        return -1;
    memset((char *)grown + (size_t)*n * size, 0, (size_t)(cap - *n) * size);
    *v = grown;
    *n = cap;
    return 0;
}

static OTF2_CallbackCode def_string(void *ud, OTF2_StringRef self, const char *s)
{
    struct reader *r = ud;

    if (pz_reserve((void **)&r->strings, &r->nstrings, self, sizeof(char *)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    free(r->strings[self]);
    r->strings[self] = strdup(s);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef description,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file,
                                    uint32_t begin, uint32_t end)
{
    struct reader *r = ud;
    struct region *g;

    (void)canonical, (void)role, (void)end;
    if (pz_reserve((void **)&r->regions, &r->nregions, self, sizeof(struct region)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    g = &r->regions[self];
    g->name = name;
    g->file = file;
    g->line = begin;
    g->description = description;
    g->function = -1;
    g->kind = paradigm == OTF2_PARADIGM_MPI ? REGION_MPI
              : (flags & OTF2_REGION_FLAG_PHASE) ? REGION_INTERVAL : REGION_OTHER;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef group)
{
    struct reader *r = ud;
    uint32_t n = r->nlocations;
    struct location *grown = realloc(r->locations, (n + 1) * sizeof(*grown));

    (void)name, (void)events;
    if (!grown)
        return OTF2_CALLBACK_INTERRUPT;
    r->locations = grown;
    r->locations[n] = (struct location){ self, group, type, -1 };
    r->nlocations++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_clock(void *ud, uint64_t resolution, uint64_t offset,
                                   uint64_t length, uint64_t realtime)
{
    struct reader *r = ud;

    (void)length, (void)realtime;
    r->resolution = resolution;
    r->offset = offset;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm paradigm,
                                   OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    struct reader *r = ud;
    struct group *g;

    (void)name, (void)flags;
    if (pz_reserve((void **)&r->groups, &r->ngroups, self, sizeof(struct group)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    g = &r->groups[self];
    free(g->members);
    g->type = type;
    g->paradigm = paradigm;
    g->n = n;
    g->members = malloc((n ? n : 1) * sizeof(uint64_t));
    if (!g->members)
        return OTF2_CALLBACK_INTERRUPT;
    memcpy(g->members, members, n * sizeof(uint64_t));
    return OTF2_CALLBACK_SUCCESS;
}

/* Attributes: only "prognoz:callsite" matters; its name is looked up once all strings
 * are known, so the ref is kept here. */
static OTF2_CallbackCode def_attribute(void *ud, OTF2_AttributeRef self, OTF2_StringRef name,
                                       OTF2_StringRef description, OTF2_Type type)
{
    struct reader *r = ud;

    (void)description;
    if (type == OTF2_TYPE_SOURCE_CODE_LOCATION && name < r->nstrings && r->strings[name] &&
        !strcmp(r->strings[name], PZ_NAME_CALLSITE))
        r->callsite_attribute = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_site(void *ud, OTF2_SourceCodeLocationRef self,
                                  OTF2_StringRef file, uint32_t line)
{
    struct reader *r = ud;

    if (pz_reserve((void **)&r->sites, &r->nsites, self, sizeof(*r->sites)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    r->sites[self].file = file;
    r->sites[self].line = line;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    struct reader *r = ud;

    (void)name, (void)parent, (void)flags;
    if (pz_reserve((void **)&r->comms, &r->ncomms, self, sizeof(struct comm)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    r->comms[self].group = group;
    r->comms[self].defined = 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_intercomm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                       OTF2_GroupRef a, OTF2_GroupRef b, OTF2_CommRef common,
                                       OTF2_CommFlag flags)
{
    struct reader *r = ud;

    (void)name, (void)common, (void)flags;
    if (pz_reserve((void **)&r->comms, &r->ncomms, self, sizeof(struct comm)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    r->comms[self].group = a;
    r->comms[self].remote = b;
    r->comms[self].inter = 1;
    r->comms[self].defined = 1;
    return OTF2_CALLBACK_SUCCESS;
}

/* An interval's id from its name, "interval 2 at heat.c:57" (or "sequential interval
 * ..."), and whether it is sequential: its description says so (docs/trace-format.md). */
static void interval_region(struct reader *r, struct region *g)
{
    const char *name = g->name < r->nstrings ? r->strings[g->name] : NULL;
    const char *description = g->description < r->nstrings ? r->strings[g->description] : NULL;

    if (name && (name = strstr(name, "interval ")))
        sscanf(name, PZ_INTERVAL_ID_FORMAT, &g->id);
    g->sequential = description && !strcmp(description, PZ_DESC_SEQUENTIAL);
}

/* MPI regions: their class by name from the MPI function table (calls_gen.h). */
static void classify(struct reader *r, struct region *g)
{
    const char *name = g->name < r->nstrings ? r->strings[g->name] : NULL;

    if (g->kind != REGION_MPI || !name)
        return;
    for (int id = 0; id < PZ_NCALLS; id++) {
        const struct pz_call_info *c = &pz_calls[id];

        if (strcmp(c->name, name) != 0)
            continue;
        g->starts = c->nonblocking && c->category != PZ_CAT_WAIT &&
                    c->category != PZ_CAT_WAITALL && c->category != PZ_CAT_WAITANY &&
                    c->category != PZ_CAT_WAITSOME && c->category != PZ_CAT_REQUEST_FREE &&
                    c->category != PZ_CAT_CANCEL && c->category != PZ_CAT_PSEND_INIT &&
                    c->category != PZ_CAT_PRECV_INIT;
        g->blocking = !c->nonblocking || c->category == PZ_CAT_WAIT ||
                      c->category == PZ_CAT_WAITALL || c->category == PZ_CAT_WAITANY ||
                      c->category == PZ_CAT_WAITSOME;
        if (strstr(name, "Test") || !strcmp(name, "MPI_Iprobe") || !strcmp(name, "MPI_Improbe"))
            g->blocking = 0;
        g->sends_blocking = c->category == PZ_CAT_SEND && strcmp(name, "MPI_Bsend") != 0;
        if (c->category == PZ_CAT_COLL)
            g->mpi_class = c->collective == PZ_COLL_ALLTOALL ||
                                   c->collective == PZ_COLL_ALLTOALLV ||
                                   c->collective == PZ_COLL_ALLTOALLW
                               ? CLASS_ALLTOALL : CLASS_COLLECTIVE;
        else if (c->category == PZ_CAT_INIT || c->category == PZ_CAT_PLAIN ||
                 c->category == PZ_CAT_COMM_NEW || c->category == PZ_CAT_COMM_FREE)
            g->mpi_class = CLASS_MPI;
        else
            g->mpi_class = CLASS_SENDRECV;
        return;
    }
}

static int read_definitions(struct reader *r, OTF2_Reader *otf)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(otf);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    uint64_t n;

    if (!gdr || !cb) {
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
        pz_reader_fail(r, "cannot read the global definitions");
        return -1;
    }
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(cb, def_intercomm);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, def_attribute);
    OTF2_GlobalDefReaderCallbacks_SetSourceCodeLocationCallback(cb, def_site);
    OTF2_Reader_RegisterGlobalDefCallbacks(otf, gdr, cb, r);
    OTF2_Reader_ReadAllGlobalDefinitions(otf, gdr, &n);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    for (uint32_t i = 0; i < r->nregions; i++) {
        struct region *g = &r->regions[i];

        classify(r, g);
        if (g->kind == REGION_INTERVAL)
            interval_region(r, g);
    }
    if (r->nsites && r->nregions) {
        r->nsite_slots = r->nsites * r->nregions;
        r->site_index = calloc(r->nsite_slots, sizeof(uint32_t));
        if (!r->site_index)
            r->nsite_slots = 0;
    }
    if (!r->failed && !r->resolution)
        pz_reader_fail(r, "the trace has no clock properties");
    return r->failed ? -1 : 0;
}

static int by_group_then_id(const void *x, const void *y)
{
    const struct location *a = x, *b = y;

    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static int by_id(const void *x, const void *y)
{
    const struct location *a = x, *b = y;

    return (a->id > b->id) - (a->id < b->id);
}

/* Threads, not accelerators or metric streams, carry MPI calls and computation. */
static int analyzed(const struct location *l)
{
    return l->type != OTF2_LOCATION_TYPE_ACCELERATOR_STREAM && l->type != OTF2_LOCATION_TYPE_METRIC;
}

/* The processes of the analysis: every thread, by MPI process (location group) and
 * then by location id, so that without threads process p is rank p. */
static int number_processes(struct reader *r)
{
    struct pz_analysis *a = r->a;
    const struct location *prev = NULL;    /* the last thread numbered */
    int n = 0, rank = -1;

    qsort(r->locations, r->nlocations, sizeof(*r->locations), by_group_then_id);
    a->rank_of = malloc((r->nlocations ? r->nlocations : 1) * sizeof(int));
    a->thread_of = malloc((r->nlocations ? r->nlocations : 1) * sizeof(int));
    if (!a->rank_of || !a->thread_of)
        return -1;
    for (uint32_t i = 0; i < r->nlocations; i++) {
        struct location *l = &r->locations[i];

        if (!analyzed(l))
            continue;
        /* compared with the last thread, not the last location: Score-P numbers a
           process's locations as it creates them, a metric location may come between
           its master thread and its OpenMP threads */
        if (!prev || l->group != prev->group)
            a->thread_of[n] = 0, rank++;
        else
            a->thread_of[n] = a->thread_of[n - 1] + 1, a->threaded = 1;
        a->rank_of[n] = rank;
        l->proc = n++;
        prev = l;
    }
    a->nprocs = n;
    a->nranks = rank + 1;
    qsort(r->locations, r->nlocations, sizeof(*r->locations), by_id);
    return 0;
}

static uint32_t location_slot(OTF2_LocationRef loc, uint32_t n)
{
    return (uint32_t)((loc * 0x9E3779B97F4A7C15u) >> 32) & (n - 1);
}

/* Every event asks which process it belongs to: a hash answers in a probe or two. */
static int hash_locations(struct reader *r)
{
    uint32_t n = 16;

    while (n < 2 * r->nlocations)
        n *= 2;
    if (!(r->location_slots = calloc(n, sizeof(uint32_t))))
        return -1;
    r->nlocation_slots = n;
    for (uint32_t i = 0; i < r->nlocations; i++) {
        uint32_t s = location_slot(r->locations[i].id, n);

        while (r->location_slots[s])
            s = (s + 1) & (n - 1);
        r->location_slots[s] = i + 1;
    }
    return 0;
}

int pz_reader_proc(const struct reader *r, OTF2_LocationRef loc)
{
    uint32_t n = r->nlocation_slots;

    for (uint32_t s = location_slot(loc, n); r->location_slots[s]; s = (s + 1) & (n - 1))
        if (r->locations[r->location_slots[s] - 1].id == loc)
            return r->locations[r->location_slots[s] - 1].proc;
    return -1;
}

/* The locations of MPI's ranks: the COMM_LOCATIONS group of paradigm MPI (Score-P's
 * trace of an OpenMP program has another one, OpenMP's, of every thread), else the last
 * one of another paradigm. */
static const struct group *mpi_locations(const struct reader *r)
{
    const struct group *other = NULL;

    for (uint32_t g = 0; g < r->ngroups; g++) {
        const struct group *x = &r->groups[g];

        if (x->type != OTF2_GROUP_TYPE_COMM_LOCATIONS || !x->members)
            continue;
        if (x->paradigm == OTF2_PARADIGM_MPI)
            return x;
        other = x;
    }
    return other;
}

/* A member of a COMM_GROUP is a rank of the COMM_LOCATIONS group, whose members are
 * locations; communicators get their members as process numbers. */
static const struct group *group_of(const struct reader *r, OTF2_GroupRef g)
{
    return g < r->ngroups && r->groups[g].members ? &r->groups[g] : NULL;
}

/* The MPI processes of the members of group g (world ranks, or locations) into out. */
static void members(const struct reader *r, const struct group *locations,
                    const struct group *g, int *out)
{
    for (uint32_t i = 0; i < g->n; i++) {
        uint64_t rank = g->members[i];
        int proc = g->type == OTF2_GROUP_TYPE_COMM_LOCATIONS
                       ? pz_reader_proc(r, rank)
                   : locations && rank < locations->n
                       ? pz_reader_proc(r, locations->members[rank])
                       : -1;

        out[i] = proc >= 0 ? pz_reader_rank(r, proc) : -1;
    }
}

static void resolve_comms(struct reader *r)
{
    const struct group *locations = mpi_locations(r);

    for (uint32_t c = 0; c < r->ncomms; c++) {
        struct comm *m = &r->comms[c];
        const struct group *g = m->defined ? group_of(r, m->group) : NULL;
        const struct group *b = m->inter ? group_of(r, m->remote) : NULL;

        if (!g || (m->inter && !b)) {
            m->defined = 0;
            continue;
        }
        m->self = g->type == OTF2_GROUP_TYPE_COMM_SELF;
        m->local = b ? g->n : 0;
        m->size = m->self ? 1 : g->n + (b ? b->n : 0);
        if (m->self || !(m->ranks = malloc((m->size ? m->size : 1) * sizeof(int))))
            continue;
        members(r, locations, g, m->ranks);
        if (b)
            members(r, locations, b, m->ranks + g->n);
    }
}

uint32_t pz_comm_rank(const struct comm *c, int me)
{
    uint32_t i = 0;

    if (c->self)
        return 0;
    while (i < c->size && c->ranks && c->ranks[i] != me)
        i++;
    return c->ranks ? i : c->size;
}

int pz_comm_peer(const struct comm *c, uint32_t rank, int me)
{
    uint32_t first = 0, n = c->size;

    if (!c->defined)
        return -1;
    if (c->self)
        return rank == 0 ? me : -1;
    if (c->local) {    /* the group me is not in */
        uint32_t i = pz_comm_rank(c, me);

        first = i < c->local ? c->local : 0;
        n = i < c->local ? c->size - c->local : c->local;
    }
    return rank < n && c->ranks ? c->ranks[first + rank] : -1;
}

static int read_events(struct reader *r, OTF2_Reader *otf)
{
    OTF2_GlobalEvtReader *er;
    OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
    uint64_t n;

    for (uint32_t i = 0; i < r->nlocations; i++) {
        if (r->locations[i].proc < 0)
            continue;
        /* the event reader must exist before the local definitions (mapping tables,
         * clock offsets) are read, for them to apply to it */
        OTF2_Reader_GetEvtReader(otf, r->locations[i].id);
        OTF2_DefReader *dr = OTF2_Reader_GetDefReader(otf, r->locations[i].id);

        if (dr) {
            OTF2_Reader_ReadAllLocalDefinitions(otf, dr, &n);
            OTF2_Reader_CloseDefReader(otf, dr);
        }
    }
    er = OTF2_Reader_GetGlobalEvtReader(otf);
    if (!er || !cb) {
        OTF2_GlobalEvtReaderCallbacks_Delete(cb);
        pz_reader_fail(r, "cannot read the events");
        return -1;
    }
    pz_walk_callbacks(cb);
    OTF2_Reader_RegisterGlobalEvtCallbacks(otf, er, cb, r);
    OTF2_Reader_ReadAllGlobalEvents(otf, er, &n);
    OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseGlobalEvtReader(otf, er);
    return r->failed ? -1 : 0;
}

static void warn(struct pz_analysis *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void warn(struct pz_analysis *a, const char *fmt, ...)
{
    char line[512];
    char **grown = realloc(a->warnings, (size_t)(a->nwarnings + 1) * sizeof(char *));
    va_list ap;

    if (!grown)
        return;
    a->warnings = grown;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if ((a->warnings[a->nwarnings] = strdup(line)))
        a->nwarnings++;
}

/* A process whose events end inside regions was cut short (a crash, a full disk): its
 * open intervals are closed at its last event, so that what was recorded counts, and
 * the report says what is missing. */
static void close_cut_processes(struct reader *r)
{
    for (int p = 0; p < r->a->nprocs; p++) {
        struct process *pr = &r->procs[p];
        const struct region *g;

        if (!pr->depth)
            continue;
        g = &r->regions[pr->stack[pr->depth - 1].region];
        warn(r->a, "process %d: its events end at %.6f s inside %s: its trace was cut, what "
             "it did later is missing", p, pr->last,
             g->name < r->nstrings && r->strings[g->name] ? r->strings[g->name] : "a region");
        while (pr->depth) {
            struct frame *f = &pr->stack[--pr->depth];

            if (f->node >= 0) {
                r->a->nodes[f->node].procs[p].exec += pr->last - f->enter;
                r->a->nodes[f->node].procs[p].count++;
            }
        }
    }
    if (r->a->clock_violations)
        warn(r->a, "%llu receives end before their send began (clock-condition violations): "
             "the clocks of some processes were not synchronized; their waits are not counted",
             (unsigned long long)r->a->clock_violations);
}

/* Score-P records nothing while the measurement is switched off: that time counts as
 * computation, and the messages and collective operations of that time lack records. */
static void warn_switched_off(struct reader *r)
{
    for (int p = 0; p < r->a->nprocs; p++) {
        const struct process *pr = &r->procs[p];

        if (pr->offs)
            warn(r->a, "process %d: the measurement was switched off %u time%s, first at "
                 "%.6f s, for %.6f s in all: what it did then is missing and counts as "
                 "computation, its messages and collective operations of that time cannot "
                 "be matched", p, pr->offs, pr->offs > 1 ? "s" : "", pr->off_first,
                 pr->off_time + (pr->off ? pr->last - pr->off_since : 0));
    }
}

/* A process's whole run: from its first event to its last; an OpenMP worker thread's, the
 * time it spent in thread teams (between them it waits in the OpenMP runtime). */
static double whole_run(const struct process *pr)
{
    if (!pr->teams)
        return pr->last - pr->first;
    return pr->team_time + (pr->nesting ? pr->last - pr->team_since : 0);
}

static int read_trace(struct reader *r, OTF2_Reader *otf)
{
    if (read_definitions(r, otf) != 0)
        return -1;
    if (number_processes(r) != 0) {
        pz_reader_fail(r, "out of memory");
        return -1;
    }
    if (r->a->nprocs == 0) {
        pz_reader_fail(r, "the trace has no locations");
        return -1;
    }
    if (hash_locations(r) != 0) {
        pz_reader_fail(r, "out of memory");
        return -1;
    }
    resolve_comms(r);
    r->procs = calloc((size_t)r->a->nprocs, sizeof(*r->procs));
    if (!r->procs || pz_tree_init(&r->tree, r->a) != 0 || pz_waits_new(r) != 0) {
        pz_reader_fail(r, "out of memory");
        return -1;
    }
    for (int p = 0; p < r->a->nprocs; p++) {
        r->procs[p].first = 1e300;
        r->procs[p].last = -1e300;
        r->procs[p].computing_since = -1e300;
    }
    for (uint32_t i = 0; i < r->nlocations; i++)
        if (r->locations[i].proc >= 0)
            OTF2_Reader_SelectLocation(otf, r->locations[i].id);
    OTF2_Reader_OpenDefFiles(otf);
    OTF2_Reader_OpenEvtFiles(otf);
    read_events(r, otf);
    OTF2_Reader_CloseEvtFiles(otf);
    OTF2_Reader_CloseDefFiles(otf);
    if (r->failed)
        return -1;
    pz_waits_finish(r);
    close_cut_processes(r);
    warn_switched_off(r);
    for (int p = 0; p < r->a->nprocs; p++) {
        if (r->procs[p].last >= r->procs[p].first) {
            r->a->nodes[0].procs[p].count = 1;
            r->a->nodes[0].procs[p].exec = whole_run(&r->procs[p]);
        }
    }
    if (pz_sequential_losses(r->a) != 0)
        pz_reader_fail(r, "out of memory");
    else if (r->mpi_calls == 0)
        pz_reader_fail(r, "the trace has no MPI calls");
    return r->failed ? -1 : 0;
}

static void release(struct reader *r)
{
    for (uint32_t i = 0; i < r->nstrings; i++)
        free(r->strings[i]);
    free(r->strings);
    free(r->regions);
    free(r->locations);
    free(r->sites);
    free(r->site_index);
    free(r->location_slots);
    for (uint32_t i = 0; i < r->ngroups; i++)
        free(r->groups[i].members);
    free(r->groups);
    for (uint32_t i = 0; i < r->ncomms; i++)
        free(r->comms[i].ranks);
    free(r->comms);
    for (int p = 0; r->procs && p < r->a->nprocs; p++)
        free(r->procs[p].stack);
    free(r->procs);
    pz_waits_free(r);
    pz_tree_release(&r->tree);
}

int pz_analyze(const char *path, struct pz_analysis *a, char *err, size_t errlen)
{
    char anchor[4096];
    struct reader r = { .a = a, .path = anchor, .err = err, .errlen = errlen,
                        .callsite_attribute = OTF2_UNDEFINED_ATTRIBUTE };
    OTF2_Reader *otf;
    struct stat st;

    memset(a, 0, sizeof(*a));
    pz_anchor_path(path, anchor, sizeof(anchor));
    if (stat(anchor, &st) != 0) {
        snprintf(err, errlen, "%s: %s", anchor, strerror(errno));
        return -1;
    }
    current = &r;
    OTF2_Error_RegisterCallback(otf2_error, NULL);
    otf = pz_is_anchor(anchor) ? OTF2_Reader_Open(anchor) : NULL;
    if (!otf)
        pz_reader_fail(&r, "not an OTF2 archive (no OTF2 anchor file)");
    else if (OTF2_Reader_SetSerialCollectiveCallbacks(otf) == OTF2_SUCCESS)
        read_trace(&r, otf);
    if (otf)
        OTF2_Reader_Close(otf);
    current = NULL;
    release(&r);
    if (r.failed)
        pz_analysis_free(a);
    return r.failed ? -1 : 0;
}

void pz_analysis_free(struct pz_analysis *a)
{
    for (int i = 0; i < a->nfunctions; i++)
        free(a->functions[i].name);
    free(a->functions);
    for (int i = 0; i < a->ncallsites; i++) {
        free(a->callsites[i].file);
        free(a->callsites[i].function);
    }
    free(a->callsites);
    for (int i = 0; i < a->nwarnings; i++)
        free(a->warnings[i]);
    free(a->warnings);
    for (int i = 0; i < a->nnodes; i++) {
        free(a->nodes[i].file);
        free(a->nodes[i].procs);
    }
    free(a->nodes);
    free(a->rank_of);
    free(a->thread_of);
    memset(a, 0, sizeof(*a));
}
