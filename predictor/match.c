/* Per destination, a list of unmatched requests in posting order. */
#include <stdlib.h>
#include <string.h>

#include "match.h"

int pz_match_init(struct pz_match *m, int nprocs)
{
    m->nprocs = nprocs;
    m->lists = calloc((size_t)(nprocs > 0 ? nprocs : 1) * PZ_MATCH_BUCKETS, sizeof(*m->lists));
    return m->lists ? 0 : -1;
}

/* The list of a key: its destination's, by a hash of the rest. */
static struct pz_match_list *list_of(struct pz_match *m, const struct pz_match_key *k)
{
    uint32_t h = ((uint32_t)k->src * 0x9E3779B1u) ^ ((uint32_t)k->tag * 0x85EBCA77u) ^
                 ((uint32_t)k->comm * 0xC2B2AE3Du);

    return &m->lists[(size_t)k->dst * PZ_MATCH_BUCKETS + (h >> 27)];
}

static int same(const struct pz_match_key *a, const struct pz_match_key *b)
{
    return a->comm == b->comm && a->src == b->src && a->dst == b->dst && a->tag == b->tag;
}

static void drop(struct pz_match_list *l, uint32_t i)
{
    if (i + 1 < l->n)          /* the last one, the usual case, needs no move */
        memmove(&l->items[i], &l->items[i + 1], (l->n - i - 1) * sizeof(l->items[0]));
    l->n--;
}

int pz_match_take_or_add(struct pz_match *m, struct pz_match_key key,
                         struct pz_match_item item, struct pz_match_item *partner)
{
    struct pz_match_list *l = list_of(m, &key);

    for (uint32_t i = 0; i < l->n; i++) {
        if (!same(&l->items[i].key, &key))
            continue;
        if (l->items[i].item.is_send == item.is_send)
            break;                          /* wait behind the older ones of its kind */
        *partner = l->items[i].item;
        drop(l, i);
        return 1;
    }
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 4;
        struct pz_match_entry *grown = realloc(l->items, cap * sizeof(*grown));

        if (!grown)
            return -1;
        l->items = grown;
        l->cap = cap;
    }
    l->items[l->n++] = (struct pz_match_entry){ key, item };
    return 0;
}

int pz_match_remove(struct pz_match *m, const struct pz_match_key *key, int request)
{
    struct pz_match_list *l = list_of(m, key);

    for (uint32_t i = 0; i < l->n; i++) {
        if (l->items[i].item.request == request && same(&l->items[i].key, key)) {
            drop(l, i);
            return 0;
        }
    }
    return -1;
}

void pz_match_release(struct pz_match *m)
{
    for (size_t i = 0; m->lists && i < (size_t)m->nprocs * PZ_MATCH_BUCKETS; i++)
        free(m->lists[i].items);
    free(m->lists);
    m->lists = NULL;
}
