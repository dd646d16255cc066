# MPI 4.0's constructors from groups (programs/fromgroups.c on 2 ranks):
# MPI_Comm_create_from_group defines a communicator of both ranks, with its collective
# CREATE_HANDLE on it, as only its members call it and it has no parent;
# MPI_Intercomm_create_from_groups an intercommunicator of the two ranks, each its own
# group, with no collective (none is recorded on an intercommunicator).  One message
# over each: prognoz report counts them, and prognoz predict replays the run to the end.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"

prog=$(pz_program fromgroups) || exit 77
pz_record_ok fromgroups 2 "$prog"
pz_trace fromgroups
C=$(pz_comm_named fromgroups MPI_Comm_create_from_group "0 1")
I=$(sed -n 's/^INTER_COMM .* name: "\([^"]*(MPI_Intercomm_create_from_groups)\)".*/\1/p' \
    "$PZ_WORK/fromgroups.defs")
test -n "$I" || pz_fail "fromgroups: no intercommunicator made by MPI_Intercomm_create_from_groups"
# its groups: world rank 0, then world rank 1, a group each
pz_expect_eq "fromgroups: the intercommunicator's groups" "0|1" "$(awk -v name="\"$I\"" '
    /^GROUP / && index($0, "Name: " name " <") { m = $0; sub(/.* Member: /, "", m); sub(/ .*/, "", m); g = g sep m; sep = "|" }
    END { print g }' "$PZ_WORK/fromgroups.defs")"

# Each rank: the CREATE_HANDLE of MPICH's context-id Allreduce over the new
# communicator (256 bytes each way), the 1-int message over it, no collective in
# MPI_Intercomm_create_from_groups, the 2-int message over the intercommunicator to
# the other group's rank 0.
for r in 0 1; do
    if test $r = 0; then
        first="MPI_Send | MPI_SEND Receiver: 1, Communicator: \"$C\", Tag: 1, Length: 4"
        second="MPI_Send | MPI_SEND Receiver: 0, Communicator: \"$I\", Tag: 2, Length: 8"
    else
        first="MPI_Recv | MPI_RECV Sender: 0, Communicator: \"$C\", Tag: 1, Length: 4"
        second="MPI_Recv | MPI_RECV Sender: 0, Communicator: \"$I\", Tag: 2, Length: 8"
    fi
    cat <<EOT | pz_expect_calls fromgroups "$r"
MPI_Init
MPI_Comm_rank
MPI_Comm_size
MPI_Comm_group
MPI_Comm_create_from_group | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: CREATE_HANDLE, Communicator: "$C", Root: NONE, Sent: 256, Received: 256
$first
MPI_Group_incl
MPI_Group_incl
MPI_Intercomm_create_from_groups
$second
MPI_Comm_free
MPI_Comm_free
MPI_Group_free
MPI_Group_free
MPI_Group_free
MPI_Finalize
EOT
done

# the two messages and the one constructor's collective
pz_expect_trace_line fromgroups "Trace: 2 processes, 2 messages, 1 collective operations"
