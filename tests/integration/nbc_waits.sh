# Wait at NxN of a nonblocking collective on a real run (programs/nbc_wait.c on 2 ranks):
# rank 1 sleeps 200 ms before it posts MPI_Iallreduce, rank 0 posts it at once and waits
# for it in MPI_Wait.  In prognoz report --format json --per-process, the whole run's
# Wait at NxN of rank 0 is about the sleep, counted in its synchronization and no more
# than its MPI time; rank 1's is near zero.  Tolerances are generous (a loaded machine
# of 2 cores).  The Iallreduce and the barrier before it are 2 complete instances.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program nbc_wait) || exit 77
test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
PY=${PZ_PYTHON:-python3}
SLEEP_MS=200

pz_record_ok nbc_wait 2 "$prog" "$SLEEP_MS"
"$PZ_PROGNOZ" report "$PZ_WORK/nbc_wait" --format json --per-process \
    >"$PZ_WORK/report.json" 2>"$PZ_WORK/report.err" ||
    { cat "$PZ_WORK/report.err" >&2; pz_fail "prognoz report failed"; }
test ! -s "$PZ_WORK/report.err" ||
    { cat "$PZ_WORK/report.err" >&2; pz_fail "prognoz report: output on stderr (above)"; }

"$PY" - "$PZ_WORK/report.json" "$SLEEP_MS" <<'PYEOF' || pz_fail "the JSON report is not what is expected (above)"
import json, sys

with open(sys.argv[1]) as f:
    report = json.load(f)
sleep = int(sys.argv[2]) / 1000.0
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


check(report["collectives"] == 2, "collectives: %r, expected 2 (Barrier, Iallreduce)" % report["collectives"])
check(report["incomplete_collectives"] == 0, "incomplete collectives: %r" % report["incomplete_collectives"])
run = report["intervals"][0]
procs = {p["rank"]: p["values"] for p in run["per_process"]}
waiter, sleeper = procs[0], procs[1]
# rank 0 waits for rank 1's post: the sleep, less the little rank 1 left the barrier
# before rank 0, more what a loaded machine adds to a sleep
check(0.6 * sleep <= waiter["wait_at_nxn"] <= sleep + 0.150,
      "rank 0: Wait at NxN %.6f s, expected about %.3f s" % (waiter["wait_at_nxn"], sleep))
check(waiter["synchronization"] >= waiter["wait_at_nxn"] - 1e-6,
      "rank 0: synchronization %.6f s less than its Wait at NxN %.6f s"
      % (waiter["synchronization"], waiter["wait_at_nxn"]))
check(waiter["wait_at_nxn"] <= waiter["mpi_time"] + 1e-6,
      "rank 0: Wait at NxN %.6f s more than its MPI time %.6f s" % (waiter["wait_at_nxn"], waiter["mpi_time"]))
check(sleeper["wait_at_nxn"] <= 0.020,
      "rank 1: Wait at NxN %.6f s, expected near 0: rank 0 posted long before" % sleeper["wait_at_nxn"])
check(abs(run["main"]["wait_at_nxn"] - waiter["wait_at_nxn"] - sleeper["wait_at_nxn"]) <= 1e-6,
      "whole run: Wait at NxN %.6f s is not the sum over the ranks" % run["main"]["wait_at_nxn"])

for f in failures:
    print("report.json: " + f, file=sys.stderr)
sys.exit(1 if failures else 0)
PYEOF
