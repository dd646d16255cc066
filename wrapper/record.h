/* The wrapper's in-memory form of a traced MPI call, kept until a buffer flush turns it
 * into OTF2 events (translate.c).  A record header is followed by its items, the MPI
 * events of the call: a blocking send is one record with one item. */
#ifndef PZ_RECORD_H
#define PZ_RECORD_H

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
};

/* One MPI event of a call.  Ranks are ranks in the communicator. */
struct pz_item {
    uint8_t kind;              /* enum pz_item_kind */
    uint8_t collective;        /* enum pz_collective, for collective items */
    uint16_t unused;
    uint32_t comm;             /* local communicator reference (comms.h) */
    int32_t peer;              /* destination, source or root */
    int32_t tag;
    uint64_t bytes;            /* bytes sent, or received by a receive */
    uint64_t bytes_received;   /* collectives: bytes received */
    uint64_t request;          /* request id linking a post to its completion */
    uint32_t send_counts;      /* v/w collectives: local ids of per-peer byte lists */
    uint32_t recv_counts;      /* (vcounts.h), PZ_NO_COUNTS without */
};

/* No per-peer byte list (struct pz_item). */
#define PZ_NO_COUNTS UINT32_MAX

/* Record types beyond the MPI call ids (enum pz_call_id). */
#define PZ_RECORD_FLUSH 0xffffu  /* the wrapper flushed its buffer from enter to leave */

struct pz_record {
    uint64_t enter;            /* ticks (clock.h), ns once translated */
    uint64_t leave;
    uint16_t call;             /* enum pz_call_id or PZ_RECORD_FLUSH */
    uint16_t nitems;           /* items that follow */
    uint32_t unused;
};

#endif
