# prognoz scale on recordings of all-to-alls written by hand over the ranks in ascending
# order (programs/scale_alltoallp.c, that is share/validation/alltoallp.c, 5 iterations
# transposing a 96 x 96 matrix, each rank's blocks of (96 / P)^2 doubles going to every
# other rank q = 0 .. P - 1 but its own): "ranks", an MPI_Irecv from each q, an
# MPI_Isend to each, one MPI_Waitall; "ordered", a blocking MPI_Send and MPI_Recv with
# each q, the send first where the rank is below q, the receive first where it is
# above; both followed in every iteration by a gather written by hand (rank 0 receives
# 8 bytes tagged 8 from 1, 2, .., P - 1 in turn, the others send theirs to 0).  Recorded
# with CPU times at 2, 3 and 4 processes, extrapolated to 8 and 16, replayed in memory
# and written with --trace-out.  The run synthesized at 4 makes, process by process,
# exactly the recording's MPI calls with their partners and sizes; at 8 and 16
# processes 0, 5 and the last make in every iteration the program's messages in its
# order, (96 / P)^2 x 8 bytes tagged 7 (1152 at 8, 288 at 16), then the gather's; prognoz
# report reads the synthesized traces.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program scale_alltoallp) || exit 77

# The messages of process P's calls at N processes ($PZ_WORK/synth/PN), in order, as
# S>PEER:TAG:BYTES for a send and R<PEER:TAG:BYTES for a receive.
messages() {
    grep -E '^MPI_(Isend|Irecv|Waitall|Send|Recv) ' "$PZ_WORK/synth/P$1.calls.$2" |
        tr '|' '\n' |
        sed -n -e 's/.*MPI_I*SEND Receiver: \([0-9]*\),.*Tag: \([0-9]*\), Length: \([0-9]*\).*/S>\1:\2:\3/p' \
            -e 's/.*MPI_I*RECV Sender: \([0-9]*\),.*Tag: \([0-9]*\), Length: \([0-9]*\).*/R<\1:\2:\3/p' |
        tr '\n' ' '
}

# What the program makes at process P of N in one iteration of SCHEDULE, as messages()
# gives it.
one_iteration() {
    _p=$1 _n=$2 _b=$(( (96 / $2) * (96 / $2) * 8 )) _out=
    for q in $(seq 0 $((_n - 1))); do
        test "$q" -eq "$_p" && continue
        if test "$3" = ranks; then
            _out="${_out}S>$q:7:$_b "
        elif test "$_p" -lt "$q"; then
            _out="${_out}S>$q:7:$_b R<$q:7:$_b "
        else
            _out="${_out}R<$q:7:$_b S>$q:7:$_b "
        fi
    done
    for q in $(seq 0 $((_n - 1))); do
        test "$3" = ranks && test "$q" -ne "$_p" && _out="${_out}R<$q:7:$_b "
    done
    if test "$_p" -eq 0; then
        for q in $(seq 1 $((_n - 1))); do _out="${_out}R<$q:8:8 "; done
    else
        _out="${_out}S>0:8:8 "
    fi
    echo "$_out"
}

for schedule in ranks ordered; do
    for n in 2 3 4; do
        PZ_ENV=PROGNOZ_CPU_TIME=1 pz_record_ok $schedule$n $n "$prog" 5 96 $schedule
    done
    pz_scale_traced ${schedule}2 ${schedule}3 ${schedule}4
    grep -q 'the i-th other member in ascending rank order' "$PZ_WORK/scale.txt" ||
        { cat "$PZ_WORK/scale.txt" >&2; pz_fail "$schedule: no note of the loop over the ranks"; }
    pz_synthesized_as_recorded ${schedule}4 4
    for n in 8 16; do
        pz_trace synth/P$n
        for p in 0 5 $((n - 1)); do
            one=$(one_iteration $p $n $schedule)
            pz_expect_eq "$schedule: process $p's messages at $n processes" \
                "$one$one$one$one$one" "$(messages $n $p)"
        done
        "$PZ_PROGNOZ" report "$PZ_WORK/synth/P$n" >"$PZ_WORK/report$n.txt" 2>&1 ||
            { cat "$PZ_WORK/report$n.txt" >&2; pz_fail "prognoz report cannot read the run synthesized at $n"; }
    done
done
