# prognoz scale on recordings of an all-to-all written by hand (programs/scale_alltoallp.c,
# that is share/validation/alltoallp.c: 5 iterations transposing a 96 x 96 matrix, each
# rank's blocks going to every other rank in turn, step i = 1 .. P - 1 an MPI_Sendrecv
# to (rank + i) mod P and from (rank - i) mod P, a block of (96 / P)^2 doubles each),
# recorded with CPU times at 2, 3 and 4 processes and extrapolated to 8 and 16
# processes, replayed in memory and written with --trace-out.  The run synthesized at 4
# makes, process by process, exactly the recording's MPI calls with their partners and
# sizes; the one at 16 has at every process 5 x 15 = 75 MPI_Sendrecv, its sends to
# (p + i) mod 16 and its receives from (p - i) mod 16 for i = 1 .. 15 in every
# iteration, 288 bytes each ((96 / 16)^2 x 8);
# at 8, 5 x 7 = 35 of 1152 bytes ((96 / 8)^2 x 8).  prognoz report reads the synthesized
# traces, and the runs replayed in memory are predicted as their traces are.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program scale_alltoallp) || exit 77

for n in 2 3 4; do
    PZ_ENV=PROGNOZ_CPU_TIME=1 pz_record_ok a2a$n $n "$prog" 5 96
done
pz_scale_traced a2a2 a2a3 a2a4
grep -q 'an exchange with every member in turn' "$PZ_WORK/scale.txt" ||
    { cat "$PZ_WORK/scale.txt" >&2; pz_fail "no note of the exchange with every member"; }

pz_synthesized_as_recorded a2a4 4

# at 8 and 16, processes 0, 5 and the last: how many exchanges, with whom, how large
# (TO:FROM:BYTES, the receive as large as the send)
for n in 8 16; do
    pz_trace synth/P$n
    bytes=$(( (96 / n) * (96 / n) * 8 ))
    for p in 0 5 $((n - 1)); do
        pz_expect_eq "process $p's MPI_Sendrecv calls at $n processes" $((5 * (n - 1))) \
            "$(grep -c '^MPI_Sendrecv' "$PZ_WORK/synth/P$n.calls.$p")"
        want=""
        for it in 1 2 3 4 5; do
            i=1
            while [ $i -lt $n ]; do
                want="$want$(( (p + i) % n )):$(( (p - i + n) % n )):$bytes "
                i=$((i + 1))
            done
        done
        got=$(grep '^MPI_Sendrecv' "$PZ_WORK/synth/P$n.calls.$p" |
            sed 's/.*MPI_SEND Receiver: \([0-9]*\),.*Length: \([0-9]*\) | MPI_RECV Sender: \([0-9]*\),.*Length: \2$/\1:\3:\2/' |
            tr '\n' ' ')
        pz_expect_eq "process $p's partners and bytes at $n processes" "$want" "$got"
    done
    "$PZ_PROGNOZ" report "$PZ_WORK/synth/P$n" >"$PZ_WORK/report$n.txt" 2>&1 ||
        { cat "$PZ_WORK/report$n.txt" >&2; pz_fail "prognoz report cannot read the run synthesized at $n"; }
done
