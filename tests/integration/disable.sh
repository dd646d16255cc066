# PROGNOZ_DISABLE=1 (programs/p2p.c on 2 ranks): no trace directory, nothing on stderr,
# the same output and exit status as without the recorder.  PROGNOZ_DISABLE=0 records.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program p2p) || exit 77

PZ_ENV=PROGNOZ_DISABLE=1 pz_record disabled 2 "$prog"
rc=$?
pz_expect_eq "exit status with PROGNOZ_DISABLE=1" 0 "$rc"
test ! -e "$PZ_WORK/disabled" || pz_fail "PROGNOZ_DISABLE=1 created $PZ_WORK/disabled"
test ! -s "$PZ_WORK/disabled.err" || { cat "$PZ_WORK/disabled.err" >&2; pz_fail "PROGNOZ_DISABLE=1: output on stderr (above)"; }
test ! -s "$PZ_WORK/disabled.out" || pz_fail "PROGNOZ_DISABLE=1: output on stdout"

PZ_ENV=PROGNOZ_DISABLE=0 pz_record_ok enabled 2 "$prog"
pz_trace enabled
pz_calls enabled 0 | grep -q '^MPI_Send | MPI_SEND Receiver: 1' || pz_fail "PROGNOZ_DISABLE=0 recorded no send"
