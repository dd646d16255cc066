/* The map of the handle registries (wrapper/keymap.h): every key put is found with its
 * latest value until removed, and removing one key leaves every other reachable,
 * including keys that probed past it, wrapped around the end of the table. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "keymap.h"

static struct pz_keymap map;

static void clear(void)
{
    pz_keymap_clear(&map);
}

TestSuite(keymap, .fini = clear);

static uint32_t value_of(uint64_t a, int64_t b)
{
    uint32_t v = UINT32_MAX;

    cr_assert(pz_keymap_get(&map, a, b, &v), "(%llu, %lld) is missing", (unsigned long long)a,
              (long long)b);
    return v;
}

Test(keymap, an_empty_map_finds_nothing)
{
    uint32_t v;

    cr_assert_not(pz_keymap_get(&map, 7, 0, &v));
    pz_keymap_remove(&map, 7, 0);
    cr_assert_eq(map.count, 0);
}

Test(keymap, a_put_replaces_and_the_two_keys_are_told_apart)
{
    uint32_t v;

    cr_assert_eq(pz_keymap_put(&map, 5, 1, 10), 0);
    cr_assert_eq(pz_keymap_put(&map, 5, 2, 20), 0);
    cr_assert_eq(pz_keymap_put(&map, 5, 1, 11), 0);
    cr_assert_eq(value_of(5, 1), 11);
    cr_assert_eq(value_of(5, 2), 20);
    cr_assert_eq(map.count, 2);
    cr_assert_not(pz_keymap_get(&map, 1, 5, &v));
}

/* Windows made and freed one after another, as a Global Arrays code makes them: 20000
 * keys pass through, at most 3 live at a time; the table stays small (at most half full:
 * 16 slots hold 3) and each live key keeps its value. */
Test(keymap, keys_passing_through_leave_the_table_small)
{
    for (uint64_t k = 0; k < 20000; k++) {
        cr_assert_eq(pz_keymap_put(&map, 0x8000000000u + 16 * k, 0, (uint32_t)k), 0);
        if (k >= 2) {
            cr_assert_eq(value_of(0x8000000000u + 16 * (k - 2), 0), k - 2);
            pz_keymap_remove(&map, 0x8000000000u + 16 * (k - 2), 0);
        }
    }
    cr_assert_eq(map.count, 2);
    cr_assert_eq(map.cap, 16);
    cr_assert_eq(value_of(0x8000000000u + 16 * 19999, 0), 19999);
}

/* Every second key of 4000 removed, in an order unrelated to their slots: the others
 * are all found (a backward shift that moved an entry before its home, or left a gap on
 * a probe path, loses some). */
Test(keymap, removals_keep_every_other_key_reachable)
{
    uint32_t v;

    for (uint32_t k = 0; k < 4000; k++)
        cr_assert_eq(pz_keymap_put(&map, k * 2654435761u, -(int64_t)k, k), 0);
    for (uint32_t k = 1; k < 4000; k += 2)
        pz_keymap_remove(&map, ((k * 7919u) % 4000 | 1) * 2654435761u,
                         -(int64_t)((k * 7919u) % 4000 | 1));
    cr_assert_eq(map.count, 2000);
    for (uint32_t k = 0; k < 4000; k++) {
        if (k % 2)
            cr_assert_not(pz_keymap_get(&map, k * 2654435761u, -(int64_t)k, &v));
        else
            cr_assert_eq(value_of(k * 2654435761u, -(int64_t)k), k);
    }
}
