/* The value of the keys segments and shm_segments: piecewise-linear transfer costs,
 * "UPTO: LATENCY, BANDWIDTH" per segment, segments separated by ';' and in increasing
 * order of their bounds ("none": no segment), each quantity with its unit as the other
 * keys take it: "1KiB: 20us, 90MB/s; 64KiB: 35us, 110MB/s". */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "machine_keys.h"
#include "units.h"

const char *pz_key_piece(const char *from, const char *to, char *buf, size_t len)
{
    size_t n;

    while (from < to && isspace((unsigned char)*from))
        from++;
    while (to > from && isspace((unsigned char)to[-1]))
        to--;
    n = (size_t)(to - from) < len ? (size_t)(to - from) : len - 1;
    memcpy(buf, from, n);
    buf[n] = '\0';
    return buf;
}

/* Parses "UPTO: LATENCY, BANDWIDTH" (from to end) into *g; 0, or -1 with the reason. */
static int parse_segment(const char *from, const char *end, struct pz_segment *g,
                         const char **reason)
{
    const char *colon = memchr(from, ':', (size_t)(end - from)), *comma;
    char buf[64];

    if (!colon || !(comma = memchr(colon, ',', (size_t)(end - colon)))) {
        *reason = "expected 'UPTO: LATENCY, BANDWIDTH' such as '64KiB: 20us, 100MB/s'";
        return -1;
    }
    if (pz_parse_bytes(pz_key_piece(from, colon, buf, sizeof(buf)), &g->upto) != 0 ||
        !pz_kind_fits(PZ_KIND_BYTES, g->upto)) {
        *reason = "expected the upper bound as a size between 0B and 2^53B";
        return -1;
    }
    if (pz_parse_time(pz_key_piece(colon + 1, comma, buf, sizeof(buf)), &g->latency) != 0 ||
        !pz_kind_fits(PZ_KIND_TIME, g->latency)) {
        *reason = "expected the latency as a time between 0s and 1000s";
        return -1;
    }
    if (pz_parse_bandwidth(pz_key_piece(comma + 1, end, buf, sizeof(buf)), &g->bandwidth) != 0 ||
        !pz_kind_fits(PZ_KIND_BANDWIDTH, g->bandwidth)) {
        *reason = "expected the bandwidth as a bandwidth of at least 1B/s";
        return -1;
    }
    return 0;
}

int pz_key_list_parse(const char *text, const char *what, int max,
                      int (*entry)(const char *from, const char *end, int i, void *list,
                                   double *upto, const char **reason),
                      void *list, int *n, char *why, size_t len)
{
    const char *from = text, *reason = NULL;
    double upto, last = 0;

    *n = 0;
    if (!strcmp(text, "none"))
        return 0;
    while (!reason) {
        const char *end = strchr(from, ';');

        if (!end)
            end = from + strlen(from);
        if (*n == max) {
            snprintf(why, len, "%s %d: more than the %d a list holds", what, *n + 1, max);
            return -1;
        }
        if (entry(from, end, *n, list, &upto, &reason) == 0 && *n && !(upto > last))
            reason = "bounds must increase from one to the next";
        if (!reason)
            last = upto, (*n)++;
        if (!*end)
            break;
        from = end + 1;
    }
    if (reason)
        snprintf(why, len, "%s %d: %s", what, *n + 1, reason);
    return reason ? -1 : 0;
}

static int segment_entry(const char *from, const char *end, int i, void *list, double *upto,
                         const char **reason)
{
    struct pz_segment *g = &((struct pz_segments *)list)->seg[i];

    if (parse_segment(from, end, g, reason) != 0)
        return -1;
    *upto = g->upto;
    return 0;
}

int pz_segments_parse(const char *text, struct pz_segments *s, char *why, size_t len)
{
    memset(s, 0, sizeof(*s));
    return pz_key_list_parse(text, "segment", PZ_MAX_SEGMENTS, segment_entry, s, &s->n, why,
                             len);
}

int pz_segments_fit(const struct pz_segments *s)
{
    if (s->n < 0 || s->n > PZ_MAX_SEGMENTS)
        return 0;
    for (int i = 0; i < s->n; i++) {
        const struct pz_segment *g = &s->seg[i];

        if (!pz_kind_fits(PZ_KIND_BYTES, g->upto) || !pz_kind_fits(PZ_KIND_TIME, g->latency) ||
            !pz_kind_fits(PZ_KIND_BANDWIDTH, g->bandwidth) ||
            (i && !(g->upto > s->seg[i - 1].upto)))
            return 0;
    }
    return 1;
}

int pz_segments_write(FILE *f, const struct pz_segments *s)
{
    char upto[64], latency[64], bandwidth[64];

    if (!s->n)
        return fputs("none", f) == EOF ? -1 : 0;
    for (int i = 0; i < s->n; i++) {
        pz_exact_number(upto, sizeof(upto), s->seg[i].upto);
        pz_exact_number(latency, sizeof(latency), s->seg[i].latency);
        pz_exact_number(bandwidth, sizeof(bandwidth), s->seg[i].bandwidth);
        if (fprintf(f, "%s%s B: %s s, %s B/s", i ? "; " : "", upto, latency, bandwidth) < 0)
            return -1;
    }
    return 0;
}

void pz_segments_write_json(FILE *f, const struct pz_segments *s)
{
    fputc('[', f);
    for (int i = 0; i < s->n; i++)
        fprintf(f, "%s{\"upto\": %.9g, \"latency\": %.9g, \"bandwidth\": %.9g}", i ? ", " : "",
                s->seg[i].upto, s->seg[i].latency, s->seg[i].bandwidth);
    fputc(']', f);
}
