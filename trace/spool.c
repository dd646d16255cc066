/* The spool's encoding: per record its kind and collective operation, a mask of the
 * fields that differ from their usual value (two bytes, so that it is written once the
 * fields are), the time as the (zigzag) difference to the stream's previous record,
 * and each field of the mask as a LEB128 number: about 7 to 13 bytes for the 72 of a
 * struct pz_rec. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spool.h"

#define WRITE_BUFFER (256 * 1024)
#define STREAM_BUFFER 4096      /* of each stream written by pz_spool_add */
#define READ_BUFFER 4096
#define MAX_RECORD 128          /* the longest encoding: 4 bytes + 12 numbers of 10 + the
                                   one byte of any_source */

/* The fields of a record after its time: bit, member and usual value.  A record
 * stores, in this order, the fields that differ from their usual value. */
#define FIELDS(X)                                                                       \
    X(0, region, 0) X(1, comm, 0) X(2, peer, PZ_NONE32) X(3, tag, 0) X(4, bytes, 0)    \
    X(5, bytes2, 0) X(6, request, 0) X(7, callsite, PZ_NONE32)                          \
    X(8, send_list, PZ_NONE32) X(9, recv_list, PZ_NONE32) X(10, cpu, PZ_NONE64)        \
    X(11, any_source, 0)

/* A stream's bytes after its first extent: pz_spool_add writes each stream's buffer
 * where the file ends when it is full. */
struct extent {
    off_t begin, end;
};

struct segment {
    off_t begin, end;          /* in the file: the extent being read (the first) */
    off_t next;                /* reading: the file offset of buf's end */
    struct extent *more;       /* the extents after it, in order */
    uint32_t nmore, more_cap, more_read;
    unsigned char *wbuf;       /* pz_spool_add: the bytes not written yet */
    size_t wused;
    uint64_t last_time;
    unsigned char *buf;        /* reading: READ_BUFFER bytes, [pos, len) unread */
    size_t pos, len;
};

struct pz_spool {
    int fd, nstreams, writer;  /* writer: the stream being written */
    unsigned char *out;
    size_t used;
    off_t written;
    struct segment *seg;
};

/* A file of template's directory that no name reaches, so that nothing is left behind
 * however the command ends: one made without a name where the file system can (Linux's
 * O_TMPFILE), else one made from template (whose XXXXXX it fills) and unlinked at once,
 * with the signals that end the command held off in between: an interrupted command
 * must leave its TMPDIR as it found it.  Its descriptor, or -1 with errno set. */
static int nameless_file(char *template)
{
    char *slash = strrchr(template, '/');
    sigset_t ending, before;
    int fd, saved;

    *slash = '\0';
    fd = open(template, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    *slash = '/';
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
        return fd;
    sigemptyset(&ending);
    sigaddset(&ending, SIGINT);
    sigaddset(&ending, SIGTERM);
    sigaddset(&ending, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &ending, &before);
    fd = mkostemp(template, O_CLOEXEC);
    saved = errno;
    if (fd >= 0)
        unlink(template);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    errno = saved;
    return fd;
}

struct pz_spool *pz_spool_new(int nstreams, char *err, size_t errlen)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    struct pz_spool *s = calloc(1, sizeof(*s));

    snprintf(path, sizeof(path), "%s/prognoz-spool-XXXXXX", dir && *dir ? dir : "/tmp");
    if (s)
        s->fd = -1;
    if (!s || !(s->out = malloc(WRITE_BUFFER)) ||
        !(s->seg = calloc((size_t)(nstreams > 0 ? nstreams : 1), sizeof(*s->seg)))) {
        snprintf(err, errlen, "out of memory");
        pz_spool_free(s);
        return NULL;
    }
    s->nstreams = nstreams;
    s->writer = -1;
    if ((s->fd = nameless_file(path)) < 0) {
        snprintf(err, errlen, "cannot create a temporary file in %s: %s",
                 dir && *dir ? dir : "/tmp", strerror(errno));
        pz_spool_free(s);
        return NULL;
    }
    return s;
}

static int flush_out(struct pz_spool *s)
{
    size_t done = 0;

    while (done < s->used) {
        ssize_t n = write(s->fd, s->out + done, s->used - done);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    s->written += (off_t)s->used;
    s->used = 0;
    return 0;
}

/* A number of two bytes or more. */
static unsigned char *put_long(unsigned char *b, uint64_t v)
{
    while (v >= 0x80) {
        *b++ = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    *b++ = (unsigned char)v;
    return b;
}

/* Most numbers are below 128: their one byte is written inline. */
static inline unsigned char *put(unsigned char *b, uint64_t v)
{
    if (v >= 0x80)
        return put_long(b, v);
    *b++ = (unsigned char)v;
    return b;
}

#define USUAL(bit, member, value) .member = value,
const struct pz_rec pz_rec_blank = { FIELDS(USUAL) };

/* Encodes r, of the stream of g, at b: the end of the encoding. */
static unsigned char *encode(unsigned char *b, struct segment *g, const struct pz_rec *r)
{
    unsigned mask = 0;
    uint64_t delta;
    unsigned char *at_mask;

    delta = r->time >= g->last_time ? (r->time - g->last_time) << 1
                                    : ((g->last_time - r->time) << 1) - 1;
    g->last_time = r->time;
    *b++ = r->kind;
    *b++ = r->coll_op;
    at_mask = b;
    b = put(b + 2, delta);
#define PUT(bit, member, value)           \
    if (r->member != value) {             \
        b = put(b, r->member);            \
        mask |= 1u << bit;                \
    }
    FIELDS(PUT)
    at_mask[0] = (unsigned char)mask;
    at_mask[1] = (unsigned char)(mask >> 8);
    return b;
}

int pz_spool_append(struct pz_spool *s, int p, const struct pz_rec *r)
{
    struct segment *g = &s->seg[p];
    unsigned char *b;

    if (p != s->writer) {
        s->writer = p;
        g->begin = g->end = s->written + (off_t)s->used;
    }
    if (s->used + MAX_RECORD > WRITE_BUFFER && flush_out(s) != 0)
        return -1;
    b = encode(s->out + s->used, g, r);
    g->end += (off_t)(b - (s->out + s->used));
    s->used = (size_t)(b - s->out);
    return 0;
}

/* Writes the buffer of stream g at the end of the file, as its next extent. */
static int flush_stream(struct pz_spool *s, struct segment *g)
{
    off_t at = s->written;
    size_t done = 0;

    if (!g->wused)
        return 0;
    while (done < g->wused) {
        ssize_t n = pwrite(s->fd, g->wbuf + done, g->wused - done, at + (off_t)done);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    s->written += (off_t)g->wused;
    if (g->begin == g->end) {
        g->begin = at;
        g->end = s->written;
    } else {
        if (g->nmore == g->more_cap) {
            uint32_t cap = g->more_cap ? 2 * g->more_cap : 4;
            struct extent *grown = realloc(g->more, cap * sizeof(*grown));

            if (!grown)
                return -1;
            g->more = grown;
            g->more_cap = cap;
        }
        g->more[g->nmore++] = (struct extent){ at, s->written };
    }
    g->wused = 0;
    return 0;
}

int pz_spool_add(struct pz_spool *s, int p, const struct pz_rec *r)
{
    struct segment *g = &s->seg[p];

    if (!g->wbuf && !(g->wbuf = malloc(STREAM_BUFFER)))
        return -1;
    if (g->wused + MAX_RECORD > STREAM_BUFFER && flush_stream(s, g) != 0)
        return -1;
    g->wused = (size_t)(encode(g->wbuf + g->wused, g, r) - g->wbuf);
    return 0;
}

int pz_spool_finish(struct pz_spool *s)
{
    if (flush_out(s) != 0)
        return -1;
    for (int p = 0; p < s->nstreams; p++) {
        if (flush_stream(s, &s->seg[p]) != 0)
            return -1;
        free(s->seg[p].wbuf);
        s->seg[p].wbuf = NULL;
    }
    for (int p = 0; p < s->nstreams; p++) {
        s->seg[p].next = s->seg[p].begin;
        s->seg[p].last_time = 0;
    }
    free(s->out);
    s->out = NULL;
    return 0;
}

/* Bytes of g not read into its buffer yet: in its extent, or another extent. */
static int unread(const struct segment *g)
{
    return g->next < g->end || g->more_read < g->nmore;
}

/* Makes at least MAX_RECORD bytes (or the rest of the stream) readable in g->buf. */
static int refill(struct pz_spool *s, struct segment *g)
{
    size_t keep = g->len - g->pos, want;
    ssize_t n;

    if (!g->buf && !(g->buf = malloc(READ_BUFFER)))
        return -1;
    memmove(g->buf, g->buf + g->pos, keep);
    g->pos = 0;
    g->len = keep;
    while (g->len < READ_BUFFER && unread(g)) {
        if (g->next == g->end) {
            g->begin = g->next = g->more[g->more_read].begin;
            g->end = g->more[g->more_read++].end;
            continue;
        }
        want = READ_BUFFER - g->len;
        if ((off_t)want > g->end - g->next)
            want = (size_t)(g->end - g->next);
        n = pread(s->fd, g->buf + g->len, want, g->next);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        g->len += (size_t)n;
        g->next += n;
    }
    return 0;
}

/* A number of two bytes or more. */
static uint64_t get_long(const unsigned char **b)
{
    uint64_t v = 0;
    int shift = 0;

    while (**b & 0x80) {
        v |= (uint64_t)(**b & 0x7f) << shift;
        shift += 7;
        (*b)++;
    }
    v |= (uint64_t)*(*b)++ << shift;
    return v;
}

/* Most numbers are below 128: their one byte is read inline. */
static inline uint64_t get(const unsigned char **b)
{
    return **b & 0x80 ? get_long(b) : *(*b)++;
}

int pz_spool_next(struct pz_spool *s, int p, struct pz_rec *out)
{
    struct segment *g = &s->seg[p];
    const unsigned char *b;
    uint64_t delta;
    unsigned mask;

    if (g->len - g->pos < MAX_RECORD && unread(g) && refill(s, g) != 0)
        return -1;
    if (g->pos >= g->len)
        return 0;
    b = g->buf + g->pos;
    *out = pz_rec_blank;
    out->kind = *b++;
    out->coll_op = *b++;
    mask = (unsigned)b[0] | (unsigned)b[1] << 8;
    b += 2;
    delta = get(&b);
    g->last_time = delta & 1 ? g->last_time - ((delta + 1) >> 1) : g->last_time + (delta >> 1);
    out->time = g->last_time;
#define GET(bit, member, value) if (mask & 1u << bit) out->member = get(&b);
    FIELDS(GET)
    g->pos = (size_t)(b - g->buf);
    if (g->pos > g->len)
        return -1;
    if (g->pos == g->len && !unread(g)) {
        free(g->buf);          /* the stream's records are all read */
        g->buf = NULL;
        g->pos = g->len = 0;
    }
    return 1;
}

size_t pz_spool_bytes(const struct pz_spool *s)
{
    return (size_t)s->written;
}

void pz_spool_free(struct pz_spool *s)
{
    if (!s)
        return;
    if (s->fd >= 0)
        close(s->fd);
    for (int p = 0; s->seg && p < s->nstreams; p++) {
        free(s->seg[p].buf);
        free(s->seg[p].wbuf);
        free(s->seg[p].more);
    }
    free(s->seg);
    free(s->out);
    free(s);
}
