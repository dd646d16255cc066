# One-sided communication (programs/rma.c on 2 ranks), recorded as Score-P records it:
# a window per creation (RmaWin on MPI_COMM_WORLD), created and freed as collective
# operations on it (RmaCollectiveBegin, RmaWinCreate or RmaWinDestroy, RmaCollectiveEnd
# CREATE_HANDLE or DESTROY_HANDLE); fences are collective BARRIERs on the window; puts,
# gets and atomic operations carry their target and the bytes of the origin (and result)
# buffer; locks and unlocks are RmaRequestLock and RmaReleaseLock (all targets for the
# _all forms), flushes RmaSync; the Rput's request completes in MPI_Wait with an
# RmaOpCompleteNonBlocking; post and start are RmaGroupSync (PROCESS) with the group
# they name, complete and wait RmaGroupSync (PROCESS, MEMORY) with their epoch's, a
# group defined as an OTF2 COMM_GROUP of its world ranks.  The calls the MPI library
# makes inside them are not recorded.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/reads.sh"

prog=$(pz_program rma) || exit 77
pz_record_ok rma 2 "$prog"
pz_trace rma

pz_expect_eq "rma: windows on MPI_COMM_WORLD" 2 \
    "$(grep '^RMA_WIN ' "$PZ_WORK/rma.defs" | grep -c 'Communicator: "MPI_COMM_WORLD"')"

# the epochs' groups: rank 0's (world rank 1), then rank 1's (world rank 0)
pz_expect_eq "rma: the epochs' groups" \
    "$(printf '%s\n' '"MPI group 0" COMM_GROUP 1' '"MPI group 1" COMM_GROUP 0')" \
    "$(awk '/^GROUP .*Name: "MPI group/ {
        sub(/.*Name: /, ""); sub(/ <[0-9]+>, Type: /, " "); sub(/, Paradigm.*Member: /, " ");
        sub(/ \(.*/, ""); print }' "$PZ_WORK/rma.defs")"

# a collective OPERATION on window W with sync LEVEL, around EVENT
coll() {
    echo "$1 | RMA_COLLECTIVE_BEGIN${4:+ | $4} | RMA_COLLECTIVE_END Operation: $2, Window: \"MPI window $3\", Level of Synchronicity: {$5}, Root: NONE, Sent: 0, Received: 0"
}
for r in 0 1; do
    o=$((1 - r))
    W0='Window: "MPI window 0"'
    {
        printf '%s\n' MPI_Init MPI_Comm_rank
        coll MPI_Win_create CREATE_HANDLE 0 "RMA_WIN_CREATE $W0" PROCESS
        FENCE=$(coll MPI_Win_fence BARRIER 0 "" "PROCESS, MEMORY")
        echo "$FENCE"
        echo "MPI_Put | RMA_PUT $W0, Remote: $o, Bytes: 8, Matching: 0"
        echo "$FENCE"
        echo "MPI_Get | RMA_GET $W0, Remote: $o, Bytes: 8, Matching: 0"
        echo "$FENCE"
        if test "$r" = 0; then
            echo "MPI_Win_lock | RMA_REQUEST_LOCK $W0, Remote: 1, Lock: 1, Type: EXCLUSIVE"
            echo "MPI_Accumulate | RMA_ATOMIC $W0, Remote: 1, Type: ACCUMULATE, Sent: 16, Received: 0, Matching: 0"
            echo "MPI_Fetch_and_op | RMA_ATOMIC $W0, Remote: 1, Type: FETCH_AND_ACCUMULATE, Sent: 4, Received: 4, Matching: 0"
            echo "MPI_Compare_and_swap | RMA_ATOMIC $W0, Remote: 1, Type: COMPARE_AND_SWAP, Sent: 4, Received: 4, Matching: 0"
            echo "MPI_Win_flush | RMA_SYNC $W0, Remote: 1, Sync Type: MEMORY"
            echo "MPI_Win_unlock | RMA_RELEASE_LOCK $W0, Remote: 1, Lock: 1"
        fi
        echo "MPI_Win_lock_all | RMA_REQUEST_LOCK $W0, Remote: UNDEFINED, Lock: 18446744073709551615, Type: SHARED"
        # the process's first request: matching id 1
        echo "MPI_Rput | RMA_PUT $W0, Remote: $o, Bytes: 4, Matching: 1"
        echo "MPI_Wait | RMA_OP_COMPLETE_NON_BLOCKING $W0, Matching: 1"
        echo "MPI_Win_flush_all | RMA_SYNC $W0, Remote: UNDEFINED, Sync Type: MEMORY"
        echo "MPI_Win_unlock_all | RMA_RELEASE_LOCK $W0, Remote: UNDEFINED, Lock: 18446744073709551615"
        coll MPI_Win_free DESTROY_HANDLE 0 "RMA_WIN_DESTROY $W0" PROCESS
        coll MPI_Win_allocate CREATE_HANDLE 1 'RMA_WIN_CREATE Window: "MPI window 1"' PROCESS
        # each epoch's group is the other rank; rank 0's is the run's first
        W1='Window: "MPI window 1"' G="Group: \"MPI group $r\""
        printf '%s\n' MPI_Comm_group MPI_Group_incl
        echo "MPI_Win_post | RMA_GROUP_SYNC Level of Synchronicity: {PROCESS}, $W1, $G"
        echo "MPI_Win_start | RMA_GROUP_SYNC Level of Synchronicity: {PROCESS}, $W1, $G"
        echo "MPI_Put | RMA_PUT $W1, Remote: $o, Bytes: 4, Matching: 0"
        echo "MPI_Win_complete | RMA_GROUP_SYNC Level of Synchronicity: {PROCESS, MEMORY}, $W1, $G"
        echo "MPI_Win_wait | RMA_GROUP_SYNC Level of Synchronicity: {PROCESS, MEMORY}, $W1, $G"
        printf '%s\n' MPI_Group_free MPI_Group_free
        coll MPI_Win_free DESTROY_HANDLE 1 'RMA_WIN_DESTROY Window: "MPI window 1"' PROCESS
        echo MPI_Finalize
    } | pz_expect_calls rma "$r"
done
pz_reads_trace rma

# The report: one-sided time a part of MPI time.  Rank 0 put 8 + 16 + 4 + 4 + 4 + 4 = 40
# bytes (Put, Accumulate, Fetch_and_op, Compare_and_swap, Rput, Put) and got 8 + 4 + 4
# = 16 (Get, the two fetches); rank 1 put 8 + 4 + 4 = 16 and got 8; the run 56 and 24.
grep -q '^One-Sided Time [0-9.]* (Put 56 B, Got 24 B)$' "$PZ_WORK/rma.report" ||
    pz_fail "rma: the report's one-sided line is not as expected: $(grep '^One-Sided' "$PZ_WORK/rma.report")"
grep -q '^I/O Time 0.000000 (Read 0 B, Written 0 B)$' "$PZ_WORK/rma.report" ||
    pz_fail "rma: the report's I/O line is not as expected"
"$PZ_PROGNOZ" report "$PZ_WORK/rma" --format json --per-process >"$PZ_WORK/rma.json" ||
    pz_fail "rma: prognoz report --format json failed"
"${PZ_PYTHON:-python3}" - "$PZ_WORK/rma.json" <<'PY' || pz_fail "rma: the JSON report's one-sided figures are not as expected"
import json, sys
run = json.load(open(sys.argv[1]))["intervals"][0]
main, procs = run["main"], [p["values"] for p in run["per_process"]]
assert (main["rma_bytes_put"], main["rma_bytes_got"]) == (56, 24), main
assert (main["io_bytes_read"], main["io_bytes_written"], main["io_time"]) == (0, 0, 0), main
assert [(p["rma_bytes_put"], p["rma_bytes_got"]) for p in procs] == [(40, 16), (16, 8)], procs
for p in procs:
    assert 0 < p["rma_time"] <= p["mpi_time"], p
PY

# The prediction (docs/predict.md, "One-sided communication"): each Put, Get and atomic
# operation a transfer to or from its target, completed by the fence, unlock, flush or
# wait of its epoch, on a switch and on a hub: no refusal, no run that cannot complete,
# nothing on stderr (the run has no I/O), and the predicted trace keeps every one-sided
# record of the recorded one.
rma_records() {
    "$OTF2_PRINT" "$1" | awk '/^RMA_/ { print $1 }' | sort | uniq -c
}
for machine in gigabit-switch ethernet-100-hub; do
    rm -rf "$PZ_WORK/rma.$machine"
    timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" predict "$PZ_WORK/rma" --machine "$machine" \
        --trace-out "$PZ_WORK/rma.$machine" >"$PZ_WORK/rma.predict" 2>"$PZ_WORK/rma.predict.err"
    rc=$?
    # the one note a loaded machine may add: the recorded run was oversubscribed
    if test $rc != 0 || grep -v 'oversubscribed' "$PZ_WORK/rma.predict.err" >&2; then
        pz_fail "rma: prognoz predict on $machine exited with status $rc and wrote the above"
    fi
    test -n "$(rma_records "$PZ_WORK/rma.$machine/traces.otf2")" ||
        pz_fail "rma: no one-sided record in the trace predicted on $machine"
    pz_expect_eq "rma: the one-sided records predicted on $machine" \
        "$(rma_records "$PZ_WORK/rma/traces.otf2")" \
        "$(rma_records "$PZ_WORK/rma.$machine/traces.otf2")"
done

# The prediction puts and gets what the recording does, whether it is analyzed as it is
# predicted (the default) or from its trace, and so does the report of its trace.
pz_predicted_ok rma '
import json, sys
run = json.load(open(sys.argv[1]))["predictions"][0]["report"]["intervals"][0]
main, procs = run["main"], [p["values"] for p in run["per_process"]]
assert (main["rma_bytes_put"], main["rma_bytes_got"]) == (56, 24), main
assert (main["io_bytes_read"], main["io_bytes_written"]) == (0, 0), main
assert [(p["rma_bytes_put"], p["rma_bytes_got"]) for p in procs] == [(40, 16), (16, 8)], procs
'
pz_prognoz_ok rma-switch.report report "$PZ_WORK/rma-switch"
grep -q '^One-Sided Time [0-9.]* (Put 56 B, Got 24 B)$' "$PZ_WORK/rma-switch.report" ||
    pz_fail "rma: the predicted trace's one-sided line is not as expected: $(grep '^One-Sided' "$PZ_WORK/rma-switch.report")"
