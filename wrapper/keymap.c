/* The map of keymap.h: open addressing with linear probing, at most half full, and
 * backward-shift deletion, so that a map through which many keys pass (windows made and
 * freed) keeps no tombstones and its probes stay short. */
#include <stdlib.h>

#include "keymap.h"

struct pz_keymap_slot {
    uint64_t a;
    int64_t b;
    uint32_t value;
    uint32_t used;
};

static uint32_t home(const struct pz_keymap *m, uint64_t a, int64_t b)
{
    uint64_t h = (a ^ ((uint64_t)b * 0x9e3779b97f4a7c15u)) * 0xff51afd7ed558ccdu;

    return (uint32_t)(h >> 32) & (m->cap - 1);
}

/* The slot of (a, b), or the free slot where it would go. */
static uint32_t probe(const struct pz_keymap *m, uint64_t a, int64_t b)
{
    uint32_t i = home(m, a, b);

    while (m->slots[i].used && (m->slots[i].a != a || m->slots[i].b != b))
        i = (i + 1) & (m->cap - 1);
    return i;
}

/* Doubles the table (16 slots at first) and places every entry again; -1 if memory ran
 * out. */
static int grow(struct pz_keymap *m)
{
    struct pz_keymap old = *m;

    m->cap = old.cap ? 2 * old.cap : 16;
    if (!(m->slots = calloc(m->cap, sizeof(*m->slots)))) {
        *m = old;
        return -1;
    }
    for (uint32_t i = 0; i < old.cap; i++)
        if (old.slots[i].used)
            m->slots[probe(m, old.slots[i].a, old.slots[i].b)] = old.slots[i];
    free(old.slots);
    return 0;
}

int pz_keymap_put(struct pz_keymap *m, uint64_t a, int64_t b, uint32_t value)
{
    uint32_t i;

    if (2 * (m->count + 1) > m->cap && grow(m) < 0)
        return -1;
    i = probe(m, a, b);
    m->count += !m->slots[i].used;
    m->slots[i] = (struct pz_keymap_slot){ a, b, value, 1 };
    return 0;
}

int pz_keymap_get(const struct pz_keymap *m, uint64_t a, int64_t b, uint32_t *value)
{
    uint32_t i;

    if (!m->cap)
        return 0;
    i = probe(m, a, b);
    if (!m->slots[i].used)
        return 0;
    *value = m->slots[i].value;
    return 1;
}

/* Whether an entry whose home is `at` may move into the hole at `hole`, the hole lying
 * on its probe path (cyclically from its home to where it is, `from`). */
static int may_fill(uint32_t at, uint32_t hole, uint32_t from)
{
    return hole <= from ? at <= hole || at > from : at <= hole && at > from;
}

void pz_keymap_remove(struct pz_keymap *m, uint64_t a, int64_t b)
{
    uint32_t hole, i;

    if (!m->cap || !m->slots[hole = probe(m, a, b)].used)
        return;
    m->slots[hole].used = 0;
    m->count--;
    for (i = (hole + 1) & (m->cap - 1); m->slots[i].used; i = (i + 1) & (m->cap - 1)) {
        if (may_fill(home(m, m->slots[i].a, m->slots[i].b), hole, i)) {
            m->slots[hole] = m->slots[i];
            m->slots[i].used = 0;
            hole = i;
        }
    }
}

void pz_keymap_clear(struct pz_keymap *m)
{
    free(m->slots);
    *m = (struct pz_keymap){ 0 };
}
