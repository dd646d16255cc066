# MPI-4 persistent collectives (programs/pcoll.c on 2 ranks): the init call holds no
# event; every MPI_Start or MPI_Startall of one posts a NON_BLOCKING_COLLECTIVE_REQUEST
# with a new request id, and the wait that completes it holds the
# NON_BLOCKING_COLLECTIVE_COMPLETE with the operation, root and bytes of its blocking
# form, on the request's own communicator: one per init call, with the world's members,
# named after the call.  prognoz report and predict read the trace.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/reads.sh"

prog=$(pz_program pcoll) || exit 77
pz_record_ok pcoll 2 "$prog"
pz_trace pcoll

pz_expect_eq "communicators of persistent collectives" 3 \
    "$(pz_comms pcoll | grep -c '_init)|0 1$')"
AR="Communicator: \"$(pz_comm_named pcoll MPI_Allreduce_init "0 1")\""
BC="Communicator: \"$(pz_comm_named pcoll MPI_Bcast_init "0 1")\""
AG="Communicator: \"$(pz_comm_named pcoll MPI_Allgatherv_init "0 1")\""
NBC=NON_BLOCKING_COLLECTIVE
for r in 0 1; do
    # Allreduce of 4 ints: 16 bytes each way.  Bcast of 8 doubles from rank 0: 64 bytes
    # sent by the root, received by the other.  Allgatherv of counts {1, 3} ints: each
    # sends its block to the other (rank 0: 4 bytes, rank 1: 12) and receives the
    # other's; its recv_bytes list is the counts in bytes, "4,12".
    if test "$r" = 0; then bsent=64 brecv=0 gsent=4 grecv=12; else bsent=0 brecv=64 gsent=12 grecv=4; fi
    cat <<EOT | pz_expect_calls pcoll "$r"
MPI_Init
MPI_Comm_rank
MPI_Allreduce_init
MPI_Bcast_init
MPI_Allgatherv_init
MPI_Start | ${NBC}_REQUEST Request: #1
MPI_Wait | ${NBC}_COMPLETE Operation: ALLREDUCE, $AR, Root: NONE, Sent: 16, Received: 16, Request: #1
MPI_Start | ${NBC}_REQUEST Request: #2
MPI_Wait | ${NBC}_COMPLETE Operation: ALLREDUCE, $AR, Root: NONE, Sent: 16, Received: 16, Request: #2
MPI_Startall | ${NBC}_REQUEST Request: #3 | ${NBC}_REQUEST Request: #4 | ${NBC}_REQUEST Request: #5
MPI_Waitall | ${NBC}_COMPLETE Operation: ALLREDUCE, $AR, Root: NONE, Sent: 16, Received: 16, Request: #3 | ${NBC}_COMPLETE Operation: BCAST, $BC, Root: 0, Sent: $bsent, Received: $brecv, Request: #4 | ${NBC}_COMPLETE Operation: ALLGATHERV, $AG, Root: NONE, Sent: $gsent, Received: $grecv, Request: #5 ADDITIONAL ATTRIBUTES: ("prognoz:recv_bytes"; STRING; "4,12")
MPI_Request_free
MPI_Request_free
MPI_Request_free
MPI_Finalize
EOT
done
pz_reads_trace pcoll
