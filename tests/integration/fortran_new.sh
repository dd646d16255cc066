# A persistent collective and one-sided calls through each Fortran binding
# (programs/fnew_f77.f90: mpif.h, fnew_mpi.f90: use mpi, fnew_f08.f90: use mpi_f08, on 2
# ranks) are recorded as from C: MPI_Allreduce_init reaches the C symbol with its
# choice buffer; MPI_Win_allocate (an address-sized integer and a C pointer),
# MPI_Win_fence and MPI_Win_free have no choice buffer, and MPICH's use mpi_f08
# routines of them call PMPI_ directly, so the recorder wraps those, with their
# one-sided records (the window's creation, fence and freeing as collective operations
# on it).  The output is the same with and without the recorder.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

W='Communicator: "MPI_COMM_WORLD"'
NBC=NON_BLOCKING_COLLECTIVE
# Allreduce of 2 INTEGERs: 8 bytes each way
ALLREDUCE="Operation: ALLREDUCE, $W, Root: NONE, Sent: 8, Received: 8"
WIN='Window: "MPI window 0"'
RMA_END="Window: \"MPI window 0\", Level of Synchronicity: {PROCESS}, Root: NONE, Sent: 0, Received: 0"
FENCE_END="Window: \"MPI window 0\", Level of Synchronicity: {PROCESS, MEMORY}, Root: NONE, Sent: 0, Received: 0"
for binding in f77 mpi f08; do
    prog=$(pz_program fnew_$binding) || exit 77
    pz_mpiexec -n 2 "$prog" >"$PZ_WORK/plain.out" 2>"$PZ_WORK/plain.err" ||
        { cat "$PZ_WORK/plain.err" >&2; pz_fail "fnew_$binding fails without the recorder"; }
    pz_record_ok "fnew_$binding" 2 "$prog"
    diff -u "$PZ_WORK/plain.out" "$PZ_WORK/fnew_$binding.out" >&2 ||
        pz_fail "fnew_$binding's output differs with the recorder (- without, + with)"
    pz_expect_eq "fnew_$binding's output" "fnew: 3" "$(cat "$PZ_WORK/fnew_$binding.out")"
    pz_trace "fnew_$binding"
    for r in 0 1; do
        cat <<EOT | pz_expect_calls "fnew_$binding" "$r"
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
MPI_Finalize
EOT
    done
done
