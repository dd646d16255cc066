#!/bin/sh
# How accurate prognoz predict is (the validation harness of issues 7 and 14): each
# program of share/validation, at each of its problem sizes, on 2 ranks, is recorded
# over shared memory (UCX_TLS=sm,self) and run for real over TCP (UCX_TLS=tcp,self;
# recorded too, so that prognoz report gives the measured time of every interval),
# REPS times each, alternately.  The TCP transport is calibrated N times (UCX_TLS=tcp,self
# mpiexec -n 2 prognoz calibrate), spread over the run: before the first program and
# again after each Nth of them.  Every recording is then predicted on every calibration.
# Printed: per (program, size) and interval, the measured time (the median of the runs)
# and its spread, (max - min) / median; per calibration, the predicted time (the median
# over the recordings), the error in percent, and whether |error| is below the spread;
# then per calibration the median and largest |error| of the whole run and of the
# intervals, and whether the goal is met (whole run: median <= 5%, max <= 15%).  The whole
# run is timed from the end of MPI_Init, as users time a program: a prediction makes
# MPI_Init instantaneous (docs/predict.md), and a measured run's whole run is its
# execution time less the longest MPI_Init (the "max" of MPI_Init in the report's
# functions: the processes leave MPI_Init together, the recorder ending its start in a
# barrier), so that both are the same span.  Where
# SimGrid's smpirun is installed, every recording is also exported (prognoz export
# --simgrid) on every calibration and replayed by SimGrid: the median of its predictions
# over the recordings and its error are printed beside prognoz's median over the same
# recordings (the export makes MPI_Init instantaneous as prognoz does, so both are
# judged against the same measured span; one recording alone would judge the load of
# the moment it was made, which both replay faithfully).  The summary counts the cases
# where prognoz is no worse than SimGrid, and those where it is worse by more than the
# measured runs' spread: a prediction cannot be told closer than the runs themselves
# agree.
#
# The state of the TCP transport: this machine's loopback TCP has states that last
# minutes and move every calibrated key (1 MiB one way 165 to 200 us in one, 500 to 620
# us in another; bench/README.md, "The state of the TCP transport"), so a calibration
# made in one state misjudges runs made in the other by tens of percent, whatever the
# model.  A probe (scripts/validate_probe.c: a ping-pong of 0 B and 1 MiB on 2 ranks over
# UCX_TLS=tcp,self, each size the median of its round trips, under a second with its
# start) runs right before and right after every measured TCP run and every
# calibration; the listing prints each case's probes, before/after each run, and each
# calibration's own 1 MiB one way (the median of its rounds) beside its probes.  A
# measured run is in a calibration's state when both its probes' 1 MiB one way are
# within a factor 1.5 of the calibration's own (scripts/validate_state.py).  A
# calibration whose own 1 MiB one way is in the state of neither probe right before and
# after it (its rounds mostly in a state that came and went while it ran: it describes
# runs of neither) is made again, VALIDATE_STATE_RETRIES times at most (2; 0: never),
# each one made again kept as DIR/tcp-C.again-K.* and listed in DIR/recalibrated.
# After the table and summaries above, unchanged, come per calibration: every case's whole run
# judged against the median of the measured runs in that calibration's state (how many,
# their median, their spread, the error), the probes of its runs, and the median and
# largest |error| within the state, naming the cases with no run in it.  With --machine
# the machine file's state is not known and nothing is judged within a state.
# DIR/results.json holds every probe ("probes" of each case, "state" of each
# calibration; with the load average of its moment, since the bursts of a loaded machine
# that slow a run's messages may fall between two probes of half a second), which runs
# are in which calibration's state ("in_state"), each interval's "within_state" figures
# per calibration and the summary's "within_state".
#
# "TCP" is UCX's tcp transport between two processes of this one node, through the
# kernel's loopback (no network card, no wire): MPICH 4.0.2's ch4 built for UCX has no
# shared memory of its own (its configure makes the ucx netmod "direct" unless
# --with-ch4-shmmods is given, and Debian's mpich does not give it), so every message
# goes through UCX, whose UCX_TLS chooses the transport.  The calibrations and the TCP
# runs log UCX's choice (UCX_LOG_LEVEL=info, in their output files: the endpoint
# between the ranks on tcp/lo and tcp/eth0), and the script stops if one reached the
# other rank over anything but TCP.  Loopback TCP measures a few microseconds and
# several GB/s on an idle machine, not the tens of microseconds and about 1 GB/s of a
# network between nodes.  An MPICH whose ch4 has shared memory (ch4:ofi, or ch4:ucx
# configured with --with-ch4-shmmods=posix) would bypass UCX between the ranks, unseen
# by that check: export MPIR_CVAR_NOLOCAL=1 there, which every run inherits.
#
#   scripts/validate.sh [--reduced] [--machine FILE] [--reps N] [--calibrations N]
#                       [--cases LIST] [--dir DIR]
#
#   --reduced         smaller problems, one run each, one quick calibration (for CI)
#   --machine FILE    predict on FILE alone, instead of calibrating the TCP transport
#   --reps N          runs of each kind per case, the medians are compared
#                     (default 5, 1 with --reduced)
#   --calibrations N  calibrations of the TCP transport spread over the run
#                     (default 2, 1 with --reduced)
#   --cases LIST      these cases alone, in this order: words PROGRAM:ARGUMENTS, the
#                     arguments separated by commas as the table shows them
#                     ("halo2d:15000,128 cg2d:1000,2048"); any arguments the program takes
#   --dir DIR         work directory (default ./_validate at the top of the tree): the
#                     programs, machine files, traces, reports and predictions, and the
#                     results in DIR/results.txt (the table) and DIR/results.json (every run)
#
# prognoz is taken from PROGNOZ (the command; PROGNOZ_LIB then names libprognoz.so),
# else from $PREFIX if set, else from the build tree ${BUILDDIR:-./_build} if it is built,
# else from ./_install.  MPICC and MPIEXEC name the MPI tools (mpicc.mpich, mpiexec.mpich),
# VALIDATE_TIMEOUT the limit of one run in seconds (120), VALIDATE_RETRIES how many times
# a run or a calibration that timed out before writing its trace or machine file is run
# again (2; each retry is listed in DIR/retried and counted at the end),
# VALIDATE_STATE_RETRIES how many times a calibration in a state neither probe around it
# was in is made again (2).  The accuracy is
# measured, not judged: the script fails only when something does not run.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
reduced=0 machine="" reps="" calibrations="" chosen="" dir=$top/_validate
MPICC=${MPICC:-mpicc.mpich}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
limit=${VALIDATE_TIMEOUT:-120}
retries=${VALIDATE_RETRIES:-2}
state_retries=${VALIDATE_STATE_RETRIES:-2}
PY=${PYTHON:-python3}

die() {
    echo "validate: $*" >&2
    exit 1
}

# usage STATUS: the synopsis and options of the comment above, on stdout if STATUS is 0.
usage() {
    _text=$(sed -n '/^#   scripts\/validate.sh \[/,/^# prognoz is taken/{/^# prognoz is taken/d;s/^# \{0,1\}//p;}' "$0")
    if [ "$1" -eq 0 ]; then
        echo "$_text"
    else
        echo "$_text" >&2
    fi
    exit "$1"
}

while [ $# -gt 0 ]; do
    case $1 in
    --reduced) reduced=1 ;;
    --machine) [ $# -ge 2 ] || usage 2; machine=$2; shift ;;
    --machine=*) machine=${1#--machine=} ;;
    --reps) [ $# -ge 2 ] || usage 2; reps=$2; shift ;;
    --reps=*) reps=${1#--reps=} ;;
    --calibrations) [ $# -ge 2 ] || usage 2; calibrations=$2; shift ;;
    --calibrations=*) calibrations=${1#--calibrations=} ;;
    --cases) [ $# -ge 2 ] || usage 2; chosen=$2; shift ;;
    --cases=*) chosen=${1#--cases=} ;;
    --dir) [ $# -ge 2 ] || usage 2; dir=$2; shift ;;
    --dir=*) dir=${1#--dir=} ;;
    -h | --help) usage 0 ;;
    *) echo "validate: unknown option '$1'" >&2; usage 2 ;;
    esac
    shift
done
[ -n "$reps" ] || reps=$((reduced ? 1 : 5))
case $reps in '' | *[!0-9]* | 0) die "--reps '$reps': expected a whole number from 1" ;; esac
[ -n "$calibrations" ] || calibrations=$((reduced ? 1 : 2))
case $calibrations in
'' | *[!0-9]* | 0) die "--calibrations '$calibrations': expected a whole number from 1" ;;
esac
case $retries in '' | *[!0-9]*) die "VALIDATE_RETRIES '$retries': expected a whole number" ;; esac
case $state_retries in
'' | *[!0-9]*) die "VALIDATE_STATE_RETRIES '$state_retries': expected a whole number" ;;
esac
if [ -n "$machine" ]; then
    [ -r "$machine" ] || die "cannot read the machine file '$machine'"
    machine=$(cd "$(dirname "$machine")" && pwd)/$(basename "$machine")
fi

# prognoz: the command, the library it preloads, the header.
. "$top/scripts/find_prognoz.sh"
"$PY" -c 'import json, statistics' 2>/dev/null || die "$PY with the json module is needed"

# The programs and their sizes, each FULL/REDUCED, the arguments of one size separated by
# commas: iterations, tasks, chunks or Ki keys first, then the grid size, the matrix
# order or the columns where the program takes one.  The first size of a program is its
# usual one; the second, where there is one, a small problem whose messages are short
# (latency-bound).
programs="ring stencil cg transpose master_worker pipeline wavefront bucketsort fft3d multigrid halo3d halo2d cg2d"
sizes_of() {
    case $1 in
    ring) echo "800/100" ;;
    stencil) echo "300/40 12000,256/1500,256" ;;
    cg) echo "200/30" ;;
    transpose) echo "120/20 2000,128/250,128" ;;
    master_worker) echo "400/60" ;;
    pipeline) echo "700/120" ;;
    wavefront) echo "80/6" ;;
    bucketsort) echo "2048/256 128/32" ;;
    fft3d) echo "50/5" ;;
    multigrid) echo "100/8" ;;
    halo3d) echo "600/60 12000,24/1500,24" ;;
    halo2d) echo "600/60 15000,128/2000,128" ;;
    cg2d) echo "300/30 1000,2048/150,2048" ;;
    esac
}

# The cases, PROGRAM:ARGUMENTS (commas between the arguments), in the order they run.
cases=""
for p in $programs; do
    for s in $(sizes_of "$p"); do
        cases="$cases $p:$(echo "$s" | cut -d/ -f$((reduced + 1)))"
    done
done
if [ -n "$chosen" ]; then
    for case in $chosen; do
        p=${case%%:*}
        case " $programs " in
        *" $p "*)
            case $case in *:?*) ;; *) die "--cases: '$case': expected PROGRAM:ARGUMENTS" ;; esac ;;
        *) die "--cases: '$case': no program '$p' (the programs: $programs)" ;;
        esac
    done
    cases=$chosen
    programs=$(for case in $cases; do echo "${case%%:*}"; done | sort -u)
fi
[ -z "$machine" ] || calibrations=1

mkdir -p "$dir/bin" || die "cannot create '$dir'"
dir=$(cd "$dir" && pwd)
rm -f "$dir/finalize-hangs" "$dir/retried" "$dir/probe-hangs" "$dir/recalibrated"
echo "validate: prognoz $PROGNOZ, work directory $dir"
for p in $programs; do
    "$MPICC" -std=c11 -g -O2 -Wall -Wextra -I"$include" -o "$dir/bin/$p" \
        "$top/share/validation/$p.c" -lm || die "cannot build share/validation/$p.c"
done
"$MPICC" -std=c11 -O2 -Wall -Wextra -o "$dir/bin/validate_probe" "$top/scripts/validate_probe.c" ||
    die "cannot build scripts/validate_probe.c"

# watch PID LOG PATTERN: waits for the job PID (started by setsid, so that it leads its
# own process group) and sets job_status: its exit status, 124 if it ran for more than
# $limit seconds, or "hung" if it was still running 2 s after a line matching PATTERN
# appeared in LOG.  MPICH 4.0.2 over UCX's tcp transport often hangs in MPI_Finalize,
# with or without the recorder: each rank closes its UCX endpoints, waiting in
# ucp_worker_progress until they are closed, then waits in the process manager's
# barrier (PMI), where it no longer progresses UCX; a rank that gets there first can
# leave the other waiting for its endpoint forever (pmodels/mpich#6596 removed that
# barrier, after 4.0.2).  Two ranks that reach MPI_Finalize apart are enough, the last
# message one way (bench/README.md, "The TCP transport").  By then
# the recorder has written the trace (and prognoz calibrate its machine file), and
# PATTERN is the line that says so: the job is ended (TERM to its process group;
# mpiexec takes its ranks down), its output kept, and the run listed in
# $dir/finalize-hangs.
job=
watch() {
    job=$1 _ticks=0 _after=0 job_status=0
    while kill -0 "$job" 2>/dev/null; do
        sleep 0.1
        _ticks=$((_ticks + 1))
        grep -qs "$3" "$2" && _after=$((_after + 1))
        if [ $_after -gt 20 ] || [ $_ticks -gt $((limit * 10)) ]; then
            kill -TERM "-$job" 2>/dev/null
            wait "$job"
            job='' job_status=124
            [ $_after -gt 20 ] && job_status=hung
            return
        fi
    done
    wait "$job" || job_status=$?
    job=""
}
trap '[ -n "$job" ] && kill -TERM "-$job" 2>/dev/null; exit 1' HUP INT TERM

# retry WHAT TRY: 0 (and a line in $dir/retried) if WHAT, which timed out on its try
# TRY, may run again.
retry() {
    [ "$2" -le "$retries" ] || return 1
    echo "$1: timed out after ${limit}s before it wrote its result (try $2); run again" |
        tee -a "$dir/retried" >&2
}

# tcp_only WHAT FILE...: stops unless UCX's log in FILE... (UCX_LOG_LEVEL=info) shows
# the ranks connected over TCP alone: every lane of every endpoint's tag protocol on
# tcp/ or self/, and one on tcp/ at least.  A UCX that logs no endpoint is let through
# with a warning.
tcp_only() {
    _what=$1
    shift
    _lanes=$(sed -n 's/.*ep_cfg\[[0-9]*\]: tag(\([^)]*\)).*/\1/p' "$@" | tr ' ' '\n' | sort -u)
    if [ -z "$_lanes" ]; then
        echo "validate: $_what: UCX's log names no endpoint; the transport is not checked" >&2
        return 0
    fi
    _other=$(echo "$_lanes" | grep -v -e '^tcp/' -e '^self/' | tr '\n' ' ')
    [ -z "$_other" ] || die "$_what: UCX reached the other rank over $_other(not TCP)"
    echo "$_lanes" | grep -q '^tcp/' || die "$_what: no TCP lane in UCX's log"
}

# record_once NAME TLS PROG ARGS: one try of run (below); sets job_status.
record_once() {
    rm -rf "$1"
    _log=""
    [ "$2" = tcp,self ] && _log=UCX_LOG_LEVEL=info
    # shellcheck disable=SC2046,SC2086  # the arguments, one a word; no log setting, no word
    UCX_TLS=$2 setsid env $_log "$PROGNOZ" record -o "$1" -- "$MPIEXEC" -n 2 "$dir/bin/$3" \
        $(echo "$4" | tr , ' ') >"$1.out" 2>"$1.err" &
    watch $! "$1.err" '^prognoz: recorded'
}

# run NAME TLS PROG ARGS: PROG on 2 ranks over the UCX transports TLS, recorded into
# NAME (a trace directory), its arguments ARGS separated by commas; its output in
# NAME.out and NAME.err.  Runs that hung in MPI_Finalize after writing the trace are
# listed in $dir/finalize-hangs; a run that timed out before is run again (retry).
# Over tcp,self, UCX logs its endpoints and the run must have used TCP (tcp_only).
run() {
    _try=1
    while :; do
        record_once "$@"
        case $job_status in
        0) [ -f "$1/traces.otf2" ] && break ;;
        hung) echo "$1: ended 2 s after the trace was written (a hang in MPI_Finalize)" \
            >>"$dir/finalize-hangs"; break ;;
        124) retry "$1" $_try && _try=$((_try + 1)) && continue ;;
        esac
        cat "$1.out" "$1.err" >&2
        [ "$job_status" = 124 ] && die "$3 over $2: timed out after ${limit}s, $_try time(s)"
        die "$3 over $2: exit status $job_status, or no trace (above)"
    done
    [ "$2" != tcp,self ] || tcp_only "$3 over $2 ($1)" "$1.out" "$1.err"
}

# calibrate C: calibrate_once C, made again while it measured a state neither probe
# around it was in (validate_state.py, calibration_agrees: its rounds mostly in a state
# that came and went while it ran), VALIDATE_STATE_RETRIES times at most; each one
# made again is kept as tcp-C.again-K.* and listed in $dir/recalibrated.
calibrate() {
    _again=1
    calibrate_once "$1"
    while ! agrees "$1" && [ $_again -le "$state_retries" ]; do
        echo "validate: calibration $1 measured 1 MiB one way in a state neither probe" \
            "around it was in: made again" | tee -a "$dir/recalibrated"
        for _f in conf when probe-before probe-before.err probe-before.load probe-after \
            probe-after.err probe-after.load; do
            [ ! -e "$dir/tcp-$1.$_f" ] || mv "$dir/tcp-$1.$_f" "$dir/tcp-$1.again-$_again.$_f"
        done
        mv "$dir/calibrate-$1.out" "$dir/tcp-$1.again-$_again.calibrate.out"
        # the hangs of the one set aside and of its probes, listed already, name the files
        # they are now
        for _f in finalize-hangs probe-hangs; do
            [ ! -f "$dir/$_f" ] ||
                sed -i -e "s|/calibrate-$1\\.out:|/tcp-$1.again-$_again.calibrate.out:|" \
                    -e "s|/tcp-$1\\.probe-|/tcp-$1.again-$_again.probe-|" "$dir/$_f"
        done
        _again=$((_again + 1))
        calibrate_once "$1"
    done
}

# agrees C: whether calibration C's 1 MiB one way is in the state of one of the probes
# right before and after it (validate_state.py, calibration_agrees).
agrees() {
    PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$top/scripts${PYTHONPATH:+:$PYTHONPATH} "$PY" -c '
import sys, validate_state as s
texts = [open(f, errors="replace").read() for f in sys.argv[1:]]
sys.exit(0 if s.calibration_agrees(texts[0], texts[1:]) else 1)' \
        "$dir/calibrate-$1.out" "$dir/tcp-$1.probe-before" "$dir/tcp-$1.probe-after"
}

# calibrate_once C: the TCP transport between two ranks calibrated into
# $dir/tcp-C.conf, UCX's endpoints logged and checked (tcp_only), a calibration that
# timed out before writing the file run again (retry).
calibrate_once() {
    _conf=$dir/tcp-$1.conf _out=$dir/calibrate-$1.out _try=1
    echo "validate: calibration $1 of $calibrations of the TCP transport (UCX_TLS=tcp,self $MPIEXEC -n 2 prognoz calibrate${quick:+ $quick})"
    probe "$dir/tcp-$1.probe-before"
    date +%s >"$dir/tcp-$1.when"
    while :; do
        rm -f "$_conf"
        # shellcheck disable=SC2086  # no --quick, no word
        UCX_TLS=tcp,self UCX_LOG_LEVEL=info setsid "$MPIEXEC" -n 2 "$PROGNOZ" calibrate \
            -o "$_conf" $quick >"$_out" 2>&1 &
        watch $! "$_out" '^wrote '
        case $job_status in
        0) break ;;
        hung) echo "$_out: ended 2 s after the machine file was written (a hang in MPI_Finalize)" \
            >>"$dir/finalize-hangs"; break ;;
        124) retry "calibration $1" $_try && _try=$((_try + 1)) && continue ;;
        esac
        cat "$_out" >&2
        die "calibration $1 failed (status $job_status, above)"
    done
    [ -s "$_conf" ] || die "calibration $1 wrote no $_conf"
    tcp_only "calibration $1" "$_out"
    probe "$dir/tcp-$1.probe-after"
    _own=$(sed -n 's/^ *1048576 *\([0-9.]*\) .*/\1/p' "$_out" | head -1)
    echo "validate: calibration $1: 1 MiB one way ${_own:--} us; the probes before and after it: $(one_way "$dir/tcp-$1.probe-before" "$dir/tcp-$1.probe-after") us"
}

# probe FILE: the state of the TCP transport now, validate_probe on 2 ranks over
# UCX_TLS=tcp,self (its line, "validate_probe: 0 B one way ... us, 1 MiB one way ... us
# ...", in FILE, UCX's log in FILE.err, checked by tcp_only); a probe that hung in
# MPI_Finalize after its line is ended and listed in $dir/probe-hangs, one that timed
# out before it is run again (retry).  The load average of the moment in FILE.load: the
# bursts of a loaded machine that slow a run's messages may fall between two probes.
probe() {
    _try=1
    while :; do
        rm -f "$1"
        UCX_TLS=tcp,self UCX_LOG_LEVEL=info setsid "$MPIEXEC" -n 2 "$dir/bin/validate_probe" \
            >"$1" 2>"$1.err" &
        watch $! "$1" '^validate_probe:'
        case $job_status in
        0) grep -q '^validate_probe:' "$1" && break ;;
        hung) echo "$1: ended 2 s after its line (a hang in MPI_Finalize)" >>"$dir/probe-hangs"; break ;;
        124) retry "probe $1" $_try && _try=$((_try + 1)) && continue ;;
        esac
        cat "$1" "$1.err" >&2
        die "the probe $1 failed (status $job_status, above)"
    done
    tcp_only "probe $1" "$1" "$1.err"
    cut -d' ' -f1 /proc/loadavg >"$1.load" 2>/dev/null || rm -f "$1.load"
}

# one_way FILE...: the 1 MiB one-way times (us) of the probes FILE..., "-" for a probe
# that printed none, on one line.
one_way() {
    for _f in "$@"; do
        _t=$(sed -n 's/^validate_probe: .*, 1 MiB one way \([0-9.]*\) us .*/\1/p' "$_f" 2>/dev/null)
        printf '%s ' "${_t:--}"
    done | sed 's/ $//'
}

# The machines: the one given, else the calibrations, made as the cases run.
quick=""
[ $reduced -eq 1 ] && quick=--quick
rm -f "$dir"/tcp-*.conf "$dir"/tcp-*.when "$dir"/tcp-*.probe-* "$dir"/tcp-*.calibrate.out
if [ -n "$machine" ]; then
    machines=$machine
    echo "validate: machine $machine"
else
    "$PROGNOZ" calibrate --help >/dev/null 2>&1 ||
        die "'$PROGNOZ calibrate' is not available: give a machine file with --machine FILE"
    machines=""
    c=1
    while [ $c -le "$calibrations" ]; do
        machines="$machines $dir/tcp-$c.conf"
        c=$((c + 1))
    done
fi

# seconds_since T0: the seconds since the date +%s.%N T0.
seconds_since() {
    awk -v t0="$1" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.6f\n", t1 - t0 }'
}

# simgrid REC MACHINE OUT: the recorded run REC exported for SimGrid on MACHINE and
# replayed with smpirun; OUT.time gets SimGrid's simulated time and the replay's wall
# seconds.  Nothing when smpirun is not installed.
simgrid() {
    command -v smpirun >/dev/null 2>&1 || return 0
    rm -rf "$3"
    "$PROGNOZ" export "$1" --simgrid "$3" --machine "$2" >/dev/null 2>"$3.err" ||
        { cat "$3.err" >&2; die "prognoz export $1 failed (above)"; }
    t0=$(date +%s.%N)
    timeout "$limit" smpirun -np 2 -platform "$3/platform.xml" -hostfile "$3/hostfile" \
        -replay "$3/traces.txt" >"$3.log" 2>&1 ||
        { tail -5 "$3.log" >&2; die "smpirun -replay $3 failed (above)"; }
    echo "$(sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p' "$3.log" | tail -1) $(seconds_since "$t0")" \
        >"$3.time"
}

# case_dir CASE: the work directory of the case PROGRAM:ARGS, DIR/PROGRAM/ARGS with x
# between the arguments.
case_dir() {
    echo "$dir/${1%%:*}/$(echo "${1#*:}" | tr , x)"
}

# Every case: REPS recordings over shared memory and REPS real runs over TCP, each
# reported, alternately, so that a change in the load of the machine falls on both;
# calibration C before case (C - 1) * cases / calibrations.
ncases=$(echo "$cases" | wc -w)
i=0 c=1
for case in $cases; do
    while [ -z "$machine" ] && [ $c -le "$calibrations" ] && [ $((i * calibrations)) -ge $(((c - 1) * ncases)) ]; do
        calibrate $c
        c=$((c + 1))
    done
    p=${case%%:*} arg=${case#*:} d=$(case_dir "$case")
    rm -rf "$d"
    mkdir -p "$d"
    k=1 probes=""
    while [ $k -le "$reps" ]; do
        run "$d/sm-$k" sm,self "$p" "$arg"
        probe "$d/tcp-$k.probe-before"
        run "$d/tcp-$k" tcp,self "$p" "$arg"
        probe "$d/tcp-$k.probe-after"
        probes="$probes $d/tcp-$k.probe-before $d/tcp-$k.probe-after"
        timeout "$limit" "$PROGNOZ" report "$d/tcp-$k" --format json \
            >"$d/tcp-$k.json" 2>"$d/tcp-$k.report.err" ||
            { cat "$d/tcp-$k.report.err" >&2; die "$p: prognoz report $d/tcp-$k failed (above)"; }
        k=$((k + 1))
    done
    echo "validate: $p $arg: $reps recorded over sm, $reps run over tcp"
    # shellcheck disable=SC2086  # the probes, one a word
    echo "validate: $p $arg: 1 MiB one way by the probes right before and after each tcp run: $(one_way $probes | sed 's|\([^ ][^ ]*\) \([^ ][^ ]*\)|\1/\2|g') us"
    i=$((i + 1))
done
while [ -z "$machine" ] && [ $c -le "$calibrations" ]; do
    calibrate $c
    c=$((c + 1))
done

# Every recording predicted on every machine and replayed by SimGrid on each (the
# seconds each took for the first kept).
for case in $cases; do
    d=$(case_dir "$case")
    c=1
    for m in $machines; do
        k=1
        while [ $k -le "$reps" ]; do
            t0=$(date +%s.%N)
            timeout "$limit" "$PROGNOZ" predict "$d/sm-$k" --machine "$m" --format json \
                >"$d/sm-$k.cal$c.predicted.json" 2>"$d/sm-$k.predict.err" ||
                { cat "$d/sm-$k.predict.err" >&2; die "prognoz predict $d/sm-$k --machine $m failed (above)"; }
            [ $k -eq 1 ] && seconds_since "$t0" >"$d/sm-1.cal$c.predict.time"
            simgrid "$d/sm-$k" "$m" "$d/simgrid-$c-$k"
            k=$((k + 1))
        done
        c=$((c + 1))
    done
done
echo "validate: every recording predicted on $(echo "$machines" | wc -w) machine(s)"

# The table: medians over the runs, compared interval by interval, on every machine.
# shellcheck disable=SC2086  # the machines and the cases, one a word
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$top/scripts${PYTHONPATH:+:$PYTHONPATH} "$PY" - "$dir" "$reps" "$calibrations" $machines $cases <<'EOF' || die "cannot compare the runs (above)"
import json, os, statistics, sys
import validate_state as state  # scripts/validate_state.py

work, reps, ncal = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
machines = sys.argv[4:4 + ncal]
cases = [c.split(":", 1) for c in sys.argv[4 + ncal:]]
cals = range(1, ncal + 1)
GOAL_MEDIAN, GOAL_MAX = 5.0, 15.0  # |error| of the whole run, percent (issue 14)


def load(path):
    with open(path) as f:
        return json.load(f)


def predicted(path):
    """The report of the run predicted on the one machine (docs/report.md, "JSON")."""
    return load(path)["predictions"][0]["report"]


def times(report):
    """Execution time of every interval, keyed by (line, id, level), with its label; the
    level is in the label too when the same interval also runs at another level."""
    out, seen = {}, {}
    for iv in report["intervals"]:
        seen[(iv["line"], iv["id"])] = seen.get((iv["line"], iv["id"]), 0) + 1
    for iv in report["intervals"]:
        key = (iv["line"], iv["id"], iv["level"])
        label = "whole run" if iv["level"] == 0 else "%d at %s:%d" % (
            iv["id"], os.path.basename(iv["file"]), iv["line"])
        if seen[(iv["line"], iv["id"])] > 1:
            label += " L%d" % iv["level"]
        out[key] = (label, iv["level"], iv["main"]["execution_time"])
    return out


def whole_run(report_times):
    return [v for v in report_times.values() if v[1] == 0][0][2]


def measured(report):
    """times() of a measured run, its whole run from the end of MPI_Init: less the
    longest MPI_Init, which every process leaves at once."""
    out = times(report)
    init = max([f["max"] for f in report["functions"]
                if f["name"] in ("MPI_Init", "MPI_Init_thread")] or [0])
    for key, (label, level, t) in out.items():
        if level == 0:
            out[key] = (label, level, t - init)
    return out


def case_dir(p, args):
    return os.path.join(work, p, args.replace(",", "x"))


def calibration_note(c):
    """When calibration c was made, in minutes from the first, if this run made it."""
    path = os.path.join(work, "tcp-%d.when" % c)
    if not os.path.exists(machines[c - 1]) or not os.path.exists(path):
        return None
    with open(path) as f:
        when = float(f.read())
    with open(os.path.join(work, "tcp-1.when")) as f:
        return (when - float(f.read())) / 60.0


def read_text(path):
    """The text of the file at path, None when there is none."""
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def probe_at(path):
    """state.probe() of the probe in the file at path, with the load average of its
    moment (load_average, None where /proc/loadavg was not read); None without a probe."""
    found = state.probe(read_text(path) or "")
    if found is not None:
        load = (read_text(path + ".load") or "").strip()
        found["load_average"] = float(load) if load else None
    return found


def calibration_state(c):
    """The state of calibration c: its own 1 MiB one way (mib_us, the median of its
    rounds; None when its listing has none) and its rounds, and the probes made right
    before and after it; None when this run did not make it (--machine)."""
    if calibration_note(c) is None:
        return None
    own = state.calibration(read_text(os.path.join(work, "calibrate-%d.out" % c)) or "")
    rounds = own["rounds_us"] if own else []
    return {"mib_us": own["mib_us"] if own else None, "rounds_us": rounds,
            "rounds_in_state": state.rounds_in_state(rounds, own["mib_us"])[0] if own else None,
            "probe_before": probe_at(os.path.join(work, "tcp-%d.probe-before" % c)),
            "probe_after": probe_at(os.path.join(work, "tcp-%d.probe-after" % c))}


def simgrid_time(path):
    """SimGrid's simulated seconds and the replay's wall seconds, from simgrid's OUT.time."""
    with open(path) as f:
        sim, replay = (float(x) for x in f.read().split())
    return sim, replay


cal_state = {c: calibration_state(c) for c in cals}
# the 1 MiB one way of calibration c's state, None when it is not known
reference = {c: cal_state[c]["mib_us"] if cal_state[c] else None for c in cals}
rows = []
# per case, the whole run judged within each calibration's state (state.within_state)
state_rows = []
# per calibration, within its state: the errors of the whole runs and of the intervals,
# and the cases with no measured run in it
within = {c: {"whole": [], "intervals": [], "missing": []} for c in cals}
# per calibration: (|error|, below the spread or None) of the whole runs and intervals,
# and (prognoz |error|, SimGrid |error|) of the medians over the recordings
stats = {c: {"whole": [], "intervals": [], "simgrid": []} for c in cals}
record = {"reps": reps, "goal": {"median_percent": GOAL_MEDIAN, "max_percent": GOAL_MAX},
          "calibrations": [{"machine": machines[c - 1], "minutes_after_the_first": calibration_note(c)}
                           for c in cals],
          "cases": [],
          "state_rule": {"factor": state.FACTOR,
                         "what": "a measured run is in a calibration's state when the 1 MiB one way "
                                 "of its probes right before and after it is within the factor of "
                                 "the calibration's own (scripts/validate_state.py)"}}
for c in cals:
    record["calibrations"][c - 1]["state"] = cal_state[c]
for p, args in cases:
    d = case_dir(p, args)
    real = [measured(load("%s/tcp-%d.json" % (d, k))) for k in range(1, reps + 1)]
    pred = {c: [times(predicted("%s/sm-%d.cal%d.predicted.json" % (d, k, c))) for k in range(1, reps + 1)]
            for c in cals}
    probes = [{when: probe_at("%s/tcp-%d.probe-%s" % (d, k, when))
               for when in ("before", "after")} for k in range(1, reps + 1)]
    # every run's probes' 1 MiB one way, before and after it
    mibs = [[x[when]["mib_us"] if x[when] else None for when in ("before", "after")] for x in probes]
    entry = {"program": p, "arguments": args.split(","), "intervals": [], "simgrid": {},
             "probes": probes,
             "in_state": {str(c): [state.run_in_state(m, reference[c]) for m in mibs]
                          for c in cals if reference[c] is not None}}
    whole_in_state = {}
    measured_run = whole_spread = None
    for key, (label, level, _) in real[0].items():
        m = [r[key][2] for r in real if key in r]
        mm = statistics.median(m)
        spread = state.spread(m)
        if level == 0:
            measured_run, whole_spread = mm, spread
        per, out = {}, {"interval": label, "level": level, "measured": m, "spread_percent": spread,
                        "calibrations": {}}
        for c in cals:
            q = [r[key][2] for r in pred[c] if key in r]
            if not q:
                per[c] = None
                continue
            qm = statistics.median(q)
            err = state.error(qm, mm)
            below = None if err is None or spread is None else abs(err) < spread
            per[c] = (qm, err, below)
            if err is not None:
                stats[c]["whole" if level == 0 else "intervals"].append((abs(err), below))
            out["calibrations"][str(c)] = {"predicted": q, "error_percent": err,
                                           "below_spread": below}
            if reference[c] is None:
                continue
            ws = state.within_state(qm, [(r[key][2], mib) for r, mib in zip(real, mibs) if key in r],
                                    reference[c])
            out["calibrations"][str(c)]["within_state"] = ws
            if ws["error_percent"] is not None:
                within[c]["whole" if level == 0 else "intervals"].append(ws["error_percent"])
            if level == 0:
                whole_in_state[c] = ws
                if ws["error_percent"] is None:
                    within[c]["missing"].append("%s %s" % (p, args))
        rows.append((p, args, label, mm, spread, per))
        entry["intervals"].append(out)
    state_rows.append((p, args, whole_in_state, mibs))
    for c in cals:
        paths = ["%s/simgrid-%d-%d.time" % (d, c, k) for k in range(1, reps + 1)]
        if not all(os.path.exists(path) for path in paths):
            continue
        sims = [simgrid_time(path) for path in paths]
        with open("%s/sm-1.cal%d.predict.time" % (d, c)) as f:
            ours_s = float(f.read())
        ours = statistics.median(whole_run(r) for r in pred[c])
        sim = statistics.median(s for s, _ in sims)
        sg = {"measured": measured_run, "measured_spread_percent": whole_spread,
              "prognoz": ours, "simgrid": sim,
              "simgrid_runs": [s for s, _ in sims],
              "prognoz_error_percent": state.error(ours, measured_run),
              "simgrid_error_percent": state.error(sim, measured_run),
              "prognoz_seconds": ours_s, "simgrid_seconds": sims[0][1]}
        entry["simgrid"][str(c)] = sg
        if sg["prognoz_error_percent"] is not None:
            stats[c]["simgrid"].append((p, args, sg))
    record["cases"].append(entry)


def show(v, fmt):
    return "-" if v is None else fmt % v


lines = ["%-13s %-10s %-28s %10s %8s" % ("program", "size", "interval", "measured s", "spread %")
         + "".join(" %10s %7s %5s" % ("cal%d s" % c, "err %", "<spr") for c in cals)]
for p, args, label, mm, spread, per in rows:
    line = "%-13s %-10s %-28s %10.4f %8s" % (p, args, label, mm, show(spread, "%.1f"))
    for c in cals:
        qm, err, below = per[c] or (None, None, None)
        line += " %10s %7s %5s" % (show(qm, "%.4f"), show(err, "%+.1f"),
                                   "-" if below is None else "yes" if below else "no")
    lines.append(line)


def summary(c, what, pairs):
    """The median and largest |error|, and how many were below the spread."""
    if not pairs:
        return "calibration %d, %s: no comparison" % (c, what), None
    errs = [e for e, _ in pairs]
    judged = [b for _, b in pairs if b is not None]
    figures = {"median": statistics.median(errs), "max": max(errs), "cases": len(errs),
               "below_spread": sum(judged) if judged else None}
    text = "calibration %d, %s: median |error| %.1f%%, max |error| %.1f%% (%d cases" % (
        c, what, figures["median"], figures["max"], len(errs))
    if judged:
        text += "; below the spread in %d of %d" % (sum(judged), len(judged))
    return text + ")", figures


record["summary"] = {}
lines.append("")
for c in cals:
    when = record["calibrations"][c - 1]["minutes_after_the_first"]
    lines.append("calibration %d: %s%s" % (c, machines[c - 1],
                                          "" if when is None else ", made %.1f min after the first" % when))
for c in cals:
    lines.append("")
    out = {}
    for key, what in (("whole", "whole run"), ("intervals", "intervals")):
        text, out[key] = summary(c, what, stats[c][key])
        lines.append(text)
    sg = stats[c]["simgrid"]
    if sg:
        ours = [abs(x["prognoz_error_percent"]) for _, _, x in sg]
        theirs = [abs(x["simgrid_error_percent"]) for _, _, x in sg]
        closer = sum(1 for a, b in zip(ours, theirs) if a <= b)
        # a prediction cannot be told closer than the measured runs' own spread: prognoz
        # is worse than SimGrid beyond it only when their |errors| differ by more
        judged = [(prog, args, a - b > x["measured_spread_percent"])
                  for (prog, args, x), a, b in zip(sg, ours, theirs)
                  if x["measured_spread_percent"] is not None]
        beyond = ["%s %s" % (prog, args) for prog, args, worse in judged if worse]
        out["simgrid"] = {"median": statistics.median(theirs), "max": max(theirs), "cases": len(sg),
                          "prognoz_median": statistics.median(ours), "prognoz_max": max(ours),
                          "prognoz_no_worse": closer, "prognoz_worse_beyond_spread": beyond}
        lines.append("calibration %d, SimGrid whole run: median |error| %.1f%%, max |error| %.1f%% "
                     "(%d cases; prognoz on the same recordings %.1f%% and %.1f%%, no worse in %d%s)" % (
                         c, out["simgrid"]["median"], out["simgrid"]["max"], len(sg),
                         out["simgrid"]["prognoz_median"], out["simgrid"]["prognoz_max"], closer,
                         "" if not judged else
                         ", worse by more than the measured runs' spread in %d of %d%s" % (
                             len(beyond), len(judged), ": " + ", ".join(beyond) if beyond else "")))
    w = out["whole"]
    met = w is not None and w["median"] <= GOAL_MEDIAN and w["max"] <= GOAL_MAX
    out["goal_met"] = met
    lines.append("calibration %d, goal (whole run: median |error| <= %g%%, max <= %g%%): %s" % (
        c, GOAL_MEDIAN, GOAL_MAX, "met" if met else "not met"))
    record["summary"][str(c)] = out

for c in cals:
    sg = stats[c]["simgrid"]
    if not sg:
        continue
    lines.append("")
    lines.append("SimGrid beside prognoz on calibration %d (medians over the recordings; t: the first "
                 "recording's replay):" % c)
    lines.append("%-13s %-10s %10s %10s %10s %9s %9s %9s %9s" % (
        "program", "size", "measured s", "prognoz s", "SimGrid s", "prognoz %", "SimGrid %",
        "prognoz t", "SimGrid t"))
    for p, args, x in sg:
        lines.append("%-13s %-10s %10.4f %10.4f %10.4f %9s %9s %9.3f %9.3f" % (
            p, args, x["measured"], x["prognoz"], x["simgrid"], show(x["prognoz_error_percent"], "%+.1f"),
            show(x["simgrid_error_percent"], "%+.1f"), x["prognoz_seconds"], x["simgrid_seconds"]))

lines.append("")
lines.append("Within the state of each calibration: a measured run is in a calibration's state when the probes "
             "right before and after it measured 1 MiB one way within a factor %g of the calibration's own "
             "(docs/predict.md, \"Validation\"):" % state.FACTOR)
for c in cals:
    cs = cal_state[c]
    if reference[c] is None:
        lines.append("calibration %d: its state is not known (%s)" % (
            c, "the machine file given, not calibrated here" if cs is None else "its listing has no 1 MiB row"))
        continue
    rounds = [x for x in cs["rounds_us"] if x is not None]
    kept, timed = state.rounds_in_state(rounds, reference[c])
    lines.append("calibration %d: 1 MiB one way %.1f us%s; the probes before and after it %s and %s us; "
                 "its state %.1f to %.1f us" % (
                     c, reference[c], " (its rounds %.1f to %.1f us, %d of %d in its state)" % (
                         min(rounds), max(rounds), kept, timed) if rounds else "",
                     show(cs["probe_before"] and cs["probe_before"]["mib_us"], "%.1f"),
                     show(cs["probe_after"] and cs["probe_after"]["mib_us"], "%.1f"),
                     reference[c] / state.FACTOR, reference[c] * state.FACTOR))
known = [c for c in cals if reference[c] is not None]
if known:
    lines.append("%-13s %-10s" % ("program", "size")
                 + "".join(" %6s %10s %8s %7s" % ("cal%d n" % c, "in state s", "spread %", "err %") for c in known)
                 + "  1 MiB one way before/after each run (us)")
    for p, args, ws, mibs in state_rows:
        line = "%-13s %-10s" % (p, args)
        for c in known:
            x = ws.get(c) or {"runs": 0, "measured": None, "spread_percent": None, "error_percent": None}
            line += " %6d %10s %8s %7s" % (x["runs"], show(x["measured"], "%.4f"),
                                           show(x["spread_percent"], "%.1f"), show(x["error_percent"], "%+.1f"))
        lines.append(line + "  " + " ".join("/".join(show(x, "%.1f") for x in m) for m in mibs))
lines.append("")
for c in cals:
    if reference[c] is None:
        for what in ("whole run", "intervals"):
            lines.append("calibration %d, %s within its state: no comparison (its state is not known)" % (c, what))
        record["summary"][str(c)]["within_state"] = None
        continue
    figures = {}
    for key, what in (("whole", "whole run"), ("intervals", "intervals")):
        figures[key] = state.summary(within[c][key], within[c]["missing"])
        lines.append(state.summary_line(c, what, figures[key]))
    record["summary"][str(c)]["within_state"] = figures

text = "\n".join(lines) + "\n"
sys.stdout.write("\n" + text)
with open(os.path.join(work, "results.txt"), "w") as f:
    f.write("medians of %d run(s) of each kind; spread: (max - min) / median of the measured runs; "
            "<spr: |error| below the spread; t: seconds the prediction took\n\n" % reps + text)
with open(os.path.join(work, "results.json"), "w") as f:
    json.dump(record, f, indent=1)
EOF
# Not silent: how many runs and calibrations hung in MPI_Finalize or were run again.
again=0
[ -f "$dir/recalibrated" ] && again=$(wc -l <"$dir/recalibrated")
runs=$((2 * reps * ncases))
[ -n "$machine" ] || runs=$((runs + calibrations + again))
hangs=0 retried=0
[ -f "$dir/finalize-hangs" ] && hangs=$(wc -l <"$dir/finalize-hangs")
[ -f "$dir/retried" ] && retried=$(wc -l <"$dir/retried")
where() {
    [ "$1" -eq 0 ] || echo " ($2)"
}
echo "validate: $hangs of $runs runs and calibrations hung in MPI_Finalize after writing their result, and were ended$(where "$hangs" "$dir/finalize-hangs")"
echo "validate: $retried timed out before writing their result, and were run again$(where "$retried" "$dir/retried")"
nprobes=$((2 * reps * ncases))
[ -n "$machine" ] || nprobes=$((nprobes + 2 * (calibrations + again)))
probe_hangs=0
[ -f "$dir/probe-hangs" ] && probe_hangs=$(wc -l <"$dir/probe-hangs")
echo "validate: $probe_hangs of $nprobes probes of the TCP transport's state hung in MPI_Finalize after their line, and were ended$(where "$probe_hangs" "$dir/probe-hangs")"
[ -n "$machine" ] || echo "validate: $again times a calibration measured a state neither probe around it was in, and was made again$(where "$again" "$dir/recalibrated")"
echo "validate: the results are in $dir/results.txt (every run: $dir/results.json)"
