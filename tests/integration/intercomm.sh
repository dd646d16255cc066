# Collectives on an intercommunicator (programs/intercomm.c on 4 ranks: group A = {world
# 0}, group B = {worlds 1, 2, 3}): recorded on the communicator MPI_Intercomm_create made,
# the roots as ranks in the root's group (the root and the other group name it, the
# rest of the root's group none), read by prognoz report, and predicted by MPICH 4's
# algorithms for intercommunicators with no refusal and no deadlock, the second Bcast's
# root being B's rank 1: the predicted trace has every collective of every process, in
# order.  The SimGrid export refuses them.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"

prog=$(pz_program intercomm) || exit 77
pz_record_ok intercomm 4 "$prog"
pz_trace intercomm
INTER=$(sed -n 's/^INTER_COMM .* name: "\([^"]*(MPI_Intercomm_create)\)".*/\1/p' \
    "$PZ_WORK/intercomm.defs")
test -n "$INTER" || pz_fail "intercomm: no communicator made by MPI_Intercomm_create"

# collectives OPERATIONS... < TRACE PRINT: the operations of each location's collectives
# on the intercommunicator, in order, one line per location: "LOCATION OP OP ...".
collectives() {
    awk -v comm="\"$INTER\"" '
        $1 == "MPI_COLLECTIVE_END" && index($0, "Communicator: " comm " <") {
            op = $0; sub(/.*Operation: /, "", op); sub(/,.*/, "", op)
            ops[$2] = ops[$2] " " op
        }
        END { for (l in ops) print l ops[l] }' | sort -n
}

# Every rank: Barrier, the Bcast from A, the Bcast from B, Allreduce, Allgather,
# Alltoall, Reduce; and the two constructors' CREATE_HANDLE besides (the split on
# MPI_COMM_WORLD, MPI_Intercomm_create on the group's communicator): 9 in all.
for l in 0 1 2 3; do
    echo "$l BARRIER BCAST BCAST ALLREDUCE ALLGATHER ALLTOALL REDUCE"
done >"$PZ_WORK/expected.ops"
collectives <"$PZ_WORK/intercomm.events" >"$PZ_WORK/recorded.ops"
diff -u "$PZ_WORK/expected.ops" "$PZ_WORK/recorded.ops" >&2 ||
    pz_fail "intercomm: the recorded collectives differ (- expected, + recorded)"

# The roots of the two Bcasts and of the Reduce per location: A's rank 0, B's rank 1
# (world 2), A's rank 0; NONE where the root's group does not take part.
awk -v comm="\"$INTER\"" '
    $1 == "MPI_COLLECTIVE_END" && index($0, "Communicator: " comm " <") &&
    /Operation: (BCAST|REDUCE),/ {
        root = $0; sub(/.*Root: /, "", root); sub(/[ ,].*/, "", root)
        roots[$2] = roots[$2] " " root
    }
    END { for (l in roots) print l roots[l] }' "$PZ_WORK/intercomm.events" | sort -n \
    >"$PZ_WORK/recorded.roots"
printf '%s\n' "0 0 1 0" "1 0 NONE 0" "2 0 1 0" "3 0 NONE 0" >"$PZ_WORK/expected.roots"
diff -u "$PZ_WORK/expected.roots" "$PZ_WORK/recorded.roots" >&2 ||
    pz_fail "intercomm: the recorded roots differ (- expected, + recorded)"

"$PZ_PROGNOZ" report "$PZ_WORK/intercomm" >"$PZ_WORK/report.out" 2>"$PZ_WORK/report.err" ||
    { cat "$PZ_WORK/report.err" >&2; pz_fail "intercomm: prognoz report failed"; }

timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" predict "$PZ_WORK/intercomm" --machine gigabit-switch \
    --trace-out "$PZ_WORK/predicted" >"$PZ_WORK/predict.out" 2>"$PZ_WORK/predict.err"
rc=$?
# the one note a loaded machine may add: the recorded run was oversubscribed
if test $rc != 0 || grep -v 'oversubscribed' "$PZ_WORK/predict.err" >&2; then
    pz_fail "intercomm: prognoz predict exited with status $rc and wrote the above"
fi
pz_print "$PZ_WORK/predicted.events" "$PZ_WORK/predicted/traces.otf2"
collectives <"$PZ_WORK/predicted.events" >"$PZ_WORK/predicted.ops"
diff -u "$PZ_WORK/expected.ops" "$PZ_WORK/predicted.ops" >&2 ||
    pz_fail "intercomm: the predicted collectives differ (- expected, + predicted)"
for l in 0 1 2 3; do
    n=$(awk -v l="$l" '$1 == "MPI_COLLECTIVE_END" && $2 == l' "$PZ_WORK/predicted.events" | wc -l)
    pz_expect_eq "intercomm: collectives of rank $l in the predicted trace" 9 "$n"
done

# SimGrid's replay has no collectives on intercommunicators: the export refuses the
# trace in one line naming them, with status 1.
"$PZ_PROGNOZ" export "$PZ_WORK/intercomm" --simgrid "$PZ_WORK/sg" --machine gigabit-switch \
    >/dev/null 2>"$PZ_WORK/export.err"
rc=$?
if test $rc != 1 || test "$(wc -l <"$PZ_WORK/export.err")" != 1 ||
    ! grep -q 'collective on intercommunicator' "$PZ_WORK/export.err"; then
    cat "$PZ_WORK/export.err" >&2
    pz_fail "intercomm: export --simgrid exited with status $rc, expected a refusal"
fi
