# Interval markers with PROGNOZ_DISABLE=1 (programs/intervals.c on 2 ranks, and
# programs/fmarkers.f90 when Fortran is built): the recorder is loaded but does not
# record, so the markers of prognoz.h and prognoz.fh must not be issued (MPI would
# reject their tags): the same output and exit status as without the recorder, nothing
# on stderr, no trace directory.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program intervals) || exit 77

# check NAME PROG: PROG with PROGNOZ_DISABLE=1 behaves as without the recorder.
check() {
    pz_mpiexec -n 2 "$2" >"$PZ_WORK/$1.plain.out" 2>"$PZ_WORK/$1.plain.err" ||
        { cat "$PZ_WORK/$1.plain.err" >&2; pz_fail "$1 fails without the recorder"; }
    PZ_ENV=PROGNOZ_DISABLE=1 pz_record "$1" 2 "$2"
    rc=$?
    test $rc = 0 || cat "$PZ_WORK/$1.err" >&2
    pz_expect_eq "$1: exit status with PROGNOZ_DISABLE=1" 0 "$rc"
    test ! -e "$PZ_WORK/$1" || pz_fail "$1: PROGNOZ_DISABLE=1 created $PZ_WORK/$1"
    test ! -s "$PZ_WORK/$1.err" || { cat "$PZ_WORK/$1.err" >&2; pz_fail "$1: PROGNOZ_DISABLE=1: output on stderr (above)"; }
    test -s "$PZ_WORK/$1.out" || pz_fail "$1: no output with PROGNOZ_DISABLE=1"
    sort "$PZ_WORK/$1.plain.out" >"$PZ_WORK/$1.plain.sorted"
    sort "$PZ_WORK/$1.out" >"$PZ_WORK/$1.sorted"
    diff -u "$PZ_WORK/$1.plain.sorted" "$PZ_WORK/$1.sorted" >&2 ||
        pz_fail "$1: the output differs with PROGNOZ_DISABLE=1 (- without the recorder, + with it disabled)"
}

check intervals "$prog"
if test -x "$PZ_PROGRAMS/fmarkers"; then
    check fmarkers "$PZ_PROGRAMS/fmarkers"
fi
