/* One hash table of unmatched requests, linear probing.  Why the order of a key's
 * requests holds: a request goes to the first free slot from its key's home slot, after
 * every older one of its key (no free slot lies between a home and a request of it), and
 * removing one shifts the requests after it back without passing one another. */
#include <stdlib.h>

#include "match.h"

#define FIRST_SLOTS 64

/* The key's home slot: its four fields in two words, mixed by multiplying, the slot
 * from the top bits of the product (the best mixed). */
static uint32_t home_of(const struct pz_match *m, const struct pz_match_key *k)
{
    uint64_t a = (uint64_t)(uint32_t)k->src << 32 | (uint32_t)k->dst;
    uint64_t b = (uint64_t)(uint32_t)k->tag << 32 | (uint32_t)k->comm;

    return (uint32_t)(((a + b * 0xC2B2AE3D27D4EB4Fu) * 0x9E3779B97F4A7C15u) >> m->shift);
}

static int is_free(const struct pz_match_entry *e)
{
    return e->key.dst < 0;
}

static int same(const struct pz_match_key *a, const struct pz_match_key *b)
{
    return a->comm == b->comm && a->src == b->src && a->dst == b->dst && a->tag == b->tag;
}

/* A table of n slots (a power of two), all free; 0, or -1 if memory ran out. */
static int make_slots(struct pz_match *m, uint32_t n)
{
    if (!(m->slots = malloc((size_t)n * sizeof(*m->slots))))
        return -1;
    for (uint32_t i = 0; i < n; i++)
        m->slots[i].key.dst = -1;
    m->mask = n - 1;
    m->shift = 64;
    while (n >>= 1)
        m->shift--;
    m->n = 0;
    return 0;
}

int pz_match_init(struct pz_match *m, int nprocs)
{
    uint32_t n = FIRST_SLOTS;

    while (n < 2 * (uint32_t)(nprocs > 0 ? nprocs : 1) && n < (1u << 30))
        n *= 2;
    return make_slots(m, n);
}

/* Puts e in the first free slot from slot i (its home, or a slot past it). */
static void put_from(struct pz_match *m, uint32_t i, const struct pz_match_entry *e)
{
    while (!is_free(&m->slots[i]))
        i = (i + 1) & m->mask;
    m->slots[i] = *e;
    m->n++;
}

/* Doubles the slots.  The old ones are read from a free slot on, so that each run of
 * used slots is read from its start and a key's requests are put back oldest first. */
static int grow(struct pz_match *m)
{
    struct pz_match_entry *old = m->slots;
    uint32_t size = m->mask + 1, start = 0;

    if (size >= (1u << 30) || make_slots(m, 2 * size) != 0) {
        m->slots = old;
        return -1;
    }
    while (!is_free(&old[start]))
        start++;
    for (uint32_t k = 0; k < size; k++) {
        const struct pz_match_entry *e = &old[(start + k) & (size - 1)];

        if (!is_free(e))
            put_from(m, home_of(m, &e->key), e);
    }
    free(old);
    return 0;
}

/* Frees slot i: the requests after it in its run move back into the hole when their
 * home is not after it (backward shift, so that no free slot lies between a request and
 * its home). */
static void remove_at(struct pz_match *m, uint32_t i)
{
    for (uint32_t j = (i + 1) & m->mask; !is_free(&m->slots[j]); j = (j + 1) & m->mask) {
        uint32_t home = home_of(m, &m->slots[j].key);

        if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
            m->slots[i] = m->slots[j];
            i = j;
        }
    }
    m->slots[i].key.dst = -1;
    m->n--;
}

int pz_match_take_or_add(struct pz_match *m, struct pz_match_key key,
                         struct pz_match_item item, struct pz_match_item *partner)
{
    uint32_t i = home_of(m, &key);

    for (; !is_free(&m->slots[i]); i = (i + 1) & m->mask) {
        if (!same(&m->slots[i].key, &key))
            continue;
        if (m->slots[i].item.is_send == item.is_send)
            break;                          /* wait behind the older ones of its kind */
        *partner = m->slots[i].item;
        remove_at(m, i);
        return 1;
    }
    if (2 * (m->n + 1) > m->mask + 1) {
        if (grow(m) != 0)
            return -1;
        i = home_of(m, &key);
    }
    put_from(m, i, &(struct pz_match_entry){ key, item });
    return 0;
}

int pz_match_remove(struct pz_match *m, const struct pz_match_key *key, int request)
{
    for (uint32_t i = home_of(m, key); !is_free(&m->slots[i]); i = (i + 1) & m->mask) {
        if (m->slots[i].item.request == request && same(&m->slots[i].key, key)) {
            remove_at(m, i);
            return 0;
        }
    }
    return -1;
}

void pz_match_release(struct pz_match *m)
{
    free(m->slots);
    m->slots = NULL;
    m->n = m->mask = 0;
}
