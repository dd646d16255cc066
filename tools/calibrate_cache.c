/* The caches as the kernel describes them (calibrate_cache.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "calibrate_cache.h"

#define MAX_INDEX 16
#define MAX_LEVEL 4

/* The first line of dir/indexN/name into buf; -1 if it cannot be read. */
static int read_line(const char *dir, int n, const char *name, char *buf, int size)
{
    char path[4096];
    FILE *f;
    int ok;

    if (snprintf(path, sizeof(path), "%s/index%d/%s", dir, n, name) >= (int)sizeof(path) ||
        !(f = fopen(path, "r")))
        return -1;
    ok = fgets(buf, size, f) != NULL;
    fclose(f);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* "32768K" in bytes; 0 if it is no size. */
static double parse_size(const char *s)
{
    double v;
    char unit = '\0', extra;
    int got = sscanf(s, "%lf%c%c", &v, &unit, &extra);

    if (got < 1 || got > 2 || !(v > 0))
        return 0;
    switch (got == 1 ? '\0' : unit) {
    case '\0':
        return v;
    case 'K':
        return v * 1024;
    case 'M':
        return v * 1024 * 1024;
    case 'G':
        return v * 1024 * 1024 * 1024;
    default:
        return 0;
    }
}

double pz_cal_cache_level(const char *dir, int level)
{
    double largest = 0;
    char buf[64];
    int l;

    for (int n = 0; n < MAX_INDEX; n++) {
        if (read_line(dir, n, "level", buf, sizeof(buf)) != 0 || sscanf(buf, "%d", &l) != 1 ||
            l != level)
            continue;
        if (read_line(dir, n, "type", buf, sizeof(buf)) == 0 && !strcmp(buf, "Instruction"))
            continue;
        if (read_line(dir, n, "size", buf, sizeof(buf)) == 0 && parse_size(buf) > largest)
            largest = parse_size(buf);
    }
    return largest;
}

double pz_cal_cache_last_level(const char *dir)
{
    for (int level = MAX_LEVEL; level >= 1; level--) {
        double size = pz_cal_cache_level(dir, level);

        if (size > 0)
            return size;
    }
    return 0;
}

double pz_cal_cache_size(void)
{
    double described = pz_cal_cache_last_level(PZ_CAL_CACHE_SYSFS);
    long l3 = 0, l2 = 0;

#ifdef _SC_LEVEL3_CACHE_SIZE
    l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
    l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    if (described > 0)
        return described;
    return l3 > 0 ? (double)l3 : l2 > 0 ? (double)l2 : 0;
}
