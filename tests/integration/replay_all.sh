#!/bin/sh
# Every program of the recorder's tests, recorded and predicted on each shipped machine:
# the prediction completes without a word on stderr, and the predicted run has the
# recorded run's messages, collective instances and intervals, every message matched,
# every instance complete, no receive ending before its send began.  Point-to-point
# modes, persistent and nonblocking requests, wildcard receives, sub-communicators,
# nonblocking collectives and buffer flushes all go through the replay this way.  The
# machines are named, as shipped ($PROGNOZ_MACHINES is the source tree's share/machines).
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
test -n "${PZ_PYTHON:-}" || pz_skip "PZ_PYTHON is not set"
machines="ethernet-100-hub gigabit-switch myrinet-2proc"

# counts FILE: the analysis' counts and interval ids of a JSON report, one line.
counts() {
    "$PZ_PYTHON" -c '
import json, sys
r = json.load(open(sys.argv[1]))
if "predictions" in r:    # a prediction: the report of the predicted run
    r = r["predictions"][0]["report"]
keys = ("processes", "messages", "collectives", "unmatched_sends", "unmatched_receives",
        "incomplete_collectives", "clock_violations")
ivs = sorted((i["file"], i["line"], i["id"], i["level"]) for i in r["intervals"])
print(" ".join("%s=%s" % (k, r[k]) for k in keys), "intervals=" +
      ";".join("%s:%s:%s:%s" % (f.split("/")[-1], l, i, v) for f, l, i, v in ivs))
' "$1"
}

# replay NAME NP PROGRAM [ARGS...]
replay() {
    _name=$1 _np=$2
    shift 2
    pz_record_ok "$_name" "$_np" "$@"
    "$PZ_PROGNOZ" report "$PZ_WORK/$_name" --format json >"$PZ_WORK/$_name.json" 2>/dev/null ||
        pz_fail "$_name: prognoz report failed"
    want=$(counts "$PZ_WORK/$_name.json" | sed 's/clock_violations=[0-9]*/clock_violations=0/')
    for m in $machines; do
        out=$PZ_WORK/$_name-$m.json err=$PZ_WORK/$_name-$m.err
        timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" predict "$PZ_WORK/$_name" --format json \
            --machine "$m" >"$out" 2>"$err"
        rc=$?
        test $rc -eq 0 || { cat "$err" >&2; pz_fail "$_name on $m: prognoz predict exited $rc"; }
        test -s "$err" && { cat "$err" >&2; pz_fail "$_name on $m: output on stderr"; }
        got=$(counts "$out")
        test "$got" = "$want" || pz_fail "$_name on $m: predicted '$got', recorded '$want'"
    done
    echo "$_name: $want, the same on $machines"
}

replay p2p 2 "$(pz_program p2p)" || exit $?
replay requests 2 "$(pz_program requests)" || exit $?
replay persist 2 "$(pz_program persist)" || exit $?
PZ_ENV=PROGNOZ_BUFFER=64K replay buffer 2 "$(pz_program buffer)" || exit $?
replay anysource 3 "$(pz_program anysource)" || exit $?
replay coll 4 "$(pz_program coll)" || exit $?
replay nbc 4 "$(pz_program coll)" nonblocking || exit $?
replay commsplit 4 "$(pz_program commsplit)" || exit $?
replay intervals 2 "$(pz_program intervals)" || exit $?
