# A persistent collective, one-sided and MPI-IO calls through each Fortran binding
# (programs/fnew_f77.f90: mpif.h, fnew_mpi.f90: use mpi, fnew_f08.f90: use mpi_f08, on 2
# ranks) are recorded as from C: MPI_Allreduce_init reaches the C symbol with its
# choice buffer; MPI_Win_allocate (an address-sized integer and a C pointer),
# MPI_Win_fence and MPI_Win_free have no choice buffer, and MPICH's use mpi_f08
# routines of them call PMPI_ directly, so the recorder wraps those, with their
# one-sided records (the window's creation, fence and freeing as collective operations
# on it).  MPI_File_open, MPI_File_set_view and MPI_File_delete take a CHARACTER
# argument (the file name, the data representation), which MPICH's use mpi_f08 routines
# take with a hidden length and call PMPI_ with, so the recorder wraps those too: the
# file, a CHARACTER(256) padded with blanks, is recorded by its name alone, through
# each binding, and deleted.  The output is the same with and without the recorder.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

NBC=NON_BLOCKING_COLLECTIVE
WIN='Window: "MPI window 0"'
RMA_END="Window: \"MPI window 0\", Level of Synchronicity: {PROCESS}, Root: NONE, Sent: 0, Received: 0"
FENCE_END="Window: \"MPI window 0\", Level of Synchronicity: {PROCESS, MEMORY}, Root: NONE, Sent: 0, Received: 0"
for binding in f77 mpi f08; do
    prog=$(pz_program fnew_$binding) || exit 77
    file=$PZ_WORK/fnew_$binding.dat
    H="Handle: \"$file\""
    pz_mpiexec -n 2 "$prog" "$file" >"$PZ_WORK/plain.out" 2>"$PZ_WORK/plain.err" ||
        { cat "$PZ_WORK/plain.err" >&2; pz_fail "fnew_$binding fails without the recorder"; }
    pz_record_ok "fnew_$binding" 2 "$prog" "$file"
    test -e "$file" && pz_fail "fnew_$binding did not delete its file"
    diff -u "$PZ_WORK/plain.out" "$PZ_WORK/fnew_$binding.out" >&2 ||
        pz_fail "fnew_$binding's output differs with the recorder (- without, + with)"
    pz_expect_eq "fnew_$binding's output" "fnew: 3" "$(cat "$PZ_WORK/fnew_$binding.out")"
    pz_trace "fnew_$binding"
    # Allreduce of 2 INTEGERs: 8 bytes each way, on its request's communicator
    AR=$(pz_comm_named "fnew_$binding" MPI_Allreduce_init "0 1")
    ALLREDUCE="Operation: ALLREDUCE, Communicator: \"$AR\", Root: NONE, Sent: 8, Received: 8"
    pz_expect_eq "fnew_$binding: files" 1 \
        "$(grep -c "^IO_REGULAR_FILE .*Name: \"$file\"" "$PZ_WORK/fnew_$binding.defs")"
    for r in 0 1; do
        {
            cat <<EOT
MPI_Init
MPI_Comm_rank
MPI_Allreduce_init
MPI_Start | ${NBC}_REQUEST Request: #1
MPI_Wait | ${NBC}_COMPLETE $ALLREDUCE, Request: #1
MPI_Start | ${NBC}_REQUEST Request: #2
MPI_Wait | ${NBC}_COMPLETE $ALLREDUCE, Request: #2
MPI_Request_free
MPI_Win_allocate | RMA_COLLECTIVE_BEGIN | RMA_WIN_CREATE $WIN | RMA_COLLECTIVE_END Operation: CREATE_HANDLE, $RMA_END
MPI_Win_fence | RMA_COLLECTIVE_BEGIN | RMA_COLLECTIVE_END Operation: BARRIER, $FENCE_END
MPI_Win_free | RMA_COLLECTIVE_BEGIN | RMA_WIN_DESTROY $WIN | RMA_COLLECTIVE_END Operation: DESTROY_HANDLE, $RMA_END
MPI_File_open | IO_CREATE_HANDLE $H, Access Mode: WRITE_ONLY, Creation Flags: {CREATE}, Status Flags: NONE
MPI_File_set_view
MPI_File_write_all | IO_OPERATION_BEGIN $H, Mode: WRITE, Operation Flags: {COLLECTIVE}, Bytes Request: 8, Matching Id: 0 | IO_OPERATION_COMPLETE $H, Bytes Result: 8, Matching Id: 0
MPI_File_close | IO_DESTROY_HANDLE $H
EOT
            test "$r" = 0 && echo MPI_File_delete
            echo MPI_Finalize
        } | pz_expect_calls "fnew_$binding" "$r"
    done
done
