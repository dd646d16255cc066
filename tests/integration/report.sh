# prognoz report on a real run (programs/report_sleep.c on 4 ranks): rank r sleeps
# (r + 1) x 20 ms in interval 1, then all ranks meet in MPI_Barrier in interval 2.  The
# text and the JSON report (--per-process) have exactly the whole run and these two
# intervals, with their levels, files, lines, ids, execution counts and processors.  The
# times agree with the sleeps within generous tolerances: the idle time of rank 3 in
# interval 1 is about 0, of rank 0 about 60 ms; rank 0 waits in the barrier at least
# about as long as rank 3 arrived after it, nominally 60 ms.  The identities between the
# characteristics hold to 1e-6 s in every interval and for every process.  prognoz
# report on a missing directory and on a file that is no trace fails with one line
# naming it.  The expected JSON report of the unit tests (tests/golden) parses.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program report_sleep) || exit 77
test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
PY=${PZ_PYTHON:-python3}
"$PY" -c 'import json' 2>/dev/null || PY=python3
src=$PZ_TOP_SRCDIR/tests/programs/report_sleep.c
SLEEP=$(pz_line "$src" '@sleep') || exit 1
BARRIER=$(pz_line "$src" '@barrier') || exit 1

pz_record_ok sleep 4 "$prog"
trace=$PZ_WORK/sleep

# report ARGS...: prognoz report, which must exit 0 and write nothing to stderr; the
# report goes to $PZ_WORK/report.out.
report() {
    "$PZ_PROGNOZ" report "$@" >"$PZ_WORK/report.out" 2>"$PZ_WORK/report.err"
    rc=$?
    test $rc -eq 0 ||
        { cat "$PZ_WORK/report.err" >&2; pz_fail "prognoz report $* exited with status $rc"; }
    test ! -s "$PZ_WORK/report.err" ||
        { cat "$PZ_WORK/report.err" >&2; pz_fail "prognoz report $*: output on stderr (above)"; }
}

# The text report: the three intervals in order, each with its header and 4 processors.
report "$trace"
txt=$PZ_WORK/report.out
pz_expect_eq "text report: interval headers" "Interval (whole run) Level=0 EXE_Count=1
Interval (LineNumber = $SLEEP SourceFile = FILE Id = 1) Level=1 EXE_Count=1
Interval (LineNumber = $BARRIER SourceFile = FILE Id = 2) Level=1 EXE_Count=1" \
    "$(grep '^Interval (' "$txt" | sed 's/SourceFile = [^ ]* Id/SourceFile = FILE Id/')"
for f in $(sed -n 's/^Interval (.*SourceFile = \([^ ]*\) Id.*/\1/p' "$txt"); do
    test "$f" -ef "$src" || pz_fail "text report: the interval's source file '$f' is not $src"
done
pz_expect_eq "text report: processors" "Processors 4
Processors 4
Processors 4" "$(grep '^Processors ' "$txt")"
for label in 'Parallelization Efficiency' 'Execution Time' 'Total Time' 'Productive Time' \
    'Lost Time' '---MPI Time' '---Idle Time' 'Communication Time' '\*\*\*\*\*SendRecv Time' \
    '\*\*\*\*\*CollectiveAll Time' '\*\*\*\*\*AllToAll Time' 'Time of Start' 'Load Imbalance'; do
    pz_expect_eq "text report: lines '$label'" 3 "$(grep -c "^$label [0-9]" "$txt")"
done
pz_expect_eq "text report: comparative tables" 3 \
    "$(grep -c '^---Comparative Characteristics---$' "$txt")"
if grep -q '^---Characteristics of Each Process---' "$txt"; then
    pz_fail "text report: per-process tables without --per-process"
fi

# The same with -o FILE and --per-process: a table of the 4 processes per interval.
report "$trace" --per-process -o "$PZ_WORK/per_process.txt"
test ! -s "$PZ_WORK/report.out" || pz_fail "prognoz report -o FILE also wrote to stdout"
pz_expect_eq "text report --per-process: process tables" 3 \
    "$(grep -c '^---Characteristics of Each Process---$' "$PZ_WORK/per_process.txt")"
pz_expect_eq "text report --per-process: process rows" "0 1 2 3 0 1 2 3 0 1 2 3" "$(
    awk '/^---Characteristics of Each Process---$/ { rows = 1; next }
         rows && /^Nproc/ { next }
         rows && /^[0-9]+ / { printf "%s%s", sep, $1; sep = " "; next }
         { rows = 0 }' "$PZ_WORK/per_process.txt")"

# The JSON report with every process's values.
report "$trace" --format json --per-process
cp "$PZ_WORK/report.out" "$PZ_WORK/report.json"
"$PY" - "$PZ_WORK/report.json" "$src" "$SLEEP" "$BARRIER" <<'EOF' || pz_fail "the JSON report is not what is expected (above)"
import json, os, sys

path, src, sleep_line, barrier_line = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def near(got, want, tol, what):
    check(abs(got - want) <= tol, "%s: %.6f s, expected %.6f s within %.6f s" % (what, got, want, tol))


def within(got, low, high, what):
    check(low <= got <= high, "%s: %.6f s, expected %.6f to %.6f s" % (what, got, low, high))


with open(path) as f:
    report = json.load(f)

check(report["processes"] == 4, "processes: %r" % report["processes"])
ivs = report["intervals"]
check(len(ivs) == 3, "%d intervals, expected the whole run and 2 intervals" % len(ivs))
if len(ivs) == 3:
    run, sleep, barrier = ivs
    for iv, level, parent, line, ident in ((run, 0, None, 0, 0), (sleep, 1, 0, sleep_line, 1),
                                           (barrier, 1, 0, barrier_line, 2)):
        name = "interval at line %d" % line
        check(iv["level"] == level, "%s: level %r" % (name, iv["level"]))
        check(iv["parent"] == parent, "%s: parent %r" % (name, iv["parent"]))
        check(iv["line"] == line, "%s: line %r" % (name, iv["line"]))
        check(iv["id"] == ident, "%s: id %r" % (name, iv["id"]))
        check(iv["exe_count"] == 1, "%s: exe_count %r" % (name, iv["exe_count"]))
        check(iv["main"]["processors"] == 4, "%s: processors %r" % (name, iv["main"]["processors"]))
        check(iv["main"]["exe_count"] == 1, "%s: main exe_count" % name)
        ranks = [p["rank"] for p in iv["per_process"]]
        check(ranks == [0, 1, 2, 3], "%s: per_process ranks %r" % (name, ranks))
        if line:
            check(os.path.samefile(iv["file"], src), "%s: file %r is not %s" % (name, iv["file"], src))
        else:
            check(iv["file"] == "", "whole run: file %r" % iv["file"])

        # the identities, for the interval and for every process
        m = iv["main"]
        procs = [p["values"] for p in iv["per_process"]]
        near(m["total_time"], m["execution_time"] * m["processors"], 1e-6, name + ": total = execution x processors")
        for v, who in [(m, name)] + [(p, "%s, rank %d" % (name, r)) for r, p in enumerate(procs)]:
            near(v["total_time"], v["productive_time"] + v["lost_time"], 1e-6, who + ": total = productive + lost")
            near(v["lost_time"], v["mpi_time"] + v["idle_time"], 1e-6, who + ": lost = MPI + idle")
            near(v["communication_time"], v["sendrecv_time"] + v["collective_time"] + v["alltoall_time"],
                 1e-6, who + ": communication = sendrecv + collective + alltoall")
            near(v["productive_time"], v["cpu_time"], 1e-6, who + ": productive = CPU")
            if v["total_time"] > 0:
                near(v["efficiency"], v["productive_time"] / v["total_time"], 1e-6, who + ": efficiency")
        for r, p in enumerate(procs):
            who = "%s, rank %d" % (name, r)
            near(p["cpu_time"], p["execution_time"] - p["mpi_time"], 1e-6, who + ": CPU = execution - MPI")
            near(p["total_time"], m["execution_time"], 1e-6, who + ": a process's total is the interval's execution")
            near(p["idle_time"], m["execution_time"] - p["execution_time"], 1e-6, who + ": idle")
            near(p["load_imbalance"], max(q["cpu_time"] for q in procs) - p["cpu_time"], 1e-6,
                 who + ": load imbalance")
        near(m["execution_time"], max(p["execution_time"] for p in procs), 1e-6, name + ": execution = max")
        for key in ("total_time", "productive_time", "lost_time", "mpi_time", "cpu_time", "idle_time",
                    "communication_time", "sendrecv_time", "collective_time", "alltoall_time",
                    "time_of_start", "load_imbalance"):
            near(m[key], sum(p[key] for p in procs), 1e-6, "%s: %s is the sum over processes" % (name, key))
        for key, c in iv["comparative"].items():
            vals = [p[key] for p in procs]
            near(c["min"], min(vals), 1e-6, "%s: comparative %s min" % (name, key))
            near(c["max"], max(vals), 1e-6, "%s: comparative %s max" % (name, key))
            near(c["mean"], sum(vals) / 4, 1e-6, "%s: comparative %s mean" % (name, key))
            check(vals[c["min_rank"]] == min(vals) and vals[c["max_rank"]] == max(vals),
                  "%s: comparative %s ranks" % (name, key))

    # the timings, within generous tolerances: a sleep lasts at least as long as asked,
    # and on a busy machine somewhat longer
    s = [p["values"] for p in sleep["per_process"]]
    b = [p["values"] for p in barrier["per_process"]]
    for r in range(4):
        within(s[r]["execution_time"], 0.020 * (r + 1) - 0.001, 0.020 * (r + 1) + 0.030,
               "interval 1, rank %d: execution" % r)
        check(s[r]["mpi_time"] == 0, "interval 1, rank %d: MPI time %r in an interval without MPI calls"
              " (the markers are no MPI calls)" % (r, s[r]["mpi_time"]))
    within(sleep["main"]["execution_time"], 0.079, 0.110, "interval 1: execution")
    near(s[3]["idle_time"], 0, 0.010, "interval 1, rank 3: idle")
    near(s[0]["idle_time"], 0.060, 0.030, "interval 1, rank 0: idle")
    near(s[0]["load_imbalance"], 0.060, 0.030, "interval 1, rank 0: load imbalance")
    # rank 0 waits in the barrier for rank 3: at least about as long as rank 3 slept
    # longer, and on a loaded machine (4 processes polling on 2 cores) up to 0.12 s more
    late = s[3]["execution_time"] - s[0]["execution_time"]
    within(b[0]["collective_time"], late - 0.030, late + 0.120,
           "interval 2, rank 0: barrier (rank 3's arrival after rank 0's)")
    within(b[0]["collective_time"], 0.030, 0.250, "interval 2, rank 0: barrier")
    check(b[0]["collective_time"] > b[3]["collective_time"], "interval 2: rank 0 does not wait longer than rank 3")
    for r in range(4):
        near(b[r]["mpi_time"], b[r]["collective_time"], 1e-6, "interval 2, rank %d: MPI is the barrier" % r)
        near(b[r]["sendrecv_time"] + b[r]["alltoall_time"] + b[r]["time_of_start"], 0, 1e-9,
             "interval 2, rank %d: no point-to-point, all-to-all or nonblocking calls" % r)
    check(run["main"]["execution_time"] >= sleep["main"]["execution_time"] + barrier["main"]["execution_time"] - 1e-6,
          "whole run: shorter than its two intervals")

for f in failures:
    print("report.json: " + f, file=sys.stderr)
sys.exit(1 if failures else 0)
EOF

# Failures: one line on stderr naming the path, a nonzero exit status.
expect_error() {
    what=$1
    shift
    "$PZ_PROGNOZ" report "$@" >"$PZ_WORK/error.out" 2>"$PZ_WORK/error.err"
    rc=$?
    test $rc -ne 0 || pz_fail "prognoz report on $what exited with status 0"
    test ! -s "$PZ_WORK/error.out" || pz_fail "prognoz report on $what wrote to stdout"
    pz_expect_eq "prognoz report on $what: lines on stderr" 1 "$(wc -l <"$PZ_WORK/error.err")"
    grep -q -F -- "$1" "$PZ_WORK/error.err" ||
        pz_fail "prognoz report on $what: '$(cat "$PZ_WORK/error.err")' does not name $1"
}
expect_error "a missing directory" "$PZ_WORK/no-such-trace"
printf 'not a trace\n' >"$PZ_WORK/notes.txt"
expect_error "a text file" "$PZ_WORK/notes.txt"

# The expected JSON report of the unit tests is JSON.
"$PY" -m json.tool "$PZ_TOP_SRCDIR/tests/golden/nested_per_process.json" >/dev/null ||
    pz_fail "tests/golden/nested_per_process.json does not parse"
