# The large-count forms through use mpi_f08 (programs/flarge_f08.f90 on 2 ranks):
# MPICH's mpi_win_allocate_f08_large_ and mpi_get_count_f08_large_ call PMPI_ directly
# and are wrapped (gen_f08.py), mpi_send_f08ts_large_ and mpi_recv_f08ts_large_ reach
# MPI_Send_c and MPI_Recv_c; each is recorded as its C function.  The output, the
# MPI_COUNT_KIND count MPI_Get_count_c returns through the wrapper, is the same with and
# without the recorder.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program flarge_f08) || exit 77
pz_mpiexec -n 2 "$prog" >"$PZ_WORK/plain.out" 2>"$PZ_WORK/plain.err" ||
    { cat "$PZ_WORK/plain.err" >&2; pz_fail "flarge_f08 fails without the recorder"; }
pz_record_ok flarge_f08 2 "$prog"
diff -u "$PZ_WORK/plain.out" "$PZ_WORK/flarge_f08.out" >&2 ||
    pz_fail "flarge_f08's output differs with the recorder (- without, + with)"
pz_expect_eq "flarge_f08's output" "flarge: 3" "$(cat "$PZ_WORK/flarge_f08.out")"
pz_trace flarge_f08

W='Communicator: "MPI_COMM_WORLD"'
WIN='Window: "MPI window 0"'
RMA_END="Window: \"MPI window 0\", Level of Synchronicity: {PROCESS}, Root: NONE, Sent: 0, Received: 0"
for r in 0 1; do
    # 3 INTEGERs (12 bytes) from rank 0 to rank 1, tag 5
    if test $r = 0; then
        p2p="MPI_Send_c | MPI_SEND Receiver: 1, $W, Tag: 5, Length: 12"
    else
        p2p="MPI_Recv_c | MPI_RECV Sender: 0, $W, Tag: 5, Length: 12
MPI_Get_count_c"
    fi
    cat <<EOT | pz_expect_calls flarge_f08 "$r"
MPI_Init
MPI_Comm_rank
MPI_Win_allocate_c | RMA_COLLECTIVE_BEGIN | RMA_WIN_CREATE $WIN | RMA_COLLECTIVE_END Operation: CREATE_HANDLE, $RMA_END
MPI_Win_free | RMA_COLLECTIVE_BEGIN | RMA_WIN_DESTROY $WIN | RMA_COLLECTIVE_END Operation: DESTROY_HANDLE, $RMA_END
$p2p
MPI_Finalize
EOT
done
