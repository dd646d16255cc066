# Nonblocking collectives (programs/coll.c nonblocking on 4 ranks): each I-collective
# posts a NON_BLOCKING_COLLECTIVE_REQUEST and the MPI_Wait that completes it holds the
# NON_BLOCKING_COLLECTIVE_COMPLETE of the same request, with the operation,
# communicator, root and bytes of its blocking form.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/coll_expected.sh"

prog=$(pz_program coll) || exit 77
pz_record_ok nbc 4 "$prog" nonblocking
pz_trace nbc
for r in 0 1 2 3; do
    coll_expected "$r" nonblocking | pz_expect_calls nbc "$r"
done
