/* The caches as the kernel describes them (tools/calibrate_cache.c), read from a tree
 * laid out as /sys/devices/system/cpu/cpu0/cache is. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "calibrate_cache.h"

static char root[] = "/tmp/pz-test-cache-XXXXXX";

/* root/indexN with the files level, type and size (NULL: not written). */
static void cache(int n, const char *level, const char *type, const char *size)
{
    const char *names[3] = { "level", "type", "size" }, *values[3] = { level, type, size };
    char path[256];

    snprintf(path, sizeof(path), "%s/index%d", root, n);
    cr_assert_eq(mkdir(path, 0700), 0);
    for (int i = 0; i < 3; i++) {
        FILE *f;

        if (!values[i])
            continue;
        snprintf(path, sizeof(path), "%s/index%d/%s", root, n, names[i]);
        cr_assert_not_null(f = fopen(path, "w"));
        fprintf(f, "%s\n", values[i]);
        fclose(f);
    }
}

static void make_root(void)
{
    cr_assert_not_null(mkdtemp(root));
}

static void remove_root(void)
{
    char command[300];

    snprintf(command, sizeof(command), "rm -rf '%s'", root);
    cr_assert_eq(system(command), 0);
}

/* This machine's layout: 32 KiB of data and of instructions at the first level, 1 MiB
 * at the second, 32 MiB at the third (where sysconf reports the host's 320 MiB). */
Test(calibrate_cache, levels_as_the_kernel_describes_them, .init = make_root,
     .fini = remove_root)
{
    cache(0, "1", "Data", "32K");
    cache(1, "1", "Instruction", "64K");
    cache(2, "2", "Unified", "1024K");
    cache(3, "3", "Unified", "32768K");
    cr_assert_eq(pz_cal_cache_level(root, 1), 32 * 1024.0, "the data cache, not the 64K");
    cr_assert_eq(pz_cal_cache_level(root, 2), 1024 * 1024.0);
    cr_assert_eq(pz_cal_cache_level(root, 3), 32 * 1024 * 1024.0);
    cr_assert_eq(pz_cal_cache_level(root, 4), 0, "no fourth level");
    cr_assert_eq(pz_cal_cache_last_level(root), 32 * 1024 * 1024.0, "the third is the last");
}

/* A tree that describes the first level alone has it as its last. */
Test(calibrate_cache, the_first_level_alone, .init = make_root, .fini = remove_root)
{
    cache(0, "1", "Data", "48K");
    cache(1, "1", "Instruction", "32K");
    cr_assert_eq(pz_cal_cache_last_level(root), 48 * 1024.0);
}

/* Sizes in M, G and bytes; of two caches of one level the larger; an index without a
 * level, with a size that is no size, or missing between others is passed over. */
Test(calibrate_cache, units_and_gaps, .init = make_root, .fini = remove_root)
{
    cache(0, "2", "Unified", "2M");
    cache(1, "2", NULL, "3145728");
    cache(2, NULL, "Unified", "64M");
    cache(4, "3", "Unified", "1G");
    cache(5, "4", "Unified", "12Q");
    cache(6, "4", "Unified", "-5K");
    cr_assert_eq(pz_cal_cache_level(root, 2), 3145728.0, "3 MiB in bytes beats 2M");
    cr_assert_eq(pz_cal_cache_level(root, 3), 1024.0 * 1024 * 1024, "index 3 missing");
    cr_assert_eq(pz_cal_cache_level(root, 4), 0, "no size");
}

/* A directory that does not exist describes no cache. */
Test(calibrate_cache, nothing_described)
{
    cr_assert_eq(pz_cal_cache_level("/nonexistent/prognoz/cache", 3), 0);
    cr_assert_eq(pz_cal_cache_last_level("/nonexistent/prognoz/cache"), 0);
}
