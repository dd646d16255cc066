/* Messages waiting for their other end: the ends in a pool of slots with a free list,
 * matched by model/match.h's table, which keeps a slot's number as the request. */
#include <stdlib.h>

#include "perfetto_int.h"

int pz_pf_flows_init(struct pz_pf_flows *fl, int nprocs)
{
    *fl = (struct pz_pf_flows){ .free = -1 };
    return pz_match_init(&fl->match, nprocs);
}

/* A free slot of ends; -1 if memory ran out. */
static int new_slot(struct pz_pf_flows *fl)
{
    int slot;

    if (fl->free >= 0) {
        slot = fl->free;
        fl->free = fl->next_free[slot];
        return slot;
    }
    if (fl->nends == fl->capends) {
        int cap = fl->capends ? 2 * fl->capends : 64;
        struct pz_pf_end *ends = realloc(fl->ends, (size_t)cap * sizeof(*ends));
        int *next = ends ? realloc(fl->next_free, (size_t)cap * sizeof(*next)) : NULL;

        if (ends)
            fl->ends = ends;
        if (!next)
            return -1;
        fl->next_free = next;
        fl->capends = cap;
    }
    return fl->nends++;
}

int pz_pf_flows_take(struct pz_pf_flows *fl, struct pz_match_key key, int is_send,
                     const struct pz_pf_end *me, struct pz_pf_end *partner)
{
    struct pz_match_item item = { .is_send = is_send }, other;
    int slot = new_slot(fl), rc;

    if (slot < 0)
        return -1;
    item.request = slot;
    fl->ends[slot] = *me;
    rc = pz_match_take_or_add(&fl->match, key, item, &other);
    if (rc == 1) {
        *partner = fl->ends[other.request];
        fl->next_free[other.request] = slot;
        fl->next_free[slot] = fl->free;
        fl->free = other.request;
    } else if (rc < 0) {
        fl->next_free[slot] = fl->free;
        fl->free = slot;
    }
    return rc;
}

uint32_t pz_pf_flows_unmatched(const struct pz_pf_flows *fl)
{
    return fl->match.n;
}

void pz_pf_flows_release(struct pz_pf_flows *fl)
{
    pz_match_release(&fl->match);
    free(fl->ends);
    free(fl->next_free);
    *fl = (struct pz_pf_flows){ .free = -1 };
}
