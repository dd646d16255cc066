/* Per-thread streams of a recorded run, or of one a generator makes (trace_in.h).  At
 * open of a recording, each thread's events are read from
 * the archive, one location at a time (so that one OTF2 event reader, with its chunk
 * buffer, is alive at a time), into the spool (spool.h); the replay then reads each
 * thread's records from the spool, a few at a time, into a ring it consumes, so that
 * memory holds only the records not yet replayed (and those looked ahead at). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spool.h"
#include "trace_ahead.h"
#include "trace_in_int.h"

/* Records read from the spool into a thread's ring at a time, and the ring's first
 * capacity: about a call's records.  The replay steps each thread a call or so at a
 * time; with thousands of threads, the records of a larger batch (72 bytes each) that
 * the step does not reach leave the cache before the next step of their thread (64
 * missed the 4 MiB cache twice as often at 4096 ranks, 4 a little more than 8). */
#define READ_BATCH 8

/* Room in ring s for n records more; -1 if memory ran out. */
static int reserve(struct pz_trace_ring *s, size_t n)
{
    size_t cap = s->cap ? s->cap : READ_BATCH;
    struct pz_rec *grown;

    if (s->count + n <= s->cap)
        return 0;
    while (cap < s->count + n)
        cap *= 2;
    if (!(grown = malloc(cap * sizeof(*grown))))
        return -1;
    for (size_t i = 0; i < s->count; i++)
        grown[i] = s->ring[(s->head + i) & (s->cap - 1)];
    free(s->ring);
    s->ring = grown;
    s->head = 0;
    s->cap = cap;
    return 0;
}

/* prognoz's attributes among those of an event (looking each up by id would complain
 * about the absent ones). */
static void take_attributes(const struct pz_trace_in *t, OTF2_AttributeList *list,
                            struct pz_rec *r)
{
    uint32_t n = OTF2_AttributeList_GetNumberOfElements(list);

    for (uint32_t i = 0; i < n; i++) {
        OTF2_AttributeRef id;
        OTF2_Type type;
        OTF2_AttributeValue v;

        if (OTF2_AttributeList_GetAttributeByIndex(list, i, &id, &type, &v) != OTF2_SUCCESS)
            continue;
        if (id == t->defs.callsite)
            r->callsite = v.sourceCodeLocationRef;
        else if (id == t->defs.send_list)
            r->send_list = v.stringRef;
        else if (id == t->defs.recv_list)
            r->recv_list = v.stringRef;
        else if (id == t->defs.cpu)
            r->cpu = v.uint64;
        else if (id == t->defs.any_source)
            r->any_source = v.uint8 != 0;
    }
}

/* Spools the record the callbacks filled last, if it is not yet. */
static int spool_filled(struct pz_trace_in *t, int th)
{
    if (!t->filled)
        return 0;
    t->filled = 0;
    if (pz_spool_append(t->spool, th, &t->filling) == 0) {
        t->spooled += !pz_rec_is_io(t->filling.kind);
        return 0;
    }
    t->spool_failed = 1;
    return -1;
}

/* The record an event callback fills (event number pos of location loc): the one
 * before it goes to the spool. */
static OTF2_CallbackCode add(void *ud, OTF2_LocationRef loc, uint64_t pos, OTF2_TimeStamp time,
                             enum pz_rec_kind kind, OTF2_AttributeList *attributes,
                             struct pz_rec **out)
{
    struct stream *s = ud;
    struct pz_trace_in *t = s->t;
    struct pz_rec *r = &t->filling;

    if (pz_time_check(&s->time, time)) {
        pz_time_check_fail(&t->file, &t->defs, loc, pos, time, &s->time);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (spool_filled(t, s->thread) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    *r = pz_rec_blank;
    r->time = time;
    r->kind = (uint8_t)kind;
    if (attributes)
        take_attributes(t, attributes, r);
    t->filled = 1;
    *out = r;
    return OTF2_CALLBACK_SUCCESS;
}

#define ADD(kind)                                                               \
    struct pz_rec *r;                                                           \
    if (add(ud, loc, pos, time, kind, attributes, &r) != OTF2_CALLBACK_SUCCESS) \
        return OTF2_CALLBACK_INTERRUPT

static OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    ADD(PZ_REC_ENTER);
    r->region = region;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    ADD(PZ_REC_LEAVE);
    r->region = region;
    return OTF2_CALLBACK_SUCCESS;
}

static void message(struct pz_rec *r, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                    uint64_t length, uint64_t request)
{
    r->peer = peer;
    r->comm = comm;
    r->tag = tag;
    r->bytes = length;
    r->request = request;
}

static OTF2_CallbackCode on_send(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                 OTF2_AttributeList *attributes, uint32_t receiver,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    ADD(PZ_REC_SEND);
    message(r, receiver, comm, tag, length, 0);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                 OTF2_AttributeList *attributes, uint32_t sender,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    ADD(PZ_REC_RECV);
    message(r, sender, comm, tag, length, 0);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attributes, uint32_t receiver,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                  uint64_t request)
{
    ADD(PZ_REC_ISEND);
    message(r, receiver, comm, tag, length, request);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attributes, uint32_t sender,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                  uint64_t request)
{
    ADD(PZ_REC_IRECV);
    message(r, sender, comm, tag, length, request);
    return OTF2_CALLBACK_SUCCESS;
}

/* The events that carry only a request id. */
#define REQUEST_EVENT(name, kind)                                                        \
    static OTF2_CallbackCode name(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,   \
                                  OTF2_AttributeList *attributes, uint64_t request)      \
    {                                                                                    \
        ADD(kind);                                                                       \
        r->request = request;                                                            \
        return OTF2_CALLBACK_SUCCESS;                                                    \
    }
REQUEST_EVENT(on_isend_complete, PZ_REC_ISEND_COMPLETE)
REQUEST_EVENT(on_irecv_request, PZ_REC_IRECV_REQUEST)
REQUEST_EVENT(on_request_test, PZ_REC_REQUEST_TEST)
REQUEST_EVENT(on_request_cancelled, PZ_REC_REQUEST_CANCELLED)
REQUEST_EVENT(on_nbc_request, PZ_REC_NBC_REQUEST)

static OTF2_CallbackCode on_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                       OTF2_AttributeList *attributes)
{
    ADD(PZ_REC_COLL_BEGIN);
    (void)r;
    return OTF2_CALLBACK_SUCCESS;
}

static void collective(struct pz_rec *r, OTF2_CollectiveOp op, OTF2_CommRef comm,
                       uint32_t root, uint64_t sent, uint64_t received)
{
    r->coll_op = (uint8_t)op;
    r->comm = comm;
    r->peer = root == OTF2_UNDEFINED_UINT32 ? PZ_NONE32 : root;
    r->bytes = sent;
    r->bytes2 = received;
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                     OTF2_AttributeList *attributes, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received)
{
    ADD(PZ_REC_COLL_END);
    collective(r, op, comm, root, sent, received);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_nbc_complete(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                         OTF2_AttributeList *attributes, OTF2_CollectiveOp op,
                                         OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                         uint64_t received, uint64_t request)
{
    ADD(PZ_REC_NBC_COMPLETE);
    collective(r, op, comm, root, sent, received);
    r->request = request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_flush(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attributes, OTF2_TimeStamp stop)
{
    ADD(PZ_REC_FLUSH);
    r->bytes2 = stop;
    return OTF2_CALLBACK_SUCCESS;
}

/* --- one-sided communication */

/* The events that carry only a window. */
#define WINDOW_EVENT(name, kind)                                                         \
    static OTF2_CallbackCode name(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,   \
                                  OTF2_AttributeList *attributes, OTF2_RmaWinRef win)    \
    {                                                                                    \
        ADD(kind);                                                                       \
        r->comm = win;                                                                   \
        return OTF2_CALLBACK_SUCCESS;                                                    \
    }
WINDOW_EVENT(on_win_create, PZ_REC_RMA_WIN_CREATE)
WINDOW_EVENT(on_win_destroy, PZ_REC_RMA_WIN_DESTROY)

static OTF2_CallbackCode on_rma_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                           void *ud, OTF2_AttributeList *attributes)
{
    ADD(PZ_REC_RMA_COLL_BEGIN);
    (void)r;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_rma_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                         void *ud, OTF2_AttributeList *attributes,
                                         OTF2_CollectiveOp op, OTF2_RmaSyncLevel level,
                                         OTF2_RmaWinRef win, uint32_t root, uint64_t sent,
                                         uint64_t received)
{
    ADD(PZ_REC_RMA_COLL_END);
    collective(r, op, win, root, sent, received);
    r->tag = level;
    return OTF2_CALLBACK_SUCCESS;
}

static void rma(struct pz_rec *r, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
                uint64_t matching)
{
    r->comm = win;
    r->peer = remote;
    r->bytes = bytes;
    r->request = matching;
}

static OTF2_CallbackCode on_rma_put(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                    OTF2_AttributeList *attributes, OTF2_RmaWinRef win,
                                    uint32_t remote, uint64_t bytes, uint64_t matching)
{
    ADD(PZ_REC_RMA_PUT);
    rma(r, win, remote, bytes, matching);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_rma_get(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                    OTF2_AttributeList *attributes, OTF2_RmaWinRef win,
                                    uint32_t remote, uint64_t bytes, uint64_t matching)
{
    ADD(PZ_REC_RMA_GET);
    rma(r, win, remote, bytes, matching);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_rma_atomic(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                       void *ud, OTF2_AttributeList *attributes,
                                       OTF2_RmaWinRef win, uint32_t remote,
                                       OTF2_RmaAtomicType type, uint64_t sent,
                                       uint64_t received, uint64_t matching)
{
    ADD(PZ_REC_RMA_ATOMIC);
    rma(r, win, remote, sent, matching);
    r->coll_op = type;
    r->bytes2 = received;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_rma_complete(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                         void *ud, OTF2_AttributeList *attributes,
                                         OTF2_RmaWinRef win, uint64_t matching)
{
    ADD(PZ_REC_RMA_OP_COMPLETE);
    r->comm = win;
    r->request = matching;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_rma_lock(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                     void *ud, OTF2_AttributeList *attributes,
                                     OTF2_RmaWinRef win, uint32_t remote, uint64_t lock,
                                     OTF2_LockType type)
{
    ADD(PZ_REC_RMA_LOCK);
    rma(r, win, remote, 0, lock);
    r->coll_op = type;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_rma_release(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                        void *ud, OTF2_AttributeList *attributes,
                                        OTF2_RmaWinRef win, uint32_t remote, uint64_t lock)
{
    ADD(PZ_REC_RMA_RELEASE);
    rma(r, win, remote, 0, lock);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_rma_sync(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                     void *ud, OTF2_AttributeList *attributes,
                                     OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaSyncType type)
{
    ADD(PZ_REC_RMA_SYNC);
    rma(r, win, remote, 0, 0);
    r->coll_op = type;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_rma_group_sync(OTF2_LocationRef loc, OTF2_TimeStamp time,
                                           uint64_t pos, void *ud,
                                           OTF2_AttributeList *attributes,
                                           OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
                                           OTF2_GroupRef group)
{
    ADD(PZ_REC_RMA_GROUP_SYNC);
    r->comm = win;
    r->peer = group;
    r->tag = level;
    return OTF2_CALLBACK_SUCCESS;
}

/* --- I/O: the replay times a blocking operation by its call, a nonblocking one by its
   begin and complete, and writes every record back into the predicted trace */

static OTF2_CallbackCode on_io_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                     void *ud, OTF2_AttributeList *attributes,
                                     OTF2_IoHandleRef handle, OTF2_IoOperationMode mode,
                                     OTF2_IoOperationFlag flags, uint64_t requested,
                                     uint64_t matching)
{
    ADD(PZ_REC_IO_BEGIN);
    r->comm = handle;
    r->tag = mode;
    r->peer = flags;
    r->bytes = requested;
    r->request = matching;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_io_issued(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                      void *ud, OTF2_AttributeList *attributes,
                                      OTF2_IoHandleRef handle, uint64_t matching)
{
    ADD(PZ_REC_IO_ISSUED);
    r->comm = handle;
    r->request = matching;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_io_complete(OTF2_LocationRef loc, OTF2_TimeStamp time,
                                        uint64_t pos, void *ud,
                                        OTF2_AttributeList *attributes,
                                        OTF2_IoHandleRef handle, uint64_t transferred,
                                        uint64_t matching)
{
    ADD(PZ_REC_IO_COMPLETE);
    r->comm = handle;
    r->bytes = transferred;
    r->request = matching;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_io_create(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                      void *ud, OTF2_AttributeList *attributes,
                                      OTF2_IoHandleRef handle, OTF2_IoAccessMode mode,
                                      OTF2_IoCreationFlag creation, OTF2_IoStatusFlag status)
{
    ADD(PZ_REC_IO_CREATE_HANDLE);
    r->comm = handle;
    r->coll_op = mode;
    r->tag = creation;
    r->peer = status;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_io_destroy(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                       void *ud, OTF2_AttributeList *attributes,
                                       OTF2_IoHandleRef handle)
{
    ADD(PZ_REC_IO_DESTROY_HANDLE);
    r->comm = handle;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_io_seek(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                    void *ud, OTF2_AttributeList *attributes,
                                    OTF2_IoHandleRef handle, int64_t requested,
                                    OTF2_IoSeekOption whence, uint64_t result)
{
    ADD(PZ_REC_IO_SEEK);
    r->comm = handle;
    r->bytes = (uint64_t)requested;
    r->coll_op = whence;
    r->bytes2 = result;
    return OTF2_CALLBACK_SUCCESS;
}

static void io_callbacks(OTF2_EvtReaderCallbacks *cb)
{
    OTF2_EvtReaderCallbacks_SetIoOperationBeginCallback(cb, on_io_begin);
    OTF2_EvtReaderCallbacks_SetIoOperationIssuedCallback(cb, on_io_issued);
    OTF2_EvtReaderCallbacks_SetIoOperationCompleteCallback(cb, on_io_complete);
    OTF2_EvtReaderCallbacks_SetIoCreateHandleCallback(cb, on_io_create);
    OTF2_EvtReaderCallbacks_SetIoDestroyHandleCallback(cb, on_io_destroy);
    OTF2_EvtReaderCallbacks_SetIoSeekCallback(cb, on_io_seek);
}

static void rma_callbacks(OTF2_EvtReaderCallbacks *cb)
{
    OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(cb, on_win_create);
    OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(cb, on_win_destroy);
    OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, on_rma_coll_begin);
    OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, on_rma_coll_end);
    OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, on_rma_put);
    OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, on_rma_get);
    OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, on_rma_atomic);
    OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cb, on_rma_complete);
    OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(cb, on_rma_lock);
    OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(cb, on_rma_release);
    OTF2_EvtReaderCallbacks_SetRmaSyncCallback(cb, on_rma_sync);
    OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(cb, on_rma_group_sync);
}

/* --- events no record carries: noted, so that an analysis that needs them reads the
 * archive through OTF2 instead (pz_trace_in_unread_events) */

static OTF2_CallbackCode unread(void *ud)
{
    ((struct stream *)ud)->t->unread_events = 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_program_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                          void *ud, OTF2_AttributeList *attributes,
                                          OTF2_StringRef name, uint32_t nargs,
                                          const OTF2_StringRef *args)
{
    (void)loc, (void)time, (void)pos, (void)attributes, (void)name, (void)nargs, (void)args;
    return unread(ud);
}

static OTF2_CallbackCode on_program_end(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                        void *ud, OTF2_AttributeList *attributes, int64_t status)
{
    (void)loc, (void)time, (void)pos, (void)attributes, (void)status;
    return unread(ud);
}

static OTF2_CallbackCode on_team(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                 OTF2_AttributeList *attributes, OTF2_CommRef team)
{
    (void)loc, (void)time, (void)pos, (void)attributes, (void)team;
    return unread(ud);
}

static OTF2_CallbackCode on_measurement(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                        void *ud, OTF2_AttributeList *attributes,
                                        OTF2_MeasurementMode mode)
{
    (void)loc, (void)time, (void)pos, (void)attributes, (void)mode;
    return unread(ud);
}

static OTF2_CallbackCode on_context_enter(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                          void *ud, OTF2_AttributeList *attributes,
                                          OTF2_CallingContextRef context, uint32_t distance)
{
    (void)loc, (void)time, (void)pos, (void)attributes, (void)context, (void)distance;
    return unread(ud);
}

static OTF2_CallbackCode on_context_leave(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                          void *ud, OTF2_AttributeList *attributes,
                                          OTF2_CallingContextRef context)
{
    (void)loc, (void)time, (void)pos, (void)attributes, (void)context;
    return unread(ud);
}

static void unread_callbacks(OTF2_EvtReaderCallbacks *cb)
{
    OTF2_EvtReaderCallbacks_SetProgramBeginCallback(cb, on_program_begin);
    OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, on_program_end);
    OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(cb, on_team);
    OTF2_EvtReaderCallbacks_SetThreadTeamEndCallback(cb, on_team);
    OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_measurement);
    OTF2_EvtReaderCallbacks_SetCallingContextEnterCallback(cb, on_context_enter);
    OTF2_EvtReaderCallbacks_SetCallingContextLeaveCallback(cb, on_context_leave);
}

static OTF2_EvtReaderCallbacks *callbacks(void)
{
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();

    if (!cb)
        return NULL;
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request);
    OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request_test);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request_cancelled);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_coll_begin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll_end);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, on_nbc_request);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, on_nbc_complete);
    OTF2_EvtReaderCallbacks_SetBufferFlushCallback(cb, on_flush);
    rma_callbacks(cb);
    io_callbacks(cb);
    unread_callbacks(cb);
    return cb;
}

/* Reads thread th's location into the spool.  The local definitions (mapping tables)
 * are read after its event reader exists, so that they apply to it. */
static int spool_location(struct pz_trace_in *t, OTF2_EvtReaderCallbacks *cb, int th)
{
    OTF2_Reader *otf = t->file.otf;
    OTF2_EvtReader *reader = OTF2_Reader_GetEvtReader(otf, t->defs.thread_location[th]);
    uint64_t n = 0;
    int rc = 0;

    if (!reader) {
        pz_trace_in_fail(t, "cannot read the events (damaged or truncated archive?)");
        return -1;
    }
    OTF2_Reader_RegisterEvtCallbacks(otf, reader, cb, &t->streams[th]);
    if (pz_trace_file_local_defs(&t->file, &t->defs, th) != 0) {
        OTF2_Reader_CloseEvtReader(otf, reader);
        return -1;
    }
    do {
        if (OTF2_EvtReader_ReadEvents(reader, PZ_PROGRESS_BATCH, &n) != OTF2_SUCCESS &&
            !t->spool_failed) {
            pz_trace_in_fail(t, "cannot read the events (damaged or truncated archive?)");
            rc = -1;
        }
        t->events_read += n;
        pz_progress_tell(t->progress, "events read", t->events_read, t->events);
    } while (rc == 0 && n == PZ_PROGRESS_BATCH && !t->spool_failed);
    if (spool_filled(t, th) != 0 || t->spool_failed) {
        pz_trace_in_fail(t, "cannot write the temporary file of the records (disk full?)");
        rc = -1;
    }
    OTF2_Reader_CloseEvtReader(otf, reader);
    return rc;
}

static int open_streams(struct pz_trace_in *t)
{
    OTF2_EvtReaderCallbacks *cb = callbacks();
    char why[512];
    int rc = 0;

    if (!cb || !(t->streams = calloc((size_t)t->defs.nthreads, sizeof(*t->streams))) ||
        !(t->head.rings = calloc((size_t)t->defs.nthreads, sizeof(*t->head.rings)))) {
        OTF2_EvtReaderCallbacks_Delete(cb);
        pz_trace_in_fail(t, "out of memory");
        return -1;
    }
    if (!(t->spool = pz_spool_new(t->defs.nthreads, why, sizeof(why)))) {
        OTF2_EvtReaderCallbacks_Delete(cb);
        pz_trace_in_fail(t, why);
        return -1;
    }
    for (int th = 0; th < t->defs.nthreads && rc == 0; th++) {
        t->streams[th].t = t;
        t->streams[th].thread = th;
        rc = spool_location(t, cb, th);
    }
    OTF2_EvtReaderCallbacks_Delete(cb);
    if (rc == 0 && pz_spool_finish(t->spool) != 0) {
        pz_trace_in_fail(t, "cannot write the temporary file of the records (disk full?)");
        rc = -1;
    }
    return rc;
}

/* Every record is in the spool once open: the archive is closed then. */
struct pz_trace_in *pz_trace_in_open(const char *path, char *err, size_t errlen)
{
    return pz_trace_in_open_with_progress(path, NULL, NULL, err, errlen);
}

struct pz_trace_in *pz_trace_in_open_with_progress(const char *path,
                                                   const struct pz_progress_hook *progress,
                                                   const char *consumed, char *err,
                                                   size_t errlen)
{
    struct pz_trace_in *t = calloc(1, sizeof(*t));

    if (!t) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    t->progress = progress;
    t->consumed = consumed;
    if (pz_trace_file_open(&t->file, path, &t->defs) == 0) {
        t->events = pz_defs_thread_events(&t->defs);
        open_streams(t);
    }
    pz_trace_file_close(&t->file);
    if (t->file.error[0]) {
        snprintf(err, errlen, "%s", t->file.error);
        pz_trace_in_close(t);
        return NULL;
    }
    return t;
}

struct pz_trace_in *pz_trace_in_generated(struct pz_defs *defs, const char *name,
                                          const struct pz_trace_gen *gen, char *err,
                                          size_t errlen)
{
    struct pz_trace_in *t = calloc(1, sizeof(*t));

    if (!t) {
        snprintf(err, errlen, "%s: out of memory", name);
        pz_defs_release(defs);
        return NULL;
    }
    t->defs = *defs;
    memset(defs, 0, sizeof(*defs));
    t->gen = gen;
    snprintf(t->file.path, sizeof(t->file.path), "%s", name);
    if (!(t->streams = calloc((size_t)t->defs.nthreads, sizeof(*t->streams))) ||
        !(t->head.rings = calloc((size_t)t->defs.nthreads, sizeof(*t->head.rings)))) {
        snprintf(err, errlen, "%s: out of memory", name);
        pz_trace_in_close(t);
        return NULL;
    }
    for (int th = 0; th < t->defs.nthreads; th++) {
        t->streams[th].t = t;
        t->streams[th].thread = th;
    }
    return t;
}

void pz_trace_in_close(struct pz_trace_in *t)
{
    if (!t)
        return;
    for (int th = 0; t->head.rings && th < t->defs.nthreads; th++)
        free(t->head.rings[th].ring);
    free(t->head.rings);
    free(t->streams);
    pz_spool_free(t->spool);
    pz_defs_release(&t->defs);
    pz_ahead_free(t->ahead);
    free(t);
}

void pz_trace_in_keep_io(struct pz_trace_in *t)
{
    t->keep_io = 1;
}

void pz_trace_in_fail(struct pz_trace_in *t, const char *what)
{
    pz_trace_file_fail(&t->file, "%s", what);
}

/* A generated record of thread th, appended to its ring. */
static int put(void *sink, int th, const struct pz_rec *rec)
{
    struct pz_trace_in *t = sink;
    struct pz_trace_ring *s = &t->head.rings[th];

    if (reserve(s, 1) != 0)
        return -1;
    s->ring[(s->head + s->count++) & (s->cap - 1)] = *rec;
    t->records++;
    return 0;
}

/* Asks the generator for thread th's next records; 0 when there are none left. */
static int generate_more(struct pz_trace_in *t, int th)
{
    struct stream *st = &t->streams[th];
    size_t before = t->head.rings[th].count;
    char why[1024];
    int rc;

    while (!st->ended && t->head.rings[th].count == before) {
        why[0] = '\0';
        rc = t->gen->more(t->gen->ctx, th, put, t, why, sizeof(why));
        if (rc <= 0) {
            st->ended = 1;
            if (rc < 0)
                pz_trace_in_fail(t, why[0] ? why : "out of memory");
        }
    }
    return t->head.rings[th].count > before;
}

/* Reads more records of thread th from the spool, straight into its ring, as many as
 * fit (at most READ_BATCH: the ring grows only when it is full, so that it stays small
 * while the replay looks ahead a few records), leaving out or not counting those of
 * I/O operations (pz_trace_in_keep_io); 0 when there are none left. */
static int read_more(struct pz_trace_in *t, int th)
{
    struct stream *st = &t->streams[th];
    struct pz_trace_ring *s = &t->head.rings[th];
    size_t before = s->count, want, io = 0;

    if (st->ended)
        return 0;
    if (t->gen)
        return generate_more(t, th);
    if (reserve(s, 1) != 0) {
        pz_trace_in_fail(t, "out of memory");
        st->ended = 1;
        return 0;
    }
    want = s->cap - s->count < READ_BATCH ? s->cap - s->count : READ_BATCH;
    while (s->count - before < want) {
        struct pz_rec *r = &s->ring[(s->head + s->count) & (s->cap - 1)];
        int got = pz_spool_next(t->spool, th, r);

        if (got <= 0) {
            st->ended = 1;
            if (got < 0)
                pz_trace_in_fail(t, "cannot read the temporary file of the records");
            break;
        }
        if (pz_rec_is_io(r->kind) && !t->keep_io)
            continue;
        io += pz_rec_is_io(r->kind);
        s->count++;
    }
    if ((t->records + s->count - before - io) / PZ_PROGRESS_BATCH !=
        t->records / PZ_PROGRESS_BATCH)
        pz_progress_tell(t->progress, t->consumed, t->records + s->count - before - io,
                         t->spooled);
    t->records += s->count - before - io;
    return s->count > before;
}

const struct pz_rec *pz_trace_in_peek_more(struct pz_trace_in *t, int th, size_t ahead)
{
    const struct pz_trace_ring *s = &t->head.rings[th];

    while (s->count <= ahead)
        if (!read_more(t, th))
            return NULL;
    return &s->ring[(s->head + ahead) & (s->cap - 1)];
}

void pz_trace_in_consume(struct pz_trace_in *t, int th, size_t n)
{
    struct pz_trace_ring *s = &t->head.rings[th];

    if (n > s->count)
        n = s->count;
    s->head = (s->head + n) & (s->cap - 1);
    s->count -= n;
    if (t->ahead)
        pz_ahead_consumed(t->ahead, th, n);
}

const struct pz_rec *pz_trace_in_completion_ahead(struct pz_trace_in *t, int th, size_t from,
                                                  uint64_t id, uint8_t a, uint8_t b,
                                                  int *failed)
{
    if (!t->ahead && !(t->ahead = pz_ahead_new(t->defs.nthreads))) {
        *failed = 1;
        return NULL;
    }
    return pz_ahead_find(t->ahead, t, th, from, id, a, b, failed);
}

int pz_trace_in_nprocs(const struct pz_trace_in *t)
{
    return t->defs.nprocs;
}

int pz_trace_in_nthreads(const struct pz_trace_in *t)
{
    return t->defs.nthreads;
}

int pz_trace_in_rank(const struct pz_trace_in *t, int th)
{
    return t->defs.thread_rank[th];
}

int pz_trace_in_thread(const struct pz_trace_in *t, int th)
{
    return th - t->defs.first_thread[t->defs.thread_rank[th]];
}

int pz_trace_in_first(const struct pz_trace_in *t, int p)
{
    return t->defs.first_thread[p];
}

const uint64_t *pz_trace_in_locations(const struct pz_trace_in *t)
{
    return t->defs.thread_location;
}

const struct pz_recording *pz_trace_in_recording(const struct pz_trace_in *t)
{
    return &t->defs.recording;
}

double pz_trace_in_resolution(const struct pz_trace_in *t)
{
    return (double)t->defs.resolution;
}

uint64_t pz_trace_in_offset(const struct pz_trace_in *t)
{
    return t->defs.offset;
}

const char *pz_trace_in_error(const struct pz_trace_in *t)
{
    return t->file.error[0] ? t->file.error : NULL;
}

int pz_trace_in_unread_events(const struct pz_trace_in *t)
{
    return t->unread_events;
}

uint64_t pz_trace_in_records(const struct pz_trace_in *t)
{
    return t->records;
}
