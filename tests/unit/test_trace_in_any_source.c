/* The mark of receives posted with MPI_ANY_SOURCE (prognoz:any_source,
 * docs/trace-format.md) as the trace layer reads it into struct pz_rec: 1 on a marked
 * MpiRecv, 0 on one without it, and 0 everywhere in a trace that does not define it
 * (recorded before the mark). */
#include <criterion/criterion.h>
#include <string.h>

#include "trace.h"
#include "trace_in.h"
#include "tempdir_fixture.h"
#include "trace_builder.h"

TestSuite(trace_in_any_source, .init = setup, .fini = cleanup);

/* Rank 0 receives twice from rank 1 (tag 7, 8 bytes), the first receive marked when
 * marked is set; rank 1 sends twice. */
static void write_trace(const char *dir, int marked)
{
    struct tb *b = tb_open(dir, 2);
    uint32_t recv;

    cr_assert_not_null(b, "cannot open a trace in %s", dir);
    recv = tb_mpi(b, "MPI_Recv");
    tb_enter(b, 0, 1000, recv);
    if (marked)
        tb_mpi_recv_any(b, 0, 2000, TB_WORLD, 1, 7, 8);
    else
        tb_mpi_recv(b, 0, 2000, TB_WORLD, 1, 7, 8);
    tb_leave(b, 0, 2000, recv);
    tb_recv_call(b, 0, "MPI_Recv", 3000, 4000, TB_WORLD, 1, 7);
    tb_send_call(b, 1, "MPI_Send", 1000, 1500, TB_WORLD, 0, 7);
    tb_send_call(b, 1, "MPI_Send", 2500, 3000, TB_WORLD, 0, 7);
    cr_assert_eq(tb_close(b), 0, "cannot write the trace");
}

/* The any_source of rank 0's receive records in order into got; how many. */
static int receives(const char *dir, uint8_t got[4])
{
    struct pz_trace_in *t = pz_trace_in_open(dir, err, sizeof(err));
    const struct pz_rec *r;
    int n = 0;

    cr_assert_not_null(t, "%s", err);
    for (; (r = pz_trace_in_peek(t, 0, 0)); pz_trace_in_consume(t, 0, 1))
        if (r->kind == PZ_REC_RECV && n < 4)
            got[n++] = r->any_source;
    cr_assert_null(pz_trace_in_error(t), "%s", pz_trace_in_error(t));
    pz_trace_in_close(t);
    return n;
}

Test(trace_in_any_source, a_marked_receive_reads_1_and_an_unmarked_one_0)
{
    uint8_t got[4] = { 9, 9, 9, 9 };

    write_trace(top, 1);
    cr_assert_eq(receives(top, got), 2);
    cr_expect_eq(got[0], 1);
    cr_expect_eq(got[1], 0);
}

Test(trace_in_any_source, a_trace_without_the_mark_reads_0)
{
    uint8_t got[4] = { 9, 9, 9, 9 };

    write_trace(top, 0);
    cr_assert_eq(receives(top, got), 2);
    cr_expect_eq(got[0], 0);
    cr_expect_eq(got[1], 0);
}
