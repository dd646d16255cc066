/* Joining event files of one location (evt_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evt_file.h"

#define CHUNK_HEADER 0x03
#define END_OF_CHUNK 0x00
/* a file ends with the end-of-file record, then the end of OTF2's buffer */
static const unsigned char end_of_file[2] = { 0x02, 0x01 };
/* offsets of the first and last event numbers in a chunk header */
#define FIRST_AT 2
#define LAST_AT 10
#define HEADER_SIZE 18

/* Reads exactly n bytes at offset, or fewer at the end of the file; -1 on error. */
static ssize_t read_at(int fd, unsigned char *buf, size_t n, uint64_t offset)
{
    size_t got = 0;

    while (got < n) {
        ssize_t r = pread(fd, buf + got, n - got, (off_t)(offset + got));

        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

static int write_at(int fd, const unsigned char *buf, size_t n, uint64_t offset)
{
    size_t done = 0;

    while (done < n) {
        ssize_t w = pwrite(fd, buf + done, n - done, (off_t)(offset + done));

        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        done += (size_t)w;
    }
    return 0;
}

static int invalid(void)
{
    errno = EINVAL;
    return -1;
}

/* The number of the last event of the whole event file in the first size bytes of fd. */
static int last_event(int fd, uint64_t size, uint64_t *events)
{
    unsigned char header[HEADER_SIZE], end[sizeof(end_of_file)];
    uint64_t chunk = (size - 1) / PZ_EVT_CHUNK * PZ_EVT_CHUNK;

    if (size < HEADER_SIZE + sizeof(end))
        return invalid();
    if (read_at(fd, header, sizeof(header), chunk) != (ssize_t)sizeof(header) ||
        read_at(fd, end, sizeof(end), size - sizeof(end)) != (ssize_t)sizeof(end))
        return -1;
    if (header[0] != CHUNK_HEADER || memcmp(end, end_of_file, sizeof(end)) != 0)
        return invalid();
    memcpy(events, header + LAST_AT, sizeof(*events));
    return 0;
}

static void renumber(unsigned char *chunk, uint64_t events)
{
    uint64_t first, last;

    memcpy(&first, chunk + FIRST_AT, sizeof(first));
    memcpy(&last, chunk + LAST_AT, sizeof(last));
    first += events;
    last += events;
    memcpy(chunk + FIRST_AT, &first, sizeof(first));
    memcpy(chunk + LAST_AT, &last, sizeof(last));
}

static int ends_file(const unsigned char *data, size_t n)
{
    return n >= sizeof(end_of_file) &&
           memcmp(data + n - sizeof(end_of_file), end_of_file, sizeof(end_of_file)) == 0;
}

/* Copies the len bytes of from to fd at offset: in the kernel where it can (a file
 * system that shares blocks then copies nothing), else through a buffer. */
static int copy_bytes(int fd, uint64_t offset, int from, uint64_t len)
{
    loff_t in = 0, out = (loff_t)offset;
    unsigned char *buf;
    int rc = 0;

    while ((uint64_t)in < len) {
        ssize_t n = copy_file_range(from, &in, fd, &out, (size_t)(len - (uint64_t)in), 0);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
    }
    if ((uint64_t)in == len)
        return 0;
    if (!(buf = malloc(PZ_EVT_CHUNK)))
        return -1;
    while (rc == 0 && (uint64_t)in < len) {
        size_t want = len - (uint64_t)in < PZ_EVT_CHUNK ? (size_t)(len - (uint64_t)in)
                                                         : PZ_EVT_CHUNK;
        ssize_t n = read_at(from, buf, want, (uint64_t)in);

        if (n <= 0)
            rc = n < 0 ? -1 : invalid();
        else
            rc = write_at(fd, buf, (size_t)n, offset + (uint64_t)in);
        in += n > 0 ? n : 0;
    }
    free(buf);
    return rc;
}

/* The chunk headers of the len bytes at offset of fd, each at a multiple of the chunk
 * size, checked and their events numbered after events. */
static int renumber_chunks(int fd, uint64_t offset, uint64_t len, uint64_t events)
{
    unsigned char header[HEADER_SIZE];

    for (uint64_t at = 0; at < len; at += PZ_EVT_CHUNK) {
        if (len - at < HEADER_SIZE + sizeof(end_of_file))
            return invalid();
        if (read_at(fd, header, sizeof(header), offset + at) != (ssize_t)sizeof(header))
            return -1;
        if (header[0] != CHUNK_HEADER)
            return invalid();
        renumber(header, events);
        if (write_at(fd, header, sizeof(header), offset + at) != 0)
            return -1;
    }
    return 0;
}

/* Copies the chunks of from to fd at offset on, their events numbered after events;
 * the new length in *size. */
static int copy_chunks(int fd, uint64_t offset, int from, uint64_t events, uint64_t *size)
{
    unsigned char end[sizeof(end_of_file)];
    struct stat st;
    uint64_t len;

    if (fstat(from, &st) != 0)
        return -1;
    len = (uint64_t)st.st_size;
    if (len < HEADER_SIZE + sizeof(end))
        return invalid();
    if (read_at(from, end, sizeof(end), len - sizeof(end)) != (ssize_t)sizeof(end))
        return -1;
    if (!ends_file(end, sizeof(end)))
        return invalid();
    if (copy_bytes(fd, offset, from, len) != 0 || renumber_chunks(fd, offset, len, events) != 0)
        return -1;
    *size = offset + len;
    return 0;
}

/* The end of file of the first size bytes of fd made an end of chunk, its last chunk
 * padded with end-of-chunk bytes; the padded length in *padded. */
static int open_end(int fd, uint64_t size, uint64_t *padded)
{
    const unsigned char end[sizeof(end_of_file)] = { END_OF_CHUNK, END_OF_CHUNK };

    *padded = (size + PZ_EVT_CHUNK - 1) / PZ_EVT_CHUNK * PZ_EVT_CHUNK;
    /* cut first: what an earlier append cut short left after size must read as zeros */
    if (ftruncate(fd, (off_t)size) != 0 || ftruncate(fd, (off_t)*padded) != 0)
        return -1;
    return write_at(fd, end, sizeof(end), size - sizeof(end));
}

int pz_evt_append(const char *to, uint64_t *size, const char *from)
{
    int fd, in, rc;
    uint64_t events, padded, grown;
    struct stat st;

    if (*size == 0) {
        if (rename(from, to) != 0 || stat(to, &st) != 0)
            return -1;
        *size = (uint64_t)st.st_size;
        return 0;
    }
    if ((fd = open(to, O_RDWR)) < 0)
        return -1;
    if ((in = open(from, O_RDONLY)) < 0) {
        close(fd);
        return -1;
    }
    rc = last_event(fd, *size, &events);
    if (rc == 0)
        rc = open_end(fd, *size, &padded);
    if (rc == 0)
        rc = copy_chunks(fd, padded, in, events, &grown);
    close(in);
    if (close(fd) != 0)
        rc = -1;
    if (rc != 0)
        return -1;
    *size = grown;
    return unlink(from);
}

int pz_evt_cut(const char *path, uint64_t size)
{
    int fd, rc;

    if (size < HEADER_SIZE + sizeof(end_of_file))
        return invalid();
    if ((fd = open(path, O_RDWR)) < 0)
        return -1;
    rc = ftruncate(fd, (off_t)size) == 0
             ? write_at(fd, end_of_file, sizeof(end_of_file), size - sizeof(end_of_file))
             : -1;
    if (close(fd) != 0)
        rc = -1;
    return rc;
}
