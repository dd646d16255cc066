/* Analyzing a recorded trace through the trace layer's records (analysis.h,
 * pz_analyze_records), which pz_analyze takes for traces of many processes: the same
 * analysis as OTF2's global reader gives, values worked out by hand, the partial
 * trace's endings kept, and a damaged trace refused in one line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "json_report.h"
#include "names.h"
#include "progress.h"
#include "tempdir_fixture.h"
#include "trace_builder.h"
#include "two_processes.h"

#define MS TB_MS

TestSuite(analysis_records, .init = setup, .fini = cleanup);

/* Pairs of n processes, n even: MPI_Init 0-1 ms; each odd process p receives from
 * p - 1 in MPI_Recv 1.5-3 ms what p - 1 sends in MPI_Send 2-2.5 ms, so that it waits
 * 0.5 ms for a late sender; then `local` calls of MPI_Comm_rank of 1 us, every 2 us
 * from 3 ms; MPI_Finalize of 1 ms at 4 ms + 2 us x local, after them. */
static void record_pairs(int n, int local)
{
    struct tb *b = tb_open(top, n);

    cr_assert_not_null(b);
    for (int p = 0; p < n; p++) {
        tb_call(b, p, "MPI_Init", 0, MS(1));
        if (p % 2)
            tb_recv_call(b, p, "MPI_Recv", MS(1.5), MS(3), TB_WORLD, (uint32_t)p - 1, 7);
        else
            tb_send_call(b, p, "MPI_Send", MS(2), MS(2.5), TB_WORLD, (uint32_t)p + 1, 7);
        for (int i = 0; i < local; i++)
            tb_call(b, p, "MPI_Comm_rank", MS(3) + 2000u * (uint64_t)i,
                    MS(3) + 2000u * (uint64_t)i + 1000u);
        tb_call(b, p, "MPI_Finalize", MS(4) + 2000u * (uint64_t)local,
                MS(5) + 2000u * (uint64_t)local);
    }
    cr_assert_eq(tb_close(b), 0);
}

/* The trace of a run recorded in dir analyzed both ways: the same JSON report, per
 * process, byte for byte. */
static void expect_same_both_ways(void)
{
    struct pz_analysis global, records;
    char *a, *b;

    cr_assert_eq(pz_analyze(top, &global, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(pz_analyze_records(top, &records, NULL, err, sizeof(err)), 0, "%s", err);
    cr_expect_str_eq(records.trace, top, "the path as given");
    a = json_of(&global);
    b = json_of(&records);
    cr_expect_str_eq(b, a, "through the records:\n%s\nthrough OTF2:\n%s", b, a);
    free(a);
    free(b);
    pz_analysis_free(&global);
    pz_analysis_free(&records);
}

/* The two processes of two_processes.h: process 1's MPI_Recv on "swapped" enters at
 * 6.8 ms, process 0's MPI_Send to it at 7 ms: a late sender of 0.2 ms. */
Test(analysis_records, a_recorded_run_is_analyzed_as_through_otf2)
{
    struct pz_analysis records;

    tp_record_two(top);
    cr_assert_eq(pz_analyze_records(top, &records, NULL, err, sizeof(err)), 0, "%s", err);
    cr_expect_eq(records.nprocs, 2);
    cr_expect_float_eq(records.nodes[0].procs[1].late_sender, 0.0002, 1e-9);
    pz_analysis_free(&records);
    expect_same_both_ways();
}

/* With a Put/fence epoch: process 0 put 96 bytes either way. */
Test(analysis_records, one_sided_records_are_analyzed_as_through_otf2)
{
    struct pz_analysis records;

    tp_record_two_with_epoch(top);
    cr_assert_eq(pz_analyze_records(top, &records, NULL, err, sizeof(err)), 0, "%s", err);
    cr_expect_eq(records.nodes[0].procs[0].rma_put, 96);
    pz_analysis_free(&records);
    expect_same_both_ways();
}

/* With MPI-IO: process 1 read 32 bytes (MPI_File_iread completed in MPI_Wait). */
Test(analysis_records, io_records_are_analyzed_as_through_otf2)
{
    struct pz_analysis records;

    tp_record_two_with_io(top);
    cr_assert_eq(pz_analyze_records(top, &records, NULL, err, sizeof(err)), 0, "%s", err);
    cr_expect_eq(records.nodes[0].procs[1].io_read, 32);
    pz_analysis_free(&records);
    expect_same_both_ways();
}

static void seen(void *ud, const char *what, uint64_t done, uint64_t total)
{
    (void)done, (void)total;
    if (!strcmp(what, "records analyzed"))
        *(int *)ud = 1;
}

/* 300 processes (more than 256): pz_analyze reads them through the records, which
 * tell their progress as "records analyzed" every 65536 records (here 300 x 2 x 113);
 * 150 receivers waited 0.5 ms each. */
Test(analysis_records, a_trace_of_many_processes_is_read_as_records)
{
    struct pz_analysis a;
    int through_records = 0;
    struct pz_progress_hook hook = { seen, &through_records };
    double late = 0;

    record_pairs(300, 110);
    cr_assert_eq(pz_analyze_with_progress(top, &a, &hook, err, sizeof(err)), 0, "%s", err);
    cr_expect(through_records, "pz_analyze read 300 processes through OTF2's global reader");
    cr_assert_eq(a.nprocs, 300);
    for (int p = 0; p < 300; p++)
        late += a.nodes[0].procs[p].late_sender;
    cr_expect_float_eq(late, 150 * 0.0005, 1e-9);
    cr_expect_eq(a.messages, 150);
    pz_analysis_free(&a);
}

/* Two processes, with as many records as the records' progress would tell of (2 x 2 x
 * 33003 > 65536): OTF2's global reader, as before. */
Test(analysis_records, a_trace_of_few_processes_is_read_through_otf2)
{
    struct pz_analysis a;
    int through_records = 0;
    struct pz_progress_hook hook = { seen, &through_records };

    record_pairs(2, 33000);
    cr_assert_eq(pz_analyze_with_progress(top, &a, &hook, err, sizeof(err)), 0, "%s", err);
    cr_expect_not(through_records);
    cr_expect_float_eq(a.nodes[0].procs[1].late_sender, 0.0005, 1e-9);
    pz_analysis_free(&a);
}

/* The endings of a run that ended without MPI_Finalize, as the recorder's assembly
 * writes them, are the analysis's. */
Test(analysis_records, a_partial_trace_keeps_its_endings)
{
    struct pz_analysis a;
    struct tb *b = tb_open(top, 2);

    cr_assert_not_null(b);
    for (int p = 0; p < 2; p++)
        tb_call(b, p, "MPI_Init", 0, MS(1));
    tb_call(b, 1, "MPI_Barrier", MS(2), MS(3));
    tb_property(b, PZ_PARTIAL_PROPERTY, "0: killed; 1: exit without MPI_Finalize (status 5)");
    cr_assert_eq(tb_close(b), 0);
    cr_assert_eq(pz_analyze_records(top, &a, NULL, err, sizeof(err)), 0, "%s", err);
    cr_assert_not_null(a.partial);
    cr_expect_str_eq(a.partial, "0: killed; 1: exit without MPI_Finalize (status 5)");
    pz_analysis_free(&a);
}

/* A location's event file cut short: one line naming the trace, the analysis empty. */
Test(analysis_records, a_truncated_event_file_is_refused_in_one_line)
{
    struct pz_analysis a;
    char evt[4200];
    FILE *f;

    record_pairs(2, 0);
    snprintf(evt, sizeof(evt), "%s/traces/1.evt", top);
    cr_assert_not_null(f = fopen(evt, "r+"));
    cr_assert_eq(ftruncate(fileno(f), 40), 0);
    fclose(f);
    cr_assert_eq(pz_analyze_records(top, &a, NULL, err, sizeof(err)), -1);
    cr_expect(strstr(err, top) != NULL, "the message '%s' names no file of the trace", err);
    cr_expect_null(strchr(err, '\n'), "more than one line: %s", err);
    cr_expect_eq(a.nprocs, 0);
}
