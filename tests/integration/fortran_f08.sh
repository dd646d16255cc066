# A Fortran program using 'use mpi_f08' (programs/ff08.f90 on 2 ranks) is recorded
# completely.  MPICH's f08 bindings call PMPI_ directly for the routines without a
# choice buffer (Init, Comm_rank/size, Barrier, Ibarrier, Wait, Waitall, Comm_split,
# Comm_free, Finalize), so this checks that the recorder wraps those f08 entry points
# too; the calls with a buffer (Send, Recv, Bcast, Allreduce, Isend, Irecv) reach the C
# symbols.  Output and exit status are the same with and without the recorder, also for
# programs/f08_calls.f90, which checks the results of such calls itself.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program ff08) || exit 77
pz_mpiexec -n 2 "$prog" >"$PZ_WORK/plain.out" 2>"$PZ_WORK/plain.err" ||
    { cat "$PZ_WORK/plain.err" >&2; pz_fail "ff08 fails without the recorder"; }
pz_record_ok ff08 2 "$prog"
diff -u "$PZ_WORK/plain.out" "$PZ_WORK/ff08.out" >&2 ||
    pz_fail "ff08's output differs with the recorder (- without, + with)"
pz_expect_eq "ff08's output" "ff08: total 3" "$(cat "$PZ_WORK/ff08.out")"
pz_trace ff08

SUB=$(pz_comm_named ff08 MPI_Comm_split "1 0")
W='Communicator: "MPI_COMM_WORLD"'
# MPI_Comm_split: CREATE_HANDLE on its parent, with MPICH's context-id mask (256 bytes)
# and the (color, key) pairs of the 2 ranks (8 bytes each)
B='Operation: BARRIER'
for r in 0 1; do
    p=$((1 - r))
    {
        pz_fortran_calls $r
        cat <<EOF
MPI_Irecv | MPI_IRECV_REQUEST Request: #3
MPI_Isend | MPI_ISEND Receiver: $p, $W, Tag: 7, Length: 4, Request: #4
MPI_Wait | MPI_IRECV Sender: $p, $W, Tag: 7, Length: 4, Request: #3
MPI_Wait | MPI_ISEND_COMPLETE Request: #4
MPI_Ibarrier | NON_BLOCKING_COLLECTIVE_REQUEST Request: #5
MPI_Wait | NON_BLOCKING_COLLECTIVE_COMPLETE $B, $W, Root: NONE, Sent: 0, Received: 0, Request: #5
MPI_Comm_split | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: CREATE_HANDLE, $W, Root: NONE, Sent: 264, Received: 272
MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END $B, Communicator: "$SUB", Root: NONE, Sent: 0, Received: 0
MPI_Comm_free
MPI_Finalize
EOF
    } | pz_expect_calls ff08 $r
done

# f08_calls checks statuses, request handles and error codes itself
prog=$(pz_program f08_calls) || exit 77
pz_mpiexec -n 2 "$prog" >"$PZ_WORK/plain.out" 2>"$PZ_WORK/plain.err" ||
    { cat "$PZ_WORK/plain.err" >&2; pz_fail "f08_calls fails without the recorder"; }
pz_record_ok f08_calls 2 "$prog"
diff -u "$PZ_WORK/plain.out" "$PZ_WORK/f08_calls.out" >&2 ||
    pz_fail "f08_calls's output differs with the recorder (- without, + with)"
pz_trace f08_calls
for region in MPI_Init MPI_Comm_rank MPI_Barrier MPI_Wait MPI_Waitall MPI_Comm_split MPI_Comm_free MPI_Finalize; do
    for r in 0 1; do
        pz_calls f08_calls $r | grep -q "^$region\( \|\$\)" ||
            pz_fail "f08_calls: rank $r: no $region recorded"
    done
done
