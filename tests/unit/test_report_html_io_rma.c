/* MPI-IO and one-sided time on the HTML page (analyzer/report_html_io_rma.c), on
 * hand-built traces: written only for a run that made such calls.  Times in the
 * comments are milliseconds.
 *
 * The trace of one process: MPI_Init 0-1, MPI_File_write_all 1-5 (begin WRITE 100 B at
 * 1, complete 100 B at 5), MPI_Put 5-6 (RmaPut 40 B), MPI_Win_fence 6-8, MPI_Finalize
 * 8-9.  I/O time: write_all 4; one-sided: Put 1 + fence 2 = 3; MPI time, the functions'
 * sum: 1 + 4 + 1 + 2 + 1 = 9, of which I/O 4/9 = 44.44 %, one-sided 3/9 = 33.33 %, the
 * others (Init, Finalize: 2 calls) 2/9 = 22.22 %. */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_fixture.h"
#include "report.h"
#include "report_html.h"
#include "trace_builder.h"

#define MS TB_MS

TestSuite(report_html_io_rma, .fini = cleanup);

static void analyze(int with_io_rma)
{
    struct tb *b;
    uint32_t write_all, put;

    dir = tb_tempdir();
    cr_assert_not_null(dir, "cannot make a temporary directory");
    b = tb_open(dir, 1);
    cr_assert_not_null(b, "cannot open an OTF2 archive in %s", dir);
    write_all = tb_mpi(b, "MPI_File_write_all");
    put = tb_mpi(b, "MPI_Put");
    tb_call(b, 0, "MPI_Init", 0, MS(1));
    if (with_io_rma) {
        tb_enter(b, 0, MS(1), write_all);
        tb_io_begin(b, 0, MS(1), OTF2_IO_OPERATION_MODE_WRITE, 100, 0);
        tb_io_complete(b, 0, MS(5), 100, 0);
        tb_leave(b, 0, MS(5), write_all);
        tb_enter(b, 0, MS(5), put);
        tb_rma_put(b, 0, MS(5), 0, 40);
        tb_leave(b, 0, MS(6), put);
        tb_call(b, 0, "MPI_Win_fence", MS(6), MS(8));
    }
    tb_call(b, 0, "MPI_Finalize", MS(8), MS(9));
    cr_assert_eq(tb_close(b), 0, "the trace builder failed");
    cr_assert_eq(pz_analyze(dir, &an, err, sizeof(err)), 0, "pz_analyze: %s", err);
}

static char *page(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    cr_assert_not_null(out);
    cr_assert_eq(pz_report_html(out, &an, 1), 0);
    cr_assert_eq(fclose(out), 0);
    return text;
}

static void expect_in(const char *text, const char *part)
{
    cr_expect_not_null(strstr(text, part), "the page lacks %s", part);
}

Test(report_html_io_rma, families_rows_and_columns)
{
    char *text;

    analyze(1);
    text = page();
    expect_in(text, "<tr><td class=\"name\">I/O</td><td>1</td><td>0.004000</td><td>44.44</td>"
                    "<td class=\"name\">read 0 B, written 100 B</td></tr>");
    expect_in(text, "<tr><td class=\"name\">one-sided</td><td>2</td><td>0.003000</td>"
                    "<td>33.33</td><td class=\"name\">put 40 B, got 0 B</td></tr>");
    expect_in(text, "<tr><td class=\"name\">other</td><td>2</td><td>0.002000</td>"
                    "<td>22.22</td><td class=\"name\"></td></tr>");
    /* the whole run's row of the characteristics, the process's cell after the value */
    expect_in(text, "<tr><td class=\"name\">I/O Bytes Written</td><td>100</td><td>100</td></tr>");
    expect_in(text, "<tr><td class=\"name\">One-Sided Time</td><td>0.003000</td>"
                    "<td>0.003000</td></tr>");
    /* the intervals table's columns, before the bar */
    expect_in(text, "<td>0.004000</td><td>0.003000</td><td class=\"name\"><div class=\"bar\">");
    expect_in(text, "window.prognozIoRma");
    free(text);
}

Test(report_html_io_rma, absent_from_a_run_without_them)
{
    char *text;

    analyze(0);
    cr_assert_eq(an.io_rma, 0);
    text = page();
    cr_expect_null(strstr(text, "I/O"), "the page speaks of I/O");
    cr_expect_null(strstr(text, "one-sided"), "the page speaks of one-sided communication");
    cr_expect_null(strstr(text, "prognozIoRma"), "the page has the I/O script");
    free(text);
}

/* The page's script: a line marked " // io-rma" only on the page of a run with I/O or
 * one-sided calls, one marked " // no io-rma" only on the others, both without their
 * marker; a marker inside a line, or without its space, is text like any other. */
Test(report_html_io_rma, script_lines_for_each_page)
{
    static const char *const lines[] = {
        "a\n", "b; // io-rma\n", "c; // no io-rma\n", "d // io-rma here\n", "e;// io-rma\n",
        NULL
    };
    char *text[2] = { NULL, NULL };
    size_t len[2];

    for (int io_rma = 0; io_rma < 2; io_rma++) {
        FILE *out = open_memstream(&text[io_rma], &len[io_rma]);

        cr_assert_not_null(out);
        pz_html_script_lines(out, lines, io_rma);
        cr_assert_eq(fclose(out), 0);
    }
    cr_expect_str_eq(text[0], "a\nc;\nd // io-rma here\ne;// io-rma\n");
    cr_expect_str_eq(text[1], "a\nb;\nd // io-rma here\ne;// io-rma\n");
    free(text[0]);
    free(text[1]);
}

static char *processes(int io_rma)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    int order[1] = { 0 };

    cr_assert_not_null(out);
    cr_assert_eq(an.nnodes, 1, "the trace has no interval but the whole run");
    pz_html_processes(out, &an, order, 1 << 20, io_rma);
    cr_assert_eq(fclose(out), 0);
    return text;
}

/* The process's values of the whole run, 9 ms of MPI calls and nothing else: without the
 * split, productive, insufficient parallelism, communication, synchronization 0, other
 * MPI 9 ms, idle 0, execution time 9 ms; with it, other MPI as I/O 4 ms, one-sided 3
 * and the rest 2 (Init and Finalize). */
Test(report_html_io_rma, per_process_values_split_other_mpi)
{
    char *text;

    analyze(1);
    text = processes(0);
    cr_expect_str_eq(text, "{\"group\": 1, \"values\": [\n[[0,0,0,0,0.009,0,0.009]]]}");
    free(text);
    text = processes(1);
    cr_expect_str_eq(text, "{\"group\": 1, \"values\": [\n"
                           "[[0,0,0,0,0.004,0.003,0.002,0,0.009]]]}");
    free(text);
}

static char *timeline(int io_rma)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    int position[1] = { 0 };

    cr_assert_not_null(out);
    cr_assert_eq(pz_html_timeline(out, dir, &an, position, 1 << 20, io_rma, err, sizeof(err)),
                 0, "pz_html_timeline: %s", err);
    cr_assert_eq(fclose(out), 0);
    return text;
}

/* Every call is of class 5 (other MPI) in call_class.h; with the classes of I/O and
 * one-sided calls, MPI_File_write_all is of class 6 and MPI_Put and MPI_Win_fence of 7,
 * MPI_Init and MPI_Finalize stay in 5.  The write_all, function 1 (after MPI_Init):
 * from 1 ms for 4 ms, in the whole run (interval 0). */
Test(report_html_io_rma, timeline_classes_of_io_and_one_sided_calls)
{
    char *text;

    analyze(1);
    text = timeline(0);
    expect_in(text, "\"per_class\": [0, 0, 0, 0, 0, 5]");
    expect_in(text, "[1000000,4000000,1,5,0]");
    free(text);
    text = timeline(1);
    expect_in(text, "\"per_class\": [0, 0, 0, 0, 0, 2, 1, 2]");
    expect_in(text, "[1000000,4000000,1,6,0]");
    expect_in(text, "[5000000,1000000,2,7,0]");
    expect_in(text, "[6000000,2000000,3,7,0]");
    free(text);
}

/* The reduced timeline with those classes: a one-sided call (class 7) over the first
 * half of a 1000 ns column has 5000 of its 10000; the other seven classes 0. */
Test(report_html_io_rma, buckets_of_eight_classes)
{
    struct pz_html_buckets b;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    cr_assert_not_null(out);
    cr_assert_eq(pz_html_buckets_init(&b, 1, 2, PZ_HTML_IO_RMA_CLASSES, 1000), 0);
    pz_html_buckets_add(&b, 0, PZ_HTML_RMA_CLASS, 0, 500);
    pz_html_buckets_write(out, &b);
    cr_assert_eq(fclose(out), 0);
    cr_expect_str_eq(text, "{\"column_ns\": 1000, \"columns\": 1, \"lanes\": ["
                           "[[0,0,0,0,0,0,0,0,5000]]]}");
    free(text);
    pz_html_buckets_free(&b);
}
