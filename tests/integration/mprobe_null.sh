# MPI_Improbe, MPI_Imrecv, MPI_Test and MPI_Mprobe, MPI_Mrecv on MPI_PROC_NULL, as
# MPICH's test pt2pt/mprobe does them, around one real message (programs/mprobe_null.c
# on 2 ranks).  The run is correct and completes: prognoz report counts the one message
# and no unmatched receive; prognoz predict replays it to the end (the receive of the
# message MPI_Improbe found at MPI_PROC_NULL completes at once, with no message) and
# its predicted trace reads like the recording: the same calls, the same one message.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program mprobe_null) || exit 77
test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"

pz_record_ok mprobe_null 2 "$prog"

pz_expect_trace_line mprobe_null "Trace: 2 processes, 1 messages, 1 collective operations"

# the same calls, each as many times, in the recording and in the prediction
calls() {
    sed -n '/^---MPI Functions/,$p' "$1" | awk 'NR > 2 && NF >= 2 { print $1, $2 }' | sort
}
pz_expect_eq "the calls of the predicted run" "$(calls "$PZ_WORK/report.txt")" \
    "$(calls "$PZ_WORK/predicted.txt")"

# exported for SimGrid: the one message, and no action for the operations on
# MPI_PROC_NULL, which complete at once and move nothing
rm -rf "$PZ_WORK/simgrid"
pz_prognoz_ok export.txt export "$PZ_WORK/mprobe_null" --simgrid "$PZ_WORK/simgrid" \
    --machine "$PZ_TOP_SRCDIR/tests/integration/ideal.conf"
pz_expect_eq "export: the point-to-point actions" "0 send 1 3 4;1 recv 0 3 4;" \
    "$(cat "$PZ_WORK"/simgrid/rank-*.txt | grep -E '^[0-9]+ (i?send|i?recv|wait) ' | tr '\n' ';')"
