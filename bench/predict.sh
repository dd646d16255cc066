#!/bin/sh
# make bench, third part: the replay engine's speed (trace records replayed per CPU
# second) and peak memory on synthetic traces of 16, 256 and 4096 ranks, against a bare
# OTF2 read of the same traces (bench/README.md, "The predictor").
#
# Usage: predict.sh BUILDDIR      (make bench passes it, after building bench/gentrace
#                                  and bench/predict there)
# Environment:
#   PROGNOZ_BENCH_PREDICT_SIZES    the traces, RANKSxITERATIONS separated by spaces
#                                  (default "16x40000 256x2500 4096x625": 10.2, 10.2 and
#                                  41 million events; 16 per rank and iteration, so the
#                                  last is 10^4 events per rank)
#   PROGNOZ_BENCH_PREDICT_REPS     runs of each measure on each trace (default 3)
#   PROGNOZ_BENCH_PREDICT_MACHINE  the machine file (default
#                                  share/machines/gigabit-switch.conf)
#   PROGNOZ_BENCH_PREDICT_CHUNK    the traces' OTF2 chunk size in bytes, events and
#                                  definitions (default 262144, OTF2's smallest: the
#                                  reader holds one event chunk per rank, 4 GiB for 4096
#                                  ranks with the recorder's 1 MiB)
#
# The traces are written under ${TMPDIR:-/tmp}, one at a time, and deleted after use;
# a trace the disk has no room for is skipped with a message.  The measures run
# alternately, each in a fresh process; the figures are medians.  The script fails only
# when something fails, never because a target is missed.
set -u
. "$(dirname "$0")/lib.sh"

if [ $# -ne 1 ]; then
    echo "usage: $0 BUILDDIR" >&2
    exit 2
fi
builddir=$1
srcdir=$(cd "$(dirname "$0")/.." && pwd)
gentrace=$builddir/bench/gentrace
predict=$builddir/bench/predict
results=$builddir/bench-predictor.log
sizes=${PROGNOZ_BENCH_PREDICT_SIZES:-16x40000 256x2500 4096x625}
reps=${PROGNOZ_BENCH_PREDICT_REPS:-3}
machine=${PROGNOZ_BENCH_PREDICT_MACHINE:-$srcdir/share/machines/gigabit-switch.conf}
chunk=${PROGNOZ_BENCH_PREDICT_CHUNK:-262144}
target_rate=10000000
limit_mb=1024
limit_ranks=4096

for v in "$reps" "$chunk"; do
    case $v in
        '' | *[!0-9]*) fail "'$v' is not a number (PROGNOZ_BENCH_PREDICT_*)" ;;
    esac
done
[ "$reps" -gt 0 ] || fail "PROGNOZ_BENCH_PREDICT_REPS must be positive"
for s in $sizes; do
    case $s in
        *[!0-9x]* | x* | *x | *x*x* | [!x]) fail "'$s' is not RANKSxITERATIONS" ;;
        *x*) ;;
        *) fail "'$s' is not RANKSxITERATIONS" ;;
    esac
    [ "${s%x*}" -ge 2 ] && [ "${s#*x}" -ge 1 ] || fail "'$s': at least 2 ranks, 1 iteration"
done
[ -x "$gentrace" ] && [ -x "$predict" ] ||
    fail "$gentrace or $predict is missing: run make bench"
[ -r "$machine" ] || fail "cannot read the machine file $machine"

work=$(mktemp -d "${TMPDIR:-/tmp}/prognoz-bench-predictor.XXXXXX") ||
    fail "cannot create a work directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# measure MODE TRACE RANKS: one run of predict; appends "RANKS MODE SECONDS CPU-S
# REC/CPU-S PEAK-MB" to runs
measure() {
    line=$("$predict" --machine "$machine" --only "$1" "$2") ||
        fail "predict --only $1 $2 failed"
    echo "$3 $1 $(value seconds "$line") $(value cpu_seconds "$line")" \
         "$(value records_per_cpu_sec "$line") $(value peak_mb "$line")" >>"$work/runs"
    printf '  %-8s %8s s %8s CPU s %10s records/CPU s %8s MB peak\n' "$1" \
        "$(value seconds "$line")" "$(value cpu_seconds "$line")" \
        "$(value records_per_cpu_sec "$line")" "$(value peak_mb "$line")"
}

# column RANKS MODE FIELD: the values of one field (3 seconds, 4 CPU seconds,
# 5 records/CPU s, 6 MB)
column() {
    awk -v r="$1" -v mode="$2" -v f="$3" '$1 == r && $2 == mode { print $f }' "$work/runs"
}

: >"$work/runs"
: >"$work/rows"
: >"$work/skipped"
started="$(date -u '+%Y-%m-%d %H:%M UTC'), load average $(load)"
echo
echo "prognoz predictor benchmark: machine $(basename "$machine"), $started"
for s in $sizes; do
    ranks=${s%x*}
    iterations=${s#*x}
    events=$((ranks * (16 * iterations + 4)))
    # about 11 bytes of archive per event, a quarter more, and 256 MB to spare
    need_kb=$((events * 11 / 1024 * 5 / 4 + 262144))
    have_kb=$(available_kb)
    if [ "$have_kb" -lt "$need_kb" ]; then
        echo "$ranks ranks: SKIPPED, not enough disk space (about $((need_kb / 1024)) MB" \
             "needed, $((have_kb / 1024)) MB free in $(dirname "$work"))" | tee -a "$work/skipped"
        continue
    fi
    echo "$ranks ranks x $iterations iterations:"
    start=$(date +%s.%N)
    line=$("$gentrace" "$work/trace" --ranks "$ranks" --iterations "$iterations" \
                       --event-chunk "$chunk" --def-chunk "$chunk") || fail "gentrace failed"
    end=$(date +%s.%N)
    events=$(value events "$line")
    printf '  generated %s events in %s s: %d MB on disk\n' "$events" \
        "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" \
        $(($(du -sk "$work/trace" | cut -f1) / 1024))
    measure open "$work/trace" "$ranks"
    rep=1
    while [ "$rep" -le "$reps" ]; do
        # alternate the order, so that a drift of the machine favours neither
        if [ $((rep % 2)) -eq 1 ]; then order="bare predict"; else order="predict bare"; fi
        for mode in $order; do
            measure "$mode" "$work/trace" "$ranks"
        done
        rep=$((rep + 1))
    done
    rm -rf "$work/trace"
    bare=$(column "$ranks" bare 5 | median)
    pred=$(column "$ranks" predict 5 | median)
    printf '%s %s %s %s %s %s %s %s %s %s\n' "$ranks" "$events" "$((events / ranks))" \
        "$bare" "$pred" "$(awk -v a="$pred" -v b="$bare" 'BEGIN { printf "%.2f", a / b }')" \
        "$(column "$ranks" predict 4 | median)" "$(column "$ranks" open 4)" \
        "$(column "$ranks" bare 6 | median)" "$(column "$ranks" predict 6 | median)" \
        >>"$work/rows"
done

{
    echo "prognoz $(sed -n 's/^version=//p' "$srcdir/VERSION" 2>/dev/null), $(uname -n)," \
         "$(nproc 2>/dev/null || echo '?') cores; started $started," \
         "ended with load average $(load)"
    printf '\nmachine %s, OTF2 chunks of %s bytes; medians of %d runs each\n' \
        "$(basename "$machine")" "$chunk" "$reps"
    printf '%6s %10s %8s %14s %14s %8s %9s %10s %9s %9s\n' "ranks" "events" "ev/rank" \
        "bare rec/CPU s" "pred rec/CPU s" "pred/bare" "pred CPU s" "open CPU s" "bare MB" \
        "pred MB"
    while read -r r e epr b p ratio cpu op bmb pmb; do
        printf '%6s %10s %8s %14s %14s %8s %9s %10s %9s %9s\n' "$r" "$e" "$epr" "$b" "$p" \
            "$ratio" "$cpu" "$op" "$bmb" "$pmb"
    done <"$work/rows"
    cat "$work/skipped"
    echo
    awk -v t="$target_rate" '
        { if (min == "" || $5 < min) min = $5; if ($5 >= t) met++; n++ }
        END {
            if (!n) { print "Target speed: not judged, no trace was measured"; exit }
            printf "Target at least %d records replayed per CPU second: %s (%d of %d sizes;" \
                   " slowest %.0f)\n", t, met == n ? "MET" : "MISSED", met, n, min
        }' "$work/rows"
    awk -v l="$limit_mb" -v big="$limit_ranks" '
        $1 == big { found = 1
                    printf "Target peak memory < %d MB at %d ranks x %d events: %s (%s MB;" \
                           " the bare read alone %s MB)\n", l, big, $3,
                           $10 < l ? "MET" : "MISSED", $10, $9 }
        END { if (!found) printf "Target peak memory < %d MB at %d ranks: not judged," \
                                 " no trace of %d ranks\n", l, big, big }' "$work/rows"
} >"$work/table"
cp "$work/table" "$results" || fail "cannot write $results"
echo
tail -n +2 "$work/table"
echo
echo "table in $results"
