# prognoz calibrate on a real 2-rank job, in --quick mode (a second or so): under
# mpiexec every rank of `prognoz calibrate` execs the MPI program prognoz-calibrate
# (PROGNOZ_CALIBRATE points into the build tree).  It prints shared/seeds/002's table
# (size, time, the error of models A, B and C) from 0 bytes up, the overheads, the
# cold-buffer ping-pong and the segments with their errors, writes a machine file
# whose latency and bandwidth are above 0, that has a comment on how the latency was
# obtained, says how the library progresses (the probe's line in the summary), has the
# exchanges both ways (a table of the 8 sizes --quick exchanges with each size's factor
# and the model's time, duplex_factors of a step per size not stalled, each from 1 to 4,
# with its comment and summary line, duplex_factor 1), the time of
# the reduction arithmetic, the overheads (and segments when they beat
# the cost model) with their comments, is named after the file, loads back in
# prognoz predict for a recorded run,
# and has nothing on stderr but a warning when the machine is loaded.  On 3 ranks, with
# a wrong option, or without the MPI program, one line on stderr and a failure status;
# --help prints the usage.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
PROGNOZ_CALIBRATE=${PROGNOZ_CALIBRATE:-$(dirname "$PZ_PROGNOZ")/prognoz-calibrate}
test -x "$PROGNOZ_CALIBRATE" || pz_skip "the calibration program '$PROGNOZ_CALIBRATE' is not built"
export PROGNOZ_CALIBRATE
conf=$PZ_WORK/mycluster.conf
out=$PZ_WORK/calibrate.out
err=$PZ_WORK/calibrate.err

# one_line WHAT FILE PATTERN: FILE is exactly one line, matching PATTERN.
one_line() {
    test "$(wc -l <"$2")" = 1 && grep -q -- "$3" "$2" ||
        { cat "$2" >&2; pz_fail "$1: expected one line matching '$3' on stderr (above)"; }
}

pz_mpiexec -n 2 "$PZ_PROGNOZ" calibrate --quick -o "$conf" >"$out" 2>"$err"
rc=$?
if test $rc -ne 0; then
    cat "$out" "$err" >&2
    pz_fail "prognoz calibrate --quick exited with status $rc"
fi
# On a loaded machine it may warn that the ranks waited for the CPU: nothing else.
grep -v '^prognoz calibrate: warning: ' "$err" >&2 &&
    pz_fail "prognoz calibrate wrote to stderr (above)"

# The table: its header, a row per size (size, time, round trips, 3 errors) from 0 B.
grep -q '^ *size (B) *time (us) *round trips *error of the model (%)$' "$out" ||
    pz_fail "no table header in the output"
grep -q 'A: lat+bw *B: packet *C: Hockney$' "$out" || pz_fail "no model names in the header"
row='^ *[0-9][0-9]* *[0-9][0-9.]* *[0-9][0-9]* *-\{0,1\}[0-9.]* *-\{0,1\}[0-9.]* *-\{0,1\}[0-9.]*$'
rows=$(grep -c "$row" "$out")
test "$rows" -ge 20 || { cat "$out" >&2; pz_fail "$rows rows in the table, expected at least 20"; }
test "$(grep "$row" "$out" | head -n 1 | awk '{ print $1 }')" = 0 ||
    pz_fail "the table does not begin at 0 bytes"
grep -q '^median |error|' "$out" || pz_fail "no median error line"
# The rounds: each round's keys with their spread, in the output and the machine file.
grep -q '^Rounds: every size measured in 9 rounds, begun at 0.0, ' "$out" || pz_fail "no rounds"
grep -q '^latency  *[0-9. ]*  us, spread [0-9.]*%$' "$out" || pz_fail "no latency of each round"
grep -q '^# fitted to each of the 9 rounds alone: .* GB/s (spread [0-9.]*%)$' "$conf" ||
    pz_fail "no comment on the bandwidth of each round"
# The keys' spread over the rounds: the overheads' 0-byte receive, each round's value (or
# - where none was kept), its median and spread, in the output and as comments in the
# machine file; and how many of the overheads' tries were kept.
spread_row='recv overhead, 0 B  *\([0-9.-][0-9.]*  *\)\{9\} us; median [0-9.]*, spread [0-9.]*%$'
grep -q "^$spread_row" "$out" || pz_fail "no spread of the receive overhead over the rounds"
grep -q "^# $spread_row" "$conf" || pz_fail "no comment on the receive overhead's spread"
grep -q '^(overheads: [0-9]* repetitions tried, [0-9]* kept: ' "$out" ||
    pz_fail "no count of the overheads' tries kept"

# The machine file.
test -f "$conf" || pz_fail "no machine file $conf"
value() {
    sed -n "s/^$1 = \([^ ]*\).*/\1/p" "$conf"
}
awk -v v="$(value latency)" 'BEGIN { exit !(v + 0 > 0) }' ||
    pz_fail "latency = '$(value latency)', expected more than 0"
awk -v v="$(value bandwidth)" 'BEGIN { exit !(v + 0 > 0) }' ||
    pz_fail "bandwidth = '$(value bandwidth)', expected more than 0"
grep -q '^# latency: ' "$conf" || pz_fail "no comment on how the latency was obtained"
case $(value progress) in
background | in_calls) ;;
*) pz_fail "progress = '$(value progress)', expected background or in_calls" ;;
esac
grep -q '^# progress: ' "$conf" || pz_fail "no comment on how the progress was found"
grep -q '^progress  *\(background\|in_calls\) (a [0-9.]* [KM]*i*B nonblocking send received ' "$out" ||
    pz_fail "no progress line in the summary"

# The exchanges: 0 B and the powers of four from 64 B to 1 MiB, as --quick measures them;
# each rank's exchange, the barrier's skew, the size's duplex factor (nan: a stall), and the
# models begun together and skewed.
grep -q '^ *size (B) *one way *rank 0 *rank 1 *skew *later *ratio *factor *model *error % *skewed *error %$' \
    "$out" || pz_fail "no exchange table"
num=' *-\{0,1\}[0-9][0-9.]*'
factor=' *\(nan\|[0-9][0-9.]*\)'
xrow="^ *[0-9][0-9]*$num$num$num$num$num$num$factor$num$num$num$num\$"
pz_expect_eq "exchanged sizes" "0 64 1024 4096 16384 65536 262144 1048576" \
    "$(sed -n '/one way *rank 0/,/^$/p' "$out" | grep "$xrow" | awk '{ print $1 }' |
        tr '\n' ' ' | sed 's/ $//')"
grep -q '^skew taken out: the overheads.* room from the later start: send ' "$out" ||
    pz_fail "no check of the barrier's skew"
grep -q '^# The exchanges are not begun together: rank 1 left the barrier ' "$conf" ||
    pz_fail "no comment on the barrier's skew"
pz_expect_eq "duplex_factor" 1 "$(value duplex_factor)"
grep -q '^# duplex_factor: 1, the factors by size (duplex_factors, below) in its place$' "$conf" ||
    pz_fail "no comment on duplex_factor"
factors=$(sed -n 's/^duplex_factors = //p' "$conf")
fitted=$(sed -n '/one way *rank 0/,/^$/p' "$out" | grep "$xrow" | awk '$8 != "nan"' | wc -l)
pz_expect_eq "duplex_factors' steps" "$fitted" \
    "$(echo "$factors" | tr ';' '\n' | grep -c ' B: ')"
echo "$factors" | tr ';' '\n' | awk -F': ' '{ sub(/ B$/, "", $1) }
    $2 < 1 || $2 > 4 || (NR > 1 && $1 + 0 <= last) { bad = 1 } { last = $1 + 0 }
    END { exit bad }' || pz_fail "duplex_factors = '$factors': a factor beyond 1 to 4 or bounds not increasing"
grep -q '^# duplex_factors: at each size exchanged both ways at once' "$conf" ||
    pz_fail "no comment on how the duplex factors were obtained"
grep -q "^duplex_factors  *[0-9]* step(s) from [0-9.]* to [0-9.]* (the model's exchange both ways is the measured one at each size; |error| median [0-9.]*%, largest [0-9.]*%.*)$" \
    "$out" || pz_fail "no duplex_factors line in the summary"
# The reduction arithmetic: MPI_SUM on 1 MiB of doubles takes some time, and far less
# than a millisecond per KiB (a second per MiB): a reduce_byte_time from 1e-13 to
# 1e-6 s per byte, with its comment and summary line.
awk -v v="$(value reduce_byte_time)" 'BEGIN { exit !(v >= 1e-13 && v <= 1e-6) }' ||
    pz_fail "reduce_byte_time = '$(value reduce_byte_time)', expected 1e-13 to 1e-6 s"
grep -q '^# reduce_byte_time: .* per KiB, the time of MPI_Reduce_local of MPI_SUM on 1 MiB of$' "$conf" ||
    pz_fail "no comment on how reduce_byte_time was obtained"
grep -q '^reduction  *[0-9.]* [a-z]* per KiB (MPI_SUM on 1 MiB of doubles in [0-9.]* [a-z]*)$' "$out" ||
    pz_fail "no reduction line in the summary"
# The overheads: a table of 0 B, the powers of four from 64 B up to the eager threshold
# and the threshold, a fitted line with its error for each measurement (or, when 64 B stalled in
# every try on a loaded machine and ended the sizes at 0 B, the one time), the four
# overhead keys with their comments, and (the two ranks share this node) the shm_ ones.
grep -q '^ *size (B) *send (us) *recv (us) *loop (us)$' "$out" || pz_fail "no overhead table"
for what in 'send: MPI_Isend+MPI_Wait' 'recv: MPI_Wait, arrived' 'loop: computation delayed'; do
    grep -q "^$what .* (median |error| [0-9.]*%, largest [0-9.]*%, [0-9]* sizes)$" "$out" ||
        grep -q "^$what .* (1 size: no per-byte cost measured)$" "$out" ||
        pz_fail "no fitted line '$what' in the output"
done
# The per-message overheads are kept whole (scaled only to fit within the exchange back
# to back): each is more than 0, with its comment; their excess over t(0), when there is
# one, is send_tail, with its comment and the output's line.
for key in send_overhead recv_overhead shm_send_overhead shm_recv_overhead; do
    awk -v v="$(value $key)" 'BEGIN { exit !(v + 0 > 0) }' ||
        pz_fail "$key = '$(value $key)', expected more than 0"
    grep -q "^# $key: " "$conf" || pz_fail "no comment on how $key was obtained"
done
if grep -q '^send_tail = ' "$conf"; then
    grep -q '^# send_tail: ' "$conf" || pz_fail "no comment on how send_tail was obtained"
    grep -q "^(send + recv exceed the ping-pong's t(0) by [0-9.]* us: the send's tail" "$out" ||
        pz_fail "no line of the send's tail in the output"
fi
# The per-byte overheads beyond the eager sizes' slope are the send's tail per byte.
if grep -q '^send_tail_per_byte = ' "$conf"; then
    grep -q '^# send_tail_per_byte: ' "$conf" ||
        pz_fail "no comment on how send_tail_per_byte was obtained"
    grep -q "^(send + recv per byte, [0-9.]* ns/KiB, against the ping-pong's slope" "$out" ||
        pz_fail "no line of the send's tail per byte in the output"
fi
# The collective overhead: MPI_Allreduce of 8 B back to back against the model's; the
# key, when above 0, with its comment.
collective='^collective_overhead [0-9.]* us: [0-9]* calls of MPI_Allreduce of 8 B (MPI_SUM)'
grep -q "$collective back to back took " "$out" || pz_fail "no collective overhead in the output"
if grep -q '^collective_overhead = ' "$conf"; then
    grep -q '^# collective_overhead: [0-9.]* us, the CPU time a collective call costs' "$conf" ||
        pz_fail "no comment on how collective_overhead was obtained"
fi
# Cold buffers beside warm ones at 256 KiB and 1 MiB, and the segments' fit with its
# error against the cost model with the overheads; segments, when written, with their comment.
grep -q '^ *size (B) *warm (us) *cold (us) *ratio *segments use$' "$out" ||
    pz_fail "no cold-buffer table"
pz_expect_eq "cold sizes" "262144 1048576" \
    "$(sed -n '/cold (us)/,/^(cold/p' "$out" | awk '$1 ~ /^[0-9]+$/ { print $1 }' |
        tr '\n' ' ' | sed 's/ $//')"
# the program loop at the exchanges' sizes up to 1 MiB, each with the ping-pong's four
# statistics and its own
pz_expect_eq "program loop sizes" "0 64 1024 4096 16384 65536 262144 1048576" \
    "$(sed -n '/program loop: computing/,/^(the program loop/p' "$out" |
        awk 'NF == 11 && $1 ~ /^[0-9]+$/ { print $1 }' | tr '\n' ' ' | sed 's/ $//')"
grep -q '^(the program loop computes 5 us before each exchange; .*the keys are fitted to the trimmed means)$' \
    "$out" || pz_fail "no program loop note"
grep -q '^segments + overheads: median |error| [0-9.]*%, largest [0-9.]*%; the cost model + overheads [0-9.]*%: segments \(not \)\{0,1\}written$' \
    "$out" || pz_fail "no error line of the segments"
if grep -q '^segments = ' "$conf"; then
    grep -q '^# segments: ' "$conf" || pz_fail "no comment on how the segments were obtained"
    grep -q '^shm_segments = ' "$conf" || pz_fail "segments but no shm_segments on one node"
fi
pz_expect_eq "name" mycluster "$(value name)"
grep -q "^wrote $conf" "$out" || pz_fail "no 'wrote $conf' line"

# It loads: prognoz predict replays a recorded run on it.
prog=$(pz_program p2p) || exit 77
pz_record_ok p2p 2 "$prog"
"$PZ_PROGNOZ" predict "$PZ_WORK/p2p" --machine "$conf" >"$PZ_WORK/predict.out" \
    2>"$PZ_WORK/predict.err" ||
    { cat "$PZ_WORK/predict.err" >&2; pz_fail "prognoz predict on the calibrated machine failed"; }
grep -q '^Predicted on machine mycluster:' "$PZ_WORK/predict.out" ||
    pz_fail "prognoz predict does not name the calibrated machine"

# Three ranks: one line, a failure, no file.
pz_mpiexec -n 3 "$PZ_PROGNOZ" calibrate --quick -o "$PZ_WORK/three.conf" \
    >"$PZ_WORK/three.out" 2>"$PZ_WORK/three.err" && pz_fail "-n 3 succeeded"
one_line "-n 3" "$PZ_WORK/three.err" '^prognoz calibrate: needs exactly 2 processes, not 3'
test -s "$PZ_WORK/three.out" && pz_fail "-n 3 wrote to stdout"
test -e "$PZ_WORK/three.conf" && pz_fail "-n 3 left a machine file"

# A wrong option: one line from rank 0 only, usage status 2.
pz_mpiexec -n 2 "$PZ_PROGNOZ" calibrate --bogus 2>"$PZ_WORK/bogus.err"
pz_expect_eq "status of --bogus" 2 $?
one_line "--bogus" "$PZ_WORK/bogus.err" "unexpected argument '--bogus'"

# No calibration program: one line, status 127.
PROGNOZ_CALIBRATE=$PZ_WORK/none "$PZ_PROGNOZ" calibrate 2>"$PZ_WORK/none.err"
pz_expect_eq "status without the program" 127 $?
one_line "no program" "$PZ_WORK/none.err" "cannot run the calibration program"

# --help, with or without mpiexec, without MPI.
"$PZ_PROGNOZ" calibrate --help | grep -q '^usage: mpiexec -n 2 prognoz calibrate' ||
    pz_fail "no usage from --help"
exit 0
