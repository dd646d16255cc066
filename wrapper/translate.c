/* Records to OTF2 events.  Events an MPI call starts (sends, posts, collective begin)
 * are written at its enter time, those it completes at its leave time. */
#include <mpi.h>
#include <string.h>

#include "calls_gen.h"
#include "sites.h"
#include "translate.h"
#include "vcounts.h"

static int written_at_enter(int kind)
{
    return kind <= PZ_ITEM_NBC_REQUEST || kind == PZ_ITEM_COLL || kind == PZ_ITEM_IO_BEGIN ||
           (kind >= PZ_ITEM_RMA_COLL_BEGIN && kind <= PZ_ITEM_RMA_ATOMIC);
}

/* The target of a one-sided event: OTF2's undefined rank for all of the window's. */
static uint32_t remote_of(const struct pz_item *it)
{
    return it->peer < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)it->peer;
}

static uint32_t root_of(const struct pz_item *it)
{
    return it->peer < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)it->peer;
}

static void at_enter(OTF2_EvtWriter *w, uint64_t t, const struct pz_item *it)
{
    switch (it->kind) {
    case PZ_ITEM_SEND:
        OTF2_EvtWriter_MpiSend(w, NULL, t, (uint32_t)it->peer, it->comm, (uint32_t)it->tag,
                               it->bytes);
        break;
    case PZ_ITEM_ISEND:
        OTF2_EvtWriter_MpiIsend(w, NULL, t, (uint32_t)it->peer, it->comm, (uint32_t)it->tag,
                                it->bytes, it->request);
        break;
    case PZ_ITEM_IRECV_REQUEST:
        OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t, it->request);
        break;
    case PZ_ITEM_NBC_REQUEST:
        OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, t, it->request);
        break;
    case PZ_ITEM_COLL:
        OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t);
        break;
    case PZ_ITEM_IO_BEGIN:
        OTF2_EvtWriter_IoOperationBegin(w, NULL, t, it->comm, it->collective, (uint32_t)it->tag,
                                        it->bytes, it->request);
        break;
    case PZ_ITEM_RMA_COLL_BEGIN:
        OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, t);
        break;
    case PZ_ITEM_RMA_WIN_DESTROY:
        OTF2_EvtWriter_RmaWinDestroy(w, NULL, t, it->comm);
        break;
    case PZ_ITEM_RMA_PUT:
        OTF2_EvtWriter_RmaPut(w, NULL, t, it->comm, remote_of(it), it->bytes, it->request);
        break;
    case PZ_ITEM_RMA_GET:
        OTF2_EvtWriter_RmaGet(w, NULL, t, it->comm, remote_of(it), it->bytes, it->request);
        break;
    case PZ_ITEM_RMA_ATOMIC:
        OTF2_EvtWriter_RmaAtomic(w, NULL, t, it->comm, remote_of(it), it->collective, it->bytes,
                                 it->bytes_received, it->request);
        break;
    }
}

/* The per-peer byte lists of a v collective as attributes of its end event; NULL when
 * it has none. */
static OTF2_AttributeList *count_lists(const struct pz_item *it)
{
    OTF2_AttributeList *list;

    if (it->send_counts == PZ_NO_COUNTS && it->recv_counts == PZ_NO_COUNTS)
        return NULL;
    if (!(list = OTF2_AttributeList_New()))
        return NULL;
    if (it->send_counts != PZ_NO_COUNTS)
        OTF2_AttributeList_AddStringRef(list, PZ_ATTR_SEND_BYTES, it->send_counts);
    if (it->recv_counts != PZ_NO_COUNTS)
        OTF2_AttributeList_AddStringRef(list, PZ_ATTR_RECV_BYTES, it->recv_counts);
    return list;
}

static void collective_end(OTF2_EvtWriter *w, uint64_t t, const struct pz_item *it)
{
    OTF2_AttributeList *attributes = count_lists(it);
    OTF2_CollectiveOp op = it->flags & PZ_ITEM_CREATES_HANDLE
                               ? OTF2_COLLECTIVE_OP_CREATE_HANDLE
                               : pz_otf2_collective(it->collective);

    if (it->kind == PZ_ITEM_COLL)
        OTF2_EvtWriter_MpiCollectiveEnd(w, attributes, t, op, it->comm, root_of(it), it->bytes,
                                        it->bytes_received);
    else
        OTF2_EvtWriter_NonBlockingCollectiveComplete(w, attributes, t, op, it->comm,
                                                     root_of(it), it->bytes,
                                                     it->bytes_received, it->request);
    if (attributes)
        OTF2_AttributeList_Delete(attributes);
}

/* Bytes a receive got: asked of MPI now when the item kept the status (record.h). */
static uint64_t received(const struct pz_item *it)
{
    MPI_Status status;
    int n = 0;

    if (!(it->flags & PZ_ITEM_KEEPS_STATUS))
        return it->bytes;
    memcpy(&status, &it->bytes, sizeof(status));
    PMPI_Get_count(&status, MPI_BYTE, &n);
    return n > 0 ? (uint64_t)n : 0;
}

/* The MPI-IO and one-sided events written at a call's leave time (record.h). */
static void io_at_leave(OTF2_EvtWriter *w, uint64_t t, const struct pz_item *it)
{
    switch (it->kind) {
    case PZ_ITEM_IO_ISSUED:
        OTF2_EvtWriter_IoOperationIssued(w, NULL, t, it->comm, it->request);
        break;
    case PZ_ITEM_IO_COMPLETE:
        OTF2_EvtWriter_IoOperationComplete(w, NULL, t, it->comm, received(it), it->request);
        break;
    case PZ_ITEM_IO_CREATE:
        OTF2_EvtWriter_IoCreateHandle(w, NULL, t, it->comm, it->collective, (uint32_t)it->tag,
                                      (uint32_t)it->bytes);
        break;
    case PZ_ITEM_IO_DESTROY:
        OTF2_EvtWriter_IoDestroyHandle(w, NULL, t, it->comm);
        break;
    case PZ_ITEM_IO_SEEK:
        OTF2_EvtWriter_IoSeek(w, NULL, t, it->comm, (int64_t)it->bytes, (uint8_t)it->tag,
                              it->bytes_received);
        break;
    case PZ_ITEM_RMA_WIN_CREATE:
        OTF2_EvtWriter_RmaWinCreate(w, NULL, t, it->comm);
        break;
    case PZ_ITEM_RMA_COLL_END:
        OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, t, it->collective, (uint32_t)it->tag, it->comm,
                                        OTF2_UNDEFINED_UINT32, 0, 0);
        break;
    case PZ_ITEM_RMA_REQUEST_LOCK:
        OTF2_EvtWriter_RmaRequestLock(w, NULL, t, it->comm, remote_of(it), it->request,
                                      it->collective);
        break;
    case PZ_ITEM_RMA_RELEASE_LOCK:
        OTF2_EvtWriter_RmaReleaseLock(w, NULL, t, it->comm, remote_of(it), it->request);
        break;
    case PZ_ITEM_RMA_SYNC:
        OTF2_EvtWriter_RmaSync(w, NULL, t, it->comm, remote_of(it), (uint8_t)it->tag);
        break;
    case PZ_ITEM_RMA_OP_COMPLETE:
        OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, NULL, t, it->comm, it->request);
        break;
    case PZ_ITEM_RMA_GROUP_SYNC:
        OTF2_EvtWriter_RmaGroupSync(w, NULL, t, (OTF2_RmaSyncLevel)it->tag, it->comm,
                                    (OTF2_GroupRef)it->request);
        break;
    }
}

/* The attribute of a receive posted with MPI_ANY_SOURCE; NULL for any other. */
static OTF2_AttributeList *any_source(const struct pz_item *it)
{
    OTF2_AttributeList *list;

    if (!(it->flags & PZ_ITEM_ANY_SOURCE) || !(list = OTF2_AttributeList_New()))
        return NULL;
    OTF2_AttributeList_AddUint8(list, PZ_ATTR_ANY_SOURCE, 1);
    return list;
}

/* MpiRecv or MpiIrecv of a receive item. */
static void receive(OTF2_EvtWriter *w, uint64_t t, const struct pz_item *it)
{
    OTF2_AttributeList *attributes = any_source(it);

    if (it->kind == PZ_ITEM_RECV)
        OTF2_EvtWriter_MpiRecv(w, attributes, t, (uint32_t)it->peer, it->comm,
                               (uint32_t)it->tag, received(it));
    else
        OTF2_EvtWriter_MpiIrecv(w, attributes, t, (uint32_t)it->peer, it->comm,
                                (uint32_t)it->tag, received(it), it->request);
    if (attributes)
        OTF2_AttributeList_Delete(attributes);
}

static void at_leave(OTF2_EvtWriter *w, uint64_t t, const struct pz_item *it)
{
    switch (it->kind) {
    case PZ_ITEM_RECV:
    case PZ_ITEM_IRECV_COMPLETE:
        receive(w, t, it);
        break;
    case PZ_ITEM_ISEND_COMPLETE:
        OTF2_EvtWriter_MpiIsendComplete(w, NULL, t, it->request);
        break;
    case PZ_ITEM_REQUEST_TEST:
        OTF2_EvtWriter_MpiRequestTest(w, NULL, t, it->request);
        break;
    case PZ_ITEM_REQUEST_CANCELLED:
        OTF2_EvtWriter_MpiRequestCancelled(w, NULL, t, it->request);
        break;
    case PZ_ITEM_NBC_COMPLETE:
    case PZ_ITEM_COLL:
        collective_end(w, t, it);
        break;
    default:
        io_at_leave(w, t, it);
        break;
    }
}

/* What was recorded after the items of an MPI call (record.h). */
struct trailer {
    uintptr_t site;
    uint64_t cpu[2];           /* thread CPU time at enter and at leave */
};

static void read_trailer(const struct pz_record *r, const struct pz_item *items,
                         struct trailer *tr)
{
    const unsigned char *p = (const unsigned char *)(items + r->nitems);

    if (r->aux & PZ_AUX_SITE) {
        memcpy(&tr->site, p, sizeof(tr->site));
        p += sizeof(tr->site);
    }
    if (r->aux & PZ_AUX_CPU)
        memcpy(tr->cpu, p, sizeof(tr->cpu));
}

/* The call's Enter, with its call site and CPU time when they were recorded; list is
 * where they go, NULL when there are none (OTF2 empties it once the event is written). */
static void enter(OTF2_EvtWriter *w, const struct pz_record *r, const struct trailer *tr,
                  OTF2_AttributeList *list)
{
    uint32_t number;

    if (list && (r->aux & PZ_AUX_SITE) && (number = pz_sites_number(tr->site)) != UINT32_MAX)
        OTF2_AttributeList_AddSourceCodeLocationRef(list, PZ_ATTR_CALLSITE, number);
    if (list && (r->aux & PZ_AUX_CPU))
        OTF2_AttributeList_AddUint64(list, PZ_ATTR_CPU_TIME, tr->cpu[0]);
    OTF2_EvtWriter_Enter(w, list, r->enter, r->call);
}

/* The call's Leave, with its CPU time when it was recorded. */
static void leave(OTF2_EvtWriter *w, const struct pz_record *r, const struct trailer *tr,
                  OTF2_AttributeList *list)
{
    if (list && (r->aux & PZ_AUX_CPU))
        OTF2_AttributeList_AddUint64(list, PZ_ATTR_CPU_TIME, tr->cpu[1]);
    OTF2_EvtWriter_Leave(w, list, r->leave, r->call);
}

/* An interval's Enter or Leave, with the thread's CPU time when it was recorded. */
static void marker(OTF2_EvtWriter *w, const struct pz_record *r)
{
    OTF2_AttributeList *list = NULL;
    uint32_t region = PZ_NCALLS + (r->aux & ~PZ_MARKER_CPU);
    uint64_t cpu;

    if ((r->aux & PZ_MARKER_CPU) && (list = OTF2_AttributeList_New())) {
        memcpy(&cpu, r + 1, sizeof(cpu));
        OTF2_AttributeList_AddUint64(list, PZ_ATTR_CPU_TIME, cpu);
    }
    if (r->call == PZ_RECORD_BEGIN)
        OTF2_EvtWriter_Enter(w, list, r->enter, region);
    else
        OTF2_EvtWriter_Leave(w, list, r->enter, region);
    if (list)
        OTF2_AttributeList_Delete(list);
}

uint64_t pz_translate(OTF2_EvtWriter *w, const struct pz_record *r,
                      const struct pz_item *items)
{
    OTF2_AttributeList *list = NULL;
    struct trailer tr = { 0 };
    uint64_t n = 2;

    switch (r->call) {
    case PZ_RECORD_FLUSH:
        OTF2_EvtWriter_BufferFlush(w, NULL, r->enter, r->leave);
        return 1;
    case PZ_RECORD_BEGIN:
    case PZ_RECORD_END:
        marker(w, r);
        return 1;
    }
    if (r->aux & (PZ_AUX_SITE | PZ_AUX_CPU)) {
        read_trailer(r, items, &tr);
        list = OTF2_AttributeList_New();
    }
    enter(w, r, &tr, list);
    for (uint16_t i = 0; i < r->nitems; i++) {
        if (written_at_enter(items[i].kind)) {
            at_enter(w, r->enter, &items[i]);
            n++;
        }
    }
    for (uint16_t i = 0; i < r->nitems; i++) {
        if (!written_at_enter(items[i].kind) || items[i].kind == PZ_ITEM_COLL) {
            at_leave(w, r->leave, &items[i]);
            n++;
        }
    }
    leave(w, r, &tr, list);
    if (list)
        OTF2_AttributeList_Delete(list);
    return n;
}


OTF2_CollectiveOp pz_otf2_collective(int collective)
{
    return pz_colls[collective].otf2_op;
}
