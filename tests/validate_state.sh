#!/bin/sh
# The validation harness's judgement by state (scripts/validate_state.py), on hand-made
# numbers, without MPI: the probe's line and prognoz calibrate's listing read, a run
# classified into a calibration's state (its probes' 1 MiB one way, before and after
# it, within a factor 1.5 of the calibration's), a prediction judged against the
# median of the runs in the state, and the summary line that names the cases with no
# run in it.  Every expected value is derived by hand in the comments.
# The environment (make check): PZ_TOP_SRCDIR, PZ_PYTHON.
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$PZ_TOP_SRCDIR/scripts exec "${PZ_PYTHON:-python3}" - <<'EOF'
import sys
import validate_state as state

failed = 0


def check(what, got, expected):
    global failed
    if got != expected:
        print("FAIL: %s: got %r, expected %r" % (what, got, expected))
        failed = 1


def near(x, y):
    return x is not None and abs(x - y) < 1e-9


# The probe's line, as scripts/validate_probe.c prints it, among UCX's log lines.
text = ("[1700000000.1] ucp_worker.c:1  UCX  INFO  ep_cfg[1]: tag(tcp/lo tcp/eth0)\n"
        "validate_probe: 0 B one way 5.02 us, 1 MiB one way 171.3 us (rounds 165.0 to 180.2 us)\n")
check("probe", state.probe(text),
      {"zero_us": 5.02, "mib_us": 171.3, "mib_low_us": 165.0, "mib_high_us": 180.2})
check("no probe line", state.probe("validate_probe: failed\n"), None)

# prognoz calibrate's listing: the ping-pong table's 1 MiB row (its time column, the
# first after the size), the rounds' line of 1 MiB one way (a round without a time is
# "-"), and the exchange table's 1 MiB row further down, which is not the one read.
listing = """    size (B)    time (us) round trips   error of the model (%)
           0        5.216        8172        -0.35       1.21       0.00
     1048576      170.520         303       -45.81     -45.76     -45.80
1 MiB one way        170.520   162.724         -   604.940  us, spread 300.2%
   1048576    999.000    350.664    347.154     2.869    347.795   2.04   2.12
"""
check("calibration", state.calibration(listing),
      {"mib_us": 170.52, "rounds_us": [170.52, 162.724, None, 604.94]})
check("calibration without its rounds' line",
      state.calibration("     1048576      500.000         303       -45.81\n"),
      {"mib_us": 500.0, "rounds_us": []})
check("calibration without a 1 MiB row", state.calibration("           0        5.216        8172\n"), None)

# A calibration agrees with the machine around it when one of the probes right before
# and after it is in its state.  The listing's 170.52 us: its state 113.68 to 255.78 us.
# Probes of 600 and 200 us: 200 is in it; 600 and 650: neither (made again).  A listing
# of 640 us (426.67 to 960 us) with probes of 162 and 210: neither.  No probe with a
# time, or no 1 MiB row: nothing to tell them apart, so it agrees.
def probe_text(mib):
    return ("validate_probe: 0 B one way 5.00 us, 1 MiB one way %.1f us "
            "(rounds %.1f to %.1f us)\n" % (mib, mib, mib))


check("agrees: one probe in its state",
      state.calibration_agrees(listing, [probe_text(600.0), probe_text(200.0)]), True)
check("agrees: neither probe",
      state.calibration_agrees(listing, [probe_text(600.0), probe_text(650.0)]), False)
check("agrees: a slow calibration between fast probes",
      state.calibration_agrees("     1048576      640.000         303       -45.81\n",
                               [probe_text(162.0), probe_text(210.0)]), False)
check("agrees: no probe with a time", state.calibration_agrees(listing, ["failed\n"]), True)
check("agrees: no 1 MiB row", state.calibration_agrees("", [probe_text(600.0)]), True)

# The state of a calibration of 170 us: 170 / 1.5 = 113.33 to 170 * 1.5 = 255 us, both
# ends in it.
check("the upper end", state.same_state(255.0, 170.0), True)
check("beyond the upper end", state.same_state(255.1, 170.0), False)
check("the lower end", state.same_state(113.34, 170.0), True)
check("below the lower end", state.same_state(113.33, 170.0), False)
check("the other state", state.same_state(560.0, 170.0), False)
check("a run without a probe", state.same_state(None, 170.0), False)
check("a calibration of unknown state", state.same_state(170.0, None), False)

# The rounds of the calibration above against its own 170.52 us (113.68 to 255.78 us):
# 170.52 and 162.724 in, 604.94 out, the round without a time not counted: 2 of 3.
check("rounds in the state", state.rounds_in_state([170.52, 162.724, None, 604.94], 170.52), (2, 3))

# A run's probes before and after it, against a calibration of 170 us (113.33 to 255):
# both in; one out; one without a time and the other in; none with a time.
check("run, both probes in", state.run_in_state([171.0, 250.0], 170.0), True)
check("run, one probe out", state.run_in_state([171.0, 560.0], 170.0), False)
check("run, one probe in, one without", state.run_in_state([None, 171.0], 170.0), True)
check("run, no probe with a time", state.run_in_state([None, None], 170.0), False)

# Six measured runs (seconds, their probes' 1 MiB one way before and after, in us):
# three in the fast state, one in the slow, one without a probe, one that moved from
# the fast to the slow state between its probes.
runs = [(1.00, [180.0, 175.0]), (1.20, [190.0, 200.0]), (1.60, [560.0, 540.0]),
        (1.05, [None, None]), (0.90, [290.0, 210.0]), (1.40, [200.0, 600.0])]
# A calibration of 200 us: its state 133.33 to 300 us holds the runs of 1.00, 1.20 and
# 0.90 s (not 1.40, whose second probe is 600): median 1.00, spread (1.20 - 0.90) / 1.00
# = 30%, and the prediction of 1.10 s is +10% from it (against all six, median
# (1.05 + 1.20) / 2 = 1.125 s, it would be -2.2%).
ws = state.within_state(1.10, runs, 200.0)
check("fast state: runs", ws["runs"], 3)
check("fast state: median", near(ws["measured"], 1.00), True)
check("fast state: spread", near(ws["spread_percent"], 30.0), True)
check("fast state: error", near(ws["error_percent"], 10.0), True)
# A calibration of 560 us: its state 373.3 to 840 us holds the run of 1.60 s alone (not
# 1.40, whose first probe is 200): no spread, and 1.10 s is (1.10 - 1.60) / 1.60 =
# -31.25% from it.
ws = state.within_state(1.10, runs, 560.0)
check("slow state", (ws["runs"], ws["measured"], ws["spread_percent"], "%.2f" % ws["error_percent"]),
      (1, 1.60, None, "-31.25"))
# A calibration of 1000 us: its state 666.7 to 1500 us holds no run.
check("no run in the state", state.within_state(1.10, runs, 1000.0),
      {"runs": 0, "measured": None, "spread_percent": None, "error_percent": None})

# The summary of a calibration: errors +10, -30 and +2.5 (|error| 10, 30, 2.5: median
# 10, largest 30) and one case with no run in its state.
figures = state.summary([10.0, -30.0, 2.5], ["ring 800"])
check("summary", figures, {"median": 10.0, "max": 30.0, "cases": 3, "no_run_in_state": ["ring 800"]})
check("summary line", state.summary_line(1, "whole run", figures),
      "calibration 1, whole run within its state: median |error| 10.0%, max |error| 30.0% "
      "(3 cases; 1 with no run in its state: ring 800)")
check("summary line, every case in the state",
      state.summary_line(2, "intervals", state.summary([-4.0, 6.0], [])),
      "calibration 2, intervals within its state: median |error| 5.0%, max |error| 6.0% (2 cases)")
check("summary line, no case in the state",
      state.summary_line(2, "whole run", state.summary([], ["ring 800", "cg2d 300"])),
      "calibration 2, whole run within its state: no comparison "
      "(2 with no run in its state: ring 800, cg2d 300)")
sys.exit(failed)
EOF
