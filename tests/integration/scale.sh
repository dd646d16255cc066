# prognoz scale on real recordings (programs/scale_grid.c: a 2-D halo exchange on the
# grid of MPI_Cart_create, 2x1, 3x1 and 2x2, recorded with CPU times at 2, 3 and 4
# processes): extrapolated to 9 (3x3) and 16 (4x4) processes and predicted on two
# machines.  The run synthesized at a recorded count makes, process by process,
# exactly the recording's MPI calls with their peers, tags and sizes; those at 9 and
# 16 are traces otf2-print and prognoz report read, with every process's calls: the
# corners' 2 neighbours, the edges' 3, the interior's 4.  The JSON report has every
# count on both machines, the recorded ones marked, with speedup 1 at the base count;
# the text and HTML reports are written to -o; the recordings with more processes than
# the cores noted are named in a note.  Errors: recordings of different
# programs are refused naming where they differ (status 1); usage errors give status 2.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program scale_grid) || exit 77
PY=${PZ_PYTHON:-python3}
"$PY" -c 'import json' 2>/dev/null || PY=python3
err=$PZ_WORK/scale.err

# the recorder notes 3 cores: the recording at 4 processes shared them
PROGNOZ_CORES=3
for n in 2 3 4; do
    PZ_ENV=PROGNOZ_CPU_TIME=1 pz_record_ok grid$n $n "$prog" 10
done
rm -rf "$PZ_WORK/synth"
"$PZ_PROGNOZ" scale "$PZ_WORK/grid2" "$PZ_WORK/grid3" "$PZ_WORK/grid4" --ranks 9,16 \
    --machine gigabit-switch --machine ethernet-100-hub --compute cpu --format json \
    --trace-out "$PZ_WORK/synth" -o "$PZ_WORK/scale.json" 2>"$err" ||
    { cat "$err" >&2; pz_fail "prognoz scale failed"; }
test -s "$err" && { cat "$err" >&2; pz_fail "prognoz scale wrote to stderr"; }

# the calls of a trace, per location, without times, attributes, the names of the
# communicators (the recording's Cartesian one is the synthesized run's world) and
# definition ids
calls_of() {
    pz_trace "$1"
    for f in "$PZ_WORK/$1".calls.[0-9]*; do
        echo "== ${f##*.}"
        sed -e '/^!/d' -e 's/ ADDITIONAL ATTRIBUTES: [^|]*//' \
            -e 's/Communicator: "[^"]*"/Communicator/g' "$f"
    done
}
calls_of grid4 >"$PZ_WORK/grid4.all"
calls_of synth/P4 >"$PZ_WORK/synth4.all"
diff -u "$PZ_WORK/grid4.all" "$PZ_WORK/synth4.all" >&2 ||
    pz_fail "the run synthesized at 4 processes differs from the recording (- recorded, + synthesized)"

# 16 processes, 4x4: process 0 a corner (east 1, south 4), 1 an edge (west 0, east 2,
# south 5), 5 inside (west 4, east 6, north 1, south 9): one MPI_Isend to each per
# iteration, 10 iterations.
calls_of synth/P16 >"$PZ_WORK/synth16.all"
for p in 0 1 5; do
    n=$(grep -c '^MPI_Isend' "$PZ_WORK/synth/P16.calls.$p")
    case $p in 0) want=20 ;; 1) want=30 ;; 5) want=40 ;; esac
    pz_expect_eq "process $p's MPI_Isend calls at 16 processes" "$want" "$n"
done
grep '^MPI_Isend' "$PZ_WORK/synth/P16.calls.5" | sed 's/.*Receiver: \([0-9]*\).*/\1/' |
    sort -n | uniq -c | awk '{ printf "%s:%s ", $2, $1 }' >"$PZ_WORK/peers5"
pz_expect_eq "process 5's receivers at 16 processes" "1:10 4:10 6:10 9:10 " "$(cat "$PZ_WORK/peers5")"
for n in 9 16; do
    "$PZ_PROGNOZ" report "$PZ_WORK/synth/P$n" >"$PZ_WORK/report$n.txt" 2>&1 ||
        { cat "$PZ_WORK/report$n.txt" >&2; pz_fail "prognoz report cannot read the run synthesized at $n"; }
done

"$PY" - "$PZ_WORK/scale.json" <<'PYEOF' || pz_fail "the JSON report is not as expected (above)"
import json, sys

d = json.load(open(sys.argv[1]))
bad = []
names = [m["name"] for m in d["machines"]]
if names != ["gigabit-switch", "ethernet-100-hub"]:
    bad.append("machines %s" % names)
if [r["ranks"] for r in d["recordings"]] != [2, 3, 4]:
    bad.append("recordings %s" % d["recordings"])
for iv in d["intervals"]:
    for m in iv["machines"]:
        ranks = [e["ranks"] for e in m["entries"]]
        if ranks != [2, 3, 4, 9, 16]:
            bad.append("interval %d on %s: counts %s" % (iv["id"], m["machine"], ranks))
            continue
        rec = [e["recorded"] for e in m["entries"]]
        if rec != [True, True, True, False, False]:
            bad.append("interval %d: recorded flags %s" % (iv["id"], rec))
        if m["entries"][0]["speedup"] != 1:
            bad.append("interval %d: speedup at the base count %s" % (iv["id"], m["entries"][0]["speedup"]))
        for e in m["entries"]:
            if not e["execution_time"] > 0:
                bad.append("interval %d at %d: execution time %s" % (iv["id"], e["ranks"], e["execution_time"]))
if sorted(iv["id"] for iv in d["intervals"]) != [0, 1, 2]:
    bad.append("intervals %s" % [iv["id"] for iv in d["intervals"]])
if not any(iv["compute"] for iv in d["intervals"]):
    bad.append("no computation model")
# the two machines compared, each with its machine file's processes per node
cmp = d.get("comparison") or {}
ppn = [(m["machine"], m["procs_per_node"]) for m in cmp.get("machines", [])]
if ppn != [("gigabit-switch", 2), ("ethernet-100-hub", 1)]:
    bad.append("comparison's processes per node %s" % ppn)
# the recording with more processes than the 3 cores noted is named in one note
told = [n for n in d["notes"] if "ran more processes than a node has cores" in n]
if len(told) != 1 or not told[0].startswith("the recordings at 4 processes ran"):
    bad.append("notes on shared cores %s, expected one naming 4" % told)
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PYEOF

# Without --trace-out the synthesized runs are replayed in memory: the same report, each
# number within 1e-9 relative of the one replayed from the archives.
"$PZ_PROGNOZ" scale "$PZ_WORK/grid2" "$PZ_WORK/grid3" "$PZ_WORK/grid4" --ranks 9,16 \
    --machine gigabit-switch --machine ethernet-100-hub --compute cpu --format json \
    -o "$PZ_WORK/scale-in-memory.json" 2>"$err" ||
    { cat "$err" >&2; pz_fail "prognoz scale without --trace-out failed"; }
"$PY" - "$PZ_WORK/scale.json" "$PZ_WORK/scale-in-memory.json" <<'PYEOF' ||
import json, sys

def same(a, b, where):
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return all(same(a[k], b[k], where + "." + k) for k in a)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return all(same(x, y, "%s[%d]" % (where, i)) for i, (x, y) in enumerate(zip(a, b)))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and \
            not isinstance(a, bool) and not isinstance(b, bool):
        if abs(a - b) <= 1e-9 * max(abs(a), abs(b)):
            return True
    elif a == b:
        return True
    print("%s: %r from the archive, %r in memory" % (where, a, b), file=sys.stderr)
    return False

sys.exit(0 if same(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), "report") else 1)
PYEOF
    pz_fail "the report replayed in memory differs from the one replayed from the archives"

# The recordings in another order: the same predictions (only the list of recordings
# and the order of the notes naming them follow the arguments).
"$PZ_PROGNOZ" scale "$PZ_WORK/grid4" "$PZ_WORK/grid2" "$PZ_WORK/grid3" --ranks 9,16 \
    --machine gigabit-switch --machine ethernet-100-hub --compute cpu --format json \
    -o "$PZ_WORK/scale-shuffled.json" 2>"$err" ||
    { cat "$err" >&2; pz_fail "prognoz scale of grid4, grid2 and grid3 failed"; }
"$PY" - "$PZ_WORK/scale-in-memory.json" "$PZ_WORK/scale-shuffled.json" <<'PYEOF' ||
import json, sys

a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    d.pop("recordings", None)
    d["notes"] = sorted(d.get("notes", []))
sys.exit(0 if a == b else 1)
PYEOF
    pz_fail "the recordings given in another order predict differently"

for f in text html; do
    "$PZ_PROGNOZ" scale "$PZ_WORK/grid2" "$PZ_WORK/grid3" "$PZ_WORK/grid4" --ranks 8 \
        --machine gigabit-switch --compute cpu --format $f -o "$PZ_WORK/scale.$f" 2>"$err" ||
        { cat "$err" >&2; pz_fail "prognoz scale --format $f failed"; }
done
grep -q '^Interval 2 at .*scale_grid.c' "$PZ_WORK/scale.text" || pz_fail "no table of interval 2 in the text report"
test "$(grep -c '<svg' "$PZ_WORK/scale.html")" -ge 3 || pz_fail "no plots in the HTML report"

# recordings of different programs: one line naming what differs, status 1
PZ_ENV=PROGNOZ_CPU_TIME=1 pz_record_ok other4 4 "$prog" 7
"$PZ_PROGNOZ" scale "$PZ_WORK/grid2" "$PZ_WORK/grid3" "$PZ_WORK/other4" --ranks 8 \
    --machine gigabit-switch >/dev/null 2>"$err"
rc=$?
pz_expect_eq "status for recordings of different runs" 1 "$rc"
test "$(wc -l <"$err")" -eq 1 && grep -q 'differ' "$err" ||
    { cat "$err" >&2; pz_fail "expected one line saying the recordings differ"; }
# the processes sharing a node, split apart (scale_grid's "nodes"), follow each machine's
# nodes: the note on them names every machine, the 16th of names of 100 bytes too
for n in 2 3; do
    PZ_ENV=PROGNOZ_CPU_TIME=1 pz_record_ok node$n $n "$prog" 5 nodes
done
machines=
long=$(printf '%0100d' 0)
for k in $(seq 1 16); do
    sed -e "s/^name = .*/name = m$k-$long/" -e "s/^procs_per_node = .*/procs_per_node = $k/" \
        "$PZ_TOP_SRCDIR/share/machines/gigabit-switch.conf" >"$PZ_WORK/m$k.conf"
    machines="$machines --machine $PZ_WORK/m$k.conf"
done
# shellcheck disable=SC2086
"$PZ_PROGNOZ" scale "$PZ_WORK/node2" "$PZ_WORK/node3" --ranks 8 $machines --compute cpu \
    -o "$PZ_WORK/nodes.text" 2>"$err" || { cat "$err" >&2; pz_fail "prognoz scale of node2 and node3 failed"; }
grep "^Note: the communicator of the processes sharing a node" "$PZ_WORK/nodes.text" |
    grep -q "m16-$long: 16 per node (blocks of consecutive ranks)\$" ||
    pz_fail "the note on the nodes does not end with the 16th machine"

# usage errors
"$PZ_PROGNOZ" scale "$PZ_WORK/grid2" --machine gigabit-switch >/dev/null 2>"$err"
pz_expect_eq "status without --ranks" 2 "$?"
"$PZ_PROGNOZ" scale "$PZ_WORK/grid2" --ranks 0,4 --machine gigabit-switch >/dev/null 2>"$err"
pz_expect_eq "status of --ranks 0,4" 2 "$?"
"$PZ_PROGNOZ" scale "$PZ_WORK/grid2" --ranks 4, --machine gigabit-switch >/dev/null 2>"$err"
pz_expect_eq "status of --ranks 4," 2 "$?"
# shellcheck disable=SC2046
"$PZ_PROGNOZ" scale $(for k in $(seq 0 16); do echo "$PZ_WORK/grid2"; done) --ranks 4 \
    --machine gigabit-switch >/dev/null 2>"$err"
pz_expect_eq "status of 17 recordings" 2 "$?"
grep -qx "prognoz scale: $PZ_WORK/grid2: at most 16 recordings" "$err" ||
    { cat "$err" >&2; pz_fail "17 recordings: expected one line saying at most 16"; }
