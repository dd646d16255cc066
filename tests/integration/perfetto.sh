# prognoz export --perfetto on real runs, checked against the format and the trace.
#
# The command's usage errors first (status 2, one line on stderr).  Then programs/p2p,
# programs/intervals and programs/requests recorded on 2 processes, and p2p's
# prediction on the switched machine, exported: each file must be JSON whose every
# event is well-formed (docs/perfetto.md): slices (X, B, E) in time order on each
# track, B and E balanced per track, X inside nothing it does not nest in, every flow
# one "s" and one "f" each inside a call of its track; and each rank's calls (X events
# of an MPI category) must be as many as otf2-print shows Enter records of MPI_
# regions on its location.  Last, a limit of 4 KB: the file stays JSON, says what it
# left out, and holds fewer calls.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
test -n "${PZ_PYTHON:-}" || pz_skip "no python3"
p2p=$(pz_program p2p) || exit 77
intervals=$(pz_program intervals) || exit 77
requests=$(pz_program requests) || exit 77
err=$PZ_WORK/export.err

"$PZ_PROGNOZ" export "$PZ_WORK/nothing" --perfetto "$PZ_WORK/x.json" --machine x \
    >/dev/null 2>"$err"
test $? -eq 2 && grep -q -- "--machine is for --simgrid" "$err" || pz_fail "--machine: $(cat "$err")"
"$PZ_PROGNOZ" export "$PZ_WORK/nothing" --perfetto "$PZ_WORK/x.json" --perfetto-limit lots \
    >/dev/null 2>"$err"
test $? -eq 2 && grep -q -- "--perfetto-limit 'lots'" "$err" || pz_fail "--perfetto-limit: $(cat "$err")"
"$PZ_PROGNOZ" export "$PZ_WORK/nothing" --perfetto "$PZ_WORK/x.json" >/dev/null 2>"$err"
test $? -eq 1 && test "$(wc -l <"$err")" -eq 1 || pz_fail "a missing trace: $(cat "$err")"
test ! -e "$PZ_WORK/x.json" || pz_fail "a missing trace left $PZ_WORK/x.json"

pz_record_ok p2p 2 "$p2p"
pz_record_ok intervals 2 "$intervals"
pz_record_ok requests 2 "$requests"
"$PZ_PROGNOZ" predict "$PZ_WORK/p2p" --machine "$PROGNOZ_MACHINES/gigabit-switch.conf" \
    --trace-out "$PZ_WORK/predicted" >/dev/null 2>"$err" || pz_fail "predict: $(cat "$err")"

# check NAME JSON [MAXCALLS]: JSON is a well-formed export of $PZ_WORK/NAME whose calls
# per rank are otf2-print's (at most, when MAXCALLS is given).
check() {
    pz_print "$PZ_WORK/$1.events" "$PZ_WORK/$1/traces.otf2"
    "$PZ_PYTHON" - "$2" "$PZ_WORK/$1.events" "${3:-}" <<'PY' || pz_fail "$1: the export is wrong (above)"
import collections, json, re, sys

path, events, partial = sys.argv[1], sys.argv[2], sys.argv[3] == "partial"
doc = json.load(open(path))
bad = []
mpi = {"collective", "blocking send", "nonblocking send", "blocking receive or wait",
       "nonblocking receive or test", "other MPI"}
calls = collections.Counter()
last = {}
stacks = collections.defaultdict(list)
slices = collections.defaultdict(list)
flows = collections.defaultdict(list)
for e in doc["traceEvents"]:
    ph = e.get("ph")
    if ph not in ("M", "X", "B", "E", "s", "f", "i") or not isinstance(e.get("ts"), (int, float)):
        bad.append("malformed %r" % e)
        continue
    if not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int):
        bad.append("no pid/tid %r" % e)
    track = (e["pid"], e["tid"])
    if ph in ("X", "B", "E"):
        if e["ts"] < last.get(track, float("-inf")):
            bad.append("%r earlier than the slice before it on its track" % e)
        last[track] = e["ts"]
    if ph == "X":
        if not e.get("name") or e.get("dur", -1) < 0:
            bad.append("X without name or duration %r" % e)
        slices[track].append((e["ts"], e["ts"] + e["dur"]))
        if e.get("cat") in mpi:
            calls[e["pid"] - 1] += 1
    elif ph == "B":
        stacks[track].append(e["name"])
    elif ph == "E":
        if not stacks[track] or stacks[track].pop() != e["name"]:
            bad.append("E without its B %r" % e)
    elif ph in ("s", "f"):
        flows[e["id"]].append(e)
for track, s in stacks.items():
    if s:
        bad.append("track %r: %s never ended" % (track, s))
for i, f in flows.items():
    if sorted(x["ph"] for x in f) != ["f", "s"] or f[0]["cat"] != f[1]["cat"]:
        bad.append("flow %s is not one s and one f: %r" % (i, f))
        continue
    for x in f:
        t = (x["pid"], x["tid"])
        if not any(a <= x["ts"] <= b for a, b in slices[t]):
            bad.append("flow end %r is in no call of its track" % x)
want = collections.Counter()
for line in open(events):
    m = re.match(r'ENTER +(\d+) +\d+ +Region: "MPI_', line)
    if m:
        want[int(m.group(1)) % 4294967296] += 1
other = doc["otherData"]
if partial:
    if "left_out" not in other or other["left_out"]["calls"] == 0:
        bad.append("a cut file does not say what it left out: %r" % other)
    if sum(calls.values()) + other["left_out"]["calls"] != sum(want.values()):
        bad.append("written %d + left out %d calls, otf2-print %d" %
                   (sum(calls.values()), other["left_out"]["calls"], sum(want.values())))
elif calls != want:
    bad.append("calls per rank %r, otf2-print %r" % (dict(calls), dict(want)))
if other["calls"] != sum(calls.values()) or other["messages"] != len(flows):
    bad.append("otherData %r: %d calls, %d flows in the file" % (other, sum(calls.values()), len(flows)))
for b in bad[:10]:
    print(b, file=sys.stderr)
print("%s: %d calls, %d messages" % (path, sum(calls.values()), len(flows)))
sys.exit(1 if bad else 0)
PY
}

for run in p2p intervals requests predicted; do
    "$PZ_PROGNOZ" export "$PZ_WORK/$run" --perfetto "$PZ_WORK/$run.json" >"$PZ_WORK/$run.log" 2>"$err" ||
        pz_fail "export $run: $(cat "$err")"
    grep -q "ui.perfetto.dev" "$PZ_WORK/$run.log" || pz_fail "export $run: $(cat "$PZ_WORK/$run.log")"
    check "$run" "$PZ_WORK/$run.json"
done
grep -q '"cat":"interval"' "$PZ_WORK/intervals.json" || pz_fail "intervals: no interval"
grep -q '"ph":"s"' "$PZ_WORK/p2p.json" || pz_fail "p2p: no message"

"$PZ_PROGNOZ" export "$PZ_WORK/requests" --perfetto "$PZ_WORK/cut.json" --perfetto-limit 4KB \
    >/dev/null 2>"$err" || pz_fail "export with a limit: $(cat "$err")"
grep -q "left out" "$err" || pz_fail "export with a limit: nothing said of the cut: $(cat "$err")"
check requests "$PZ_WORK/cut.json" partial
exit 0
