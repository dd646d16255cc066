/* Hand-built OTF2 traces for the analyzer's tests (trace_builder.h). */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <otf2/otf2.h>

#include "trace_builder.h"

struct tb_region {
    char *name, *file, *description;
    uint32_t line;
    OTF2_Paradigm paradigm;
    OTF2_RegionRole role;
    OTF2_RegionFlag flags;
};

/* A communicator; self: MPI_COMM_SELF. */
struct tb_comm {
    char *name;
    int self;
    uint32_t n;
    uint64_t *ranks;       /* world ranks */
    uint32_t local;        /* an intercommunicator: ranks[0..local-1] are one group, the
                              rest the other; 0 for an intracommunicator */
};

/* A definition of tb_cart (topology: comm, ndims values in dims) or of
 * tb_cart_coordinate (a coordinate: topology, rank, ndims values in dims). */
struct tb_cart {
    int topology;
    uint32_t ref, rank;
    int ndims, coordinates;
    uint32_t *dims;
    uint8_t *periodic;
};

struct tb {
    OTF2_Archive *archive;
    int nprocs;            /* MPI processes: locations 0 to nprocs - 1 are their first
                              threads, tb_thread adds more */
    int nlocs;
    int *group;            /* of each location: its process */
    uint64_t *ids;         /* location of each process */
    OTF2_EvtWriter **writers;
    uint64_t *events;
    uint64_t offset, last;
    struct tb_region *regions;
    uint32_t nregions;
    struct tb_comm *comms; /* TB_WORLD, TB_SELF, then those of tb_comm */
    uint32_t ncomms;
    struct tb_site { char *file; uint32_t line; } *sites;   /* of tb_site */
    uint32_t nsites;
    struct tb_cart *carts; /* in the order of tb_cart and tb_cart_coordinate */
    uint32_t ncarts, ntopologies;
    int cpu;               /* prognoz:cpu_time used (tb_enter_cpu, tb_leave_cpu) */
    int lists;             /* prognoz:send_bytes and recv_bytes defined (tb_define_lists) */
    int any_source;        /* prognoz:any_source used (tb_mpi_recv_any) */
    char **texts;          /* of event_string: string i */
    uint32_t ntexts;
    int window;            /* window 0 defined (tb_rma_window) */
    uint32_t window_comms[TB_MAX_WINDOWS];   /* of tb_rma_window_on's windows */
    uint32_t nwindows;
    uint32_t using;        /* the window of the one-sided records (tb_rma_use) */
    int failed;
};

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                                void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { pre_flush, NULL };

struct tb *tb_open(const char *dir, int nprocs)
{
    return tb_open_locations(dir, nprocs, NULL);
}

struct tb *tb_open_locations(const char *dir, int nprocs, const uint64_t *ids)
{
    struct tb *b = calloc(1, sizeof(*b));
    int ok;

    if (!b)
        return NULL;
    b->nprocs = b->nlocs = nprocs;
    b->ids = calloc((size_t)nprocs, sizeof(*b->ids));
    b->group = calloc((size_t)nprocs, sizeof(*b->group));
    for (int p = 0; b->ids && b->group && p < nprocs; p++) {
        b->ids[p] = ids ? ids[p] : (uint64_t)p;
        b->group[p] = p;
    }
    b->writers = calloc((size_t)nprocs, sizeof(*b->writers));
    b->events = calloc((size_t)nprocs, sizeof(*b->events));
    b->archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                   4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                                   OTF2_COMPRESSION_NONE);
    ok = b->ids && b->group && b->writers && b->events && b->archive &&
         OTF2_Archive_SetFlushCallbacks(b->archive, &flush_callbacks, NULL) == OTF2_SUCCESS &&
         OTF2_Archive_SetSerialCollectiveCallbacks(b->archive) == OTF2_SUCCESS &&
         OTF2_Archive_OpenEvtFiles(b->archive) == OTF2_SUCCESS;
    for (int p = 0; ok && p < nprocs; p++)
        ok = (b->writers[p] = OTF2_Archive_GetEvtWriter(b->archive, b->ids[p])) != NULL;
    if (!ok) {
        if (b->archive)
            OTF2_Archive_Close(b->archive);
        free(b->ids);
        free(b->group);
        free(b->writers);
        free(b->events);
        free(b);
        return NULL;
    }
    return b;
}

/* Grows *v, of n elements of size, to n + 1; zero-fills the new one. */
static int grow(void *v, int n, size_t size)
{
    char *grown = realloc(*(void **)v, (size_t)(n + 1) * size);

    if (!grown)
        return -1;
    memset(grown + (size_t)n * size, 0, size);
    *(void **)v = grown;
    return 0;
}

int tb_thread(struct tb *b, int proc)
{
    int loc = b->nlocs;
    uint64_t id = 0;

    for (int i = 0; i < b->nlocs; i++)
        id = b->ids[i] >= id ? b->ids[i] + 1 : id;
    if (proc < 0 || proc >= b->nprocs || grow(&b->ids, loc, sizeof(*b->ids)) != 0 ||
        grow(&b->group, loc, sizeof(*b->group)) != 0 ||
        grow(&b->writers, loc, sizeof(*b->writers)) != 0 ||
        grow(&b->events, loc, sizeof(*b->events)) != 0 ||
        !(b->writers[loc] = OTF2_Archive_GetEvtWriter(b->archive, id))) {
        b->failed = 1;
        return 0;
    }
    b->ids[loc] = id;
    b->group[loc] = proc;
    return b->nlocs++;
}

void tb_set_offset(struct tb *b, uint64_t offset)
{
    b->offset = offset;
}

static uint32_t region(struct tb *b, const char *name, const char *file, uint32_t line,
                       OTF2_Paradigm paradigm, OTF2_RegionRole role, OTF2_RegionFlag flags)
{
    struct tb_region *grown;

    for (uint32_t i = 0; i < b->nregions; i++)
        if (!strcmp(b->regions[i].name, name))
            return i;
    grown = realloc(b->regions, (b->nregions + 1) * sizeof(*grown));
    if (!grown) {
        b->failed = 1;
        return 0;
    }
    b->regions = grown;
    grown[b->nregions] = (struct tb_region){ strdup(name), strdup(file), strdup(""), line,
                                             paradigm, role, flags };
    return b->nregions++;
}

uint32_t tb_mpi(struct tb *b, const char *name)
{
    return region(b, name, "MPI", 0, OTF2_PARADIGM_MPI, OTF2_REGION_ROLE_FUNCTION,
                  OTF2_REGION_FLAG_NONE);
}

uint32_t tb_interval(struct tb *b, unsigned id, const char *file, unsigned line)
{
    const char *base = strrchr(file, '/');
    char name[512];

    snprintf(name, sizeof(name), "interval %u at %s:%u", id, base ? base + 1 : file, line);
    return region(b, name, file, line, OTF2_PARADIGM_USER, OTF2_REGION_ROLE_CODE,
                  OTF2_REGION_FLAG_PHASE);
}

uint32_t tb_sequential_interval(struct tb *b, unsigned id, const char *file, unsigned line)
{
    const char *base = strrchr(file, '/');
    char name[512];
    uint32_t r;

    snprintf(name, sizeof(name), "sequential interval %u at %s:%u", id, base ? base + 1 : file,
             line);
    r = region(b, name, file, line, OTF2_PARADIGM_USER, OTF2_REGION_ROLE_CODE,
               OTF2_REGION_FLAG_PHASE);
    if (!b->failed) {
        free(b->regions[r].description);
        b->regions[r].description = strdup("prognoz:sequential");
    }
    return r;
}

uint32_t tb_user(struct tb *b, const char *name)
{
    return region(b, name, "", 0, OTF2_PARADIGM_USER, OTF2_REGION_ROLE_FUNCTION,
                  OTF2_REGION_FLAG_NONE);
}

/* The writer of process proc, NULL (and the builder failed) if there is none. */
static OTF2_EvtWriter *writer(struct tb *b, int proc)
{
    if (proc < 0 || proc >= b->nlocs) {
        b->failed = 1;
        return NULL;
    }
    return b->writers[proc];
}

/* Counts an event of proc written at ns with result rc. */
static void written(struct tb *b, int proc, uint64_t ns, OTF2_ErrorCode rc)
{
    if (rc != OTF2_SUCCESS)
        b->failed = 1;
    b->events[proc]++;
    if (ns > b->last)
        b->last = ns;
}

static void event(struct tb *b, int proc, uint64_t ns, uint32_t region, int enter)
{
    OTF2_EvtWriter *w = writer(b, proc);

    if (w)
        written(b, proc, ns, enter ? OTF2_EvtWriter_Enter(w, NULL, ns, region)
                                   : OTF2_EvtWriter_Leave(w, NULL, ns, region));
}

void tb_enter(struct tb *b, int proc, uint64_t ns, uint32_t region)
{
    event(b, proc, ns, region, 1);
}

void tb_leave(struct tb *b, int proc, uint64_t ns, uint32_t region)
{
    event(b, proc, ns, region, 0);
}

void tb_call(struct tb *b, int proc, const char *name, uint64_t enter, uint64_t leave)
{
    uint32_t r = tb_mpi(b, name);

    tb_enter(b, proc, enter, r);
    tb_leave(b, proc, leave, r);
}

uint32_t tb_site(struct tb *b, const char *file, unsigned line)
{
    struct tb_site *grown;

    for (uint32_t i = 0; i < b->nsites; i++)
        if (!strcmp(b->sites[i].file, file) && b->sites[i].line == line)
            return i;
    grown = realloc(b->sites, (b->nsites + 1) * sizeof(*grown));
    if (!grown) {
        b->failed = 1;
        return 0;
    }
    b->sites = grown;
    grown[b->nsites] = (struct tb_site){ strdup(file), line };
    if (!grown[b->nsites].file)
        b->failed = 1;
    return b->nsites++;
}

/* The only attribute of a trace with call sites. */
#define TB_ATTR_CALLSITE 0

void tb_enter_site(struct tb *b, int proc, uint64_t ns, uint32_t region, uint32_t site)
{
    OTF2_EvtWriter *w = writer(b, proc);
    OTF2_AttributeList *list = OTF2_AttributeList_New();

    if (!list || site >= b->nsites ||
        OTF2_AttributeList_AddSourceCodeLocationRef(list, TB_ATTR_CALLSITE, site) !=
            OTF2_SUCCESS)
        b->failed = 1;
    else if (w)
        written(b, proc, ns, OTF2_EvtWriter_Enter(w, list, ns, region));
    if (list)
        OTF2_AttributeList_Delete(list);
}

void tb_flush(struct tb *b, int proc, uint64_t ns, uint64_t stop)
{
    OTF2_EvtWriter *w = writer(b, proc);

    if (w)
        written(b, proc, stop, OTF2_EvtWriter_BufferFlush(w, NULL, ns, stop));
}

/* The attribute prognoz:cpu_time, defined when a trace uses it. */
#define TB_ATTR_CPU 1

static void event_cpu(struct tb *b, int proc, uint64_t ns, uint32_t region, int enter,
                      uint64_t cpu_ns)
{
    OTF2_EvtWriter *w = writer(b, proc);
    OTF2_AttributeList *list = OTF2_AttributeList_New();

    b->cpu = 1;
    if (!list || OTF2_AttributeList_AddUint64(list, TB_ATTR_CPU, cpu_ns) != OTF2_SUCCESS)
        b->failed = 1;
    else if (w)
        written(b, proc, ns, enter ? OTF2_EvtWriter_Enter(w, list, ns, region)
                                   : OTF2_EvtWriter_Leave(w, list, ns, region));
    if (list)
        OTF2_AttributeList_Delete(list);
}

/* The attributes of the per-peer lists, as the recorder always defines them. */
#define TB_ATTR_SEND_BYTES 2
#define TB_ATTR_RECV_BYTES 3

/* The mark of receives from MPI_ANY_SOURCE, defined when a trace uses it. */
#define TB_ATTR_ANY_SOURCE 4

void tb_define_lists(struct tb *b)
{
    b->lists = 1;
}

/* A string of an event, text: the strings of events are the first definitions, from 0
 * (the reader wants them numbered densely), the definitions' own follow. */
static uint32_t event_string(struct tb *b, const char *text)
{
    char **texts = realloc(b->texts, (b->ntexts + 1) * sizeof(*texts));

    if (!texts || !(texts[b->ntexts] = strdup(text))) {
        b->failed = 1;
        if (texts)
            b->texts = texts;
        return 0;
    }
    b->texts = texts;
    return b->ntexts++;
}

void tb_enter_cpu(struct tb *b, int proc, uint64_t ns, uint32_t region, uint64_t cpu_ns)
{
    event_cpu(b, proc, ns, region, 1, cpu_ns);
}

void tb_leave_cpu(struct tb *b, int proc, uint64_t ns, uint32_t region, uint64_t cpu_ns)
{
    event_cpu(b, proc, ns, region, 0, cpu_ns);
}

static uint32_t add_comm(struct tb *b, const char *name, int self, int n, const int *ranks)
{
    struct tb_comm *grown = realloc(b->comms, (b->ncomms + 1) * sizeof(*grown));
    struct tb_comm *c;

    if (!grown) {
        b->failed = 1;
        return 0;
    }
    b->comms = grown;
    c = &grown[b->ncomms];
    *c = (struct tb_comm){ strdup(name), self, (uint32_t)(n > 0 ? n : 0), NULL, 0 };
    c->ranks = calloc(n > 0 ? (size_t)n : 1, sizeof(uint64_t));
    if (!c->name || !c->ranks)
        b->failed = 1;
    for (int i = 0; c->ranks && i < n; i++)
        c->ranks[i] = ranks ? (uint64_t)ranks[i] : (uint64_t)i;
    return b->ncomms++;
}

/* MPI_COMM_WORLD and MPI_COMM_SELF, once. */
static void world_and_self(struct tb *b)
{
    if (b->ncomms)
        return;
    add_comm(b, "MPI_COMM_WORLD", 0, b->nprocs, NULL);
    add_comm(b, "MPI_COMM_SELF", 1, 0, NULL);
}

uint32_t tb_intercomm(struct tb *b, const char *name, int na, const int *a, int nb,
                      const int *bb)
{
    int ranks[64];
    uint32_t c;

    if (na < 1 || nb < 1 || na + nb > 64) {
        b->failed = 1;
        return 0;
    }
    memcpy(ranks, a, (size_t)na * sizeof(int));
    memcpy(ranks + na, bb, (size_t)nb * sizeof(int));
    c = tb_comm(b, name, na + nb, ranks);
    b->comms[c].local = (uint32_t)na;
    return c;
}

uint32_t tb_comm(struct tb *b, const char *name, int n, const int *world_ranks)
{
    for (int i = 0; i < n; i++)
        if (world_ranks[i] < 0 || world_ranks[i] >= b->nprocs)
            b->failed = 1;
    world_and_self(b);
    return add_comm(b, name, 0, n, world_ranks);
}

static struct tb_cart *add_cart(struct tb *b, int topology, uint32_t ref, int ndims,
                                const uint32_t *values)
{
    struct tb_cart *grown = realloc(b->carts, (b->ncarts + 1) * sizeof(*grown)), *c;
    size_t n = ndims > 0 ? (size_t)ndims : 1;

    if (grown)
        b->carts = grown;
    if (!grown || ndims > 255) {    /* OTF2 counts dimensions in a byte */
        b->failed = 1;
        return NULL;
    }
    c = &grown[b->ncarts++];
    *c = (struct tb_cart){ topology, ref, 0, ndims, 0, calloc(n, sizeof(uint32_t)),
                           calloc(n, 1) };
    if (!c->dims || !c->periodic)
        b->failed = 1;
    else if (ndims > 0)
        memcpy(c->dims, values, n * sizeof(uint32_t));
    return c;
}

uint32_t tb_cart(struct tb *b, uint32_t comm, int ndims, const uint32_t *dims,
                 const int *periodic, int coordinates)
{
    struct tb_cart *c = add_cart(b, 1, comm, ndims, dims);

    world_and_self(b);
    if (c) {
        c->coordinates = coordinates;
        for (int d = 0; periodic && !b->failed && d < ndims; d++)
            c->periodic[d] = periodic[d] != 0;
    }
    return b->ntopologies++;
}

void tb_cart_coordinate(struct tb *b, uint32_t topology, uint32_t rank, int n,
                        const uint32_t *coords)
{
    struct tb_cart *c = add_cart(b, 0, topology, n, coords);

    if (c)
        c->rank = rank;
}

void tb_mpi_send(struct tb *b, int proc, uint64_t ns, uint32_t comm, uint32_t dest,
                 uint32_t tag, uint64_t bytes)
{
    OTF2_EvtWriter *w = writer(b, proc);

    world_and_self(b);
    if (w)
        written(b, proc, ns, OTF2_EvtWriter_MpiSend(w, NULL, ns, dest, comm, tag, bytes));
}

void tb_mpi_isend(struct tb *b, int proc, uint64_t ns, uint32_t comm, uint32_t dest,
                  uint32_t tag, uint64_t bytes, uint64_t request)
{
    OTF2_EvtWriter *w = writer(b, proc);

    world_and_self(b);
    if (w)
        written(b, proc, ns,
                OTF2_EvtWriter_MpiIsend(w, NULL, ns, dest, comm, tag, bytes, request));
}

void tb_mpi_isend_complete(struct tb *b, int proc, uint64_t ns, uint64_t request)
{
    OTF2_EvtWriter *w = writer(b, proc);

    world_and_self(b);
    if (w)
        written(b, proc, ns, OTF2_EvtWriter_MpiIsendComplete(w, NULL, ns, request));
}

void tb_mpi_irecv_request(struct tb *b, int proc, uint64_t ns, uint64_t request)
{
    OTF2_EvtWriter *w = writer(b, proc);

    world_and_self(b);
    if (w)
        written(b, proc, ns, OTF2_EvtWriter_MpiIrecvRequest(w, NULL, ns, request));
}

void tb_mpi_recv(struct tb *b, int proc, uint64_t ns, uint32_t comm, uint32_t source,
                 uint32_t tag, uint64_t bytes)
{
    OTF2_EvtWriter *w = writer(b, proc);

    world_and_self(b);
    if (w)
        written(b, proc, ns, OTF2_EvtWriter_MpiRecv(w, NULL, ns, source, comm, tag, bytes));
}

void tb_mpi_recv_any(struct tb *b, int proc, uint64_t ns, uint32_t comm, uint32_t source,
                     uint32_t tag, uint64_t bytes)
{
    OTF2_EvtWriter *w = writer(b, proc);
    OTF2_AttributeList *list = OTF2_AttributeList_New();

    world_and_self(b);
    b->any_source = 1;
    if (!list || OTF2_AttributeList_AddUint8(list, TB_ATTR_ANY_SOURCE, 1) != OTF2_SUCCESS)
        b->failed = 1;
    else if (w)
        written(b, proc, ns, OTF2_EvtWriter_MpiRecv(w, list, ns, source, comm, tag, bytes));
    if (list)
        OTF2_AttributeList_Delete(list);
}

void tb_mpi_irecv(struct tb *b, int proc, uint64_t ns, uint32_t comm, uint32_t source,
                  uint32_t tag, uint64_t bytes, uint64_t request)
{
    OTF2_EvtWriter *w = writer(b, proc);

    world_and_self(b);
    if (w)
        written(b, proc, ns,
                OTF2_EvtWriter_MpiIrecv(w, NULL, ns, source, comm, tag, bytes, request));
}

static void io_begin(struct tb *b, int proc, uint64_t ns, OTF2_IoOperationMode mode,
                     OTF2_IoOperationFlag flags, uint64_t bytes, uint64_t matching)
{
    OTF2_EvtWriter *w = writer(b, proc);

    if (w)
        written(b, proc, ns, OTF2_EvtWriter_IoOperationBegin(w, NULL, ns, 0, mode, flags,
                                                             bytes, matching));
}

void tb_io_begin(struct tb *b, int proc, uint64_t ns, OTF2_IoOperationMode mode,
                 uint64_t bytes, uint64_t matching)
{
    io_begin(b, proc, ns, mode, OTF2_IO_OPERATION_FLAG_NONE, bytes, matching);
}

void tb_io_begin_nonblocking(struct tb *b, int proc, uint64_t ns, OTF2_IoOperationMode mode,
                             uint64_t bytes, uint64_t matching)
{
    io_begin(b, proc, ns, mode, OTF2_IO_OPERATION_FLAG_NON_BLOCKING, bytes, matching);
}

void tb_io_complete(struct tb *b, int proc, uint64_t ns, uint64_t bytes, uint64_t matching)
{
    OTF2_EvtWriter *w = writer(b, proc);

    if (w)
        written(b, proc, ns, OTF2_EvtWriter_IoOperationComplete(w, NULL, ns, 0, bytes,
                                                                matching));
}

void tb_rma_put(struct tb *b, int proc, uint64_t ns, uint32_t target, uint64_t bytes)
{
    OTF2_EvtWriter *w = writer(b, proc);

    if (w)
        written(b, proc, ns, OTF2_EvtWriter_RmaPut(w, NULL, ns, b->using, target, bytes, 0));
}

void tb_rma_put_request(struct tb *b, int proc, uint64_t ns, uint32_t target, uint64_t bytes,
                        uint64_t matching)
{
    OTF2_EvtWriter *w = writer(b, proc);

    if (w)
        written(b, proc, ns, OTF2_EvtWriter_RmaPut(w, NULL, ns, b->using, target, bytes, matching));
}

void tb_rma_op_complete(struct tb *b, int proc, uint64_t ns, uint64_t matching)
{
    OTF2_EvtWriter *w = writer(b, proc);

    if (w)
        written(b, proc, ns, OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, NULL, ns, b->using,
                                                                     matching));
}

void tb_rma_get(struct tb *b, int proc, uint64_t ns, uint32_t target, uint64_t bytes)
{
    OTF2_EvtWriter *w = writer(b, proc);

    if (w)
        written(b, proc, ns, OTF2_EvtWriter_RmaGet(w, NULL, ns, b->using, target, bytes, 0));
}

void tb_rma_atomic(struct tb *b, int proc, uint64_t ns, uint32_t target, uint64_t sent,
                   uint64_t received)
{
    OTF2_EvtWriter *w = writer(b, proc);

    if (w)
        written(b, proc, ns, OTF2_EvtWriter_RmaAtomic(w, NULL, ns, b->using, target,
                                                      OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE,
                                                      sent, received, 0));
}

void tb_rma_window(struct tb *b)
{
    world_and_self(b);
    b->window = 1;
}

uint32_t tb_rma_window_on(struct tb *b, uint32_t comm)
{
    tb_rma_window(b);
    if (b->nwindows == TB_MAX_WINDOWS) {
        b->failed = 1;
        return 0;
    }
    b->window_comms[b->nwindows] = comm;
    return b->nwindows++;
}

void tb_rma_use(struct tb *b, uint32_t window)
{
    b->using = window;
}

void tb_fence_call(struct tb *b, int proc, uint64_t enter, uint64_t leave)
{
    uint32_t r = tb_mpi(b, "MPI_Win_fence");
    OTF2_EvtWriter *w = writer(b, proc);

    tb_enter(b, proc, enter, r);
    if (w) {
        written(b, proc, enter, OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, enter));
        written(b, proc, leave,
                OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, leave, OTF2_COLLECTIVE_OP_BARRIER,
                                                OTF2_RMA_SYNC_LEVEL_PROCESS |
                                                    OTF2_RMA_SYNC_LEVEL_MEMORY,
                                                b->using, OTF2_UNDEFINED_UINT32, 0, 0));
    }
    tb_leave(b, proc, leave, r);
}

/* A collective of window 0 from enter to leave: its begin, then `between` (RmaWinCreate
 * at leave, RmaWinDestroy at enter, none), then its end (op) at leave. */
static void window_collective(struct tb *b, int proc, const char *name, uint64_t enter,
                              uint64_t leave, OTF2_CollectiveOp op)
{
    uint32_t r = tb_mpi(b, name);
    OTF2_EvtWriter *w = writer(b, proc);

    tb_enter(b, proc, enter, r);
    if (w) {
        written(b, proc, enter, OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, enter));
        if (op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE)
            written(b, proc, enter, OTF2_EvtWriter_RmaWinDestroy(w, NULL, enter, b->using));
        else
            written(b, proc, leave, OTF2_EvtWriter_RmaWinCreate(w, NULL, leave, b->using));
        written(b, proc, leave,
                OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, leave, op, OTF2_RMA_SYNC_LEVEL_PROCESS,
                                                b->using, OTF2_UNDEFINED_UINT32, 0, 0));
    }
    tb_leave(b, proc, leave, r);
}

void tb_win_create_call(struct tb *b, int proc, uint64_t enter, uint64_t leave)
{
    window_collective(b, proc, "MPI_Win_create", enter, leave, OTF2_COLLECTIVE_OP_CREATE_HANDLE);
}

void tb_win_free_call(struct tb *b, int proc, uint64_t enter, uint64_t leave)
{
    window_collective(b, proc, "MPI_Win_free", enter, leave, OTF2_COLLECTIVE_OP_DESTROY_HANDLE);
}

void tb_rma_flush(struct tb *b, int proc, uint64_t ns, uint32_t target)
{
    OTF2_EvtWriter *w = writer(b, proc);

    if (w)
        written(b, proc, ns, OTF2_EvtWriter_RmaSync(w, NULL, ns, b->using, target,
                                                    OTF2_RMA_SYNC_TYPE_MEMORY));
}

void tb_rma_lock(struct tb *b, int proc, uint64_t ns, uint32_t target)
{
    tb_rma_lock_type(b, proc, ns, target, OTF2_LOCK_EXCLUSIVE);
}

void tb_rma_lock_type(struct tb *b, int proc, uint64_t ns, uint32_t target, OTF2_LockType type)
{
    OTF2_EvtWriter *w = writer(b, proc);

    if (w)
        written(b, proc, ns, OTF2_EvtWriter_RmaRequestLock(w, NULL, ns, b->using, target, target,
                                                           type));
}

void tb_rma_unlock(struct tb *b, int proc, uint64_t ns, uint32_t target)
{
    OTF2_EvtWriter *w = writer(b, proc);

    if (w)
        written(b, proc, ns, OTF2_EvtWriter_RmaReleaseLock(w, NULL, ns, b->using, target, target));
}

uint32_t tb_group(struct tb *b, int n, const int *world_ranks)
{
    uint32_t group = 2, comm = tb_comm(b, "group", n, world_ranks);

    /* the groups are written in the order of their communicators (write_comms) */
    for (uint32_t i = 0; i < comm; i++)
        group += b->comms[i].self ? 0 : b->comms[i].local ? 2 : 1;
    return group;
}

void tb_epoch_call(struct tb *b, int proc, const char *name, uint64_t enter, uint64_t leave,
                   OTF2_RmaSyncLevel level, uint32_t group)
{
    uint32_t r = tb_mpi(b, name);
    OTF2_EvtWriter *w = writer(b, proc);

    tb_enter(b, proc, enter, r);
    if (w)
        written(b, proc, leave, OTF2_EvtWriter_RmaGroupSync(w, NULL, leave, level, b->using, group));
    tb_leave(b, proc, leave, r);
}

void tb_request_test(struct tb *b, int proc, uint64_t ns, uint64_t request)
{
    OTF2_EvtWriter *w = writer(b, proc);

    world_and_self(b);
    if (w)
        written(b, proc, ns, OTF2_EvtWriter_MpiRequestTest(w, NULL, ns, request));
}

void tb_nbc_request(struct tb *b, int proc, uint64_t ns, uint64_t request)
{
    OTF2_EvtWriter *w = writer(b, proc);

    world_and_self(b);
    if (w)
        written(b, proc, ns, OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, ns, request));
}

void tb_nbc_complete(struct tb *b, int proc, uint64_t ns, OTF2_CollectiveOp op,
                     uint32_t comm, uint32_t root, uint64_t sent, uint64_t received,
                     uint64_t request)
{
    OTF2_EvtWriter *w = writer(b, proc);

    world_and_self(b);
    if (w)
        written(b, proc, ns,
                OTF2_EvtWriter_NonBlockingCollectiveComplete(w, NULL, ns, op, comm, root, sent,
                                                             received, request));
}

void tb_collective_begin(struct tb *b, int proc, uint64_t ns)
{
    OTF2_EvtWriter *w = writer(b, proc);

    world_and_self(b);
    if (w)
        written(b, proc, ns, OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, ns));
}

void tb_collective_end(struct tb *b, int proc, uint64_t ns, OTF2_CollectiveOp op,
                       uint32_t comm, uint32_t root, uint64_t sent, uint64_t received)
{
    OTF2_EvtWriter *w = writer(b, proc);

    world_and_self(b);
    if (w)
        written(b, proc, ns, OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, ns, op, comm, root,
                                                             sent, received));
}

/* The attributes of per-peer lists send_list and recv_list, defined; NULL (b failed)
 * when they cannot be made. */
static OTF2_AttributeList *lists_attributes(struct tb *b, const char *send_list,
                                            const char *recv_list)
{
    OTF2_AttributeList *list = OTF2_AttributeList_New();

    tb_define_lists(b);
    world_and_self(b);
    if (!list ||
        OTF2_AttributeList_AddStringRef(list, TB_ATTR_SEND_BYTES, event_string(b, send_list)) !=
            OTF2_SUCCESS ||
        OTF2_AttributeList_AddStringRef(list, TB_ATTR_RECV_BYTES, event_string(b, recv_list)) !=
            OTF2_SUCCESS) {
        b->failed = 1;
        if (list)
            OTF2_AttributeList_Delete(list);
        return NULL;
    }
    return list;
}

void tb_collective_end_lists(struct tb *b, int proc, uint64_t ns, OTF2_CollectiveOp op,
                             uint32_t comm, uint64_t sent, uint64_t received,
                             const char *send_list, const char *recv_list)
{
    OTF2_EvtWriter *w = writer(b, proc);
    OTF2_AttributeList *list = lists_attributes(b, send_list, recv_list);

    if (list && w)
        written(b, proc, ns, OTF2_EvtWriter_MpiCollectiveEnd(w, list, ns, op, comm,
                                                             OTF2_UNDEFINED_UINT32, sent,
                                                             received));
    if (list)
        OTF2_AttributeList_Delete(list);
}

void tb_nbc_complete_lists(struct tb *b, int proc, uint64_t ns, OTF2_CollectiveOp op,
                           uint32_t comm, uint64_t sent, uint64_t received,
                           const char *send_list, const char *recv_list, uint64_t request)
{
    OTF2_EvtWriter *w = writer(b, proc);
    OTF2_AttributeList *list = lists_attributes(b, send_list, recv_list);

    if (list && w)
        written(b, proc, ns,
                OTF2_EvtWriter_NonBlockingCollectiveComplete(w, list, ns, op, comm,
                                                             OTF2_UNDEFINED_UINT32, sent,
                                                             received, request));
    if (list)
        OTF2_AttributeList_Delete(list);
}

void tb_send_call(struct tb *b, int proc, const char *name, uint64_t enter, uint64_t leave,
                  uint32_t comm, uint32_t dest, uint32_t tag)
{
    uint32_t r = tb_mpi(b, name);

    tb_enter(b, proc, enter, r);
    tb_mpi_send(b, proc, enter, comm, dest, tag, 8);
    tb_leave(b, proc, leave, r);
}

void tb_recv_call(struct tb *b, int proc, const char *name, uint64_t enter, uint64_t leave,
                  uint32_t comm, uint32_t source, uint32_t tag)
{
    uint32_t r = tb_mpi(b, name);

    tb_enter(b, proc, enter, r);
    tb_mpi_recv(b, proc, leave, comm, source, tag, 8);
    tb_leave(b, proc, leave, r);
}

void tb_collective_call(struct tb *b, int proc, const char *name, uint64_t enter,
                        uint64_t leave, OTF2_CollectiveOp op, uint32_t comm, uint32_t root)
{
    tb_collective_call_bytes(b, proc, name, enter, leave, op, comm, root, 8, 8);
}

void tb_collective_call_bytes(struct tb *b, int proc, const char *name, uint64_t enter,
                              uint64_t leave, OTF2_CollectiveOp op, uint32_t comm,
                              uint32_t root, uint64_t sent, uint64_t received)
{
    uint32_t r = tb_mpi(b, name);

    tb_enter(b, proc, enter, r);
    tb_collective_begin(b, proc, enter);
    tb_collective_end(b, proc, leave, op, comm, root, sent, received);
    tb_leave(b, proc, leave, r);
}

/* Strings are numbered as they are written: each definition refers to earlier ones. */
static OTF2_StringRef string(OTF2_GlobalDefWriter *w, OTF2_StringRef *next, const char *s)
{
    OTF2_GlobalDefWriter_WriteString(w, *next, s);
    return (*next)++;
}

/* Group 0: the locations in world-rank order; group 1: MPI_COMM_SELF; then a COMM_GROUP
 * of world ranks for each other communicator. */
static void write_comms(struct tb *b, OTF2_GlobalDefWriter *w, OTF2_StringRef *next)
{
    OTF2_GroupRef group = 2;

    OTF2_GlobalDefWriter_WriteGroup(w, 0, string(w, next, "MPI_COMM_WORLD locations"),
                                    OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, (uint32_t)b->nprocs, b->ids);
    OTF2_GlobalDefWriter_WriteGroup(w, 1, string(w, next, "MPI_COMM_SELF"),
                                    OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, 0, NULL);
    for (uint32_t i = 0; i < b->ncomms; i++) {
        const struct tb_comm *c = &b->comms[i];
        OTF2_StringRef name = string(w, next, c->name);

        if (c->self) {
            OTF2_GlobalDefWriter_WriteComm(w, i, name, 1, OTF2_UNDEFINED_COMM,
                                           OTF2_COMM_FLAG_NONE);
            continue;
        }
        if (c->local) {
            OTF2_GlobalDefWriter_WriteGroup(w, group, name, OTF2_GROUP_TYPE_COMM_GROUP,
                                            OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, c->local,
                                            c->ranks);
            OTF2_GlobalDefWriter_WriteGroup(w, group + 1, name, OTF2_GROUP_TYPE_COMM_GROUP,
                                            OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                            c->n - c->local, c->ranks + c->local);
            OTF2_GlobalDefWriter_WriteInterComm(w, i, name, group, group + 1,
                                                OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
            group += 2;
            continue;
        }
        OTF2_GlobalDefWriter_WriteGroup(w, group, name, OTF2_GROUP_TYPE_COMM_GROUP,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, c->n,
                                        c->ranks);
        OTF2_GlobalDefWriter_WriteComm(w, i, name, group++,
                                       i == TB_WORLD ? OTF2_UNDEFINED_COMM : TB_WORLD,
                                       OTF2_COMM_FLAG_NONE);
    }
}

/* The coordinates of every position of topology c's grid, in row-major order. */
static void write_grid(const struct tb_cart *c, OTF2_GlobalDefWriter *w, uint32_t id)
{
    uint64_t positions = 1;
    uint32_t coords[256];

    for (int d = 0; d < c->ndims; d++)
        positions *= c->dims[d];
    for (uint64_t r = 0; r < positions; r++) {
        uint64_t rest = r;

        for (int d = c->ndims - 1; d >= 0; d--) {
            coords[d] = (uint32_t)(rest % c->dims[d]);
            rest /= c->dims[d];
        }
        OTF2_GlobalDefWriter_WriteCartCoordinate(w, id, (uint32_t)r, (uint8_t)c->ndims, coords);
    }
}

/* Each topology's dimensions, named "dimension D", then the topology, "cart N". */
static void write_carts(struct tb *b, OTF2_GlobalDefWriter *w, OTF2_StringRef *next)
{
    OTF2_CartDimensionRef dim = 0, refs[256];
    uint32_t topology = 0;
    char name[64];

    for (uint32_t i = 0; i < b->ncarts; i++) {
        const struct tb_cart *c = &b->carts[i];

        if (!c->topology) {
            OTF2_GlobalDefWriter_WriteCartCoordinate(w, c->ref, c->rank, (uint8_t)c->ndims,
                                                     c->dims);
            continue;
        }
        for (int d = 0; d < c->ndims; d++) {
            snprintf(name, sizeof(name), "dimension %d", d);
            refs[d] = dim++;
            OTF2_GlobalDefWriter_WriteCartDimension(
                w, refs[d], string(w, next, name), c->dims[d],
                c->periodic[d] ? OTF2_CART_PERIODIC_TRUE : OTF2_CART_PERIODIC_FALSE);
        }
        snprintf(name, sizeof(name), "cart %u", topology);
        OTF2_GlobalDefWriter_WriteCartTopology(w, topology, string(w, next, name), c->ref,
                                               (uint8_t)c->ndims, refs);
        if (c->coordinates)
            write_grid(c, w, topology);
        topology++;
    }
}

static void write_definitions(struct tb *b, OTF2_GlobalDefWriter *w)
{
    OTF2_StringRef next = 0, empty;
    char name[64];

    for (uint32_t i = 0; i < b->ntexts; i++)
        string(w, &next, b->texts[i]);
    empty = string(w, &next, "");
    OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, b->offset,
                                              b->last > b->offset ? b->last - b->offset : 0,
                                              0);
    OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, string(w, &next, "MPI"),
                                       OTF2_PARADIGM_CLASS_PROCESS);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, string(w, &next, "machine"),
                                             string(w, &next, "machine"),
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int p = 0; p < b->nprocs; p++) {
        snprintf(name, sizeof(name), "MPI Rank %d", p);
        OTF2_GlobalDefWriter_WriteLocationGroup(w, (OTF2_LocationGroupRef)p,
                                                string(w, &next, name),
                                                OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                OTF2_UNDEFINED_LOCATION_GROUP);
    }
    for (int l = 0; l < b->nlocs; l++) {
        snprintf(name, sizeof(name), l < b->nprocs ? "Master thread" : "Thread %d", l);
        OTF2_GlobalDefWriter_WriteLocation(w, b->ids[l], string(w, &next, name),
                                           OTF2_LOCATION_TYPE_CPU_THREAD, b->events[l],
                                           (OTF2_LocationGroupRef)b->group[l]);
    }
    for (uint32_t i = 0; i < b->nregions; i++) {
        const struct tb_region *g = &b->regions[i];
        OTF2_StringRef n = string(w, &next, g->name);

        OTF2_StringRef d = *g->description ? string(w, &next, g->description) : empty;

        OTF2_GlobalDefWriter_WriteRegion(w, i, n, n, d, g->role, g->paradigm, g->flags,
                                         string(w, &next, g->file), g->line, g->line);
    }
    if (b->ncomms)
        write_comms(b, w, &next);
    for (uint32_t i = 0; i < b->nwindows; i++) {
        char wname[32];

        snprintf(wname, sizeof(wname), "MPI window %u", (unsigned)i);
        OTF2_GlobalDefWriter_WriteRmaWin(w, i, string(w, &next, wname), b->window_comms[i],
                                         OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS);
    }
    if (b->window && !b->nwindows)
        OTF2_GlobalDefWriter_WriteRmaWin(w, 0, string(w, &next, "MPI window 0"), TB_WORLD,
                                         OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS);
    write_carts(b, w, &next);
    if (b->cpu)
        OTF2_GlobalDefWriter_WriteAttribute(
            w, TB_ATTR_CPU, string(w, &next, "prognoz:cpu_time"),
            string(w, &next, "CPU time of the thread so far, ns"), OTF2_TYPE_UINT64);
    if (b->lists) {
        OTF2_GlobalDefWriter_WriteAttribute(
            w, TB_ATTR_SEND_BYTES, string(w, &next, "prognoz:send_bytes"),
            string(w, &next, "bytes sent to each rank of the communicator, comma-separated"),
            OTF2_TYPE_STRING);
        OTF2_GlobalDefWriter_WriteAttribute(
            w, TB_ATTR_RECV_BYTES, string(w, &next, "prognoz:recv_bytes"),
            string(w, &next, "bytes received from each rank of the communicator, comma-separated"),
            OTF2_TYPE_STRING);
    }
    if (b->any_source)
        OTF2_GlobalDefWriter_WriteAttribute(
            w, TB_ATTR_ANY_SOURCE, string(w, &next, "prognoz:any_source"),
            string(w, &next, "the receive was posted with MPI_ANY_SOURCE"), OTF2_TYPE_UINT8);
    if (b->nsites) {
        OTF2_GlobalDefWriter_WriteAttribute(
            w, TB_ATTR_CALLSITE, string(w, &next, "prognoz:callsite"),
            string(w, &next, "the source location the MPI call was made from"),
            OTF2_TYPE_SOURCE_CODE_LOCATION);
        for (uint32_t i = 0; i < b->nsites; i++)
            OTF2_GlobalDefWriter_WriteSourceCodeLocation(w, i, string(w, &next, b->sites[i].file),
                                                         b->sites[i].line);
    }
}

void tb_property(struct tb *b, const char *name, const char *value)
{
    if (OTF2_Archive_SetProperty(b->archive, name, value, false) != OTF2_SUCCESS)
        b->failed = 1;
}

int tb_close(struct tb *b)
{
    OTF2_GlobalDefWriter *w;
    int ok = !b->failed;

    for (int l = 0; l < b->nlocs; l++)
        OTF2_Archive_CloseEvtWriter(b->archive, b->writers[l]);
    OTF2_Archive_CloseEvtFiles(b->archive);
    /* an empty local definition file per location, as the recorder writes them */
    ok = ok && OTF2_Archive_OpenDefFiles(b->archive) == OTF2_SUCCESS;
    for (int l = 0; ok && l < b->nlocs; l++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(b->archive, b->ids[l]);

        ok = d && OTF2_Archive_CloseDefWriter(b->archive, d) == OTF2_SUCCESS;
    }
    if (ok)
        OTF2_Archive_CloseDefFiles(b->archive);
    if (ok && (w = OTF2_Archive_GetGlobalDefWriter(b->archive)))
        write_definitions(b, w);
    else
        ok = 0;
    if (OTF2_Archive_Close(b->archive) != OTF2_SUCCESS)
        ok = 0;
    for (uint32_t i = 0; i < b->nregions; i++) {
        free(b->regions[i].name);
        free(b->regions[i].file);
        free(b->regions[i].description);
    }
    free(b->regions);
    for (uint32_t i = 0; i < b->ntexts; i++)
        free(b->texts[i]);
    free(b->texts);
    for (uint32_t i = 0; i < b->ncomms; i++) {
        free(b->comms[i].name);
        free(b->comms[i].ranks);
    }
    free(b->comms);
    for (uint32_t i = 0; i < b->ncarts; i++) {
        free(b->carts[i].dims);
        free(b->carts[i].periodic);
    }
    free(b->carts);
    for (uint32_t i = 0; i < b->nsites; i++)
        free(b->sites[i].file);
    free(b->sites);
    free(b->ids);
    free(b->group);
    free(b->writers);
    free(b->events);
    free(b);
    return ok ? 0 : -1;
}

char *tb_tempdir(void)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = malloc(4096);

    if (!dir)
        return NULL;
    snprintf(dir, 4096, "%s/prognoz-analysis.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        free(dir);
        return NULL;
    }
    return dir;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void tb_remove(const char *dir)
{
    if (dir)
        nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
