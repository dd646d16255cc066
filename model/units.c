/* Parsing of quantities: a number, optional blanks, a unit from a table. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

struct unit {
    const char *name;
    double factor;
};

static const struct unit times[] = {
    { "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1.0 },
};

static const struct unit sizes[] = {
    { "B", 1.0 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 },
    { "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
    { "bit", 0.125 }, { "kbit", 125.0 }, { "Kbit", 125.0 }, { "Mbit", 125e3 },
    { "Gbit", 125e6 },
};

/* The number at the start of text and the unit after it (blanks skipped). */
static int split(const char *text, double *number, const char **unit)
{
    char *end;

    *number = strtod(text, &end);
    if (end == text || *number < 0 || *number != *number)
        return -1;
    while (isspace((unsigned char)*end))
        end++;
    *unit = end;
    return 0;
}

/* number x factor into *out, unless it is infinite ("inf", or too large for a double:
 * nothing downstream, a JSON report least of all, can use it). */
static int finite_product(double number, double factor, double *out)
{
    double v = number * factor;

    if (!isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int lookup(const struct unit *units, size_t n, const char *name, size_t len,
                  double *factor)
{
    for (size_t i = 0; i < n; i++) {
        if (strlen(units[i].name) == len && !strncmp(units[i].name, name, len)) {
            *factor = units[i].factor;
            return 0;
        }
    }
    return -1;
}

int pz_parse_time(const char *text, double *seconds)
{
    double number, factor;
    const char *unit;

    if (split(text, &number, &unit) != 0 ||
        lookup(times, sizeof(times) / sizeof(times[0]), unit, strlen(unit), &factor) != 0)
        return -1;
    return finite_product(number, factor, seconds);
}

int pz_parse_bytes(const char *text, double *bytes)
{
    double number, factor = 1.0;
    const char *unit;

    if (split(text, &number, &unit) != 0)
        return -1;
    if (*unit && lookup(sizes, sizeof(sizes) / sizeof(sizes[0]), unit, strlen(unit),
                        &factor) != 0)
        return -1;
    return finite_product(number, factor, bytes);
}

int pz_parse_bandwidth(const char *text, double *bytes_per_second)
{
    double number, factor;
    const char *unit;
    size_t len;

    if (split(text, &number, &unit) != 0)
        return -1;
    len = strlen(unit);
    if (len < 3 || strcmp(unit + len - 2, "/s") != 0 ||
        lookup(sizes, sizeof(sizes) / sizeof(sizes[0]), unit, len - 2, &factor) != 0)
        return -1;
    return finite_product(number, factor, bytes_per_second);
}
