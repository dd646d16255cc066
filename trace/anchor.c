/* The anchor file of an OTF2 archive (anchor.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <otf2/otf2.h>

#include "anchor.h"

void pz_anchor_path(const char *path, char *out, size_t len)
{
    struct stat st;

    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(out, len, "%s/traces.otf2", path);
    else
        snprintf(out, len, "%s", path);
}

int pz_is_anchor(const char *path)
{
    unsigned char head[6];
    FILE *f = fopen(path, "rb");
    int ok = f && fread(head, 1, sizeof(head), f) == sizeof(head) &&
             !memcmp(head + 2, "OTF2", 4);

    if (f)
        fclose(f);
    return ok;
}

/* OTF2 3.0's buffer marks (src/OTF2_Buffer.h): the file starts with a chunk header mark
 * and a byte order mark, and the anchor's fields end with an end-of-file mark. */
enum { CHUNK_HEADER = 3, END_OF_FILE = 2, BIG_ENDIAN_MARK = 0x23, LITTLE_ENDIAN_MARK = 0x42 };

/* OTF2_COMPRESSION_ZLIB, deprecated by OTF2 3.0 but still read. */
enum { COMPRESSION_ZLIB = 2 };

/* The anchor format OTF2 3.0 writes; later ones only append fields. */
#define KNOWN_FORMAT 3

/* The largest anchor accepted: OTF2's largest chunk, far above the 72 bytes of ours. */
#define ANCHOR_MAX OTF2_CHUNK_SIZE_MAX

/* Reading the anchor's fields in its byte order; a field past the end is an error. */
struct cursor {
    const unsigned char *at, *end;
    int big;                          /* the file's integers are big-endian */
    size_t size;                      /* the file's size, for messages */
    char *why;
    size_t len;
};

static int fail(struct cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct cursor *c, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(c->why, c->len, fmt, ap);
    va_end(ap);
    return -1;
}

/* The next n-byte integer into v; -1 if the file ends before it. */
static int read_uint(struct cursor *c, int n, uint64_t *v, const char *field)
{
    *v = 0;
    if (c->end - c->at < n)
        return fail(c, "damaged anchor file: it ends before its %s", field);
    for (int i = 0; i < n; i++)
        *v |= (uint64_t)c->at[c->big ? i : n - 1 - i] << (8 * (n - 1 - i));
    c->at += n;
    return 0;
}

/* The length of the UTF-8 sequence at s (before end) that is text: no control
 * character, not even a tab or a line end (reports print the anchor's strings in their
 * lines); 0 if there is none. */
static size_t text_char(const unsigned char *s, const unsigned char *end)
{
    size_t n = *s < 0x80 ? 1 : (*s & 0xe0) == 0xc0 ? 2 : (*s & 0xf0) == 0xe0 ? 3 :
               (*s & 0xf8) == 0xf0 ? 4 : 0;

    if (n == 0 || (size_t)(end - s) < n)
        return 0;
    if (n == 1)
        return *s >= 0x20 && *s != 0x7f;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* Skips the next string, which must be text ending within the file: OTF2 passes the
 * anchor's strings (properties) as they are to the reports. */
static int skip_string(struct cursor *c, const char *field)
{
    const unsigned char *nul = memchr(c->at, '\0', (size_t)(c->end - c->at));
    size_t n;

    if (!nul)
        return fail(c, "damaged anchor file: its %s is not terminated", field);
    for (const unsigned char *s = c->at; s < nul; s += n)
        if (!(n = text_char(s, nul)))
            return fail(c, "damaged anchor file: its %s is not text (byte %zu is 0x%02x)",
                        field, (size_t)(s - (c->end - c->size)), *s);
    c->at = nul + 1;
    return 0;
}

/* The marks before the fields: header, byte order, "OTF2", the anchor format. */
static int read_marks(struct cursor *c, uint64_t *format)
{
    if (c->size < 2 || c->at[0] != CHUNK_HEADER)
        return fail(c, "damaged anchor file: its header mark (byte 0) is not %d", CHUNK_HEADER);
    if (c->at[1] != BIG_ENDIAN_MARK && c->at[1] != LITTLE_ENDIAN_MARK)
        return fail(c, "damaged anchor file: its byte order mark (byte 1) is 0x%02x",
                    c->at[1]);
    c->big = c->at[1] == BIG_ENDIAN_MARK;
    c->at += 2;
    if (c->end - c->at < 5 || memcmp(c->at, "OTF2", 5) != 0)
        return fail(c, "damaged anchor file: its magic is not \"OTF2\"");
    c->at += 5;
    if (read_uint(c, 1, format, "anchor format") != 0)
        return -1;
    if (*format == 0)
        return fail(c, "damaged anchor file: its anchor format is 0");
    return 0;
}

/* An OTF2 chunk size, which OTF2 uses for its reading buffers. */
static int read_chunk_size(struct cursor *c, const char *field)
{
    uint64_t v;

    if (read_uint(c, 8, &v, field) != 0)
        return -1;
    if (v < OTF2_CHUNK_SIZE_MIN || v > OTF2_CHUNK_SIZE_MAX)
        return fail(c, "damaged anchor file: its %s (%llu) is outside OTF2's %llu to %llu bytes",
                    field, (unsigned long long)v, (unsigned long long)OTF2_CHUNK_SIZE_MIN,
                    (unsigned long long)OTF2_CHUNK_SIZE_MAX);
    return 0;
}

/* A count of records of the global definition file, each of them at least one byte. */
static int read_def_count(struct cursor *c, const char *field, long long def_size)
{
    uint64_t v;

    if (read_uint(c, 8, &v, field) != 0)
        return -1;
    if (def_size >= 0 && v > (uint64_t)def_size)
        return fail(c, "damaged anchor file: its %s (%llu) exceeds the %lld bytes of the "
                    "definition file", field, (unsigned long long)v, def_size);
    return 0;
}

/* The version, the chunk sizes, substrate, compression and counts of OTF2 1.0. */
static int read_fixed_fields(struct cursor *c, long long def_size)
{
    uint64_t v;

    if (read_uint(c, 1, &v, "trace format") != 0 || read_uint(c, 3, &v, "OTF2 version") != 0 ||
        read_chunk_size(c, "event chunk size") != 0 ||
        read_chunk_size(c, "definition chunk size") != 0)
        return -1;
    if (read_uint(c, 1, &v, "file substrate") != 0)
        return -1;
    if (v != OTF2_SUBSTRATE_POSIX && v != OTF2_SUBSTRATE_SION && v != OTF2_SUBSTRATE_NONE)
        return fail(c, "damaged anchor file: its file substrate is %llu", (unsigned long long)v);
    if (read_uint(c, 1, &v, "compression") != 0)
        return -1;
    if (v != OTF2_COMPRESSION_NONE && v != COMPRESSION_ZLIB)
        return fail(c, "damaged anchor file: its compression is %llu", (unsigned long long)v);
    if (read_def_count(c, "number of locations", def_size) != 0 ||
        read_def_count(c, "number of global definitions", def_size) != 0)
        return -1;
    return skip_string(c, "machine name") || skip_string(c, "creator") ||
           skip_string(c, "description") ? -1 : 0;
}

/* The properties (name and value strings) and the trace's identifier of format 2.  OTF2
 * allocates and walks the number of properties before it reads them: the count must fit
 * in what is left, two bytes (two empty strings) at least for each. */
static int read_properties(struct cursor *c)
{
    uint64_t n, id;

    if (read_uint(c, 4, &n, "number of properties") != 0)
        return -1;
    if (n > (uint64_t)(c->end - c->at) / 2)
        return fail(c, "damaged anchor file: its number of properties (%llu) does not fit in "
                    "its %zu bytes", (unsigned long long)n, c->size);
    for (uint64_t i = 0; i < n; i++)
        if (skip_string(c, "property name") != 0 || skip_string(c, "property value") != 0)
            return -1;
    return read_uint(c, 8, &id, "trace identifier");
}

/* The snapshot and thumbnail counts of format 3. */
static int read_format3(struct cursor *c)
{
    uint64_t v;

    if (read_uint(c, 4, &v, "number of snapshots") != 0 ||
        read_uint(c, 4, &v, "number of thumbnails") != 0)
        return -1;
    return 0;
}

/* The end mark OTF2 writes after the last field of the formats it knows. */
static int read_end(struct cursor *c, uint64_t format)
{
    uint64_t v;

    if (read_uint(c, 1, &v, "end mark") != 0)
        return -1;
    if (v != END_OF_FILE)
        return fail(c, "damaged anchor file: no end mark after the fields of its anchor "
                    "format %llu", (unsigned long long)format);
    return 0;
}

/* The size of the global definition file beside the anchor (DIR/NAME.otf2 ->
 * DIR/NAME.def), -1 if unknown: OTF2 reports a missing one. */
static long long def_file_size(const char *path)
{
    char def[4096];
    size_t n = strlen(path);
    struct stat st;

    if (n < 5 || n >= sizeof(def) || strcmp(path + n - 5, ".otf2") != 0)
        return -1;
    snprintf(def, sizeof(def), "%.*s.def", (int)(n - 5), path);
    return stat(def, &st) == 0 ? (long long)st.st_size : -1;
}

static int parse(struct cursor *c, long long def_size)
{
    uint64_t format;

    if (read_marks(c, &format) != 0 || read_fixed_fields(c, def_size) != 0)
        return -1;
    if (format > 1 && read_properties(c) != 0)
        return -1;
    if (format > 2 && read_format3(c) != 0)
        return -1;
    return format <= KNOWN_FORMAT ? read_end(c, format) : 0;
}

/* The whole file into *data, at most ANCHOR_MAX bytes. */
static int slurp(const char *path, unsigned char **data, size_t *size, char *why, size_t len)
{
    FILE *f = fopen(path, "rb");
    struct stat st;

    *data = NULL;
    if (!f || fstat(fileno(f), &st) != 0) {
        snprintf(why, len, "%s", strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    if (st.st_size > (off_t)ANCHOR_MAX) {
        snprintf(why, len, "damaged anchor file: %lld bytes, more than OTF2's %llu",
                 (long long)st.st_size, (unsigned long long)ANCHOR_MAX);
        fclose(f);
        return -1;
    }
    *size = (size_t)st.st_size;
    *data = malloc(*size ? *size : 1);
    if (!*data || fread(*data, 1, *size, f) != *size) {
        snprintf(why, len, "%s", *data ? "cannot read the anchor file" : "out of memory");
        fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}

int pz_anchor_check(const char *path, char *why, size_t len)
{
    unsigned char *data;
    size_t size;
    struct cursor c;
    int rc;

    if (slurp(path, &data, &size, why, len) != 0) {
        free(data);
        return -1;
    }
    c = (struct cursor){ .at = data, .end = data + size, .size = size, .why = why, .len = len };
    rc = parse(&c, def_file_size(path));
    free(data);
    return rc;
}
