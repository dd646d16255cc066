# A Fortran program using 'use mpi' (programs/fhello.f90 on 2 ranks) is recorded like
# a C one: every call with its peer, tag, bytes, root and request links; its output and
# exit status are the same with and without the recorder.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program fhello) || exit 77
pz_mpiexec -n 2 "$prog" >"$PZ_WORK/plain.out" 2>"$PZ_WORK/plain.err" ||
    { cat "$PZ_WORK/plain.err" >&2; pz_fail "fhello fails without the recorder"; }
pz_record_ok fhello 2 "$prog"
diff -u "$PZ_WORK/plain.out" "$PZ_WORK/fhello.out" >&2 ||
    pz_fail "fhello's output differs with the recorder (- without, + with)"
pz_expect_eq "fhello's output" "fhello: total 3" "$(cat "$PZ_WORK/fhello.out")"
pz_trace fhello

W='Communicator: "MPI_COMM_WORLD"'
for r in 0 1; do
    {
        pz_fortran_calls $r
        cat <<EOF
MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0
MPI_Finalize
EOF
    } | pz_expect_calls fhello $r
done
