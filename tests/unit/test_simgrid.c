/* The SimGrid export (export/simgrid.h) of traces built by hand: every file is
 * compared with the text written here from the format of docs/simgrid.md, not copied
 * from the exporter's output.
 *
 *   - each process's file starts with `init` (and `sleep` for a late start) and ends
 *     with `finalize`;
 *   - every process leaves MPI_Init at once, at the latest start of any (a `sleep` from
 *     the trace's start), and MPI_Init's recorded length is not computation;
 *   - the time between MPI calls, the length of calls that do not communicate
 *     (MPI_Comm_rank, MPI_Finalize) and nothing of buffer flushes becomes `compute` of
 *     seconds x cpu_scale x 1e9 flops, written before the next action;
 *   - MPI_Send/MPI_Recv become send/recv DST|SRC TAG BYTES; MPI_Isend and MPI_Irecv
 *     become isend/irecv (the receive with what its completion records) and their
 *     completions `wait SRC DST TAG`;
 *   - collectives on MPI_COMM_WORLD become SMPI's action with the block of one process;
 *     on another communicator, the messages of prognoz's algorithm with the tag
 *     -(1000000 + communicator id).
 * Times are in ns (TB_MS). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <otf2/otf2.h>

#include "simgrid.h"
#include "trace_builder.h"

#define MS TB_MS

static char *top;
static char rec[4096], out[4096], err[1024];
static struct pz_machine m;

static void setup(void)
{
    top = tb_tempdir();
    cr_assert_not_null(top, "cannot make a temporary directory");
    snprintf(rec, sizeof(rec), "%s/rec", top);
    snprintf(out, sizeof(out), "%s/sg", top);
    pz_machine_defaults(&m);          /* switch, 50 us, 1 Gbit/s, 64 KiB eager, shm 1 us 5 GB/s */
    m.procs_per_node = 2;
    err[0] = '\0';
}

static void cleanup(void)
{
    tb_remove(top);
    free(top);
}

TestSuite(simgrid, .init = setup, .fini = cleanup);

/* The whole of file dir/name (free it). */
static char *slurp(const char *dir, const char *name)
{
    char path[8192];
    FILE *f;
    char *text;
    long len;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "r");
    cr_assert_not_null(f, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    rewind(f);
    text = calloc(1, (size_t)len + 1);
    cr_assert_eq(fread(text, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    return text;
}

static void expect_file(const char *name, const char *want)
{
    char *got = slurp(out, name);

    cr_expect_str_eq(got, want, "%s:\n--- got\n%s--- expected\n%s", name, got, want);
    free(got);
}

static void export_run(void)
{
    int nprocs = 0;

    cr_assert_eq(pz_simgrid_export(rec, &m, out, &nprocs, err, sizeof(err)), 0, "%s", err);
}

/* A collective call with the bytes this process sent and received. */
static void coll(struct tb *b, int p, const char *name, uint64_t enter, uint64_t leave,
                 OTF2_CollectiveOp op, uint32_t comm, uint32_t root, uint64_t sent,
                 uint64_t received)
{
    uint32_t r = tb_mpi(b, name);

    tb_enter(b, p, enter, r);
    tb_collective_begin(b, p, enter);
    tb_collective_end(b, p, leave, op, comm, root, sent, received);
    tb_leave(b, p, leave, r);
}

/* Three processes: 0 sends to 1, 0 and 2 exchange by Isend/Irecv, 2 starts MPI_Init
 * 0.5 ms late and has a buffer flush, all three Allreduce 8 bytes and Bcast 16 from rank 1. */
static void small_trace(void)
{
    struct tb *b = tb_open(rec, 3);
    uint32_t r;

    cr_assert_not_null(b);
    /* process 0 */
    tb_call(b, 0, "MPI_Init", 0, MS(1));
    tb_send_call(b, 0, "MPI_Send", MS(3), MS(3.5), TB_WORLD, 1, 5);
    tb_enter(b, 0, MS(4), tb_mpi(b, "MPI_Isend"));
    tb_mpi_isend(b, 0, MS(4), TB_WORLD, 2, 7, 100, 1);
    tb_leave(b, 0, MS(4.1), tb_mpi(b, "MPI_Isend"));
    tb_enter(b, 0, MS(4.1), tb_mpi(b, "MPI_Irecv"));
    tb_mpi_irecv_request(b, 0, MS(4.1), 2);
    tb_leave(b, 0, MS(4.2), tb_mpi(b, "MPI_Irecv"));
    r = tb_mpi(b, "MPI_Waitall");
    tb_enter(b, 0, MS(5), r);
    tb_mpi_isend_complete(b, 0, MS(5.5), 1);
    tb_mpi_irecv(b, 0, MS(5.9), TB_WORLD, 2, 9, 64, 2);  /* an MPI_ANY_SOURCE receive */
    tb_leave(b, 0, MS(6), r);
    coll(b, 0, "MPI_Allreduce", MS(6), MS(7), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD,
         TB_NO_ROOT, 8, 8);
    coll(b, 0, "MPI_Bcast", MS(7), MS(8), OTF2_COLLECTIVE_OP_BCAST, TB_WORLD, 1, 0, 16);
    tb_call(b, 0, "MPI_Comm_rank", MS(8), MS(8.5));
    tb_call(b, 0, "MPI_Finalize", MS(9), MS(10));
    /* process 1 */
    tb_call(b, 1, "MPI_Init", 0, MS(1));
    tb_recv_call(b, 1, "MPI_Recv", MS(2), MS(3.6), TB_WORLD, 0, 5);
    coll(b, 1, "MPI_Allreduce", MS(6), MS(7), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD,
         TB_NO_ROOT, 8, 8);
    coll(b, 1, "MPI_Bcast", MS(7), MS(8), OTF2_COLLECTIVE_OP_BCAST, TB_WORLD, 1, 32, 0);
    tb_call(b, 1, "MPI_Finalize", MS(8), MS(9));
    /* process 2 */
    tb_call(b, 2, "MPI_Init", MS(0.5), MS(1));
    tb_enter(b, 2, MS(2), tb_mpi(b, "MPI_Irecv"));
    tb_mpi_irecv_request(b, 2, MS(2), 1);
    tb_leave(b, 2, MS(2.1), tb_mpi(b, "MPI_Irecv"));
    r = tb_mpi(b, "MPI_Send");
    tb_enter(b, 2, MS(3), r);
    tb_mpi_send(b, 2, MS(3), TB_WORLD, 0, 9, 64);
    tb_leave(b, 2, MS(3.2), r);
    r = tb_mpi(b, "MPI_Wait");
    tb_enter(b, 2, MS(4), r);
    tb_mpi_irecv(b, 2, MS(4.5), TB_WORLD, 0, 7, 100, 1);
    tb_leave(b, 2, MS(5), r);
    tb_flush(b, 2, MS(5.2), MS(5.7));
    coll(b, 2, "MPI_Allreduce", MS(6), MS(7), OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD,
         TB_NO_ROOT, 8, 8);
    coll(b, 2, "MPI_Bcast", MS(7), MS(8), OTF2_COLLECTIVE_OP_BCAST, TB_WORLD, 1, 0, 16);
    tb_call(b, 2, "MPI_Finalize", MS(8), MS(8.5));
    cr_assert_eq(tb_close(b), 0);
}

/* Two processes split MPI_COMM_WORLD, recorded [2, 5] ms with its collective
 * CREATE_HANDLE on the parent and 0 bytes (as Score-P records it), then duplicate it,
 * recorded [6, 7] ms without (as prognoz recorded constructors before).  The split is
 * what MPICH runs, as the predictor replays it: the Allgather of the (color, key) pairs,
 * 8 bytes each, and the Allreduce of the 256-byte context-id mask (no reduction
 * computation: reduce_byte_time is 0); SMPI's comm_split action would cost nothing.
 * MPI_Init [0, 1] ms takes no time: 1 ms of computation from its end to the split.
 * The duplicate is computation: 1 ms between the split and it, its 1 ms, 1 ms to
 * MPI_Finalize and its 1 ms. */
Test(simgrid, constructor_is_mpich_allgather_and_allreduce)
{
    struct tb *b = tb_open(rec, 2);

    cr_assert_not_null(b);
    for (int p = 0; p < 2; p++) {
        tb_call(b, p, "MPI_Init", 0, MS(1));
        coll(b, p, "MPI_Comm_split", MS(2), MS(5), OTF2_COLLECTIVE_OP_CREATE_HANDLE, TB_WORLD,
             TB_NO_ROOT, 0, 0);
        tb_call(b, p, "MPI_Comm_dup", MS(6), MS(7));
        tb_call(b, p, "MPI_Finalize", MS(8), MS(9));
    }
    cr_assert_eq(tb_close(b), 0);
    export_run();
    expect_file("rank-0.txt",
                "0 init\n"
                "0 compute 1000000\n"
                "0 allgather 8 8\n"
                "0 allreduce 256 0\n"
                "0 compute 4000000\n"
                "0 finalize\n");
    expect_file("rank-1.txt",
                "1 init\n"
                "1 compute 1000000\n"
                "1 allgather 8 8\n"
                "1 allreduce 256 0\n"
                "1 compute 4000000\n"
                "1 finalize\n");
}

Test(simgrid, small_trace_exports_expected_lines)
{
    char list[3 * 4200], abs[4096];

    small_trace();
    export_run();
    expect_file("rank-0.txt",
                "0 init\n"
                "0 sleep 0.000500000\n"     /* leaves MPI_Init at 0.5 ms, as 2 does */
                "0 compute 2000000\n"       /* from MPI_Init's end at 1 ms to 3 ms */
                "0 send 1 5 8\n"
                "0 compute 500000\n"
                "0 isend 2 7 100\n"
                "0 irecv 2 9 64\n"          /* the source and tag it matched */
                "0 compute 800000\n"
                "0 wait 0 2 7\n"
                "0 wait 2 0 9\n"
                "0 allreduce 8 0\n"
                "0 bcast 16 1\n"
                "0 compute 2000000\n"       /* Comm_rank 0.5 + 0.5 + Finalize 1 */
                "0 finalize\n");
    expect_file("rank-1.txt",
                "1 init\n"
                "1 sleep 0.000500000\n"
                "1 compute 1000000\n"
                "1 recv 0 5 8\n"
                "1 compute 2400000\n"
                "1 allreduce 8 0\n"
                "1 bcast 16 1\n"            /* the root: 32 bytes sent to 2 others */
                "1 compute 1000000\n"
                "1 finalize\n");
    expect_file("rank-2.txt",
                "2 init\n"
                "2 sleep 0.000500000\n"     /* the latest start of MPI_Init */
                "2 compute 1000000\n"
                "2 irecv 0 7 100\n"
                "2 compute 900000\n"
                "2 send 0 9 64\n"
                "2 compute 800000\n"
                "2 wait 0 2 7\n"
                "2 compute 500000\n"        /* 1 ms less the 0.5 ms flush */
                "2 allreduce 8 0\n"
                "2 bcast 16 1\n"
                "2 compute 500000\n"
                "2 finalize\n");
    expect_file("hostfile", "node0\nnode0\nnode1\n");
    cr_assert_not_null(realpath(out, abs));
    snprintf(list, sizeof(list), "%s/rank-0.txt\n%s/rank-1.txt\n%s/rank-2.txt\n", abs, abs,
             abs);
    expect_file("traces.txt", list);
    expect_file("platform.xml",
                "<?xml version='1.0'?>\n"
                "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                "<!-- machine 'unnamed' (network = switch) for SimGrid SMPI, by prognoz "
                "export: docs/simgrid.md -->\n"
                "<platform version=\"4.1\">\n"
                "  <config>\n"
                "    <prop id=\"smpi/host-speed\" value=\"1Gf\"/>\n"
                "    <prop id=\"smpi/bw-factor\" value=\"0:1\"/>\n"
                "    <prop id=\"smpi/lat-factor\" value=\"0:1\"/>\n"
                "    <prop id=\"network/crosstraffic\" value=\"0\"/>\n"
                "    <prop id=\"smpi/send-is-detached-thresh\" value=\"65537\"/>\n"
                "    <prop id=\"smpi/async-small-thresh\" value=\"65537\"/>\n"
                "    <prop id=\"smpi/coll-selector\" value=\"mpich\"/>\n"
                "    <prop id=\"smpi/bcast\" value=\"binomial_tree\"/>\n"
                "    <prop id=\"smpi/reduce\" value=\"binomial\"/>\n"
                "    <prop id=\"smpi/allreduce\" value=\"rdb\"/>\n"
                "  </config>\n"
                "  <cluster id=\"unnamed\" prefix=\"node\" suffix=\"\" radical=\"0-1\" "
                "speed=\"1Gf\" core=\"2\"\n"
                "           bw=\"125000000Bps\" lat=\"25us\" sharing_policy=\"SPLITDUPLEX\"\n"
                "           loopback_bw=\"5000000000Bps\" loopback_lat=\"1us\"/>\n"
                "</platform>\n");
}

Test(simgrid, computation_is_scaled_by_cpu_scale)
{
    struct tb *b = tb_open(rec, 1);
    char *got;

    cr_assert_not_null(b);
    tb_call(b, 0, "MPI_Init", 0, MS(1));
    tb_call(b, 0, "MPI_Finalize", MS(3), MS(4));
    cr_assert_eq(tb_close(b), 0);
    m.cpu_scale = 0.5;
    export_run();
    got = slurp(out, "rank-0.txt");
    /* (2 ms to MPI_Finalize + its 1 ms) x 0.5; MPI_Init takes none */
    cr_expect_str_eq(got, "0 init\n0 compute 1500000\n0 finalize\n");
    free(got);
}

/* A call longer than the records read at a time (8): MPI_Init, the first record of the
 * thread, [0, 1] ms around 6 calls of the program's own function (12 records, 14 in
 * all; a library's code instrumented by the compiler), so that finding its end reads
 * more and moves the records read before, its Enter among them.  MPI_Init is still
 * known as MPI_Init and takes no time: only the 2 ms from its end to MPI_Finalize and
 * MPI_Finalize's 1 ms are computation, 3 ms = 3000000 flops at 1 Gf. */
Test(simgrid, a_call_longer_than_a_read)
{
    struct tb *b = tb_open(rec, 1);
    uint32_t init, own;
    char *got;

    cr_assert_not_null(b);
    init = tb_mpi(b, "MPI_Init");
    own = tb_user(b, "setup_library");
    tb_enter(b, 0, 0, init);
    for (uint64_t i = 1; i <= 6; i++) {
        tb_enter(b, 0, MS(0.1 * (double)i), own);
        tb_leave(b, 0, MS(0.1 * (double)i + 0.05), own);
    }
    tb_leave(b, 0, MS(1), init);
    tb_call(b, 0, "MPI_Finalize", MS(3), MS(4));
    cr_assert_eq(tb_close(b), 0);
    export_run();
    got = slurp(out, "rank-0.txt");
    cr_expect_str_eq(got, "0 init\n0 compute 3000000\n0 finalize\n");
    free(got);
}

/* Bcast of 8 bytes on the communicator {world 2, world 0} from its rank 0: mpich4's
 * binomial tree of 2 members is one message, from world rank 2 to world rank 0. */
Test(simgrid, sub_communicator_collective_becomes_messages)
{
    static const int members[] = { 2, 0 };
    struct tb *b = tb_open(rec, 3);
    uint32_t c;
    char want[256], *got;
    long long tag;

    cr_assert_not_null(b);
    c = tb_comm(b, "pair", 2, members);
    tag = -(PZ_SIMGRID_COLL_TAG + (long long)c);
    coll(b, 0, "MPI_Bcast", 0, MS(1), OTF2_COLLECTIVE_OP_BCAST, c, 0, 0, 8);
    coll(b, 2, "MPI_Bcast", 0, MS(1), OTF2_COLLECTIVE_OP_BCAST, c, 0, 8, 0);
    tb_call(b, 1, "MPI_Barrier", 0, MS(1));
    cr_assert_eq(tb_close(b), 0);
    export_run();
    snprintf(want, sizeof(want), "0 init\n0 irecv 2 %lld 8\n0 wait 2 0 %lld\n0 finalize\n",
             tag, tag);
    got = slurp(out, "rank-0.txt");
    cr_expect_str_eq(got, want);
    free(got);
    snprintf(want, sizeof(want), "2 init\n2 isend 0 %lld 8\n2 wait 2 0 %lld\n2 finalize\n",
             tag, tag);
    got = slurp(out, "rank-2.txt");
    cr_expect_str_eq(got, want);
    free(got);
}

/* A Barrier on an intercommunicator {world 0} + {world 1} is refused by name: SMPI's
 * replay has no collectives there, and a barrier of both would be another one. */
Test(simgrid, an_intercommunicator_collective_is_refused)
{
    static const int a[1] = { 0 }, bgroup[1] = { 1 };
    struct tb *b = tb_open(rec, 2);
    uint32_t x;

    cr_assert_not_null(b);
    x = tb_intercomm(b, "X", 1, a, 1, bgroup);
    for (int p = 0; p < 2; p++)
        tb_collective_call(b, p, "MPI_Barrier", 0, MS(1), OTF2_COLLECTIVE_OP_BARRIER, x,
                           TB_NO_ROOT);
    cr_assert_eq(tb_close(b), 0);
    cr_assert_eq(pz_simgrid_export(rec, &m, out, NULL, err, sizeof(err)), -1);
    cr_expect(strstr(err, "collective on intercommunicator") != NULL, "%s", err);
}

Test(simgrid, an_existing_export_is_refused)
{
    struct tb *b = tb_open(rec, 1);

    cr_assert_not_null(b);
    tb_call(b, 0, "MPI_Init", 0, MS(1));
    cr_assert_eq(tb_close(b), 0);
    export_run();
    cr_assert_eq(pz_simgrid_export(rec, &m, out, NULL, err, sizeof(err)), -1);
    cr_expect(strstr(err, "holds an export already") != NULL, "%s", err);
}

Test(simgrid, a_missing_trace_is_reported)
{
    cr_assert_eq(pz_simgrid_export(rec, &m, out, NULL, err, sizeof(err)), -1);
    cr_expect(strstr(err, rec) != NULL, "%s", err);
    cr_expect(strchr(err, '\n') == NULL, "%s", err);
}

/* The platform of machine mach for 4 processes. */
static char *platform(const struct pz_machine *mach)
{
    struct pz_simgrid_run run = { .nprocs = 4 };
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);

    cr_assert_not_null(f);
    cr_assert_eq(pz_simgrid_platform(f, mach, &run), 0);
    fclose(f);
    return text;
}

/* The platform of each shipped machine file for 4 processes. */
static char *platform_of(const char *file)
{
    char path[4096], *text;

    snprintf(path, sizeof(path), "%s/%s", PZ_MACHINES_DIR, file);
    pz_machine_defaults(&m);
    cr_assert_eq(pz_machine_load(path, &m, err, sizeof(err)), 0, "%s", err);
    text = platform(&m);
    pz_machine_release(&m);
    return text;
}

static void expect_has(const char *text, const char *want)
{
    cr_expect(strstr(text, want) != NULL, "expected \"%s\" in\n%s", want, text);
}

Test(simgrid, gigabit_switch_platform)
{
    char *x = platform_of("gigabit-switch.conf");

    expect_has(x, "<cluster id=\"gigabit-switch\" prefix=\"node\" suffix=\"\" radical=\"0-1\" "
                  "speed=\"1Gf\" core=\"2\"\n");
    /* 20 us between nodes over two links; the 5 us overheads at either end as SMPI's */
    expect_has(x, "bw=\"125000000Bps\" lat=\"10us\" sharing_policy=\"SPLITDUPLEX\"\n");
    expect_has(x, "<prop id=\"smpi/os\" value=\"0:5e-06:0\"/>");
    expect_has(x, "<prop id=\"smpi/or\" value=\"0:5e-06:0\"/>");
    expect_has(x, "loopback_bw=\"4000000000Bps\" loopback_lat=\"1us\"/>");
    expect_has(x, "<prop id=\"smpi/send-is-detached-thresh\" value=\"65537\"/>");
    cr_expect(strstr(x, "bb_bw") == NULL, "a switch has no backbone");
    free(x);
}

/* SimGrid's links are full duplex or half duplex (both directions share the bandwidth):
 * a switch's duplex_factor takes the nearer; with duplex factors by size (SimGrid has
 * none), the median of their steps does: of 2.5, 1.4 and 1.2 it is 1.4, full duplex; of
 * 2.5, 1.6 and 1.2, 1.6, half (neither the first step's nor the last's). */
Test(simgrid, the_nearer_duplex)
{
    struct pz_machine sw;
    char *x;

    pz_machine_defaults(&sw);
    sw.duplex_factor = 1.45;
    x = platform(&sw);
    expect_has(x, " sharing_policy=\"SPLITDUPLEX\"\n");
    free(x);
    sw.duplex_factor = 1.55;
    x = platform(&sw);
    expect_has(x, " sharing_policy=\"SHARED\"\n");
    free(x);
    sw.duplex_factor = 1;
    sw.duplex_factors = (struct pz_size_factors){ 3, { { 1024, 2.5 }, { 8192, 1.4 },
                                                       { 65536, 1.2 } } };
    x = platform(&sw);
    expect_has(x, " sharing_policy=\"SPLITDUPLEX\"\n");
    free(x);
    sw.duplex_factors.step[1].factor = 1.6;
    x = platform(&sw);
    expect_has(x, " sharing_policy=\"SHARED\"\n");
    free(x);
}

/* The machine's segments become SMPI's factors on the link's latency and bandwidth
 * (defaults: 50 us, 125 MB/s): up to 1024 B 20 us and 100 MB/s (factors 0.4 and 0.8)
 * above 0 B, up to 65536 B 75 us and 250 MB/s (1.5 and 2) above 1024 B, 1 above 65536 B
 * (an SMPI section holds for sizes above its own).
 * Its overheads between nodes become smpi/os and smpi/ois (2 us + 0.5 ns/B) and smpi/or
 * (3 us + 0.25 ns/B), the per-byte parts up to the eager threshold (64 KiB: above 65536 B
 * the per-message part alone); without them, the factors are 0:1 and no overhead is
 * written. */
Test(simgrid, segments_and_overheads_map_to_smpi_factors_and_overheads)
{
    struct pz_machine mach;
    char *x;

    pz_machine_defaults(&mach);
    x = platform(&mach);
    expect_has(x, "<prop id=\"smpi/bw-factor\" value=\"0:1\"/>\n"
                  "    <prop id=\"smpi/lat-factor\" value=\"0:1\"/>\n"
                  "    <prop id=\"network/crosstraffic\"");
    free(x);
    mach.segments = (struct pz_segments){ 2, { { 1024, 20e-6, 100e6 }, { 65536, 75e-6, 250e6 } } };
    mach.overhead = (struct pz_overhead){ 2e-6, 0.5e-9, 3e-6, 0.25e-9 };
    x = platform(&mach);
    expect_has(x, "<prop id=\"smpi/bw-factor\" value=\"0:0.8;1024:2;65536:1\"/>\n");
    expect_has(x, "<prop id=\"smpi/lat-factor\" value=\"0:0.4;1024:1.5;65536:1\"/>\n");
    expect_has(x, "<prop id=\"smpi/os\" value=\"0:2e-06:5e-10;65536:2e-06:0\"/>\n"
                  "    <prop id=\"smpi/ois\" value=\"0:2e-06:5e-10;65536:2e-06:0\"/>\n"
                  "    <prop id=\"smpi/or\" value=\"0:3e-06:2.5e-10;65536:3e-06:0\"/>\n");
    free(x);
}

/* SMPI's message leaves after smpi/os; the machine's leaves send_tail before its send's
 * overhead ends: smpi/os is the overhead less the tail, 2 us - 0.5 us = 1.5 us, so that
 * the one way is the same.  A tail per byte of 0.2
 * ns/B leaves 0.5 - 0.2 = 0.3 ns/B of an eager message's per-byte part.  The model's
 * message leaves at most the whole overhead early, so SMPI's overhead is max(0, 2 us -
 * tail + (0.5 ns/B - tail per byte) m) up to the 64 KiB threshold: with a tail of 3 us
 * and 0.2 ns/B, max(0, -1 us + 0.3 ns/B m), 0 up to 3333.3 B, the line above 3333 B;
 * with 0.5 us and 1.2 ns/B, max(0, 1.5 us - 0.7 ns/B m), the line up to 2142.9 B, 0
 * above 2142 B; beyond the threshold max(0, 2 us - tail): 0 and 1.5 us. */
Test(simgrid, the_send_overhead_less_its_tail)
{
    struct pz_machine mach;
    char *x;

    pz_machine_defaults(&mach);
    mach.overhead = (struct pz_overhead){ 2e-6, 0.5e-9, 3e-6, 0.25e-9 };
    mach.send_tail = 0.5e-6;
    x = platform(&mach);
    expect_has(x, "<prop id=\"smpi/os\" value=\"0:1.5e-06:5e-10;65536:1.5e-06:0\"/>\n");
    free(x);
    mach.send_tail_per_byte = 0.2e-9;
    x = platform(&mach);
    expect_has(x, "<prop id=\"smpi/os\" value=\"0:1.5e-06:3e-10;65536:1.5e-06:0\"/>\n");
    free(x);
    mach.send_tail = 3e-6;
    x = platform(&mach);
    expect_has(x, "<prop id=\"smpi/os\" value=\"0:0:0;3333:-1e-06:3e-10;65536:0:0\"/>\n");
    free(x);
    mach.send_tail = 0.5e-6;
    mach.send_tail_per_byte = 1.2e-9;
    x = platform(&mach);
    expect_has(x, "<prop id=\"smpi/os\" value=\"0:1.5e-06:-7e-10;2142:0:0;65536:1.5e-06:0\"/>\n");
    free(x);
}

/* Packet model: 1422 of every 1500 bytes are payload (12.5 MB/s x 1422/1500), and the
 * first packet's preparation, 1422 x 10 ns, adds to the 90 us latency. */
Test(simgrid, ethernet_hub_platform)
{
    char *x = platform_of("ethernet-100-hub.conf");

    expect_has(x, "radical=\"0-3\" speed=\"1Gf\" core=\"1\"\n");
    expect_has(x, "bw=\"11850000Bps\" lat=\"52.11us\" sharing_policy=\"FATPIPE\"\n");
    expect_has(x, "bb_bw=\"11850000Bps\" bb_lat=\"0us\" bb_sharing_policy=\"SHARED\"\n");
    expect_has(x, "<prop id=\"smpi/async-small-thresh\" value=\"131073\"/>");
    free(x);
}

Test(simgrid, myrinet_channels_platform)
{
    char *x = platform_of("myrinet-2proc.conf");

    expect_has(x, "radical=\"0-1\" speed=\"1Gf\" core=\"2\"\n");
    expect_has(x, "bw=\"250000000Bps\" lat=\"3.5us\" sharing_policy=\"FATPIPE\"\n");
    expect_has(x, "bb_bw=\"2000000000Bps\" bb_lat=\"0us\" bb_sharing_policy=\"SHARED\"\n");
    expect_has(x, "loopback_bw=\"1000000000Bps\" loopback_lat=\"1us\"/>");
    expect_has(x, "<prop id=\"smpi/send-is-detached-thresh\" value=\"16385\"/>");
    free(x);
}

/* Cyclic placement and a node map: the hostfile names each rank's node. */
Test(simgrid, hostfile_follows_placement)
{
    static int map[] = { 1, 0 };
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);

    m.placement = PZ_PLACE_CYCLIC;
    cr_assert_eq(pz_simgrid_hostfile(f, &m, 4), 0);
    fclose(f);
    cr_expect_str_eq(text, "node0\nnode1\nnode0\nnode1\n");
    free(text);
    m.node_map = map;
    m.node_map_size = 2;
    f = open_memstream(&text, &len);
    cr_assert_eq(pz_simgrid_hostfile(f, &m, 3), 0);
    fclose(f);
    m.node_map = NULL;
    cr_expect_str_eq(text, "node1\nnode0\nnode1\n");
    free(text);
}
