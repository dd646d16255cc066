/* A location's local definitions (trace/open.h): a file holding none is recognized by
 * its bytes and not read through OTF2, one holding definitions is read and applied as
 * before, and a damaged one is still reported, naming the file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "open.h"
#include "trace_in.h"
#include "tempdir_fixture.h"

TestSuite(local_defs, .init = setup, .fini = cleanup);

/* A char array var holding DIR/NAME. */
#define PATH(var, dir, name) \
    char var[4096];          \
    cr_assert_lt(snprintf(var, sizeof(var), "%s/%s", dir, name), (int)sizeof(var))

static void write_bytes(const char *file, const unsigned char *bytes, size_t n)
{
    FILE *out = fopen(file, "wb");

    cr_assert_not_null(out, "cannot write %s", file);
    cr_assert_eq(fwrite(bytes, 1, n, out), n);
    fclose(out);
}

/* The bytes pz_local_defs_empty takes, derived from OTF2's layout of a definitions
 * file (open.h): chunk header byte 0x03, endianness byte 0x42, first event 1 and last
 * event 0 (8 bytes each, little-endian), end of file 0x02, end of buffer 0x01. */
static const unsigned char empty[20] = { 0x03, 0x42, 1, 0, 0, 0, 0, 0, 0, 0,
                                         0,    0,    0, 0, 0, 0, 0, 0, 0x02, 0x01 };

/* A trace of two processes, each in MPI_Init from 0 to 1 ms then in MPI_Finalize from
 * 2 to 3 ms; its regions' ids in init and finalize. */
static void two_processes(const char *dir, uint32_t *init, uint32_t *finalize)
{
    struct tb *b = tb_open(dir, 2);

    cr_assert_not_null(b);
    *init = tb_mpi(b, "MPI_Init");
    *finalize = tb_mpi(b, "MPI_Finalize");
    for (int p = 0; p < 2; p++) {
        tb_call(b, p, "MPI_Init", 0, TB_MS(1));
        tb_call(b, p, "MPI_Finalize", TB_MS(2), TB_MS(3));
    }
    cr_assert_eq(tb_close(b), 0);
}

static OTF2_FlushType always_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc,
                                   void *caller, bool final)
{
    (void)data, (void)type, (void)loc, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { always_flush, NULL };

/* Writes, with OTF2, an archive DIR/traces.otf2 whose location loc's local definitions
 * map region 0 to region to, and nothing else; its file is DIR/traces/LOC.def. */
static void write_region_mapping(const char *dir, OTF2_LocationRef loc, uint64_t to)
{
    OTF2_Archive *a = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 256 * 1024,
                                        256 * 1024, OTF2_SUBSTRATE_POSIX,
                                        OTF2_COMPRESSION_NONE);
    OTF2_IdMap *map = OTF2_IdMap_Create(OTF2_ID_MAP_DENSE, 1);
    OTF2_DefWriter *w;

    cr_assert(a && map);
    cr_assert_eq(OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_SetSerialCollectiveCallbacks(a), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_OpenDefFiles(a), OTF2_SUCCESS);
    cr_assert_not_null(w = OTF2_Archive_GetDefWriter(a, loc));
    cr_assert_eq(OTF2_IdMap_AddIdPair(map, 0, to), OTF2_SUCCESS);
    cr_assert_eq(OTF2_DefWriter_WriteMappingTable(w, OTF2_MAPPING_REGION, map), OTF2_SUCCESS);
    OTF2_IdMap_Free(map);
    cr_assert_eq(OTF2_Archive_CloseDefWriter(a, w), OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_CloseDefFiles(a), OTF2_SUCCESS);
    OTF2_Archive_Close(a);
}

static void copy_file(const char *from, const char *to)
{
    unsigned char bytes[65536];
    FILE *in = fopen(from, "rb");
    size_t n;

    cr_assert_not_null(in, "cannot read %s", from);
    n = fread(bytes, 1, sizeof(bytes), in);
    fclose(in);
    write_bytes(to, bytes, n);
}

Test(local_defs, otf2s_file_of_a_location_without_definitions_is_empty)
{
    uint32_t init, finalize;
    PATH(def0, top, "traces/0.def");
    PATH(def1, top, "traces/1.def");

    /* trace_builder writes an empty local definitions file per location, through
     * OTF2's writer, as the predicted archives do */
    two_processes(top, &init, &finalize);
    cr_expect_eq(pz_local_defs_empty(def0), 1);
    cr_expect_eq(pz_local_defs_empty(def1), 1);
}

Test(local_defs, any_other_file_is_not_empty)
{
    unsigned char bytes[21];
    PATH(file, top, "x.def");
    PATH(missing, top, "missing.def");
    PATH(mapping, top, "mapping");
    PATH(mapping_def, top, "mapping/traces/1.def");

    memcpy(bytes, empty, sizeof(empty));
    write_bytes(file, bytes, 20);
    cr_expect_eq(pz_local_defs_empty(file), 1);
    bytes[0] = 0x04;   /* not a chunk header */
    write_bytes(file, bytes, 20);
    cr_expect_eq(pz_local_defs_empty(file), 0);
    memcpy(bytes, empty, sizeof(empty));
    bytes[20] = 0x00;  /* a byte after the end of the buffer */
    write_bytes(file, bytes, 21);
    cr_expect_eq(pz_local_defs_empty(file), 0);
    write_bytes(file, bytes, 19);   /* cut before the end of the buffer */
    cr_expect_eq(pz_local_defs_empty(file), 0);
    cr_expect_eq(pz_local_defs_empty(missing), 0);
    /* a mapping table, as the recorder writes one per location */
    write_region_mapping(mapping, 1, 1);
    cr_expect_eq(pz_local_defs_empty(mapping_def), 0);
}

Test(local_defs, a_mapping_table_still_applies_to_the_events)
{
    struct pz_trace_in *t;
    const struct pz_rec *r;
    uint32_t init, finalize;
    PATH(trace, top, "t");
    PATH(def1, trace, "traces/1.def");
    PATH(mapping, top, "mapping");
    PATH(mapping_def, top, "mapping/traces/1.def");

    /* location 1's MPI_Init is recorded as region 0 (init), and its local definitions
     * map region 0 to finalize: its first record, the Enter of MPI_Init, reads
     * finalize; location 0's, without definitions, reads init */
    two_processes(trace, &init, &finalize);
    cr_assert_eq(init, 0);
    write_region_mapping(mapping, 1, finalize);
    copy_file(mapping_def, def1);
    t = pz_trace_in_open(trace, err, sizeof(err));
    cr_assert_not_null(t, "%s", err);
    cr_assert_not_null(r = pz_trace_in_peek(t, 0, 0));
    cr_expect_eq(r->kind, PZ_REC_ENTER);
    cr_expect_eq(r->region, init);
    cr_assert_not_null(r = pz_trace_in_peek(t, 1, 0));
    cr_expect_eq(r->kind, PZ_REC_ENTER);
    cr_expect_eq(r->region, finalize);
    pz_trace_in_close(t);
}

Test(local_defs, a_damaged_file_of_an_empty_ones_size_is_still_reported)
{
    unsigned char bytes[20];
    uint32_t init, finalize;
    PATH(trace, top, "t");
    PATH(def1, trace, "traces/1.def");

    /* 20 bytes that are not OTF2's empty file go to OTF2 as before, which cannot read
     * them: one line, naming location 1's file */
    two_processes(trace, &init, &finalize);
    memcpy(bytes, empty, sizeof(empty));
    bytes[0] = 0x04;
    write_bytes(def1, bytes, sizeof(bytes));
    cr_assert_null(pz_trace_in_open(trace, err, sizeof(err)));
    cr_expect_not_null(strstr(err, "/t/traces/1.def: "), "%s", err);
    cr_expect_null(strchr(err, '\n'), "%s", err);
}
