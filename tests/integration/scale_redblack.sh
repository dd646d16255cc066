# prognoz scale on recordings of a halo exchange ordered by the parity of the rank
# (programs/scale_redblack.c, that is share/validation/redblack.c: 20 iterations of a 1-D
# periodic halo exchange by blocking MPI_Send and MPI_Recv of 8192 bytes, the even ranks
# sending to the right, receiving from the left, sending to the left and receiving from
# the right, the odd ranks receiving from the left, sending to the right, receiving from
# the right and sending to the left; an MPI_Allreduce every 10th iteration), recorded
# with CPU times at 2 and 4 processes and extrapolated to 8 and 16 processes, replayed
# in memory and written with --trace-out.  At 4 the steps made by ranks 0 and 2 and not
# by 1 and 3 follow no position in the ring, only the parity of the rank; the note says
# so.  The run synthesized at 4 makes, process by process, exactly the recording's MPI
# calls with their peers and sizes; at 8 and 16 every process makes, in each of the 20
# iterations, the four calls of its parity in its order, with its neighbours (rank 15
# at 16: receives from 14, sends to 0, receives from 0, sends to 14); prognoz report
# reads the synthesized traces, and the runs replayed in memory are predicted as their
# traces are.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program scale_redblack) || exit 77

for n in 2 4; do
    PZ_ENV=PROGNOZ_CPU_TIME=1 pz_record_ok rb$n $n "$prog" 20 65536
done
pz_scale_traced rb2 rb4
grep -q 'an order of calls by the parity of the position is taken' "$PZ_WORK/scale.txt" ||
    { cat "$PZ_WORK/scale.txt" >&2; pz_fail "no note of the order by parity"; }

pz_synthesized_as_recorded rb4 4

# at 8 and 16, processes 0, 5, 6 and the last: their sends and receives in order, as
# S>PEER:TAG:BYTES and R<PEER:TAG:BYTES, against the program's order for their parity
for n in 8 16; do
    pz_trace synth/P$n
    for p in 0 5 6 $((n - 1)); do
        right=$(( (p + 1) % n )) left=$(( (p + n - 1) % n ))
        if [ $((p % 2)) -eq 0 ]; then
            one="S>$right:1:8192 R<$left:1:8192 S>$left:2:8192 R<$right:2:8192 "
        else
            one="R<$left:1:8192 S>$right:1:8192 R<$right:2:8192 S>$left:2:8192 "
        fi
        want=""
        for it in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
            want="$want$one"
        done
        got=$(pz_sends_receives synth/P$n $p)
        pz_expect_eq "process $p's sends and receives at $n processes" "$want" "$got"
        pz_expect_eq "process $p's MPI_Allreduce calls at $n processes" 2 \
            "$(grep -c '^MPI_Allreduce' "$PZ_WORK/synth/P$n.calls.$p")"
    done
    "$PZ_PROGNOZ" report "$PZ_WORK/synth/P$n" >"$PZ_WORK/report$n.txt" 2>&1 ||
        { cat "$PZ_WORK/report$n.txt" >&2; pz_fail "prognoz report cannot read the run synthesized at $n"; }
done
