#!/bin/sh
# MPICH's own test suite (test/mpi of MPICH 4.0.2) replayed by prognoz: every test
# program of the chosen directories, built beforehand with mpicc.mpich (configure and
# make in test/mpi), is run at each chosen process count its testlist allows (the
# count of its first testlist line or more, with that line's arguments and
# environment), first plainly, then under prognoz record; the recorded run must print
# " No Errors" as the plain one did; then prognoz report and prognoz predict --machine
# MACHINE read the trace.  Each run is classified:
#
#   ok          the four steps succeeded
#   fails       the program fails without prognoz (no " No Errors" from the plain run)
#   recorder    the recorded run did not print " No Errors" (or wrote no trace)
#   report      prognoz report failed (its message is printed)
#   refusal     prognoz predict refused the trace (its message is printed)
#   deadlock    prognoz predict found that the run cannot complete: a false deadlock,
#               since the recorded run completed
#   timeout     the plain or the recorded run took longer than the limit
#
# and a table (test, processes, class, message) then the totals are printed, also
# written to WORK/results.txt.  Tests whose testlist count is above every chosen one
# are listed as skipped.  The MPICH sources are not part of prognoz: get them with
# `apt-get source mpich` (with a deb-src line) and build test/mpi, e.g.
#   cd mpich-4.0.2/test/mpi && ./configure CC=mpicc.mpich --enable-fortran=no \
#       --disable-cxx --enable-romio --enable-rma --disable-dtpools --disable-spawn
#   make -C util && for d in pt2pt coll comm topo rma io; do make -k -C $d; done
#
#   scripts/mpich_suite.sh TESTDIR [--dirs "pt2pt coll ..."] [--np "2 4"] [--only REGEX]
#                          [--machine NAME] [--timeout S] [--work DIR]
#
#   TESTDIR        MPICH's test/mpi directory (or the top of the MPICH sources)
#   --dirs LIST    the test directories (default "pt2pt coll comm topo rma io")
#   --np LIST      the process counts (default "2 4")
#   --only REGEX   only the tests whose DIR/NAME matches the extended REGEX
#   --machine M    the machine of prognoz predict (default gigabit-switch)
#   --timeout S    the limit of one plain or recorded run in seconds (default 60)
#   --work DIR     traces and outputs (default ./_mpich_suite)
#
# prognoz is found as by scripts/validate.sh (PROGNOZ, PREFIX, BUILDDIR); MPIEXEC names
# mpiexec (mpiexec.mpich).  The runs are one at a time: the tests busy-poll.  The script
# fails only when it cannot run; the classes are measured, not judged.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
dirs="pt2pt coll comm topo rma io" nps="2 4" only="" machine=gigabit-switch limit=60
work=$top/_mpich_suite
MPIEXEC=${MPIEXEC:-mpiexec.mpich}

die() {
    echo "mpich_suite: $*" >&2
    exit 1
}

usage() {
    sed -n '27,37s/^# \{0,1\}//p' "$0"
    exit "$1"
}

[ $# -ge 1 ] || usage 2
case $1 in -h | --help) usage 0 ;; esac
testdir=$1
shift
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage 2
    case $1 in
    --dirs) dirs=$2 ;;
    --np) nps=$2 ;;
    --only) only=$2 ;;
    --machine) machine=$2 ;;
    --timeout) limit=$2 ;;
    --work) work=$2 ;;
    *) echo "mpich_suite: unknown option '$1'" >&2; usage 2 ;;
    esac
    shift 2
done
[ -d "$testdir/test/mpi" ] && testdir=$testdir/test/mpi
[ -d "$testdir/pt2pt" ] || die "'$testdir' is not MPICH's test/mpi directory"
testdir=$(cd "$testdir" && pwd)
. "$top/scripts/find_prognoz.sh"
mkdir -p "$work" || die "cannot create '$work'"
work=$(cd "$work" && pwd)
results=$work/results.txt
: >"$results"

# last FILE: the last line of FILE, the error (warnings come before it), without the
# "prognoz predict: " prefix and the trace's name.
last() {
    sed -n '/./h;${x;s/^prognoz [a-z]*: //;s|^[^ ]*\.trace: ||;p;}' "$1" | cut -c1-160
}

# attempt CMD...: runs CMD in its own process group under the limit, output in $out.
# Returns its exit status, 124 on a timeout (the whole group is then killed).
attempt() {
    setsid timeout -k 5 "$limit" "$@" </dev/null >"$out" 2>&1
}

# classify DIR NAME NP ENV ARGS: one run of the test, its row appended to $results.
classify() {
    base=$work/$1-$2-$3
    out=$base.plain
    class=ok msg=""
    # shellcheck disable=SC2086  # ENV and ARGS: one word each
    (cd "$testdir/$1" && attempt env $4 "$MPIEXEC" -n "$3" ./$2 $5)
    status=$?
    if [ "$status" = 124 ]; then
        class=timeout msg="plain run over ${limit}s"
    elif ! grep -q '^ No Errors' "$out"; then
        class=fails msg="status $status: $(grep -v '^ *$' "$out" | head -1 | cut -c1-120)"
    else
        rm -rf "$base.trace"
        out=$base.rec
        # shellcheck disable=SC2086
        (cd "$testdir/$1" && attempt env $4 "$PROGNOZ" record -o "$base.trace" -- \
            "$MPIEXEC" -n "$3" ./$2 $5)
        status=$?
        if [ "$status" = 124 ]; then
            class=timeout msg="recorded run over ${limit}s"
        elif ! grep -q '^ No Errors' "$out" || [ ! -f "$base.trace/traces.otf2" ]; then
            class=recorder msg="status $status: $(grep -v '^ *$' "$out" | grep -v '^prognoz:' | head -1 | cut -c1-120)"
        elif ! "$PROGNOZ" report --quiet "$base.trace" >"$base.report" 2>"$base.report.err"; then
            class=report msg=$(last "$base.report.err")
        elif ! "$PROGNOZ" predict --quiet "$base.trace" --machine "$machine" \
            >"$base.predict" 2>"$base.predict.err"; then
            msg=$(last "$base.predict.err")
            case $msg in
            *"cannot complete"*) class=deadlock ;;
            *) class=refusal ;;
            esac
        fi
    fi
    [ "$class" = ok ] && rm -rf "$base.trace" "$base".*
    printf '%-36s %2s  %-9s %s\n' "$1/$2" "$3" "$class" "$msg" | tee -a "$results"
}

# The tests of DIR: the first testlist line of each built program, as
# "NAME NP ENV ARGS" (ENV and ARGS comma-separated, "-" when empty).
tests_of() {
    awk '
        /^[ \t]*#/ || NF < 2 || $2 !~ /^[0-9]+$/ { next }
        seen[$1]++ { next }
        {
            env = ""; args = ""
            for (i = 3; i <= NF; i++) {
                if ($i ~ /^env=/) env = env (env == "" ? "" : ",") substr($i, 5)
                if ($i ~ /^arg=/) args = args (args == "" ? "" : ",") substr($i, 5)
            }
            print $1, $2, (env == "" ? "-" : env), (args == "" ? "-" : args)
        }' "$testdir/$1/testlist"
}

echo "mpich_suite: prognoz $PROGNOZ, tests $testdir, work $work"
for d in $dirs; do
    [ -r "$testdir/$d/testlist" ] || die "no testlist in '$testdir/$d'"
    tests_of "$d" | while read -r name np env args; do
        [ -z "$only" ] || echo "$d/$name" | grep -Eq "$only" || continue
        if [ ! -x "$testdir/$d/$name" ]; then
            printf '%-36s %2s  %-9s %s\n' "$d/$name" "$np" skipped "not built" | tee -a "$results"
            continue
        fi
        ran=0
        [ "$env" = - ] && env="" || env=$(echo "$env" | tr , ' ')
        [ "$args" = - ] && args="" || args=$(echo "$args" | tr , ' ')
        for p in $nps; do
            [ "$np" -le "$p" ] || continue
            ran=1
            classify "$d" "$name" "$p" "$env" "$args"
        done
        [ $ran = 1 ] || printf '%-36s %2s  %-9s %s\n' "$d/$name" "$np" skipped \
            "needs $np processes" | tee -a "$results"
    done
done

echo
echo "totals:"
for c in ok fails recorder report refusal deadlock timeout skipped; do
    printf '  %-9s %d\n' "$c" "$(awk -v c="$c" '$3 == c' "$results" | wc -l)"
done
