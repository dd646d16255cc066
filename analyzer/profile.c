/* The profile of MPI functions and of their call sites over the whole run. */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

static struct pz_function *function_of(struct reader *r, uint32_t region)
{
    struct region *g = &r->regions[region];
    struct pz_analysis *a = r->a;

    if (g->function < 0) {
        struct pz_function *grown = realloc(a->functions,
                                            (size_t)(a->nfunctions + 1) * sizeof(*grown));

        if (!grown)
            return NULL;
        a->functions = grown;
        memset(&grown[a->nfunctions], 0, sizeof(*grown));
        grown[a->nfunctions].name = strdup(g->info->name);
        g->function = a->nfunctions++;
    }
    return &a->functions[g->function];
}

/* The call site entry of (site, region), made on first use. */
static struct pz_callsite *callsite_of(struct reader *r, uint32_t site, uint32_t region)
{
    struct pz_analysis *a = r->a;
    uint64_t slot = (uint64_t)site * r->nregions + region;
    struct pz_callsite *grown;
    const char *file;

    if (site >= r->defs.nsites || slot >= r->nsite_slots)
        return NULL;
    if (r->site_index[slot])
        return &a->callsites[r->site_index[slot] - 1];
    grown = realloc(a->callsites, (size_t)(a->ncallsites + 1) * sizeof(*grown));
    if (!grown)
        return NULL;
    a->callsites = grown;
    grown += a->ncallsites;
    memset(grown, 0, sizeof(*grown));
    file = pz_defs_string(&r->defs, r->defs.sites[site].file);
    grown->file = strdup(file ? file : "??");
    grown->line = r->defs.sites[site].line;
    grown->function = strdup(function_of(r, region) ? function_of(r, region)->name : "?");
    r->site_index[slot] = (uint32_t)++a->ncallsites;
    return grown;
}

void pz_profile_call(struct reader *r, uint32_t region, uint32_t site, double duration)
{
    struct pz_function *f = function_of(r, region);
    struct pz_callsite *c;

    if (f) {
        f->calls++;
        f->time += duration;
        if (duration > f->max)
            f->max = duration;
    }
    if (site != UINT32_MAX && (c = callsite_of(r, site, region))) {
        c->calls++;
        c->time += duration;
    }
}

void pz_profile_enter(struct reader *r, uint32_t region, uint32_t site)
{
    function_of(r, region);
    if (site != UINT32_MAX)
        callsite_of(r, site, region);
}

void pz_profile_bytes(struct reader *r, uint32_t region, uint64_t sent, uint64_t received)
{
    struct pz_function *f = function_of(r, region);

    if (f) {
        f->bytes_sent += sent;
        f->bytes_received += received;
    }
}
