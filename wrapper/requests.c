/* Request tables: open addressing with linear probing and backward-shift deletion.
 * Each thread has its own table and normally completes its own requests, so a handle
 * that MPI frees in one thread and at once hands to another's new request cannot be
 * confused between them; a request completed by another thread than its poster is found
 * in the poster's table.  Tables are locked only under MPI_THREAD_MULTIPLE.  One handle
 * may stand for several requests at once: MPICH returns the same prebuilt handle for
 * every send that completed at once, so a Waitall can hold it twice.  Entries of one
 * handle stay in probe order, oldest first (backward-shift deletion keeps their order),
 * and each completion takes the oldest. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "requests.h"
#include "runtime.h"

struct slot {
    uint64_t handle;           /* key(): the handle's bits */
    uint8_t used;
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

static struct slot *lookup(struct pz_request_table *t, uint64_t handle)
{
    if (!t->slots)
        return NULL;
    for (uint32_t i = home(handle, t->cap);; i = (i + 1) & (t->cap - 1)) {
        if (!t->slots[i].used)
            return NULL;
        if (t->slots[i].handle == handle)
            return &t->slots[i];
    }
}

/* Puts r after every entry of the same handle.  Inline, as erase: the table's hot paths
 * are each one function. */
static inline __attribute__((always_inline)) void insert(struct slot *slots,
                                                        uint32_t capacity, uint64_t handle,
                                                        const struct pz_request *r)
{
    uint32_t i = home(handle, capacity);

    while (slots[i].used)
        i = (i + 1) & (capacity - 1);
    slots[i].handle = handle;
    slots[i].used = 1;
    slots[i].r = *r;
}

static __attribute__((noinline)) int grow(struct pz_request_table *t)
{
    uint32_t ncap = t->cap ? 2 * t->cap : 1024;
    struct slot *n = calloc(ncap, sizeof(*n));

    if (!n)
        return -1;
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->slots[i].used)
            insert(n, ncap, t->slots[i].handle, &t->slots[i].r);
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

    for (uint32_t j = (hole + 1) & mask; t->slots[j].used; j = (j + 1) & mask) {
        uint32_t h = home(t->slots[j].handle, t->cap);

        if (((j - h) & mask) >= ((j - hole) & mask)) {
            t->slots[hole] = t->slots[j];
            hole = j;
        }
    }
    t->slots[hole].used = 0;
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

void pz_requests_post(struct pz_request_table *own, MPI_Request handle, struct pz_request *r)
{
    r->id = new_id(own);
    r->active = 1;
    pz_requests_add(own, handle, r);
}

void pz_requests_add(struct pz_request_table *own, MPI_Request handle,
                     const struct pz_request *r)
{
    int locked = pz_runtime_threaded();

    lock(own, locked);
    if (__builtin_expect(2 * (own->count + 1) <= own->cap, 1) || grow(own) == 0) {
        insert(own->slots, own->cap, key(handle), r);
        own->count++;
    }
    unlock(own, locked);
}

/* What an operation does to the entry it found. */
enum action { PEEK, COMPLETE, START, CANCEL, REMOVE };

/* Applies action to the oldest entry of handle in table t; 1 and *out if there was one
 * the action applies to.  own gives a started request its id.  Inline in each public
 * function, where action is a constant: completions are on every program's hot path. */
static inline __attribute__((always_inline)) int act_in(struct pz_request_table *t,
                                                        struct pz_request_table *own,
                                                        uint64_t handle, enum action action,
                                                        struct pz_request *out, int locked)
{
    struct slot *s;
    int done = 0;

    lock(t, locked);
    s = lookup(t, handle);
    if (s && (s->r.active || action == START || action == REMOVE || action == CANCEL)) {
        done = 1;
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
    }
    unlock(t, locked);
    return done;
}

/* Under MPI_THREAD_MULTIPLE: the thread's own table first, then those of the other
 * threads, each locked.  Out of line, so that the path of a program of one thread
 * saves no registers for the calls of this one. */
static __attribute__((noinline)) int act_threaded(struct pz_request_table *own, uint64_t h,
                                                  enum action action, struct pz_request *out)
{
    if (act_in(own, own, h, action, out, 1))
        return 1;
    for (struct pz_request_table *t = atomic_load(&tables); t; t = t->next)
        if (t != own && act_in(t, own, h, action, out, 1))
            return 1;
    return 0;
}

/* The thread's own table: the only one when the program has one thread. */
static inline __attribute__((always_inline)) int act(struct pz_request_table *own,
                                                     MPI_Request handle, enum action action,
                                                     struct pz_request *out)
{
    uint64_t h = key(handle);
    struct pz_request ignored;

    if (!out)
        out = &ignored;
    if (__builtin_expect(pz_runtime_threaded(), 0))
        return act_threaded(own, h, action, out);
    return act_in(own, own, h, action, out, 0);
}

int pz_requests_find(struct pz_request_table *own, MPI_Request handle, struct pz_request *out)
{
    return act(own, handle, PEEK, out);
}

int pz_requests_complete(struct pz_request_table *own, MPI_Request handle,
                         struct pz_request *out)
{
    return act(own, handle, COMPLETE, out);
}

int pz_requests_start(struct pz_request_table *own, MPI_Request handle,
                      struct pz_request *out)
{
    return act(own, handle, START, out);
}

void pz_requests_cancel(struct pz_request_table *own, MPI_Request handle)
{
    act(own, handle, CANCEL, NULL);
}

void pz_requests_remove(struct pz_request_table *own, MPI_Request handle)
{
    act(own, handle, REMOVE, NULL);
}
