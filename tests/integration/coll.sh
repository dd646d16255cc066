# Blocking collectives (programs/coll.c on 4 ranks): each recorded as
# MPI_COLLECTIVE_BEGIN/END with its operation, communicator, root and the bytes the
# rank sends to and receives from other ranks by the operation's definition.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/coll_expected.sh"

prog=$(pz_program coll) || exit 77
pz_record_ok coll 4 "$prog"
pz_trace coll
for r in 0 1 2 3; do
    coll_expected "$r" blocking | pz_expect_calls coll "$r"
done
