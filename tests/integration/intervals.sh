# Interval markers of include/prognoz.h (programs/intervals.c on 2 and 4 ranks): three
# levels of intervals in a loop (executed once, 3 times and 6 times) with MPI calls in
# some of them, the same id at two lines (two intervals), one begin marker reached from
# two call sites (one interval).  Each location's ENTER/LEAVE of intervals and calls is
# exactly what the program executed, nested properly; each interval is one region of
# role CODE with the PHASE flag, paradigm USER, named after its id and its begin
# marker's file and line, with the source file's full path and that line; the markers'
# MPI_Send/MPI_Recv on MPI_COMM_SELF are no MPI calls of the trace; the program's output
# and exit status are the same with and without the recorder.  The file is a full path
# also when the program was compiled by a relative file name (programs/intervals_relative).
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program intervals) || exit 77
src=$PZ_TOP_SRCDIR/tests/programs/intervals.c
OUTER=$(pz_line "$src" '@outer') || exit 1
STEP=$(pz_line "$src" '@step') || exit 1
INNER=$(pz_line "$src" '@inner') || exit 1
AGAIN=$(pz_line "$src" '@again') || exit 1
COUNT=$(pz_line "$src" '@count') || exit 1

I1="interval 1 at intervals.c:$OUTER"
I2="interval 2 at intervals.c:$STEP"
I3="interval 3 at intervals.c:$INNER"
I2B="interval 2 at intervals.c:$AGAIN"
I4="interval 4 at intervals.c:$COUNT"
W='Communicator: "MPI_COMM_WORLD"'

# expected_calls NP RANK: the calls and intervals of RANK's location.
expected_calls() {
    p=$(($2 ^ 1))
    printf '%s\n' MPI_Init MPI_Comm_rank MPI_Comm_size "> $I1"
    for it in 0 1 2; do
        cat <<EOF
> $I2
MPI_Sendrecv | MPI_SEND Receiver: $p, $W, Tag: $it, Length: 4 | MPI_RECV Sender: $p, $W, Tag: $it, Length: 4
> $I3
< $I3
> $I3
MPI_Allreduce | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: ALLREDUCE, $W, Root: NONE, Sent: 4, Received: 4
< $I3
< $I2
EOF
    done
    cat <<EOF
< $I1
> $I2B
MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0
> $I4
< $I4
< $I2B
> $I4
< $I4
MPI_Finalize
EOF
}

# check_run NP: runs the program on NP ranks without and with the recorder and checks
# its output and the trace.
check_run() {
    np=$1 name=intervals$1
    pz_mpiexec -n "$np" "$prog" >"$PZ_WORK/plain$np.out" 2>"$PZ_WORK/plain$np.err" ||
        { cat "$PZ_WORK/plain$np.err" >&2; pz_fail "intervals fails on $np ranks without the recorder"; }
    test ! -s "$PZ_WORK/plain$np.err" ||
        { cat "$PZ_WORK/plain$np.err" >&2; pz_fail "intervals: output on stderr without the recorder (above)"; }
    pz_record_ok $name "$np" "$prog"
    sort "$PZ_WORK/plain$np.out" >"$PZ_WORK/plain$np.sorted"
    sort "$PZ_WORK/$name.out" >"$PZ_WORK/$name.sorted"
    diff -u "$PZ_WORK/plain$np.sorted" "$PZ_WORK/$name.sorted" >&2 ||
        pz_fail "intervals' output on $np ranks differs with the recorder (- without, + with)"
    # rank r receives 10 (r ^ 1) + it from its neighbour at step it, and the Allreduce
    # sums 10 q + it over all ranks q
    pz_expect_eq "intervals' output on $np ranks" "$(
        for r in $(seq 0 $((np - 1))); do
            echo "intervals: rank $r of $np: total $((30 * (r ^ 1) + 3 + 15 * np * (np - 1) + 3 * np)), count 2"
        done)" "$(cat "$PZ_WORK/$name.sorted")"
    pz_trace $name

    # The interval regions: exactly these five, each defined once, with role, paradigm,
    # flags, file and begin line.
    pz_expect_eq "$name: interval regions" 5 "$(pz_intervals $name)"
    pz_expect_interval $name 1 "$src" "$OUTER"
    pz_expect_interval $name 2 "$src" "$STEP"
    pz_expect_interval $name 3 "$src" "$INNER"
    pz_expect_interval $name 2 "$src" "$AGAIN"
    pz_expect_interval $name 4 "$src" "$COUNT"

    # The markers' own Send and Recv are not MPI calls of the trace.
    if grep -E 'Region: "MPI_(Send|Recv)"|MPI_COMM_SELF' "$PZ_WORK/$name.events" >&2; then
        pz_fail "$name: the markers' MPI_Send/MPI_Recv on MPI_COMM_SELF were recorded (above)"
    fi

    for r in $(seq 0 $((np - 1))); do
        expected_calls "$np" "$r" | pz_expect_calls $name "$r"
    done
}

check_run 2
check_run 4

# The same program compiled by a file name relative to the compilation directory, as in
# a build in the source tree and in most makefiles: the intervals' file is the full path
# all the same (a relative one could not be found from elsewhere, and two files of one
# relative name in different directories would give one interval).
rel=$(pz_program intervals_relative) || exit 77
pz_record_ok relative 2 "$rel"
pz_trace relative
expected_calls 2 0 | pz_expect_calls relative 0
pz_expect_interval relative 1 "$src" "$OUTER"
pz_expect_interval relative 2 "$src" "$STEP"
pz_expect_interval relative 3 "$src" "$INNER"
pz_expect_interval relative 2 "$src" "$AGAIN"
pz_expect_interval relative 4 "$src" "$COUNT"
