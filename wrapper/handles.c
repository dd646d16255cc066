/* The registries of file handles and windows: a list of every handle made, under a
 * lock, with maps to the live ones and to the count made on each communicator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comms.h"
#include "handles.h"

struct pz_handle {
    uint64_t handle;
    int live;          /* not freed yet */
    char *key;         /* its identity (handles.h) */
};

struct pz_handles pz_io_files = { .lock = PTHREAD_MUTEX_INITIALIZER };
struct pz_handles pz_rma_windows = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The identity of a handle made on comm (handles.h), counted among those made on it;
 * NULL if memory ran out. */
static char *identity(struct pz_handles *h, MPI_Comm comm, const char *name)
{
    const struct pz_comm_info *c = pz_comm_get(pz_comm_ref(comm));
    int leader = c->members ? c->members[0] : -1;
    uint32_t seq = 0;
    size_t len = strlen(name) + 64;
    char *key;

    pz_keymap_get(&h->made_on, c->gid, leader, &seq);
    if (pz_keymap_put(&h->made_on, c->gid, leader, seq + 1) < 0 || !(key = malloc(len)))
        return NULL;
    snprintf(key, len, "%llu %d %u %s", (unsigned long long)c->gid, leader, (unsigned)seq, name);
    return key;
}

/* Points the handle's value at ref, the newest handle of that value: one MPI freed
 * without the wrapper seeing it is no longer live. */
static int make_live(struct pz_handles *h, uint64_t handle, uint32_t ref)
{
    uint32_t old;

    if (pz_keymap_get(&h->live, handle, 0, &old))
        h->list[old].live = 0;
    return pz_keymap_put(&h->live, handle, 0, ref);
}

uint32_t pz_handles_made(struct pz_handles *h, MPI_Comm comm, const char *name,
                         uint64_t handle)
{
    uint32_t ref = PZ_NO_HANDLE;
    char *key;

    pthread_mutex_lock(&h->lock);
    if (h->count == h->cap) {
        uint32_t cap = h->cap ? 2 * h->cap : 8;
        struct pz_handle *grown = realloc(h->list, cap * sizeof(*grown));

        if (grown) {
            h->list = grown;
            h->cap = cap;
        }
    }
    if (h->count < h->cap && make_live(h, handle, h->count) == 0 &&
        (key = identity(h, comm, name ? name : ""))) {
        h->list[h->count] = (struct pz_handle){ handle, 1, key };
        ref = h->count++;
    } else {
        pz_keymap_remove(&h->live, handle, 0);
    }
    pthread_mutex_unlock(&h->lock);
    return ref;
}

uint32_t pz_handles_find(struct pz_handles *h, uint64_t handle)
{
    uint32_t ref = PZ_NO_HANDLE;

    pthread_mutex_lock(&h->lock);
    pz_keymap_get(&h->live, handle, 0, &ref);
    pthread_mutex_unlock(&h->lock);
    return ref;
}

void pz_handles_freed(struct pz_handles *h, uint32_t ref)
{
    pthread_mutex_lock(&h->lock);
    if (ref < h->count && h->list[ref].live) {
        h->list[ref].live = 0;
        pz_keymap_remove(&h->live, h->list[ref].handle, 0);
    }
    pthread_mutex_unlock(&h->lock);
}

uint32_t pz_handles_count(struct pz_handles *h)
{
    uint32_t n;

    pthread_mutex_lock(&h->lock);
    n = h->count;
    pthread_mutex_unlock(&h->lock);
    return n;
}

void pz_handles_identities(struct pz_handles *h, struct pz_strings *out)
{
    pthread_mutex_lock(&h->lock);
    for (uint32_t i = 0; i < h->count; i++)
        pz_strings_add(out, h->list[i].key);
    pthread_mutex_unlock(&h->lock);
}

int pz_handles_unify(struct pz_handles *h, MPI_Comm comm, uint32_t *map, char ***keys,
                     uint32_t *nkeys)
{
    struct pz_strings packed = { 0 };
    int ret;

    pz_handles_identities(h, &packed);
    ret = pz_unify_strings(comm, packed.text, (int)packed.len, packed.n, map, keys, nkeys);
    free(packed.text);
    return ret;
}
