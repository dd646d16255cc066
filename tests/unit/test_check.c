/* What every reader checks of a trace (trace/open.h, trace/check.h, trace/anchor.h):
 * the analyzer (pz_analyze) and the replay's reader (pz_trace_in_open) refuse a trace
 * whose time goes back in a location, one whose event file is missing, damaged or
 * truncated, and one whose anchor file is damaged, with the same one-line error naming
 * the file.  Traces are written by trace_builder.h: location p is process p,
 * timestamps in nanoseconds (resolution 1e9), clock offset 0. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "trace_builder.h"
#include "trace_in.h"

static char *dir;
static char anchor[4096];

static void cleanup(void)
{
    if (dir) {
        tb_remove(dir);
        free(dir);
        dir = NULL;
    }
}

TestSuite(check, .fini = cleanup);

/* Two processes, each in MPI_Init from 0 to 1 ms and in MPI_Finalize from 3 to 4 ms. */
static void write_trace(void)
{
    struct tb *b;

    dir = tb_tempdir();
    cr_assert_not_null(dir, "cannot make a temporary directory");
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    b = tb_open(dir, 2);
    cr_assert_not_null(b, "cannot open an OTF2 archive in %s", dir);
    for (int p = 0; p < 2; p++)
        tb_call(b, p, "MPI_Init", 0, TB_MS(1));
    for (int p = 0; p < 2; p++)
        tb_call(b, p, "MPI_Finalize", TB_MS(3), TB_MS(4));
    cr_assert_eq(tb_close(b), 0, "cannot write the trace in %s", dir);
}

/* Damages the event file of location 0: the timestamp `from` (a little-endian uint64
 * as OTF2 stores it, found once in the file) becomes `to`; OTF2's writer would refuse
 * to write it so. */
static void patch_time(uint64_t from, uint64_t to)
{
    char evt[4096 + 32];
    unsigned char buf[1 << 16], want[8], put[8];
    FILE *f;
    size_t n, at = 0;
    int found = 0;

    for (int i = 0; i < 8; i++) {
        want[i] = (unsigned char)(from >> (8 * i));
        put[i] = (unsigned char)(to >> (8 * i));
    }
    snprintf(evt, sizeof(evt), "%s/traces/0.evt", dir);
    cr_assert_not_null(f = fopen(evt, "r+b"), "cannot open %s", evt);
    n = fread(buf, 1, sizeof(buf), f);
    for (size_t i = 0; i + 8 <= n; i++)
        if (!memcmp(buf + i, want, 8)) {
            found++;
            at = i;
        }
    cr_assert_eq(found, 1, "timestamp %llu found %d times in %s", (unsigned long long)from,
                 found, evt);
    fseek(f, (long)at, SEEK_SET);
    fwrite(put, 1, 8, f);
    fclose(f);
}

/* Both readers fail with the line want (or, want NULL, the same line as each other). */
static void expect_same_error(const char *want)
{
    char analyzer[8192], trace_in[8192];
    struct pz_analysis a;

    cr_expect_eq(pz_analyze(dir, &a, analyzer, sizeof(analyzer)), -1);
    cr_expect_null(pz_trace_in_open(dir, trace_in, sizeof(trace_in)));
    cr_expect_str_eq(trace_in, analyzer);
    if (want)
        cr_expect_str_eq(analyzer, want);
    cr_expect_null(strchr(analyzer, '\n'), "more than one line: %s", analyzer);
}

Test(check, valid_trace_passes)
{
    char err[8192];
    struct pz_analysis a;
    struct pz_trace_in *t;

    write_trace();
    cr_expect_eq(pz_analyze(dir, &a, err, sizeof(err)), 0, "%s", err);
    pz_analysis_free(&a);
    t = pz_trace_in_open(dir, err, sizeof(err));
    cr_expect_not_null(t, "%s", err);
    pz_trace_in_close(t);
}

/* Rank 0's Enter of MPI_Finalize moved from 3 to 5 ms: its events are Enter 0, Leave
 * 1 ms, Enter 5 ms, Leave 4 ms, so its 4th event (OTF2 numbers a location's events from
 * 1) is at 0.004 s since the clock's offset, after one at 0.005 s. */
Test(check, time_going_back_is_one_line_in_every_reader)
{
    char want[4096 + 128];

    write_trace();
    patch_time(TB_MS(3), TB_MS(5));
    snprintf(want, sizeof(want),
             "%s: location 0: time goes back at event 4 (0.004000000 s after 0.005000000 s)",
             anchor);
    expect_same_error(want);
}

/* Rank 1's event file deleted: OTF2's first complaint names it, as the readers say. */
Test(check, missing_event_file_is_one_line_in_every_reader)
{
    char evt[4096 + 32], prefix[4096 + 8], analyzer[8192];
    struct pz_analysis a;

    write_trace();
    snprintf(evt, sizeof(evt), "%s/traces/1.evt", dir);
    cr_assert_eq(unlink(evt), 0, "cannot remove %s", evt);
    expect_same_error(NULL);
    cr_expect_eq(pz_analyze(dir, &a, analyzer, sizeof(analyzer)), -1);
    snprintf(prefix, sizeof(prefix), "%s: ", anchor);
    cr_expect_eq(strncmp(analyzer, prefix, strlen(prefix)), 0, "%s", analyzer);
    cr_expect_not_null(strstr(analyzer, "1.evt"), "%s", analyzer);
}

/* Both readers fail with one line that starts with "DIR/traces/1.evt: " and goes on
 * with what OTF2 says of it, containing `says`. */
static void expect_error_of_evt_file(const char *says)
{
    char prefix[4096 + 32], analyzer[8192];
    struct pz_analysis a;

    expect_same_error(NULL);
    cr_expect_eq(pz_analyze(dir, &a, analyzer, sizeof(analyzer)), -1);
    snprintf(prefix, sizeof(prefix), "%s/traces/1.evt: ", dir);
    cr_expect_eq(strncmp(analyzer, prefix, strlen(prefix)), 0, "%s", analyzer);
    cr_expect_not_null(strstr(analyzer + strlen(prefix), says), "%s", analyzer);
}

/* Rank 1's event file without its chunk header (its first byte, 3 in OTF2's format,
 * made 7): OTF2 says "This is no chunk header!" and the error names the file, not the
 * anchor. */
Test(check, damaged_event_file_is_named)
{
    char evt[4096 + 32];
    FILE *f;

    write_trace();
    snprintf(evt, sizeof(evt), "%s/traces/1.evt", dir);
    cr_assert_not_null(f = fopen(evt, "r+b"), "cannot open %s", evt);
    cr_assert_eq(fgetc(f), 3, "%s does not start with OTF2's chunk header mark", evt);
    fseek(f, 0, SEEK_SET);
    fputc(7, f);
    fclose(f);
    expect_error_of_evt_file("no chunk header");
}

/* Rank 1's event file cut after its 18-byte chunk header and 3 bytes of its first
 * record: OTF2 3.0.2 then says it finds no chunk header, and the error names the file. */
Test(check, truncated_event_file_is_named)
{
    char evt[4096 + 32];

    write_trace();
    snprintf(evt, sizeof(evt), "%s/traces/1.evt", dir);
    cr_assert_eq(truncate(evt, 21), 0, "cannot truncate %s", evt);
    expect_error_of_evt_file("no chunk header");
}

/* An empty event file: an error, not a run without rank 1's events. */
Test(check, empty_event_file_is_one_line_in_every_reader)
{
    char evt[4096 + 32];
    FILE *f;

    write_trace();
    snprintf(evt, sizeof(evt), "%s/traces/1.evt", dir);
    cr_assert_not_null(f = fopen(evt, "w"), "cannot empty %s", evt);
    fclose(f);
    expect_same_error(NULL);
}

/* The anchor file's bytes into buf (at most len); their number. */
static size_t read_anchor(unsigned char *buf, size_t len)
{
    FILE *f = fopen(anchor, "rb");
    size_t n;

    cr_assert_not_null(f, "cannot open %s", anchor);
    n = fread(buf, 1, len, f);
    fclose(f);
    return n;
}

static void write_anchor(const unsigned char *buf, size_t n)
{
    FILE *f = fopen(anchor, "wb");

    cr_assert_not_null(f, "cannot write %s", anchor);
    cr_assert_eq(fwrite(buf, 1, n, f), n);
    fclose(f);
}

/* The offset of the number of properties in an anchor of OTF2 3.0's format 3: the
 * chunk header mark and the byte order mark (2 bytes), "OTF2" and its NUL (5), the
 * anchor format (1), then 38 bytes of fixed fields (trace format 1, version 3, two
 * chunk sizes 16, substrate 1, compression 1, two counts 16): 46; then the machine
 * name, the creator and the description, each a string with its NUL. */
static size_t properties_offset(const unsigned char *buf, size_t n)
{
    size_t at = 46;

    cr_assert_eq(buf[7], 3, "the anchor's format is %d, not 3", buf[7]);
    cr_assert_eq(buf[1], 0x42, "the anchor is not little-endian");
    for (int s = 0; s < 3; s++) {
        const unsigned char *nul = memchr(buf + at, 0, n - at);

        cr_assert_not_null(nul, "string %d of the anchor has no end", s);
        at = (size_t)(nul - buf) + 1;
    }
    cr_assert_leq(at + 4, n);
    return at;
}

/* The number of properties made 2^30 (bit 6 of its highest byte, little-endian, set:
 * the bit flip that had OTF2 3.0.2 allocate 2^31 pointers and walk them for seconds):
 * refused before OTF2 reads it, naming the field and the anchor's size. */
Test(check, anchor_declaring_too_many_properties_is_refused, .timeout = 10)
{
    unsigned char buf[4096];
    char want[4096 + 256];
    size_t n, at;

    write_trace();
    n = read_anchor(buf, sizeof(buf));
    at = properties_offset(buf, n);
    cr_assert_eq(buf[at + 3], 0, "the anchor already has many properties");
    buf[at + 3] |= 0x40;
    write_anchor(buf, n);
    snprintf(want, sizeof(want), "%s: damaged anchor file: its number of properties "
             "(1073741824) does not fit in its %zu bytes", anchor, n);
    expect_same_error(want);
}

/* An anchor cut in its fixed fields: 46 bytes are needed before the machine name, 30
 * are there, which end within the number of locations (bytes 30 to 37). */
Test(check, truncated_anchor_is_refused)
{
    unsigned char buf[4096];
    char want[4096 + 256];

    write_trace();
    read_anchor(buf, sizeof(buf));
    write_anchor(buf, 30);
    snprintf(want, sizeof(want), "%s: damaged anchor file: it ends before its number of "
             "locations", anchor);
    expect_same_error(want);
}

/* A number of locations (bytes 30 to 37, little-endian) of 2^40 with a definition
 * file of a few hundred bytes, which cannot hold that many records. */
Test(check, anchor_counting_more_locations_than_definition_bytes_is_refused)
{
    unsigned char buf[4096];
    char want[4096 + 256], def[4096 + 16];
    struct stat st;
    size_t n;

    write_trace();
    n = read_anchor(buf, sizeof(buf));
    cr_assert_eq(buf[30], 2, "the anchor does not count 2 locations");
    buf[35] = 1;
    write_anchor(buf, n);
    snprintf(def, sizeof(def), "%s/traces.def", dir);
    cr_assert_eq(stat(def, &st), 0);
    snprintf(want, sizeof(want), "%s: damaged anchor file: its number of locations "
             "(1099511627778) exceeds the %lld bytes of the definition file", anchor,
             (long long)st.st_size);
    expect_same_error(want);
}

/* A control character in the anchor's machine name (its first byte, 46, made a line
 * feed, and a NUL after it to end the string there): the reports would print it. */
Test(check, anchor_string_with_a_control_character_is_refused)
{
    unsigned char buf[4096];
    char want[4096 + 256];
    size_t n;

    write_trace();
    n = read_anchor(buf, sizeof(buf));
    cr_assert_eq(buf[46], 0, "the anchor has a machine name");
    buf[46] = '\n';
    memmove(buf + 47, buf + 46, n - 46);
    buf[47] = 0;
    write_anchor(buf, n + 1);
    snprintf(want, sizeof(want), "%s: damaged anchor file: its machine name is not text "
             "(byte 46 is 0x0a)", anchor);
    expect_same_error(want);
}
