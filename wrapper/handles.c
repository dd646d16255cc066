/* The registries of file handles and windows: lists under a lock, as handles are few
 * and made and freed rarely. */
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

struct pz_handles pz_io_files = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };
struct pz_handles pz_rma_windows = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };

/* Handles made on communicator gid led by world rank leader before this one. */
static unsigned earlier(const struct pz_handles *h, uint64_t gid, int leader)
{
    char prefix[48];
    unsigned n = 0;
    size_t len = (size_t)snprintf(prefix, sizeof(prefix), "%llu %d ",
                                  (unsigned long long)gid, leader);

    for (uint32_t i = 0; i < h->count; i++)
        n += strncmp(h->list[i].key, prefix, len) == 0;
    return n;
}

static char *identity(const struct pz_handles *h, MPI_Comm comm, const char *name)
{
    const struct pz_comm_info *c = pz_comm_get(pz_comm_ref(comm));
    int leader = c->members ? c->members[0] : -1;
    unsigned seq = earlier(h, c->gid, leader);
    size_t len = strlen(name) + 64;
    char *key = malloc(len);

    if (key)
        snprintf(key, len, "%llu %d %u %s", (unsigned long long)c->gid, leader, seq, name);
    return key;
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
    if (h->count < h->cap && (key = identity(h, comm, name ? name : ""))) {
        h->list[h->count] = (struct pz_handle){ handle, 1, key };
        ref = h->count++;
    }
    pthread_mutex_unlock(&h->lock);
    return ref;
}

uint32_t pz_handles_find(struct pz_handles *h, uint64_t handle)
{
    uint32_t ref = PZ_NO_HANDLE;

    pthread_mutex_lock(&h->lock);
    for (uint32_t i = 0; i < h->count; i++)
        if (h->list[i].live && h->list[i].handle == handle)
            ref = i;
    pthread_mutex_unlock(&h->lock);
    return ref;
}

void pz_handles_freed(struct pz_handles *h, uint32_t ref)
{
    pthread_mutex_lock(&h->lock);
    if (ref < h->count)
        h->list[ref].live = 0;
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
