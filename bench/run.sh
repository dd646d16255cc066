#!/bin/sh
# make bench: what the recorder adds to each traced MPI call, what MPI_Finalize then
# spends writing the trace, and how many trace bytes each call leaves (bench/README.md).
#
# Usage: run.sh BUILDDIR MPICC MPIEXEC      (make bench passes them)
# Environment: PROGNOZ_BENCH_REPS  repetitions of every run (default 9)
#
# Every benchmark of calls.c runs on 2 processes in six ways, one right after the
# other, several times over:
#   base  without the wrapper
#   min   without the wrapper, each call through the minimal recorder of calls.c (two
#         clock reads and 32 bytes stored): the floor of any recorder, for comparison
#   off   with the wrapper preloaded but PROGNOZ_DISABLE=1 (the interposition alone)
#   rec   with the wrapper preloaded and recording
#   site  recording with the call site of every call (PROGNOZ_CALLSITES=1)
#   cpu   recording with the thread CPU time of every call (PROGNOZ_CPU_TIME=1)
# The figures are medians over the repetitions of the differences rec - base (and
# off - base...) of the runs of one repetition, and of the pairs of chunks within each
# run that calls.c measures (each chunk against one of the same loop calling PMPI_).
# The script fails only when a run fails, never because a target is missed.
set -u
. "$(dirname "$0")/lib.sh"

if [ $# -ne 3 ]; then
    echo "usage: $0 BUILDDIR MPICC MPIEXEC" >&2
    exit 2
fi
builddir=$1
mpicc=$2      # may hold options: expanded unquoted on purpose
mpiexec=$3
srcdir=$(cd "$(dirname "$0")" && pwd) || exit 1
lib=$builddir/wrapper/.libs/libprognoz.so
reps=${PROGNOZ_BENCH_REPS:-9}
results=$builddir/bench-results.log
runs=$builddir/bench-runs.log

# benchmark:iterations, for about 0.1 to 0.6 s of loop per run here.  The recorded runs
# keep every record in memory until MPI_Finalize (PROGNOZ_BUFFER below is larger than
# the records of any run), so no buffer flush falls in the timed loop: converting the
# records to OTF2 is all in MPI_Finalize, and measured there.
benches="comm_rank:2500000 pingpong:400000 ring:250000 allreduce:500000 iprobe:2500000 flush:1000000"
buffer=256M
# wall-clock limit of one run, where timeout(1) exists
limit=300

case $reps in
    '' | *[!0-9]* | 0) fail "PROGNOZ_BENCH_REPS='$reps' is not a positive number" ;;
esac
[ -f "$lib" ] || fail "$lib is missing: run make first"

work=$(mktemp -d "${TMPDIR:-/tmp}/prognoz-bench.XXXXXX") || fail "cannot create a work directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

$mpicc -O2 -o "$work/calls" "$srcdir/calls.c" || fail "cannot compile $srcdir/calls.c"
$mpicc -O2 -o "$work/machine" "$srcdir/machine.c" || fail "cannot compile $srcdir/machine.c"

if command -v timeout >/dev/null 2>&1; then
    run_limited() { timeout "$limit" "$@"; }
else
    run_limited() { "$@"; }
fi

# bytes FILE...: total size of the files
bytes() {
    cat "$@" | wc -c | tr -d ' '
}

# machine REP: the machine reference (machine.c); appends a line to $runs
machine() {
    line=$(run_limited "$work/machine") || fail "the machine reference failed"
    for key in tsc_ns clock_ns page_fault_ns; do
        [ -n "$(value $key "$line")" ] || fail "the machine reference printed '$line'"
    done
    echo "machine - $1 $(value tsc_ns "$line") $(value clock_ns "$line")" \
         "$(value page_fault_ns "$line")" >>"$runs"
}

# run BENCH ITERATIONS MODE REP: one job; appends a line to $runs
run() {
    b=$1 n=$2 mode=$3 rep=$4
    trace=$work/trace
    log=$work/log
    rm -rf "$trace"
    minimal=
    case $mode in
        base) set -- env PROGNOZ_DIR="$trace" ;;
        min) set -- env PROGNOZ_DIR="$trace"; minimal=minimal ;;
        off) set -- env LD_PRELOAD="$lib" PROGNOZ_DISABLE=1 PROGNOZ_DIR="$trace" ;;
        rec) set -- env LD_PRELOAD="$lib" PROGNOZ_DISABLE=0 PROGNOZ_BUFFER=$buffer \
                        PROGNOZ_DIR="$trace" ;;
        site) set -- env LD_PRELOAD="$lib" PROGNOZ_DISABLE=0 PROGNOZ_BUFFER=$buffer \
                         PROGNOZ_CALLSITES=1 PROGNOZ_DIR="$trace" ;;
        cpu) set -- env LD_PRELOAD="$lib" PROGNOZ_DISABLE=0 PROGNOZ_BUFFER=$buffer \
                        PROGNOZ_CPU_TIME=1 PROGNOZ_DIR="$trace" ;;
    esac
    if ! run_limited $mpiexec -n 2 "$@" "$work/calls" "$b" "$n" $minimal >"$log" 2>&1; then
        cat "$log" >&2
        fail "the $b benchmark failed ($mode run $rep)"
    fi
    line=$(grep '^bench=' "$log") || { cat "$log" >&2; fail "the $b benchmark printed no result"; }
    evt=0 total=0
    if [ "$mode" != base ] && [ "$mode" != off ] && [ "$mode" != min ]; then
        grep -q '^prognoz: recorded ' "$log" ||
            { cat "$log" >&2; fail "$b: the wrapper did not report a trace"; }
        grep -q '^prognoz: warning' "$log" && { cat "$log" >&2; fail "$b: the wrapper warned"; }
        set -- "$trace"/traces/*.evt
        [ -f "$1" ] || fail "$b: no event files in $trace/traces"
        evt=$(bytes "$@")
        total=$(bytes $(find "$trace" -type f))
    fi
    rm -rf "$trace"
    sec=$(value sec_per_iter "$line") fin=$(value finalize_sec "$line")
    echo "$b $mode $rep $(value calls_per_iter "$line") $(value mpi_calls "$line") $sec" \
         "$(value sec_per_iter_min "$line") $fin $evt $total" \
         "$(value sec_per_iter_paired "$line")" >>"$runs"
    printf '  %-10s %-4s run %d: %s s per iteration, MPI_Finalize %s s\n' "$b" "$mode" "$rep" \
        "$sec" "$fin"
}

started="$(date -u '+%Y-%m-%d %H:%M UTC'), load average $(load)"
echo "prognoz benchmarks: 2 processes, $reps repetitions, $started"
: >"$runs" || fail "cannot write $runs"
rep=1
while [ "$rep" -le "$reps" ]; do
    machine "$rep"
    for spec in $benches; do
        b=${spec%%:*} n=${spec#*:}
        # alternate the order, so that a slow drift of the machine favours neither
        if [ $((rep % 2)) -eq 1 ]; then order="base min off rec site cpu"; else order="cpu site rec off min base"; fi
        for mode in $order; do
            run "$b" "$n" "$mode" "$rep"
        done
    done
    rep=$((rep + 1))
done

# Lines of $runs: BENCH MODE REP CALLS/ITER MPI-CALLS/PROCESS S/ITER S/ITER-FASTEST-CHUNK
# FINALIZE-S EVT-BYTES ARCHIVE-BYTES S/ITER-PAIRED (calls.c: each chunk - its PMPI_
# chunk, median), and "machine - REP TSC-NS CLOCK-NS PAGE-FAULT-NS".
awk -v reps="$reps" -v benches="$benches" '
# median of a[1..n] (sorts a)
function median(a, n,    i, j, x) {
    for (i = 2; i <= n; i++) {
        x = a[i]
        for (j = i - 1; j >= 1 && a[j] > x; j--)
            a[j + 1] = a[j]
        a[j + 1] = x
    }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function lowest(a, n,    i, m) { m = a[1]; for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]; return m }
function highest(a, n,    i, m) { m = a[1]; for (i = 2; i <= n; i++) if (a[i] > m) m = a[i]; return m }
$1 == "machine" { tsc[$3] = $4; clk[$3] = $5; fault[$3] = $6; next }
{
    key = $1 SUBSEP $3
    cpi[$1] = $4; calls[$1] = $5
    sec[$2, key] = $6; best[$2, key] = $7; fin[$2, key] = $8; paired[$2, key] = $11
    if ($2 == "rec") { evt[key] = $9; total[key] = $10 }
}
END {
    nb = split(benches, spec, " ")
    printf "\n%-10s %5s %8s %24s %8s %8s %8s %9s %8s %8s %9s %9s %8s\n", "", "calls", \
           "ns/call", "ns added per call", "fastest", "in-run", "ns added", "finalize", \
           "trace B", "archive", "ns added", "ns added", "minimal"
    printf "%-10s %5s %8s %24s %8s %8s %8s %9s %8s %8s %9s %9s %8s\n", "benchmark", "/iter", \
           "without", "recording (min..max)", "chunks", "pairs", "disabled", "ns/call", \
           "per call", "B/call", "w/ sites", "w/ cpu", "in-run"
    met = 0; metpairs = 0; list = ""; pairlist = ""; minlist = ""; ctllist = ""
    for (k = 1; k <= nb; k++) {
        b = spec[k]; sub(/:.*/, "", b)
        fast_base = fast_rec = -1
        for (r = 1; r <= reps; r++) {
            key = b SUBSEP r
            base[r] = 1e9 * sec["base", key] / cpi[b]
            added[r] = 1e9 * (sec["rec", key] - sec["base", key]) / cpi[b]
            off[r] = 1e9 * (sec["off", key] - sec["base", key]) / cpi[b]
            site[r] = 1e9 * (sec["site", key] - sec["base", key]) / cpi[b]
            cpuadd[r] = 1e9 * (sec["cpu", key] - sec["base", key]) / cpi[b]
            # the pairs of chunks within a run: recording, minimal recorder, and without
            # a wrapper (MPI_ against PMPI_, one function: the error of the measure)
            inrun[r] = 1e9 * paired["rec", key] / cpi[b]
            mininrun[r] = 1e9 * paired["min", key] / cpi[b]
            control[r] = 1e9 * paired["base", key] / cpi[b]
            if (fast_base < 0 || best["base", key] < fast_base) fast_base = best["base", key]
            if (fast_rec < 0 || best["rec", key] < fast_rec) fast_rec = best["rec", key]
            # MPI_Finalize: extra time on rank 0 per call that one process recorded
            fcost[r] = 1e9 * (fin["rec", key] - fin["base", key]) / calls[b]
            # both processes write events: bytes per call of either
            tb[r] = evt[key] / (2 * calls[b])
            ab[r] = total[key] / (2 * calls[b])
        }
        a = median(added, reps)
        p = median(inrun, reps)
        printf "%-10s %5d %8.1f %8.1f (%6.1f..%6.1f) %8.1f %8.1f %8.1f %9.1f %8.1f %8.1f %9.1f %9.1f %8.1f\n", \
               b, cpi[b], median(base, reps), a, lowest(added, reps), highest(added, reps), \
               1e9 * (fast_rec - fast_base) / cpi[b], p, median(off, reps), median(fcost, reps), \
               median(tb, reps), median(ab, reps), median(site, reps), median(cpuadd, reps), \
               median(mininrun, reps)
        met += a <= 60
        metpairs += p <= 60
        list = list sprintf("%s%s %.0f", list == "" ? "" : ", ", b, a)
        pairlist = pairlist sprintf("%s%s %.0f", pairlist == "" ? "" : ", ", b, p)
        minlist = minlist sprintf("%s%s %.0f", minlist == "" ? "" : ", ", b, median(mininrun, reps))
        ctllist = ctllist sprintf("%s%s %.1f", ctllist == "" ? "" : ", ", b, median(control, reps))
        if (b == "pingpong")
            p2p = median(tb, reps)
    }
    printf "\nOn this machine (medians of %d measures): one read of the time-stamp counter takes %.1f ns,\n", \
           reps, median(tsc, reps)
    printf "of CLOCK_MONOTONIC %.1f ns; the wrapper reads the counter twice per call where it is invariant,\n", \
           median(clk, reps)
    printf "else the clock.  The first write to a 4 KiB page takes %.0f ns (%.2f ns per byte), paid\n", \
           median(fault, reps), median(fault, reps) / 4096
    printf "once per page of the record buffer when a thread first calls MPI, not in the calls.\n"
    printf "The minimal recorder of calls.c (two reads of the counter and 32 bytes stored per call)\n"
    printf "adds, in ns per call (in-run pairs): %s.\n", minlist
    printf "In-run pairs without a wrapper (MPI_ against PMPI_, the same function): %s.\n", ctllist
    printf "Target <= 60 ns added per traced call: %s, met on %d of %d benchmarks (ns: %s)\n", \
           met == nb ? "MET" : "MISSED", met, nb, list
    printf "  judged on the in-run pairs: %s, met on %d of %d (ns: %s)\n", \
           metpairs == nb ? "MET" : "MISSED", metpairs, nb, pairlist
    printf "Target <= 40 trace bytes per blocking point-to-point call: %s (pingpong: %.1f bytes per MPI_Send or MPI_Recv)\n", \
           p2p <= 40 ? "MET" : "MISSED", p2p
}' "$runs" >"$work/table" || fail "cannot summarise $runs"

{
    echo "prognoz $(sed -n 's/^version=//p' "$srcdir/../VERSION" 2>/dev/null), $(uname -n), $(nproc 2>/dev/null || echo '?') cores," \
         "2 processes, $reps repetitions; started $started, ended with load average $(load)"
    cat "$work/table"
} >"$results" || fail "cannot write $results"
cat "$work/table"
echo
echo "table in $results, every run in $runs"
