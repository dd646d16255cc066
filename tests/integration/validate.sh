# The validation harness, scripts/validate.sh --reduced, on the build tree's prognoz:
# it builds the programs of share/validation (its list `programs=`), calibrates the TCP
# transport once (or, when prognoz calibrate is not built, predicts on
# share/machines/gigabit-switch.conf), records, predicts and runs each program at each
# of its sizes, and must end with status 0 and print a "whole run" row for every
# program, and the summary lines of the calibration: the whole run, the intervals and
# the goal; beside every program's runs the probe of the TCP transport's state, and the
# summary lines within the calibration's state.  Its accuracy figures are a benchmark
# (bench/README.md, "Accuracy"), not checked here.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
command -v mpicc >/dev/null 2>&1 || test -n "${MPICC:-}" || pz_skip "no mpicc to build the programs"
PROGNOZ_CALIBRATE=${PROGNOZ_CALIBRATE:-$(dirname "$PZ_PROGNOZ")/prognoz-calibrate}
set -- --reduced --dir "$PZ_WORK/validate"
test -x "$PROGNOZ_CALIBRATE" || set -- "$@" --machine "$PZ_TOP_SRCDIR/share/machines/gigabit-switch.conf"
export PROGNOZ_CALIBRATE
unset PROGNOZ_DIR LD_PRELOAD

out=$PZ_WORK/validate.out
# Every run of the harness is bounded by VALIDATE_TIMEOUT, the whole (its runs,
# calibration and probes) by ten times that: on a machine loaded by other builds (load
# 8 on 2 cores, 28 November 2026) the whole took over 8 minutes.
limit=$((10 * PZ_TIMEOUT))
PROGNOZ=$PZ_PROGNOZ PROGNOZ_LIB=$PZ_LIB PYTHON=${PZ_PYTHON:-python3} VALIDATE_TIMEOUT=$PZ_TIMEOUT \
    timeout $limit sh "$PZ_TOP_SRCDIR/scripts/validate.sh" "$@" >"$out" 2>&1
rc=$?
if test $rc -ne 0; then
    cat "$out" >&2
    test $rc -eq 124 && pz_fail "scripts/validate.sh --reduced timed out after ${limit}s"
    pz_fail "scripts/validate.sh --reduced: exit status $rc (above)"
fi
programs=$(sed -n 's/^programs="\(.*\)"$/\1/p' "$PZ_TOP_SRCDIR/scripts/validate.sh")
test -n "$programs" || pz_fail "no programs= line in scripts/validate.sh"
for p in $programs; do
    grep -Eq "^$p +[0-9,]+ +whole run +[0-9.]+ +([0-9.]+|-) +[0-9.]+ +[-+][0-9.]+ " "$out" ||
        { cat "$out" >&2; pz_fail "no 'whole run' row with measured, predicted and error for $p"; }
done
for what in "whole run" intervals; do
    grep -Eq "^calibration 1, $what: median \|error\| [0-9.]+%, max \|error\| [0-9.]+% \([0-9]+ cases(;[^)]*)?\)$" "$out" ||
        { cat "$out" >&2; pz_fail "no summary line for $what"; }
done
for what in "whole run" intervals; do
    grep -Eq "^calibration 1, $what within its state: (median \|error\| [0-9.]+%, max \|error\| [0-9.]+% \([0-9]+ cases(; [0-9]+ with no run in its state: [^)]+)?\)|no comparison( \([^)]+\))?)$" "$out" ||
        { cat "$out" >&2; pz_fail "no summary line for $what within the calibration's state"; }
done
for p in $programs; do
    grep -Eq "^validate: $p [0-9,]+: 1 MiB one way by the probes right before and after each tcp run: [0-9.]+/[0-9.]+ us$" "$out" ||
        { cat "$out" >&2; pz_fail "no probe of the TCP transport's state beside the run of $p"; }
done
grep -Eq "^calibration 1, goal \(whole run: median \|error\| <= 5%, max <= 15%\): (met|not met)$" "$out" ||
    { cat "$out" >&2; pz_fail "no line saying whether the goal is met"; }
if command -v smpirun >/dev/null 2>&1; then
    grep -Eq "^calibration 1, SimGrid whole run: median \|error\| [0-9.]+%, max \|error\| [0-9.]+% " "$out" ||
        { cat "$out" >&2; pz_fail "smpirun is installed but there is no SimGrid summary line"; }
fi
test -s "$PZ_WORK/validate/results.txt" || pz_fail "no results file $PZ_WORK/validate/results.txt"
"${PZ_PYTHON:-python3}" -c 'import json, sys; json.load(open(sys.argv[1]))["summary"]["1"]["whole"]["median"]' \
    "$PZ_WORK/validate/results.json" || pz_fail "no summary in $PZ_WORK/validate/results.json"
"${PZ_PYTHON:-python3}" -c 'import json, sys; r = json.load(open(sys.argv[1])); r["state_rule"]["factor"]; "within_state" in r["summary"]["1"] or sys.exit(1); r["cases"][0]["probes"][0]["after"]["mib_us"]' \
    "$PZ_WORK/validate/results.json" || pz_fail "no probes or state summary in $PZ_WORK/validate/results.json"
cat "$out"  # the figures, for the log
exit 0
