# prognoz scale --replay-passes: bench/gentrace's ring (an interval of MPI_Irecv,
# MPI_Isend, MPI_Waitall and MPI_Allreduce, 600 iterations) recorded at 4, 8 and 16
# processes, extrapolated to 64.  With a sample of the passes (runs cut to 32, 64 and
# 128 of the 600, settled at once: every iteration alike), every interval's time at
# every count within 1% of the replay of every pass; one note naming the loop, its 600
# passes and the cuts, a short one for each other count.  Every pass replayed (all, the
# default at this size, or with --trace-out): no such note, and with --trace-out one
# saying why the sample asked for was not made.  A wrong value: status 2.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
gentrace=$(pz_program gentrace) || exit 77
PY=${PZ_PYTHON:-python3}
"$PY" -c 'import json' 2>/dev/null || PY=python3
err=$PZ_WORK/scale_passes.err
machine=$PZ_TOP_SRCDIR/tests/integration/whole-message.conf   # every pass alike: its comment

for n in 4 8 16; do
    "$gentrace" "$PZ_WORK/ring$n" --ranks $n --iterations 600 >/dev/null 2>"$err" ||
        { cat "$err" >&2; pz_fail "gentrace could not write the ring at $n processes"; }
done
# scale_json NAME OPTION...: the report of the ring extrapolated to 64 into NAME.json
scale_json() {
    _name=$1
    shift
    "$PZ_PROGNOZ" scale "$PZ_WORK/ring4" "$PZ_WORK/ring8" "$PZ_WORK/ring16" --ranks 64 \
        --machine "$machine" --format json -o "$PZ_WORK/$_name.json" "$@" 2>"$err" ||
        { cat "$err" >&2; pz_fail "prognoz scale $* failed"; }
    test ! -s "$err" || { cat "$err" >&2; pz_fail "prognoz scale $* wrote to stderr"; }
}
scale_json sample --replay-passes sample
scale_json all --replay-passes all
scale_json auto
scale_json written --replay-passes sample --trace-out "$PZ_WORK/synth"

"$PY" - "$PZ_WORK" <<'PYEOF' || pz_fail "the sampled replay is not as expected (above)"
import json, re, sys

work = sys.argv[1]
d = {n: json.load(open("%s/%s.json" % (work, n))) for n in ("sample", "all", "auto", "written")}
bad = []

def times(r):
    return {(iv["id"], e["ranks"]): e["execution_time"]
            for iv in r["intervals"] for m in iv["machines"] for e in m["entries"]}

every, sampled = times(d["all"]), times(d["sample"])
if sorted(every) != sorted(sampled) or len(every) != 8:
    bad.append("intervals and counts: %s against %s" % (sorted(sampled), sorted(every)))
for k in every:
    if k in sampled and abs(sampled[k] - every[k]) > 0.01 * every[k]:
        bad.append("interval %d at %d: %.6f s sampled, %.6f s every pass" %
                   (k[0], k[1], sampled[k], every[k]))

def told(r):
    return [n for n in r["notes"] if " passes of that loop:" in n or
            "the run was replayed cut to a few of them" in n]

notes = told(d["sample"])
if len(notes) != 4:
    bad.append("%d notes on the sample, expected 4: %s" % (len(notes), notes))
else:
    first = notes[0]
    cuts = (r"on whole-message cut to 32, 64 and 128 passes \(224 replayed; a pass "
            r"[0-9.]+% apart, the computation drawn after [0-9.]+%\)$")
    if not first.startswith("at 4 processes the loop beginning with ") or \
            "makes 600 passes" not in first or not re.search(": " + cuts, first):
        bad.append("the first note: %s" % first)
    for n, p in zip(notes[1:], (8, 16, 64)):
        if not re.fullmatch("at %d processes, 600 passes of that loop: " % p + cuts, n):
            bad.append("the note at %d: %s" % (p, n))
for name in ("all", "auto", "written"):
    if told(d[name]):
        bad.append("--replay-passes %s: a note on a sample %s" % (name, told(d[name])))
said = [n for n in d["written"]["notes"] if n.startswith("--replay-passes sample:")]
if said != ["--replay-passes sample: every pass of the run at 4 processes was replayed: "
            "--trace-out writes the whole run"]:
    bad.append("--trace-out with --replay-passes sample: notes %s" % said)
if times(d["auto"]) != every:
    bad.append("the default at 64 processes is not every pass's replay")
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PYEOF

"$PZ_PROGNOZ" scale "$PZ_WORK/ring4" "$PZ_WORK/ring8" --ranks 64 --machine gigabit-switch \
    --replay-passes some >/dev/null 2>"$err"
pz_expect_eq "status of --replay-passes some" 2 "$?"
grep -qx "prognoz scale: --replay-passes 'some': expected auto, all or sample" "$err" ||
    { cat "$err" >&2; pz_fail "--replay-passes some: not the one line expected"; }
