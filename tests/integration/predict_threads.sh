# prognoz predict on an MPI_THREAD_MULTIPLE run (programs/threads.c on 2 ranks: each
# rank's master thread initialises, waits for its 4 threads and enters a barrier; thread
# t of each rank does 20 rounds of Irecv/Isend/Waitall and a Sendrecv with thread t of
# the other rank, tag 100 + t).  Every thread is replayed: on integration/ideal.conf and
# on the shipped ethernet-100-hub the prediction completes without a word on stderr, has
# replayed all 2 x (5 + 4 x 20 x 4) = 650 calls and 2 x (12 + 4 x 280) = 2264 records
# (12 events per master thread, 14 per round), and its trace (-o) has the 10 thread
# locations with their events, which prognoz report analyzes as threads 0.0 to 1.4 with
# all 2 x 4 x 20 x 2 = 320 messages matched, the one barrier complete and no clock
# violation.  Bounds of the predicted times, by hand:
#   - ideal.conf (communication free, computation as recorded): no event is later than
#     recorded (predict.sh gives the induction), so the whole run and the span of the
#     talking threads (from their first event to their last) are no longer than
#     recorded; and each thread still computes what it computed: its span is at least
#     its recorded CPU time (time outside MPI calls);
#   - ethernet-100-hub (a bus, one message at a time, one rank per node, packet model):
#     the 320 messages of the talking threads are all posted after the first of their
#     events and received in one of their calls, one after the other on the bus, so the
#     span of the talking threads is at least 320 times the cost of the smallest (4 B)
#     message; and the prediction ends no later than on ideal.conf plus the bus's time
#     for every message (320 + the barrier's 2, each at most the cost of 8 B).
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
test -n "${PZ_PYTHON:-}" || pz_skip "PZ_PYTHON is not set"
prog=$(pz_program threads) || exit 77
ideal=$PZ_TOP_SRCDIR/tests/integration/ideal.conf

pz_record_ok threads 2 "$prog"
pz_trace threads
"$PZ_PROGNOZ" report "$PZ_WORK/threads" --format json --per-process \
    >"$PZ_WORK/threads.report.json" || pz_fail "prognoz report of the recorded run failed"

# predict NAME MACHINE: prognoz predict of the recorded run on MACHINE, the JSON in
# NAME.json and the predicted trace in NAME/; exits 0 without output on stderr; then the
# report of the predicted trace in NAME.report.json and its definitions and events.
predict() {
    timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" predict "$PZ_WORK/threads" --machine "$2" \
        --format json --trace-out "$PZ_WORK/$1" >"$PZ_WORK/$1.json" 2>"$PZ_WORK/$1.err" ||
        { cat "$PZ_WORK/$1.err" >&2; pz_fail "prognoz predict on $2 failed"; }
    test ! -s "$PZ_WORK/$1.err" ||
        { cat "$PZ_WORK/$1.err" >&2; pz_fail "prognoz predict on $2: output on stderr"; }
    "$PZ_PROGNOZ" report "$PZ_WORK/$1" --format json --per-process \
        >"$PZ_WORK/$1.report.json" 2>"$PZ_WORK/$1.report.err" ||
        { cat "$PZ_WORK/$1.report.err" >&2; pz_fail "prognoz report of $1 failed"; }
    test ! -s "$PZ_WORK/$1.report.err" ||
        { cat "$PZ_WORK/$1.report.err" >&2; pz_fail "prognoz report of $1: stderr"; }
    pz_trace "$1"
}

predict ideal "$ideal"
predict hub ethernet-100-hub

"$PZ_PYTHON" - "$PZ_WORK" <<'EOF' || pz_fail "the predictions (above)"
import json, re, sys

work = sys.argv[1]
failures = []
THREADS, ROUNDS = 4, 20


def check(cond, what):
    if not cond:
        failures.append(what)


def load(name):
    with open("%s/%s" % (work, name)) as f:
        return json.load(f)


def predicted(name):
    """The one machine's entry of a prediction: its machine, prediction and report."""
    return load(name)["predictions"][0]


def locations(name):
    """LOCATION lines of a trace's definitions: id -> (name, group, events)."""
    out = {}
    for line in open("%s/%s.defs" % (work, name)):
        m = re.match(r'LOCATION +(\d+) +Name: "([^"]*)".*# Events: (\d+), Group: "([^"]*)"', line)
        if m:
            out[int(m.group(1))] = (m.group(2), m.group(4), int(m.group(3)))
    return out


def talking_span(name):
    """From the first event of the talking threads (locations >= 2^32) to their last, s."""
    first = last = None
    for line in open("%s/%s.events" % (work, name)):
        f = line.split()
        if len(f) >= 3 and f[1].isdigit() and f[2].isdigit() and int(f[1]) >= 2 ** 32:
            t = int(f[2])
            first = t if first is None or t < first else first
            last = t if last is None or t > last else last
    return (last - first) / 1e9


def whole(report):
    return report["intervals"][0]


def per_thread(report):
    return {"%d.%d" % (p["rank"], p["thread"]): p["values"] for p in whole(report)["per_process"]}


names = " ".join("%d.%d" % (r, t) for r in range(2) for t in range(THREADS + 1))
rec_locs = locations("threads")
for name in ("ideal", "hub"):
    pred, rep = predicted(name + ".json"), load(name + ".report.json")
    counts = [rep[k] for k in ("processes", "threads", "messages", "collectives",
                                "unmatched_sends", "unmatched_receives",
                                "incomplete_collectives", "clock_violations")]
    want = [2, 10, 2 * THREADS * ROUNDS * 2, 1, 0, 0, 0, 0]
    check(counts == want, "%s: processes, threads, messages, collectives, unmatched, "
          "incomplete, clock violations %s, expected %s" % (name, counts, want))
    got = " ".join(per_thread(rep))
    check(got == names, "%s: the threads of the whole run '%s', expected '%s'" % (name, got, names))
    p = pred["prediction"]
    check(p["calls"] == 2 * (5 + THREADS * ROUNDS * 4) and p["records"] == 2 * (12 + THREADS * 280),
          "%s: %d calls and %d records replayed, expected 650 and 2264" % (name, p["calls"], p["records"]))
    locs = locations(name)
    check(sorted(locs) == sorted(rec_locs), "%s: locations %s, recorded %s" % (name, sorted(locs), sorted(rec_locs)))
    for loc, (lname, group, events) in locs.items():
        want_events = 12 if loc < 2 ** 32 else 14 * ROUNDS
        check(rec_locs.get(loc, (None, None))[:2] == (lname, group),
              "%s: location %d is '%s' of '%s', recorded %s" % (name, loc, lname, group, rec_locs.get(loc)))
        check(events == want_events, "%s: location %d has %d events, expected %d" % (name, loc, events, want_events))

# the bounds
SLACK = 2e-6     # the timestamps' nanoseconds, twice
ideal, recorded = load("ideal.report.json"), load("threads.report.json")
rec_exec = whole(recorded)["main"]["execution_time"]
ideal_exec = whole(ideal)["main"]["execution_time"]
check(ideal_exec <= rec_exec + SLACK,
      "ideal: the whole run %.9f s is longer than recorded, %.9f s" % (ideal_exec, rec_exec))
check(talking_span("ideal") <= talking_span("threads") + SLACK,
      "ideal: the talking threads span %.9f s, longer than recorded (%.9f s)"
      % (talking_span("ideal"), talking_span("threads")))
rec_threads, ideal_threads = per_thread(recorded), per_thread(ideal)
for t, v in rec_threads.items():
    got = ideal_threads[t]["execution_time"]
    check(got >= v["cpu_time"] - 1e-3,
          "ideal: thread %s spans %.9f s, less than its recorded CPU time %.9f s" % (t, got, v["cpu_time"]))
m = predicted("hub.json")["machine"]


def cost(b):
    """A one-packet message of b bytes on the packet model (docs/machines.md)."""
    return m["latency"] + b * m["latency_per_byte"] + (b + m["packet_header"]) / m["bandwidth"]


span = talking_span("hub")
check(span >= 2 * THREADS * ROUNDS * 2 * cost(4) - SLACK,
      "hub: the talking threads span %.9f s, less than 320 messages on the bus (%.9f s)"
      % (span, 320 * cost(4)))
end_ideal, end_hub = predicted("ideal.json")["prediction"]["end"], predicted("hub.json")["prediction"]["end"]
check(end_ideal - SLACK <= end_hub <= end_ideal + 322 * cost(8) + SLACK,
      "hub: the end %.9f s, expected from %.9f s to %.9f s"
      % (end_hub, end_ideal, end_ideal + 322 * cost(8)))
print("ideal: whole run %.6f s (recorded %.6f s), talking threads %.6f s (recorded %.6f s); "
      "hub: talking threads %.6f s (at least %.6f s), end %.6f s"
      % (ideal_exec, rec_exec, talking_span("ideal"), talking_span("threads"), span,
         320 * cost(4), end_hub))
for f in failures:
    print("predict_threads: " + f, file=sys.stderr)
sys.exit(1 if failures else 0)
EOF
