/* The wrapper's in-memory form of a traced MPI call, kept until a buffer flush turns it
 * into OTF2 events (translate.c).  A record header is followed by its items, the MPI
 * events of the call: a blocking send is one record with one item. */
#ifndef PZ_RECORD_H
#define PZ_RECORD_H

#include <stddef.h>
#include <stdint.h>

enum pz_item_kind {
    /* written at the call's enter time */
    PZ_ITEM_SEND,              /* MpiSend */
    PZ_ITEM_ISEND,             /* MpiIsend */
    PZ_ITEM_IRECV_REQUEST,     /* MpiIrecvRequest */
    PZ_ITEM_NBC_REQUEST,       /* NonBlockingCollectiveRequest */
    /* written at the call's leave time */
    PZ_ITEM_RECV,              /* MpiRecv */
    PZ_ITEM_ISEND_COMPLETE,    /* MpiIsendComplete */
    PZ_ITEM_IRECV_COMPLETE,    /* MpiIrecv */
    PZ_ITEM_REQUEST_TEST,      /* MpiRequestTest: a test that did not complete it */
    PZ_ITEM_REQUEST_CANCELLED, /* MpiRequestCancelled */
    PZ_ITEM_NBC_COMPLETE,      /* NonBlockingCollectiveComplete */
    /* MpiCollectiveBegin at enter, MpiCollectiveEnd at leave */
    PZ_ITEM_COLL,
    /* MPI-IO (hooks_io.h): comm is the local handle reference (handles.h) */
    PZ_ITEM_IO_BEGIN,          /* IoOperationBegin, at enter: collective holds the
                                  operation mode, tag its flags, bytes those requested,
                                  request the matching id */
    PZ_ITEM_IO_ISSUED,         /* IoOperationIssued, at leave (nonblocking operations) */
    PZ_ITEM_IO_COMPLETE,       /* IoOperationComplete, at leave: bytes transferred (or the
                                  status kept), request the matching id */
    PZ_ITEM_IO_CREATE,         /* IoCreateHandle, at leave: collective holds the access
                                  mode, tag the creation flags, bytes the status flags */
    PZ_ITEM_IO_DESTROY,        /* IoDestroyHandle, at leave */
    PZ_ITEM_IO_SEEK,           /* IoSeek, at leave: tag whence, bytes the offset
                                  requested, bytes_received the resulting offset */
    /* one-sided communication (hooks_rma.h): comm is the local window reference, peer
       the target rank (-1: all of the window's) */
    PZ_ITEM_RMA_COLL_BEGIN,    /* RmaCollectiveBegin, at enter */
    PZ_ITEM_RMA_WIN_DESTROY,   /* RmaWinDestroy, at enter */
    PZ_ITEM_RMA_PUT,           /* RmaPut, at enter: bytes */
    PZ_ITEM_RMA_GET,           /* RmaGet, at enter: bytes */
    PZ_ITEM_RMA_ATOMIC,        /* RmaAtomic, at enter: collective holds the atomic type,
                                  bytes those sent, bytes_received those received */
    PZ_ITEM_RMA_WIN_CREATE,    /* RmaWinCreate, at leave */
    PZ_ITEM_RMA_COLL_END,      /* RmaCollectiveEnd, at leave: collective holds the
                                  operation, tag the sync level */
    PZ_ITEM_RMA_REQUEST_LOCK,  /* RmaRequestLock, at leave: collective holds the lock
                                  type, request the lock id */
    PZ_ITEM_RMA_RELEASE_LOCK,  /* RmaReleaseLock, at leave: request the lock id */
    PZ_ITEM_RMA_SYNC,          /* RmaSync, at leave: tag the sync type */
    PZ_ITEM_RMA_OP_COMPLETE,   /* RmaOpCompleteNonBlocking, at leave: request the
                                  matching id of the request-based operation */
    PZ_ITEM_RMA_GROUP_SYNC,    /* RmaGroupSync, at leave: tag the sync level, request the
                                  local reference of the epoch's group (rma_groups.h) */
};

/* One MPI event of a call.  Ranks are ranks in the communicator. */
struct pz_item {
    uint8_t kind;              /* enum pz_item_kind */
    uint8_t collective;        /* enum pz_coll_op, for collective items */
    uint16_t flags;            /* PZ_ITEM_KEEPS_STATUS, PZ_ITEM_CREATES_HANDLE */
    uint32_t comm;             /* local communicator reference (comms.h) */
    int32_t peer;              /* destination, source or root */
    int32_t tag;
    uint64_t request;          /* request id linking a post to its completion */
    uint64_t bytes;            /* bytes sent, or received by a receive */
    uint64_t bytes_received;   /* collectives: bytes received */
    uint32_t send_counts;      /* v/w collectives: local ids of per-peer byte lists */
    uint32_t recv_counts;      /* (vcounts.h), PZ_NO_COUNTS without */
};

/* No per-peer byte list (struct pz_item). */
#define PZ_NO_COUNTS UINT32_MAX

/* A completed receive (PZ_ITEM_RECV, PZ_ITEM_IRECV_COMPLETE, PZ_ITEM_IO_COMPLETE) keeps its MPI_Status in
 * the 24 bytes from bytes on, instead of bytes, bytes_received and the byte lists, which
 * a receive does not have: its size in bytes is asked of MPI when the record is written
 * out, not while the program waits for its call to return. */
#define PZ_ITEM_KEEPS_STATUS 1u
#define PZ_ITEM_STATUS_ROOM (sizeof(struct pz_item) - offsetof(struct pz_item, bytes))

/* A collective item of a communicator constructor: written with the operation
 * CREATE_HANDLE on the parent communicator, as Score-P does (trace/constructor.h). */
#define PZ_ITEM_CREATES_HANDLE 2u

/* A receive (PZ_ITEM_RECV, PZ_ITEM_IRECV_COMPLETE) posted with MPI_ANY_SOURCE: its event
 * carries the attribute prognoz:any_source, as its peer is the sender that matched. */
#define PZ_ITEM_ANY_SOURCE 4u

/* Record types beyond the MPI call ids (enum pz_call_id). */
#define PZ_RECORD_FLUSH 0xffffu  /* the wrapper flushed its buffer from enter to leave */
#define PZ_RECORD_BEGIN 0xfffeu  /* interval `interval` began at enter (markers.h) */
#define PZ_RECORD_END 0xfffdu    /* interval `interval` ended at enter */

struct pz_record {
    uint64_t enter;            /* ticks (clock.h), ns once translated */
    uint64_t leave;
    uint16_t call;             /* enum pz_call_id or PZ_RECORD_* */
    uint16_t nitems;           /* items that follow */
    uint32_t aux;              /* PZ_RECORD_BEGIN/END: local interval number, and
                                  PZ_MARKER_CPU; MPI calls: PZ_AUX_* of what follows
                                  the items */
};

/* PZ_RECORD_BEGIN/END: the thread's CPU time in ns (a uint64_t) follows the record,
 * PROGNOZ_CPU_TIME=1. */
#define PZ_MARKER_CPU 0x80000000u

/* What may follow an MPI call's items, in this order: */
/* the return address of the call (a uintptr_t), PROGNOZ_CALLSITES=1 */
#define PZ_AUX_SITE 1u
/* the calling thread's CPU time in ns at enter and at leave (two uint64_t),
 * PROGNOZ_CPU_TIME=1 */
#define PZ_AUX_CPU 2u

/* Bytes of what follows the items of an MPI call's record whose aux is aux. */
static inline size_t pz_record_trailer(uint32_t aux)
{
    return (aux & PZ_AUX_SITE ? sizeof(uintptr_t) : 0) +
           (aux & PZ_AUX_CPU ? 2 * sizeof(uint64_t) : 0);
}

/* Bytes of what follows the items of record r. */
static inline size_t pz_record_trailer_of(const struct pz_record *r)
{
    if (r->call < PZ_RECORD_END)
        return pz_record_trailer(r->aux);
    return r->call != PZ_RECORD_FLUSH && (r->aux & PZ_MARKER_CPU) ? sizeof(uint64_t) : 0;
}

/* Bytes of record r with its items, call site and CPU times. */
static inline size_t pz_record_size(const struct pz_record *r)
{
    return sizeof(*r) + (size_t)r->nitems * sizeof(struct pz_item) + pz_record_trailer_of(r);
}

#endif
