/* The numbering of a partial run's definitions, as finalize's unification would make
 * it (assembly.h; comms_unify.c and unify.c do the same over MPI). */
#include <stdlib.h>
#include <string.h>

#include "assembly.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return (x > y) - (x < y);
}

static uint32_t find_gid(const struct pz_global_comm *all, uint32_t n, uint64_t gid)
{
    uint32_t lo = 0, hi = n;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (all[mid].gid < gid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Every global id once, sorted. */
static int number_gids(const struct pz_part *parts, int size, struct pz_assembly *a)
{
    size_t n = 0, m = 0;
    uint64_t *gids;

    for (int r = 0; r < size; r++)
        n += parts[r].ending ? parts[r].ncomms : 0;
    if (!(gids = malloc((n ? n : 1) * sizeof(uint64_t))))
        return -1;
    for (int r = 0; r < size; r++)
        for (uint32_t i = 0; parts[r].ending && i < parts[r].ncomms; i++)
            gids[m++] = parts[r].comms[i].gid;
    qsort(gids, n, sizeof(uint64_t), cmp_u64);
    a->comms = calloc(n ? n : 1, sizeof(*a->comms));
    for (size_t i = 0; a->comms && i < n; i++)
        if (a->ncomms == 0 || a->comms[a->ncomms - 1].gid != gids[i])
            a->comms[a->ncomms++].gid = gids[i];
    free(gids);
    return a->comms ? 0 : -1;
}

/* The first description with members of each communicator, in rank order. */
static int unify_comms(const struct pz_part *parts, int size, struct pz_assembly *a)
{
    if (number_gids(parts, size, a) != 0)
        return -1;
    for (int r = 0; r < size; r++) {
        const struct pz_part *p = &parts[r];

        if (!p->ending)
            continue;
        if (!(a->comm_maps[r] = malloc((p->ncomms ? p->ncomms : 1) * sizeof(uint32_t))))
            return -1;
        for (uint32_t i = 0; i < p->ncomms; i++) {
            const struct pz_comm_info *c = &p->comms[i];
            struct pz_global_comm *g = &a->comms[a->comm_maps[r][i] =
                                                     find_gid(a->comms, a->ncomms, c->gid)];

            if (g->members || !c->members)
                continue;
            g->creator = c->creator;
            g->size = c->size;
            g->remote_size = c->remote_size;
            g->members = c->members;
            g->ndims = c->ndims;
            g->cart = c->cart;
        }
    }
    return 0;
}

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Numbers the strings that field picks from each part, in order of first appearance;
 * an open-addressing table of 2^k slots holding global number + 1 finds repeats. */
static int unify_strings(const struct pz_part *parts, int size,
                         const struct pz_part_strings *(*field)(const struct pz_part *),
                         struct pz_assembly_strings *out)
{
    uint32_t total = 0, nslots = 1, *slots;

    for (int r = 0; r < size; r++)
        total += parts[r].ending ? field(&parts[r])->n : 0;
    while (nslots < 2 * total + 1)
        nslots *= 2;
    slots = calloc(nslots, sizeof(uint32_t));
    out->all = malloc((total ? total : 1) * sizeof(char *));
    out->maps = calloc(size > 0 ? (size_t)size : 1, sizeof(uint32_t *));
    if (!slots || !out->all || !out->maps)
        return free(slots), -1;
    for (int r = 0; r < size; r++) {
        const struct pz_part_strings *list = parts[r].ending ? field(&parts[r]) : NULL;

        if (list && !(out->maps[r] = malloc((list->n ? list->n : 1) * sizeof(uint32_t))))
            return free(slots), -1;
        for (uint32_t i = 0; list && i < list->n; i++) {
            uint32_t s = hash(list->s[i]) & (nslots - 1);

            while (slots[s] && strcmp(out->all[slots[s] - 1], list->s[i]) != 0)
                s = (s + 1) & (nslots - 1);
            if (!slots[s]) {
                out->all[out->nall] = list->s[i];
                slots[s] = ++out->nall;
            }
            out->maps[r][i] = slots[s] - 1;
        }
    }
    free(slots);
    return 0;
}

static const struct pz_part_strings *lists_of(const struct pz_part *p)
{
    return &p->lists;
}

static const struct pz_part_strings *intervals_of(const struct pz_part *p)
{
    return &p->intervals;
}

static const struct pz_part_strings *sites_of(const struct pz_part *p)
{
    return &p->sites;
}

static const struct pz_part_strings *io_handles_of(const struct pz_part *p)
{
    return &p->io_handles;
}

static const struct pz_part_strings *windows_of(const struct pz_part *p)
{
    return &p->windows;
}

static const struct pz_part_strings *rma_groups_of(const struct pz_part *p)
{
    return &p->rma_groups;
}

int pz_assembly_unify(const struct pz_part *parts, int size, struct pz_assembly *a)
{
    memset(a, 0, sizeof(*a));
    a->size = size;
    if (size <= 0 || !(a->comm_maps = calloc((size_t)size, sizeof(uint32_t *))))
        return -1;
    if (unify_comms(parts, size, a) != 0 ||
        unify_strings(parts, size, lists_of, &a->lists) != 0 ||
        unify_strings(parts, size, intervals_of, &a->intervals) != 0 ||
        unify_strings(parts, size, sites_of, &a->sites) != 0 ||
        unify_strings(parts, size, io_handles_of, &a->io_handles) != 0 ||
        unify_strings(parts, size, windows_of, &a->windows) != 0 ||
        unify_strings(parts, size, rma_groups_of, &a->rma_groups) != 0) {
        pz_assembly_free(a);
        return -1;
    }
    return 0;
}

static void strings_free(struct pz_assembly_strings *s, int size)
{
    for (int r = 0; s->maps && r < size; r++)
        free(s->maps[r]);
    free(s->maps);
    free(s->all);
}

void pz_assembly_free(struct pz_assembly *a)
{
    for (int r = 0; a->comm_maps && r < a->size; r++)
        free(a->comm_maps[r]);
    free(a->comm_maps);
    free(a->comms);
    strings_free(&a->lists, a->size);
    strings_free(&a->intervals, a->size);
    strings_free(&a->sites, a->size);
    strings_free(&a->io_handles, a->size);
    strings_free(&a->windows, a->size);
    strings_free(&a->rma_groups, a->size);
    memset(a, 0, sizeof(*a));
}
