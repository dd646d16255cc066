/* Call sites numbered in a hash of addresses, locked because every thread writes its
 * own buffer out. */
#include <pthread.h>
#include <stdlib.h>

#include "callsite.h"
#include "sites.h"
#include "unify.h"

int pz_record_sites;

static uintptr_t *sites;               /* by local number */
static uint32_t nsites, sites_cap;
static uint32_t *slots, nslots;        /* local number + 1, 0 when empty */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t slot_of(uintptr_t site, uint32_t n)
{
    return (uint32_t)((site * 0x9E3779B97F4A7C15u) >> 40) & (n - 1);
}

static int grow(void)
{
    uint32_t n = nslots ? 2 * nslots : 1024, *fresh = calloc(n, sizeof(*fresh));
    uintptr_t *more = realloc(sites, (n / 2) * sizeof(*more));

    if (!fresh || !more) {
        free(fresh);
        if (more)
            sites = more;
        return -1;
    }
    sites = more;
    sites_cap = n / 2;
    for (uint32_t i = 0; i < nsites; i++) {
        uint32_t s = slot_of(sites[i], n);

        while (fresh[s])
            s = (s + 1) & (n - 1);
        fresh[s] = i + 1;
    }
    free(slots);
    slots = fresh;
    nslots = n;
    return 0;
}

uint32_t pz_sites_number(uintptr_t site)
{
    uint32_t s, number = UINT32_MAX;

    pthread_mutex_lock(&lock);
    if (nsites + 1 > sites_cap && grow() != 0)
        goto out;
    for (s = slot_of(site, nslots); slots[s]; s = (s + 1) & (nslots - 1)) {
        if (sites[slots[s] - 1] == site) {
            number = slots[s] - 1;
            goto out;
        }
    }
    sites[nsites] = site;
    slots[s] = nsites + 1;
    number = nsites++;
out:
    pthread_mutex_unlock(&lock);
    return number;
}

uint32_t pz_sites_count(void)
{
    return nsites;
}

void pz_sites_identities(struct pz_callsites *cs, struct pz_strings *list)
{
    for (uint32_t i = 0; i < nsites; i++)
        pz_intervals_add_identity(list, cs, sites[i], 0, 0);
}

int pz_sites_unify(MPI_Comm comm, uint32_t *map, struct pz_interval_def **all,
                   uint32_t *nall)
{
    struct pz_callsites *cs = pz_callsites_open();
    struct pz_strings list = { 0 };
    char **texts;
    int rc;

    pz_sites_identities(cs, &list);
    pz_callsites_close(cs);
    rc = pz_unify_strings(comm, list.text ? list.text : "", (int)list.len, list.n, map, &texts,
                          nall);
    *all = pz_intervals_parse(texts, *nall);
    pz_free_strings(texts, *nall);
    free(list.text);
    return rc;
}
