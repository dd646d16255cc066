# Sourced after lib.sh by the tests of the MPI-4, one-sided and I/O calls:
# pz_reads_trace NAME: prognoz report reads $PZ_WORK/NAME; prognoz predict on the
# gigabit switch either predicts it (saying at most that I/O is not modelled, a run's
# MPI-IO replayed at its recorded time) or refuses with one line on stderr and status 1
# (what it does not model yet), and never crashes.
test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"

pz_reads_trace() {
    if ! "$PZ_PROGNOZ" report "$PZ_WORK/$1" >"$PZ_WORK/$1.report" 2>"$PZ_WORK/$1.report.err" ||
        test -s "$PZ_WORK/$1.report.err"; then
        cat "$PZ_WORK/$1.report.err" >&2
        pz_fail "$1: prognoz report failed or wrote to stderr"
    fi
    "$PZ_PROGNOZ" predict "$PZ_WORK/$1" --machine gigabit-switch >"$PZ_WORK/$1.predict" \
        2>"$PZ_WORK/$1.predict.err"
    _rc=$?
    if { test $_rc = 0 &&
        grep -v '^prognoz predict: I/O is not modelled: ' "$PZ_WORK/$1.predict.err" >/dev/null; } ||
        { test $_rc = 1 && test "$(wc -l <"$PZ_WORK/$1.predict.err")" != 1; } ||
        test $_rc -gt 1; then
        cat "$PZ_WORK/$1.predict.err" >&2
        pz_fail "$1: prognoz predict exited with status $_rc and wrote the above"
    fi
    return 0
}
