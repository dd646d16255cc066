# MPI_THREAD_MULTIPLE (programs/threads.c on 2 ranks, 4 threads each talking at the
# same time, thread t with tag 100 + t): no event is lost or mixed up.  Each rank has
# its master thread and locations "Thread 1" to "Thread 4" in its location group; each
# thread location holds exactly its 20 rounds of Irecv/Isend/Waitall/Sendrecv, all with
# one tag, and the 4 threads of a rank use the 4 tags; each thread's completions carry
# the request ids of its own posts.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

THREADS=4 ROUNDS=20

# pz_expect_calls with the request ids taken out of the recorded calls too
pz_expect_calls_masked() {
    pz_calls "$@" | sed 's/Request: #[0-9]*/Request: #/g' >"$PZ_WORK/masked"
    cat >"$PZ_WORK/masked.expected"
    diff -u "$PZ_WORK/masked.expected" "$PZ_WORK/masked" >&2
}
prog=$(pz_program threads) || exit 77
pz_record_ok threads 2 "$prog"
pz_trace threads

W='Communicator: "MPI_COMM_WORLD"'
B="MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0"
grep '^LOCATION ' "$PZ_WORK/threads.defs" | sed 's/ <[0-9]*>//g; s/# Events: [0-9]*, //' |
    awk '{ $1 = ""; print }' | sed 's/^ *//' >"$PZ_WORK/locations"
for r in 0 1; do
    echo "$(pz_loc $r) Name: \"Master thread\", Type: CPU_THREAD, Group: \"MPI Rank $r\""
    for t in $(seq 1 $THREADS); do
        echo "$(pz_loc $r $t) Name: \"Thread $t\", Type: CPU_THREAD, Group: \"MPI Rank $r\""
    done
done >"$PZ_WORK/locations.expected"
diff -u "$PZ_WORK/locations.expected" "$PZ_WORK/locations" >&2 ||
    pz_fail "the locations differ (- expected, + recorded)"

for r in 0 1; do
    p=$((1 - r))
    printf '%s\n' MPI_Init_thread MPI_Comm_rank MPI_Comm_size "$B" MPI_Finalize |
        pz_expect_calls threads $r
    tags=
    for t in $(seq 1 $THREADS); do
        # which thread got which tag depends on which called MPI first
        tag=$(pz_calls threads $r $t | sed -n '2s/.* Tag: \([0-9]*\),.*/\1/p')
        tags="$tags $tag"
        exp=$PZ_WORK/expected.$r.$t
        i=0
        while test $i -lt $ROUNDS; do
            a=$((2 * i + 1)) b=$((2 * i + 2))
            echo "MPI_Irecv | MPI_IRECV_REQUEST Request: #$a"
            echo "MPI_Isend | MPI_ISEND Receiver: $p, $W, Tag: $tag, Length: 8, Request: #$b"
            echo "MPI_Waitall | MPI_IRECV Sender: $p, $W, Tag: $tag, Length: 8, Request: #$a | MPI_ISEND_COMPLETE Request: #$b"
            echo "MPI_Sendrecv | MPI_SEND Receiver: $p, $W, Tag: $tag, Length: 4 | MPI_RECV Sender: $p, $W, Tag: $tag, Length: 4"
            i=$((i + 1))
        done >"$exp"
        # first without the request ids: is every event there?
        sed 's/Request: #[0-9]*/Request: #/g' "$exp" | pz_expect_calls_masked threads $r $t ||
            pz_fail "rank $r thread $t: events lost or changed (- expected, + recorded)"
        # then is every post linked to its own completion?
        pz_expect_calls threads $r $t <"$exp"
    done
    pz_expect_eq "rank $r: the tags of its threads" "100 101 102 103" \
        "$(echo $tags | tr ' ' '\n' | sort -n | tr '\n' ' ' | sed 's/ $//')"
done

# prognoz report analyzes every thread: 2 processes of 5 threads (the main one and the
# 4 that talk), the 2 x 4 x 20 x 2 messages all matched between the processes whatever
# thread sent or received them, and the one barrier; the threads are the processes of
# the analysis, rank by rank, labelled RANK.THREAD.
test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
"$PZ_PROGNOZ" report "$PZ_WORK/threads" --format json --per-process >"$PZ_WORK/report.json" \
    2>"$PZ_WORK/report.err" || { cat "$PZ_WORK/report.err" >&2; pz_fail "prognoz report failed"; }
test ! -s "$PZ_WORK/report.err" || { cat "$PZ_WORK/report.err" >&2; pz_fail "prognoz report: stderr"; }
pz_expect_eq "report: processes, threads, messages, collectives, unmatched, incomplete" \
    "2 10 $((2 * THREADS * ROUNDS * 2)) 1 0 0 0 0" "$("${PZ_PYTHON:-python3}" -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["processes"], r["threads"], r["messages"], r["collectives"], r["unmatched_sends"],
      r["unmatched_receives"], r["incomplete_collectives"], r["clock_violations"])' "$PZ_WORK/report.json")"
pz_expect_eq "report: the threads of the whole run" \
    "0.0 0.1 0.2 0.3 0.4 1.0 1.1 1.2 1.3 1.4" "$("${PZ_PYTHON:-python3}" -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join("%d.%d" % (p["rank"], p["thread"]) for p in r["intervals"][0]["per_process"]))' \
    "$PZ_WORK/report.json")"
"$PZ_PROGNOZ" report "$PZ_WORK/threads" --per-process >"$PZ_WORK/report.txt" 2>&1 ||
    pz_fail "prognoz report (text) failed"
pz_expect_eq "text report: the summary" "Trace: 2 processes (10 threads), $((2 * THREADS * ROUNDS * 2)) messages, 1 collective operations" \
    "$(head -1 "$PZ_WORK/report.txt")"
