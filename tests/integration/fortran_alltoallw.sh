# The Alltoallw family called from Fortran with Open MPI (programs/falltoallw.f90 on 2
# ranks; make check-openmpi): the recorder converts their arrays of datatypes, as long as
# the communicator or its topology's neighbourhood, and records each call once, with its
# bytes.  MPICH's mpi_f08 MPI_Ineighbor_alltoallw fails on a Cartesian communicator, so
# the program is built for Open MPI only (integration/openmpi.mk) and the test runs
# under make check-openmpi alone (it skips with MPICH).  Output and exit status are the
# same with and without the recorder.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program falltoallw) || exit 77
pz_mpiexec -n 2 "$prog" >"$PZ_WORK/plain.out" 2>"$PZ_WORK/plain.err" ||
    { cat "$PZ_WORK/plain.err" >&2; pz_fail "falltoallw fails without the recorder"; }
pz_record_ok falltoallw 2 "$prog"
diff -u "$PZ_WORK/plain.out" "$PZ_WORK/falltoallw.out" >&2 ||
    pz_fail "falltoallw's output differs with the recorder (- without, + with)"
pz_expect_eq "falltoallw's output" "falltoallw: ok" "$(cat "$PZ_WORK/falltoallw.out")"
pz_trace falltoallw
CART=$(pz_comm_named falltoallw MPI_Cart_create "0 1")

W='Communicator: "MPI_COMM_WORLD", Root: NONE'
NBC=NON_BLOCKING_COLLECTIVE
# attrs SEND_BYTES RECV_BYTES: the per-peer byte lists of a w or neighborhood collective
attrs() {
    echo "ADDITIONAL ATTRIBUTES: (\"prognoz:send_bytes\"; STRING; \"$1\"), (\"prognoz:recv_bytes\"; STRING; \"$2\")"
}
for r in 0 1; do
    # Alltoallw: each rank sends an INTEGER (4 bytes) to rank 0, 2 DOUBLE PRECISION (16)
    # to rank 1; Sent and Received count the other rank's bytes only
    if test $r = 0; then
        A2AW="Operation: ALLTOALLW, $W, Sent: 16, Received: 4"
        A2AW_AT=$(attrs 4,16 4,4)
        # in place: 1 INTEGER kept, 3 (12 bytes) each way
        INPLACE_AT=$(attrs 4,12 4,12)
        # both neighbours on the ring of 2 are rank 1: 2 x 8 bytes each way
        NBR_AT=$(attrs 0,16 0,16)
    else
        A2AW="Operation: ALLTOALLW, $W, Sent: 4, Received: 16"
        A2AW_AT=$(attrs 4,16 16,16)
        INPLACE_AT=$(attrs 12,4 12,4)
        NBR_AT=$(attrs 16,0 16,0)
    fi
    NBR="Operation: ALLTOALLV, Communicator: \"$CART\", Root: NONE, Sent: 16, Received: 16"
    # MPI_Cart_create: CREATE_HANDLE on its parent with MPICH's context-id mask (256 bytes)
    cat <<EOF | pz_expect_calls falltoallw $r
MPI_Init
MPI_Comm_rank
MPI_Comm_size
MPI_Alltoallw | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END $A2AW $A2AW_AT
MPI_Alltoallw | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: ALLTOALLW, $W, Sent: 12, Received: 12 $INPLACE_AT
MPI_Cart_create | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: CREATE_HANDLE, $W, Sent: 256, Received: 256
MPI_Neighbor_alltoallw | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END $NBR $NBR_AT
MPI_Ialltoallw | ${NBC}_REQUEST Request: #1
MPI_Wait | ${NBC}_COMPLETE $A2AW, Request: #1 $A2AW_AT
MPI_Ineighbor_alltoallw | ${NBC}_REQUEST Request: #2
MPI_Wait | ${NBC}_COMPLETE $NBR, Request: #2 $NBR_AT
MPI_Comm_free
MPI_Finalize
EOF
done
