#!/bin/sh
# The main job on the bundled example: records share/examples/heat.c run on 4 processes,
# shows what was recorded, the report of the run, and its prediction on three clusters.
# Run scripts/setup.sh first.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-$top/_install}
work=$top/_demo
mkdir -p "$work"
cd "$work"
mpicc.mpich -g -O2 -I"$prefix/include" -o heat "$top/share/examples/heat.c"
# 4 processes may share fewer cores: keep each thread's CPU time too, so that the
# prediction can time computations by the CPU they used (--compute cpu)
PROGNOZ_CPU_TIME=1 "$prefix/bin/prognoz" record -o "$work/trace" -- mpiexec.mpich -n 4 ./heat 20000 100
echo
echo "The trace: $work/trace/traces.otf2 (OTF2, readable by otf2-print, Vampir, Scalasca)."
echo "Events by kind:"
otf2-print "$work/trace/traces.otf2" |
    awk 'NR > 5 && NF > 2 { n[$1]++ } END { for (k in n) printf "  %-28s %8d\n", k, n[k] }' |
    sort
echo "MPI calls by function:"
otf2-print "$work/trace/traces.otf2" |
    awk '$1 == "ENTER" { sub(/.*Region: "/, ""); sub(/".*/, ""); n[$0]++ }
         END { for (k in n) printf "  %-28s %8d\n", k, n[k] }' | sort -k2 -nr
echo
echo "The report (prognoz report $work/trace):"
"$prefix/bin/prognoz" report "$work/trace"
echo
echo "The same run predicted on three clusters, side by side with the recording"
echo "(prognoz predict $work/trace --compute cpu --machine ...):"
"$prefix/bin/prognoz" predict "$work/trace" --compute cpu \
    --machine "$top/share/machines/ethernet-100-hub.conf" \
    --machine "$top/share/machines/gigabit-switch.conf" \
    --machine "$top/share/machines/myrinet-2proc.conf"
