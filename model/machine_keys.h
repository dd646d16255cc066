/* The keys of a machine file as one table (machine.h's enum pz_machine_key): each key
 * once, with its name, its kind of value (the unit it is written in and the values it
 * takes), its field of struct pz_machine, its default and how the one-line summary
 * shows it.  The parser, the defaults, the machine file and JSON writers and the
 * summary walk it.  Private to libprognoz-comsys. */
#ifndef PZ_MACHINE_KEYS_H
#define PZ_MACHINE_KEYS_H

#include <stddef.h>
#include <stdio.h>

#include "machine.h"

enum pz_key_kind {
    /* The numbers, each with a range (machine_keys.c), first: */
    PZ_KIND_TIME,        /* double, s, 0 to 1000 */
    PZ_KIND_BANDWIDTH,   /* double, B/s, at least 1 */
    PZ_KIND_BYTES,       /* double, B, 0 to 2^53 */
    PZ_KIND_COUNT,       /* int, 1 to 1000000 */
    PZ_KIND_FACTOR,      /* double above 0, at most 1e6 */
    PZ_KIND_DUPLEX,      /* double from 1 to 2 */
    PZ_KIND_NAME,        /* char[128], a name that a machine file can hold */
    PZ_KIND_WORD,        /* an enum: the number of one of the key's words */
    PZ_KIND_MPI,         /* char[32], one of the key's words */
    PZ_KIND_NODE_MAP,    /* a file of its own, read by pz_node_map_load */
    PZ_KIND_SEGMENTS,    /* struct pz_segments, "UPTO: LATENCY, BANDWIDTH; ..." */
    PZ_KIND_FACTORS,     /* struct pz_size_factors, "UPTO: FACTOR; ...", each factor from
                            1 to PZ_DUPLEX_FACTORS_MAX */
};

struct pz_key_def {
    const char *name;
    enum pz_key_kind kind;
    size_t offset;                /* of the key's field in struct pz_machine */
    const char *const *words;     /* PZ_KIND_WORD and PZ_KIND_MPI: the values */
    int nwords;
    const char *fallback;         /* the default as a machine file says it; NULL: none */
    /* In pz_machine_summary: the text, where "%s" stands for the value (a number
     * multiplied by times and divided by per, unless they are 0); plural, the text for
     * a count other than 1; unless_default, shown only when the value is not the
     * default.  NULL: not shown. */
    const char *summary, *plural;
    double times, per;
    int unless_default;
    /* Written (machine file, JSON) only when its value is not its default (0 or an
     * empty list, but for io_scale 1): keys that came later, so that machines that do
     * not use them read the same. */
    int quiet;
};

extern const struct pz_key_def pz_machine_keys[PZ_NKEYS];

/* Stores value, the text of a key of the machine file at path, into m.  Returns 0, or
 * -1 with "key = 'value': expected ..." (or pz_node_map_load's reason) in why. */
int pz_key_store(struct pz_machine *m, const struct pz_key_def *k, const char *path,
                 const char *value, char *why, size_t len);

/* Whether m's value of k is one that pz_key_store accepts (node maps: always). */
int pz_key_fits(const struct pz_machine *m, const struct pz_key_def *k);

/* The rules between keys: for the packet model a packet header smaller than the
 * packet; a duplex factor other than 1 for a switch only. */
int pz_key_packet_fits(const struct pz_machine *m);
int pz_key_duplex_fits(const struct pz_machine *m);

/* Whether m's link_gap is 0 or its link_hold bytes, the only hold it applies to. */
int pz_key_gap_fits(const struct pz_machine *m);

/* m's value of a number, a count or a word (its number), or the number of segments of
 * a list, as a double. */
double pz_key_number(const struct pz_machine *m, const struct pz_key_def *k);

/* Whether the number v is in the range of a key of kind (a number's kind); what the
 * range is in words ("a time between 0s and 1000s"). */
int pz_kind_fits(enum pz_key_kind kind, double v);
const char *pz_kind_range(enum pz_key_kind kind);

/* The shortest %.Ng of v that reads back as v, into buf; whole numbers below 2^53
 * without an exponent. */
void pz_exact_number(char *buf, size_t len, double v);

/* Segment lists (machine_segments.c): parses text into s (0, or -1 with what is wrong
 * in why: "segment 2: ..."); whether s is one the parser accepts; writes it as the
 * parser reads it back, and as JSON. */
int pz_segments_parse(const char *text, struct pz_segments *s, char *why, size_t len);
int pz_segments_fit(const struct pz_segments *s);
int pz_segments_write(FILE *f, const struct pz_segments *s);
void pz_segments_write_json(FILE *f, const struct pz_segments *s);

/* One quantity of a list's entry, between its separators from and to, blanks trimmed,
 * into buf (at most len - 1 bytes); returns buf. */
const char *pz_key_piece(const char *from, const char *to, char *buf, size_t len);

/* Parses a list "ENTRY; ENTRY; ..." ("none": no entry) of at most max entries, each
 * with a bound that must increase from one to the next: entry parses the one between
 * from and end into place i of list, and gives its bound, or returns -1 with reason.
 * Into *n the entries parsed; 0, or -1 with "WHAT I: reason" in why. */
int pz_key_list_parse(const char *text, const char *what, int max,
                      int (*entry)(const char *from, const char *end, int i, void *list,
                                   double *upto, const char **reason),
                      void *list, int *n, char *why, size_t len);

/* Size factors (machine_factors.c), as segment lists: parses text into f (0, or -1 with
 * what is wrong in why: "step 2: ..."); whether f is one the parser accepts; writes it
 * as the parser reads it back, and as JSON. */
int pz_factors_parse(const char *text, struct pz_size_factors *f, char *why, size_t len);
int pz_factors_fit(const struct pz_size_factors *f);
int pz_factors_write(FILE *out, const struct pz_size_factors *f);
void pz_factors_write_json(FILE *out, const struct pz_size_factors *f);

#endif
