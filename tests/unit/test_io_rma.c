/* MPI-IO and one-sided communication as parts of MPI time (analyzer/io_rma.c) and in
 * the reports (report_io_rma.c), on hand-built traces.  Times in the comments are
 * milliseconds; S(x) is x ms in seconds.
 *
 * The trace of two processes, each in interval 1 at x.c:10:
 *   process 0: MPI_Init 0-1; interval 1-15: MPI_File_open 1-3, MPI_File_write_all 3-7
 *              (begin WRITE 100 B at 3, complete 100 B at 7), MPI_File_iread 8-9 (begin
 *              READ 64 B, matching id 5), MPI_Put 10-11 (RmaPut 40 B), MPI_Wait 12-14
 *              (complete 60 B, matching id 5: a short read); then MPI_Win_fence 15-16,
 *              MPI_Finalize 16-17.
 *   process 1: MPI_Init 0-1; interval 1-9: MPI_Get 2-5 (RmaGet 24 B), MPI_Fetch_and_op
 *              5-6 (RmaAtomic 8 B sent, 8 received), MPI_File_sync 6-8 (a FLUSH of 0 B);
 *              then MPI_Finalize 16-17.
 * Interval 1:
 *   process 0: I/O time = open 2 + write_all 4 + iread 1 + the MPI_Wait 2 (it completed
 *              the iread and no message) = 9, point-to-point 0; one-sided = Put 1;
 *              read 60 (the bytes completed, not the 64 requested), written 100, put 40.
 *   process 1: I/O time = sync 2; one-sided = Get 3 + Fetch_and_op 1 = 4; put 8, got
 *              24 + 8 = 32; the flush moves no bytes.
 *   integral:  I/O 9 + 2 = 11, one-sided 1 + 4 = 5, read 60, written 100, put 48, got 32.
 * Whole run, process 0: one-sided 1 + fence 1 = 2, the rest as in the interval. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_fixture.h"
#include "report.h"
#include "trace_builder.h"

#define MS TB_MS
#define S(ms) ((ms) / 1000.0)
#define EPS 1e-9

TestSuite(io_rma, .fini = cleanup);

static struct tb *trace(int nprocs)
{
    struct tb *b;

    dir = tb_tempdir();
    cr_assert_not_null(dir, "cannot make a temporary directory");
    b = tb_open(dir, nprocs);
    cr_assert_not_null(b, "cannot open an OTF2 archive in %s", dir);
    return b;
}

static void analyze(struct tb *b)
{
    cr_assert_eq(tb_close(b), 0, "the trace builder failed");
    cr_assert_eq(pz_analyze(dir, &an, err, sizeof(err)), 0, "pz_analyze: %s", err);
}

static void process0(struct tb *b, uint32_t interval)
{
    uint32_t write_all = tb_mpi(b, "MPI_File_write_all"), iread = tb_mpi(b, "MPI_File_iread");
    uint32_t put = tb_mpi(b, "MPI_Put"), wait = tb_mpi(b, "MPI_Wait");

    tb_call(b, 0, "MPI_Init", 0, MS(1));
    tb_enter(b, 0, MS(1), interval);
    tb_call(b, 0, "MPI_File_open", MS(1), MS(3));
    tb_enter(b, 0, MS(3), write_all);
    tb_io_begin(b, 0, MS(3), OTF2_IO_OPERATION_MODE_WRITE, 100, 0);
    tb_io_complete(b, 0, MS(7), 100, 0);
    tb_leave(b, 0, MS(7), write_all);
    tb_enter(b, 0, MS(8), iread);
    tb_io_begin_nonblocking(b, 0, MS(8), OTF2_IO_OPERATION_MODE_READ, 64, 5);
    tb_leave(b, 0, MS(9), iread);
    tb_enter(b, 0, MS(10), put);
    tb_rma_put(b, 0, MS(10), 1, 40);
    tb_leave(b, 0, MS(11), put);
    tb_enter(b, 0, MS(12), wait);
    tb_io_complete(b, 0, MS(14), 60, 5);
    tb_leave(b, 0, MS(14), wait);
    tb_leave(b, 0, MS(15), interval);
    tb_call(b, 0, "MPI_Win_fence", MS(15), MS(16));
    tb_call(b, 0, "MPI_Finalize", MS(16), MS(17));
}

static void process1(struct tb *b, uint32_t interval)
{
    uint32_t get = tb_mpi(b, "MPI_Get"), fetch = tb_mpi(b, "MPI_Fetch_and_op");
    uint32_t sync = tb_mpi(b, "MPI_File_sync");

    tb_call(b, 1, "MPI_Init", 0, MS(1));
    tb_enter(b, 1, MS(1), interval);
    tb_enter(b, 1, MS(2), get);
    tb_rma_get(b, 1, MS(2), 0, 24);
    tb_leave(b, 1, MS(5), get);
    tb_enter(b, 1, MS(5), fetch);
    tb_rma_atomic(b, 1, MS(5), 0, 8, 8);
    tb_leave(b, 1, MS(6), fetch);
    tb_enter(b, 1, MS(6), sync);
    tb_io_begin(b, 1, MS(6), OTF2_IO_OPERATION_MODE_FLUSH, 0, 0);
    tb_io_complete(b, 1, MS(8), 0, 0);
    tb_leave(b, 1, MS(8), sync);
    tb_leave(b, 1, MS(9), interval);
    tb_call(b, 1, "MPI_Finalize", MS(16), MS(17));
}

static void analyze_io_rma(void)
{
    struct tb *b = trace(2);
    uint32_t interval = tb_interval(b, 1, "x.c", 10);

    process0(b, interval);
    process1(b, interval);
    analyze(b);
    cr_assert_eq(an.nnodes, 2, "the whole run and interval 1");
}

static void expect_parts(const struct pz_characteristics *c, double io_ms, double rma_ms,
                         double read, double written, double put, double got)
{
    cr_expect(fabs(c->io_time - S(io_ms)) < EPS, "io_time %.9f, expected %.9f", c->io_time,
              S(io_ms));
    cr_expect(fabs(c->rma_time - S(rma_ms)) < EPS, "rma_time %.9f, expected %.9f",
              c->rma_time, S(rma_ms));
    cr_expect_eq(c->io_bytes_read, read);
    cr_expect_eq(c->io_bytes_written, written);
    cr_expect_eq(c->rma_bytes_put, put);
    cr_expect_eq(c->rma_bytes_got, got);
}

Test(io_rma, each_process_of_the_interval)
{
    struct pz_characteristics c;

    analyze_io_rma();
    cr_expect_eq(an.io_rma, 1);
    pz_characteristics_of_process(&an, &an.nodes[1], 0, &c);
    expect_parts(&c, 9, 1, 60, 100, 40, 0);
    /* the I/O and one-sided times are parts of the MPI time: 2 + 4 + 1 + 1 + 2 */
    cr_expect(fabs(c.mpi_time - S(10)) < EPS, "mpi_time %.9f", c.mpi_time);
    cr_expect(fabs(c.sendrecv_time) < EPS, "sendrecv_time %.9f", c.sendrecv_time);
    pz_characteristics_of_process(&an, &an.nodes[1], 1, &c);
    expect_parts(&c, 2, 4, 0, 0, 8, 32);
}

Test(io_rma, integral_and_whole_run)
{
    struct pz_characteristics c;

    analyze_io_rma();
    pz_characteristics_of(&an, &an.nodes[1], &c);
    expect_parts(&c, 11, 5, 60, 100, 48, 32);
    pz_characteristics_of_process(&an, &an.nodes[0], 0, &c);
    expect_parts(&c, 9, 2, 60, 100, 40, 0);
}

/* Process 0 (ms): MPI_Init 0-1, MPI_Isend 1-2 (to 1, request 3), MPI_File_iwrite 2-3
 * (begin WRITE 50 B, matching id 5), MPI_Waitall 4-7 (the Isend's completion and the
 * write's, 50 B), MPI_Wait 7-8 (nothing: a null request), MPI_Finalize 8-9; process 1:
 * MPI_Init 0-1, MPI_Recv 1-2 (from 0), MPI_Finalize 8-9.  The Waitall also completed a
 * message: it stays point-to-point; I/O time = the iwrite's 1; point-to-point =
 * Isend 1 + Waitall 3 + the Wait, which completed no I/O, 1 = 5; written 50. */
Test(io_rma, wait_completing_a_message_too_stays_point_to_point)
{
    struct tb *b = trace(2);
    uint32_t isend = tb_mpi(b, "MPI_Isend"), iwrite = tb_mpi(b, "MPI_File_iwrite");
    uint32_t waitall = tb_mpi(b, "MPI_Waitall");
    struct pz_characteristics c;

    tb_call(b, 0, "MPI_Init", 0, MS(1));
    tb_enter(b, 0, MS(1), isend);
    tb_mpi_isend(b, 0, MS(1), TB_WORLD, 1, 0, 8, 3);
    tb_leave(b, 0, MS(2), isend);
    tb_enter(b, 0, MS(2), iwrite);
    tb_io_begin_nonblocking(b, 0, MS(2), OTF2_IO_OPERATION_MODE_WRITE, 50, 5);
    tb_leave(b, 0, MS(3), iwrite);
    tb_enter(b, 0, MS(4), waitall);
    tb_mpi_isend_complete(b, 0, MS(7), 3);
    tb_io_complete(b, 0, MS(7), 50, 5);
    tb_leave(b, 0, MS(7), waitall);
    tb_call(b, 0, "MPI_Wait", MS(7), MS(8));
    tb_call(b, 0, "MPI_Finalize", MS(8), MS(9));
    tb_call(b, 1, "MPI_Init", 0, MS(1));
    tb_recv_call(b, 1, "MPI_Recv", MS(1), MS(2), TB_WORLD, 0, 0);
    tb_call(b, 1, "MPI_Finalize", MS(8), MS(9));
    analyze(b);
    pz_characteristics_of_process(&an, &an.nodes[0], 0, &c);
    expect_parts(&c, 1, 0, 0, 50, 0, 0);
    cr_expect(fabs(c.sendrecv_time - S(5)) < EPS, "sendrecv_time %.9f", c.sendrecv_time);
}

/* A trace without either family: nothing set, and the reports write nothing of them. */
Test(io_rma, absent_from_a_run_without_them)
{
    struct tb *b = trace(1);
    struct pz_characteristics c;
    char *text = NULL;
    size_t len = 0;
    FILE *out;

    tb_call(b, 0, "MPI_Init", 0, MS(1));
    tb_call(b, 0, "MPI_Finalize", MS(1), MS(2));
    analyze(b);
    cr_expect_eq(an.io_rma, 0);
    pz_characteristics_of(&an, &an.nodes[0], &c);
    expect_parts(&c, 0, 0, 0, 0, 0, 0);
    out = open_memstream(&text, &len);
    cr_assert_not_null(out);
    pz_report_text_io_rma(out, &an, &an.nodes[0], &c, 1);
    pz_report_json_io_rma(out, &an, &c);
    fclose(out);
    cr_expect_eq(len, 0, "wrote '%s'", text);
    free(text);
}

Test(io_rma, reported_in_text_and_json)
{
    struct pz_characteristics c;
    char *text = NULL;
    size_t len = 0;
    FILE *out;

    analyze_io_rma();
    pz_characteristics_of(&an, &an.nodes[1], &c);
    out = open_memstream(&text, &len);
    cr_assert_not_null(out);
    pz_report_text_io_rma(out, &an, &an.nodes[1], &c, 0);
    pz_report_json_io_rma(out, &an, &c);
    fclose(out);
    cr_expect_str_eq(text, "---I/O and One-Sided (parts of MPI Time)---\n"
                           "I/O Time 0.011000 (Read 60 B, Written 100 B)\n"
                           "One-Sided Time 0.005000 (Put 48 B, Got 32 B)\n"
                           "Lock Contention 0.000000\n"
                           ", \"io_time\": 0.011, \"rma_time\": 0.005, \"io_bytes_read\": 60, "
                           "\"io_bytes_written\": 100, \"rma_bytes_put\": 48, "
                           "\"rma_bytes_got\": 32, \"rma_lock_contention\": 0");
    free(text);
}

/* Lock Contention: two origins lock rank 0's window, rank 1 first.
 *   rank 0: MPI_Init 0-1, MPI_Finalize 10-11
 *   rank 1: MPI_Init 0-1, MPI_Win_lock(0) 1-2, MPI_Win_unlock(0) 2-6 (released at 6),
 *           MPI_Finalize 10-11
 *   rank 2: MPI_Init 0-1, MPI_Win_lock(0) 3-8 (granted after rank 1's release),
 *           MPI_Win_unlock(0) 8-9, MPI_Finalize 10-11
 * Rank 1 finds no release before its lock: 0.  Rank 2's lock waited from its enter, 3,
 * to rank 1's release, 6, when either lock is exclusive: 3 ms, in its synchronization
 * and real synchronization; two shared locks do not wait: 0. */
static void two_locks(OTF2_LockType first, OTF2_LockType second, double want_ms)
{
    struct tb *b = trace(3);
    uint32_t lock = tb_mpi(b, "MPI_Win_lock"), unlock = tb_mpi(b, "MPI_Win_unlock");
    static const double enter[3] = { 0, 1, 3 }, granted[3] = { 0, 2, 8 },
                        released[3] = { 0, 6, 9 };
    struct pz_characteristics c;

    for (int p = 0; p < 3; p++) {
        tb_call(b, p, "MPI_Init", 0, MS(1));
        if (p > 0) {
            tb_enter(b, p, MS(enter[p]), lock);
            tb_rma_lock_type(b, p, MS(granted[p]), 0, p == 1 ? first : second);
            tb_leave(b, p, MS(granted[p]), lock);
            tb_enter(b, p, MS(granted[p]), unlock);
            tb_rma_unlock(b, p, MS(released[p]), 0);
            tb_leave(b, p, MS(released[p]), unlock);
        }
        tb_call(b, p, "MPI_Finalize", MS(10), MS(11));
    }
    analyze(b);
    pz_characteristics_of_process(&an, &an.nodes[0], 1, &c);
    cr_expect(fabs(c.lock_contention) < EPS, "rank 1: %.9f", c.lock_contention);
    pz_characteristics_of_process(&an, &an.nodes[0], 2, &c);
    cr_expect(fabs(c.lock_contention - S(want_ms)) < EPS, "rank 2: %.9f, expected %.9f",
              c.lock_contention, S(want_ms));
    cr_expect(fabs(c.real_synchronization - S(want_ms)) < EPS, "real synchronization %.9f",
              c.real_synchronization);
    cr_expect(fabs(c.synchronization - S(want_ms)) < EPS, "synchronization %.9f",
              c.synchronization);
}

Test(io_rma, exclusive_lock_contention)
{
    two_locks(OTF2_LOCK_EXCLUSIVE, OTF2_LOCK_EXCLUSIVE, 3);
}

Test(io_rma, exclusive_lock_waits_for_a_shared_one)
{
    two_locks(OTF2_LOCK_SHARED, OTF2_LOCK_EXCLUSIVE, 3);
}

Test(io_rma, shared_locks_do_not_contend)
{
    two_locks(OTF2_LOCK_SHARED, OTF2_LOCK_SHARED, 0);
}
