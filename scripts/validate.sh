#!/bin/sh
# How accurate prognoz predict is (issue 7's validation harness): for each program of
# share/validation, on 2 ranks, record it over shared memory (UCX_TLS=sm,self), predict
# that recording on a machine file of the TCP transport (calibrated once, with
# UCX_TLS=tcp,self mpiexec -n 2 prognoz calibrate), run it for real over TCP (recorded
# too, so that prognoz report gives the measured time of every interval), and print
# measured against predicted execution time for the whole run and every interval, the
# error in percent, and the median and largest |error| over all programs.  Where
# SimGrid's smpirun is installed, the first recording of each program is also exported
# (prognoz export --simgrid) and replayed by SimGrid on the equivalent platform: its
# prediction and the time its replay took are printed next to prognoz's.
#
#   scripts/validate.sh [--reduced] [--machine FILE] [--reps N] [--dir DIR]
#
#   --reduced       smaller problems, one run each (for CI: under a minute)
#   --machine FILE  predict on FILE instead of calibrating the TCP transport
#   --reps N        runs of each kind per program, the medians are compared
#                   (default 5, 1 with --reduced)
#   --dir DIR       work directory (default ./_validate at the top of the tree): the
#                   programs, traces, reports and predictions, and the results in
#                   DIR/results.txt (the table) and DIR/results.json (every run)
#
# prognoz is taken from PROGNOZ (the command; PROGNOZ_LIB then names libprognoz.so),
# else from $PREFIX if set, else from the build tree ${BUILDDIR:-./_build} if it is built,
# else from ./_install.  MPICC and MPIEXEC name the MPI tools (mpicc, mpiexec),
# VALIDATE_TIMEOUT the limit of one run in seconds (120).  The accuracy is measured, not
# judged: the script fails only when something does not run.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
reduced=0 machine="" reps="" dir=$top/_validate
MPICC=${MPICC:-mpicc}
MPIEXEC=${MPIEXEC:-mpiexec}
limit=${VALIDATE_TIMEOUT:-120}
PY=${PYTHON:-python3}

die() {
    echo "validate: $*" >&2
    exit 1
}

usage() {
    if [ "$1" -eq 0 ]; then
        sed -n '10,18s/^# \{0,1\}//p' "$0"
    else
        sed -n '10,18s/^# \{0,1\}//p' "$0" >&2
    fi
    exit "$1"
}

while [ $# -gt 0 ]; do
    case $1 in
    --reduced) reduced=1 ;;
    --machine) [ $# -ge 2 ] || usage 2; machine=$2; shift ;;
    --machine=*) machine=${1#--machine=} ;;
    --reps) [ $# -ge 2 ] || usage 2; reps=$2; shift ;;
    --reps=*) reps=${1#--reps=} ;;
    --dir) [ $# -ge 2 ] || usage 2; dir=$2; shift ;;
    --dir=*) dir=${1#--dir=} ;;
    -h | --help) usage 0 ;;
    *) echo "validate: unknown option '$1'" >&2; usage 2 ;;
    esac
    shift
done
[ -n "$reps" ] || reps=$((reduced ? 1 : 5))
case $reps in '' | *[!0-9]* | 0) die "--reps '$reps': expected a whole number from 1" ;; esac
if [ -n "$machine" ]; then
    [ -r "$machine" ] || die "cannot read the machine file '$machine'"
    machine=$(cd "$(dirname "$machine")" && pwd)/$(basename "$machine")
fi

# prognoz: the command, the library it preloads, the header.
include=$top/include
if [ -n "${PROGNOZ:-}" ]; then
    :
elif [ -n "${PREFIX:-}" ]; then
    PROGNOZ=$PREFIX/bin/prognoz include=$PREFIX/include
elif [ -x "${BUILDDIR:-$top/_build}/tools/prognoz" ]; then
    build=${BUILDDIR:-$top/_build}
    PROGNOZ=$build/tools/prognoz
    PROGNOZ_LIB=${PROGNOZ_LIB:-$build/wrapper/.libs/libprognoz.so}
    export PROGNOZ_LIB
    if [ -z "${PROGNOZ_CALIBRATE:-}" ] && [ -x "$build/tools/prognoz-calibrate" ]; then
        PROGNOZ_CALIBRATE=$build/tools/prognoz-calibrate
        export PROGNOZ_CALIBRATE
    fi
else
    PROGNOZ=$top/_install/bin/prognoz include=$top/_install/include
fi
[ -x "$PROGNOZ" ] || die "no prognoz command at '$PROGNOZ' (run scripts/setup.sh, or set PROGNOZ)"
[ -r "$include/prognoz.h" ] || include=$top/include
"$PY" -c 'import json, statistics' 2>/dev/null || die "$PY with the json module is needed"

# The programs and their argument (iterations, tasks, chunks, Ki keys): full size, reduced.
programs="ring stencil cg transpose master_worker pipeline wavefront bucketsort fft3d multigrid halo3d halo2d"
size_of() {
    case $1 in
    ring) echo "800 100" ;;
    stencil) echo "300 40" ;;
    cg) echo "200 30" ;;
    transpose) echo "120 20" ;;
    master_worker) echo "400 60" ;;
    pipeline) echo "700 120" ;;
    wavefront) echo "80 6" ;;
    bucketsort) echo "2048 256" ;;
    fft3d) echo "50 5" ;;
    multigrid) echo "100 8" ;;
    halo3d) echo "600 60" ;;
    halo2d) echo "600 60" ;;
    esac | cut -d' ' -f$((reduced + 1))
}

mkdir -p "$dir/bin" || die "cannot create '$dir'"
dir=$(cd "$dir" && pwd)
rm -f "$dir/finalize-hangs"
echo "validate: prognoz $PROGNOZ, work directory $dir"
for p in $programs; do
    "$MPICC" -std=c11 -g -O2 -Wall -Wextra -I"$include" -o "$dir/bin/$p" \
        "$top/share/validation/$p.c" || die "cannot build share/validation/$p.c"
done

# watch PID LOG PATTERN: waits for the job PID (started by setsid, so that it leads its
# own process group) and sets job_status: its exit status, 124 if it ran for more than
# $limit seconds, or "hung" if it was still running 2 s after a line matching PATTERN
# appeared in LOG.  MPICH 4.0.2 over UCX's tcp transport often hangs in MPI_Finalize:
# one rank waits in ucp_worker_progress for its endpoint to close while the other sits
# in the PMI barrier and never progresses it (UCX issue 8738; pmodels/mpich#6596 removed
# that barrier).  By then the recorder has written the trace (and prognoz calibrate its
# machine file), and PATTERN is the line that says so: the job is ended (TERM to its
# process group; mpiexec takes its ranks down) and its output kept.
job=
watch() {
    job=$1 _ticks=0 _after=0 job_status=0
    while kill -0 "$job" 2>/dev/null; do
        sleep 0.1
        _ticks=$((_ticks + 1))
        grep -q "$3" "$2" && _after=$((_after + 1))
        if [ $_after -gt 20 ] || [ $_ticks -gt $((limit * 10)) ]; then
            kill -TERM "-$job" 2>/dev/null
            wait "$job"
            job='' job_status=124
            [ $_after -gt 20 ] && job_status=hung
            return
        fi
    done
    wait "$job" || job_status=$?
    job=""
}
trap '[ -n "$job" ] && kill -TERM "-$job" 2>/dev/null; exit 1' HUP INT TERM

# run NAME TLS PROG ARG: PROG on 2 ranks over the UCX transports TLS, recorded into
# NAME (a trace directory); its output in NAME.out and NAME.err.  Runs that hung in
# MPI_Finalize after writing the trace are listed in $dir/finalize-hangs.
run() {
    rm -rf "$1"
    UCX_TLS=$2 setsid "$PROGNOZ" record -o "$1" -- "$MPIEXEC" -n 2 "$dir/bin/$3" "$4" \
        >"$1.out" 2>"$1.err" &
    watch $! "$1.err" '^prognoz: recorded'
    case $job_status in
    0) [ -f "$1/traces.otf2" ] && return 0 ;;
    hung) echo "$1: ended 2 s after the trace was written (a hang in MPI_Finalize)" \
        >>"$dir/finalize-hangs"; return 0 ;;
    esac
    cat "$1.out" "$1.err" >&2
    [ "$job_status" = 124 ] && die "$3 over $2: timed out after ${limit}s"
    die "$3 over $2: exit status $job_status, or no trace (above)"
}

# The machine: the TCP transport between two ranks, calibrated once for all programs.
if [ -z "$machine" ]; then
    machine=$dir/tcp.conf
    rm -f "$machine"
    "$PROGNOZ" calibrate --help >/dev/null 2>&1 ||
        die "'$PROGNOZ calibrate' is not available: give a machine file with --machine FILE"
    quick=""
    [ $reduced -eq 1 ] && quick=--quick
    echo "validate: calibrating the TCP transport (UCX_TLS=tcp,self $MPIEXEC -n 2 prognoz calibrate${quick:+ $quick})"
    UCX_TLS=tcp,self setsid "$MPIEXEC" -n 2 "$PROGNOZ" calibrate -o "$machine" $quick \
        >"$dir/calibrate.out" 2>&1 &
    watch $! "$dir/calibrate.out" '^wrote '
    case $job_status in
    0 | hung) [ -s "$machine" ] || die "the calibration wrote no $machine" ;;
    *) cat "$dir/calibrate.out" >&2; die "the calibration failed (status $job_status, above)" ;;
    esac
fi
echo "validate: machine $machine"

# seconds_since T0: the seconds since the date +%s.%N T0.
seconds_since() {
    awk -v t0="$1" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.6f\n", t1 - t0 }'
}

# simgrid REC OUT: the recorded run REC exported for SimGrid on the machine and replayed
# with smpirun; OUT.time gets SimGrid's simulated time and the replay's wall seconds.
# Nothing when smpirun is not installed.
simgrid() {
    command -v smpirun >/dev/null 2>&1 || return 0
    rm -rf "$2"
    "$PROGNOZ" export "$1" --simgrid "$2" --machine "$machine" >/dev/null 2>"$2.err" ||
        { cat "$2.err" >&2; die "prognoz export $1 failed (above)"; }
    t0=$(date +%s.%N)
    timeout "$limit" smpirun -np 2 -platform "$2/platform.xml" -hostfile "$2/hostfile" \
        -replay "$2/traces.txt" >"$2.log" 2>&1 ||
        { tail -5 "$2.log" >&2; die "smpirun -replay $2 failed (above)"; }
    echo "$(sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p' "$2.log" | tail -1) $(seconds_since "$t0")" \
        >"$2.time"
}

# Every program: REPS recordings over shared memory, each predicted on the machine (and
# the first also replayed by SimGrid on the equivalent platform), and
# REPS real runs over TCP, each reported; alternately, so that a change in the load of
# the machine falls on both.
for p in $programs; do
    arg=$(size_of "$p")
    rm -rf "${dir:?}/$p"
    mkdir -p "$dir/$p"
    k=1
    while [ $k -le "$reps" ]; do
        run "$dir/$p/sm-$k" sm,self "$p" "$arg"
        t0=$(date +%s.%N)
        timeout "$limit" "$PROGNOZ" predict "$dir/$p/sm-$k" --machine "$machine" --format json \
            >"$dir/$p/sm-$k.predicted.json" 2>"$dir/$p/sm-$k.predict.err" ||
            { cat "$dir/$p/sm-$k.predict.err" >&2; die "$p: prognoz predict $dir/$p/sm-$k failed (above)"; }
        seconds_since "$t0" >"$dir/$p/sm-$k.predict.time"
        if [ "$k" -eq 1 ]; then
            simgrid "$dir/$p/sm-1" "$dir/$p/simgrid"
        fi
        run "$dir/$p/tcp-$k" tcp,self "$p" "$arg"
        timeout "$limit" "$PROGNOZ" report "$dir/$p/tcp-$k" --format json \
            >"$dir/$p/tcp-$k.json" 2>"$dir/$p/tcp-$k.report.err" ||
            { cat "$dir/$p/tcp-$k.report.err" >&2; die "$p: prognoz report $dir/$p/tcp-$k failed (above)"; }
        k=$((k + 1))
    done
    echo "validate: $p $arg: $reps recorded over sm and predicted, $reps run over tcp"
done

# The table: medians over the runs, compared interval by interval.
"$PY" - "$dir" "$reps" "$machine" $programs <<'EOF' || die "cannot compare the runs (above)"
import json, os, statistics, sys

work, reps, machine, programs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]


def load(path):
    with open(path) as f:
        return json.load(f)


def times(report):
    """Execution time of every interval, keyed by (line, id), with its label."""
    out = {}
    for iv in report["intervals"]:
        key = (iv["line"], iv["id"])
        label = "whole run" if iv["level"] == 0 else "%d at %s:%d" % (
            iv["id"], os.path.basename(iv["file"]), iv["line"])
        out[key] = (label, iv["level"], iv["main"]["execution_time"])
    return out


rows, whole, intervals, record = [], [], [], {"machine": machine, "reps": reps, "programs": {}}
measured_run = {}
for p in programs:
    pred = [times(load("%s/%s/sm-%d.predicted.json" % (work, p, k))) for k in range(1, reps + 1)]
    real = [times(load("%s/%s/tcp-%d.json" % (work, p, k))) for k in range(1, reps + 1)]
    record["programs"][p] = []
    for key, (label, level, _) in real[0].items():
        m = [r[key][2] for r in real if key in r]
        q = [r[key][2] for r in pred if key in r]
        if not q:
            rows.append((p, label, statistics.median(m), None, None, None))
            continue
        mm, qm = statistics.median(m), statistics.median(q)
        err = 100.0 * (qm - mm) / mm if mm > 0 else None
        spread = 100.0 * (max(m) - min(m)) / mm if mm > 0 and len(m) > 1 else None
        rows.append((p, label, mm, qm, err, spread))
        if level == 0:
            measured_run[p] = mm
        if err is not None:
            (whole if level == 0 else intervals).append(abs(err))
        record["programs"][p].append({"interval": label, "level": level, "measured": m,
                                      "predicted": q, "error_percent": err})

lines = ["%-14s %-28s %11s %11s %8s %8s" % ("program", "interval", "measured s", "predicted s",
                                             "error %", "spread %")]
for p, label, mm, qm, err, spread in rows:
    lines.append("%-14s %-28s %11.4f %11s %8s %8s" % (
        p, label, mm, "-" if qm is None else "%.4f" % qm, "-" if err is None else "%+.1f" % err,
        "-" if spread is None else "%.1f" % spread))


def summary(what, errs):
    if not errs:
        return "%s: no comparison" % what
    return "%s: median |error| %.1f%%, max |error| %.1f%% (%d cases)" % (
        what, statistics.median(errs), max(errs), len(errs))


lines.append("")
lines.append(summary("whole run", whole))
lines.append(summary("intervals", intervals))


def simgrid_row(p):
    """prognoz's and SimGrid's predictions of the first recording, and their run times."""
    path = "%s/%s/simgrid.time" % (work, p)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        sim, replay = (float(x) for x in f.read().split())
    with open("%s/%s/sm-1.predict.time" % (work, p)) as f:
        ours_s = float(f.read())
    ours = times(load("%s/%s/sm-1.predicted.json" % (work, p)))
    return ([v for v in ours.values() if v[1] == 0][0][2], sim, ours_s, replay)


sg = [(p, simgrid_row(p)) for p in programs]
if any(r for _, r in sg):
    lines.append("")
    lines.append("%-14s %11s %11s %11s %10s %10s %13s %13s" % (
        "program", "measured s", "prognoz s", "SimGrid s", "prognoz %", "SimGrid %",
        "prognoz run s", "SimGrid run s"))
    for p, r in sg:
        if r:
            mm = measured_run.get(p, 0.0)
            pct = lambda v: "%+.1f" % (100.0 * (v - mm) / mm) if mm > 0 else "-"
            lines.append("%-14s %11.4f %11.4f %11.4f %10s %10s %13.3f %13.3f" % (
                p, mm, r[0], r[1], pct(r[0]), pct(r[1]), r[2], r[3]))
            record["programs"][p].append({"simgrid": {"prognoz": r[0], "simgrid": r[1],
                                                      "prognoz_seconds": r[2],
                                                      "simgrid_seconds": r[3]}})
text = "\n".join(lines) + "\n"
sys.stdout.write("\n" + text)
with open(os.path.join(work, "results.txt"), "w") as f:
    f.write("machine: %s; medians of %d run(s) of each kind; spread: (max - min) / median of the "
            "measured runs\n\n" % (machine, reps) + text)
record["whole_run"] = {"median": statistics.median(whole) if whole else None, "max": max(whole, default=None)}
record["intervals"] = {"median": statistics.median(intervals) if intervals else None,
                       "max": max(intervals, default=None)}
with open(os.path.join(work, "results.json"), "w") as f:
    json.dump(record, f, indent=1)
EOF
if [ -f "$dir/finalize-hangs" ]; then
    echo "validate: $(wc -l <"$dir/finalize-hangs") run(s) hung in MPI_Finalize after writing the trace and were ended ($dir/finalize-hangs)"
fi
echo "validate: the results are in $dir/results.txt (every run: $dir/results.json)"
