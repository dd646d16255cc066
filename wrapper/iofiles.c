/* The registry of MPI-IO file handles: a list under a lock, as files are few and
 * opened and closed rarely. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comms.h"
#include "iofiles.h"
#include "unify.h"

struct handle {
    MPI_File fh;       /* MPI_FILE_NULL once closed */
    char *key;         /* its identity (iofiles.h) */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct handle *handles;
static uint32_t count, cap;

/* Opens on communicator gid led by world rank leader before this one. */
static unsigned earlier_opens(uint64_t gid, int leader)
{
    char prefix[48];
    unsigned n = 0;
    size_t len = (size_t)snprintf(prefix, sizeof(prefix), "%llu %d ",
                                  (unsigned long long)gid, leader);

    for (uint32_t i = 0; i < count; i++)
        n += strncmp(handles[i].key, prefix, len) == 0;
    return n;
}

static char *identity(MPI_Comm comm, const char *filename)
{
    const struct pz_comm_info *c = pz_comm_get(pz_comm_ref(comm));
    int leader = c->members ? c->members[0] : -1;
    unsigned seq = earlier_opens(c->gid, leader);
    size_t len = strlen(filename) + 64;
    char *key = malloc(len);

    if (key)
        snprintf(key, len, "%llu %d %u %s", (unsigned long long)c->gid, leader, seq,
                 filename);
    return key;
}

uint32_t pz_io_opened(MPI_Comm comm, const char *filename, MPI_File fh)
{
    uint32_t ref = PZ_IO_NO_HANDLE;
    char *key;

    pthread_mutex_lock(&lock);
    if (count == cap) {
        uint32_t grown_cap = cap ? 2 * cap : 8;
        struct handle *grown = realloc(handles, grown_cap * sizeof(*grown));

        if (grown) {
            handles = grown;
            cap = grown_cap;
        }
    }
    if (count < cap && (key = identity(comm, filename ? filename : ""))) {
        handles[count] = (struct handle){ fh, key };
        ref = count++;
    }
    pthread_mutex_unlock(&lock);
    return ref;
}

uint32_t pz_io_handle(MPI_File fh)
{
    uint32_t ref = PZ_IO_NO_HANDLE;

    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < count && fh != MPI_FILE_NULL; i++)
        if (handles[i].fh == fh)
            ref = i;
    pthread_mutex_unlock(&lock);
    return ref;
}

void pz_io_closed(uint32_t ref)
{
    pthread_mutex_lock(&lock);
    if (ref < count)
        handles[ref].fh = MPI_FILE_NULL;
    pthread_mutex_unlock(&lock);
}

uint32_t pz_io_count(void)
{
    uint32_t n;

    pthread_mutex_lock(&lock);
    n = count;
    pthread_mutex_unlock(&lock);
    return n;
}

int pz_io_unify(MPI_Comm comm, uint32_t *map, char ***keys, uint32_t *nkeys)
{
    struct pz_strings packed = { 0 };
    int ret;

    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < count; i++)
        pz_strings_add(&packed, handles[i].key);
    pthread_mutex_unlock(&lock);
    ret = pz_unify_strings(comm, packed.text, (int)packed.len, packed.n, map, keys, nkeys);
    free(packed.text);
    return ret;
}
