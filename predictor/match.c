/* Open addressing with linear probing; removal shifts the following entries back, so no
 * tombstones accumulate (Knuth, TAOCP 6.4, algorithm R). */
#include <stdlib.h>

#include "match.h"

static uint32_t slot_of(const struct pz_match_key *k, uint32_t n)
{
    uint64_t h = (uint32_t)k->comm * 0x9E3779B97F4A7C15ull;

    h = (h ^ (uint32_t)k->src) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (uint32_t)k->dst) * 0x94D049BB133111EBull;
    h = (h ^ (uint32_t)k->tag) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> 32) & (n - 1);
}

static int same(const struct pz_match_key *a, const struct pz_match_key *b)
{
    return a->comm == b->comm && a->src == b->src && a->dst == b->dst && a->tag == b->tag;
}

static int grow(struct pz_match *m)
{
    uint32_t n = m->nslots ? 2 * m->nslots : 256;
    struct pz_match_queue *fresh = calloc(n, sizeof(*fresh));

    if (!fresh)
        return -1;
    for (uint32_t i = 0; i < m->nslots; i++) {
        uint32_t s;

        if (!m->slots[i].used)
            continue;
        for (s = slot_of(&m->slots[i].key, n); fresh[s].used; s = (s + 1) & (n - 1))
            ;
        fresh[s] = m->slots[i];
    }
    free(m->slots);
    m->slots = fresh;
    m->nslots = n;
    return 0;
}

struct pz_match_queue *pz_match_queue(struct pz_match *m, const struct pz_match_key *key)
{
    uint32_t s;

    if (2 * (m->count + 1) > m->nslots && grow(m) != 0)
        return NULL;
    for (s = slot_of(key, m->nslots); m->slots[s].used; s = (s + 1) & (m->nslots - 1))
        if (same(&m->slots[s].key, key))
            return &m->slots[s];
    m->slots[s] = (struct pz_match_queue){ *key, -1, -1, 1 };
    m->count++;
    return &m->slots[s];
}

void pz_match_remove(struct pz_match *m, struct pz_match_queue *q)
{
    uint32_t mask = m->nslots - 1, hole = (uint32_t)(q - m->slots), s = hole;

    m->slots[hole].used = 0;
    m->count--;
    for (;;) {
        uint32_t home;

        s = (s + 1) & mask;
        if (!m->slots[s].used)
            return;
        home = slot_of(&m->slots[s].key, m->nslots);
        /* the entry at s may move to the hole only if its home is not cyclically in
         * (hole, s] */
        if ((s > hole && (home <= hole || home > s)) || (s < hole && home <= hole && home > s)) {
            m->slots[hole] = m->slots[s];
            m->slots[s].used = 0;
            hole = s;
        }
    }
}

void pz_match_release(struct pz_match *m)
{
    free(m->slots);
    m->slots = NULL;
    m->nslots = m->count = 0;
}
