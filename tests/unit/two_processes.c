/* The recorded run of two processes (two_processes.h). */
#include <criterion/criterion.h>

#include "trace_builder.h"
#include "two_processes.h"

/* The Put/fence epoch of process p after its interval: MPI_Win_fence 8.2-8.3, process
 * 0's MPI_Put of 96 bytes to process 1 8.4-8.5, MPI_Win_fence 8.6-8.7. */
static void epoch(struct tb *b, int p)
{
    uint32_t put = tb_mpi(b, "MPI_Put");

    tb_fence_call(b, p, TB_MS(8.2), TB_MS(8.3));
    if (p == 0) {
        tb_enter(b, 0, TB_MS(8.4), put);
        tb_rma_put(b, 0, TB_MS(8.4), 1, 96);
        tb_leave(b, 0, TB_MS(8.5), put);
    }
    tb_fence_call(b, p, TB_MS(8.6), TB_MS(8.7));
}

/* MPI-IO of process p after its interval: MPI_File_write 8.2-8.4 of 8 bytes; process
 * 1's MPI_File_iread 8.5-8.6 of 32 bytes (matching id 5), complete in MPI_Wait 8.7-8.9. */
static void file_io(struct tb *b, int p)
{
    uint32_t write = tb_mpi(b, "MPI_File_write"), iread = tb_mpi(b, "MPI_File_iread");
    uint32_t wait = tb_mpi(b, "MPI_Wait");

    tb_enter(b, p, TB_MS(8.2), write);
    tb_io_begin(b, p, TB_MS(8.2), OTF2_IO_OPERATION_MODE_WRITE, 8, 0);
    tb_io_complete(b, p, TB_MS(8.4), 8, 0);
    tb_leave(b, p, TB_MS(8.4), write);
    if (p == 1) {
        tb_enter(b, 1, TB_MS(8.5), iread);
        tb_io_begin_nonblocking(b, 1, TB_MS(8.5), OTF2_IO_OPERATION_MODE_READ, 32, 5);
        tb_leave(b, 1, TB_MS(8.6), iread);
        tb_enter(b, 1, TB_MS(8.7), wait);
        tb_io_complete(b, 1, TB_MS(8.9), 32, 5);
        tb_leave(b, 1, TB_MS(8.9), wait);
    }
}

enum after { AFTER_NOTHING, AFTER_EPOCH, AFTER_IO };

static void record_two(const char *d, enum after after)
{
    struct tb *b = tb_open(d, 2);
    const int swapped_ranks[2] = { 1, 0 };
    uint32_t swapped, interval;

    cr_assert_not_null(b);
    tb_set_offset(b, TB_MS(1));
    swapped = tb_comm(b, "swapped", 2, swapped_ranks);
    interval = tb_interval(b, 1, "/src/x.c", 10);
    if (after == AFTER_EPOCH)
        tb_rma_window(b);
    for (int p = 0; p < 2; p++) {
        uint32_t init = tb_mpi(b, "MPI_Init"), waitall = tb_mpi(b, "MPI_Waitall");
        uint32_t ibarrier = tb_mpi(b, "MPI_Ibarrier"), wait = tb_mpi(b, "MPI_Wait");
        uint32_t peer = (uint32_t)(1 - p);

        tb_enter_site(b, p, p ? TB_MS(1.1) : TB_MS(1), init, tb_site(b, "/src/x.c", 5));
        tb_leave(b, p, TB_MS(2), init);
        tb_enter(b, p, TB_MS(2.5), interval);
        tb_enter(b, p, TB_MS(3), tb_mpi(b, "MPI_Irecv"));
        tb_mpi_irecv_request(b, p, TB_MS(3), 1);
        tb_leave(b, p, TB_MS(3.1), tb_mpi(b, "MPI_Irecv"));
        tb_enter(b, p, TB_MS(3.2), tb_mpi(b, "MPI_Isend"));
        tb_mpi_isend(b, p, TB_MS(3.2), TB_WORLD, peer, 7 + (uint32_t)p, 64 >> p, 2);
        tb_leave(b, p, TB_MS(3.3), tb_mpi(b, "MPI_Isend"));
        tb_enter(b, p, TB_MS(3.5), waitall);
        tb_mpi_irecv(b, p, TB_MS(4), TB_WORLD, peer, 8 - (uint32_t)p, 32 << p, 1);
        tb_mpi_isend_complete(b, p, TB_MS(4), 2);
        tb_leave(b, p, TB_MS(4), waitall);
        tb_collective_call(b, p, "MPI_Allreduce", p ? TB_MS(5.2) : TB_MS(5), TB_MS(6),
                           OTF2_COLLECTIVE_OP_ALLREDUCE, TB_WORLD, TB_NO_ROOT);
        if (p == 0)
            tb_send_call(b, 0, "MPI_Send", TB_MS(7), TB_MS(7.5), swapped, 0, 3);
        else
            tb_recv_call(b, 1, "MPI_Recv", TB_MS(6.8), TB_MS(7.6), swapped, 1, 3);
        tb_enter(b, p, TB_MS(7.6), ibarrier);
        tb_nbc_request(b, p, TB_MS(7.6), 3);
        tb_leave(b, p, TB_MS(7.7), ibarrier);
        tb_enter(b, p, TB_MS(7.8), wait);
        tb_nbc_complete(b, p, TB_MS(7.9), OTF2_COLLECTIVE_OP_BARRIER, swapped, TB_NO_ROOT, 0, 0,
                        3);
        tb_leave(b, p, TB_MS(7.9), wait);
        tb_leave(b, p, TB_MS(8), interval);
        if (after == AFTER_EPOCH)
            epoch(b, p);
        else if (after == AFTER_IO)
            file_io(b, p);
        tb_call(b, p, "MPI_Finalize", TB_MS(9), TB_MS(9));
    }
    cr_assert_eq(tb_close(b), 0, "the trace builder failed");
}

void tp_record_two(const char *d)
{
    record_two(d, AFTER_NOTHING);
}

void tp_record_two_with_epoch(const char *d)
{
    record_two(d, AFTER_EPOCH);
}

void tp_record_two_with_io(const char *d)
{
    record_two(d, AFTER_IO);
}
