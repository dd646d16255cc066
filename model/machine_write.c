/* Machines written out, key by key of machine_keys.c: as machine files that
 * pz_machine_load reads back exactly, as JSON, and as a one-line summary.  Machine
 * files print numbers with the fewest significant digits that strtod turns back into
 * the same double (17 at most, %.17g), in the units whose factor is 1 (s, B, B/s), so
 * that parsing multiplies by 1.0 exactly. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine_keys.h"

/* The unit a number of each kind is written in: the one whose factor is 1. */
static const char *const units[] = {
    [PZ_KIND_TIME] = "s", [PZ_KIND_BANDWIDTH] = "B/s", [PZ_KIND_BYTES] = "B",
    [PZ_KIND_FACTOR] = "", [PZ_KIND_DUPLEX] = "",
};

void pz_exact_number(char *buf, size_t len, double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        snprintf(buf, len, "%.0f", v);
        return;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
    snprintf(buf, len, "%.17g", v);
}

/* Whether every value is one the parser accepts, each key's and the rules between
 * them; a node map cannot be written in the machine file. */
static int values_fit(const struct pz_machine *m)
{
    for (int k = 0; k < PZ_NKEYS; k++)
        if (!pz_key_fits(m, &pz_machine_keys[k]))
            return 0;
    return !m->node_map && pz_key_packet_fits(m) && pz_key_duplex_fits(m) &&
           pz_key_gap_fits(m);
}

static int put_note(FILE *f, const char *text)
{
    const char *end;

    while (text && *text) {
        end = strchr(text, '\n');
        if (!end)
            end = text + strlen(text);
        if (fprintf(f, "# %.*s\n", (int)(end - text), text) < 0)
            return -1;
        text = *end ? end + 1 : end;
    }
    return 0;
}

/* "key = VALUE UNIT" (no unit for counts, words and factors). */
static int put_key(FILE *f, const struct pz_machine *m, const struct pz_key_def *k)
{
    const char *word = pz_machine_word(m, (enum pz_machine_key)(k - pz_machine_keys));
    char num[64];

    switch (k->kind) {
    case PZ_KIND_NAME:
        return fprintf(f, "%s = %s\n", k->name, m->name);
    case PZ_KIND_COUNT:
        return fprintf(f, "%s = %d\n", k->name, (int)pz_key_number(m, k));
    case PZ_KIND_WORD:
    case PZ_KIND_MPI:
        return fprintf(f, "%s = %s\n", k->name, word);
    case PZ_KIND_SEGMENTS:
        if (fprintf(f, "%s = ", k->name) < 0 ||
            pz_segments_write(f, (const struct pz_segments *)((const char *)m + k->offset)) < 0)
            return -1;
        return fputc('\n', f) == EOF ? -1 : 0;
    case PZ_KIND_FACTORS:
        if (fprintf(f, "%s = ", k->name) < 0 ||
            pz_factors_write(f, (const struct pz_size_factors *)((const char *)m + k->offset)) <
                0)
            return -1;
        return fputc('\n', f) == EOF ? -1 : 0;
    default:
        pz_exact_number(num, sizeof(num), pz_key_number(m, k));
        return fprintf(f, "%s = %s%s%s\n", k->name, num, *units[k->kind] ? " " : "",
                       units[k->kind]);
    }
}

/* Whether key k of m is written: a quiet key only when it is not its default. */
static int written(const struct pz_machine *m, const struct pz_key_def *k)
{
    struct pz_machine defaults;

    if (k->kind == PZ_KIND_NODE_MAP)
        return 0;
    if (!k->quiet)
        return 1;
    pz_machine_defaults(&defaults);
    return pz_key_number(m, k) != pz_key_number(&defaults, k);
}

int pz_machine_write_notes(FILE *f, const struct pz_machine *m,
                           const char *(*note)(enum pz_machine_key key, void *arg),
                           void *arg)
{
    if (!values_fit(m)) {
        errno = EINVAL;
        return -1;
    }
    for (int k = 0; k < PZ_NKEYS; k++) {
        if (!written(m, &pz_machine_keys[k]))
            continue;
        if (put_note(f, note ? note((enum pz_machine_key)k, arg) : NULL) != 0 ||
            put_key(f, m, &pz_machine_keys[k]) < 0)
            return -1;
    }
    return ferror(f) ? -1 : 0;
}

int pz_machine_write(FILE *f, const struct pz_machine *m)
{
    return pz_machine_write_notes(f, m, NULL, NULL);
}

/* A JSON string for text that may hold any byte. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;

        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

int pz_machine_write_json(FILE *f, const struct pz_machine *m)
{
    for (int i = 0; i < PZ_NKEYS; i++) {
        const struct pz_key_def *k = &pz_machine_keys[i];

        if (!written(m, k))
            continue;
        fprintf(f, "%s\"%s\": ", i ? ", " : "{", k->name);
        if (k->kind == PZ_KIND_SEGMENTS)
            pz_segments_write_json(f, (const struct pz_segments *)((const char *)m + k->offset));
        else if (k->kind == PZ_KIND_FACTORS)
            pz_factors_write_json(f, (const struct pz_size_factors *)((const char *)m +
                                                                       k->offset));
        else if (k->kind == PZ_KIND_NAME || k->kind == PZ_KIND_MPI)
            json_string(f, k->kind == PZ_KIND_NAME ? m->name : m->mpi);
        else if (k->kind == PZ_KIND_WORD)
            fprintf(f, "\"%s\"", pz_machine_word(m, (enum pz_machine_key)i));
        else if (k->kind == PZ_KIND_COUNT)
            fprintf(f, "%d", (int)pz_key_number(m, k));
        else
            fprintf(f, "%.9g", pz_key_number(m, k));
    }
    fputc('}', f);
    return ferror(f) ? -1 : 0;
}

/* The summary's text of key k after sep: its text with the value for "%s". */
static void summary_part(FILE *out, const char *sep, const struct pz_machine *m,
                         enum pz_machine_key key)
{
    const struct pz_key_def *k = &pz_machine_keys[key];
    const char *text = k->summary, *at;
    double v;
    char value[64];

    if (k->kind == PZ_KIND_WORD || k->kind == PZ_KIND_MPI) {
        snprintf(value, sizeof(value), "%s", pz_machine_word(m, key));
    } else if (k->kind == PZ_KIND_COUNT) {
        snprintf(value, sizeof(value), "%d", (int)pz_key_number(m, k));
        if (pz_key_number(m, k) != 1 && k->plural)
            text = k->plural;
    } else {
        v = pz_key_number(m, k);
        v = k->times ? v * k->times : v;
        snprintf(value, sizeof(value), "%g", k->per ? v / k->per : v);
    }
    at = strstr(text, "%s");
    if (at)
        fprintf(out, "%s%.*s%s%s", sep, (int)(at - text), text, value, at + 2);
    else
        fprintf(out, "%s%s", sep, text);
}

void pz_machine_summary(FILE *out, const struct pz_machine *m)
{
    /* the order of the line: the network, the node, the MPI, the computation, then the
     * keys that change how messages move when they are not the defaults */
    static const enum pz_machine_key line[] = {
        PZ_KEY_NETWORK, PZ_KEY_LATENCY, PZ_KEY_BANDWIDTH, PZ_KEY_PROCS_PER_NODE,
        PZ_KEY_EAGER_THRESHOLD, PZ_KEY_MPI, PZ_KEY_CPU_SCALE, PZ_KEY_PROGRESS,
        PZ_KEY_DUPLEX_FACTOR, PZ_KEY_DUPLEX_FACTORS, PZ_KEY_SEGMENTS, PZ_KEY_SEND_OVERHEAD,
        PZ_KEY_RECV_OVERHEAD, PZ_KEY_RENDEZVOUS_FIRST_FRAGMENT, PZ_KEY_SWITCH_QUEUE,
        PZ_KEY_LINK_HOLD, PZ_KEY_LINK_GAP,
    };
    struct pz_machine defaults;

    pz_machine_defaults(&defaults);
    fprintf(out, "Predicted on machine %s:", m->name);
    for (size_t i = 0; i < sizeof(line) / sizeof(line[0]); i++) {
        const struct pz_key_def *k = &pz_machine_keys[line[i]];

        if (!k->unless_default || pz_key_number(m, k) != pz_key_number(&defaults, k))
            summary_part(out, i ? ", " : " ", m, line[i]);
    }
    fputc('\n', out);
}
