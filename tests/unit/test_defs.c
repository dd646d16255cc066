/* The one reader of a trace's global definitions (trace/defs.h) on traces written by
 * trace_builder.h: regions classified, intervals numbered, processes and threads,
 * communicators as processes, a communicator's rank to a process, and a definition id
 * out of range refused with a one-line error.  Every expectation is derived by hand
 * from the definitions the test writes (trace_builder.c: location group p is process
 * p, group 0 lists the locations in world-rank order, a COMM_GROUP lists world ranks). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <otf2/otf2.h>

#include "analysis.h"
#include "calls_gen.h"
#include "defs.h"
#include "grow.h"
#include "trace_builder.h"
#include "trace_in.h"

static char *dir;
static char anchor[4096];
static OTF2_Reader *otf;
static struct pz_defs defs;

static void cleanup(void)
{
    pz_defs_release(&defs);
    if (otf)
        OTF2_Reader_Close(otf);
    otf = NULL;
    if (dir) {
        tb_remove(dir);
        free(dir);
        dir = NULL;
    }
}

TestSuite(defs, .fini = cleanup);

static struct tb *trace(int nprocs)
{
    struct tb *b;

    dir = tb_tempdir();
    cr_assert_not_null(dir, "cannot make a temporary directory");
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    b = tb_open(dir, nprocs);
    cr_assert_not_null(b, "cannot open an OTF2 archive in %s", dir);
    return b;
}

/* Reads the definitions of the archive at anchor; returns pz_defs_read's result. */
static int read_defs(void)
{
    otf = OTF2_Reader_Open(anchor);
    cr_assert_not_null(otf, "cannot open %s", anchor);
    cr_assert_eq(OTF2_Reader_SetSerialCollectiveCallbacks(otf), OTF2_SUCCESS);
    return pz_defs_read(&defs, otf, anchor);
}

/* Closes the trace (one MPI_Init of 1 ms on each process first) and reads it. */
static void close_and_read(struct tb *b, int nprocs)
{
    for (int p = 0; p < nprocs; p++)
        tb_call(b, p, "MPI_Init", 0, TB_MS(1));
    cr_assert_eq(tb_close(b), 0, "the trace builder failed");
    cr_assert_eq(read_defs(), 0, "pz_defs_read: %s", defs.error);
}

Test(defs, regions_classified)
{
    struct tb *b = trace(1);
    uint32_t ssend = tb_mpi(b, "MPI_Ssend"), bsend = tb_mpi(b, "MPI_Bsend");
    uint32_t issend_c = tb_mpi(b, "MPI_Issend_c"), bsend_c = tb_mpi(b, "MPI_Bsend_c");
    uint32_t unknown = tb_mpi(b, "MPI_Not_a_function");
    uint32_t i7 = tb_interval(b, 7, "src/heat.c", 57);
    uint32_t s3 = tb_sequential_interval(b, 3, "init.c", 9);
    uint32_t user = tb_user(b, "compute");
    const struct pz_region_info *g;

    close_and_read(b, 1);
    /* MPI functions by name from the table: Ssend by rendezvous, Bsend eager */
    g = &defs.regions[ssend];
    cr_expect_eq(g->kind, PZ_REGION_MPI);
    cr_expect_eq(g->call, PZ_CALL_MPI_Ssend);
    cr_expect(g->synchronous && !g->buffered);
    g = &defs.regions[bsend];
    cr_expect_eq(g->call, PZ_CALL_MPI_Bsend);
    cr_expect(!g->synchronous && g->buffered);
    /* MPI 4.0's large-count forms send as their siblings do */
    g = &defs.regions[issend_c];
    cr_expect_eq(g->call, PZ_CALL_MPI_Issend_c);
    cr_expect(g->synchronous && !g->buffered);
    g = &defs.regions[bsend_c];
    cr_expect_eq(g->call, PZ_CALL_MPI_Bsend_c);
    cr_expect(!g->synchronous && g->buffered);
    /* paradigm MPI but no function of the table: an MPI region without call */
    g = &defs.regions[unknown];
    cr_expect_eq(g->kind, PZ_REGION_MPI);
    cr_expect_eq(g->call, -1);
    cr_expect_str_eq(g->name, "MPI_Not_a_function");
    /* "interval 7 at heat.c:57": number 7, file as written, line 57, not sequential */
    g = &defs.regions[i7];
    cr_expect_eq(g->kind, PZ_REGION_INTERVAL);
    cr_expect_eq(g->interval, 7);
    cr_expect_eq(g->sequential, 0);
    cr_expect_str_eq(pz_defs_string(&defs, g->file_ref), "src/heat.c");
    cr_expect_eq(g->line, 57);
    cr_expect_str_eq(g->name, "interval 7 at heat.c:57");
    /* "sequential interval 3 at init.c:9", description prognoz:sequential */
    g = &defs.regions[s3];
    cr_expect_eq(g->kind, PZ_REGION_INTERVAL);
    cr_expect_eq(g->interval, 3);
    cr_expect_eq(g->sequential, 1);
    g = &defs.regions[user];
    cr_expect_eq(g->kind, PZ_REGION_OTHER);
    cr_expect_eq(g->call, -1);
    cr_expect_eq(defs.resolution, 1000000000u);
}

Test(defs, threads_numbered_by_process)
{
    struct tb *b = trace(3);
    /* a second thread of process 0: location id 3 (one more than 0, 1, 2), group 0 */
    int extra = tb_thread(b, 0);

    tb_call(b, extra, "MPI_Init", 0, TB_MS(1));
    close_and_read(b, 3);
    /* threads by (group, id): loc 0 and loc 3 (process 0), loc 1, loc 2 */
    cr_assert_eq(defs.nprocs, 3);
    cr_assert_eq(defs.nthreads, 4);
    cr_expect_eq(defs.threaded, 1);
    cr_expect_eq(defs.thread_location[1], 3);
    cr_expect_eq(defs.thread_rank[1], 0);
    cr_expect_eq(defs.thread_rank[2], 1);
    cr_expect_eq(defs.first_thread[1], 2);
    cr_expect_eq(defs.first_thread[2], 3);
    cr_expect_eq(pz_defs_thread(&defs, 3), 1);
    cr_expect_eq(pz_defs_thread(&defs, 2), 3);
    cr_expect_eq(pz_defs_thread(&defs, 99), -1);
}

/* 5 processes with two communicators besides world and self: rev of world ranks
 * 3, 1, 0, and inter between the groups {0, 2} and {1, 3}; read. */
static void five_with_two_comms(uint32_t *rev, uint32_t *inter)
{
    struct tb *b = trace(5);
    const int reversed[] = { 3, 1, 0 }, a[] = { 0, 2 }, bb[] = { 1, 3 };

    *rev = tb_comm(b, "reversed", 3, reversed);
    *inter = tb_intercomm(b, "inter", 2, a, 2, bb);
    close_and_read(b, 5);
}

Test(defs, communicators_as_processes)
{
    uint32_t rev, inter;
    const struct pz_comm_def *c;

    five_with_two_comms(&rev, &inter);
    /* world rank r is location r, group r: process r */
    c = pz_defs_comm(&defs, TB_WORLD);
    cr_assert_not_null(c);
    cr_expect_eq(c->size, 5);
    cr_expect_eq(c->procs[4], 4);
    c = pz_defs_comm(&defs, TB_SELF);
    cr_assert_not_null(c);
    cr_expect(c->self && c->size == 1);
    /* ranks 0, 1, 2 are world ranks 3, 1, 0 */
    c = pz_defs_comm(&defs, rev);
    cr_assert_not_null(c);
    cr_expect_eq(c->size, 3);
    cr_expect_eq(c->local, 0);
    cr_expect(c->procs[0] == 3 && c->procs[1] == 1 && c->procs[2] == 0);
    /* the first group {0, 2} then the second {1, 3}: local 2 */
    c = pz_defs_comm(&defs, inter);
    cr_assert_not_null(c);
    cr_expect(c->inter);
    cr_expect_eq(c->size, 4);
    cr_expect_eq(c->local, 2);
    cr_expect(c->procs[0] == 0 && c->procs[1] == 2 && c->procs[2] == 1 && c->procs[3] == 3);
    cr_expect_null(pz_defs_comm(&defs, 77));
}

Test(defs, rank_to_process)
{
    uint32_t rev, inter;
    const struct pz_comm_def *c;

    five_with_two_comms(&rev, &inter);
    /* an intracommunicator: the same for everyone, rank 2 is world rank 0 */
    c = pz_defs_comm(&defs, rev);
    cr_expect_eq(pz_comm_process(c, 2, 1), 0);
    cr_expect_eq(pz_comm_process(c, 0, 4), 3);
    cr_expect_eq(pz_comm_process(c, 3, 1), -1);        /* 3 ranks only */
    cr_expect_eq(pz_comm_rank(c, 3), 0);
    cr_expect_eq(pz_comm_rank(c, 4), 3);               /* no member: the size */
    /* MPI_COMM_SELF: rank 0 is the caller itself, no other rank */
    c = pz_defs_comm(&defs, TB_SELF);
    cr_expect_eq(pz_comm_process(c, 0, 4), 4);
    cr_expect_eq(pz_comm_process(c, 1, 4), -1);
    /* the intercommunicator: a peer is a rank of the other group; process 0 (first
       group) sees {1, 3}, process 3 (second group) sees {0, 2} */
    c = pz_defs_comm(&defs, inter);
    cr_expect_eq(pz_comm_process(c, 1, 0), 3);
    cr_expect_eq(pz_comm_process(c, 0, 3), 0);
    cr_expect_eq(pz_comm_process(c, 1, 3), 2);
    cr_expect_eq(pz_comm_process(c, 2, 0), -1);        /* the other group has 2 */
    /* process 4 is in neither group: it sees the first */
    cr_expect_eq(pz_comm_process(c, 1, 4), 2);
    cr_expect_eq(pz_comm_rank(c, 3), 3);               /* second group: after the first */
    /* no communicator: no process */
    cr_expect_eq(pz_comm_process(pz_defs_comm(&defs, 77), 0, 0), -1);
}

static OTF2_FlushType flush(void *data, OTF2_FileType type, OTF2_LocationRef location,
                            void *caller, bool final)
{
    (void)data, (void)type, (void)location, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { flush, NULL };

/* An archive whose only region has id `id`, written with OTF2's writer directly (the
 * builder numbers definitions itself). */
static void write_region_id(uint32_t id)
{
    OTF2_Archive *archive;
    OTF2_GlobalDefWriter *w;

    dir = tb_tempdir();
    cr_assert_not_null(dir);
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    cr_assert_not_null(archive);
    cr_assert_eq(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL),
                 OTF2_SUCCESS);
    cr_assert_eq(OTF2_Archive_SetSerialCollectiveCallbacks(archive), OTF2_SUCCESS);
    w = OTF2_Archive_GetGlobalDefWriter(archive);
    cr_assert_not_null(w);
    OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, 0, 1, 0);
    OTF2_GlobalDefWriter_WriteString(w, 0, "MPI_Send");
    OTF2_GlobalDefWriter_WriteRegion(w, id, 0, 0, 0, OTF2_REGION_ROLE_FUNCTION,
                                     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    cr_assert_eq(OTF2_Archive_Close(archive), OTF2_SUCCESS);
}

Test(defs, id_out_of_range)
{
    char want[4096 + 64];

    /* 2^30: 2^30 regions of 40 bytes would be 40 GiB; above 2^24, refused */
    write_region_id(1u << 30);
    cr_assert_eq(read_defs(), -1);
    snprintf(want, sizeof(want), "%s: definition id 1073741824 out of range", anchor);
    cr_expect_str_eq(defs.error, want);
    cr_expect_eq(defs.nregions, 0);
}

Test(defs, largest_id_in_range)
{
    /* 2^24 itself is allowed: the trace then fails later, for having no locations */
    write_region_id(PZ_DEFS_MAX_ID);
    cr_assert_eq(read_defs(), -1);
    cr_expect(strstr(defs.error, "the trace has no locations"), "%s", defs.error);
    cr_expect_eq(defs.regions[PZ_DEFS_MAX_ID].call, PZ_CALL_MPI_Send);
}

/* The analyzer and the replay's reader report the reader's line. */
Test(defs, id_out_of_range_in_every_reader)
{
    char want[4096 + 64], err[8192];
    struct pz_analysis a;

    write_region_id(0xFFFFFFFEu);
    snprintf(want, sizeof(want), "%s: definition id 4294967294 out of range", anchor);
    cr_expect_eq(pz_analyze(dir, &a, err, sizeof(err)), -1);
    cr_expect_str_eq(err, want);
    cr_expect_null(pz_trace_in_open(dir, err, sizeof(err)));
    cr_expect_str_eq(err, want);
}

Test(defs, grow_without_wrapping)
{
    uint32_t *v = NULL, n = 0;

    /* the first capacity is 64; index 200 doubles it twice, to 256, zero-filled */
    cr_assert_eq(pz_grow((void **)&v, &n, 0, sizeof(*v)), 0);
    cr_expect_eq(n, 64);
    v[0] = 5;
    cr_assert_eq(pz_grow((void **)&v, &n, 200, sizeof(*v)), 0);
    cr_expect_eq(n, 256);
    cr_expect(v[0] == 5 && v[64] == 0 && v[255] == 0);
    /* index 2^32 - 1 would need 2^32 elements, which n cannot count: refused, untouched */
    cr_expect_eq(pz_grow((void **)&v, &n, UINT32_MAX, sizeof(*v)), -1);
    cr_expect_eq(n, 256);
    free(v);
}
