/* A synthesized run written as OTF2 (replay/synth_out.h).  A small recording of two
 * processes is built by hand (trace_builder.h) for its regions, call site, attributes
 * and clock; a run of six processes is synthesized on it with communicators of its own
 * (the world, MPI_COMM_SELF and two rows of three) and read back by the replay's reader
 * (trace_in.h: processes, communicators, every record) and by the analyzer (the
 * interval, the messages, the collectives, the MPI times derived by hand below), and by
 * otf2-print when OTF2_PRINT is set (as `make check` does); its definitions are the
 * recording's of the program and new ones of the run, none of the recorded run's.  A run of 2048 processes is
 * written and read back the same way.  An output directory that cannot be made or
 * holds a trace, a missing recording, unknown world ranks, a process resumed after
 * another one and a communicator not given are refused with one line naming the file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <otf2/otf2.h>

#include "analysis.h"
#include "synth_out.h"
#include "trace_builder.h"
#include "trace_in.h"

#define MS TB_MS
#define OFFSET MS(2)
#define AT(ms) (OFFSET + MS(ms))           /* ms after the clock's offset, in ns */
#define NPROCS 6
#define MAXRECS 48

/* The communicators of the synthesized run: its communicator i is comms[i]. */
enum { WORLD, SELF, ROW0, ROW1, NCOMMS };
static const int row_members[2][3] = { { 0, 1, 2 }, { 3, 4, 5 } };
static const struct pz_synth_comm comms[NCOMMS] = {
    [WORLD] = { NPROCS, NULL, 0, "MPI_COMM_WORLD", 0 },
    [SELF] = { 1, NULL, 1, "MPI_COMM_SELF", 0 },
    [ROW0] = { 3, row_members[0], 0, "row 0", 0 },
    [ROW1] = { 3, row_members[1], 0, "row 1", 0 },
};

/* The recording's regions and call site. */
static struct {
    uint32_t send, recv, isend, wait, allreduce, barrier, interval, site;
} r;

static char *top;                           /* this test's temporary directory */
static char err[1024];
static struct pz_rec want[NPROCS][MAXRECS];  /* the records written, per process */
static size_t nwant[NPROCS];

static void setup(void)
{
    top = tb_tempdir();
    cr_assert_not_null(top, "cannot make a temporary directory");
    memset(nwant, 0, sizeof(nwant));
}

static void cleanup(void)
{
    tb_remove(top);
    free(top);
    top = NULL;
}

TestSuite(synth_out, .init = setup, .fini = cleanup);

static char *path_in(const char *name, char buf[4096])
{
    snprintf(buf, 4096, "%s/%s", top, name);
    return buf;
}

/* The recording: two processes exchange a message and reduce, MPI_Send from s.c:30
 * and Allreduce's enter with a CPU time, so that both attributes are defined; a
 * communicator "pair" of its own, which the synthesized run must not inherit. */
static void record(const char *d)
{
    struct tb *b = tb_open(d, 2);
    const int pair[2] = { 1, 0 };

    cr_assert_not_null(b);
    tb_set_offset(b, OFFSET);
    r.send = tb_mpi(b, "MPI_Send");
    r.recv = tb_mpi(b, "MPI_Recv");
    r.isend = tb_mpi(b, "MPI_Isend");
    r.wait = tb_mpi(b, "MPI_Wait");
    r.allreduce = tb_mpi(b, "MPI_Allreduce");
    r.barrier = tb_mpi(b, "MPI_Barrier");
    r.interval = tb_interval(b, 1, "/src/s.c", 20);
    r.site = tb_site(b, "/src/s.c", 30);
    tb_comm(b, "pair", 2, pair);
    tb_enter(b, 0, AT(0), r.interval);
    tb_enter_site(b, 0, AT(1), r.send, r.site);
    tb_mpi_send(b, 0, AT(1), TB_WORLD, 1, 5, 100);
    tb_leave(b, 0, AT(2), r.send);
    tb_recv_call(b, 1, "MPI_Recv", AT(1), AT(2), TB_WORLD, 0, 5);
    for (int p = 0; p < 2; p++) {
        tb_enter_cpu(b, p, AT(3), r.allreduce, 1000);
        tb_collective_begin(b, p, AT(3));
        tb_collective_end(b, p, AT(4), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT, 8,
                          8);
        tb_leave_cpu(b, p, AT(4), r.allreduce, 2000);
    }
    tb_leave(b, 0, AT(5), r.interval);
    cr_assert_eq(tb_close(b), 0, "the trace builder failed");
}

/* Records of process p, appended to want[p]. */

static struct pz_rec *add(int p, uint8_t kind, double ms)
{
    struct pz_rec *x;

    cr_assert_lt(nwant[p], MAXRECS);
    x = &want[p][nwant[p]++];
    *x = (struct pz_rec){ .kind = kind, .time = AT(ms), .peer = PZ_NONE32,
                          .callsite = PZ_NONE32, .send_list = PZ_NONE32,
                          .recv_list = PZ_NONE32, .cpu = PZ_NONE64 };
    return x;
}

static struct pz_rec *enter(int p, double ms, uint32_t region)
{
    struct pz_rec *x = add(p, PZ_REC_ENTER, ms);

    x->region = region;
    return x;
}

static void leave(int p, double ms, uint32_t region)
{
    add(p, PZ_REC_LEAVE, ms)->region = region;
}

static struct pz_rec *message(int p, uint8_t kind, double ms, uint32_t comm, uint32_t peer,
                              uint32_t tag, uint64_t bytes)
{
    struct pz_rec *x = add(p, kind, ms);

    x->comm = comm, x->peer = peer, x->tag = tag, x->bytes = bytes;
    return x;
}

static void collective(int p, uint32_t region, double enter_ms, double leave_ms,
                       OTF2_CollectiveOp op, uint32_t comm)
{
    struct pz_rec *end;

    enter(p, enter_ms, region);
    add(p, PZ_REC_COLL_BEGIN, enter_ms);
    end = add(p, PZ_REC_COLL_END, leave_ms);
    end->coll_op = (uint8_t)op, end->comm = comm, end->bytes = end->bytes2 = 8;
    leave(p, leave_ms, region);
}

/* The synthesized run (ms after the offset).  Every process p is in interval 1 from 1
 * to 7.  In its row (ROW0 or ROW1), rank c = p % 3:
 *   c 0: MPI_Send from s.c:30 2-2.5 to rank 1, tag 5, 100 bytes;
 *   c 1: MPI_Recv 1.5-3 of it; MPI_Isend 3.2-3.3 to rank 2, tag 6, 200 bytes,
 *        request 1; MPI_Wait 3.4-4 completing it;
 *   c 2: MPI_Recv 2-4.5 of it.
 * Then all: MPI_Allreduce on the world from 5 + 0.1 p (CPU time 1000 p at its enter)
 * to 6, and MPI_Barrier on MPI_COMM_SELF 6.5-6.6. */
static void synthesize_process(int p)
{
    uint32_t row = p < 3 ? ROW0 : ROW1;

    enter(p, 1, r.interval);
    switch (p % 3) {
    case 0:
        enter(p, 2, r.send)->callsite = r.site;
        message(p, PZ_REC_SEND, 2, row, 1, 5, 100);
        leave(p, 2.5, r.send);
        break;
    case 1:
        enter(p, 1.5, r.recv);
        message(p, PZ_REC_RECV, 3, row, 0, 5, 100);
        leave(p, 3, r.recv);
        enter(p, 3.2, r.isend);
        message(p, PZ_REC_ISEND, 3.2, row, 2, 6, 200)->request = 1;
        leave(p, 3.3, r.isend);
        enter(p, 3.4, r.wait);
        add(p, PZ_REC_ISEND_COMPLETE, 4)->request = 1;
        leave(p, 4, r.wait);
        break;
    default:
        enter(p, 2, r.recv);
        message(p, PZ_REC_RECV, 4.5, row, 1, 6, 200);
        leave(p, 4.5, r.recv);
    }
    collective(p, r.allreduce, 5 + 0.1 * p, 6, OTF2_COLLECTIVE_OP_ALLREDUCE, WORLD);
    want[p][nwant[p] - 4].cpu = 1000 * (uint64_t)p;
    collective(p, r.barrier, 6.5, 6.6, OTF2_COLLECTIVE_OP_BARRIER, SELF);
    leave(p, 7, r.interval);
}

/* Writes want's records, process after process. */
static void write_run(const char *recorded, const char *d)
{
    struct pz_synth_out *o =
        pz_synth_out_open(d, recorded, NPROCS, comms, NCOMMS, err, sizeof(err));

    cr_assert_not_null(o, "pz_synth_out_open: %s", err);
    for (int p = 0; p < NPROCS; p++)
        for (size_t i = 0; i < nwant[p]; i++)
            cr_assert_eq(pz_synth_out_event(o, p, &want[p][i]), 0, "process %d, record %zu",
                         p, i);
    cr_assert_eq(pz_synth_out_close(o, err, sizeof(err)), 0, "pz_synth_out_close: %s", err);
}

static void synthesize(char rec[4096], char out[4096])
{
    record(path_in("recorded", rec));
    for (int p = 0; p < NPROCS; p++)
        synthesize_process(p);
    write_run(rec, path_in("synthesized", out));
}

static void assert_same_record(const struct pz_rec *got, const struct pz_rec *w, int p,
                               size_t i)
{
    cr_assert_eq(got->kind, w->kind, "process %d, record %zu: kind", p, i);
    cr_assert_eq(got->time, w->time, "process %d, record %zu: time", p, i);
    cr_assert_eq(got->coll_op, w->coll_op, "process %d, record %zu: operation", p, i);
    cr_assert_eq(got->region, w->region, "process %d, record %zu: region", p, i);
    cr_assert_eq(got->comm, w->comm, "process %d, record %zu: communicator", p, i);
    cr_assert_eq(got->peer, w->peer, "process %d, record %zu: peer", p, i);
    cr_assert_eq(got->tag, w->tag, "process %d, record %zu: tag", p, i);
    cr_assert_eq(got->bytes, w->bytes, "process %d, record %zu: bytes", p, i);
    cr_assert_eq(got->bytes2, w->bytes2, "process %d, record %zu: bytes received", p, i);
    cr_assert_eq(got->request, w->request, "process %d, record %zu: request", p, i);
    cr_assert_eq(got->callsite, w->callsite, "process %d, record %zu: call site", p, i);
    cr_assert_eq(got->send_list, w->send_list, "process %d, record %zu: send list", p, i);
    cr_assert_eq(got->recv_list, w->recv_list, "process %d, record %zu: receive list", p, i);
    cr_assert_eq(got->cpu, w->cpu, "process %d, record %zu: cpu time", p, i);
}

/* Communicator comm of t has the processes given (world: 0..NPROCS-1). */
static void assert_comm(struct pz_trace_in *t, uint32_t comm)
{
    const int *procs = NULL;
    int n = pz_trace_in_comm(t, comm, &procs);

    if (comms[comm].self) {
        cr_assert_eq(n, 0, "MPI_COMM_SELF is read as a communicator of %d", n);
        return;
    }
    cr_assert_eq(n, (int)comms[comm].size, "communicator %u: %d processes", comm, n);
    for (int i = 0; i < n; i++)
        cr_assert_eq(procs[i], comms[comm].members ? comms[comm].members[i] : i,
                     "communicator %u: rank %d is process %d", comm, i, procs[i]);
}

/* otf2-print reads the archive at d with no other complaint than about the recording
 * at rec (the trace builder defines the attribute prognoz:cpu_time, 1, before
 * prognoz:callsite, 0, and the copy keeps their order). */
static void assert_printable(const char *rec, const char *d)
{
    const char *print = getenv("OTF2_PRINT");
    char cmd[16384];

    if (!print || !*print)
        return;
    snprintf(cmd, sizeof(cmd),
             "'%s' '%s/traces.otf2' >'%s/print.out' 2>'%s/print.rec' && "
             "'%s' '%s/traces.otf2' >'%s/print.out' 2>'%s/print.err' && "
             "cmp -s '%s/print.rec' '%s/print.err' || { cat '%s/print.err' >&2; false; }",
             print, rec, top, top, print, d, top, top, top, top, top);
    cr_assert_eq(system(cmd), 0, "otf2-print complains about %s (its complaint is above)", d);
}

Test(synth_out, the_reader_finds_every_record_and_communicator)
{
    char rec[4096], out[4096];
    struct pz_trace_in *t;
    const int *procs;

    synthesize(rec, out);
    t = pz_trace_in_open(out, err, sizeof(err));
    cr_assert_not_null(t, "pz_trace_in_open: %s", err);
    cr_assert_eq(pz_trace_in_nprocs(t), NPROCS);
    cr_assert_eq(pz_trace_in_nthreads(t), NPROCS);
    cr_assert_float_eq(pz_trace_in_resolution(t), 1e9, 1e-3);
    cr_assert_eq(pz_trace_in_offset(t), OFFSET);
    for (uint32_t c = 0; c < NCOMMS; c++)
        assert_comm(t, c);
    cr_assert_eq(pz_trace_in_comm(t, NCOMMS, &procs), -1, "the recording's \"pair\" is there");
    cr_assert_str_eq(pz_trace_in_region(t, r.interval)->name, "interval 1 at s.c:20");
    for (int p = 0; p < NPROCS; p++) {
        cr_assert_eq(pz_trace_in_rank(t, p), p);
        cr_assert_eq(pz_trace_in_locations(t)[p], (uint64_t)p);
        for (size_t i = 0; i < nwant[p]; i++) {
            const struct pz_rec *got = pz_trace_in_peek(t, p, 0);

            cr_assert_not_null(got, "process %d: %zu records, not %zu (%s)", p, i, nwant[p],
                               pz_trace_in_error(t) ? pz_trace_in_error(t) : "no error");
            assert_same_record(got, &want[p][i], p, i);
            pz_trace_in_consume(t, p, 1);
        }
        cr_assert_null(pz_trace_in_peek(t, p, 0), "process %d: more records", p);
    }
    cr_assert_null(pz_trace_in_error(t));
    pz_trace_in_close(t);
    assert_printable(rec, out);
}

/* What an archive's global definitions hold, counted by OTF2's reader. */
#define MAXSTRINGS 256
struct definitions {
    uint64_t resolution, offset, length;
    int nodes, location_groups, locations, groups, comms;
    char *strings[MAXSTRINGS];
    int defined[MAXSTRINGS];          /* times each string reference is defined */
};

static OTF2_CallbackCode count_clock(void *ud, uint64_t resolution, uint64_t offset,
                                     uint64_t length, uint64_t realtime)
{
    struct definitions *d = ud;

    (void)realtime;
    d->resolution = resolution, d->offset = offset, d->length = length;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode count_string(void *ud, OTF2_StringRef self, const char *s)
{
    struct definitions *d = ud;

    cr_assert_lt(self, MAXSTRINGS);
    free(d->strings[self]);
    d->strings[self] = strdup(s);
    d->defined[self]++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode count_node(void *ud, OTF2_SystemTreeNodeRef self,
                                    OTF2_StringRef name, OTF2_StringRef class_name,
                                    OTF2_SystemTreeNodeRef parent)
{
    (void)self, (void)name, (void)class_name, (void)parent;
    ((struct definitions *)ud)->nodes++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode count_location_group(void *ud, OTF2_LocationGroupRef self,
                                              OTF2_StringRef name, OTF2_LocationGroupType type,
                                              OTF2_SystemTreeNodeRef node,
                                              OTF2_LocationGroupRef creator)
{
    (void)self, (void)name, (void)type, (void)node, (void)creator;
    ((struct definitions *)ud)->location_groups++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode count_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
                                        OTF2_LocationType type, uint64_t events,
                                        OTF2_LocationGroupRef group)
{
    (void)self, (void)name, (void)type, (void)events, (void)group;
    ((struct definitions *)ud)->locations++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode count_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name,
                                     OTF2_GroupType type, OTF2_Paradigm paradigm,
                                     OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    (void)self, (void)name, (void)type, (void)paradigm, (void)flags, (void)n, (void)members;
    ((struct definitions *)ud)->groups++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode count_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                    OTF2_GroupRef group, OTF2_CommRef parent,
                                    OTF2_CommFlag flags)
{
    (void)self, (void)name, (void)group, (void)parent, (void)flags;
    ((struct definitions *)ud)->comms++;
    return OTF2_CALLBACK_SUCCESS;
}

static void count_definitions(const char *dir, struct definitions *d)
{
    char anchor[4096 + 16];
    OTF2_Reader *reader;
    OTF2_GlobalDefReader *gdr;
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    uint64_t n;

    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    reader = OTF2_Reader_Open(anchor);
    cr_assert(reader && cb, "cannot open %s", anchor);
    cr_assert_eq(OTF2_Reader_SetSerialCollectiveCallbacks(reader), OTF2_SUCCESS);
    gdr = OTF2_Reader_GetGlobalDefReader(reader);
    cr_assert_not_null(gdr);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, count_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, count_string);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, count_node);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, count_location_group);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, count_location);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, count_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, count_comm);
    OTF2_Reader_RegisterGlobalDefCallbacks(reader, gdr, cb, d);
    cr_assert_eq(OTF2_Reader_ReadAllGlobalDefinitions(reader, gdr, &n), OTF2_SUCCESS);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    OTF2_Reader_Close(reader);
}

static void release_definitions(struct definitions *d)
{
    for (int i = 0; i < MAXSTRINGS; i++)
        free(d->strings[i]);
}

/* The recording's 2 processes and 5 groups and 3 communicators (its COMM_LOCATIONS,
 * MPI_COMM_SELF's, and a COMM_GROUP each for the world, MPI_COMM_SELF aside, and
 * "pair") are not copied; the run's are: 1 machine, 6 location groups and locations, 5
 * groups (COMM_LOCATIONS, COMM_SELF, the world and the two rows) and 4 communicators.
 * The recording's strings keep their references, each defined once; the clock spans
 * from the offset to the last event, at 7 ms. */
Test(synth_out, the_definitions_are_the_program_s_and_the_run_s)
{
    char rec[4096], out[4096];
    struct definitions in = { 0 }, got = { 0 };

    synthesize(rec, out);
    count_definitions(rec, &in);
    count_definitions(out, &got);
    cr_assert_eq(got.nodes, 1);
    cr_assert_eq(got.location_groups, NPROCS);
    cr_assert_eq(got.locations, NPROCS);
    cr_assert_eq(got.groups, 5);
    cr_assert_eq(got.comms, NCOMMS);
    for (int i = 0; i < MAXSTRINGS; i++) {
        cr_assert_leq(got.defined[i], 1, "string %d is defined %d times", i, got.defined[i]);
        if (in.strings[i])
            cr_assert_str_eq(got.strings[i], in.strings[i], "string %d", i);
    }
    cr_assert_eq(got.resolution, in.resolution);
    cr_assert_eq(got.offset, OFFSET);
    cr_assert_eq(got.length, MS(7));
    release_definitions(&in);
    release_definitions(&got);
}

/* The analyzer: 6 processes; interval 1 (node 1) from 1 to 7 ms on each; 4 messages
 * (two per row); 7 collectives (the Allreduce, and each process's Barrier on
 * MPI_COMM_SELF).  MPI time in the interval, ms:
 *   c 0: Send 0.5 + Allreduce (6 - 5 - 0.1 p) + Barrier 0.1
 *   c 1: Recv 1.5 + Isend 0.1 + Wait 0.6 + Allreduce + Barrier 0.1
 *   c 2: Recv 2.5 + Allreduce + Barrier 0.1
 * so p 0..5: 1.6, 3.2, 3.4, 1.3, 2.9, 3.1. */
Test(synth_out, the_analyzer_finds_the_run)
{
    static const double mpi_ms[NPROCS] = { 1.6, 3.2, 3.4, 1.3, 2.9, 3.1 };
    char rec[4096], out[4096];
    struct pz_analysis a;

    synthesize(rec, out);
    cr_assert_eq(pz_analyze(out, &a, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(a.nprocs, NPROCS);
    cr_assert_eq(a.nranks, NPROCS);
    cr_assert_eq(a.nnodes, 2);
    cr_assert_eq(a.nodes[1].id, 1);
    cr_assert_eq(a.nodes[1].line, 20);
    cr_assert_eq(a.messages, 4);
    cr_assert_eq(a.unmatched_sends + a.unmatched_receives, 0);
    cr_assert_eq(a.clock_violations, 0);
    cr_assert_eq(a.collectives, 7);
    cr_assert_eq(a.incomplete_collectives, 0);
    for (int p = 0; p < NPROCS; p++) {
        const struct pz_stats *s = &a.nodes[1].procs[p];

        cr_assert_eq(s->count, 1, "process %d", p);
        cr_assert_float_eq(s->exec, 6e-3, 1e-12, "process %d: %g s", p, s->exec);
        cr_assert_float_eq(s->mpi, mpi_ms[p] * 1e-3, 1e-12, "process %d: MPI %g s", p,
                           s->mpi);
    }
    pz_analysis_free(&a);
}

/* 2048 processes, each 10 Allreduce calls on the world (1 ms apart, the first from 1
 * ms), in rows of 32. */
#define BIG 2048
#define CALLS 10

Test(synth_out, two_thousand_processes)
{
    static int rows[BIG];
    static struct pz_synth_comm big[2 + BIG / 32];
    char rec[4096], out[4096];
    struct pz_synth_out *o;
    struct pz_trace_in *t;
    const int *procs;
    struct pz_analysis a;

    record(path_in("recorded", rec));
    big[0] = (struct pz_synth_comm){ BIG, NULL, 0, "MPI_COMM_WORLD", 0 };
    big[1] = (struct pz_synth_comm){ 1, NULL, 1, "MPI_COMM_SELF", 0 };
    for (int p = 0; p < BIG; p++)
        rows[p] = p;
    for (int i = 0; i < BIG / 32; i++)
        big[2 + i] = (struct pz_synth_comm){ 32, rows + 32 * i, 0, "row", 0 };
    o = pz_synth_out_open(path_in("big", out), rec, BIG, big, 2 + BIG / 32, err, sizeof(err));
    cr_assert_not_null(o, "pz_synth_out_open: %s", err);
    for (int p = 0; p < BIG; p++) {
        nwant[0] = 0;
        for (int k = 0; k < CALLS; k++)
            collective(0, r.allreduce, 1 + k, 1.5 + k, OTF2_COLLECTIVE_OP_ALLREDUCE, WORLD);
        for (size_t i = 0; i < nwant[0]; i++)
            cr_assert_eq(pz_synth_out_event(o, p, &want[0][i]), 0);
    }
    cr_assert_eq(pz_synth_out_close(o, err, sizeof(err)), 0, "pz_synth_out_close: %s", err);

    t = pz_trace_in_open(out, err, sizeof(err));
    cr_assert_not_null(t, "pz_trace_in_open: %s", err);
    cr_assert_eq(pz_trace_in_nprocs(t), BIG);
    cr_assert_eq(pz_trace_in_comm(t, 2 + BIG / 32 - 1, &procs), 32);
    cr_assert_eq(procs[31], BIG - 1);
    for (int p = 0; p < BIG; p += BIG - 1) {
        for (size_t i = 0; i < nwant[0]; i++) {
            cr_assert_not_null(pz_trace_in_peek(t, p, 0), "process %d: too few records", p);
            assert_same_record(pz_trace_in_peek(t, p, 0), &want[0][i], p, i);
            pz_trace_in_consume(t, p, 1);
        }
        cr_assert_null(pz_trace_in_peek(t, p, 0), "process %d: more records", p);
    }
    pz_trace_in_close(t);
    cr_assert_eq(pz_analyze(out, &a, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(a.nprocs, BIG);
    cr_assert_eq(a.collectives, CALLS);
    cr_assert_eq(a.incomplete_collectives, 0);
    pz_analysis_free(&a);
}

/* err is one line that names `what`. */
static void assert_names(const char *what)
{
    cr_assert_not_null(strstr(err, what), "\"%s\" does not name %s", err, what);
    cr_assert_null(strchr(err, '\n'), "\"%s\" is not one line", err);
}

Test(synth_out, a_trace_there_already_is_refused)
{
    char rec[4096], out[4096], anchor[4096 + 16];

    synthesize(rec, out);
    cr_assert_null(pz_synth_out_open(out, rec, NPROCS, comms, NCOMMS, err, sizeof(err)));
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", out);
    assert_names(anchor);
}

Test(synth_out, a_directory_that_cannot_be_made_is_refused)
{
    char rec[4096], file[4096], out[4096 + 16];
    FILE *f;

    record(path_in("recorded", rec));
    f = fopen(path_in("a file", file), "w");
    cr_assert_not_null(f);
    fclose(f);
    snprintf(out, sizeof(out), "%s/out", file);
    cr_assert_null(pz_synth_out_open(out, rec, NPROCS, comms, NCOMMS, err, sizeof(err)));
    assert_names(out);
}

Test(synth_out, a_missing_recording_is_refused)
{
    char rec[4096], out[4096];

    path_in("nothing", rec);
    cr_assert_null(pz_synth_out_open(path_in("out", out), rec, NPROCS, comms, NCOMMS, err,
                                     sizeof(err)));
    assert_names(rec);
}

Test(synth_out, a_rank_beyond_the_world_is_refused)
{
    static const int members[2] = { 1, NPROCS };
    const struct pz_synth_comm bad[2] = { comms[WORLD], { 2, members, 0, "beyond", 0 } };
    char rec[4096], out[4096];

    record(path_in("recorded", rec));
    cr_assert_null(
        pz_synth_out_open(path_in("out", out), rec, NPROCS, bad, 2, err, sizeof(err)));
    assert_names("beyond");
}

/* Process 0 resumed after process 1, and a send on communicator 9 of four: the events
 * are refused, and the archive's closing says why. */
Test(synth_out, events_out_of_turn_are_refused)
{
    char rec[4096], out[4096];
    struct pz_synth_out *o;
    struct pz_rec send;

    record(path_in("recorded", rec));
    synthesize_process(0);
    synthesize_process(1);
    o = pz_synth_out_open(path_in("out", out), rec, NPROCS, comms, NCOMMS, err, sizeof(err));
    cr_assert_not_null(o, "%s", err);
    cr_assert_eq(pz_synth_out_event(o, 0, &want[0][0]), 0);
    cr_assert_eq(pz_synth_out_event(o, 1, &want[1][0]), 0);
    cr_assert_eq(pz_synth_out_event(o, 0, &want[0][1]), -1);
    send = want[1][2];
    send.comm = 9;
    cr_assert_eq(pz_synth_out_event(o, 1, &send), -1);
    cr_assert_eq(pz_synth_out_close(o, err, sizeof(err)), -1);
    assert_names("process 0");
}
