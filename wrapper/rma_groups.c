/* The groups of one-sided epochs (rma_groups.h): a list of identities under a lock, as
 * epochs' groups are few and mostly the same ones again. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rma_groups.h"

static char **identities;                 /* by local reference */
static uint32_t nidentities, identities_cap;
static uint32_t *epochs;                  /* by window: access group, exposure group */
static uint32_t nepochs;                  /* windows */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* "N W0 W1 ...": the group's size and its members' world ranks; NULL if MPI cannot
 * translate them or memory ran out. */
static char *identity(MPI_Group group)
{
    MPI_Group world;
    int n = 0, *ranks = NULL, *world_ranks = NULL;
    char *text = NULL, *p;

    if (group == MPI_GROUP_NULL || PMPI_Group_size(group, &n) != MPI_SUCCESS || n < 0 ||
        PMPI_Comm_group(MPI_COMM_WORLD, &world) != MPI_SUCCESS)
        return NULL;
    ranks = malloc((size_t)(n ? n : 1) * sizeof(int));
    world_ranks = malloc((size_t)(n ? n : 1) * sizeof(int));
    if (ranks && world_ranks && (text = malloc((size_t)n * 12 + 12))) {
        for (int i = 0; i < n; i++)
            ranks[i] = i;
        p = text + sprintf(text, "%d", n);
        if (n > 0 && PMPI_Group_translate_ranks(group, n, ranks, world, world_ranks) !=
                         MPI_SUCCESS) {
            free(text);
            text = NULL;
        }
        for (int i = 0; text && i < n; i++)
            p += sprintf(p, " %d", world_ranks[i]);
    }
    PMPI_Group_free(&world);
    free(ranks);
    free(world_ranks);
    return text;
}

/* The reference of text, added if new (which takes text); PZ_NO_GROUP if memory ran
 * out.  Under the lock. */
static uint32_t find_or_add(char *text)
{
    for (uint32_t i = 0; i < nidentities; i++) {
        if (!strcmp(identities[i], text)) {
            free(text);
            return i;
        }
    }
    if (nidentities == identities_cap) {
        uint32_t cap = identities_cap ? 2 * identities_cap : 8;
        char **grown = realloc(identities, cap * sizeof(*grown));

        if (!grown) {
            free(text);
            return PZ_NO_GROUP;
        }
        identities = grown;
        identities_cap = cap;
    }
    identities[nidentities] = text;
    return nidentities++;
}

uint32_t pz_rma_groups_intern(MPI_Group group)
{
    char *text = identity(group);
    uint32_t ref;

    if (!text)
        return PZ_NO_GROUP;
    pthread_mutex_lock(&lock);
    ref = find_or_add(text);
    pthread_mutex_unlock(&lock);
    return ref;
}

void pz_rma_epoch_open(uint32_t win, enum pz_rma_epoch epoch, uint32_t group)
{
    pthread_mutex_lock(&lock);
    if (win >= nepochs && win < UINT32_MAX / 4) {
        uint32_t n = 2 * win + 8;
        uint32_t *grown = realloc(epochs, 2 * n * sizeof(*grown));

        if (grown) {
            for (uint32_t i = 2 * nepochs; i < 2 * n; i++)
                grown[i] = PZ_NO_GROUP;
            epochs = grown;
            nepochs = n;
        }
    }
    if (win < nepochs)
        epochs[2 * win + epoch] = group;
    pthread_mutex_unlock(&lock);
}

uint32_t pz_rma_epoch_group(uint32_t win, enum pz_rma_epoch epoch)
{
    uint32_t group = PZ_NO_GROUP;

    pthread_mutex_lock(&lock);
    if (win < nepochs)
        group = epochs[2 * win + epoch];
    pthread_mutex_unlock(&lock);
    return group;
}

void pz_rma_epoch_close(uint32_t win, enum pz_rma_epoch epoch)
{
    pthread_mutex_lock(&lock);
    if (win < nepochs)
        epochs[2 * win + epoch] = PZ_NO_GROUP;
    pthread_mutex_unlock(&lock);
}

uint32_t pz_rma_groups_count(void)
{
    return nidentities;
}

void pz_rma_groups_identities(struct pz_strings *out)
{
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < nidentities; i++)
        pz_strings_add(out, identities[i]);
    pthread_mutex_unlock(&lock);
}

int pz_rma_groups_unify(MPI_Comm comm, uint32_t *map, char ***all, uint32_t *nall)
{
    struct pz_strings ids = { 0 };
    int rc;

    pz_rma_groups_identities(&ids);
    rc = pz_unify_strings(comm, ids.text ? ids.text : "", (int)ids.len, ids.n, map, all,
                          nall);
    free(ids.text);
    return rc;
}
