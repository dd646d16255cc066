/* The reduced timeline of the HTML report (report_html.h): per lane and pixel column,
 * the time of each class of calls, in columns that double their width when the run
 * outgrows them, so that the run's length need not be known before its events. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report_html.h"

int pz_html_buckets_init(struct pz_html_buckets *b, int lanes, int columns, int classes,
                         double width)
{
    *b = (struct pz_html_buckets){ .lanes = lanes, .columns = columns, .classes = classes,
                                   .width = width };
    b->ns = calloc((size_t)lanes * (size_t)columns * (size_t)classes, sizeof(float));
    return b->ns || !lanes ? 0 : -1;
}

void pz_html_buckets_free(struct pz_html_buckets *b)
{
    free(b->ns);
    b->ns = NULL;
}

static float *column(const struct pz_html_buckets *b, int lane, int c)
{
    return b->ns + ((size_t)lane * (size_t)b->columns + (size_t)c) * (size_t)b->classes;
}

/* Twice the width: columns 2c and 2c + 1 become column c. */
static void fold(struct pz_html_buckets *b)
{
    for (int l = 0; l < b->lanes; l++) {
        for (int c = 0; c < b->columns / 2; c++) {
            float *to = column(b, l, c), *a = column(b, l, 2 * c), *z = column(b, l, 2 * c + 1);

            for (int k = 0; k < b->classes; k++)
                to[k] = a[k] + z[k];
        }
        memset(column(b, l, b->columns / 2), 0,
               (size_t)(b->columns / 2) * (size_t)b->classes * sizeof(float));
    }
    b->width *= 2;
}

void pz_html_buckets_add(struct pz_html_buckets *b, int lane, int cls, double from, double to)
{
    int first, last;

    /* a call too short for the clock still shows in its column */
    if (to <= from)
        to = from + 1e-3;
    while (to > b->columns * b->width)
        fold(b);
    if (to > b->end)
        b->end = to;
    first = (int)(from / b->width);
    last = (int)(to / b->width);
    if (last >= b->columns)
        last = b->columns - 1;
    for (int c = first; c <= last; c++) {
        double lo = fmax(from, c * b->width), hi = fmin(to, (c + 1) * b->width);

        if (hi > lo)
            column(b, lane, c)[cls] += (float)(hi - lo);
    }
}

/* In 1/10000 of the column; a class with any time there shows. */
static long share(const struct pz_html_buckets *b, float ns)
{
    long s = lround(ns / b->width * 10000);

    if (ns > 0 && s < 1)
        s = 1;
    return s > 10000 ? 10000 : s;
}

static int empty(const struct pz_html_buckets *b, const float *col)
{
    for (int k = 0; k < b->classes; k++)
        if (col[k] > 0)
            return 0;
    return 1;
}

/* fprintf, counting the bytes in *bytes. */
static void put(FILE *out, uint64_t *bytes, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void put(FILE *out, uint64_t *bytes, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vfprintf(out, fmt, ap);
    va_end(ap);
    if (n > 0)
        *bytes += (uint64_t)n;
}

uint64_t pz_html_buckets_write(FILE *out, const struct pz_html_buckets *b)
{
    int used = (int)ceil(b->end / b->width);
    uint64_t bytes = 0;

    if (used > b->columns)
        used = b->columns;
    put(out, &bytes, "{\"column_ns\": %.17g, \"columns\": %d, \"lanes\": [", b->width, used);
    for (int l = 0; l < b->lanes; l++) {
        int first = 1;

        put(out, &bytes, "%s[", l ? ",\n" : "");
        for (int c = 0; c < used; c++) {
            const float *col = column(b, l, c);

            if (empty(b, col))
                continue;
            put(out, &bytes, "%s[%d", first ? "" : ",", c);
            for (int k = 0; k < b->classes; k++)
                put(out, &bytes, ",%ld", share(b, col[k]));
            put(out, &bytes, "]");
            first = 0;
        }
        put(out, &bytes, "]");
    }
    put(out, &bytes, "]}");
    return bytes;
}
