#!/bin/sh
# Runs the whole test suite on the tree scripts/setup.sh built: unit and MPI integration
# tests (make check), the integration tests that apply to Open MPI run with it (make
# check-openmpi, docs/openmpi.md; skipped where prognoz was built without Open MPI),
# then the release check (make distcheck).  Ends with one line
# "tests: N passed, N failed, N skipped".
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top/_build" || { echo "check: run scripts/setup.sh first" >&2; exit 1; }

# count LOG: adds the summary of automake's test-suite log LOG to the totals.
count() {
    [ -f "$1" ] || return 0
    pass=$(( ${pass:-0} + $(sed -n 's/^# PASS: *//p' "$1") ))
    fail=$(( ${fail:-0} + $(sed -n 's/^# FAIL: *//p' "$1") ))
    error=$(( ${error:-0} + $(sed -n 's/^# ERROR: *//p' "$1") ))
    xpass=$(( ${xpass:-0} + $(sed -n 's/^# XPASS: *//p' "$1") ))
    skip=$(( ${skip:-0} + $(sed -n 's/^# SKIP: *//p' "$1") ))
}

make -j2 check
status=$?
count tests/test-suite.log
[ "$status" -eq 0 ] || cat tests/test-suite.log
if [ "$status" -eq 0 ]; then
    rm -f tests/test-suite-openmpi.log
    make -j2 -C tests check-openmpi || status=$?
    count tests/test-suite-openmpi.log
    [ "$status" -eq 0 ] || cat tests/test-suite-openmpi.log
fi
if [ "$status" -eq 0 ]; then
    make distcheck || status=$?
    # make distcheck runs the suite again in a tree of its own, kept when it fails:
    # its failures count too.
    for log in prognoz-*/_build/sub/tests/test-suite.log; do
        [ "$status" -ne 0 ] && [ -f "$log" ] || continue
        fail=$(( ${fail:-0} + $(sed -n 's/^# FAIL: *//p' "$log") ))
        error=$(( ${error:-0} + $(sed -n 's/^# ERROR: *//p' "$log") ))
    done
fi
echo "tests: ${pass:-0} passed, $(( ${fail:-0} + ${error:-0} + ${xpass:-0} )) failed, ${skip:-0} skipped"
exit "$status"
