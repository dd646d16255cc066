# Sequential intervals on a real run (programs/sequential.c on 2 ranks: 150 ms of work
# each rank duplicates in sequential interval 1, then 50 ms in interval 2).  The trace
# defines interval 1 as "sequential interval 1 at sequential.c:LINE", described
# "prognoz:sequential", and interval 2 as a plain one.  prognoz report marks interval 1
# sequential; each rank loses half its CPU time in it (k = 2: one copy of the two is
# useful), exactly, and the whole run loses the same; interval 2 loses nothing to it;
# lost = insufficient parallelism + MPI + idle and productive = CPU - insufficient
# parallelism everywhere.  Real synchronization is the sum of the wait states and no
# more than the potential one.  A prediction on integration/ideal.conf keeps all this.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program sequential) || exit 77
test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
PY=${PZ_PYTHON:-python3}
"$PY" -c 'import json' 2>/dev/null || PY=python3
src=$PZ_TOP_SRCDIR/tests/programs/sequential.c
SEQ=$(pz_line "$src" '@seq') || exit 1
PAR=$(pz_line "$src" '@par') || exit 1

pz_record_ok seq 2 "$prog"
trace=$PZ_WORK/seq
pz_trace seq
pz_expect_eq "intervals defined" 2 "$(pz_intervals seq)"
pz_expect_interval seq 2 "$src" "$PAR"
name="sequential interval 1 at sequential.c:$SEQ"
grep -q "^REGION .* Name: \"$name\" .*Descr\.: \"prognoz:sequential\"" "$PZ_WORK/seq.defs" ||
    pz_fail "no region \"$name\" described \"prognoz:sequential\" in the definitions"

# run NAME ARGS...: prognoz ARGS, which must exit 0 and write nothing to stderr, into
# $PZ_WORK/NAME.
run() {
    out=$PZ_WORK/$1
    shift
    "$PZ_PROGNOZ" "$@" >"$out" 2>"$out.err" ||
        { cat "$out.err" >&2; pz_fail "prognoz $* failed"; }
    test ! -s "$out.err" || { cat "$out.err" >&2; pz_fail "prognoz $*: output on stderr"; }
}

run report.txt report "$trace"
pz_expect_eq "text report: interval headers" "Interval (whole run) Level=0 EXE_Count=1
Interval (LineNumber = $SEQ SourceFile = FILE Id = 1) Level=1 EXE_Count=1 Sequential
Interval (LineNumber = $PAR SourceFile = FILE Id = 2) Level=1 EXE_Count=1" \
    "$(grep '^Interval (' "$PZ_WORK/report.txt" | sed 's/SourceFile = [^ ]* Id/SourceFile = FILE Id/')"
pz_expect_eq "text report: insufficient parallelism lines" 3 \
    "$(grep -c '^---Insufficient Parallelism [0-9]' "$PZ_WORK/report.txt")"

run report.json report "$trace" --format json --per-process
ideal=$PZ_TOP_SRCDIR/tests/integration/ideal.conf
run predict.json predict "$trace" --machine "$ideal" --format json --per-process

"$PY" - "$PZ_WORK/report.json" "$PZ_WORK/predict.json" "$SEQ" "$PAR" <<'EOF' || pz_fail "the reports are not what is expected (above)"
import json, sys

failures = []
waits = ("late_sender", "late_receiver", "wait_at_barrier", "wait_at_nxn", "early_reduce",
         "late_broadcast")


def check(cond, what):
    if not cond:
        failures.append(what)


def near(got, want, tol, what):
    check(abs(got - want) <= tol, "%s: %.9f s, expected %.9f s within %.9f s" % (what, got, want, tol))


def examine(path, seq_line, par_line, timed):
    with open(path) as f:
        doc = json.load(f)
    # a prediction: the predicted run's report
    ivs = (doc["predictions"][0]["report"] if "predictions" in doc else doc)["intervals"]
    check(len(ivs) == 3, "%s: %d intervals, expected 3" % (path, len(ivs)))
    if len(ivs) != 3:
        return
    run, seq, par = ivs
    check([iv["line"] for iv in ivs] == [0, seq_line, par_line], "%s: lines" % path)
    check([iv["sequential"] for iv in ivs] == [False, True, False], "%s: sequential flags" % path)
    for iv, name in ((run, "whole run"), (seq, "interval 1"), (par, "interval 2")):
        who = "%s: %s" % (path, name)
        for v, w in [(iv["main"], who)] + [(p["values"], "%s, rank %d" % (who, p["rank"]))
                                          for p in iv["per_process"]]:
            near(v["lost_time"], v["insufficient_parallelism"] + v["mpi_time"] + v["idle_time"], 1e-6,
                 w + ": lost = insufficient parallelism + MPI + idle")
            near(v["productive_time"], v["cpu_time"] - v["insufficient_parallelism"], 1e-6,
                 w + ": productive = CPU - insufficient parallelism")
            near(v["real_synchronization"], sum(v[k] for k in waits), 1e-6,
                 w + ": real synchronization = the wait states")
            check(v["real_synchronization"] <= v["synchronization"] + 1e-9,
                  w + ": real synchronization above the potential one")
    for p in seq["per_process"]:
        v, w = p["values"], "%s: interval 1, rank %d" % (path, p["rank"])
        near(v["insufficient_parallelism"], v["cpu_time"] / 2, 1e-6, w + ": half the CPU time is lost")
        if timed:
            check(0.149 <= v["cpu_time"] <= 0.300, w + ": CPU time %.6f s, expected 0.15 s or a little more"
                  % v["cpu_time"])
    near(seq["main"]["insufficient_parallelism"], seq["main"]["cpu_time"] / 2, 1e-6,
         path + ": interval 1 loses one of its two copies")
    near(run["main"]["insufficient_parallelism"], seq["main"]["insufficient_parallelism"], 1e-6,
         path + ": the whole run loses what interval 1 loses")
    near(par["main"]["insufficient_parallelism"], 0, 0, path + ": interval 2 loses nothing to it")


examine(sys.argv[1], int(sys.argv[3]), int(sys.argv[4]), True)
examine(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), False)
for f in failures:
    print(f, file=sys.stderr)
sys.exit(1 if failures else 0)
EOF
