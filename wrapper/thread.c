/* Per-thread record buffers.  Each thread appends to its own buffer without locks; the
 * registry of threads is locked only when a thread first calls MPI. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "archive.h"
#include "clock.h"
#include "requests.h"
#include "runtime.h"
#include "thread.h"
#include "translate.h"

__thread struct pz_thread *pz_thread_current __attribute__((tls_model("initial-exec")));

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pz_thread *registry;
static uint32_t nthreads;

/* The record buffer, faulted in now rather than page by page during the run (a first
 * touch of a page costs more than a call's whole record), on huge pages where the
 * kernel allows them. */
static unsigned char *buffer_new(size_t size)
{
    unsigned char *buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                              -1, 0);

    if (buf == MAP_FAILED)
        return NULL;
    madvise(buf, size, MADV_HUGEPAGE);
    for (size_t off = 0; off < size; off += 4096)
        buf[off] = 0;
    return buf;
}

static struct pz_thread *thread_create(void)
{
    struct pz_thread *t = calloc(1, sizeof(*t));

    if (!t)
        return NULL;
    t->cap = pz_runtime_buffer_size();
    t->buf = buffer_new(t->cap);
    t->items_cap = 8;
    t->items = malloc(t->items_cap * sizeof(*t->items));
    t->requests = pz_request_table_new();
    if (!t->buf || !t->items || !t->requests) {
        if (t->buf)
            munmap(t->buf, t->cap);
        free(t->items);
        free(t);
        return NULL;
    }
    pthread_mutex_lock(&registry_lock);
    t->index = nthreads++;
    t->next = registry;
    registry = t;
    pthread_mutex_unlock(&registry_lock);
    t->location = pz_runtime_location(t->index);
    t->anchor = pz_anchor_now();
    return t;
}

struct pz_thread *pz_thread_attach(void)
{
    /* A thread whose buffer could not be had is not tried again at its every call,
     * which would warn at each of them. */
    static __thread int failed __attribute__((tls_model("initial-exec")));
    struct pz_thread *t;

    if (failed || !pz_runtime_recording())
        return NULL;
    t = thread_create();
    if (!t) {
        failed = 1;
        pz_runtime_warn("out of memory for a thread's trace buffer: that thread is not recorded");
        return NULL;
    }
    pz_thread_current = t;
    return t;
}

struct pz_item *pz_thread_grow_items(struct pz_thread *t)
{
    if (t->nitems == UINT16_MAX)
        return NULL;
    if (t->nitems == t->items_cap) {
        struct pz_item *grown = realloc(t->items, 2 * t->items_cap * sizeof(*grown));

        if (!grown)
            return NULL;
        t->items = grown;
        t->items_cap *= 2;
    }
    return &t->items[t->nitems++];
}

static int fits(const struct pz_thread *t, size_t need)
{
    return t->used + need <= t->cap;
}

int pz_thread_make_room(struct pz_thread *t, size_t need)
{
    /* room for the flush mark too, which follows the record */
    size_t with_mark = need + sizeof(struct pz_record);

    if (!fits(t, with_mark)) {
        uint64_t start = pz_ticks();
        size_t had = t->used;

        pz_thread_flush(t);
        if (had && t->used == 0) {
            t->flush_start = start;
            t->flush_end = pz_ticks();
        }
    }
    if (!fits(t, with_mark)) {
        /* the record is lost; the mark of a flush made for it goes in now, which keeps
         * time order: the call had returned before the flush began */
        t->dropped++;
        if (t->flush_start && fits(t, sizeof(struct pz_record)))
            pz_thread_mark_flush(t);
        t->flush_start = 0;
        return 0;
    }
    return 1;
}

void pz_thread_mark_flush(struct pz_thread *t)
{
    struct pz_record *r = (struct pz_record *)(t->buf + t->used);

    r->enter = t->flush_start;
    r->leave = t->flush_end;
    r->call = PZ_RECORD_FLUSH;
    r->nitems = 0;
    t->used += sizeof(*r);
    t->flush_start = 0;
}

static void commit(struct pz_thread *t, const struct pz_record *r, const void *trailer,
                   size_t trailer_size)
{
    size_t items_size = (size_t)r->nitems * sizeof(struct pz_item);
    size_t need = sizeof(*r) + items_size + trailer_size;

    if (!pz_thread_make_room(t, need))
        return;
    memcpy(t->buf + t->used, r, sizeof(*r));
    memcpy(t->buf + t->used + sizeof(*r), t->items, items_size);
    if (trailer_size)
        memcpy(t->buf + t->used + sizeof(*r) + items_size, trailer, trailer_size);
    t->used += need;
    if (t->flush_start)
        pz_thread_mark_flush(t);
}

void pz_thread_commit(struct pz_thread *t, const struct pz_record *r)
{
    commit(t, r, NULL, 0);
}

void pz_thread_commit_call(struct pz_thread *t, const struct pz_record *r,
                           const void *trailer)
{
    commit(t, r, trailer, pz_record_trailer_of(r));
}

void pz_thread_flush(struct pz_thread *t)
{
    struct pz_anchor now = pz_anchor_now();
    size_t pos = 0;

    if (pz_archive_failed()) {
        t->used = 0;  /* a trace that failed to write takes no more records */
        return;
    }
    if (!t->writer)
        t->writer = pz_runtime_evt_writer(t->location);
    if (!t->writer)
        return;  /* no archive yet: records stay, or are dropped when full */
    while (pos < t->used) {
        struct pz_record *r = (struct pz_record *)(t->buf + pos);

        r->enter = pz_ticks_to_ns(r->enter, t->anchor, now);
        r->leave = pz_ticks_to_ns(r->leave, t->anchor, now);
        if (!t->first_ns)
            t->first_ns = r->enter;
        t->last_ns = r->leave;
        t->nevents += pz_translate(t->writer, r, (const struct pz_item *)(r + 1));
        pos += pz_record_size(r);
    }
    t->used = 0;
    t->anchor = now;
}

struct pz_thread *pz_thread_first(void)
{
    return registry;
}

void pz_thread_release_all(void)
{
    pthread_mutex_lock(&registry_lock);
    for (struct pz_thread *t = registry; t; t = t->next) {
        t->busy = 1;  /* a thread that still calls MPI bypasses the wrapper */
        munmap(t->buf, t->cap);
        t->buf = NULL;
        t->cap = t->used = 0;
    }
    pthread_mutex_unlock(&registry_lock);
    pz_thread_current = NULL;
}
