# prognoz scale on recordings of one-sided communication (programs/scale_rmahalo.c, that
# is share/validation/rmahalo.c: 20 iterations of a 1-D halo exchange by MPI_Put of 512
# bytes to each neighbour between two MPI_Win_fence calls, not periodic, and an
# MPI_Allreduce every 10th iteration), recorded with CPU times at 2, 3 and 4 processes
# and extrapolated to 8 and 16 processes, replayed in memory and written with
# --trace-out.  The run synthesized at 4 makes, process by process, exactly the
# recording's MPI calls with their windows, targets and sizes; the one at 16 has one
# window on MPI_COMM_WORLD and at each process the puts of its neighbours: the ends 20
# (to their one neighbour), the others 40, 20 to each side; prognoz report and prognoz
# predict read the synthesized traces, and the runs replayed in memory are predicted as
# their traces are.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program scale_rmahalo) || exit 77

for n in 2 3 4; do
    PZ_ENV=PROGNOZ_CPU_TIME=1 pz_record_ok rma$n $n "$prog" 20 65536
done
pz_scale_traced rma2 rma3 rma4

pz_synthesized_as_recorded rma4 4

# 16 processes: one window, on the world
pz_trace synth/P16
pz_expect_eq "the windows at 16 processes" \
    'RMA_WIN 0 Name: "MPI window 0" Communicator: "MPI_COMM_WORLD" Flags: NONE' \
    "$(sed -n 's/^RMA_WIN  *\([0-9]*\)  *Name: \("[^"]*"\) <[0-9]*>, Communicator: \("[^"]*"\) <[0-9]*>, Flags: \(.*\)/RMA_WIN \1 Name: \2 Communicator: \3 Flags: \4/p' \
        "$PZ_WORK/synth/P16.defs")"
# process 0 puts to 1, 15 to 14, 5 to 4 and 6, 20 times each, 512 bytes; 40 fences each
for p in 0 5 15; do
    got=$(grep '^MPI_Put' "$PZ_WORK/synth/P16.calls.$p" |
        sed 's/.*Remote: \([0-9]*\), Bytes: \([0-9]*\).*/\1:\2/' | sort -n | uniq -c |
        awk '{ printf "%s*%s ", $2, $1 }')
    case $p in 0) want="1:512*20 " ;; 5) want="4:512*20 6:512*20 " ;; 15) want="14:512*20 " ;; esac
    pz_expect_eq "process $p's puts at 16 processes" "$want" "$got"
    pz_expect_eq "process $p's fences at 16 processes" 40 \
        "$(grep -c '^MPI_Win_fence' "$PZ_WORK/synth/P16.calls.$p")"
done
for n in 8 16; do
    "$PZ_PROGNOZ" report "$PZ_WORK/synth/P$n" >"$PZ_WORK/report$n.txt" 2>&1 ||
        { cat "$PZ_WORK/report$n.txt" >&2; pz_fail "prognoz report cannot read the run synthesized at $n"; }
    "$PZ_PROGNOZ" predict "$PZ_WORK/synth/P$n" --machine gigabit-switch --compute cpu \
        >"$PZ_WORK/predict$n.txt" 2>&1 ||
        { cat "$PZ_WORK/predict$n.txt" >&2; pz_fail "prognoz predict cannot replay the run synthesized at $n"; }
done
