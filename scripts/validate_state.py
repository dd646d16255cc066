"""The state of the TCP transport in the validation harness (scripts/validate.sh).

This machine's loopback TCP has states that last minutes and move every calibrated key
together (bench/README.md, "The state of the TCP transport"): 1 MiB one way takes 165 to
200 us in one, 500 to 620 us in another.  A calibration predicts the runs made in its own
state; judged against runs made in another, its error is the state's, not the model's.
So the harness measures the state (scripts/validate_probe.c: the one-way time of 1 MiB,
half a ping-pong's round trip, as prognoz calibrate measures it) right before and right
after every measured run and every calibration, and compares each calibration's predictions with the measured runs
made in its state as well as with all of them.

The rule: a run is in a calibration's state when both its probes' 1 MiB one-way times
are within a factor FACTOR of the calibration's own (the median of its rounds, the time
its keys were fitted to): reference / FACTOR <= probe <= reference * FACTOR.  The states'
own ranges differ by a factor 1.2 (165 to 200, 500 to 620 us), the two states by 2.5 at
least (200 to 500 us): 1.5 keeps a state's runs together and the other state's apart.
Both probes, because a loaded machine changes state within seconds: a run between two
probes of one state is likely in it throughout.  A run without a probe is in no state;
one with a single probe (the other failed to print) is judged by it.

Plain functions of numbers and text, no MPI: tests/validate_state.sh checks them on
hand-made numbers.
"""
import re
import statistics

FACTOR = 1.5

_PROBE = re.compile(r"^validate_probe: 0 B one way ([0-9.]+) us, 1 MiB one way ([0-9.]+) us "
                    r"\(rounds ([0-9.]+) to ([0-9.]+) us\)$", re.M)
_CAL_ROW = re.compile(r"^ +1048576 +([0-9.]+) +[0-9]+ ", re.M)
_CAL_ROUNDS = re.compile(r"^1 MiB one way((?: +(?:[0-9.]+|-))+) +us, spread", re.M)


def probe(text):
    """The probe's figures from its output: a dict of zero_us (0 B one way), mib_us
    (1 MiB one way; each half the median of the size's round trips) and mib_low_us,
    mib_high_us (the range of its 1 MiB rounds' own medians), or None when the text has no
    probe line."""
    m = _PROBE.search(text)
    if not m:
        return None
    zero, mib, low, high = (float(x) for x in m.groups())
    return {"zero_us": zero, "mib_us": mib, "mib_low_us": low, "mib_high_us": high}


def calibration(text):
    """What prognoz calibrate's listing says of 1 MiB one way: a dict of mib_us (its
    ping-pong table's row, the median of the rounds) and rounds_us (each round's time,
    None where a round has none; empty when the listing prints no rounds), or None when
    the listing has no 1 MiB row."""
    m = _CAL_ROW.search(text)
    if not m:
        return None
    r = _CAL_ROUNDS.search(text)
    rounds = [None if x == "-" else float(x) for x in r.group(1).split()] if r else []
    return {"mib_us": float(m.group(1)), "rounds_us": rounds}


def same_state(mib_us, reference_us, factor=FACTOR):
    """Whether a run whose probe measured mib_us is in the state of a calibration whose
    1 MiB one way is reference_us: False when either is unknown."""
    if mib_us is None or reference_us is None or reference_us <= 0:
        return False
    return reference_us / factor <= mib_us <= reference_us * factor


def calibration_agrees(calibration_text, probe_texts, factor=FACTOR):
    """Whether a calibration measured a state the machine was in around it: at least one
    of the probes right before and after it (their output texts) is in the state of the
    calibration's own 1 MiB one way.  True when the calibration or every probe has no
    time: nothing tells them apart.  A calibration that measured the other state than
    both probes around it (its rounds mostly in a state that came and went while it ran)
    describes runs of neither."""
    cal = calibration(calibration_text)
    mibs = [p["mib_us"] for p in (probe(t) for t in probe_texts) if p]
    if not cal or not mibs:
        return True
    return any(same_state(m, cal["mib_us"], factor) for m in mibs)


def rounds_in_state(rounds_us, reference_us, factor=FACTOR):
    """How many of a calibration's rounds (their 1 MiB one way, None for a round without
    one) are in the state of reference_us, and how many have a time: a calibration whose
    rounds spread over two states shows it here."""
    timed = [r for r in rounds_us if r is not None]
    return sum(1 for r in timed if same_state(r, reference_us, factor)), len(timed)


def run_in_state(mibs_us, reference_us, factor=FACTOR):
    """Whether a run whose probes measured mibs_us (1 MiB one way, None for a probe
    without a time) is in the state of reference_us: it has a probe with a time, and
    every such probe is in the state."""
    timed = [m for m in mibs_us if m is not None]
    return bool(timed) and all(same_state(m, reference_us, factor) for m in timed)


def error(predicted, measured):
    """The error of predicted against measured in percent, None when measured is not
    above 0."""
    return 100.0 * (predicted - measured) / measured if measured > 0 else None


def spread(values):
    """(largest - smallest) / median in percent, None for fewer than two values."""
    if len(values) < 2:
        return None
    mid = statistics.median(values)
    return 100.0 * (max(values) - min(values)) / mid if mid > 0 else None


def within_state(predicted, runs, reference_us, factor=FACTOR):
    """A prediction judged against the measured runs made in the calibration's state.

    predicted: the predicted seconds; runs: (measured seconds, its probes' 1 MiB one way
    in us, a list, None for a probe without a time) of every measured run;
    reference_us: the calibration's 1 MiB one way.
    Returns a dict: runs (how many are in the state), measured (their median, None when
    none is), spread_percent (their spread) and error_percent (of predicted against
    their median, None when there is none)."""
    kept = [t for t, mibs in runs if run_in_state(mibs, reference_us, factor)]
    if not kept:
        return {"runs": 0, "measured": None, "spread_percent": None, "error_percent": None}
    mid = statistics.median(kept)
    err = error(predicted, mid) if predicted is not None else None
    return {"runs": len(kept), "measured": mid, "spread_percent": spread(kept),
            "error_percent": err}


def summary(errors, missing):
    """The figures of one calibration within its state: errors, the |error| of every
    case judged in its state; missing, the names of the cases with no run in it.  A dict
    of median and max (None without errors), cases and no_run_in_state (the names)."""
    absolute = [abs(e) for e in errors]
    return {"median": statistics.median(absolute) if absolute else None,
            "max": max(absolute) if absolute else None,
            "cases": len(absolute), "no_run_in_state": list(missing)}


def summary_line(c, what, figures):
    """The printed summary of calibration c within its state, naming the cases with no
    run in it."""
    missing = figures["no_run_in_state"]
    named = "%d with no run in its state: %s" % (len(missing), ", ".join(missing)) if missing else ""
    head = "calibration %d, %s within its state: " % (c, what)
    if figures["median"] is None:
        return head + "no comparison" + (" (%s)" % named if named else "")
    return head + "median |error| %.1f%%, max |error| %.1f%% (%d cases%s)" % (
        figures["median"], figures["max"], figures["cases"], "; " + named if named else "")
