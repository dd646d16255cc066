# MPI-IO (programs/io.c on 2 ranks), recorded as Score-P records it: one IoHandle for
# the file both ranks open collectively, created at MPI_File_open and destroyed at
# MPI_File_close; each read, write and sync an IoOperationBegin and IoOperationComplete
# with the bytes requested (count x type size) and transferred (from the status),
# collective for the _all calls and syncs; the nonblocking read is issued by its call
# and completes in MPI_Wait; the split collective read begins at _begin and completes
# at _end; a seek is an IoSeek with the resulting byte offset.  Closing and deleting
# the file are regions only; the MPI calls ROMIO makes inside them are not recorded.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/reads.sh"

prog=$(pz_program io) || exit 77
pz_record_ok io 2 "$prog" "$PZ_WORK/io.dat"
pz_trace io
test -e "$PZ_WORK/io.dat" && pz_fail "io: the program did not delete its file"

# one paradigm, one file, one handle on MPI_COMM_WORLD
pz_expect_eq "io: I/O paradigms" 1 "$(grep -c '^IO_PARADIGM ' "$PZ_WORK/io.defs")"
pz_expect_eq "io: files" 1 "$(grep -c "^IO_REGULAR_FILE .*Name: \"$PZ_WORK/io.dat\"" "$PZ_WORK/io.defs")"
pz_expect_eq "io: handles" 1 "$(grep '^IO_HANDLE ' "$PZ_WORK/io.defs" | grep -c 'Communicator: "MPI_COMM_WORLD"')"

H="Handle: \"$PZ_WORK/io.dat\""
BARRIER='MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, Communicator: "MPI_COMM_WORLD", Root: NONE, Sent: 0, Received: 0'
# an operation of the blocking call CALL: MODE, FLAGS, bytes requested and transferred
op() {
    echo "$1 | IO_OPERATION_BEGIN $H, Mode: $2, Operation Flags: $3, Bytes Request: $4, Matching Id: 0 | IO_OPERATION_COMPLETE $H, Bytes Result: $4, Matching Id: 0"
}
SPLIT=9223372036854775808
for r in 0 1; do
    {
        printf '%s\n' MPI_Init MPI_Comm_rank
        echo "MPI_File_open | IO_CREATE_HANDLE $H, Access Mode: READ_WRITE, Creation Flags: {CREATE}, Status Flags: NONE"
        op MPI_File_write_at_all WRITE '{COLLECTIVE}' 16
        # rank r's 2 ints go after the 8 of the collective write and rank 0's 2
        echo "MPI_File_seek | IO_SEEK $H, Offset Request: $((32 + 8 * r)), Whence: FROM_START, Offset Result: $((32 + 8 * r))"
        op MPI_File_write WRITE NONE 8
        op MPI_File_sync FLUSH '{COLLECTIVE}' 0
        echo "$BARRIER"
        op MPI_File_sync FLUSH '{COLLECTIVE}' 0
        op MPI_File_read_at_all READ '{COLLECTIVE}' 32
        op MPI_File_read_at READ NONE 16
        echo "MPI_File_iread_at | IO_OPERATION_BEGIN $H, Mode: READ, Operation Flags: {NON_BLOCKING}, Bytes Request: 8, Matching Id: 1 | IO_OPERATION_ISSUED $H, Matching Id: 1"
        echo "MPI_Wait | IO_OPERATION_COMPLETE $H, Bytes Result: 8, Matching Id: 1"
        echo "MPI_File_read_at_all_begin | IO_OPERATION_BEGIN $H, Mode: READ, Operation Flags: {COLLECTIVE}, Bytes Request: 32, Matching Id: $SPLIT"
        echo "MPI_File_read_at_all_end | IO_OPERATION_COMPLETE $H, Bytes Result: 32, Matching Id: $SPLIT"
        echo "MPI_File_close | IO_DESTROY_HANDLE $H"
        echo "$BARRIER"
        test "$r" = 0 && echo MPI_File_delete
        echo MPI_Finalize
    } | pz_expect_calls io "$r"
done
pz_reads_trace io
# the prediction replays the MPI-IO calls at their recorded time, and says so
grep -q "^prognoz predict: I/O is not modelled: the run's [0-9]* MPI-IO calls are replayed at their recorded time x io_scale (gigabit-switch 1)\$" \
    "$PZ_WORK/io.predict.err" || pz_fail "io: prognoz predict does not say that I/O is not modelled"

# The report: I/O time a part of MPI time; each rank read 32 + 16 + 8 + 32 = 88 bytes
# (collective, independent, nonblocking, split collective) and wrote 16 + 8 = 24, so the
# whole run 176 and 48; no one-sided communication.
grep -q '^I/O Time [0-9.]* (Read 176 B, Written 48 B)$' "$PZ_WORK/io.report" ||
    pz_fail "io: the report's I/O line is not as expected: $(grep '^I/O Time' "$PZ_WORK/io.report")"
grep -q '^One-Sided Time 0.000000 (Put 0 B, Got 0 B)$' "$PZ_WORK/io.report" ||
    pz_fail "io: the report's one-sided line is not as expected"
"$PZ_PROGNOZ" report "$PZ_WORK/io" --format json --per-process >"$PZ_WORK/io.json" ||
    pz_fail "io: prognoz report --format json failed"
"${PZ_PYTHON:-python3}" - "$PZ_WORK/io.json" <<'PY' || pz_fail "io: the JSON report's I/O figures are not as expected"
import json, sys
run = json.load(open(sys.argv[1]))["intervals"][0]
main, procs = run["main"], [p["values"] for p in run["per_process"]]
assert (main["io_bytes_read"], main["io_bytes_written"]) == (176, 48), main
assert (main["rma_bytes_put"], main["rma_bytes_got"], main["rma_time"]) == (0, 0, 0), main
assert 0 < main["io_time"] <= main["mpi_time"], main
for p in procs:
    assert (p["io_bytes_read"], p["io_bytes_written"]) == (88, 24), p
    assert 0 < p["io_time"] <= p["mpi_time"], p
assert abs(main["io_time"] - sum(p["io_time"] for p in procs)) < 1e-6, main
PY

# The prediction keeps the recorded I/O records (docs/predict.md), so it reads and
# writes what the recording does, whether it is analyzed as it is predicted (the
# default) or from its trace: the same figures as the report's, in its text and in its
# JSON, per process too.
grep -q '^I/O Time [0-9.]* (Read 176 B, Written 48 B)$' "$PZ_WORK/io.predict" ||
    pz_fail "io: the prediction's I/O line is not as expected: $(grep '^I/O Time' "$PZ_WORK/io.predict")"
pz_predicted_ok io '
import json, sys
run = json.load(open(sys.argv[1]))["predictions"][0]["report"]["intervals"][0]
main, procs = run["main"], [p["values"] for p in run["per_process"]]
assert (main["io_bytes_read"], main["io_bytes_written"]) == (176, 48), main
assert (main["rma_bytes_put"], main["rma_bytes_got"]) == (0, 0), main
for p in procs:
    assert (p["io_bytes_read"], p["io_bytes_written"]) == (88, 24), p
    assert 0 < p["io_time"] <= p["mpi_time"], p
'

# The nonblocking read: with io_scale 100, each rank's MPI_Wait that completes it ends
# 100 x its recorded duration (IoOperationBegin in MPI_File_iread_at to
# IoOperationComplete in MPI_Wait) after the predicted enter of MPI_File_iread_at,
# much later than its own recorded time would take it.  The predicted trace has the
# recorded I/O records, each location's in their order with their fields (but their
# times), and its report the recorded bytes.
sed -e 's/^name = .*/name = io100/' "$PZ_TOP_SRCDIR/share/machines/gigabit-switch.conf" \
    >"$PZ_WORK/io100.conf"
echo 'io_scale = 100' >>"$PZ_WORK/io100.conf"
"$PZ_PROGNOZ" predict "$PZ_WORK/io" --machine "$PZ_WORK/io100.conf" --quiet \
    --trace-out "$PZ_WORK/io-predicted" >/dev/null 2>"$PZ_WORK/io100.err" ||
    pz_fail "io: prognoz predict on io_scale 100 failed: $(cat "$PZ_WORK/io100.err")"
pz_print "$PZ_WORK/io-predicted.events" "$PZ_WORK/io-predicted/traces.otf2"
# each I/O record without its time, a location's in their order
io_records() {
    awk '$1 ~ /^IO_/ { $3 = ""; print }' "$1" | sort -s -k2,2n
}
# 20 per rank: the handle's creation and destruction, a seek, 7 operations' begins and
# completions, the nonblocking read's issue (the calls above)
pz_expect_eq "io: the recorded I/O records" 40 "$(io_records "$PZ_WORK/io.events" | wc -l)"
pz_expect_eq "io: the I/O records of the predicted trace" \
    "$(io_records "$PZ_WORK/io.events")" "$(io_records "$PZ_WORK/io-predicted.events")"
pz_prognoz_ok io-predicted.report report "$PZ_WORK/io-predicted"
grep -q '^I/O Time [0-9.]* (Read 176 B, Written 48 B)$' "$PZ_WORK/io-predicted.report" ||
    pz_fail "io: the predicted trace's I/O line is not as expected: $(grep '^I/O Time' "$PZ_WORK/io-predicted.report")"
awk -v predicted="$PZ_WORK/io-predicted.events" '
    $1 == "IO_OPERATION_BEGIN" && /NON_BLOCKING/ && /Matching Id: 1$/ { begun[$2] = $3 }
    $1 == "IO_OPERATION_COMPLETE" && /Matching Id: 1$/ { done[$2] = $3 }
    END {
        while ((getline line < predicted) > 0) {
            split(line, f, " ")
            if (f[1] == "ENTER" && line ~ /"MPI_File_iread_at"/) enter[f[2]] = f[3]
            if (f[1] == "LEAVE" && line ~ /"MPI_Wait"/) leave[f[2]] = f[3]
        }
        for (loc in begun) {
            n++
            want = enter[loc] + 100 * (done[loc] - begun[loc])
            if (!(loc in done) || leave[loc] - want > 2 || want - leave[loc] > 2) {
                print "location " loc ": MPI_Wait ends at " leave[loc] ", expected " want
                bad = 1
            }
        }
        exit bad || n != 2
    }' "$PZ_WORK/io.events" ||
    pz_fail "io: the MPI_Wait of the nonblocking read does not last until its predicted end"
