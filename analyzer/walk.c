/* The events of all processes in time order: the stack of open regions of each
 * process, the time of MPI calls charged to the intervals they lie in, and the MPI
 * events handed to waits.c. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "constructor.h"
#include "grow.h"
#include "reader.h"

/* Seconds since the first event: differences of integers first, so that timestamps far
 * from zero keep their nanoseconds in a double. */
static double seconds(struct reader *r, OTF2_TimeStamp t)
{
    if (!r->started) {
        r->base = t;
        r->started = 1;
    }
    return (double)(int64_t)(t - r->base) / (double)r->defs.resolution;
}

/* The process of an event at time (t in seconds), noting its time; NULL for locations
 * not analyzed, and when the time goes back (the trace's error: the location's later
 * events are not read). */
static struct process *process_at(struct reader *r, OTF2_LocationRef loc, OTF2_TimeStamp time,
                                  double t, int *proc)
{
    struct process *p;

    if ((*proc = pz_reader_proc(r, loc)) < 0)
        return NULL;
    p = &r->procs[*proc];
    if (pz_time_check(&p->time, time)) {
        pz_time_check_fail(&r->file, &r->defs, loc, pz_trace_file_event(&r->file, loc), time,
                           &p->time);
        p->time.last = UINT64_MAX;
        return NULL;
    }
    if (t < p->first)
        p->first = t;
    if (t > p->last)
        p->last = t;
    return p;
}

/* The MPI call open on proc: the innermost MPI frame, or NULL. */
static struct frame *open_call(struct reader *r, int proc)
{
    struct process *p = &r->procs[proc];

    for (uint32_t i = p->depth; i-- > 0;)
        if (r->regions[p->stack[i].region].kind == REGION_MPI)
            return &p->stack[i];
    return NULL;
}

static int interval_node(struct reader *r, struct process *p, uint32_t region)
{
    const struct region *g = &r->regions[region];
    const char *file;
    int parent = 0, node;

    for (uint32_t i = p->depth; i-- > 0;) {
        if (p->stack[i].node >= 0) {
            parent = p->stack[i].node;
            break;
        }
    }
    file = pz_defs_string(&r->defs, g->info->file_ref);
    node = pz_tree_child(&r->tree, parent, region, file ? file : "", g->info->line,
                         g->info->interval);
    if (node >= 0)
        r->a->nodes[node].sequential = g->info->sequential;
    return node;
}

/* Computation while nonblocking operations are in flight: communication hidden by it. */
static void overlap(struct reader *r, int proc, double d)
{
    int nodes[256];
    uint32_t n = pz_open_nodes(r, proc, nodes, 256);

    if (d > 0)
        pz_charge(r, proc, nodes, n, offsetof(struct pz_stats, overlap), d);
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                  OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    struct reader *r = ud;
    double t = seconds(r, time);
    struct frame f = { region, -1, t, NULL, UINT32_MAX, -1e300, 0 };
    int proc;
    struct process *p = process_at(r, loc, time, t, &proc);

    if (!p)
        return r->file.error[0] ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
    if (region >= r->nregions) {
        pz_reader_fail(r, "location %llu: an event refers to undefined region %u",
                       (unsigned long long)loc, region);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (attributes && r->defs.callsite != OTF2_UNDEFINED_ATTRIBUTE &&
        r->regions[region].kind == REGION_MPI &&
        OTF2_AttributeList_TestAttributeByID(attributes, r->defs.callsite))
        OTF2_AttributeList_GetSourceCodeLocationRef(attributes, r->defs.callsite, &f.site);
    if (r->regions[region].kind == REGION_INTERVAL && (f.node = interval_node(r, p, region)) < 0) {
        pz_reader_fail(r, "out of memory");
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (r->regions[region].kind == REGION_MPI) {
        pz_profile_enter(r, region, f.site);
        if (p->in_flight > 0 && p->computing_since > -1e300)
            overlap(r, proc, t - p->computing_since);
    }
    if (pz_grow((void **)&p->stack, &p->cap, p->depth, sizeof(*p->stack)) != 0) {
        pz_reader_fail(r, "out of memory");
        return OTF2_CALLBACK_INTERRUPT;
    }
    p->stack[p->depth++] = f;
    return OTF2_CALLBACK_SUCCESS;
}

/* An MPI call's time counts in every interval it lies in, the whole run included. */
static void account_call(struct reader *r, int proc, const struct region *g, double d)
{
    int nodes[256];
    uint32_t n = pz_open_nodes(r, proc, nodes, 256);
    int io_wait = pz_io_rma_call(r, proc, nodes, n, g, d);

    pz_charge(r, proc, nodes, n, offsetof(struct pz_stats, mpi), d);
    if (g->mpi_class == CLASS_SENDRECV && !io_wait)
        pz_charge(r, proc, nodes, n, offsetof(struct pz_stats, sendrecv), d);
    else if (g->mpi_class == CLASS_COLLECTIVE)
        pz_charge(r, proc, nodes, n, offsetof(struct pz_stats, collective), d);
    else if (g->mpi_class == CLASS_ALLTOALL)
        pz_charge(r, proc, nodes, n, offsetof(struct pz_stats, alltoall), d);
    if (g->starts)
        pz_charge(r, proc, nodes, n, offsetof(struct pz_stats, start), d);
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                  OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    struct reader *r = ud;
    double t = seconds(r, time);
    struct frame f;
    int proc;
    struct process *p = process_at(r, loc, time, t, &proc);

    (void)attributes;
    if (!p)
        return r->file.error[0] ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
    if (p->depth == 0 || p->stack[p->depth - 1].region != region) {
        pz_reader_fail(r, "location %llu: a Leave at %.9f s does not match the region "
                       "entered last", (unsigned long long)loc, t);
        return OTF2_CALLBACK_INTERRUPT;
    }
    f = p->stack[--p->depth];
    if (f.node >= 0) {
        struct pz_stats *s = &r->a->nodes[f.node].procs[proc];

        s->exec += t - f.enter;
        s->count++;
    } else if (r->regions[region].kind == REGION_MPI) {
        account_call(r, proc, &r->regions[region], t - f.enter);
        p->computing_since = t;
        pz_profile_call(r, region, f.site, t - f.enter);
        pz_waits_call_done(r, proc, &f, t);
        r->mpi_calls++;
    }
    return OTF2_CALLBACK_SUCCESS;
}

/* Nonblocking operations posted and completed, for the overlap. */
static void in_flight(struct reader *r, OTF2_LocationRef loc, OTF2_TimeStamp time, int change)
{
    int proc;
    struct process *p = process_at(r, loc, time, seconds(r, time), &proc);

    if (p)
        p->in_flight += change;
}

static void sent(struct reader *r, OTF2_LocationRef loc, OTF2_TimeStamp time,
                 uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    double t = seconds(r, time);
    int proc;
    struct frame *call;

    if (!process_at(r, loc, time, t, &proc))
        return;
    call = open_call(r, proc);
    if (call)
        pz_profile_bytes(r, call->region, length, 0);
    pz_waits_send(r, proc, comm, receiver, tag, t, call);
}

static void received(struct reader *r, OTF2_LocationRef loc, OTF2_TimeStamp time,
                     uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    double t = seconds(r, time);
    struct frame *call;
    int proc;

    if (!process_at(r, loc, time, t, &proc))
        return;
    call = open_call(r, proc);
    if (call)
        pz_profile_bytes(r, call->region, 0, length);
    pz_waits_recv(r, proc, comm, sender, tag, t, call);
}

static OTF2_CallbackCode on_send(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                 OTF2_AttributeList *attributes, uint32_t receiver,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    (void)attributes;
    sent(ud, loc, time, receiver, comm, tag, length);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                  OTF2_AttributeList *attributes, uint32_t receiver,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                  uint64_t request)
{
    (void)attributes, (void)request;
    in_flight(ud, loc, time, 1);
    sent(ud, loc, time, receiver, comm, tag, length);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_irecv_request(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                          OTF2_AttributeList *attributes, uint64_t request)
{
    (void)attributes, (void)request;
    in_flight(ud, loc, time, 1);
    return OTF2_CALLBACK_SUCCESS;
}

/* A send completed, or a request cancelled: no longer in flight. */
static OTF2_CallbackCode on_request_ended(OTF2_LocationRef loc, OTF2_TimeStamp time,
                                          void *ud, OTF2_AttributeList *attributes,
                                          uint64_t request)
{
    (void)attributes, (void)request;
    in_flight(ud, loc, time, -1);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_collective_request(OTF2_LocationRef loc, OTF2_TimeStamp time,
                                               void *ud, OTF2_AttributeList *attributes,
                                               uint64_t request)
{
    struct reader *r = ud;
    double t = seconds(r, time);
    struct frame *call;
    int proc;

    (void)attributes;
    in_flight(ud, loc, time, 1);
    /* its partners wait for the call that posted it, from its enter */
    if (process_at(r, loc, time, t, &proc))
        pz_nbc_post(r, proc, request, (call = open_call(r, proc)) ? call->enter : t);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_collective_complete(OTF2_LocationRef loc, OTF2_TimeStamp time,
                                                void *ud, OTF2_AttributeList *attributes,
                                                OTF2_CollectiveOp op, OTF2_CommRef comm,
                                                uint32_t root, uint64_t sent_bytes,
                                                uint64_t received_bytes, uint64_t request)
{
    struct reader *r = ud;
    double t = seconds(r, time);
    struct frame *call;
    int proc;

    (void)attributes;
    in_flight(ud, loc, time, -1);
    if (!process_at(r, loc, time, t, &proc))
        return OTF2_CALLBACK_SUCCESS;
    /* the bytes and the waits count in the call that completed the operation, as a
     * nonblocking receive's do */
    if ((call = open_call(r, proc)))
        pz_profile_bytes(r, call->region, sent_bytes, received_bytes);
    pz_nbc_complete(r, proc, op, comm, root, request, call, t);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                 OTF2_AttributeList *attributes, uint32_t sender,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    (void)attributes;
    received(ud, loc, time, sender, comm, tag, length);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                  OTF2_AttributeList *attributes, uint32_t sender,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                  uint64_t request)
{
    (void)attributes, (void)request;
    in_flight(ud, loc, time, -1);
    received(ud, loc, time, sender, comm, tag, length);
    return OTF2_CALLBACK_SUCCESS;
}

/* Whether call makes a communicator collectively over its parent (trace/constructor.h):
 * its CREATE_HANDLE is the members' agreement on the new context id, an Allreduce that
 * waits for all.  Score-P's CREATE_HANDLE of MPI_Init is none. */
static int constructs(const struct reader *r, const struct frame *call)
{
    return pz_constructor(r->regions[call->region].info->call);
}

static OTF2_CallbackCode on_collective_end(OTF2_LocationRef loc, OTF2_TimeStamp time,
                                           void *ud, OTF2_AttributeList *attributes,
                                           OTF2_CollectiveOp op, OTF2_CommRef comm,
                                           uint32_t root, uint64_t sent_bytes,
                                           uint64_t received_bytes)
{
    struct reader *r = ud;
    double t = seconds(r, time);
    struct frame *call;
    int proc;

    (void)attributes;
    if (process_at(r, loc, time, t, &proc) && (call = open_call(r, proc))) {
        pz_profile_bytes(r, call->region, sent_bytes, received_bytes);
        if (op != OTF2_COLLECTIVE_OP_CREATE_HANDLE || constructs(r, call))
            pz_waits_collective(r, proc, op, comm, root, call->enter, t);
    }
    return OTF2_CALLBACK_SUCCESS;
}

/* The program's begin and end (Score-P's ProgramBegin and ProgramEnd) are events of its
 * master thread: its whole run spans from its first event to its last. */
static OTF2_CallbackCode on_program_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                          OTF2_AttributeList *attributes, OTF2_StringRef name,
                                          uint32_t nargs, const OTF2_StringRef *args)
{
    struct reader *r = ud;
    int proc;

    (void)attributes, (void)name, (void)nargs, (void)args;
    process_at(r, loc, time, seconds(r, time), &proc);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_program_end(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                        OTF2_AttributeList *attributes, int64_t status)
{
    struct reader *r = ud;
    int proc;

    (void)attributes, (void)status;
    process_at(r, loc, time, seconds(r, time), &proc);
    return OTF2_CALLBACK_SUCCESS;
}

/* An OpenMP worker thread (not the first of its process) joins a thread team at each
 * parallel region and waits in the OpenMP runtime between them: its whole run is the
 * time in its outermost teams (read.c). */
static void team(struct reader *r, OTF2_LocationRef loc, OTF2_TimeStamp time, int begin)
{
    double t = seconds(r, time);
    int proc;
    struct process *p = process_at(r, loc, time, t, &proc);

    if (!p || r->a->thread_of[proc] == 0)
        return;
    if (begin && p->nesting++ == 0) {
        p->teams++;
        p->team_since = t;
    } else if (!begin && p->nesting > 0 && --p->nesting == 0) {
        p->team_time += t - p->team_since;
    }
}

static OTF2_CallbackCode on_team_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                       OTF2_AttributeList *attributes, OTF2_CommRef comm)
{
    (void)attributes, (void)comm;
    team(ud, loc, time, 1);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_team_end(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                     OTF2_AttributeList *attributes, OTF2_CommRef comm)
{
    (void)attributes, (void)comm;
    team(ud, loc, time, 0);
    return OTF2_CALLBACK_SUCCESS;
}

/* Score-P's SCOREP_RECORDING_OFF and ON: nothing is recorded in between (read.c warns). */
static OTF2_CallbackCode on_measurement(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                        OTF2_AttributeList *attributes,
                                        OTF2_MeasurementMode mode)
{
    struct reader *r = ud;
    double t = seconds(r, time);
    int proc;
    struct process *p = process_at(r, loc, time, t, &proc);

    (void)attributes;
    if (!p || (mode == OTF2_MEASUREMENT_OFF) == p->off)
        return OTF2_CALLBACK_SUCCESS;
    if (mode == OTF2_MEASUREMENT_OFF) {
        if (p->offs++ == 0)
            p->off_first = t;
        p->off_since = t;
    } else {
        p->off_time += t - p->off_since;
    }
    p->off = mode == OTF2_MEASUREMENT_OFF;
    return OTF2_CALLBACK_SUCCESS;
}

/* Score-P's unwinding records calls as calling contexts, not as Enter and Leave: the
 * analysis would see no MPI call, so it says why. */
static OTF2_CallbackCode calling_context(struct reader *r, OTF2_LocationRef loc)
{
    pz_reader_fail(r, "location %llu: calling-context events (Score-P with "
                   "SCOREP_ENABLE_UNWINDING) are not supported; record with "
                   "SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS=true",
                   (unsigned long long)loc);
    return OTF2_CALLBACK_INTERRUPT;
}

static OTF2_CallbackCode on_context_enter(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                          OTF2_AttributeList *attributes,
                                          OTF2_CallingContextRef context, uint32_t distance)
{
    (void)time, (void)attributes, (void)context, (void)distance;
    return calling_context(ud, loc);
}

static OTF2_CallbackCode on_context_leave(OTF2_LocationRef loc, OTF2_TimeStamp time, void *ud,
                                          OTF2_AttributeList *attributes,
                                          OTF2_CallingContextRef context)
{
    (void)time, (void)attributes, (void)context;
    return calling_context(ud, loc);
}

void pz_walk_callbacks(OTF2_GlobalEvtReaderCallbacks *cb)
{
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, on_enter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_collective_end);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_request_ended);
    OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb,
                                                                         on_collective_request);
    OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(
        cb, on_collective_complete);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request_ended);
    OTF2_GlobalEvtReaderCallbacks_SetProgramBeginCallback(cb, on_program_begin);
    OTF2_GlobalEvtReaderCallbacks_SetProgramEndCallback(cb, on_program_end);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTeamBeginCallback(cb, on_team_begin);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTeamEndCallback(cb, on_team_end);
    OTF2_GlobalEvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_measurement);
    OTF2_GlobalEvtReaderCallbacks_SetCallingContextEnterCallback(cb, on_context_enter);
    OTF2_GlobalEvtReaderCallbacks_SetCallingContextLeaveCallback(cb, on_context_leave);
    pz_io_rma_callbacks(cb);
}

/* The callback OTF2's global reader would call for rec's event, as trace_out.c writes
 * it: the same handlers, so that a run analyzed as records and as a trace agree. */
static OTF2_CallbackCode dispatch(struct reader *r, OTF2_LocationRef loc, OTF2_TimeStamp t,
                                  OTF2_AttributeList *a, const struct pz_rec *rec)
{
    switch (rec->kind) {
    case PZ_REC_ENTER:
        return on_enter(loc, t, r, a, rec->region);
    case PZ_REC_LEAVE:
        return on_leave(loc, t, r, a, rec->region);
    case PZ_REC_SEND:
        return on_send(loc, t, r, a, rec->peer, rec->comm, rec->tag, rec->bytes);
    case PZ_REC_RECV:
        return on_recv(loc, t, r, a, rec->peer, rec->comm, rec->tag, rec->bytes);
    case PZ_REC_ISEND:
        return on_isend(loc, t, r, a, rec->peer, rec->comm, rec->tag, rec->bytes,
                        rec->request);
    case PZ_REC_IRECV:
        return on_irecv(loc, t, r, a, rec->peer, rec->comm, rec->tag, rec->bytes,
                        rec->request);
    case PZ_REC_IRECV_REQUEST:
        return on_irecv_request(loc, t, r, a, rec->request);
    case PZ_REC_ISEND_COMPLETE:
    case PZ_REC_REQUEST_CANCELLED:
        return on_request_ended(loc, t, r, a, rec->request);
    case PZ_REC_COLL_END:
        return on_collective_end(loc, t, r, a, rec->coll_op, rec->comm, rec->peer,
                                 rec->bytes, rec->bytes2);
    case PZ_REC_NBC_REQUEST:
        return on_collective_request(loc, t, r, a, rec->request);
    case PZ_REC_NBC_COMPLETE:
        return on_collective_complete(loc, t, r, a, rec->coll_op, rec->comm, rec->peer,
                                      rec->bytes, rec->bytes2, rec->request);
    case PZ_REC_RMA_PUT:
    case PZ_REC_RMA_GET:
    case PZ_REC_RMA_ATOMIC:
    case PZ_REC_RMA_LOCK:
    case PZ_REC_RMA_RELEASE:
    case PZ_REC_IO_BEGIN:
    case PZ_REC_IO_COMPLETE:
        return pz_io_rma_record(r, loc, t, a, rec);
    }
    return OTF2_CALLBACK_SUCCESS;   /* no handler: a test, a collective's begin, a flush,
                                       a window, an epoch, an I/O handle, a seek */
}

void pz_walk_prefetch(const struct reader *r, int th, const struct pz_rec *rec, int near)
{
    const struct process *p = &r->procs[th];

    if (!near) {
        __builtin_prefetch(rec);
        __builtin_prefetch((const char *)rec + sizeof(*rec) - 1);
        __builtin_prefetch(p);
        __builtin_prefetch((const char *)p + sizeof(*p) - 1);
        __builtin_prefetch(&r->a->nodes[0].procs[th]);
    } else if (p->depth) {
        __builtin_prefetch(p->stack);
        __builtin_prefetch(&p->stack[p->depth - 1]);
    }
}

int pz_walk_record(struct reader *r, int th, const struct pz_rec *rec, uint64_t time,
                   OTF2_AttributeList *attributes)
{
    OTF2_LocationRef loc = r->defs.thread_location[th];
    OTF2_AttributeList *a = NULL;

    /* the thread's location is its own (defs_procs.c): its process is th */
    r->walking = 1;
    r->walking_location = loc;
    r->walking_thread = th;

    if (rec->kind == PZ_REC_ENTER && rec->callsite != PZ_NONE32 &&
        r->defs.callsite != OTF2_UNDEFINED_ATTRIBUTE) {
        if (OTF2_AttributeList_RemoveAllAttributes(attributes) != OTF2_SUCCESS ||
            OTF2_AttributeList_AddSourceCodeLocationRef(attributes, r->defs.callsite,
                                                        rec->callsite) != OTF2_SUCCESS) {
            pz_reader_fail(r, "out of memory");
            return -1;
        }
        a = attributes;
    }
    return dispatch(r, loc, time, a, rec) == OTF2_CALLBACK_SUCCESS && !r->file.error[0] ? 0
                                                                                       : -1;
}
