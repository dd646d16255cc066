# prognoz scale on recordings of a sum by recursive doubling written by hand
# (programs/scale_hypercube.c: 10 iterations, each a computation and then, for mask = 1,
# 2, 4 ... < P, 512 doubles exchanged with rank XOR mask by blocking MPI_Send and
# MPI_Recv tagged 7, the process below its partner sending first, the other receiving
# first), recorded with CPU times at 2 and 4 processes, whose grids (2 x 1, 2 x 2) a halo
# exchange fits as well, and extrapolated to 8 and 16 processes, replayed in memory and
# written with --trace-out.  The butterfly is taken and the note says why.  The run
# synthesized at 4 makes, process by process, exactly the recording's MPI calls with
# their peers and sizes; at 8 and 16 every process makes, in each iteration, log2(P)
# stages, stage i with rank XOR 2^i in the order its bit i says (process 5 at 16:
# receives from 4 and sends to it, sends to 7 and receives, receives from 1 and sends,
# sends to 13 and receives), 4096 bytes each.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program scale_hypercube) || exit 77

for n in 2 4; do
    PZ_ENV=PROGNOZ_CPU_TIME=1 pz_record_ok hc$n $n "$prog" 10 160000
done
pz_scale_traced hc2 hc4
grep -q 'made in the order the partner.s bit decides' "$PZ_WORK/scale.txt" ||
    { cat "$PZ_WORK/scale.txt" >&2; pz_fail "no note of the butterfly's order"; }

pz_synthesized_as_recorded hc4 4

# at 8 and 16, processes 0, 5 and the last: their sends and receives in order, as
# S>PEER:TAG:BYTES and R<PEER:TAG:BYTES, against the program's
for n in 8 16; do
    pz_trace synth/P$n
    for p in 0 5 $((n - 1)); do
        one="" mask=1
        while [ $mask -lt $n ]; do
            q=$((p ^ mask))
            if [ $p -lt $q ]; then
                one="${one}S>$q:7:4096 R<$q:7:4096 "
            else
                one="${one}R<$q:7:4096 S>$q:7:4096 "
            fi
            mask=$((mask * 2))
        done
        want=""
        for it in 1 2 3 4 5 6 7 8 9 10; do
            want="$want$one"
        done
        got=$(pz_sends_receives synth/P$n $p)
        pz_expect_eq "process $p's sends and receives at $n processes" "$want" "$got"
    done
done
