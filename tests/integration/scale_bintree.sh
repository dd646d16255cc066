# prognoz scale on recordings of a broadcast and a sum to rank 0 written by hand as
# MPICH's binomial tree (programs/scale_bintree.c: 10 iterations, each 512 doubles
# received from the parent, rank less its lowest set bit, and sent to the children rank
# + mask, mask from below that bit down to 1, tag 1; a computation; then received from
# the children, mask from 1 up, and sent to the parent, tag 2; by blocking MPI_Send and
# MPI_Recv), recorded with CPU times at 2 and 4 processes, whose grids (2 x 1, 2 x 2) a
# halo exchange fits as well, and extrapolated to 8 and 16 processes, replayed in memory
# and written with --trace-out.  The tree is taken and a note says so.  The run
# synthesized at 4 makes, process by process, exactly the recording's MPI calls with
# their peers and sizes; at 8 and 16 processes 0, 5, 12 and the last make the program's
# sends and receives (process 12 at 16: receives from 8, sends to 14 and 13, receives
# from 13 and 14, sends to 8), 4096 bytes each.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program scale_bintree) || exit 77

for n in 2 4; do
    PZ_ENV=PROGNOZ_CPU_TIME=1 pz_record_ok bt$n $n "$prog" 10 160000
done
pz_scale_traced bt2 bt4
grep -q "MPICH's binomial tree (root 0) is taken" "$PZ_WORK/scale.txt" ||
    { cat "$PZ_WORK/scale.txt" >&2; pz_fail "no note of the binomial tree"; }

pz_synthesized_as_recorded bt4 4

# the lowest set bit of $1 (> 0)
low_bit() {
    _b=1
    while [ $(($1 & _b)) -eq 0 ]; do _b=$((_b * 2)); done
    echo $_b
}

# at 8 and 16, processes 0, 5, 12 and the last: their sends and receives in order, as
# S>PEER:TAG:BYTES and R<PEER:TAG:BYTES, against the program's
for n in 8 16; do
    pz_trace synth/P$n
    for p in 0 5 12 $((n - 1)); do
        [ $p -lt $n ] || continue
        if [ $p -eq 0 ]; then top=$n; bcast="" reduce=""
        else
            top=$(low_bit $p)
            bcast="R<$((p - top)):1:4096 " reduce=""
        fi
        mask=$((top / 2)) up=""
        while [ $mask -gt 0 ]; do
            [ $((p + mask)) -lt $n ] &&
                bcast="${bcast}S>$((p + mask)):1:4096 " up="R<$((p + mask)):2:4096 $up"
            mask=$((mask / 2))
        done
        reduce=$up
        [ $p -eq 0 ] || reduce="${reduce}S>$((p - top)):2:4096 "
        want=""
        for it in 1 2 3 4 5 6 7 8 9 10; do
            want="$want$bcast$reduce"
        done
        got=$(pz_sends_receives synth/P$n $p)
        pz_expect_eq "process $p's sends and receives at $n processes" "$want" "$got"
    done
done
