#!/bin/sh
# The scaling command's cost: prognoz scale extrapolating recordings at 4, 8 and 16
# processes (synthetic, bench/gentrace: a periodic ring with MPI_Irecv, MPI_Isend,
# MPI_Waitall and MPI_Allreduce, 4 calls per iteration, 2500 iterations = 10^4 calls per
# process) to 1024, 4096 and 16384 processes on one machine: wall seconds and peak
# memory of the whole command, and its CPU seconds (user and system: on a machine shared
# with other work, the wall clock also counts the others' turns).  As a baseline, at the
# counts gentrace can write (up to PROGNOZ_BENCH_SCALE_BASELINE), prognoz predict of the
# same run written directly at that count, run alternately with the extrapolation: the
# ratio says what the extrapolation costs beyond replaying a recording of that size
# (bench/README.md, "Scaling").  At the counts up to PROGNOZ_BENCH_SCALE_ALL, the same
# extrapolation with every pass replayed (--replay-passes all), run alternately with the
# default (which replays a sample of the passes of runs of over 2^26 records): the ratio
# of their seconds, and how far the default's whole-run time is from every pass's.
#
# Usage: scale.sh BUILDDIR
# Environment:
#   PROGNOZ_BENCH_SCALE_COUNTS      the counts extrapolated to (default "1024 4096 16384")
#   PROGNOZ_BENCH_SCALE_ITERATIONS  iterations of the recordings (default 2500)
#   PROGNOZ_BENCH_SCALE_REPS        runs of each measure (default 3)
#   PROGNOZ_BENCH_SCALE_BASELINE    the largest count with a baseline (default 1024)
#   PROGNOZ_BENCH_SCALE_ALL         the largest count replayed with every pass too
#                                   (default 4096)
#   PROGNOZ_BENCH_SCALE_TIMEOUT     seconds one run may take (default 1200)
#
# The work files go under ${TMPDIR:-/tmp} and are deleted.  The script fails only when
# something fails to run, never because a goal is missed (the goal: 16384 processes x
# 10^4 calls in under 60 s and 2 GB on a 2-core machine).
set -u
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || { echo "usage: $0 BUILDDIR" >&2; exit 2; }
builddir=$1
srcdir=$(cd "$(dirname "$0")/.." && pwd)
gentrace=$builddir/bench/gentrace
prognoz=$builddir/tools/prognoz
counts=${PROGNOZ_BENCH_SCALE_COUNTS:-1024 4096 16384}
iterations=${PROGNOZ_BENCH_SCALE_ITERATIONS:-2500}
reps=${PROGNOZ_BENCH_SCALE_REPS:-3}
baseline=${PROGNOZ_BENCH_SCALE_BASELINE:-1024}
every=${PROGNOZ_BENCH_SCALE_ALL:-4096}
limit=${PROGNOZ_BENCH_SCALE_TIMEOUT:-1200}
machine=$srcdir/share/machines/gigabit-switch.conf
results=$builddir/bench-scale.log

for v in $counts "$iterations" "$reps" "$baseline" "$every" "$limit"; do
    case $v in '' | *[!0-9]*) fail "'$v' is not a number (PROGNOZ_BENCH_SCALE_*)" ;; esac
done
[ -x "$gentrace" ] && [ -x "$prognoz" ] || fail "$gentrace or $prognoz is missing: run make bench"
[ -x /usr/bin/time ] || fail "/usr/bin/time is needed for the peak memory"
work=$(mktemp -d "${TMPDIR:-/tmp}/prognoz-bench-scale.XXXXXX") || fail "mktemp failed"
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

for n in 4 8 16; do
    "$gentrace" "$work/rec$n" --ranks $n --iterations "$iterations" >/dev/null ||
        fail "gentrace could not write the recording at $n processes"
done

# measure NAME COMMAND...: runs COMMAND, appends "NAME SECONDS PEAK_KB CPU_SECONDS" to
# $work/runs
measure() {
    _name=$1
    shift
    /usr/bin/time -f "%e %M %U %S" -o "$work/time" timeout "$limit" "$@" >/dev/null 2>"$work/err" ||
        { cat "$work/err" >&2; fail "$_name: $* failed or took more than ${limit}s"; }
    awk -v n="$_name" '{ print n, $1, $2, $3 + $4 }' "$work/time" >>"$work/runs"
    echo "bench: $_name $(awk '{ printf "%.2f s, %.0f MB, %.2f CPU s", $1, $2 / 1024, $3 + $4 }' "$work/time")"
}

# measure_scale NAME P OPTION...: measures the extrapolation to P, appending its
# whole-run time at P to $work/times as "NAME SECONDS"
measure_scale() {
    _n=$1
    _p=$2
    shift 2
    measure "$_n" "$prognoz" scale "$work/rec4" "$work/rec8" "$work/rec16" --ranks "$_p" \
        --machine "$machine" --format json -o "$work/scale.json" "$@"
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[2], next(e["execution_time"] for e in d["intervals"][0]["machines"][0]["entries"]
                        if e["ranks"] == int(sys.argv[3])))' "$work/scale.json" "$_n" "$_p" \
        >>"$work/times" || fail "$_n: no execution time at $_p processes in the report"
}

: >"$work/runs"
: >"$work/times"
for p in $counts; do
    if [ "$p" -le "$baseline" ]; then
        "$gentrace" "$work/direct$p" --ranks "$p" --iterations "$iterations" >/dev/null ||
            fail "gentrace could not write the run at $p processes"
    fi
    r=1
    while [ $r -le "$reps" ]; do
        if [ "$p" -le "$baseline" ] && [ $((r % 2)) -eq 0 ]; then
            measure "predict-$p" "$prognoz" predict "$work/direct$p" --machine "$machine"
        fi
        if [ "$p" -le "$every" ] && [ $((r % 2)) -eq 0 ]; then
            measure_scale "all-$p" "$p" --replay-passes all
        fi
        measure_scale "scale-$p" "$p"
        if [ "$p" -le "$every" ] && [ $((r % 2)) -eq 1 ]; then
            measure_scale "all-$p" "$p" --replay-passes all
        fi
        if [ "$p" -le "$baseline" ] && [ $((r % 2)) -eq 1 ]; then
            measure "predict-$p" "$prognoz" predict "$work/direct$p" --machine "$machine"
        fi
        r=$((r + 1))
    done
    rm -rf "$work/direct$p"
done

{
    echo "prognoz scale: recordings at 4, 8, 16 processes x $((iterations * 4)) calls," \
        "extrapolated; $reps runs each; $(date +%Y-%m-%d), load $(load)"
    printf '%-8s %12s %12s %12s %12s %10s %8s %10s\n' processes "seconds" "spread %" \
        "CPU seconds" "peak MB" "/ predict" "/ all" "T vs all"
    for p in $counts; do
        s=$(awk -v k="scale-$p" '$1 == k { print $2 }' "$work/runs" | median)
        lo=$(awk -v k="scale-$p" '$1 == k { print $2 }' "$work/runs" | sort -g | head -1)
        hi=$(awk -v k="scale-$p" '$1 == k { print $2 }' "$work/runs" | sort -g | tail -1)
        m=$(awk -v k="scale-$p" '$1 == k { print $3 }' "$work/runs" | median)
        cpu=$(awk -v k="scale-$p" '$1 == k { print $4 }' "$work/runs" | median)
        ratio=-
        if grep -q "^predict-$p " "$work/runs"; then
            b=$(awk -v k="predict-$p" '$1 == k { print $2 }' "$work/runs" | median)
            ratio=$(awk -v s="$s" -v b="$b" 'BEGIN { printf "%.2f", (b > 0 ? s / b : 0) }')
        fi
        all=- gap=-
        if grep -q "^all-$p " "$work/runs"; then
            a=$(awk -v k="all-$p" '$1 == k { print $2 }' "$work/runs" | median)
            all=$(awk -v s="$s" -v a="$a" 'BEGIN { printf "%.3f", (a > 0 ? s / a : 0) }')
            ts=$(awk -v k="scale-$p" '$1 == k { print $2; exit }' "$work/times")
            ta=$(awk -v k="all-$p" '$1 == k { print $2; exit }' "$work/times")
            gap=$(awk -v s="$ts" -v a="$ta" 'BEGIN { printf "%+.3f%%", (a > 0 ? 100 * (s - a) / a : 0) }')
        fi
        printf '%-8s %12.2f %12.0f %12.2f %12.0f %10s %8s %10s\n' "$p" "$s" \
            "$(awk -v lo="$lo" -v hi="$hi" -v s="$s" 'BEGIN { print (s > 0 ? 100 * (hi - lo) / s : 0) }')" \
            "$cpu" "$(awk -v m="$m" 'BEGIN { print m / 1024 }')" "$ratio" "$all" "$gap"
    done
} | tee "$results"
echo "bench: the table is in $results"
