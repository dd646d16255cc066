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
