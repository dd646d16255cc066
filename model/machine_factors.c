/* The value of the key duplex_factors: a factor by message size, "UPTO: FACTOR" per step,
 * steps separated by ';' and in increasing order of their bounds ("none": no step), the
 * bound a size as the other keys take it: "4KiB: 1.3; 256KiB: 2.2; 16MiB: 1.1". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine_keys.h"
#include "units.h"

static int factor_fits(double factor)
{
    return factor >= 1 && factor <= PZ_DUPLEX_FACTORS_MAX;
}

/* Parses "UPTO: FACTOR" (from to end) into step i of list; 0, or -1 with the reason. */
static int step_entry(const char *from, const char *end, int i, void *list, double *upto,
                      const char **reason)
{
    struct pz_size_factor *g = &((struct pz_size_factors *)list)->step[i];
    const char *colon = memchr(from, ':', (size_t)(end - from));
    char buf[64], *stop;

    if (!colon) {
        *reason = "expected 'UPTO: FACTOR' such as '64KiB: 2.2'";
        return -1;
    }
    if (pz_parse_bytes(pz_key_piece(from, colon, buf, sizeof(buf)), &g->upto) != 0 ||
        !pz_kind_fits(PZ_KIND_BYTES, g->upto)) {
        *reason = "expected the upper bound as a size between 0B and 2^53B";
        return -1;
    }
    g->factor = strtod(pz_key_piece(colon + 1, end, buf, sizeof(buf)), &stop);
    if (stop == buf || *stop || !factor_fits(g->factor)) {
        *reason = "expected the factor as a number from 1 to 4";
        return -1;
    }
    *upto = g->upto;
    return 0;
}

int pz_factors_parse(const char *text, struct pz_size_factors *f, char *why, size_t len)
{
    memset(f, 0, sizeof(*f));
    return pz_key_list_parse(text, "step", PZ_MAX_SEGMENTS, step_entry, f, &f->n, why, len);
}

int pz_factors_fit(const struct pz_size_factors *f)
{
    if (f->n < 0 || f->n > PZ_MAX_SEGMENTS)
        return 0;
    for (int i = 0; i < f->n; i++)
        if (!pz_kind_fits(PZ_KIND_BYTES, f->step[i].upto) || !factor_fits(f->step[i].factor) ||
            (i && !(f->step[i].upto > f->step[i - 1].upto)))
            return 0;
    return 1;
}

int pz_factors_write(FILE *out, const struct pz_size_factors *f)
{
    char upto[64], factor[64];

    if (!f->n)
        return fputs("none", out) == EOF ? -1 : 0;
    for (int i = 0; i < f->n; i++) {
        pz_exact_number(upto, sizeof(upto), f->step[i].upto);
        pz_exact_number(factor, sizeof(factor), f->step[i].factor);
        if (fprintf(out, "%s%s B: %s", i ? "; " : "", upto, factor) < 0)
            return -1;
    }
    return 0;
}

void pz_factors_write_json(FILE *out, const struct pz_size_factors *f)
{
    fputc('[', out);
    for (int i = 0; i < f->n; i++)
        fprintf(out, "%s{\"upto\": %.9g, \"factor\": %.9g}", i ? ", " : "", f->step[i].upto,
                f->step[i].factor);
    fputc(']', out);
}
