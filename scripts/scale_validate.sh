#!/bin/sh
# How well prognoz scale extrapolates (the scaling validation harness): for each program
# of share/validation, record it at a few small process counts (2, 4 and 8 by default)
# with CPU times (PROGNOZ_CPU_TIME=1: the machine has fewer cores than processes), have
# prognoz scale extrapolate the recordings to larger counts (16 and 32) and predict them
# on a machine, record the same program really at those counts, and predict those
# recordings on the same machine.  Printed per program and count: whether every
# process makes the same MPI calls, function by function, and sends the same messages,
# size by size, in the synthesized run as in the real one (they must match exactly),
# and for the whole run and every interval the predicted execution time from the
# extrapolation against the prediction from the real recording (goal: within 10%, 5%
# at best).
#
#   scripts/scale_validate.sh [--reduced] [--machine FILE] [--from 2,4,8] [--to 16,32]
#                             [--programs "P1 P2 ..."] [--dir DIR]
#
#   --reduced        smaller problems and fewer programs (for CI)
#   --machine FILE   the machine to predict on (default: the shipped gigabit-switch)
#   --from COUNTS    the recorded counts the extrapolation starts from (default 2,4,8)
#   --to COUNTS      the counts extrapolated and recorded for comparison (default 16,32)
#   --programs LIST  the programs (default: every one that can be extrapolated)
#   --dir DIR        work directory (default ./_scale_validate at the top of the tree):
#                    recordings, reports, and the table in DIR/results.txt
#
# prognoz is taken as in scripts/validate.sh: PROGNOZ, else $PREFIX, else the build
# tree ${BUILDDIR:-./_build}, else ./_install.  MPICC and MPIEXEC name the MPI tools,
# VALIDATE_TIMEOUT the limit of one run in seconds (600).  The script fails only when
# something does not run; the table says how close the extrapolation came.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
reduced=0 machine=gigabit-switch from=2,4,8 to=16,32 programs="" dir=$top/_scale_validate
MPICC=${MPICC:-mpicc.mpich}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
limit=${VALIDATE_TIMEOUT:-600}
PY=${PYTHON:-python3}

die() {
    echo "scale_validate: $*" >&2
    exit 1
}

usage() {
    if [ "$1" -eq 0 ]; then
        sed -n '13,23s/^# \{0,1\}//p' "$0"
    else
        sed -n '13,23s/^# \{0,1\}//p' "$0" >&2
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
    --dir) [ $# -ge 2 ] || usage 2; dir=$2; shift ;;
    --dir=*) dir=${1#--dir=} ;;
    -h | --help) usage 0 ;;
    *) echo "scale_validate: unknown option '$1'" >&2; usage 2 ;;
    esac
    shift
done
for c in $(echo "$from,$to" | tr , ' '); do
    case $c in '' | *[!0-9]* | 0) die "'$c' is not a process count" ;; esac
done
if [ -r "$machine" ]; then
    machine=$(cd "$(dirname "$machine")" && pwd)/$(basename "$machine")
fi

. "$top/scripts/find_prognoz.sh"
command -v otf2-print >/dev/null 2>&1 || die "otf2-print is needed to count the calls"

# The programs whose runs follow a pattern of the process grid, and their argument
# (iterations, keys...): full size, reduced.
if [ -z "$programs" ]; then
    programs="stencil halo2d halo3d wavefront cg transpose fft3d ring pipeline multigrid bucketsort"
    [ $reduced -eq 1 ] && programs="stencil halo2d"
fi
size_of() {
    case $1 in
    ring) echo "100 10" ;;
    stencil) echo "200 20" ;;
    halo2d) echo "200 20" ;;
    halo3d) echo "100 10" ;;
    wavefront) echo "10 2" ;;
    cg) echo "100 10" ;;
    transpose) echo "40 4" ;;
    fft3d) echo "10 2" ;;
    pipeline) echo "200 20" ;;
    multigrid) echo "10 2" ;;
    bucketsort) echo "256 32" ;;
    *) echo "" ;;
    esac | cut -d' ' -f$((reduced + 1))
}

mkdir -p "$dir/bin" || die "cannot create '$dir'"
dir=$(cd "$dir" && pwd)
echo "scale_validate: prognoz $PROGNOZ, machine $machine, from $from to $to, work directory $dir"
for p in $programs; do
    [ -r "$top/share/validation/$p.c" ] || die "no program share/validation/$p.c"
    "$MPICC" -std=c11 -g -O2 -Wall -Wextra -I"$include" -o "$dir/bin/$p" \
        "$top/share/validation/$p.c" -lm || die "cannot build share/validation/$p.c"
done

# record OUT N PROG ARG: PROG on N processes over shared memory with CPU times, recorded
# into OUT; its output in OUT.out and OUT.err.
record() {
    rm -rf "$1"
    PROGNOZ_CPU_TIME=1 UCX_TLS=sm,self timeout "$limit" "$PROGNOZ" record -o "$1" -- \
        "$MPIEXEC" -n "$2" "$dir/bin/$3" $4 >"$1.out" 2>"$1.err" ||
        { tail -5 "$1.err" >&2; die "$3 on $2 processes: failed or timed out (above)"; }
    [ -f "$1/traces.otf2" ] || die "$3 on $2 processes: no trace in $1"
}

# calls TRACE OUT: every process's MPI calls, counted by function, and the messages it
# sends, counted by size, into OUT as lines "LOCATION FUNCTION COUNT" and "LOCATION
# MPI_SEND:BYTES COUNT" (MPI_ISEND:BYTES for nonblocking sends).
calls() {
    otf2-print "$1/traces.otf2" 2>/dev/null |
        awk '$1 == "ENTER" && $5 ~ /^"MPI_/ { n[$2 " " $5]++ }
             $1 == "MPI_SEND" || $1 == "MPI_ISEND" {
                 for (i = 4; i < NF; i++)
                     if ($i == "Length:") { b = $(i + 1); sub(",", "", b); n[$2 " " $1 ":" b]++ }
             }
             END { for (k in n) print k, n[k] }' |
        tr -d '"' | sort >"$2"
}

for p in $programs; do
    arg=$(size_of "$p")
    rm -rf "${dir:?}/$p"
    mkdir -p "$dir/$p"
    recs=""
    for n in $(echo "$from" | tr , ' '); do
        record "$dir/$p/rec-$n" "$n" "$p" "$arg"
        recs="$recs $dir/$p/rec-$n"
    done
    # shellcheck disable=SC2086 # the recordings are separate arguments
    timeout "$limit" "$PROGNOZ" scale $recs --ranks "$to" --machine "$machine" --compute cpu \
        --format json --trace-out "$dir/$p/synth" -o "$dir/$p/scale.json" \
        2>"$dir/$p/scale.err" ||
        { cat "$dir/$p/scale.err" >&2; echo "scale_validate: $p: prognoz scale failed (above)" >&2
          echo "failed" >"$dir/$p/scale.failed"; continue; }
    for n in $(echo "$to" | tr , ' '); do
        record "$dir/$p/real-$n" "$n" "$p" "$arg"
        timeout "$limit" "$PROGNOZ" predict "$dir/$p/real-$n" --machine "$machine" \
            --compute cpu --format json >"$dir/$p/real-$n.json" 2>"$dir/$p/real-$n.predict.err" ||
            { cat "$dir/$p/real-$n.predict.err" >&2; die "$p: prognoz predict $dir/$p/real-$n failed"; }
        calls "$dir/$p/real-$n" "$dir/$p/real-$n.calls"
        calls "$dir/$p/synth/P$n" "$dir/$p/synth-$n.calls"
    done
    echo "scale_validate: $p $arg: recorded at $from, extrapolated and recorded at $to"
done

"$PY" - "$dir" "$to" $programs <<'EOF' || die "cannot compare the runs (above)"
import json, os, statistics, sys

work, counts, programs = sys.argv[1], [int(c) for c in sys.argv[2].split(",")], sys.argv[3:]


def load(path):
    with open(path) as f:
        return json.load(f)


def key(iv):
    return (os.path.basename(iv["file"]), iv["line"], iv["id"])


def label(iv):
    return "whole run" if iv["level"] == 0 else "%d at %s:%d" % (
        iv["id"], os.path.basename(iv["file"]), iv["line"])


lines = ["%-11s %6s %-26s %12s %12s %8s %s" % ("program", "ranks", "interval", "real-based s",
                                               "scaled s", "error %", "calls")]
whole, intervals, mismatched = [], [], []
for p in programs:
    if os.path.exists("%s/%s/scale.failed" % (work, p)):
        lines.append("%-11s %6s %-26s %s" % (p, "-", "-", "prognoz scale failed: " +
                     open("%s/%s/scale.err" % (work, p)).read().strip().splitlines()[-1]))
        continue
    scaled = load("%s/%s/scale.json" % (work, p))
    for n in counts:
        # the prediction on the one machine: its report (docs/report.md, "JSON")
        real = load("%s/%s/real-%d.json" % (work, p, n))["predictions"][0]["report"]
        same = open("%s/%s/real-%d.calls" % (work, p, n)).read() == \
            open("%s/%s/synth-%d.calls" % (work, p, n)).read()
        if not same:
            mismatched.append("%s at %d" % (p, n))
        by_key = {}
        for iv in scaled["intervals"]:
            for e in iv["machines"][0]["entries"]:
                if e["ranks"] == n:
                    by_key[key(iv)] = e["execution_time"]
        for iv in real["intervals"]:
            t = iv["main"]["execution_time"]
            s = by_key.get(key(iv))
            err = 100.0 * (s - t) / t if s is not None and t > 0 else None
            if err is not None:
                (whole if iv["level"] == 0 else intervals).append(abs(err))
            lines.append("%-11s %6d %-26s %12.4f %12s %8s %s" % (
                p, n, label(iv), t, "-" if s is None else "%.4f" % s,
                "-" if err is None else "%+.1f" % err, "same" if same else "DIFFER"))


def summary(what, errs):
    if not errs:
        return "%s: no comparison" % what
    return "%s: median |error| %.1f%%, max |error| %.1f%% (%d cases; goal: within 10%%)" % (
        what, statistics.median(errs), max(errs), len(errs))


lines += ["", summary("whole run", whole), summary("intervals", intervals),
          "calls and message sizes per process: %s" % (
              "the same in every case" if not mismatched else
              "differ in " + ", ".join(mismatched))]
text = "\n".join(lines) + "\n"
sys.stdout.write("\n" + text)
with open(os.path.join(work, "results.txt"), "w") as f:
    f.write(text)
EOF
echo "scale_validate: the results are in $dir/results.txt"
