#!/bin/sh
# The progress line: prognoz predict, report and export of a synthetic trace of some
# five million events (bench/gentrace), run on a terminal (util-linux's script gives
# them one), show "N of TOTAL events read" and "records replayed" lines on it and erase
# the last; prognoz scale of gentrace's runs at 3 counts shows what it reads, fits or
# predicts; with --quiet, or with the standard error a file, they show nothing there
# and write the same report.  The line waits a second before it shows: where the work
# ended sooner on this machine, there is nothing to see and the terminal checks skip.
# The environment (make check): PZ_TOP_SRCDIR, PZ_TOP_BUILDDIR, PZ_PROGNOZ, MAKE.
command -v script >/dev/null || { echo "SKIP: script (util-linux) is not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pz-progress.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

fail() {
    echo "FAIL: $*"
    status=1
}

${MAKE:-make} -s -C "$PZ_TOP_BUILDDIR" bench/gentrace >/dev/null ||
    { echo "FAIL: cannot build bench/gentrace"; exit 1; }
"$PZ_TOP_BUILDDIR/bench/gentrace" "$tmp/run" --ranks 8 --iterations 40000 >/dev/null ||
    { echo "FAIL: bench/gentrace"; exit 1; }
machine=$PZ_TOP_SRCDIR/share/machines/gigabit-switch.conf
# gentrace's events: 16 per rank and iteration, 4 more per rank
events=$((8 * 40000 * 16 + 8 * 4))
erase=$(printf '\033[K')

# on_terminal NAME ARGS...: prognoz ARGS on a terminal, its report in $tmp/NAME.out, what
# the terminal showed in $tmp/NAME.tty, one line per carriage return; the whole seconds it
# took in $seconds (1.9 s is 1: counted from whole clock seconds, a run of 1.1 s could
# count 2).
on_terminal() {
    name=$1
    shift
    start=$(date +%s.%N)
    script -qec "$PZ_PROGNOZ $* -o $tmp/$name.out" /dev/null | tr '\r' '\n' >"$tmp/$name.tty"
    seconds=$(awk -v t0="$start" -v t1="$(date +%s.%N)" 'BEGIN { printf "%d\n", t1 - t0 }')
}

for cmd in predict report; do
    case $cmd in
    predict) set -- predict "$tmp/run" --machine "$machine" ;;
    report) set -- report "$tmp/run" ;;
    esac
    on_terminal "$cmd" "$@"
    "$PZ_PROGNOZ" "$@" >"$tmp/$cmd.plain" 2>"$tmp/$cmd.err" || fail "$cmd without a terminal"
    [ -s "$tmp/$cmd.err" ] && fail "$cmd without a terminal wrote on stderr: $(head -c 200 "$tmp/$cmd.err")"
    cmp -s "$tmp/$cmd.out" "$tmp/$cmd.plain" || fail "$cmd on a terminal wrote another report"
    on_terminal "$cmd-quiet" "$@" --quiet
    [ -n "$(tr -d '\n' <"$tmp/$cmd-quiet.tty")" ] &&
        fail "$cmd --quiet showed: $(head -c 200 "$tmp/$cmd-quiet.tty")"
    if ! grep -q "of $events events read" "$tmp/$cmd.tty"; then
        if [ "$seconds" -lt 2 ]; then
            echo "SKIP: $cmd took less than 2 s here: no progress line to see"
            continue
        fi
        fail "$cmd on a terminal for $seconds s showed no progress: $(head -c 300 "$tmp/$cmd.tty")"
    fi
    # every line that shows progress has "N of TOTAL UNITS (P%)", and the last is erased
    grep '^prognoz' "$tmp/$cmd.tty" | grep -v -E "^prognoz $cmd: [0-9]+ of [0-9]+ (events read|records replayed|records analyzed) \([0-9]+%\)" |
        grep -q . && fail "$cmd: a progress line of another form: $(grep '^prognoz' "$tmp/$cmd.tty" | head -n 3)"
    [ "$(grep -v '^$' "$tmp/$cmd.tty" | tail -n 1)" = "$erase" ] ||
        fail "$cmd: the last progress line is not erased"
    echo "$cmd: $(grep -c '^prognoz' "$tmp/$cmd.tty") progress lines in $seconds s"
done

# prognoz scale of gentrace's ring recorded at 4, 8 and 16 processes, predicted at 256
# and 1024: its lines name the recording read, the fitting, or the count and machine
# predicted, with the records predicted so far.
for n in 4 8 16; do
    "$PZ_TOP_BUILDDIR/bench/gentrace" "$tmp/ring$n" --ranks $n --iterations 100 >/dev/null ||
        { echo "FAIL: bench/gentrace"; exit 1; }
done
set -- scale "$tmp/ring4" "$tmp/ring8" "$tmp/ring16" --ranks 256,1024 --machine "$machine"
on_terminal scale "$@"
"$PZ_PROGNOZ" "$@" >"$tmp/scale.plain" 2>"$tmp/scale.err" || fail "scale without a terminal"
[ -s "$tmp/scale.err" ] && fail "scale without a terminal wrote on stderr: $(head -c 200 "$tmp/scale.err")"
cmp -s "$tmp/scale.out" "$tmp/scale.plain" || fail "scale on a terminal wrote another report"
on_terminal scale-quiet "$@" --quiet
[ -n "$(tr -d '\n' <"$tmp/scale-quiet.tty")" ] &&
    fail "scale --quiet showed: $(head -c 200 "$tmp/scale-quiet.tty")"
if ! grep -q -E '^prognoz scale: synthesizing and replaying 1024 processes \(count 5 of 5\) on gigabit-switch \(machine 1 of 1\): [0-9]+ records predicted' "$tmp/scale.tty"; then
    if [ "$seconds" -lt 3 ]; then
        echo "SKIP: scale took less than 3 s here: no progress line to see"
        exit $status
    fi
    fail "scale on a terminal for $seconds s showed no progress at 1024 processes: $(head -c 300 "$tmp/scale.tty")"
fi
# every line that shows progress is of one of the forms, and the last is erased
grep '^prognoz' "$tmp/scale.tty" | tr -d '\033' | sed 's/\[K$//' |
    grep -v -E "^prognoz scale: (reading recording [0-9] of 3 \(.*\)|fitting the model|synthesizing and replaying [0-9]+ processes \(count [0-9] of 5\) on gigabit-switch \(machine 1 of 1\)(: [0-9]+ records predicted)?)\$" |
    grep -q . && fail "scale: a progress line of another form: $(grep '^prognoz' "$tmp/scale.tty" | head -n 3)"
[ "$(grep -v '^$' "$tmp/scale.tty" | tail -n 1)" = "$erase" ] ||
    fail "scale: the last progress line is not erased"
echo "scale: $(grep -c '^prognoz' "$tmp/scale.tty") progress lines in $seconds s"
exit $status
