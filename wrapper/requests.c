/* Request table: open addressing with linear probing and backward-shift deletion,
 * locked only when the program runs MPI_THREAD_MULTIPLE.  One handle may stand for
 * several requests at once: MPICH returns the same prebuilt handle for every send that
 * completed at once, so a Waitall can hold it twice.  Entries of one handle stay in probe
 * order, oldest first (backward-shift deletion keeps their order), and each completion
 * takes the oldest. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "requests.h"
#include "runtime.h"

struct slot {
    uint32_t handle;
    uint8_t used;
    struct pz_request r;
};

static struct slot *slots;
static uint32_t cap, count;
static _Atomic uint64_t next_id = 1;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

static void lock(void)
{
    if (pz_runtime_threaded())
        pthread_mutex_lock(&mutex);
}

static void unlock(void)
{
    if (pz_runtime_threaded())
        pthread_mutex_unlock(&mutex);
}

static uint32_t home(uint32_t handle, uint32_t capacity)
{
    return (handle * 2654435761u) & (capacity - 1);
}

static struct slot *lookup(uint32_t handle)
{
    if (!slots)
        return NULL;
    for (uint32_t i = home(handle, cap);; i = (i + 1) & (cap - 1)) {
        if (!slots[i].used)
            return NULL;
        if (slots[i].handle == handle)
            return &slots[i];
    }
}

/* Puts r after every entry of the same handle. */
static void insert(struct slot *table, uint32_t capacity, uint32_t handle,
                   const struct pz_request *r)
{
    uint32_t i = home(handle, capacity);

    while (table[i].used)
        i = (i + 1) & (capacity - 1);
    table[i].handle = handle;
    table[i].used = 1;
    table[i].r = *r;
}

static int grow(void)
{
    uint32_t ncap = cap ? 2 * cap : 1024;
    struct slot *n = calloc(ncap, sizeof(*n));

    if (!n)
        return -1;
    for (uint32_t i = 0; i < cap; i++)
        if (slots[i].used)
            insert(n, ncap, slots[i].handle, &slots[i].r);
    free(slots);
    slots = n;
    cap = ncap;
    return 0;
}

/* Removes s keeping every other entry reachable from its home slot. */
static void erase(struct slot *s)
{
    uint32_t hole = (uint32_t)(s - slots);

    for (uint32_t j = (hole + 1) & (cap - 1); slots[j].used; j = (j + 1) & (cap - 1)) {
        uint32_t h = home(slots[j].handle, cap);

        if (((j - h) & (cap - 1)) >= ((j - hole) & (cap - 1))) {
            slots[hole] = slots[j];
            hole = j;
        }
    }
    slots[hole].used = 0;
    count--;
}

uint64_t pz_requests_new_id(void)
{
    return atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed);
}

void pz_requests_add(MPI_Request handle, const struct pz_request *r)
{
    uint32_t h = (uint32_t)MPI_Request_c2f(handle);

    lock();
    if (2 * (count + 1) <= cap || grow() == 0) {
        insert(slots, cap, h, r);
        count++;
    }
    unlock();
}

int pz_requests_find(MPI_Request handle, struct pz_request *out)
{
    struct slot *s;
    int found = 0;

    lock();
    s = lookup((uint32_t)MPI_Request_c2f(handle));
    if (s && s->r.active) {
        *out = s->r;
        found = 1;
    }
    unlock();
    return found;
}

int pz_requests_complete(MPI_Request handle, struct pz_request *out)
{
    struct slot *s;
    int found = 0;

    lock();
    s = lookup((uint32_t)MPI_Request_c2f(handle));
    if (s && s->r.active) {
        *out = s->r;
        found = 1;
        if (s->r.persistent) {
            s->r.active = 0;
            s->r.cancelled = 0;
        } else {
            erase(s);
        }
    }
    unlock();
    return found;
}

int pz_requests_start(MPI_Request handle, struct pz_request *out)
{
    struct slot *s;
    int found = 0;

    lock();
    s = lookup((uint32_t)MPI_Request_c2f(handle));
    if (s) {
        s->r.active = 1;
        s->r.id = pz_requests_new_id();
        *out = s->r;
        found = 1;
    }
    unlock();
    return found;
}

void pz_requests_cancel(MPI_Request handle)
{
    struct slot *s;

    lock();
    s = lookup((uint32_t)MPI_Request_c2f(handle));
    if (s)
        s->r.cancelled = 1;
    unlock();
}

void pz_requests_remove(MPI_Request handle)
{
    struct slot *s;

    lock();
    s = lookup((uint32_t)MPI_Request_c2f(handle));
    if (s)
        erase(s);
    unlock();
}
