/* Joining event files (wrapper/evt_file.h) on files laid out by hand: a chunk header
 * (0x03, byte order, first and last event numbers), records, and 0x02 0x01 at the end of
 * the file. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evt_file.h"

/* One chunk of events first..last: header, n bytes of records (value fill), and the end
 * of file when last_chunk, else end-of-chunk zeros up to the chunk size.  Its length. */
static size_t chunk(unsigned char *at, uint64_t first, uint64_t last, size_t n, int fill,
                    int last_chunk)
{
    at[0] = 0x03;
    at[1] = 0x42;
    memcpy(at + 2, &first, 8);
    memcpy(at + 10, &last, 8);
    memset(at + 18, fill, n);
    if (!last_chunk) {
        memset(at + 18 + n, 0, PZ_EVT_CHUNK - 18 - n);
        return PZ_EVT_CHUNK;
    }
    at[18 + n] = 0x02;
    at[19 + n] = 0x01;
    return 20 + n;
}

static void put(const char *path, const unsigned char *data, size_t n)
{
    FILE *f = fopen(path, "wb");

    cr_assert(f && fwrite(data, 1, n, f) == n);
    fclose(f);
}

static unsigned char *get(const char *path, size_t *n)
{
    struct stat st;
    unsigned char *data;
    FILE *f = fopen(path, "rb");

    cr_assert(f && stat(path, &st) == 0);
    *n = (size_t)st.st_size;
    data = malloc(*n + 1);
    cr_assert(fread(data, 1, *n, f) == *n);
    fclose(f);
    return data;
}

static uint64_t u64_at(const unsigned char *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return v;
}

static char to[] = "/tmp/test_evt_to.XXXXXX", from[] = "/tmp/test_evt_from.XXXXXX";

static void make_names(void)
{
    close(mkstemp(to));
    close(mkstemp(from));
}

static void remove_files(void)
{
    unlink(to);
    unlink(from);
}

TestSuite(evt_file, .init = make_names, .fini = remove_files);

Test(evt_file, appends_and_cuts_back)
{
    unsigned char *a = malloc(2 * PZ_EVT_CHUNK), *b = malloc(2 * PZ_EVT_CHUNK), *joined;
    size_t na = chunk(a, 1, 3, 10, 'a', 1), nb, n;
    uint64_t size = na;

    /* from: a full chunk of events 1..4, then a short one of events 5..6 */
    nb = chunk(b, 1, 4, 100, 'b', 0);
    nb += chunk(b + nb, 5, 6, 7, 'c', 1);
    put(to, a, na);
    put(from, b, nb);
    cr_assert_eq(pz_evt_append(to, &size, from), 0);
    cr_assert(access(from, F_OK) != 0, "from is removed");
    /* to's 30 bytes padded to a chunk, then from's 1 MiB + 27 bytes */
    cr_assert_eq(size, PZ_EVT_CHUNK + PZ_EVT_CHUNK + 27);
    joined = get(to, &n);
    cr_assert_eq(n, size);
    cr_assert_eq(memcmp(joined, a, na - 2), 0);
    cr_assert(joined[na - 2] == 0 && joined[na - 1] == 0 && joined[PZ_EVT_CHUNK - 1] == 0,
              "the end of file became an end of chunk and its padding");
    /* from's events numbered after to's 3: 4..7, then 8..9 */
    cr_assert_eq(u64_at(joined + PZ_EVT_CHUNK + 2), 4);
    cr_assert_eq(u64_at(joined + PZ_EVT_CHUNK + 10), 7);
    cr_assert_eq(u64_at(joined + 2 * PZ_EVT_CHUNK + 2), 8);
    cr_assert_eq(u64_at(joined + 2 * PZ_EVT_CHUNK + 10), 9);
    cr_assert_eq(memcmp(joined + 2 * PZ_EVT_CHUNK + 18, "ccccccc\x02\x01", 9), 0);
    free(joined);
    /* cut back to the first file: exactly a again */
    cr_assert_eq(pz_evt_cut(to, na), 0);
    joined = get(to, &n);
    cr_assert_eq(n, na);
    cr_assert_eq(memcmp(joined, a, na), 0);
    free(joined);
    free(a);
    free(b);
}

Test(evt_file, first_append_renames)
{
    unsigned char a[64];
    size_t na = chunk(a, 1, 2, 5, 'a', 1);
    uint64_t size = 0;

    unlink(to);
    put(from, a, na);
    cr_assert_eq(pz_evt_append(to, &size, from), 0);
    cr_assert_eq(size, na);
    cr_assert(access(from, F_OK) != 0 && access(to, F_OK) == 0);
}

Test(evt_file, refuses_what_is_not_an_event_file)
{
    unsigned char a[64], b[64];
    size_t na = chunk(a, 1, 2, 5, 'a', 1), nb = chunk(b, 1, 2, 5, 'b', 1), n;
    uint64_t size = na;
    unsigned char *left;

    b[nb - 1] = 0x07;  /* no end of file */
    put(to, a, na);
    put(from, b, nb);
    errno = 0;
    cr_assert_eq(pz_evt_append(to, &size, from), -1);
    cr_assert_eq(errno, EINVAL);
    cr_assert_eq(size, na, "the size is kept");
    cr_assert(access(from, F_OK) == 0, "from is kept");
    cr_assert_eq(pz_evt_cut(to, size), 0);
    left = get(to, &n);
    cr_assert_eq(n, na);
    cr_assert_eq(memcmp(left, a, na), 0, "to is what it was once cut");
    free(left);
}
