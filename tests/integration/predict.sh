# prognoz predict on a real run (programs/predict_balanced.c on 2 ranks: 5 steps of
# 20 ms of computation, an MPI_Sendrecv and an MPI_Allreduce, in interval 2 inside
# interval 1).
#
# On integration/ideal.conf, where communication is free, the predicted run takes its
# computation and nothing more: its execution time lies between the compute-only time
# and the recorded execution time (both bounds exact, see below), and within 20% of the
# compute-only time when the load of the machine did not unbalance the recording; it
# is a consistent trace (no clock-condition violation) whose waits are all its MPI time.
# On a machine with 10 ms of latency it is at least 100 ms longer.  Several machines give
# the side-by-side table as text; as JSON, the recorded report and each machine's report,
# machine and prediction, the shape of one machine too.  --trace-out writes a trace
# otf2-print and prognoz report read, and refuses to overwrite one; -o writes the report
# to a file, never into a directory; --opt=value is --opt value.  Errors (no trace, a
# wrong machine file, a wrong --coll or --mpi, no --machine) give one line on stderr and
# a usage (2) or failure (1) status.
# --coll and --mpi give a report; with PROGNOZ_CPU_TIME=1 at record time, --compute cpu
# predicts the 100 ms of CPU time each rank computed, of the order of --compute wall.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program predict_balanced) || exit 77
PY=${PZ_PYTHON:-python3}
"$PY" -c 'import json' 2>/dev/null || PY=python3
src=$PZ_TOP_SRCDIR/tests/programs/predict_balanced.c
LOOP=$(pz_line "$src" '@loop') || exit 1
STEP=$(pz_line "$src" '@step') || exit 1
ideal=$PZ_TOP_SRCDIR/tests/integration/ideal.conf
slow=$PZ_WORK/slow.conf
sed -e 's/^name = .*/name = slow/' -e 's/^latency = .*/latency = 10ms/' "$ideal" >"$slow"
out=$PZ_WORK/predict.out
err=$PZ_WORK/predict.err

# Python helpers shared by the checks below: load(PATH), check(COND, WHAT), near(GOT,
# WANT, TOL, WHAT), done() (prints the failures, exits 1 if any).
cat >"$PZ_WORK/pzcheck.py" <<'EOF'
import json, re, sys

failures = []


# The members every document begins with (docs/report.md, "JSON").
HEAD = ["format", "prognoz", "trace", "recording"]


def load(path):
    """A JSON document; a prediction on one machine as the predicted run's report with
    its "machine" and "prediction" (and the "recorded" report), as the checks read it."""
    with open(path) as f:
        doc = json.load(f)
    if doc.get("format", {}).get("name") == "prognoz-prediction" and len(doc["predictions"]) == 1:
        p = doc["predictions"][0]
        return dict(p["report"], machine=p["machine"], prediction=p["prediction"],
                    recorded=doc["recorded"])
    return doc


def check(cond, what):
    if not cond:
        failures.append(what)


def near(got, want, tol, what):
    check(abs(got - want) <= tol, "%s: %.9f s, expected %.9f s within %.9f s" % (what, got, want, tol))


def calls(events, defs, names):
    """(ENTER or LEAVE, location, seconds, region) of the calls named in names, from
    pz_trace's otf2-print events and definitions files."""
    with open(defs) as f:
        found = re.search(r"CLOCK_PROPERTIES .*Ticks per Seconds: (\d+)", f.read())
    check(found, "no clock properties in %s" % defs)
    ticks = float(found.group(1)) if found else 1.0
    pattern = re.compile(r'(ENTER|LEAVE) +(\d+) +(\d+) +Region: "(%s)"' % "|".join(names))
    with open(events) as f:
        for line in f:
            m = pattern.match(line)
            if m:
                yield m.group(1), int(m.group(2)), int(m.group(3)) / ticks, m.group(4)


def ids(report):
    return [(iv["file"], iv["line"], iv["id"], iv["level"]) for iv in report["intervals"]]


def done():
    for f in failures:
        print("predict: " + f, file=sys.stderr)
    sys.exit(1 if failures else 0)
EOF
export PYTHONPATH="$PZ_WORK${PYTHONPATH:+:$PYTHONPATH}"

# predict EXPECTED_STATUS ARGS...: prognoz predict ARGS under the timeout, stdout in
# $out, stderr in $err; the exit status must be EXPECTED_STATUS ("fail": any status
# from 1 to 127, a failure and not a crash or a timeout).
predict() {
    _want=$1
    shift
    timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" predict "$@" >"$out" 2>"$err"
    _rc=$?
    if test "$_rc" = 124; then
        pz_fail "prognoz predict $*: timed out after ${PZ_TIMEOUT}s"
    elif test "$_rc" -ge 128; then
        cat "$err" >&2
        pz_fail "prognoz predict $*: killed by a signal (exit status $_rc)"
    elif test "$_want" = fail && test "$_rc" = 0; then
        cat "$out" "$err" >&2
        pz_fail "prognoz predict $*: exit status 0, expected a failure"
    elif test "$_want" != fail && test "$_rc" != "$_want"; then
        cat "$out" "$err" >&2
        pz_fail "prognoz predict $*: exit status $_rc, expected $_want"
    fi
}

# predict_ok ARGS...: prognoz predict that exits 0 and writes nothing to stderr.
predict_ok() {
    predict 0 "$@"
    test ! -s "$err" || { cat "$err" >&2; pz_fail "prognoz predict $*: output on stderr (above)"; }
}

# one_line WHAT TEXT: nothing on stdout, and stderr is one line that contains TEXT.
one_line() {
    test ! -s "$out" || { cat "$out" >&2; pz_fail "$1: output on stdout (above)"; }
    pz_expect_eq "$1: lines on stderr" 1 "$(wc -l <"$err")"
    grep -q -F -- "$2" "$err" || pz_fail "$1: '$(cat "$err")' does not contain '$2'"
}

# report NAME OUT ARGS...: prognoz report of the trace $PZ_WORK/NAME into OUT, which
# must exit 0 without output on stderr.
report() {
    _t=$PZ_WORK/$1 _o=$2
    shift 2
    "$PZ_PROGNOZ" report "$_t" "$@" >"$_o" 2>"$PZ_WORK/report.err" ||
        { cat "$PZ_WORK/report.err" >&2; pz_fail "prognoz report $_t $* failed"; }
    test ! -s "$PZ_WORK/report.err" ||
        { cat "$PZ_WORK/report.err" >&2; pz_fail "prognoz report $_t $*: output on stderr (above)"; }
}

# facts NAME: from the recorded trace NAME (checked by pz_trace) and its JSON report,
# NAME.facts: the compute-only time, the recorded execution times of the whole run and
# of interval 1, whether the recording was unbalanced and whether it was slowed.
#
# The compute-only time is what the run takes where communication is free and its
# processes never wait for each other: for each process, its productive (CPU) time of
# the recorded report (the time outside MPI calls) plus the time of its calls that
# communicate nothing (MPI_Comm_rank, MPI_Comm_size, MPI_Finalize), which the predictor
# keeps as recorded (MPI_Init it makes instantaneous); the longest over the processes.  On ideal.conf each
# process's predicted time is exactly that plus the time it waits in MPI_Sendrecv and
# MPI_Allreduce for the other, so the compute-only time is an exact lower bound (to the
# nanosecond of the timestamps).  The recording is an exact upper bound: the processes
# leave MPI_Init at once, in the prediction at the latest Enter of MPI_Init, in the
# recording at a common Leave d later; after it, its gaps and local calls took what the
# prediction gives them, and each of its communicating calls ended no earlier than the
# other process entered its part, which is when the call ends on ideal.conf, so by
# induction over the calls no event is predicted later than d before it was recorded,
# and each process's time (from its first event to its last) is no longer.
# How far apart the bounds are depends on how evenly the machine ran the two processes:
# the recording is "unbalanced" when other jobs took a core from one process long enough
# to make the recorded run 15% longer than its compute-only time.  It is "slowed" when
# they took the cores often enough that interval 1, 5 x 20 ms of CPU time, lasted more
# than 250 ms (on a machine of 2 cores shared with other jobs, 2 processes computing at
# once were seen to take 1.5 to 2.5 times their CPU time).
facts() {
    pz_trace "$1"
    report "$1" "$PZ_WORK/$1.json" --format json --per-process
    "$PY" - "$PZ_WORK/$1.json" "$PZ_WORK/$1.events" "$PZ_WORK/$1.defs" >"$PZ_WORK/$1.facts" <<'EOF' ||
import sys
from pzcheck import *

report, events, defs = load(sys.argv[1]), sys.argv[2], sys.argv[3]
local = {}      # location -> seconds in calls that communicate nothing
entered = {}
for kind, loc, t, _ in calls(events, defs, ("MPI_Finalize", "MPI_Comm_rank", "MPI_Comm_size")):
    if kind == "ENTER":
        entered[loc] = t
    else:
        local[loc] = local.get(loc, 0.0) + t - entered.pop(loc)
whole, loop = report["intervals"][0], report["intervals"][1]
check(sorted(local) == [0, 1], "local calls on locations %r" % sorted(local))
compute_only = max(p["values"]["productive_time"] + local.get(p["rank"], 0.0)
                   for p in whole["per_process"])
recorded = whole["main"]["execution_time"]
interval = loop["main"]["execution_time"]
print("%.9f %.9f %.9f %d %d" % (compute_only, recorded, interval, recorded > 1.15 * compute_only,
                               interval > 0.250))
done()
EOF
        pz_fail "$1: cannot work out the compute-only time (above)"
}

# record NAME unbalanced|slowed: records programs/predict_balanced on 2 ranks into
# $PZ_WORK/NAME (with the environment PZ_ENV), again up to 3 times while the recording
# is unbalanced or slowed; sets DISTURBED to 1 if the last one still is.
record() {
    _try=1
    _field=4
    test "$2" = slowed && _field=5
    while :; do
        pz_record_ok "$1" 2 "$prog"
        facts "$1"
        DISTURBED=$(cut -d' ' -f$_field "$PZ_WORK/$1.facts")
        test "$DISTURBED" = 0 || test $_try = 3 && break
        echo "note: $1: recording $_try $2 by the load of the machine ($(cat "$PZ_WORK/$1.facts")), again" >&2
        _try=$((_try + 1))
    done
    test "$DISTURBED" = 0 ||
        echo "note: $1: every recording was $2; the checks that need another are left out" >&2
}

record rec unbalanced
trace=$PZ_WORK/rec
read -r COMPUTE_ONLY RECORDED INTERVAL1 _ <"$PZ_WORK/rec.facts"
echo "recorded: compute-only $COMPUTE_ONLY s, execution $RECORDED s, interval 1 $INTERVAL1 s"

# --- a. On ideal.conf the run takes its computation; on slow.conf 100 ms more.
predict_ok "$trace" --machine "$ideal" --format json
cp "$out" "$PZ_WORK/ideal.json"
predict_ok "$trace" --machine "$slow" --format json
cp "$out" "$PZ_WORK/slow.json"
(
"$PY" - "$PZ_WORK/ideal.json" "$PZ_WORK/slow.json" "$COMPUTE_ONLY" "$RECORDED" "$DISTURBED" \
    "$PZ_WORK/rec.events" "$PZ_WORK/rec.defs" <<'EOF' ||
import sys
from pzcheck import *


def hidden_gaps(events, defs):
    """The largest sum over a process of its gaps from MPI_Sendrecv's LEAVE to
    MPI_Allreduce's ENTER, in seconds."""
    left, gaps = {}, {}
    for kind, loc, t, name in calls(events, defs, ("MPI_Sendrecv", "MPI_Allreduce")):
        if kind == "LEAVE" and name == "MPI_Sendrecv":
            left[loc] = t
        elif kind == "ENTER" and name == "MPI_Allreduce" and loc in left:
            gaps[loc] = gaps.get(loc, 0.0) + t - left.pop(loc)
    return max(gaps.values(), default=0.0)


ideal, slow = load(sys.argv[1]), load(sys.argv[2])
compute_only, recorded, disturbed = float(sys.argv[3]), float(sys.argv[4]), sys.argv[5] == "1"
predicted = ideal["intervals"][0]["main"]["execution_time"]
print("ideal.conf: %.6f s predicted, compute-only %.6f s (%+.1f%%), recorded %.6f s"
      % (predicted, compute_only, 100 * (predicted / compute_only - 1), recorded))
# the exact bounds (facts in predict.sh), to a microsecond for the rounding of timestamps
check(predicted >= compute_only - 1e-6,
      "ideal.conf: %.9f s predicted, less than the compute-only %.9f s" % (predicted, compute_only))
check(predicted <= recorded + 1e-6,
      "ideal.conf: %.9f s predicted, more than the %.9f s recorded with real communication"
      % (predicted, recorded))
if not disturbed:
    near(predicted, compute_only, 0.20 * compute_only, "ideal.conf: the whole run against its compute-only time")
# a predicted run is consistent: every message sent before it is received (a receive
# may end at the very time its send begins: with no latency it does), every collective
# complete
for key in ("clock_violations", "unmatched_sends", "unmatched_receives", "incomplete_collectives"):
    check(ideal[key] == 0, "ideal.conf: %s %r in the predicted run" % (key, ideal[key]))
check(ideal["messages"] == 10 and ideal["collectives"] == 5,
      "ideal.conf: %r messages and %r collectives, expected 10 and 5" % (ideal["messages"], ideal["collectives"]))
# with free communication every moment in MPI_Sendrecv and MPI_Allreduce is a wait for
# the other process (a late sender, a wait at the allreduce)
for iv in ideal["intervals"][1:]:
    m = iv["main"]
    near(m["synchronization"], m["communication_time"], 1e-4,
         "ideal.conf: interval %d: synchronization against communication time" % iv["id"])
# On slow.conf every step costs each process at least two latencies after its
# computation: its MPI_Allreduce ends no earlier than one latency after the other
# process entered its own, which it did no earlier than one latency after the first
# process's MPI_Sendrecv began (the message it waited for).  5 steps x 2 x 10 ms.  The
# computation between a process's MPI_Sendrecv and its MPI_Allreduce (a few us a step)
# can pass while it waits for the other's message, so that much of the compute-only
# time need not add to the latencies: the bound allows the largest such sum.
slowed = slow["intervals"][0]["main"]["execution_time"]
print("slow.conf: %.6f s predicted" % slowed)
hidden = hidden_gaps(sys.argv[6], sys.argv[7])
check(slowed >= compute_only + 0.100 - hidden - 1e-6,
      "slow.conf: %.9f s predicted, expected at least the compute-only %.9f s + 100 ms - %.9f s"
      % (slowed, compute_only, hidden))
check(slowed >= predicted + 0.050,
      "slow.conf: %.9f s predicted, not clearly more than the %.9f s of ideal.conf" % (slowed, predicted))
done()
EOF
    pz_fail "the predictions on ideal.conf and slow.conf are not what is expected (above)"
)

# --- b. Several machines: the recording and each machine side by side.
(
report rec "$PZ_WORK/rec.txt"
predict_ok "$trace" --machine "$ideal" --machine "$slow"
cp "$out" "$PZ_WORK/compare.txt"
pz_expect_eq "compare: machine lines" "Predicted on machine ideal:
Predicted on machine slow:" "$(grep '^Predicted on machine' "$out" | cut -d' ' -f1-4)"
pz_expect_eq "compare: interval headers" "Interval (whole run)
Interval 1 at FILE:$LOOP (level 1)
Interval 2 at FILE:$STEP (level 2)" "$(grep '^Interval ' "$out" | sed 's/ at [^ ]*:\([0-9]*\) (/ at FILE:\1 (/')"
for f in $(sed -n 's/^Interval [0-9]* at \(.*\):[0-9]* (level [0-9]*)$/\1/p' "$out"); do
    test "$f" -ef "$src" || pz_fail "compare: the interval's file '$f' is not $src"
done
pz_expect_eq "compare: column headers" 3 "$(grep -c '^ *recorded  *ideal  *slow$' "$out")"
for row in 'Execution time (s)' 'Efficiency' 'Lost time (s)' 'Communication (s)' \
    'Synchronization (s)' 'Idle time (s)'; do
    pz_expect_eq "compare: rows '$row' with 3 numbers" 3 "$(awk -v r="$row" '
        substr($0, 1, length(r)) == r && split(substr($0, length(r) + 1), v) == 3 &&
        v[1] ~ /^[0-9.]+$/ && v[2] ~ /^[0-9.]+$/ && v[3] ~ /^[0-9.]+$/ { n++ }
        END { print n + 0 }' "$out")"
done
predict_ok "$trace" --machine "$ideal" --machine "$slow" --format json
cp "$out" "$PZ_WORK/compare.json"
"$PY" - "$PZ_WORK/compare.json" "$PZ_WORK/rec.json" "$PZ_WORK/ideal.json" "$PZ_WORK/slow.json" \
    "$PZ_WORK/compare.txt" <<'EOF' || pz_fail "the side-by-side JSON is not what is expected (above)"
import sys
from pzcheck import *

cmp, rec, ideal, slow = (load(p) for p in sys.argv[1:5])
check(sorted(cmp) == sorted(HEAD + ["recorded", "predictions"]), "members %r" % sorted(cmp))
check(cmp["format"] == {"name": "prognoz-prediction", "version": 1}, "format %r" % cmp["format"])
machines = [p["machine"] for p in cmp["predictions"]]
check([m["name"] for m in machines] == ["ideal", "slow"], "machines %r" % [m.get("name") for m in machines])
check([m["latency"] for m in machines] == [0, 0.01], "latencies %r" % [m.get("latency") for m in machines])
runs = [cmp["recorded"]] + [p["report"] for p in cmp["predictions"]]
for run in runs:
    check(ids(run) == ids(rec), "intervals %r, the recording's are %r" % (ids(run), ids(rec)))
# the same values as the recorded report and as each machine's own prediction
for run, want, who in zip(runs, (rec, ideal, slow), ("recorded", "ideal", "slow")):
    for i, (got, iv) in enumerate(zip(run["intervals"], want["intervals"])):
        for key in ("execution_time", "efficiency", "lost_time", "communication_time",
                    "synchronization", "idle_time"):
            near(got["main"][key], iv["main"][key], 1e-6, "interval %d, %s: %s" % (i, who, key))
# the text table shows the same execution times
with open(sys.argv[5]) as f:
    rows = [l.split()[-3:] for l in f if l.startswith("Execution time (s)")]
for i, row in enumerate(rows):
    for got, run in zip(row, runs):
        near(float(got), run["intervals"][i]["main"]["execution_time"], 2e-6,
             "text table, interval %d: execution time" % i)
done()
EOF
)

# --- c. One machine, JSON: the shape of several, with one prediction: the recorded
# report, and the predicted run's report with its "machine" and "prediction".
(
"$PY" - "$PZ_WORK/ideal.json" "$PZ_WORK/rec.json" <<'EOF' || pz_fail "the JSON prediction is not what is expected (above)"
import sys
from pzcheck import *

pred, rec = load(sys.argv[1]), load(sys.argv[2])
report = [k for k in rec if k not in HEAD]
check(sorted(pred) == sorted(report + ["machine", "prediction", "recorded"]),
      "members %r, expected those of prognoz report %r, machine and prediction" % (sorted(pred), sorted(rec)))
check(sorted(pred["recorded"]) == sorted(report), "recorded: members %r" % sorted(pred["recorded"]))
m = pred["machine"]
for key, want in (("name", "ideal"), ("network", "switch"), ("cost_model", "hockney"), ("latency", 0),
                  ("bandwidth", 1.7e308), ("shm_latency", 0), ("shm_bandwidth", 1.7e308),
                  ("cpu_scale", 1), ("mpi", "mpich4"), ("procs_per_node", 1)):
    check(m.get(key) == want, "machine: %s %r, expected %r" % (key, m.get(key), want))
p = pred["prediction"]
check(p.get("compute") == "wall", "prediction: compute %r" % p.get("compute"))
check(p.get("records", 0) > 0 and p.get("calls", 0) > 0, "prediction: %r" % p)
check(p.get("end", 0) >= pred["intervals"][0]["main"]["execution_time"] - 1e-6, "prediction: end %r" % p.get("end"))
check(pred["processes"] == 2, "processes %r" % pred["processes"])
check(ids(pred) == ids(rec), "intervals %r, the recording's are %r" % (ids(pred), ids(rec)))
for a, b in zip(pred["intervals"], rec["intervals"]):
    check(a["parent"] == b["parent"] and a["exe_count"] == b["exe_count"],
          "interval %d: parent %r, exe_count %r; recorded %r, %r" % (a["id"], a["parent"], a["exe_count"],
                                                                    b["parent"], b["exe_count"]))
    check(sorted(a["main"]) == sorted(b["main"]), "interval %d: main values %r" % (a["id"], sorted(a["main"])))
    check(a["main"]["processors"] == 2, "interval %d: processors %r" % (a["id"], a["main"]["processors"]))
check([iv["exe_count"] for iv in rec["intervals"]] == [1, 1, 5], "recorded execution counts")
done()
EOF
)

# --- d. --trace-out DIR: the predicted trace, read by otf2-print and prognoz report;
# never overwritten.  -o FILE: the report in FILE.
(
predict_ok "$trace" --machine "$ideal" --trace-out "$PZ_WORK/out"
grep -q '^Predicted on machine ideal:' "$out" || pz_fail "--trace-out: no report on stdout"
test -f "$PZ_WORK/out/traces.otf2" || pz_fail "--trace-out: no OUT/traces.otf2"
pz_trace out
cp "$PZ_WORK/out.events" "$PZ_WORK/out.events.first"
report out "$PZ_WORK/out.json" --format json
"$PY" - "$PZ_WORK/out.json" "$PZ_WORK/rec.json" "$PZ_WORK/ideal.json" <<'EOF' || pz_fail "prognoz report of the predicted trace (above)"
import sys
from pzcheck import *

out, rec, ideal = (load(p) for p in sys.argv[1:4])
check(ids(out) == ids(rec), "intervals %r, the recording's are %r" % (ids(out), ids(rec)))
check(ids(out) == ids(ideal), "intervals %r, the prediction's are %r" % (ids(out), ids(ideal)))
for a, b in zip(out["intervals"], ideal["intervals"]):
    near(a["main"]["execution_time"], b["main"]["execution_time"], 1e-6, "interval %d: execution time" % a["id"])
done()
EOF
)
(
test -f "$PZ_WORK/out.events.first" || pz_fail "--trace-out: no first trace to write over"
predict fail "$trace" --machine "$ideal" --trace-out="$PZ_WORK/out"
one_line "--trace-out over a trace" "$PZ_WORK/out"
pz_trace out
cmp -s "$PZ_WORK/out.events" "$PZ_WORK/out.events.first" || pz_fail "--trace-out over a trace changed it"
# several machines: OUT/NAME/traces.otf2 each
predict_ok "$trace" --machine "$ideal" --machine "$slow" --trace-out "$PZ_WORK/outs"
for m in ideal slow; do
    test -f "$PZ_WORK/outs/$m/traces.otf2" || pz_fail "--trace-out with 2 machines: no OUT/$m/traces.otf2"
    pz_print "$PZ_WORK/outs.$m.events" "$PZ_WORK/outs/$m/traces.otf2"
done
)
(
# -o FILE: the report, as on the standard output; a directory is refused, naming
# --trace-out; --machine=FILE --format=json as --machine FILE --format json.
predict_ok "$trace" --machine "$ideal" --format json
cp "$out" "$PZ_WORK/stdout.json"
predict_ok "$trace" --machine="$ideal" --format=json -o "$PZ_WORK/report.json"
test ! -s "$out" || pz_fail "-o FILE: output on stdout"
cmp -s "$PZ_WORK/report.json" "$PZ_WORK/stdout.json" || pz_fail "-o FILE: not the report of the standard output"
predict 2 "$trace" --machine "$ideal" -o "$PZ_WORK"
one_line "-o DIR" "--trace-out"
)

# --- e. Errors: one line, a usage (2) or failure (1) status, no report.  Each case in
# a subshell, so that one failing lets the others run.
(
predict 1 "$PZ_WORK/no-such-trace" --machine "$ideal"
one_line "a missing trace" "$PZ_WORK/no-such-trace"
)
(
predict 1 "$trace" --machine "$PZ_WORK/no-such.conf"
one_line "a missing machine file" "$PZ_WORK/no-such.conf"
)
bad=$PZ_WORK/bad.conf
(
printf '# a machine with a misspelt key\nname = bad\nlatencyy = 1us\n' >"$bad"
predict 1 "$trace" --machine "$ideal" --machine "$bad"
one_line "a wrong key" "prognoz predict: $bad:3: "
grep -q "latencyy" "$err" || pz_fail "a wrong key: '$(cat "$err")' does not name it"
)
(
printf 'name = bad\nlatency = 5 parsecs\n' >"$bad"
predict 1 "$trace" --machine "$bad"
one_line "a wrong unit" "prognoz predict: $bad:2: "
grep -q "expected" "$err" || pz_fail "a wrong unit: '$(cat "$err")' does not say what is expected"
)
(
predict 2 "$trace" --machine "$ideal" --coll allgather=nonsense
one_line "--coll allgather=nonsense" "allgather=nonsense"
grep -q "the algorithms of allgather: bruck gather_bcast neighbor_exchange recursive_doubling ring" \
    "$err" ||
    pz_fail "--coll allgather=nonsense: '$(cat "$err")' does not list allgather's algorithms"
predict 2 "$trace" --machine "$ideal" --coll=nonsense=bruck
one_line "--coll nonsense=bruck" "nonsense=bruck"
grep -q "the operations: barrier bcast" "$err" ||
    pz_fail "--coll nonsense=bruck: '$(cat "$err")' does not list the operations"
)
(
predict 2 "$trace"
test ! -s "$out" || pz_fail "no --machine: output on stdout"
pz_expect_eq "no --machine: first line on stderr" "prognoz predict: no --machine given" "$(head -n 1 "$err")"
tail -n +2 "$err" >"$PZ_WORK/usage.err"
"$PZ_PROGNOZ" predict --help >"$PZ_WORK/usage.out" 2>&1
cmp -s "$PZ_WORK/usage.err" "$PZ_WORK/usage.out" || pz_fail "no --machine: what follows the error is not the usage"
predict 2 --machine "$ideal"
pz_expect_eq "no trace: first line on stderr" "prognoz predict: no trace given" "$(head -n 1 "$err")"
)
# --mpi takes the values of the key mpi of a machine file, and says so at once.
(
predict 2 "$trace" --machine "$ideal" --mpi nonsense
one_line "--mpi nonsense" "'nonsense': expected mpich1, mpich-1.2.5, mpich4 or openmpi4"
)
# A bandwidth the parser takes must give a report that parses: "inf" (strtod reads it)
# is either refused with the file and line, or written as valid JSON.
(
printf 'name = infinite\nbandwidth = inf B/s\n' >"$bad"
timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" predict "$trace" --machine "$bad" --format json >"$out" 2>"$err"
rc=$?
if test $rc = 0; then
    "$PY" - "$out" <<'EOF' || pz_fail "bandwidth = inf B/s: the JSON report does not parse (above)"
import json, sys
try:
    json.load(open(sys.argv[1]))
except ValueError as e:
    sys.exit("%s: %s" % (sys.argv[1], e))
EOF
else
    test $rc -lt 128 || pz_fail "bandwidth = inf B/s: exit status $rc"
    one_line "bandwidth = inf B/s" "prognoz predict: $bad:2: "
fi
)

# --- f. --coll and --mpi: accepted, a report.
(
predict_ok "$trace" --machine "$ideal" --coll allgather=bruck
pz_expect_eq "--coll allgather=bruck: intervals" 3 "$(grep -c '^Interval (' "$out")"
predict_ok "$trace" --machine "$slow" --mpi mpich1
pz_expect_eq "--mpi mpich1: intervals" 3 "$(grep -c '^Interval (' "$out")"
grep -q '^Predicted on machine slow: .*, MPI mpich1, cpu_scale 1$' "$out" ||
    pz_fail "--mpi mpich1: not in the machine line, or keys at their defaults named"
sed -e 's/^name = .*/name = duplex/' "$slow" >"$PZ_WORK/duplex.conf"
printf 'progress = in_calls\nduplex_factor = 1.5\n' >>"$PZ_WORK/duplex.conf"
predict_ok "$trace" --machine "$PZ_WORK/duplex.conf"
grep -q '^Predicted on machine duplex: .*, cpu_scale 1, progress in calls, duplex_factor 1.5$' \
    "$out" || pz_fail "progress and duplex_factor not in the machine line"
predict_ok "$trace" --machine "$slow" --mpi mpich1 --coll allgather=bruck --format json
"$PY" -c 'import json, sys; r = json.load(open(sys.argv[1])); sys.exit(r["predictions"][0]["machine"]["mpi"] != "mpich1")' "$out" ||
    pz_fail "--mpi mpich1 --format json: the machine's mpi is not mpich1"
)

# --- g. --compute cpu on a run recorded with PROGNOZ_CPU_TIME=1: each process computed
# 5 x 20 ms of CPU time in interval 1, and no more than 20% above that (the loop
# overshoots by one pass, the markers cost microseconds), whatever the load of the
# machine.  A thread's CPU time never exceeds the wall-clock time, so the prediction
# from CPU times is no longer than from wall-clock times, and when the recording was not
# slowed (its computation took less than 2.5 times its CPU time) of the same order: the
# whole run more than a third of it (MPI_Init takes no time in both).
PZ_ENV=PROGNOZ_CPU_TIME=1 record cpu slowed
(
predict_ok "$PZ_WORK/cpu" --machine "$ideal" --format json --compute cpu
cp "$out" "$PZ_WORK/cpu-cpu.json"
predict_ok "$PZ_WORK/cpu" --machine "$ideal" --format json --compute wall
cp "$out" "$PZ_WORK/cpu-wall.json"
"$PY" - "$PZ_WORK/cpu-cpu.json" "$PZ_WORK/cpu-wall.json" "$DISTURBED" <<'EOF' || pz_fail "--compute cpu (above)"
import sys
from pzcheck import *

cpu, wall, disturbed = load(sys.argv[1]), load(sys.argv[2]), sys.argv[3] == "1"
check(cpu["prediction"]["compute"] == "cpu", "compute %r" % cpu["prediction"]["compute"])
check(wall["prediction"]["compute"] == "wall", "compute %r" % wall["prediction"]["compute"])
check(ids(cpu) == ids(wall), "intervals %r and %r" % (ids(cpu), ids(wall)))
c, w = (r["intervals"][1]["main"]["execution_time"] for r in (cpu, wall))
cw, ww = (r["intervals"][0]["main"]["execution_time"] for r in (cpu, wall))
print("--compute cpu: interval 1 %.6f s, whole run %.6f s; --compute wall: %.6f s, %.6f s; "
      "gaps timed by CPU %d, by the wall clock %d" % (c, cw, w, ww, cpu["prediction"]["cpu_timed"],
                                                     cpu["prediction"]["wall_timed"]))
# 100 ms of busy loops, and the little CPU time of the rest of interval 1 (its markers
# carry their CPU time, so none of the recorder's start-up before it counts); room for
# the kernel's share of a loaded machine
check(0.100 - 1e-4 <= c <= 0.150, "--compute cpu: interval 1 %.9f s, expected 100 to 150 ms" % c)
check(cw <= ww + 1e-6, "--compute cpu: the whole run %.9f s, longer than %.9f s by wall-clock time" % (cw, ww))
if not disturbed:
    check(3 * cw >= ww, "--compute cpu: the whole run %.9f s, not of the order of %.9f s by wall-clock time" % (cw, ww))
done()
EOF
)
exit 0
