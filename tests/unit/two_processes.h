/* A recorded run of two processes that several tests read (test_trace_out,
 * test_analysis_stream): its trace written by trace_builder.h. */
#ifndef PZ_TEST_TWO_PROCESSES_H
#define PZ_TEST_TWO_PROCESSES_H

/* Writes into directory d the recorded run of two processes (ms), the clock's
 * offset at 1 ms:
 *   0: MPI_Init 1-2 (from x.c:5), interval 1 2.5-8: Irecv 3-3.1, Isend 3.2-3.3,
 *      Waitall 3.5-4, Allreduce 5-6, Send on "swapped" 7-7.5, Ibarrier on "swapped"
 *      7.6-7.7, Wait 7.8-7.9; MPI_Finalize 9
 *   1: the same, Init 1.1-2, its Recv on "swapped" 6.8-7.6, its Allreduce 5.2-6.
 * "swapped" has world ranks 1 and 0 as its ranks 0 and 1: process 0 is its rank 1 and
 * sends to its rank 0, process 1. */
void tp_record_two(const char *d);

/* The same run with a one-sided epoch after the interval, on window 0 of the world:
 * both call MPI_Win_fence 8.2-8.3 and 8.6-8.7, and between them process 0 puts 96
 * bytes to process 1 in MPI_Put 8.4-8.5. */
void tp_record_two_with_epoch(const char *d);

/* The same run with MPI-IO after the interval, on handle 0: both write 8 bytes in
 * MPI_File_write 8.2-8.4; process 1 then reads 32 bytes in MPI_File_iread 8.5-8.6
 * (matching id 5), which its MPI_Wait 8.7-8.9 completes. */
void tp_record_two_with_io(const char *d);

#endif
