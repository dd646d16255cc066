#!/bin/sh
# Runs the whole test suite on the tree scripts/setup.sh built: unit and MPI integration
# tests (make check), then the release check (make distcheck).  Ends with one line
# "tests: N passed, N failed, N skipped".
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top/_build" || { echo "check: run scripts/setup.sh first" >&2; exit 1; }

make -j2 check
status=$?
for log in tests/test-suite.log; do
    [ -f "$log" ] || continue
    pass=$(sed -n 's/^# PASS: *//p' "$log")
    fail=$(sed -n 's/^# FAIL: *//p' "$log")
    error=$(sed -n 's/^# ERROR: *//p' "$log")
    xpass=$(sed -n 's/^# XPASS: *//p' "$log")
    skip=$(sed -n 's/^# SKIP: *//p' "$log")
    [ "$status" -eq 0 ] || cat "$log"
done
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
