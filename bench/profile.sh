#!/bin/sh
# Where the recorder's time goes: the instructions the wrapper adds to each traced call,
# counted by callgrind on rank 0 of each benchmark of calls.c (bench/README.md).
#
# Usage: profile.sh BUILDDIR MPICC MPIEXEC [BENCHMARK...]
#   from the build directory:  sh SRCDIR/bench/profile.sh "$PWD" mpicc mpiexec
#
# Only the loops of the benchmark are counted (--toggle-collect).  The wrapper's
# instructions per call are those of the MPI_X wrappers minus those of the PMPI_X they
# call; then every function of the wrapper, the MPI functions it calls for itself
# (PMPI_Type_size...) and clock_gettime and memcpy of libc, inclusive, per traced call.
# Not counted: the body of clock_gettime in the vDSO (valgrind turns it into a system
# call) and the kernel's work, such as the page faults of a record buffer filling up.
set -u

if [ $# -lt 3 ]; then
    echo "usage: $0 BUILDDIR MPICC MPIEXEC [BENCHMARK...]" >&2
    exit 2
fi
builddir=$1 mpicc=$2 mpiexec=$3
shift 3
srcdir=$(cd "$(dirname "$0")" && pwd) || exit 1
lib=$builddir/wrapper/.libs/libprognoz.so
benches=${*:-comm_rank pingpong ring allreduce iprobe}

fail() {
    echo "profile: $*" >&2
    exit 1
}

[ -f "$lib" ] || fail "$lib is missing: run make first"
command -v valgrind >/dev/null 2>&1 || fail "valgrind is needed"
command -v callgrind_annotate >/dev/null 2>&1 || fail "callgrind_annotate is needed"
work=$(mktemp -d "${TMPDIR:-/tmp}/prognoz-profile.XXXXXX") || fail "cannot create a work directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
$mpicc -O2 -g -o "$work/calls" "$srcdir/calls.c" || fail "cannot compile $srcdir/calls.c"

for b in $benches; do
    case $b in
        comm_rank | iprobe) n=100000 ;;
        *) n=20000 ;;
    esac
    out=$work/callgrind.$b
    # rank 0 under callgrind, rank 1 as it is (MPICH: PMI_RANK, Open MPI: OMPI_COMM_WORLD_RANK)
    if ! $mpiexec -n 2 env LD_PRELOAD="$lib" PROGNOZ_DISABLE=0 PROGNOZ_DIR="$work/trace" \
            sh -c 'if [ "${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-}}" = 0 ]; then
                       exec valgrind -q --tool=callgrind --callgrind-out-file="$0" \
                            --toggle-collect="loop_$1" "$2" "$1" "$3"
                   else exec "$2" "$1" "$3"; fi' \
            "$out" "$b" "$work/calls" "$n" >"$work/log" 2>&1; then
        cat "$work/log" >&2
        fail "the $b benchmark failed under valgrind"
    fi
    line=$(grep '^bench=' "$work/log") || { cat "$work/log" >&2; fail "$b printed no result"; }
    calls=$(echo "$line" | tr ' ' '\n' | sed -n 's/^loop_calls=//p')
    rm -rf "$work/trace"
    # callgrind_annotate may list a function more than once, split by the source file of
    # its inlined lines: the largest figure is the whole function's.  Run it where no
    # relative source path resolves, so that it always does the same.
    (cd "$work" && callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$out") |
    awk -v b="$b" -v calls="$calls" '
    # lines: "1,234 (5.6%)  FILE:FUNCTION [OBJECT]", the object only sometimes
    /^ *[0-9,]+ +\(/ {
        ir = $1; gsub(/,/, "", ir); ir += 0
        fn = $0; sub(/ \[[^]]*\]$/, "", fn); sub(/.*:/, "", fn)
        if (!(fn in cost) || ir > cost[fn])
            cost[fn] = ir
        if ($NF ~ /^\[.*\]$/) {
            obj = $NF; sub(/\]$/, "", obj); sub(/.*\//, "", obj)
            object[fn] = obj
        }
    }
    END {
        total = 0
        for (fn in cost) {
            if (object[fn] !~ /^libprognoz/)
                continue
            if (fn ~ /^MPI_/)  # a wrapper: what it adds to the PMPI call it makes
                total += cost[fn] - cost["P" fn]
            else
                own[fn] = cost[fn]
        }
        for (fn in cost)  # the MPI calls the wrapper makes for itself (PMPI_Type_size...)
            if (fn ~ /^PMPI_/ && !(substr(fn, 2) in cost))
                own[fn] = cost[fn]
        if ("clock_gettime@@GLIBC_2.17" in cost)
            own["clock_gettime (libc part)"] = cost["clock_gettime@@GLIBC_2.17"]
        printf "%s: %.0f instructions added per traced call (%d calls)\n", b, total / calls, calls
        n = 0
        for (fn in own)
            if (own[fn] / calls >= 1)
                line[++n] = sprintf("%10.1f  %s", own[fn] / calls, fn)
        for (i = 2; i <= n; i++)  # descending
            for (j = i; j > 1 && line[j] + 0 > line[j - 1] + 0; j--) {
                x = line[j]; line[j] = line[j - 1]; line[j - 1] = x
            }
        for (i = 1; i <= n; i++)
            print line[i]
        print ""
    }' || fail "cannot read the profile of $b"
done
echo "(inclusive: a function counts the functions it calls; the vDSO clock and page faults are not counted)"
