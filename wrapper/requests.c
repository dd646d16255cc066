/* Request tables: open addressing with linear probing and backward-shift deletion.
 * Each thread has its own table and normally completes its own requests, so a handle
 * that MPI frees in one thread and at once hands to another's new request cannot be
 * confused between them; a request completed by another thread than its poster is found
 * in the poster's table.  Tables are locked only under MPI_THREAD_MULTIPLE.  One handle
 * may stand for several requests at once: MPICH returns the same prebuilt handle for
 * every send that completed at once, so a Waitall can hold it twice.  Entries are
 * keyed by handle; the address of the program's variable each was posted with chooses
 * among the entries of one handle (requests.h).  Entries of one handle stay in probe
 * order, oldest first (backward-shift deletion keeps their order). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "requests.h"
#include "runtime.h"

struct slot {
    uint64_t handle;           /* key(): the handle's bits */
    uintptr_t at;              /* the program's variable the request was posted with; 0:
                                * the slot is free (every post has a variable) */
    struct pz_request r;
};

struct pz_request_table {
    struct slot *slots;
    uint32_t cap, count;
    uint64_t next_id, end_id;  /* the owner's block of request ids, taken by it alone */
    pthread_mutex_t mutex;
    struct pz_request_table *next;
};

/* Request ids a table takes from the process's counter at a time: a locked instruction
 * per block instead of one per request.  A program with one thread gets 1, 2, 3... */
#define ID_BLOCK 4096

static _Atomic uint64_t next_id = 1;
static struct pz_request_table *_Atomic tables;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;

struct pz_request_table *pz_request_table_new(void)
{
    struct pz_request_table *t = calloc(1, sizeof(*t));

    if (!t)
        return NULL;
    pthread_mutex_init(&t->mutex, NULL);
    pthread_mutex_lock(&tables_lock);
    t->next = atomic_load(&tables);
    atomic_store(&tables, t);
    pthread_mutex_unlock(&tables_lock);
    return t;
}

/* Tables are locked only under MPI_THREAD_MULTIPLE; locked says so, read once per
 * operation. */
static void lock(struct pz_request_table *t, int locked)
{
    if (locked)
        pthread_mutex_lock(&t->mutex);
}

static void unlock(struct pz_request_table *t, int locked)
{
    if (locked)
        pthread_mutex_unlock(&t->mutex);
}

/* A request handle as the table's key: its own bits, an int in MPICH and a pointer in
 * Open MPI.  Not MPI_Request_c2f: Open MPI gives a request its Fortran index when first
 * asked and takes it back when the request is freed, so the handle of a completed
 * request, asked again, would get a new index. */
static inline uint64_t key(MPI_Request handle)
{
    uint64_t k = 0;

    _Static_assert(sizeof(handle) <= sizeof(k), "MPI_Request is wider than 64 bits");
    memcpy(&k, &handle, sizeof(handle));
    return k;
}

static uint32_t home(uint64_t handle, uint32_t capacity)
{
    return ((uint32_t)(handle ^ (handle >> 32)) * 2654435761u) & (capacity - 1);
}

/* Whether another slot of s claims entry j of t's chain of handle, which begins at
 * start: the entry was posted at that slot's variable, which held handle, and is the
 * oldest entry of handle posted there (the one that slot takes). */
static int claimed(const struct pz_request_table *t, uint32_t start, uint32_t j,
                   const struct pz_request_slots *s, uint64_t handle)
{
    uintptr_t at = t->slots[j].at, offset = at - (uintptr_t)s->at;
    size_t k = offset / sizeof(MPI_Request);

    if (offset % sizeof(MPI_Request) != 0 || k >= (size_t)s->n || key(s->handles[k]) != handle)
        return 0;
    for (uint32_t m = start; m != j; m = (m + 1) & (t->cap - 1))
        if (t->slots[m].handle == handle && t->slots[m].at == at)
            return 0;
    return 1;
}

/* The entry of slot i of s when none of its handle was posted at its variable
 * (requests.h): the oldest of its handle that no other slot of s claims. */
static struct slot *unclaimed(struct pz_request_table *t, const struct pz_request_slots *s,
                              int i)
{
    uint64_t handle = key(s->handles[i]);
    uint32_t start = home(handle, t->cap);

    for (uint32_t j = start; t->slots[j].at; j = (j + 1) & (t->cap - 1))
        if (t->slots[j].handle == handle && !claimed(t, start, j, s, handle))
            return &t->slots[j];
    return NULL;
}

/* The oldest entry of handle posted at variable at: the entry of the slot at at, in the
 * common case; NULL if there is none. */
static inline __attribute__((always_inline)) struct slot *
posted_at(struct pz_request_table *t, uint64_t handle, uintptr_t at)
{
    if (!t->slots)
        return NULL;
    for (uint32_t j = home(handle, t->cap); t->slots[j].at; j = (j + 1) & (t->cap - 1))
        if (t->slots[j].handle == handle && t->slots[j].at == at)
            return &t->slots[j];
    return NULL;
}

/* Puts r after every entry of the same handle.  Inline, as erase: the table's hot paths
 * are each one function. */
static inline __attribute__((always_inline)) void insert(struct slot *slots, uint32_t capacity,
                                                        uint64_t handle, uintptr_t at,
                                                        const struct pz_request *r)
{
    uint32_t i = home(handle, capacity);

    while (slots[i].at)
        i = (i + 1) & (capacity - 1);
    slots[i].handle = handle;
    slots[i].at = at;
    slots[i].r = *r;
}

static __attribute__((noinline)) int grow(struct pz_request_table *t)
{
    uint32_t ncap = t->cap ? 2 * t->cap : 1024;
    struct slot *n = calloc(ncap, sizeof(*n));

    if (!n)
        return -1;
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->slots[i].at)
            insert(n, ncap, t->slots[i].handle, t->slots[i].at, &t->slots[i].r);
    free(t->slots);
    t->slots = n;
    t->cap = ncap;
    return 0;
}

/* Removes s keeping every other entry reachable from its home slot. */
static inline __attribute__((always_inline)) void erase(struct pz_request_table *t,
                                                       struct slot *s)
{
    uint32_t hole = (uint32_t)(s - t->slots), mask = t->cap - 1;

    for (uint32_t j = (hole + 1) & mask; t->slots[j].at; j = (j + 1) & mask) {
        uint32_t h = home(t->slots[j].handle, t->cap);

        if (((j - h) & mask) >= ((j - hole) & mask)) {
            t->slots[hole] = t->slots[j];
            hole = j;
        }
    }
    t->slots[hole].at = 0;
    t->count--;
}

/* A new request id of this process, for a request of own's thread (the caller). */
static uint64_t new_id(struct pz_request_table *own)
{
    if (__builtin_expect(own->next_id == own->end_id, 0)) {
        own->next_id = atomic_fetch_add_explicit(&next_id, ID_BLOCK, memory_order_relaxed);
        own->end_id = own->next_id + ID_BLOCK;
    }
    return own->next_id++;
}

void pz_requests_post(struct pz_request_table *own, const MPI_Request *request,
                      struct pz_request *r)
{
    r->id = new_id(own);
    r->active = 1;
    pz_requests_add(own, request, r);
}

void pz_requests_add(struct pz_request_table *own, const MPI_Request *request,
                     const struct pz_request *r)
{
    int locked = pz_runtime_threaded();

    lock(own, locked);
    if (__builtin_expect(2 * (own->count + 1) <= own->cap, 1) || grow(own) == 0) {
        insert(own->slots, own->cap, key(*request), (uintptr_t)request, r);
        own->count++;
    }
    unlock(own, locked);
}

/* What an operation does to the entry it found. */
enum action { PEEK, COMPLETE, START, CANCEL, REMOVE };

/* Applies action to entry s of table t (none if NULL); 1 and *out if there was one the
 * action applies to.  own gives a started request its id.  Inline where action is a
 * constant: completions are on every program's hot path. */
static inline __attribute__((always_inline)) int apply(struct pz_request_table *t,
                                                       struct pz_request_table *own,
                                                       struct slot *s, enum action action,
                                                       struct pz_request *out)
{
    if (!s || !(s->r.active || action == START || action == REMOVE || action == CANCEL))
        return 0;
    switch (action) {
    case COMPLETE:
        if (s->r.persistent) {
            *out = s->r;
            s->r.active = 0;
            s->r.cancelled = 0;
            break;
        }
        *out = s->r;
        erase(t, s);
        break;
    case START:
        s->r.active = 1;
        s->r.id = new_id(own);
        *out = s->r;
        break;
    case CANCEL:
        s->r.cancelled = 1;
        break;
    case REMOVE:
        erase(t, s);
        break;
    case PEEK:
        *out = s->r;
        break;
    }
    return 1;
}

/* apply() to the entry of slot i of s that was not posted at its variable.  Out of line,
 * apart from the common case, which then saves no registers for it. */
static __attribute__((noinline)) int apply_unclaimed(struct pz_request_table *t,
                                                    struct pz_request_table *own,
                                                    const struct pz_request_slots *s, int i,
                                                    enum action action,
                                                    struct pz_request *out)
{
    return t->slots ? apply(t, own, unclaimed(t, s, i), action, out) : 0;
}

/* Applies action to the entry of slot i of s in table t (requests.h). */
static inline __attribute__((always_inline)) int act_in(struct pz_request_table *t,
                                                        struct pz_request_table *own,
                                                        const struct pz_request_slots *sl,
                                                        int i, enum action action,
                                                        struct pz_request *out, int locked)
{
    struct slot *s;
    int done;

    lock(t, locked);
    s = posted_at(t, key(sl->handles[i]), (uintptr_t)(sl->at + i));
    done = s ? apply(t, own, s, action, out) : apply_unclaimed(t, own, sl, i, action, out);
    unlock(t, locked);
    return done;
}

/* Under MPI_THREAD_MULTIPLE: the thread's own table first, then those of the other
 * threads, each locked.  Out of line, so that the path of a program of one thread
 * saves no registers for the calls of this one. */
static __attribute__((noinline)) int act_threaded(struct pz_request_table *own,
                                                  const struct pz_request_slots *s, int i,
                                                  enum action action, struct pz_request *out)
{
    if (act_in(own, own, s, i, action, out, 1))
        return 1;
    for (struct pz_request_table *t = atomic_load(&tables); t; t = t->next)
        if (t != own && act_in(t, own, s, i, action, out, 1))
            return 1;
    return 0;
}

/* The thread's own table: the only one when the program has one thread.  out is NULL
 * for CANCEL and REMOVE, which give nothing back. */
static inline __attribute__((always_inline)) int act(struct pz_request_table *own,
                                                     const struct pz_request_slots *s,
                                                     int i, enum action action,
                                                     struct pz_request *out)
{
    if (__builtin_expect(pz_runtime_threaded(), 0))
        return act_threaded(own, s, i, action, out);
    return act_in(own, own, s, i, action, out, 0);
}

int pz_requests_find(struct pz_request_table *own, const struct pz_request_slots *s, int i,
                     struct pz_request *out)
{
    return act(own, s, i, PEEK, out);
}

int pz_requests_complete(struct pz_request_table *own, const struct pz_request_slots *s,
                         int i, struct pz_request *out)
{
    return act(own, s, i, COMPLETE, out);
}

int pz_requests_start(struct pz_request_table *own, const struct pz_request_slots *s, int i,
                      struct pz_request *out)
{
    return act(own, s, i, START, out);
}

void pz_requests_cancel(struct pz_request_table *own, const struct pz_request_slots *s, int i)
{
    act(own, s, i, CANCEL, NULL);
}

void pz_requests_remove(struct pz_request_table *own, const struct pz_request_slots *s, int i)
{
    act(own, s, i, REMOVE, NULL);
}
