# prognoz predict interrupted: SIGINT or SIGTERM removes its temporary directory (the
# predicted trace it analyzes, prognoz-predict-* under $TMPDIR) and the command dies of
# the signal.  To interrupt it at a known point, the recorded trace of programs/p2p on 2
# ranks has rank 1's event file replaced by a FIFO nobody writes to: predict has made
# its directory and waits in reading the trace until the signal comes.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program p2p) || exit 77
PY=${PZ_PYTHON:-python3}
"$PY" -c 'import signal' 2>/dev/null || PY=python3
machine=$PZ_TOP_SRCDIR/share/machines/gigabit-switch.conf
pz_record_ok stuck 2 "$prog"
rm -f "$PZ_WORK/stuck/traces/1.evt"
mkfifo "$PZ_WORK/stuck/traces/1.evt" || pz_skip "cannot make a FIFO"

# interrupt SIGNAL STATUS: predict on the stuck trace with its own TMPDIR, SIGNAL once
# its temporary directory exists; it must exit with STATUS (128 + the signal's number)
# and leave TMPDIR empty.  A shell without job control starts a background command
# with SIGINT ignored, so python gives it back its default action first.
interrupt() {
    tmp=$PZ_WORK/tmp.$1
    mkdir "$tmp"
    TMPDIR=$tmp "$PY" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$PZ_PROGNOZ" predict "$PZ_WORK/stuck" \
        --machine "$machine" >"$PZ_WORK/$1.out" 2>"$PZ_WORK/$1.err" &
    pid=$!
    i=0
    until ls "$tmp" | grep -q '^prognoz-predict-'; do
        i=$((i + 1))
        test $i -le 100 || { kill -KILL $pid; pz_fail "$1: predict made no temporary directory in 10 s"; }
        sleep 0.1
    done
    kill -"$1" $pid
    i=0
    while kill -0 $pid 2>/dev/null; do
        i=$((i + 1))
        test $i -le 100 || { kill -KILL $pid; pz_fail "$1: predict still runs 10 s after the signal"; }
        sleep 0.1
    done
    wait $pid
    rc=$?
    test "$rc" = "$2" || { cat "$PZ_WORK/$1.err" >&2; pz_fail "$1: exit status $rc, expected $2 (killed by the signal)"; }
    left=$(ls -A "$tmp")
    test -z "$left" || pz_fail "$1: left in TMPDIR: $left"
    echo "$1: exit status $rc, TMPDIR left empty"
}

interrupt INT 130
interrupt TERM 143
