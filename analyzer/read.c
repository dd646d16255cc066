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
#include "tree.h"

enum region_kind { REGION_OTHER, REGION_MPI, REGION_INTERVAL };
enum mpi_class { CLASS_MPI, CLASS_SENDRECV, CLASS_COLLECTIVE, CLASS_ALLTOALL };

struct region {
    OTF2_StringRef name, file;
    uint32_t line;
    uint8_t kind, mpi_class, starts;   /* starts: begins a nonblocking operation */
};

struct frame {
    uint32_t region;
    int node;              /* interval node, or -1 */
    double enter;
};

struct location {
    OTF2_LocationRef id;
    OTF2_LocationGroupRef group;
};

struct reader {
    struct pz_analysis *a;
    struct pz_tree tree;
    const char *path;
    char *err;
    size_t errlen;
    char **strings;
    uint32_t nstrings;
    struct region *regions;
    uint32_t nregions;
    struct location *locations;
    uint32_t nlocations;
    uint64_t resolution, offset;
    /* the location being read */
    int proc;
    struct frame *stack;
    uint32_t depth, cap;
    double first, last;
    uint64_t mpi_calls;
    int failed;
};

static struct reader *current;   /* for OTF2's error callback */

static void fail(struct reader *r, const char *fmt, ...)
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
        fail(current, "%s%s%s", OTF2_Error_GetDescription(code), msg[0] ? ": " : "", msg);
    return code;
}

/* Grows *v (elements of size) so that index i is valid; new elements are zero. */
static int reserve(void **v, uint32_t *n, uint32_t i, size_t size)
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

    if (reserve((void **)&r->strings, &r->nstrings, self, sizeof(char *)) != 0)
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

    (void)canonical, (void)description, (void)role, (void)end;
    if (reserve((void **)&r->regions, &r->nregions, self, sizeof(struct region)) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    g = &r->regions[self];
    g->name = name;
    g->file = file;
    g->line = begin;
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

    (void)name, (void)type, (void)events;
    if (!grown)
        return OTF2_CALLBACK_INTERRUPT;
    r->locations = grown;
    r->locations[n] = (struct location){ self, group };
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

static double seconds(const struct reader *r, OTF2_TimeStamp t)
{
    return ((double)t - (double)r->offset) / (double)r->resolution;
}

static void saw(struct reader *r, double t)
{
    if (t < r->first)
        r->first = t;
    if (t > r->last)
        r->last = t;
}

/* "interval ID at FILE:LINE" gives the id; other PHASE regions have none. */
static unsigned interval_id(const char *name)
{
    unsigned id = 0;

    return name && sscanf(name, "interval %u at", &id) == 1 ? id : 0;
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                  void *ud, OTF2_AttributeList *attributes,
                                  OTF2_RegionRef region)
{
    struct reader *r = ud;
    double t = seconds(r, time);
    struct frame f = { region, -1, t };

    (void)pos, (void)attributes;
    saw(r, t);
    if (region >= r->nregions) {
        fail(r, "location %llu: event refers to undefined region %u", (unsigned long long)loc,
             region);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (r->regions[region].kind == REGION_INTERVAL) {
        const struct region *g = &r->regions[region];
        int parent = 0;

        for (uint32_t i = r->depth; i-- > 0;)
            if (r->stack[i].node >= 0) {
                parent = r->stack[i].node;
                break;
            }
        f.node = pz_tree_child(&r->tree, parent, region,
                               g->file < r->nstrings ? r->strings[g->file] : "", g->line,
                               interval_id(g->name < r->nstrings ? r->strings[g->name] : NULL));
        if (f.node < 0) {
            fail(r, "out of memory");
            return OTF2_CALLBACK_INTERRUPT;
        }
    }
    if (reserve((void **)&r->stack, &r->cap, r->depth, sizeof(*r->stack)) != 0) {
        fail(r, "out of memory");
        return OTF2_CALLBACK_INTERRUPT;
    }
    r->stack[r->depth++] = f;
    return OTF2_CALLBACK_SUCCESS;
}

/* An MPI call's time counts in every interval it lies in, the whole run included. */
static void account_call(struct reader *r, const struct region *g, double d)
{
    struct pz_node *nodes = r->a->nodes;

    for (uint32_t i = 0; i <= r->depth; i++) {
        int node = i == r->depth ? 0 : r->stack[i].node;
        struct pz_stats *s;

        if (node < 0)
            continue;
        s = &nodes[node].procs[r->proc];
        s->mpi += d;
        s->sendrecv += g->mpi_class == CLASS_SENDRECV ? d : 0;
        s->collective += g->mpi_class == CLASS_COLLECTIVE ? d : 0;
        s->alltoall += g->mpi_class == CLASS_ALLTOALL ? d : 0;
        s->start += g->starts ? d : 0;
    }
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                  void *ud, OTF2_AttributeList *attributes,
                                  OTF2_RegionRef region)
{
    struct reader *r = ud;
    double t = seconds(r, time);
    struct frame f;

    (void)pos, (void)attributes;
    saw(r, t);
    if (r->depth == 0 || r->stack[r->depth - 1].region != region) {
        fail(r, "location %llu: a Leave at %.9f s does not match the region entered last",
             (unsigned long long)loc, t);
        return OTF2_CALLBACK_INTERRUPT;
    }
    f = r->stack[--r->depth];
    if (f.node >= 0) {
        struct pz_stats *s = &r->a->nodes[f.node].procs[r->proc];

        s->exec += t - f.enter;
        s->count++;
    } else if (r->regions[region].kind == REGION_MPI) {
        account_call(r, &r->regions[region], t - f.enter);
        r->mpi_calls++;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static int read_definitions(struct reader *r, OTF2_Reader *otf)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(otf);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    uint64_t n;

    if (!gdr || !cb) {
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
        fail(r, "cannot read the global definitions");
        return -1;
    }
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    OTF2_Reader_RegisterGlobalDefCallbacks(otf, gdr, cb, r);
    OTF2_Reader_ReadAllGlobalDefinitions(otf, gdr, &n);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    for (uint32_t i = 0; i < r->nregions; i++)
        classify(r, &r->regions[i]);
    if (!r->failed && !r->resolution)
        fail(r, "the trace has no clock properties");
    return r->failed ? -1 : 0;
}

static int by_group_then_id(const void *x, const void *y)
{
    const struct location *a = x, *b = y;

    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

/* Processes are the location groups, in the order of their ids; the first location of
 * each is its main thread.  Keeps only those in r->locations, in process order. */
static void choose_locations(struct reader *r)
{
    uint32_t kept = 0;

    qsort(r->locations, r->nlocations, sizeof(*r->locations), by_group_then_id);
    for (uint32_t i = 0; i < r->nlocations; i++) {
        if (kept && r->locations[kept - 1].group == r->locations[i].group) {
            r->a->skipped_threads++;
            continue;
        }
        r->locations[kept++] = r->locations[i];
    }
    r->nlocations = kept;
    r->a->nprocs = (int)kept;
}

static int read_process(struct reader *r, OTF2_Reader *otf, int proc)
{
    OTF2_LocationRef loc = r->locations[proc].id;
    OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(otf, loc);
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    OTF2_DefReader *dr = OTF2_Reader_GetDefReader(otf, loc);
    struct pz_stats *run = &r->a->nodes[0].procs[proc];
    uint64_t n;

    if (dr) {   /* mapping tables and clock offsets: the reader applies them */
        OTF2_Reader_ReadAllLocalDefinitions(otf, dr, &n);
        OTF2_Reader_CloseDefReader(otf, dr);
    }
    r->proc = proc;
    r->depth = 0;
    r->first = 1e300;
    r->last = -1e300;
    if (!er || !cb) {
        OTF2_EvtReaderCallbacks_Delete(cb);
        fail(r, "cannot read the events of location %llu", (unsigned long long)loc);
        return -1;
    }
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
    OTF2_Reader_RegisterEvtCallbacks(otf, er, cb, r);
    OTF2_Reader_ReadAllLocalEvents(otf, er, &n);
    OTF2_EvtReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseEvtReader(otf, er);
    if (r->last >= r->first) {
        run->count = 1;
        run->exec = r->last - r->first;
    }
    return r->failed ? -1 : 0;
}

/* DIR or DIR/traces.otf2: the anchor file. */
static void anchor_path(const char *path, char *out, size_t len)
{
    struct stat st;

    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(out, len, "%s/traces.otf2", path);
    else
        snprintf(out, len, "%s", path);
}

static int read_trace(struct reader *r, OTF2_Reader *otf)
{
    if (read_definitions(r, otf) != 0)
        return -1;
    choose_locations(r);
    if (r->a->nprocs == 0) {
        fail(r, "the trace has no locations");
        return -1;
    }
    if (pz_tree_init(&r->tree, r->a) != 0) {
        fail(r, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < r->nlocations; i++)
        OTF2_Reader_SelectLocation(otf, r->locations[i].id);
    OTF2_Reader_OpenDefFiles(otf);
    OTF2_Reader_OpenEvtFiles(otf);
    for (int p = 0; p < r->a->nprocs && !r->failed; p++)
        read_process(r, otf, p);
    OTF2_Reader_CloseEvtFiles(otf);
    OTF2_Reader_CloseDefFiles(otf);
    if (!r->failed && r->mpi_calls == 0)
        fail(r, "the trace has no MPI calls");
    return r->failed ? -1 : 0;
}

static void release(struct reader *r)
{
    for (uint32_t i = 0; i < r->nstrings; i++)
        free(r->strings[i]);
    free(r->strings);
    free(r->regions);
    free(r->locations);
    free(r->stack);
    pz_tree_release(&r->tree);
}

int pz_analyze(const char *path, struct pz_analysis *a, char *err, size_t errlen)
{
    char anchor[4096];
    struct reader r = { .a = a, .path = anchor, .err = err, .errlen = errlen };
    OTF2_Reader *otf;
    struct stat st;

    memset(a, 0, sizeof(*a));
    anchor_path(path, anchor, sizeof(anchor));
    if (stat(anchor, &st) != 0) {
        snprintf(err, errlen, "%s: %s", anchor, strerror(errno));
        return -1;
    }
    current = &r;
    OTF2_Error_RegisterCallback(otf2_error, NULL);
    otf = OTF2_Reader_Open(anchor);
    if (!otf)
        fail(&r, "not an OTF2 archive");
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
    for (int i = 0; i < a->nnodes; i++) {
        free(a->nodes[i].file);
        free(a->nodes[i].procs);
    }
    free(a->nodes);
    memset(a, 0, sizeof(*a));
}
