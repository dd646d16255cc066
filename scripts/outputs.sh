#!/bin/sh
# Writes every output a user sees of the given traces into OUTDIR, one file per output,
# so that two versions of prognoz can be compared with `diff -r` after a change that
# must not change what users see (a refactoring).  For each trace: the report as text,
# per process, JSON and HTML; on every shipped machine (and the mpich1 set on the
# first) the prediction as text and JSON, the predicted trace as otf2-print shows it,
# and the SimGrid export; all machines side by side as text and JSON.  Error messages
# and exit codes are outputs too: each file ends with the command's exit status.
#
#   scripts/outputs.sh PROGNOZ OUTDIR TRACE_DIR...
#
# PROGNOZ is the prognoz command to run; OTF2_PRINT names otf2-print (default:
# otf2-print on PATH).  The machine files are those of share/machines in this tree.
set -u

[ $# -ge 3 ] || { echo "usage: scripts/outputs.sh PROGNOZ OUTDIR TRACE_DIR..." >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
prognoz=$1 out=$2
shift 2
print=${OTF2_PRINT:-otf2-print}
machines=$(ls "$top"/share/machines/*.conf)

# run FILE CMD...: CMD's stdout and stderr into FILE, then its exit status.
run() {
    file=$1
    shift
    "$@" >"$file" 2>&1
    echo "exit $?" >>"$file"
}

for trace in "$@"; do
    name=$(basename "$trace")
    dir=$out/$name
    mkdir -p "$dir"
    run "$dir/report.txt" "$prognoz" report "$trace"
    run "$dir/report-pp.txt" "$prognoz" report "$trace" --per-process
    run "$dir/report.json" "$prognoz" report "$trace" --format json
    run "$dir/report.html" "$prognoz" report "$trace" --format html
    all=""
    for m in $machines; do
        mn=$(basename "$m" .conf)
        all="$all --machine $m"
        run "$dir/predict-$mn.txt" "$prognoz" predict "$trace" --machine "$m" --per-process
        run "$dir/predict-$mn.json" "$prognoz" predict "$trace" --machine "$m" --format json
        rm -rf "$dir/trace-$mn"
        run "$dir/predict-$mn-trace.log" "$prognoz" predict "$trace" --machine "$m" \
            --trace-out "$dir/trace-$mn"
        if [ -f "$dir/trace-$mn/traces.otf2" ]; then
            run "$dir/predict-$mn-trace.txt" "$print" "$dir/trace-$mn/traces.otf2"
            run "$dir/predict-$mn-trace-report.txt" "$prognoz" report "$dir/trace-$mn"
        fi
        rm -rf "$dir/trace-$mn"
        rm -rf "$dir/simgrid-$mn"
        run "$dir/simgrid-$mn.log" "$prognoz" export "$trace" --simgrid "$dir/simgrid-$mn" \
            --machine "$m"
    done
    first=$(echo "$machines" | head -n 1)
    run "$dir/predict-mpich1.txt" "$prognoz" predict "$trace" --machine "$first" --mpi mpich1
    # shellcheck disable=SC2086
    run "$dir/predict-all.txt" "$prognoz" predict "$trace" $all
    # shellcheck disable=SC2086
    run "$dir/predict-all.json" "$prognoz" predict "$trace" $all --format json
done
