# MPI-IO (programs/io.c on 2 ranks): opening, collective and independent writes and
# reads, a seek, syncs, closing and deleting a file are each recorded as their region,
# with no I/O event yet; the MPI calls ROMIO makes inside them are not recorded.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/reads.sh"

prog=$(pz_program io) || exit 77
pz_record_ok io 2 "$prog" "$PZ_WORK/io.dat"
pz_trace io
test -e "$PZ_WORK/io.dat" && pz_fail "io: the program did not delete its file"

BARRIER='MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, Communicator: "MPI_COMM_WORLD", Root: NONE, Sent: 0, Received: 0'
for r in 0 1; do
    {
        printf '%s\n' MPI_Init MPI_Comm_rank MPI_File_open MPI_File_write_at_all \
            MPI_File_seek MPI_File_write MPI_File_sync "$BARRIER" MPI_File_sync \
            MPI_File_read_at_all MPI_File_read_at MPI_File_close "$BARRIER"
        test "$r" = 0 && echo MPI_File_delete
        echo MPI_Finalize
    } | pz_expect_calls io "$r"
done
pz_reads_trace io
