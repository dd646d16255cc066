# What the recorder notes of a run (programs/predict_balanced.c on 4 ranks): the JSON
# report's "recording" names the program, the date it started (within the minute around
# the test), the MPI library, 4 processes on one node with the cores PROGNOZ_CORES says,
# and whether CPU times were recorded.  Noted with 2 cores, the run is oversubscribed:
# prognoz report warns in one line (stderr and the JSON's warnings), prognoz predict
# says so too and times the computations by their CPU time, unless --compute wall is
# given; without CPU times it says to record them.  With 8 cores, nothing is said and
# the wall clock times them.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program predict_balanced) || exit 77
ideal=$PZ_TOP_SRCDIR/tests/integration/ideal.conf
PY=${PZ_PYTHON:-python3}
before=$(date -u +%s)
PZ_ENV="PROGNOZ_CORES=2 PROGNOZ_CPU_TIME=1" pz_record_ok over 4 "$prog"
PZ_ENV="PROGNOZ_CORES=2" pz_record_ok over-wall 4 "$prog"
PZ_ENV="PROGNOZ_CORES=8 PROGNOZ_CPU_TIME=1" pz_record_ok fits 4 "$prog"
after=$(date -u +%s)

# run NAME ARGS...: prognoz ARGS, its stdout in NAME.json and stderr in NAME.err
run() {
    _n=$1
    shift
    timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" "$@" >"$PZ_WORK/$_n.json" 2>"$PZ_WORK/$_n.err" ||
        pz_fail "prognoz $*: $(cat "$PZ_WORK/$_n.err")"
}
run report-over report "$PZ_WORK/over" --format json
run report-fits report "$PZ_WORK/fits" --format json
run predict-over predict "$PZ_WORK/over" --machine "$ideal" --format json
run predict-over-wall predict "$PZ_WORK/over" --machine "$ideal" --format json --compute wall
run predict-no-cpu predict "$PZ_WORK/over-wall" --machine "$ideal" --format json
run predict-fits predict "$PZ_WORK/fits" --machine "$ideal" --format json

"$PY" - "$PZ_WORK" "$before" "$after" <<'EOF' || pz_fail "the recording's notes and caveats (above)"
import calendar, json, os, sys, time

work, before, after = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def load(name):
    with open(os.path.join(work, name + ".json")) as f:
        return json.load(f)


def err(name):
    with open(os.path.join(work, name + ".err")) as f:
        return f.read().splitlines()


over, fits = load("report-over"), load("report-fits")
r = over["recording"]
check(r["program"] == "predict_balanced", "program %r" % r["program"])
check(r["mpi_library"] and "\t" not in r["mpi_library"] and "\n" not in r["mpi_library"],
      "mpi_library %r" % r["mpi_library"])
started = calendar.timegm(time.strptime(r["date"], "%Y-%m-%dT%H:%M:%SZ"))
check(before - 60 <= started <= after + 60, "date %r, not between the test's start and end" % r["date"])
check((r["processes"], r["threads"]) == (4, 4), "processes and threads %r" % ((r["processes"], r["threads"]),))
check(len(r["nodes"]) == 1 and r["nodes"][0]["processes"] == 4 and r["nodes"][0]["cores"] == 2,
      "nodes %r" % r["nodes"])
check(r["cpu_times"] is True and r["oversubscribed"] is True, "cpu_times, oversubscribed %r" % r)
caveat = [w for w in over["warnings"] if "oversubscribed" in w]
check(len(caveat) == 1 and "4 processes on 2 cores" in caveat[0], "warnings %r" % over["warnings"])
check(err("report-over") == ["prognoz report: warning: " + caveat[0]] if caveat else False,
      "report's stderr %r" % err("report-over"))
check(fits["recording"]["nodes"][0]["cores"] == 8 and not fits["recording"]["oversubscribed"],
      "8 cores: %r" % fits["recording"])
check(not fits["warnings"] and not err("report-fits"), "8 cores: warnings %r" % fits["warnings"])

for name, compute, says in (("predict-over", "cpu", "computations are timed by the CPU times"),
                            ("predict-over-wall", "wall", "--compute cpu would time them"),
                            ("predict-no-cpu", "wall", "record it with PROGNOZ_CPU_TIME=1"),
                            ("predict-fits", "wall", None)):
    got = load(name)["predictions"][0]["prediction"]["compute"]
    check(got == compute, "%s: compute %r, expected %r" % (name, got, compute))
    lines = err(name)
    if says:
        check(len(lines) == 1 and "oversubscribed" in lines[0] and says in lines[0],
              "%s: stderr %r, expected one line saying '%s'" % (name, lines, says))
    else:
        check(not lines, "%s: stderr %r" % (name, lines))
for f in failures:
    print("recording: " + f, file=sys.stderr)
sys.exit(1 if failures else 0)
EOF
