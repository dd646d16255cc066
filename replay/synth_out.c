/* Writing a synthesized run as an OTF2 archive (synth_out.h).
 *
 * A synthesized run has up to thousands of processes, written one after the other: one
 * event writer is open at a time, closed (its chunk written and freed) when the next
 * process starts, so that memory does not grow with the processes but by a count and a
 * flag each.  Records become events as in a predicted archive (pz_out_write_record);
 * communicator i of the run is Comm reference i, so an event's comm is written as it
 * is given.  The definitions are written at the end (synth_defs.c), when the events of
 * each location and the span of the times are known.  The archive is written by this
 * one process, with OTF2's serial collective callbacks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "anchor.h"
#include "def_chunk.h"
#include "synth_defs.h"
#include "synth_out.h"
#include "trace_complaints.h"

/* The smallest chunks OTF2 takes: one event writer at a time needs no more. */
#define EVENT_CHUNK (256 * 1024)

struct pz_synth_out {
    char anchor[4096];                  /* of the recording */
    char path[4096];                    /* DIR/traces.otf2, written */
    struct pz_synth_recorded recorded;
    OTF2_Archive *archive;
    OTF2_AttributeList *list;
    int nprocs;
    struct pz_synth_comm *comms;        /* copies, members and names included */
    uint32_t ncomms;
    const char *const *lists;           /* the caller's, list i string next_string + i */
    uint32_t nlists;
    uint64_t *events;                   /* of each process, written so far */
    unsigned char *done;                /* of each process: its writer is closed */
    int current;                        /* the process being written, -1 before the first */
    OTF2_EvtWriter *writer;             /* its writer */
    uint64_t last;                      /* its latest time */
    uint64_t end;                       /* the latest time written */
    char failure[512];                  /* why an event could not be written, the first */
};

static OTF2_FlushType always_flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                                   void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { always_flush, NULL };

static void release(struct pz_synth_out *o)
{
    for (uint32_t i = 0; o->comms && i < o->ncomms; i++) {
        free((void *)o->comms[i].members);
        free((void *)o->comms[i].name);
    }
    free(o->comms);
    if (o->list)
        OTF2_AttributeList_Delete(o->list);
    free(o->events);
    free(o->done);
    free(o);
}

/* Communicator i given is one of nprocs processes: the world has them all, the others
 * world ranks among them. */
static int check_comm(const struct pz_synth_out *o, uint32_t i, const struct pz_synth_comm *c,
                      char *err, size_t errlen)
{
    const char *name = c->name ? c->name : "";

    if (c->self)
        return 0;
    if (!c->members && c->size != (uint32_t)o->nprocs) {
        snprintf(err, errlen, "%s: communicator %u (%s), the world, has %u processes, not %d",
                 o->path, i, name, c->size, o->nprocs);
        return -1;
    }
    for (uint32_t k = 0; c->members && k < c->size; k++) {
        if (c->members[k] < 0 || c->members[k] >= o->nprocs) {
            snprintf(err, errlen,
                     "%s: communicator %u (%s): world rank %d is not one of the %d processes",
                     o->path, i, name, c->members[k], o->nprocs);
            return -1;
        }
    }
    return 0;
}

/* A copy of c: the caller's may be gone when the definitions are written. */
static int copy_comm(struct pz_synth_comm *to, const struct pz_synth_comm *c)
{
    int *members = NULL;

    *to = (struct pz_synth_comm){ c->size, NULL, c->self, NULL, c->windows };
    if (c->members && !c->self) {
        if (!(members = malloc((c->size ? c->size : 1) * sizeof(*members))))
            return -1;
        memcpy(members, c->members, c->size * sizeof(*members));
        to->members = members;
    }
    to->name = strdup(c->name ? c->name : "");
    return to->name ? 0 : -1;
}

static int set_run(struct pz_synth_out *o, const struct pz_synth_comm *comms, uint32_t ncomms,
                   char *err, size_t errlen)
{
    if (o->nprocs <= 0) {
        snprintf(err, errlen, "%s: no process to write", o->path);
        return -1;
    }
    for (uint32_t i = 0; i < ncomms; i++)
        if (check_comm(o, i, &comms[i], err, errlen) != 0)
            return -1;
    o->events = calloc((size_t)o->nprocs, sizeof(*o->events));
    o->done = calloc((size_t)o->nprocs, sizeof(*o->done));
    o->comms = calloc(ncomms ? ncomms : 1, sizeof(*o->comms));
    if (!o->events || !o->done || !o->comms) {
        snprintf(err, errlen, "%s: out of memory", o->path);
        return -1;
    }
    for (; o->ncomms < ncomms; o->ncomms++) {
        if (copy_comm(&o->comms[o->ncomms], &comms[o->ncomms]) != 0) {
            o->ncomms++;    /* released with the others */
            snprintf(err, errlen, "%s: out of memory", o->path);
            return -1;
        }
    }
    return 0;
}

/* An OTF2 anchor file starts with a byte-order mark and "OTF2": anything else gets a
 * plain answer rather than OTF2's complaint about its name. */
static int scan_recorded(struct pz_synth_out *o, char *err, size_t errlen)
{
    struct stat st;

    if (stat(o->anchor, &st) != 0) {
        snprintf(err, errlen, "%s: %s", o->anchor, strerror(errno));
        return -1;
    }
    if (!pz_is_anchor(o->anchor)) {
        snprintf(err, errlen, "%s: not an OTF2 archive (no OTF2 anchor file)", o->anchor);
        return -1;
    }
    return pz_synth_defs_scan(o->anchor, &o->recorded, err, errlen);
}

/* The new archive in dir, made if missing. */
static int create_archive(struct pz_synth_out *o, const char *dir, char *err, size_t errlen)
{
    struct stat st;
    int ok;

    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    if (stat(o->path, &st) == 0) {
        snprintf(err, errlen, "%s: a trace is there already", o->path);
        return -1;
    }
    o->archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, EVENT_CHUNK,
                                   pz_def_chunk((uint64_t)o->nprocs), OTF2_SUBSTRATE_POSIX,
                                   OTF2_COMPRESSION_NONE);
    ok = o->archive &&
         OTF2_Archive_SetFlushCallbacks(o->archive, &flush_callbacks, NULL) == OTF2_SUCCESS &&
         OTF2_Archive_SetSerialCollectiveCallbacks(o->archive) == OTF2_SUCCESS &&
         OTF2_Archive_OpenEvtFiles(o->archive) == OTF2_SUCCESS &&
         (o->list = OTF2_AttributeList_New()) != NULL;
    if (!ok)
        pz_out_fail(err, errlen, o->path, "cannot create the archive");
    return ok ? 0 : -1;
}

struct pz_synth_out *pz_synth_out_open(const char *dir, const char *recorded, int nprocs,
                                       const struct pz_synth_comm *comms, uint32_t ncomms,
                                       char *err, size_t errlen)
{
    struct pz_synth_out *o = calloc(1, sizeof(*o));
    OTF2_ErrorCallback previous;
    int rc;

    if (!o) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return NULL;
    }
    pz_anchor_path(recorded, o->anchor, sizeof(o->anchor));
    snprintf(o->path, sizeof(o->path), "%s/traces.otf2", dir);
    o->nprocs = nprocs;
    o->current = -1;
    previous = pz_out_listen();
    rc = set_run(o, comms, ncomms, err, errlen);
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

void pz_synth_out_lists(struct pz_synth_out *o, const char *const *lists, uint32_t n)
{
    o->lists = lists;
    o->nlists = n;
}

/* Keeps the first reason an event was refused; -1. */
static int refuse(struct pz_synth_out *o, int proc, const char *why)
{
    if (!o->failure[0])
        snprintf(o->failure, sizeof(o->failure), "process %d: %s", proc, why);
    return -1;
}

/* Closes the writer of the process being written: its events are complete. */
static int close_current(struct pz_synth_out *o)
{
    OTF2_ErrorCode rc = OTF2_SUCCESS;

    if (o->writer)
        rc = OTF2_Archive_CloseEvtWriter(o->archive, o->writer);
    if (o->current >= 0)
        o->done[o->current] = 1;
    o->writer = NULL;
    o->current = -1;
    return rc == OTF2_SUCCESS ? 0 : -1;
}

/* Makes proc the process being written. */
static int start_process(struct pz_synth_out *o, int proc)
{
    int previous = o->current;

    if (o->done[proc])
        return refuse(o, proc, "its events come after another process's");
    if (close_current(o) != 0)
        return refuse(o, previous, "its events could not be written");
    if (!(o->writer = OTF2_Archive_GetEvtWriter(o->archive, (OTF2_LocationRef)proc)))
        return refuse(o, proc, "cannot open its event writer");
    o->current = proc;
    o->last = 0;
    return 0;
}

/* The events that name a communicator. */
static int has_comm(uint8_t kind)
{
    return kind == PZ_REC_SEND || kind == PZ_REC_RECV || kind == PZ_REC_ISEND ||
           kind == PZ_REC_IRECV || kind == PZ_REC_COLL_END || kind == PZ_REC_NBC_COMPLETE;
}

/* List number i's string (PZ_NONE32: none, or no attribute to carry it: both are left
 * out, as in a replay's definitions, scale_replay.c), or -1 when there is no such list. */
static int64_t list_string(const struct pz_synth_out *o, uint32_t i)
{
    if (i == PZ_NONE32 || o->recorded.attributes[PZ_OUT_SEND_BYTES] == OTF2_UNDEFINED_ATTRIBUTE ||
        o->recorded.attributes[PZ_OUT_RECV_BYTES] == OTF2_UNDEFINED_ATTRIBUTE)
        return i < o->nlists || i == PZ_NONE32 ? (int64_t)PZ_NONE32 : -1;
    return i < o->nlists ? (int64_t)o->recorded.next_string + i : -1;
}

int pz_synth_out_event(struct pz_synth_out *o, int proc, const struct pz_rec *rec)
{
    struct pz_rec with_strings;
    int64_t send, recv;

    if (proc < 0 || proc >= o->nprocs)
        return refuse(o, proc, "no such process");
    if (proc != o->current && start_process(o, proc) != 0)
        return -1;
    if (rec->time < o->last)
        return refuse(o, proc, "an event before the one written last");
    /* a flush is the recorder's own time, which a synthesized run has not */
    if (rec->kind == PZ_REC_FLUSH)
        return 0;
    if (has_comm(rec->kind) && rec->comm >= o->ncomms)
        return refuse(o, proc, "an event on a communicator not given");
    if ((send = list_string(o, rec->send_list)) < 0 || (recv = list_string(o, rec->recv_list)) < 0)
        return refuse(o, proc, "an event with a byte list not given");
    with_strings = *rec;
    with_strings.send_list = (uint32_t)send;
    with_strings.recv_list = (uint32_t)recv;
    if (pz_out_write_record(o->writer, o->list, o->recorded.attributes, &with_strings,
                            rec->time) != 0)
        return refuse(o, proc, "an event could not be written");
    o->events[proc]++;
    o->last = rec->time;
    if (rec->time > o->end)
        o->end = rec->time;
    return 0;
}

/* Closes the event files, every location having one, as in a recording, and writes an
 * empty local definition file per location, as the recorder does: no mapping (the
 * references are global), no clock offset. */
static int close_locations(struct pz_synth_out *o)
{
    int ok = close_current(o) == 0;

    for (int p = 0; ok && p < o->nprocs; p++) {
        OTF2_EvtWriter *w;

        if (o->done[p])
            continue;
        w = OTF2_Archive_GetEvtWriter(o->archive, (OTF2_LocationRef)p);
        ok = w && OTF2_Archive_CloseEvtWriter(o->archive, w) == OTF2_SUCCESS;
    }
    ok = OTF2_Archive_CloseEvtFiles(o->archive) == OTF2_SUCCESS && ok &&
         OTF2_Archive_OpenDefFiles(o->archive) == OTF2_SUCCESS;
    for (int p = 0; ok && p < o->nprocs; p++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(o->archive, (OTF2_LocationRef)p);

        ok = d && OTF2_Archive_CloseDefWriter(o->archive, d) == OTF2_SUCCESS;
    }
    return ok && OTF2_Archive_CloseDefFiles(o->archive) == OTF2_SUCCESS ? 0 : -1;
}

/* OTF2 writes most of the archive while closing it and reports failures (a full disk)
 * only through its error callback: what it heard decides. */
static int finish(struct pz_synth_out *o, char *err, size_t errlen)
{
    struct pz_synth_run run = { o->nprocs, o->events, o->comms, o->ncomms, o->end,
                                o->lists, o->nlists };
    OTF2_GlobalDefWriter *w;
    int rc = -1;

    if (close_locations(o) != 0)
        pz_out_fail(err, errlen, o->path, "cannot write the events");
    else if (!(w = OTF2_Archive_GetGlobalDefWriter(o->archive)))
        pz_out_fail(err, errlen, o->path, "cannot write the definitions");
    else
        rc = pz_synth_defs_write(o->anchor, o->path, w, &o->recorded, &run, err, errlen);
    return pz_out_close_archive(o->archive, o->path, rc, err, errlen);
}

int pz_synth_out_close(struct pz_synth_out *o, char *err, size_t errlen)
{
    OTF2_ErrorCallback previous;
    int rc;

    if (!o)
        return 0;
    previous = pz_out_listen();
    rc = finish(o, err, errlen);
    pz_out_unlisten(previous);
    if (rc == 0 && o->failure[0]) {
        snprintf(err, errlen, "%s: %s", o->path, o->failure);
        rc = -1;
    }
    release(o);
    return rc;
}
