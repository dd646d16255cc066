# Interval markers in Fortran (programs/fmarkers.f90 on 2 ranks: 'use mpi', prognoz.fh,
# libprognoz-markers): intervals nested two deep, with MPI calls inside, and a
# sequential interval (prognoz_begin_seq) are recorded like C ones, each a region named after its id and the line of its prognoz_begin in
# the Fortran file, with that file's full path; the program's output and exit status
# are the same with and without the recorder.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program fmarkers) || exit 77
src=$PZ_TOP_SRCDIR/tests/programs/fmarkers.f90
OUTER=$(pz_line "$src" '@outer') || exit 1
STEP=$(pz_line "$src" '@step') || exit 1
BARRIER=$(pz_line "$src" '@barrier') || exit 1
SEQ=$(pz_line "$src" '@seq') || exit 1

pz_mpiexec -n 2 "$prog" >"$PZ_WORK/plain.out" 2>"$PZ_WORK/plain.err" ||
    { cat "$PZ_WORK/plain.err" >&2; pz_fail "fmarkers fails without the recorder"; }
test ! -s "$PZ_WORK/plain.err" ||
    { cat "$PZ_WORK/plain.err" >&2; pz_fail "fmarkers: output on stderr without the recorder (above)"; }
pz_record_ok fmarkers 2 "$prog"
diff -u "$PZ_WORK/plain.out" "$PZ_WORK/fmarkers.out" >&2 ||
    pz_fail "fmarkers' output differs with the recorder (- without, + with)"
# the allreduce of step i sums i * (rank + 1) over ranks 0 and 1: 3 i
pz_expect_eq "fmarkers' output" "fmarkers: 2 ranks, total 18" "$(cat "$PZ_WORK/fmarkers.out")"
pz_trace fmarkers

pz_expect_eq "interval regions" 4 "$(pz_intervals fmarkers)"
pz_expect_interval fmarkers 1 "$src" "$OUTER"
pz_expect_interval fmarkers 2 "$src" "$STEP"
pz_expect_interval fmarkers 3 "$src" "$BARRIER"

I1="interval 1 at fmarkers.f90:$OUTER"
I2="interval 2 at fmarkers.f90:$STEP"
I3="interval 3 at fmarkers.f90:$BARRIER"
I4="sequential interval 4 at fmarkers.f90:$SEQ"
grep -q "^REGION .* Name: \"$I4\" .*Descr\.: \"prognoz:sequential\"" "$PZ_WORK/fmarkers.defs" ||
    pz_fail "no region \"$I4\" described \"prognoz:sequential\" in the definitions"
W='Communicator: "MPI_COMM_WORLD"'
for r in 0 1; do
    {
        printf '%s\n' MPI_Init MPI_Comm_rank MPI_Comm_size "> $I1"
        for i in 1 2 3; do
            cat <<EOF
> $I2
MPI_Allreduce | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: ALLREDUCE, $W, Root: NONE, Sent: 4, Received: 4
< $I2
EOF
        done
        cat <<EOF
< $I1
> $I3
MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0
< $I3
> $I4
< $I4
MPI_Finalize
EOF
    } | pz_expect_calls fmarkers $r
done
