/* A recorded run as the predictor reads it: the OTF2 archive's definitions the replay
 * needs, and per process one stream of event records (trace_in.c), read on demand so
 * that only the records not yet replayed are in memory (000's "data server").  The
 * predicted trace is written back from the same records with new times (trace_out.c). */
#ifndef PZ_TRACE_H
#define PZ_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define PZ_NONE32 UINT32_MAX
#define PZ_NONE64 UINT64_MAX

/* The events the replay understands; others are not read.  The I/O records are read
 * only for the replay (pz_trace_in_keep_io): other readers never see them. */
enum pz_rec_kind {
    PZ_REC_ENTER, PZ_REC_LEAVE,
    PZ_REC_SEND, PZ_REC_RECV,                       /* MpiSend, MpiRecv */
    PZ_REC_ISEND, PZ_REC_ISEND_COMPLETE,            /* MpiIsend, MpiIsendComplete */
    PZ_REC_IRECV_REQUEST, PZ_REC_IRECV,             /* MpiIrecvRequest, MpiIrecv */
    PZ_REC_REQUEST_TEST, PZ_REC_REQUEST_CANCELLED,
    PZ_REC_COLL_BEGIN, PZ_REC_COLL_END,             /* MpiCollectiveBegin/End */
    PZ_REC_NBC_REQUEST, PZ_REC_NBC_COMPLETE,        /* NonBlockingCollectiveRequest/Complete */
    PZ_REC_FLUSH,                                   /* BufferFlush: the recorder's own time */
    /* one-sided communication, on the window in comm (docs/trace-format.md) */
    PZ_REC_RMA_WIN_CREATE, PZ_REC_RMA_WIN_DESTROY,  /* RmaWinCreate, RmaWinDestroy */
    PZ_REC_RMA_COLL_BEGIN, PZ_REC_RMA_COLL_END,     /* RmaCollectiveBegin/End */
    PZ_REC_RMA_PUT, PZ_REC_RMA_GET, PZ_REC_RMA_ATOMIC,   /* RmaPut, RmaGet, RmaAtomic */
    PZ_REC_RMA_OP_COMPLETE,                         /* RmaOpCompleteNonBlocking */
    PZ_REC_RMA_LOCK, PZ_REC_RMA_RELEASE,            /* RmaRequestLock, RmaReleaseLock */
    PZ_REC_RMA_SYNC,                                /* RmaSync */
    PZ_REC_RMA_GROUP_SYNC,                          /* RmaGroupSync */
    /* I/O, on the handle in comm; operations' matching id in request (last: pz_rec_is_io) */
    PZ_REC_IO_BEGIN,            /* IoOperationBegin */
    PZ_REC_IO_COMPLETE,         /* IoOperationComplete */
    PZ_REC_IO_ISSUED,           /* IoOperationIssued */
    PZ_REC_IO_CREATE_HANDLE,    /* IoCreateHandle */
    PZ_REC_IO_DESTROY_HANDLE,   /* IoDestroyHandle */
    PZ_REC_IO_SEEK,             /* IoSeek */
};

/* A record of one-sided communication (RmaWinCreate ... RmaGroupSync). */
static inline int pz_rec_is_rma(uint8_t kind)
{
    return kind >= PZ_REC_RMA_WIN_CREATE && kind <= PZ_REC_RMA_GROUP_SYNC;
}

/* Whether a record of kind is an I/O record. */
static inline int pz_rec_is_io(uint8_t kind)
{
    return kind >= PZ_REC_IO_BEGIN;
}

/* One event of one process, with global definition references (OTF2's mappings already
 * applied). */
struct pz_rec {
    uint64_t time;           /* recorded timestamp, in the archive's ticks */
    uint8_t kind;            /* enum pz_rec_kind */
    uint8_t coll_op;         /* OTF2_CollectiveOp of COLL_END, NBC_COMPLETE and
                                RMA_COLL_END; OTF2_RmaAtomicType of RMA_ATOMIC,
                                OTF2_LockType of RMA_LOCK, OTF2_RmaSyncType of RMA_SYNC;
                                OTF2_IoAccessMode of IO_CREATE_HANDLE, OTF2_IoSeekOption
                                of IO_SEEK */
    uint8_t any_source;      /* prognoz:any_source: 1 on a RECV or IRECV posted with
                                MPI_ANY_SOURCE (its peer is the sender that matched); 0
                                otherwise, and in traces recorded before the mark */
    uint32_t region;         /* ENTER, LEAVE */
    uint32_t comm;           /* message and collective events; RMA events: the window;
                                I/O events: the I/O handle */
    uint32_t peer;           /* receiver of sends, sender of receives, root of collectives
                                (rank in comm; PZ_NONE32: no root); the target of RMA
                                events (rank in the window's communicator; PZ_NONE32:
                                every process); the group of RMA_GROUP_SYNC;
                                OTF2_IoOperationFlag of IO_BEGIN, OTF2_IoStatusFlag of
                                IO_CREATE_HANDLE */
    uint32_t tag;            /* RMA_COLL_END, RMA_GROUP_SYNC: its OTF2_RmaSyncLevel;
                                IO_BEGIN: its OTF2_IoOperationMode; IO_CREATE_HANDLE:
                                its OTF2_IoCreationFlag */
    uint64_t bytes;          /* message length; collectives: bytes sent; RMA: bytes (sent);
                                IO_BEGIN: bytes requested; IO_COMPLETE: transferred;
                                IO_SEEK: the offset requested (an int64_t) */
    uint64_t bytes2;         /* collectives, RMA_ATOMIC: bytes received; FLUSH: its end
                                time; IO_SEEK: the resulting offset */
    uint64_t request;        /* request id of nonblocking events; RMA: the matching id
                                (0: none), the lock id of RMA_LOCK and RMA_RELEASE; I/O:
                                the matching id */
    /* attributes (PZ_NONE32 / PZ_NONE64 when absent) */
    uint32_t callsite;       /* prognoz:callsite, a source code location (ENTER) */
    uint32_t send_list, recv_list;   /* prognoz:send_bytes / recv_bytes strings (ends of
                                        collectives) */
    uint64_t cpu;            /* prognoz:cpu_time: thread CPU ns (ENTER, LEAVE of MPI calls) */
};

#endif
