/* A map from a pair of keys to a 32-bit value, for the registries of handles
 * (handles.c), which a program may fill with tens of thousands of windows made and
 * freed one after the other: found in constant time, where a list is searched in time
 * growing with every handle made before.  Not thread-safe: its owner locks. */
#ifndef PZ_KEYMAP_H
#define PZ_KEYMAP_H

#include <stdint.h>

struct pz_keymap_slot;

/* Zero-initialized, it is an empty map. */
struct pz_keymap {
    struct pz_keymap_slot *slots;
    uint32_t cap, count;
};

/* Maps (a, b) to value, replacing what it mapped to.  Returns 0, or -1 if memory ran
 * out (the map is then unchanged). */
int pz_keymap_put(struct pz_keymap *m, uint64_t a, int64_t b, uint32_t value);

/* 1 and the value of (a, b) in *value, or 0 if (a, b) is not in the map. */
int pz_keymap_get(const struct pz_keymap *m, uint64_t a, int64_t b, uint32_t *value);

/* Takes (a, b) out of the map, if it is there. */
void pz_keymap_remove(struct pz_keymap *m, uint64_t a, int64_t b);

/* Frees the map's memory; it is then empty. */
void pz_keymap_clear(struct pz_keymap *m);

#endif
