/* Writing a predicted run as an OTF2 archive (trace_out.h).
 *
 * The events come as they are predicted, every thread's interleaved: they are spooled
 * (spool.h, a small buffer per thread) and written at the close one location at a time,
 * so that one OTF2 event writer, with its chunk, is alive at a time rather than one per
 * thread; references are the recorded archive's.  The definitions are copied from the recorded archive
 * at the end (trace_defs.c), when the span of the predicted times and the number of
 * events of each location are known; those of a synthesized run never written are
 * written as its synthesized archive's would be (synth_defs.c).  The archive is written by this one process, with
 * OTF2's serial collective callbacks, like a test's or gentrace's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "anchor.h"
#include "def_chunk.h"
#include "spool.h"
#include "synth_defs.h"
#include "trace_complaints.h"
#include "trace_defs.h"
#include "trace_out.h"

/* The smallest chunk OTF2 takes (the events of a location are the same whatever it
 * is); the definitions' as def_chunk.h says. */
#define EVENT_CHUNK (256 * 1024)

struct pz_trace_out {
    char anchor[4096];                   /* of the recorded archive */
    char path[4096];                     /* DIR/traces.otf2, written */
    OTF2_Archive *archive;
    struct pz_out_location *locs;        /* sorted by id */
    size_t nlocs;
    size_t *slot;                        /* of each thread's location in locs */
    int nthreads;
    OTF2_AttributeRef attributes[PZ_OUT_NATTRIBUTES];
    OTF2_AttributeList *list;
    struct pz_spool *spool;              /* each thread's events until the close */
    uint64_t end;                        /* the latest time written */
    int failed;                          /* an event could not be written */
    /* a synthesized run's: its recording, and its communicators (not copied) */
    int synthesized;
    struct pz_synth_recorded recorded;
    const struct pz_synth_comm *comms;
    uint32_t ncomms;
    const char *const *lists;            /* its per-peer byte lists (not copied) */
    uint32_t nlists;
};

static OTF2_FlushType always_flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                                   void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { always_flush, NULL };

/* An OTF2 anchor file starts with a byte-order mark and "OTF2": anything else gets a
 * plain answer rather than OTF2's complaint about its name. */
static int check_anchor(const char *path, char *err, size_t errlen)
{
    if (pz_is_anchor(path))
        return 0;
    if (access(path, R_OK) != 0)
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
    else
        snprintf(err, errlen, "%s: not an OTF2 archive (no OTF2 anchor file)", path);
    return -1;
}

static int by_id(const void *x, const void *y)
{
    const struct pz_out_location *a = x, *b = y;

    return (a->id > b->id) - (a->id < b->id);
}

/* The locations, sorted for the copy's look-ups, and each thread's one among them;
 * each given once. */
static int set_locations(struct pz_trace_out *o, const uint64_t *locations, char *err,
                         size_t errlen)
{
    if (o->nthreads <= 0 || !locations) {
        snprintf(err, errlen, "%s: no thread to write", o->path);
        return -1;
    }
    o->nlocs = (size_t)o->nthreads;
    o->locs = calloc(o->nlocs, sizeof(*o->locs));
    o->slot = calloc(o->nlocs, sizeof(*o->slot));
    if (!o->locs || !o->slot) {
        snprintf(err, errlen, "%s: out of memory", o->path);
        return -1;
    }
    for (size_t i = 0; i < o->nlocs; i++)
        o->locs[i].id = locations[i];
    qsort(o->locs, o->nlocs, sizeof(*o->locs), by_id);
    for (size_t i = 1; i < o->nlocs; i++) {
        if (o->locs[i].id == o->locs[i - 1].id) {
            snprintf(err, errlen, "%s: location %llu is given for two threads", o->path,
                     (unsigned long long)o->locs[i].id);
            return -1;
        }
    }
    for (int th = 0; th < o->nthreads; th++)
        o->slot[th] =
            (size_t)(pz_out_location_find(o->locs, o->nlocs, locations[th]) - o->locs);
    return 0;
}

/* What the recorded archive defines: every location written, and the attributes. */
static int scan_recorded(struct pz_trace_out *o, char *err, size_t errlen)
{
    if (check_anchor(o->anchor, err, errlen) != 0 ||
        pz_out_defs_scan(o->anchor, o->locs, o->nlocs, o->attributes, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < o->nlocs; i++) {
        if (!o->locs[i].defined) {
            snprintf(err, errlen, "%s: the archive has no location %llu", o->anchor,
                     (unsigned long long)o->locs[i].id);
            return -1;
        }
    }
    return 0;
}

/* The new archive in dir, and the spool of its events. */
static int create_archive(struct pz_trace_out *o, const char *dir, char *err, size_t errlen)
{
    struct stat st;
    char why[1024];
    int ok;

    if (stat(o->path, &st) == 0) {
        snprintf(err, errlen, "%s: a trace is there already", o->path);
        return -1;
    }
    o->archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, EVENT_CHUNK,
                                   pz_def_chunk(o->nlocs), OTF2_SUBSTRATE_POSIX,
                                   OTF2_COMPRESSION_NONE);
    ok = o->archive &&
         OTF2_Archive_SetFlushCallbacks(o->archive, &flush_callbacks, NULL) == OTF2_SUCCESS &&
         OTF2_Archive_SetSerialCollectiveCallbacks(o->archive) == OTF2_SUCCESS &&
         OTF2_Archive_OpenEvtFiles(o->archive) == OTF2_SUCCESS &&
         (o->list = OTF2_AttributeList_New()) != NULL;
    if (!ok) {
        pz_out_fail(err, errlen, o->path, "cannot create the archive");
        return -1;
    }
    if (!(o->spool = pz_spool_new(o->nthreads, why, sizeof(why)))) {
        snprintf(err, errlen, "%s: %s", o->path, why);
        return -1;
    }
    return 0;
}

static void release(struct pz_trace_out *o);

struct pz_trace_out *pz_trace_out_open_synthesized(const char *recorded, const char *dir,
                                                   int nprocs,
                                                   const struct pz_synth_comm *comms,
                                                   uint32_t ncomms, char *err,
                                                   size_t errlen)
{
    struct pz_trace_out *o = calloc(1, sizeof(*o));
    uint64_t *locations = malloc((nprocs > 0 ? (size_t)nprocs : 1) * sizeof(*locations));
    OTF2_ErrorCallback previous;
    int rc;

    if (!o || !locations) {
        snprintf(err, errlen, "%s: out of memory", dir);
        free(locations);
        free(o);
        return NULL;
    }
    for (int p = 0; p < nprocs; p++)
        locations[p] = (uint64_t)p;
    pz_anchor_path(recorded, o->anchor, sizeof(o->anchor));
    snprintf(o->path, sizeof(o->path), "%s/traces.otf2", dir);
    o->nthreads = nprocs;
    o->synthesized = 1;
    o->comms = comms;
    o->ncomms = ncomms;
    previous = pz_out_listen();
    rc = set_locations(o, locations, err, errlen);
    rc = rc ? rc : check_anchor(o->anchor, err, errlen);
    rc = rc ? rc : pz_synth_defs_scan(o->anchor, &o->recorded, err, errlen);
    rc = rc ? rc : create_archive(o, dir, err, errlen);
    if (rc != 0 && o->archive)
        OTF2_Archive_Close(o->archive);
    pz_out_unlisten(previous);
    free(locations);
    if (rc != 0) {
        release(o);
        return NULL;
    }
    memcpy(o->attributes, o->recorded.attributes, sizeof(o->attributes));
    return o;
}

static void release(struct pz_trace_out *o)
{
    pz_spool_free(o->spool);
    if (o->list)
        OTF2_AttributeList_Delete(o->list);
    free(o->locs);
    free(o->slot);
    free(o);
}

struct pz_trace_out *pz_trace_out_open(const char *recorded, const char *dir, int nthreads,
                                       const uint64_t *locations, char *err, size_t errlen)
{
    struct pz_trace_out *o = calloc(1, sizeof(*o));
    OTF2_ErrorCallback previous;
    int rc;

    if (!o) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return NULL;
    }
    pz_anchor_path(recorded, o->anchor, sizeof(o->anchor));
    snprintf(o->path, sizeof(o->path), "%s/traces.otf2", dir);
    o->nthreads = nthreads;
    previous = pz_out_listen();
    rc = set_locations(o, locations, err, errlen);
    rc = rc ? rc : scan_recorded(o, err, errlen);
    rc = rc ? rc : create_archive(o, dir, err, errlen);
    if (rc != 0 && o->archive)
        OTF2_Archive_Close(o->archive);
    pz_out_unlisten(previous);
    if (rc != 0) {
        release(o);
        return NULL;
    }
    return o;
}

/* The record's attributes that the recorded archive defines. */
static int add_attributes(const OTF2_AttributeRef a[PZ_OUT_NATTRIBUTES], OTF2_AttributeList *l,
                          const struct pz_rec *rec)
{
    OTF2_ErrorCode rc = OTF2_AttributeList_RemoveAllAttributes(l);

    if (rc == OTF2_SUCCESS && rec->kind == PZ_REC_ENTER && rec->callsite != PZ_NONE32 &&
        a[PZ_OUT_CALLSITE] != OTF2_UNDEFINED_ATTRIBUTE)
        rc = OTF2_AttributeList_AddSourceCodeLocationRef(l, a[PZ_OUT_CALLSITE], rec->callsite);
    if (rc == OTF2_SUCCESS && rec->send_list != PZ_NONE32 &&
        a[PZ_OUT_SEND_BYTES] != OTF2_UNDEFINED_ATTRIBUTE)
        rc = OTF2_AttributeList_AddStringRef(l, a[PZ_OUT_SEND_BYTES], rec->send_list);
    if (rc == OTF2_SUCCESS && rec->recv_list != PZ_NONE32 &&
        a[PZ_OUT_RECV_BYTES] != OTF2_UNDEFINED_ATTRIBUTE)
        rc = OTF2_AttributeList_AddStringRef(l, a[PZ_OUT_RECV_BYTES], rec->recv_list);
    if (rc == OTF2_SUCCESS && rec->cpu != PZ_NONE64 &&
        a[PZ_OUT_CPU_TIME] != OTF2_UNDEFINED_ATTRIBUTE)
        rc = OTF2_AttributeList_AddUint64(l, a[PZ_OUT_CPU_TIME], rec->cpu);
    return rc == OTF2_SUCCESS ? 0 : -1;
}

/* The OTF2 event of rec, a one-sided one, at t. */
static OTF2_ErrorCode write_rma_event(OTF2_EvtWriter *w, OTF2_AttributeList *l,
                                      const struct pz_rec *r, uint64_t t)
{
    switch (r->kind) {
    case PZ_REC_RMA_WIN_CREATE:
        return OTF2_EvtWriter_RmaWinCreate(w, l, t, r->comm);
    case PZ_REC_RMA_WIN_DESTROY:
        return OTF2_EvtWriter_RmaWinDestroy(w, l, t, r->comm);
    case PZ_REC_RMA_COLL_BEGIN:
        return OTF2_EvtWriter_RmaCollectiveBegin(w, l, t);
    case PZ_REC_RMA_COLL_END:
        return OTF2_EvtWriter_RmaCollectiveEnd(w, l, t, r->coll_op, r->tag, r->comm, r->peer,
                                               r->bytes, r->bytes2);
    case PZ_REC_RMA_PUT:
        return OTF2_EvtWriter_RmaPut(w, l, t, r->comm, r->peer, r->bytes, r->request);
    case PZ_REC_RMA_GET:
        return OTF2_EvtWriter_RmaGet(w, l, t, r->comm, r->peer, r->bytes, r->request);
    case PZ_REC_RMA_ATOMIC:
        return OTF2_EvtWriter_RmaAtomic(w, l, t, r->comm, r->peer, r->coll_op, r->bytes,
                                        r->bytes2, r->request);
    case PZ_REC_RMA_OP_COMPLETE:
        return OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, l, t, r->comm, r->request);
    case PZ_REC_RMA_LOCK:
        return OTF2_EvtWriter_RmaRequestLock(w, l, t, r->comm, r->peer, r->request,
                                             r->coll_op);
    case PZ_REC_RMA_RELEASE:
        return OTF2_EvtWriter_RmaReleaseLock(w, l, t, r->comm, r->peer, r->request);
    case PZ_REC_RMA_SYNC:
        return OTF2_EvtWriter_RmaSync(w, l, t, r->comm, r->peer, r->coll_op);
    case PZ_REC_RMA_GROUP_SYNC:
        return OTF2_EvtWriter_RmaGroupSync(w, l, t, r->tag, r->comm, r->peer);
    }
    return OTF2_ERROR_INVALID_ARGUMENT;
}

/* The OTF2 event of rec, an I/O one, at t. */
static OTF2_ErrorCode write_io_event(OTF2_EvtWriter *w, OTF2_AttributeList *l,
                                     const struct pz_rec *r, uint64_t t)
{
    switch (r->kind) {
    case PZ_REC_IO_BEGIN:
        return OTF2_EvtWriter_IoOperationBegin(w, l, t, r->comm, (OTF2_IoOperationMode)r->tag,
                                               r->peer, r->bytes, r->request);
    case PZ_REC_IO_ISSUED:
        return OTF2_EvtWriter_IoOperationIssued(w, l, t, r->comm, r->request);
    case PZ_REC_IO_COMPLETE:
        return OTF2_EvtWriter_IoOperationComplete(w, l, t, r->comm, r->bytes, r->request);
    case PZ_REC_IO_CREATE_HANDLE:
        return OTF2_EvtWriter_IoCreateHandle(w, l, t, r->comm, r->coll_op, r->tag, r->peer);
    case PZ_REC_IO_DESTROY_HANDLE:
        return OTF2_EvtWriter_IoDestroyHandle(w, l, t, r->comm);
    case PZ_REC_IO_SEEK:
        return OTF2_EvtWriter_IoSeek(w, l, t, r->comm, (int64_t)r->bytes, r->coll_op,
                                     r->bytes2);
    }
    return OTF2_ERROR_INVALID_ARGUMENT;
}

/* The OTF2 event of rec (not a flush) at t. */
static OTF2_ErrorCode write_event(OTF2_EvtWriter *w, OTF2_AttributeList *l,
                                  const struct pz_rec *r, uint64_t t)
{
    switch (r->kind) {
    case PZ_REC_ENTER:
        return OTF2_EvtWriter_Enter(w, l, t, r->region);
    case PZ_REC_LEAVE:
        return OTF2_EvtWriter_Leave(w, l, t, r->region);
    case PZ_REC_SEND:
        return OTF2_EvtWriter_MpiSend(w, l, t, r->peer, r->comm, r->tag, r->bytes);
    case PZ_REC_RECV:
        return OTF2_EvtWriter_MpiRecv(w, l, t, r->peer, r->comm, r->tag, r->bytes);
    case PZ_REC_ISEND:
        return OTF2_EvtWriter_MpiIsend(w, l, t, r->peer, r->comm, r->tag, r->bytes,
                                       r->request);
    case PZ_REC_ISEND_COMPLETE:
        return OTF2_EvtWriter_MpiIsendComplete(w, l, t, r->request);
    case PZ_REC_IRECV_REQUEST:
        return OTF2_EvtWriter_MpiIrecvRequest(w, l, t, r->request);
    case PZ_REC_IRECV:
        return OTF2_EvtWriter_MpiIrecv(w, l, t, r->peer, r->comm, r->tag, r->bytes,
                                       r->request);
    case PZ_REC_REQUEST_TEST:
        return OTF2_EvtWriter_MpiRequestTest(w, l, t, r->request);
    case PZ_REC_REQUEST_CANCELLED:
        return OTF2_EvtWriter_MpiRequestCancelled(w, l, t, r->request);
    case PZ_REC_COLL_BEGIN:
        return OTF2_EvtWriter_MpiCollectiveBegin(w, l, t);
    case PZ_REC_COLL_END:
        return OTF2_EvtWriter_MpiCollectiveEnd(w, l, t, r->coll_op, r->comm, r->peer,
                                               r->bytes, r->bytes2);
    case PZ_REC_NBC_REQUEST:
        return OTF2_EvtWriter_NonBlockingCollectiveRequest(w, l, t, r->request);
    case PZ_REC_NBC_COMPLETE:
        return OTF2_EvtWriter_NonBlockingCollectiveComplete(w, l, t, r->coll_op, r->comm,
                                                            r->peer, r->bytes, r->bytes2,
                                                            r->request);
    }
    return pz_rec_is_io(r->kind) ? write_io_event(w, l, r, t) : write_rma_event(w, l, r, t);
}

int pz_out_write_record(OTF2_EvtWriter *w, OTF2_AttributeList *list,
                        const OTF2_AttributeRef attributes[PZ_OUT_NATTRIBUTES],
                        const struct pz_rec *rec, uint64_t time)
{
    if (add_attributes(attributes, list, rec) != 0)
        return -1;
    return write_event(w, list, rec, time) == OTF2_SUCCESS ? 0 : -1;
}

int pz_trace_out_event(struct pz_trace_out *o, int th, const struct pz_rec *rec,
                       uint64_t time)
{
    struct pz_rec at = *rec;

    /* a flush is the recorder's own time, which the prediction has removed */
    if (rec->kind == PZ_REC_FLUSH)
        return 0;
    if (th < 0 || th >= o->nthreads) {
        o->failed = 1;
        return -1;
    }
    at.time = time;
    if (pz_spool_add(o->spool, th, &at) != 0) {
        o->failed = 1;
        return -1;
    }
    o->locs[o->slot[th]].events++;
    if (time > o->end)
        o->end = time;
    return 0;
}

/* Writes thread th's spooled events to its location l, with a writer of its own. */
static int write_location(struct pz_trace_out *o, int th, struct pz_out_location *l)
{
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(o->archive, l->id);
    struct pz_rec rec;
    int got, ok = w != NULL;

    while (ok && (got = pz_spool_next(o->spool, th, &rec)) != 0)
        ok = got > 0 && pz_out_write_record(w, o->list, o->attributes, &rec, rec.time) == 0;
    if (w && OTF2_Archive_CloseEvtWriter(o->archive, w) != OTF2_SUCCESS)
        ok = 0;
    return ok ? 0 : -1;
}

/* Writes every location's events, in the order of their ids, then an empty local
 * definition file per location, as the recorder does: no mapping (the references are
 * global), no clock offset. */
static int close_locations(struct pz_trace_out *o)
{
    int *thread_of = malloc(o->nlocs * sizeof(*thread_of));
    int ok = thread_of && pz_spool_finish(o->spool) == 0;

    for (int th = 0; ok && th < o->nthreads; th++)
        thread_of[o->slot[th]] = th;
    for (size_t i = 0; ok && i < o->nlocs; i++)
        ok = write_location(o, thread_of[i], &o->locs[i]) == 0;
    free(thread_of);
    ok = OTF2_Archive_CloseEvtFiles(o->archive) == OTF2_SUCCESS && ok &&
         OTF2_Archive_OpenDefFiles(o->archive) == OTF2_SUCCESS;
    for (size_t i = 0; ok && i < o->nlocs; i++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(o->archive, o->locs[i].id);

        ok = d && OTF2_Archive_CloseDefWriter(o->archive, d) == OTF2_SUCCESS;
    }
    return ok && OTF2_Archive_CloseDefFiles(o->archive) == OTF2_SUCCESS ? 0 : -1;
}

void pz_trace_out_synthesized_lists(struct pz_trace_out *o, const char *const *lists,
                                    uint32_t n)
{
    o->lists = lists;
    o->nlists = n;
}

/* The definitions of a synthesized run: location p's events are locs[p]'s (sorted by
 * id, p). */
static int write_synthesized_defs(struct pz_trace_out *o, OTF2_GlobalDefWriter *w, char *err,
                                  size_t errlen)
{
    uint64_t *events = malloc(o->nlocs * sizeof(*events));
    struct pz_synth_run run = { o->nthreads, events, o->comms, o->ncomms, o->end, o->lists,
                                o->nlists };
    int rc;

    if (!events) {
        snprintf(err, errlen, "%s: out of memory", o->path);
        return -1;
    }
    for (size_t i = 0; i < o->nlocs; i++)
        events[i] = o->locs[i].events;
    rc = pz_synth_defs_write(o->anchor, o->path, w, &o->recorded, &run, err, errlen);
    free(events);
    return rc;
}

/* OTF2 writes most of the archive while closing it and reports failures (a full disk)
 * only through its error callback: what it heard decides. */
static int finish(struct pz_trace_out *o, char *err, size_t errlen)
{
    OTF2_GlobalDefWriter *w;
    int rc = -1;

    if (close_locations(o) != 0)
        pz_out_fail(err, errlen, o->path, "cannot write the events");
    else if (!(w = OTF2_Archive_GetGlobalDefWriter(o->archive)))
        pz_out_fail(err, errlen, o->path, "cannot write the definitions");
    else if (o->synthesized)
        rc = write_synthesized_defs(o, w, err, errlen);
    else
        rc = pz_out_defs_copy(o->anchor, w, o->locs, o->nlocs, o->end, err, errlen);
    return pz_out_close_archive(o->archive, o->path, rc, err, errlen);
}

int pz_trace_out_close(struct pz_trace_out *o, char *err, size_t errlen)
{
    OTF2_ErrorCallback previous;
    int rc;

    if (!o)
        return 0;
    previous = pz_out_listen();
    rc = finish(o, err, errlen);
    pz_out_unlisten(previous);
    if (rc == 0 && o->failed) {
        snprintf(err, errlen, "%s: some events could not be written", o->path);
        rc = -1;
    }
    release(o);
    return rc;
}
