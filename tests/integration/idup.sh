# MPI_Comm_idup and MPI_Comm_idup_with_info (programs/idup.c on 2 ranks): each new
# communicator is defined once, with the world's members and named after its call,
# although the recorder never uses it (the program may not before its request
# completes); the collectives on it name it.  Two duplicates made at once are told apart.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/reads.sh"

prog=$(pz_program idup) || exit 77
pz_record_ok idup 2 "$prog"
pz_trace idup

DUP=$(pz_comm_named idup MPI_Comm_idup_with_info "0 1")
pz_expect_eq "communicators made by MPI_Comm_idup" 3 \
    "$(pz_comms idup | grep -c '(MPI_Comm_idup)|0 1$')"
BAR='Operation: BARRIER'
for r in 0 1; do
    # the communicators of MPI_Comm_idup in the order the calls use them: the world's
    # first duplicate, then a and b; the same on both ranks, and three different ones
    pz_calls idup "$r" | grep -o 'Comm [0-9]* (MPI_Comm_idup)' >"$PZ_WORK/used.$r"
    pz_expect_eq "rank $r: different duplicates used" 3 "$(sort -u "$PZ_WORK/used.$r" | wc -l)"
    # the Allreduce of one int: 4 bytes each way
    cat <<EOT | pz_expect_calls idup "$r"
MPI_Init
MPI_Comm_idup
MPI_Wait
MPI_Allreduce | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: ALLREDUCE, Communicator: "$(sed -n 1p "$PZ_WORK/used.$r")", Root: NONE, Sent: 4, Received: 4
MPI_Comm_idup_with_info
MPI_Wait
MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END $BAR, Communicator: "$DUP", Root: NONE, Sent: 0, Received: 0
MPI_Comm_idup
MPI_Comm_idup
MPI_Waitall
MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END $BAR, Communicator: "$(sed -n 2p "$PZ_WORK/used.$r")", Root: NONE, Sent: 0, Received: 0
MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END $BAR, Communicator: "$(sed -n 3p "$PZ_WORK/used.$r")", Root: NONE, Sent: 0, Received: 0
MPI_Comm_free
MPI_Comm_free
MPI_Comm_free
MPI_Comm_free
MPI_Finalize
EOT
done
cmp -s "$PZ_WORK/used.0" "$PZ_WORK/used.1" ||
    pz_fail "idup: the ranks name the duplicates they use differently"
pz_reads_trace idup
