/* Per-thread recording state: the buffer of records each thread fills without locks,
 * and the OTF2 location the thread's events go to. */
#ifndef PZ_THREAD_H
#define PZ_THREAD_H

#include <stddef.h>
#include <stdint.h>
#include <otf2/otf2.h>

#include "clock.h"
#include "record.h"

struct pz_thread {
    int busy;                  /* inside a traced call: nested MPI calls are not traced */
    uint32_t index;            /* 0 for the first thread that called MPI */
    uint64_t location;         /* OTF2 location id */
    unsigned char *buf;        /* committed records */
    size_t used, cap;
    struct pz_item *items;     /* items of the call in progress */
    uint32_t nitems, items_cap;
    struct pz_request_table *requests;  /* requests this thread posted (requests.h) */
    uint64_t *open;            /* intervals open on this thread, innermost last:
                                  id << 32 | local interval number */
    uint32_t nopen, open_cap;
    int pending_marker;        /* tag of a marker pair's first half, 0 if none */
    uintptr_t next_site;       /* call site given by prognoz_marker_site, 0 if none */
    OTF2_EvtWriter *writer;    /* NULL until the first flush */
    struct pz_anchor anchor;   /* both clocks read after the last flush (clock.h) */
    uint64_t first_ns, last_ns;  /* span of the records written so far, 0 before */
    uint64_t flush_start, flush_end;  /* ticks of a flush whose mark is still to be
                                         recorded after the call that caused it */
    uint64_t nevents;          /* OTF2 events written */
    uint64_t dropped;          /* records lost because nothing could take them */
    struct pz_thread *next;    /* all threads, for the flush at finalize */
};

/* The calling thread's state, or NULL; the fast path of every wrapper. */
extern __thread struct pz_thread *pz_thread_current
    __attribute__((tls_model("initial-exec")));

/* Creates the calling thread's state once recording is on; NULL when it is not. */
struct pz_thread *pz_thread_attach(void);

/* Appends the finished record r with the thread's pending items; flushes first when the
 * buffer is full. */
void pz_thread_commit(struct pz_thread *t, const struct pz_record *r);

/* pz_thread_commit of a record followed by what its aux announces: the
 * pz_record_trailer_of(r) bytes at trailer (record.h). */
void pz_thread_commit_call(struct pz_thread *t, const struct pz_record *r,
                           const void *trailer);

/* Makes room for need more bytes by writing the buffer out; returns 0 (and counts the
 * record as dropped) when that is impossible.  The flush is marked by a record that
 * pz_thread_mark_flush appends once the record that needed the room is written, so that
 * the trace stays in time order. */
int pz_thread_make_room(struct pz_thread *t, size_t need);
void pz_thread_mark_flush(struct pz_thread *t);

/* Room for one more item of the call in progress; NULL if memory ran out. */
struct pz_item *pz_thread_grow_items(struct pz_thread *t);

static inline struct pz_item *pz_thread_new_item(struct pz_thread *t)
{
    if (__builtin_expect(t->nitems < t->items_cap, 1))
        return &t->items[t->nitems++];
    return pz_thread_grow_items(t);
}

/* Writes every buffered record of t to its OTF2 location. */
void pz_thread_flush(struct pz_thread *t);

/* First registered thread, for walking all of them (finalize). */
struct pz_thread *pz_thread_first(void);

/* Stops recording on every thread and releases their buffers. */
void pz_thread_release_all(void);

#endif
