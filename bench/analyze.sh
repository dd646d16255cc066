#!/bin/sh
# make bench, second part: the analyzer's speed and peak memory against a bare OTF2 read
# of the same synthetic trace (bench/README.md, "The analyzer").
#
# Usage: analyze.sh BUILDDIR      (make bench passes it, after building bench/gentrace
#                                  and bench/analyze there)
# Environment:
#   PROGNOZ_BENCH_ITERATIONS      iterations of the speed trace (default 10000: 64 ranks,
#                                 10.2 million events)
#   PROGNOZ_BENCH_BIG_ITERATIONS  iterations of the memory trace (default 100000: 64 ranks,
#                                 102 million events, 1 to 2 GB on disk); 0 skips it
#   PROGNOZ_BENCH_ANALYZER_REPS   runs of each measure on the speed trace (default 3)
#
# The traces are written under ${TMPDIR:-/tmp} and deleted at the end.  The bare read and
# the analysis run alternately, each in a fresh process; the figures are medians.  The
# script fails only when something fails, never because a target is missed.
set -u
. "$(dirname "$0")/lib.sh"

if [ $# -ne 1 ]; then
    echo "usage: $0 BUILDDIR" >&2
    exit 2
fi
builddir=$1
gentrace=$builddir/bench/gentrace
analyze=$builddir/bench/analyze
results=$builddir/bench-analyzer.log
ranks=64
iterations=${PROGNOZ_BENCH_ITERATIONS:-10000}
big=${PROGNOZ_BENCH_BIG_ITERATIONS:-100000}
reps=${PROGNOZ_BENCH_ANALYZER_REPS:-3}
limit_mb=256

for v in "$iterations" "$big" "$reps"; do
    case $v in
        '' | *[!0-9]*) fail "'$v' is not a number (PROGNOZ_BENCH_*)" ;;
    esac
done
[ "$iterations" -gt 0 ] && [ "$reps" -gt 0 ] ||
    fail "iterations and repetitions must be positive"
[ -x "$gentrace" ] && [ -x "$analyze" ] ||
    fail "$gentrace or $analyze is missing: run make bench"

work=$(mktemp -d "${TMPDIR:-/tmp}/prognoz-bench-analyzer.XXXXXX") ||
    fail "cannot create a work directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# generate DIR ITERATIONS: writes a trace, prints gentrace's line and the time it took
generate() {
    start=$(date +%s.%N)
    line=$("$gentrace" "$1" --ranks "$ranks" --iterations "$2") || fail "gentrace failed"
    end=$(date +%s.%N)
    kb=$(du -sk "$1" | cut -f1)
    echo "$line" >>"$work/gen"
    printf '  generated %s events (%d ranks x %d iterations) in %s s: %d MB on disk\n' \
        "$(value events "$line")" "$ranks" "$2" \
        "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" $((kb / 1024))
}

# measure MODE TRACE TAG: one run of analyze; appends "TAG MODE SECONDS EV/S MB
# EV/CPU-S" to runs
measure() {
    line=$("$analyze" --only "$1" "$2") || fail "analyze --only $1 $2 failed"
    echo "$3 $1 $(value seconds "$line") $(value events_per_sec "$line") $(value peak_mb "$line")" \
         "$(value events_per_cpu_sec "$line")" >>"$work/runs"
    printf '  %-8s %8s s %10s events/s %10s events/CPU s %8s MB peak\n' "$1" \
        "$(value seconds "$line")" "$(value events_per_sec "$line")" \
        "$(value events_per_cpu_sec "$line")" "$(value peak_mb "$line")"
}

# column TAG MODE FIELD: the values of one field (3 seconds, 4 events/s, 5 MB,
# 6 events/CPU s)
column() {
    awk -v tag="$1" -v mode="$2" -v f="$3" '$1 == tag && $2 == mode { print $f }' "$work/runs"
}

: >"$work/runs"
started="$(date -u '+%Y-%m-%d %H:%M UTC'), load average $(load)"
echo
echo "prognoz analyzer benchmark: $ranks ranks, $started"
echo "speed trace, $iterations iterations:"
generate "$work/small" "$iterations"
events=$(value events "$(tail -n 1 "$work/gen")")
rep=1
while [ "$rep" -le "$reps" ]; do
    # alternate the order, so that a drift of the machine favours neither
    if [ $((rep % 2)) -eq 1 ]; then order="bare analysis"; else order="analysis bare"; fi
    for mode in $order; do
        measure "$mode" "$work/small" small
    done
    rep=$((rep + 1))
done
small_kb=$(du -sk "$work/small" | cut -f1)
rm -rf "$work/small"

bare_rate=$(column small bare 4 | median)
ana_rate=$(column small analysis 4 | median)
bare_s=$(column small bare 3 | median)
ana_s=$(column small analysis 3 | median)
bare_mb=$(column small bare 5 | median)
ana_mb=$(column small analysis 5 | median)
bare_cpu=$(column small bare 6 | median)
ana_cpu=$(column small analysis 6 | median)
ratio=$(awk -v a="$ana_rate" -v b="$bare_rate" 'BEGIN { printf "%.2f", a / b }')
cpu_ratio=$(awk -v a="$ana_cpu" -v b="$bare_cpu" 'BEGIN { printf "%.2f", a / b }')

big_line="Target peak memory < $limit_mb MB: not judged, the memory trace was skipped"
big_line="$big_line (PROGNOZ_BENCH_BIG_ITERATIONS=0)"
if [ "$big" -gt 0 ]; then
    # the big trace's size from the small one's, with a margin of a quarter and 1 GB
    need_kb=$((small_kb * big / iterations + small_kb * big / iterations / 4 + 1048576))
    have_kb=$(available_kb)
    if [ "$have_kb" -lt "$need_kb" ]; then
        big_line="Target peak memory < $limit_mb MB: not judged, the memory trace was skipped:"
        big_line="$big_line it needs about $((need_kb / 1024)) MB in $(dirname "$work")"
        big_line="$big_line and $((have_kb / 1024)) MB are free"
        echo "memory trace: SKIPPED, not enough disk space (about $((need_kb / 1024)) MB needed," \
             "$((have_kb / 1024)) MB free in $(dirname "$work"))"
    else
        echo "memory trace, $big iterations:"
        generate "$work/big" "$big"
        big_events=$(value events "$(tail -n 1 "$work/gen")")
        measure bare "$work/big" big
        measure analysis "$work/big" big
        rm -rf "$work/big"
        big_bare_mb=$(column big bare 5)
        big_ana_mb=$(column big analysis 5)
        big_ratio=$(awk -v a="$(column big analysis 4)" -v b="$(column big bare 4)" \
                        'BEGIN { printf "%.2f", a / b }')
        big_cpu_ratio=$(awk -v a="$(column big analysis 6)" -v b="$(column big bare 6)" \
                            'BEGIN { printf "%.2f", a / b }')
        verdict=$(awk -v m="$big_ana_mb" -v l="$limit_mb" \
                      'BEGIN { print (m < l ? "MET" : "MISSED") }')
        big_line=$(printf '%s %d MB on %s events of %d ranks: %s (analysis %s MB, %s %s MB;' \
            "Target peak memory <" "$limit_mb" "$big_events" "$ranks" "$verdict" \
            "$big_ana_mb" "bare read" "$big_bare_mb")
        big_line="$big_line analysis/bare speed $big_ratio, per CPU second $big_cpu_ratio)"
    fi
fi

{
    echo "prognoz $(sed -n 's/^version=//p' "$(dirname "$0")/../VERSION" 2>/dev/null), $(uname -n)," \
         "$(nproc 2>/dev/null || echo '?') cores; started $started," \
         "ended with load average $(load)"
    printf '\n%s events, %d ranks: medians of %d runs each\n' "$events" "$ranks" "$reps"
    printf '%-10s %9s %14s %14s %10s\n' "" "seconds" "events/s" "events/CPU s" "peak MB"
    printf '%-10s %9s %14s %14s %10s\n' "bare read" "$bare_s" "$bare_rate" "$bare_cpu" \
        "$bare_mb"
    printf '%-10s %9s %14s %14s %10s\n' "analysis" "$ana_s" "$ana_rate" "$ana_cpu" "$ana_mb"
    echo
    printf '%s: %s (analysis/bare speed %s, per CPU second %s)\n' \
        "Target analysis at least half as fast as the bare read" \
        "$(awk -v r="$ratio" 'BEGIN { print (r >= 0.5 ? "MET" : "MISSED") }')" "$ratio" \
        "$cpu_ratio"
    echo "$big_line"
} >"$work/table"
cp "$work/table" "$results" || fail "cannot write $results"
echo
tail -n +2 "$work/table"
echo
echo "table in $results"
