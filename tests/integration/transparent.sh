# The recorder changes nothing a program sees (programs/transparent.c on 2 ranks): the
# same stdout (error classes and messages of calls failing under MPI_ERRORS_RETURN,
# statuses, flags), the same stderr but for the recorder's one summary line, and the
# same exit status (3, set after MPI_Finalize).  The failed calls are recorded
# without message or collective events.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program transparent) || exit 77

# MPICH's error codes and messages hold run-dependent bits and addresses
mask() {
    sed 's/code [1-9][0-9]*/code <nonzero>/; s/0x[0-9a-f]*/0x?/g' "$1"
}

pz_mpiexec -n 2 "$prog" >"$PZ_WORK/plain.out" 2>"$PZ_WORK/plain.err"
plain_rc=$?
pz_record transparent 2 "$prog"
rc=$?
pz_expect_eq "exit status without the recorder" 3 "$plain_rc"
pz_expect_eq "exit status with the recorder" "$plain_rc" "$rc"
grep -q '^exiting with 3$' "$PZ_WORK/plain.out" || pz_fail "the program did not run to its end"
mask "$PZ_WORK/plain.out" >"$PZ_WORK/plain.masked"
mask "$PZ_WORK/transparent.out" >"$PZ_WORK/transparent.masked"
diff -u "$PZ_WORK/plain.masked" "$PZ_WORK/transparent.masked" >&2 ||
    pz_fail "stdout differs with the recorder (- without, + with)"
# MPI_ERR_RANK is class 6 in MPICH and Open MPI; their texts differ ("Invalid rank",
# "MPI_ERR_RANK: invalid rank")
grep -c 'class 6: .*[Ii]nvalid rank' "$PZ_WORK/transparent.out" | grep -qx 2 ||
    pz_fail "the invalid ranks did not both return MPI_ERR_RANK"
grep -v '^prognoz: recorded [0-9]* events of 2 processes in ' "$PZ_WORK/transparent.err" >"$PZ_WORK/transparent.err.rest"
pz_launcher_err "$PZ_WORK/transparent.err.rest" >"$PZ_WORK/transparent.err.masked"
pz_launcher_err "$PZ_WORK/plain.err" | diff -u - "$PZ_WORK/transparent.err.masked" >&2 ||
    pz_fail "stderr differs with the recorder beyond its summary line (- without, + with)"
test "$(grep -c '^prognoz: recorded' "$PZ_WORK/transparent.err")" = 1 ||
    pz_fail "expected one summary line on stderr"
pz_trace transparent

W='Communicator: "MPI_COMM_WORLD"'
pz_expect_calls transparent 0 <<EOF
MPI_Init
MPI_Comm_rank
MPI_Comm_size
MPI_Send
MPI_Recv
MPI_Bcast
MPI_Isend
MPI_Probe
MPI_Get_count
MPI_Iprobe
MPI_Recv | MPI_RECV Sender: 1, $W, Tag: 9, Length: 12$PZ_ANY
MPI_Get_count
MPI_Iprobe
MPI_Wait
MPI_Get_count
MPI_Test
MPI_Recv
MPI_Get_count
MPI_Finalize
EOF
pz_expect_calls transparent 1 <<EOF
MPI_Init
MPI_Comm_rank
MPI_Comm_size
MPI_Send
MPI_Recv
MPI_Bcast
MPI_Isend
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 9, Length: 12
MPI_Wait
MPI_Test
MPI_Recv
MPI_Finalize
EOF
