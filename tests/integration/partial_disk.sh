# A disk that fills while the trace is written (programs/p2p.c on 2 ranks, its trace
# directory on a tmpfs of 8 KiB: mounting needs root, else the test is skipped): the
# program's output and exit status are those of the run without prognoz, stderr holds
# exactly one line, from rank 0, saying no trace was installed, and nothing of the
# half-written trace is left.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

p2p=$(pz_program p2p) || exit 77
full=$PZ_WORK/full
mkdir "$full"
mount -t tmpfs -o size=8k tmpfs "$full" 2>/dev/null || pz_skip "cannot mount a small tmpfs (not root?)"
trap 'st=$?; umount "$full"; pz_exit $st' EXIT

pz_mpiexec -n 2 "$p2p" >"$PZ_WORK/plain.out" 2>/dev/null
plain_rc=$?
pz_mpiexec -n 2 env LD_PRELOAD="$PZ_LIB" PROGNOZ_DIR="$full/trace" "$p2p" \
    >"$PZ_WORK/run.out" 2>"$PZ_WORK/run.err"
rc=$?
pz_expect_eq "exit status as without prognoz" "$plain_rc" "$rc"
diff -u "$PZ_WORK/plain.out" "$PZ_WORK/run.out" >&2 ||
    pz_fail "stdout differs from a run without prognoz (- without, + with)"
cat "$PZ_WORK/run.err" >&2
pz_expect_eq "stderr" \
    "prognoz: warning: cannot write the trace in '$full/trace': a write failed (is the disk full?); no trace was installed" \
    "$(cat "$PZ_WORK/run.err")"
pz_expect_eq "what is left in the trace directory" "" "$(ls -A "$full/trace")"
