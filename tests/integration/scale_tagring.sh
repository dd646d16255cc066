# prognoz scale on recordings of a ring pipeline tagged by its step
# (programs/scale_tagring.c: 5 passes of P - 1 steps of MPI_Sendrecv_replace to rank + 1
# from rank - 1, tag the step, 98304 / P bytes, then MPI_Allreduce), recorded with CPU
# times at 3 and 4 processes and extrapolated to 8 and 16.  At 3 a pass is 2 steps
# (tags 0, 1), too few to tell a progression alone, at 4 it is 3 (tags 0, 1, 2): the 2
# steps are the loop of the 3, its tag the step (refused before: "tr3 lacks
# MPI_Sendrecv_replace of tr4").  The run synthesized at 4 makes, process by process,
# exactly the recording's calls; at 8 and 16 every process makes, in each of the 5
# passes, the same number of exchanges, k, tagged 0 to k - 1 in turn, with its
# neighbours.  (k is the trip count's law over 2 counts, which the model chooses among
# those that fit; tests/unit/test_scale_tagsteps.c has the ring at 3, 6 and 12, whose
# law is P - 1.)
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program scale_tagring) || exit 77

for n in 3 4; do
    PZ_ENV=PROGNOZ_CPU_TIME=1 pz_record_ok tr$n $n "$prog"
done
pz_scale_traced tr3 tr4
pz_synthesized_as_recorded tr4 4

# at 8 and 16, processes 0, 5 and the last: their exchanges in order, as
# S>PEER:TAG:BYTES R<PEER:TAG:BYTES
for n in 8 16; do
    pz_trace synth/P$n
    bytes=$((98304 / n))
    for p in 0 5 $((n - 1)); do
        right=$(( (p + 1) % n )) left=$(( (p + n - 1) % n ))
        got=$(grep -E '^MPI_Sendrecv_replace ' "$PZ_WORK/synth/P$n.calls.$p" |
            sed 's/.*MPI_SEND Receiver: \([0-9]*\),.*Tag: \([0-9]*\), Length: \([0-9]*\).*MPI_RECV Sender: \([0-9]*\),.*Tag: \([0-9]*\), Length: \([0-9]*\).*/S>\1:\2:\3 R<\4:\5:\6/' |
            tr '\n' ' ')
        k=$(( $(grep -c '^MPI_Sendrecv_replace ' "$PZ_WORK/synth/P$n.calls.$p") / 5 ))
        [ "$k" -ge 3 ] || pz_fail "process $p at $n processes: $k exchanges a pass"
        one="" want="" s=0
        while [ $s -lt $k ]; do
            one="${one}S>$right:$s:$bytes R<$left:$s:$bytes "
            s=$((s + 1))
        done
        for pass in 1 2 3 4 5; do
            want="$want$one"
        done
        pz_expect_eq "process $p's exchanges at $n processes" "$want" "$got"
        pz_expect_eq "process $p's MPI_Allreduce calls at $n processes" 5 \
            "$(grep -c '^MPI_Allreduce' "$PZ_WORK/synth/P$n.calls.$p")"
    done
done
