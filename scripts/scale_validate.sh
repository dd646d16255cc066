#!/bin/sh
# How well prognoz scale extrapolates (the scaling validation harness): for each program
# of share/validation, record it at a few small process counts (2, 4 and 8 by default)
# with CPU times (PROGNOZ_CPU_TIME=1: the machine has fewer cores than processes), have
# prognoz scale extrapolate the recordings to larger counts (16 and 32) and predict them
# on a machine, record the same program really at those counts (several times), and
# predict those recordings on the same machine.  Printed per program and count: whether
# every process makes the same MPI calls, function by function, sends the same
# messages, size by size, and moves the same bytes in each kind of collective, in the
# synthesized run as in the real one (they must match exactly), and for the whole run
# and every interval the predicted execution time from the extrapolation against the
# median of the predictions from the real recordings (goal: within 10%, 5% at best),
# with the spread of those predictions: how much the reference itself moves from one
# recording to the next.
#
#   scripts/scale_validate.sh [--reduced] [--machine FILE] [--from 2,4,8] [--to 16,32]
#                             [--programs "P1 P2 ..."] [--reps N] [--mpi openmpi|mpich]
#                             [--dir DIR]
#
#   --reduced        smaller problems and fewer programs (for CI)
#   --machine FILE   the machine to predict on (default: the shipped gigabit-switch)
#   --from COUNTS    the recorded counts the extrapolation starts from (default 2,4,8)
#   --to COUNTS      the counts extrapolated and recorded for comparison (default 16,32)
#   --programs LIST  the programs (default: every one that can be extrapolated)
#   --reps N         real recordings at each count of --to (default 2, 1 with --reduced)
#   --mpi NAME       the MPI that runs the recordings (default openmpi when installed)
#   --dir DIR        work directory (default ./_scale_validate at the top of the tree):
#                    recordings, reports, and the table in DIR/results.txt
#
# Why Open MPI by default: with more processes than cores, MPICH's ch4:ucx waits by
# polling without yielding, so every waiting process takes its turn on a core, and a
# computation's own CPU time grows with the processes sharing its core (up to 7 times
# the work's at 16 processes on 2 cores here, and differently in every run), which no
# model of the program can extrapolate.  Open MPI told to yield when idle
# (OMPI_MCA_mpi_yield_when_idle=1) gives the core away while it waits: the same
# computation then takes the same CPU time at 2 and at 32 processes.
#
# prognoz is taken as in scripts/validate.sh: PROGNOZ, else $PREFIX, else the build
# tree ${BUILDDIR:-./_build}, else ./_install.  MPICC and MPIEXEC name the MPI tools
# (default those of --mpi), VALIDATE_TIMEOUT the limit of one run in seconds (600).
# The script fails only when something does not run; the table says how close the
# extrapolation came.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
reduced=0 machine=gigabit-switch from="" to=16,32 programs="" dir=$top/_scale_validate
reps="" mpi=mpich
command -v mpiexec.openmpi >/dev/null 2>&1 && mpi=openmpi
limit=${VALIDATE_TIMEOUT:-600}
PY=${PYTHON:-python3}

die() {
    echo "scale_validate: $*" >&2
    exit 1
}

usage() {
    if [ "$1" -eq 0 ]; then
        sed -n '16,28s/^# \{0,1\}//p' "$0"
    else
        sed -n '16,28s/^# \{0,1\}//p' "$0" >&2
    fi
    exit "$1"
}

while [ $# -gt 0 ]; do
    case $1 in
    --reduced) reduced=1 ;;
    --machine) [ $# -ge 2 ] || usage 2; machine=$2; shift ;;
    --machine=*) machine=${1#--machine=} ;;
    --from) [ $# -ge 2 ] || usage 2; from=$2; shift ;;
    --from=*) from=${1#--from=} ;;
    --to) [ $# -ge 2 ] || usage 2; to=$2; shift ;;
    --to=*) to=${1#--to=} ;;
    --programs) [ $# -ge 2 ] || usage 2; programs=$2; shift ;;
    --programs=*) programs=${1#--programs=} ;;
    --reps) [ $# -ge 2 ] || usage 2; reps=$2; shift ;;
    --reps=*) reps=${1#--reps=} ;;
    --mpi) [ $# -ge 2 ] || usage 2; mpi=$2; shift ;;
    --mpi=*) mpi=${1#--mpi=} ;;
    --dir) [ $# -ge 2 ] || usage 2; dir=$2; shift ;;
    --dir=*) dir=${1#--dir=} ;;
    -h | --help) usage 0 ;;
    *) echo "scale_validate: unknown option '$1'" >&2; usage 2 ;;
    esac
    shift
done
for c in $(echo "${from:-2},$to" | tr , ' '); do
    case $c in '' | *[!0-9]* | 0) die "'$c' is not a process count" ;; esac
done
[ -n "$reps" ] || reps=$((2 - reduced))
case $reps in '' | *[!0-9]* | 0) die "'$reps' is not a number of recordings" ;; esac
case $mpi in
mpich)
    MPICC=${MPICC:-mpicc.mpich} MPIEXEC=${MPIEXEC:-mpiexec.mpich} ;;
openmpi)
    MPICC=${MPICC:-mpicc.openmpi} MPIEXEC=${MPIEXEC:-mpiexec.openmpi}
    OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_rmaps_base_oversubscribe=1
    export OMPI_MCA_mpi_yield_when_idle OMPI_MCA_rmaps_base_oversubscribe
    if [ "$(id -u)" -eq 0 ]; then
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
    fi ;;
*) die "--mpi '$mpi': expected openmpi or mpich" ;;
esac
command -v "$MPIEXEC" >/dev/null 2>&1 || die "no $MPIEXEC for --mpi $mpi"
if [ -r "$machine" ]; then
    machine=$(cd "$(dirname "$machine")" && pwd)/$(basename "$machine")
fi

. "$top/scripts/find_prognoz.sh"
command -v otf2-print >/dev/null 2>&1 || die "otf2-print is needed to count the calls"

# The programs whose runs follow a pattern of the process grid, and their argument
# (iterations, keys...): full size|reduced.  Not lulesh: it runs at cubes only (1, 8,
# 27, 64), none of the counts extrapolated from and to here.
if [ -z "$programs" ]; then
    programs="stencil halo2d halo3d wavefront cg transpose fft3d ring pipeline multigrid bucketsort hpcg rmahalo alltoallp redblack"
    [ $reduced -eq 1 ] && programs="stencil halo2d"
fi
size_of() {
    case $1 in
    ring) echo "100|10" ;;
    stencil) echo "200|20" ;;
    halo2d) echo "200|20" ;;
    halo3d) echo "100 72|10 72" ;;   # 72^3: every block a whole number of planes at 12 and 18
    wavefront) echo "10|2" ;;
    cg) echo "100|10" ;;
    transpose) echo "40|4" ;;
    fft3d) echo "10|2" ;;
    pipeline) echo "200|20" ;;
    multigrid) echo "10|2" ;;
    bucketsort) echo "256|32" ;;
    hpcg) echo "10 16|2 8" ;;
    mix) echo "20|5" ;;
    rmahalo) echo "200 4194304|20 262144" ;;
    alltoallp) echo "40|4" ;;
    redblack) echo "200 4194304|20 262144" ;;
    *) echo "" ;;
    esac | cut -d'|' -f$((reduced + 1))
}

# The counts a program is recorded at for the extrapolation: --from, else its own.
from_of() {
    if [ -n "$from" ]; then
        echo "$from"
    else
        echo 2,4,8
    fi
}

# The counts of --to a program runs at: multigrid's coarsest grid has 16 rows, which the
# processes must divide.
to_of() {
    for n in $(echo "$to" | tr , ' '); do
        [ "$1" = multigrid ] && [ $((16 % n)) -ne 0 ] && continue
        printf '%s\n' "$n"
    done | paste -sd, -
}

mkdir -p "$dir/bin" || die "cannot create '$dir'"
dir=$(cd "$dir" && pwd)
echo "scale_validate: prognoz $PROGNOZ, $mpi, machine $machine, from ${from:-2,4,8} to $to, real recordings at each: $reps, work directory $dir"
for p in $programs; do
    [ -r "$top/share/validation/$p.c" ] || die "no program share/validation/$p.c"
    "$MPICC" -std=c11 -g -O2 -Wall -Wextra -I"$include" -o "$dir/bin/$p" \
        "$top/share/validation/$p.c" -lm || die "cannot build share/validation/$p.c"
done

# record OUT N PROG ARG: PROG on N processes over shared memory with CPU times, recorded
# into OUT; its output in OUT.out and OUT.err.
record() {
    rm -rf "$1"
    PROGNOZ_CPU_TIME=1 UCX_TLS=sm,self timeout "$limit" "$PROGNOZ" record --quiet -o "$1" -- \
        "$MPIEXEC" -n "$2" "$dir/bin/$3" $4 >"$1.out" 2>"$1.err" ||
        { tail -5 "$1.err" >&2; die "$3 on $2 processes: failed or timed out (above)"; }
    [ -f "$1/traces.otf2" ] || die "$3 on $2 processes: no trace in $1"
}

# calls TRACE OUT: every process's MPI calls, counted by function, the messages it
# sends, counted by size, and its collective operations, counted by operation and the
# bytes it sent and received in them, into OUT as lines "LOCATION FUNCTION COUNT",
# "LOCATION MPI_SEND:BYTES COUNT" (MPI_ISEND:BYTES for nonblocking sends),
# "LOCATION OPERATION:SENT:RECEIVED COUNT", and its one-sided transfers, counted by kind
# and size: "LOCATION RMA_PUT:BYTES COUNT" (RMA_GET, RMA_ATOMIC:SENT:RECEIVED) and
# operations on windows (fences, creations): "LOCATION RMA:OPERATION COUNT".
calls() {
    otf2-print "$1/traces.otf2" 2>/dev/null |
        awk '$1 == "ENTER" && $5 ~ /^"MPI_/ { n[$2 " " $5]++ }
             $1 == "MPI_SEND" || $1 == "MPI_ISEND" {
                 for (i = 4; i < NF; i++)
                     if ($i == "Length:") { b = $(i + 1); sub(",", "", b); n[$2 " " $1 ":" b]++ }
             }
             $1 == "MPI_COLLECTIVE_END" {
                 op = ""; sent = ""; got = ""
                 for (i = 4; i < NF; i++) {
                     if ($i == "Operation:") op = $(i + 1)
                     if ($i == "Sent:") sent = $(i + 1)
                     if ($i == "Received:") got = $(i + 1)
                 }
                 gsub(",", "", op); gsub(",", "", sent); gsub(",", "", got)
                 n[$2 " " op ":" sent ":" got]++
             }
             $1 == "RMA_PUT" || $1 == "RMA_GET" || $1 == "RMA_ATOMIC" {
                 k = $1
                 for (i = 4; i < NF; i++)
                     if ($i ~ /^(Bytes|Sent|Received):$/) { b = $(i + 1); sub(",", "", b); k = k ":" b }
                 n[$2 " " k]++
             }
             $1 == "RMA_COLLECTIVE_END" {
                 for (i = 4; i < NF; i++)
                     if ($i == "Operation:") { op = $(i + 1); sub(",", "", op); n[$2 " RMA:" op]++ }
             }
             END { for (k in n) print k, n[k] }' |
        tr -d '"' | sort >"$2"
}

for p in $programs; do
    arg=$(size_of "$p")
    rm -rf "${dir:?}/$p"
    mkdir -p "$dir/$p"
    recs=""
    counts=$(from_of "$p")
    for n in $(echo "$counts" | tr , ' '); do
        record "$dir/$p/rec-$n" "$n" "$p" "$arg"
        recs="$recs $dir/$p/rec-$n"
    done
    # shellcheck disable=SC2086 # the recordings are separate arguments
    targets=$(to_of "$p")
    timeout "$limit" "$PROGNOZ" scale $recs --ranks "$targets" --machine "$machine" --compute cpu \
        --format json --trace-out "$dir/$p/synth" -o "$dir/$p/scale.json" \
        2>"$dir/$p/scale.err" ||
        { cat "$dir/$p/scale.err" >&2; echo "scale_validate: $p: prognoz scale failed (above)" >&2
          echo "failed" >"$dir/$p/scale.failed"; continue; }
    # the repetitions interleaved over the counts: a slow spell of the machine then
    # touches one recording of several counts rather than every recording of one
    r=1
    while [ "$r" -le "$reps" ]; do
        for n in $(echo "$targets" | tr , ' '); do
            real=$dir/$p/real-$n-$r
            record "$real" "$n" "$p" "$arg"
            timeout "$limit" "$PROGNOZ" predict "$real" --machine "$machine" \
                --compute cpu --format json >"$real.json" 2>"$real.predict.err" ||
                { cat "$real.predict.err" >&2; die "$p: prognoz predict $real failed"; }
            calls "$real" "$real.calls"
        done
        r=$((r + 1))
    done
    for n in $(echo "$targets" | tr , ' '); do
        calls "$dir/$p/synth/P$n" "$dir/$p/synth-$n.calls"
    done
    echo "scale_validate: $p $arg: recorded at $counts, extrapolated and recorded at $targets"
done

"$PY" - "$dir" "$to" "$reps" $programs <<'EOF' || die "cannot compare the runs (above)"
import json, os, statistics, sys

work, counts = sys.argv[1], [int(c) for c in sys.argv[2].split(",")]
reps, programs = int(sys.argv[3]), sys.argv[4:]


def load(path):
    with open(path) as f:
        return json.load(f)


def key(iv):
    return (os.path.basename(iv["file"]), iv["line"], iv["id"])


def label(iv):
    return "whole run" if iv["level"] == 0 else "%d at %s:%d" % (
        iv["id"], os.path.basename(iv["file"]), iv["line"])


lines = ["%-11s %6s %-26s %12s %8s %12s %8s %s" % (
    "program", "ranks", "interval", "real-based s", "spread %", "scaled s", "error %", "calls")]
whole, intervals, spreads, mismatched = [], [], [], []
for p in programs:
    if os.path.exists("%s/%s/scale.failed" % (work, p)):
        lines.append("%-11s %6s %-26s %s" % (p, "-", "-", "prognoz scale failed: " +
                     open("%s/%s/scale.err" % (work, p)).read().strip().splitlines()[-1]))
        continue
    scaled = load("%s/%s/scale.json" % (work, p))
    for n in counts:
        if not os.path.exists("%s/%s/real-%d-1.json" % (work, p, n)):
            lines.append("%-11s %6d %-26s %s" % (p, n, "-", "not run at this count"))
            continue
        # the predictions on the one machine: their reports (docs/report.md, "JSON")
        reals = [load("%s/%s/real-%d-%d.json" % (work, p, n, r))["predictions"][0]["report"]
                 for r in range(1, reps + 1)]
        synth = open("%s/%s/synth-%d.calls" % (work, p, n)).read()
        same = all(open("%s/%s/real-%d-%d.calls" % (work, p, n, r)).read() == synth
                   for r in range(1, reps + 1))
        if not same:
            mismatched.append("%s at %d" % (p, n))
        by_key = {}
        for iv in scaled["intervals"]:
            for e in iv["machines"][0]["entries"]:
                if e["ranks"] == n:
                    by_key[key(iv)] = e["execution_time"]
        times = {}
        for real in reals:
            for iv in real["intervals"]:
                times.setdefault(key(iv), (iv, []))[1].append(iv["main"]["execution_time"])
        for k, (iv, ts) in times.items():
            t = statistics.median(ts)
            spread = 100.0 * (max(ts) - min(ts)) / t if t > 0 and len(ts) > 1 else None
            s = by_key.get(k)
            err = 100.0 * (s - t) / t if s is not None and t > 0 else None
            if err is not None:
                (whole if iv["level"] == 0 else intervals).append(abs(err))
            if spread is not None:
                spreads.append(spread)
            lines.append("%-11s %6d %-26s %12.4f %8s %12s %8s %s" % (
                p, n, label(iv), t, "-" if spread is None else "%.1f" % spread,
                "-" if s is None else "%.4f" % s,
                "-" if err is None else "%+.1f" % err, "same" if same else "DIFFER"))


def summary(what, errs):
    if not errs:
        return "%s: no comparison" % what
    return "%s: median |error| %.1f%%, max |error| %.1f%% (%d cases; goal: within 10%%)" % (
        what, statistics.median(errs), max(errs), len(errs))


lines += ["", summary("whole run", whole), summary("intervals", intervals),
          "spread of the real-based predictions: %s" % (
              "one recording each" if not spreads else "median %.1f%%, largest %.1f%%" % (
                  statistics.median(spreads), max(spreads))),
          "calls and message sizes per process: %s" % (
              "the same in every case" if not mismatched else
              "differ in " + ", ".join(mismatched))]
text = "\n".join(lines) + "\n"
sys.stdout.write("\n" + text)
with open(os.path.join(work, "results.txt"), "w") as f:
    f.write(text)
EOF
echo "scale_validate: the results are in $dir/results.txt"
