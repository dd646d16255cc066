# MPI-4's MPI_Isendrecv and MPI_Isendrecv_replace (programs/isendrecv.c on 2 ranks): an
# MPI_ISEND and an MPI_IRECV_REQUEST of two request ids at the call, both completed by
# the wait of its one handle, the receive with the source, tag and size it was posted
# with; a source of MPI_PROC_NULL leaves only the send.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/reads.sh"

prog=$(pz_program isendrecv) || exit 77
pz_record_ok isendrecv 2 "$prog"
pz_trace isendrecv

W='Communicator: "MPI_COMM_WORLD"'
for r in 0 1; do
    p=$((1 - r))
    # 4 ints (16 bytes) with tag 7, 2 ints (8) with tag 8, one double (8) with tag 9
    cat <<EOT | pz_expect_calls isendrecv "$r"
MPI_Init
MPI_Comm_rank
MPI_Isendrecv | MPI_ISEND Receiver: $p, $W, Tag: 7, Length: 16, Request: #1 | MPI_IRECV_REQUEST Request: #2
MPI_Wait | MPI_ISEND_COMPLETE Request: #1 | MPI_IRECV Sender: $p, $W, Tag: 7, Length: 16, Request: #2
MPI_Isendrecv_replace | MPI_ISEND Receiver: $p, $W, Tag: 8, Length: 8, Request: #3 | MPI_IRECV_REQUEST Request: #4
MPI_Isendrecv | MPI_ISEND Receiver: $p, $W, Tag: 9, Length: 8, Request: #5
MPI_Waitall | MPI_ISEND_COMPLETE Request: #3 | MPI_IRECV Sender: $p, $W, Tag: 8, Length: 8, Request: #4 | MPI_ISEND_COMPLETE Request: #5
MPI_Recv | MPI_RECV Sender: $p, $W, Tag: 9, Length: 8
MPI_Finalize
EOT
done
pz_reads_trace isendrecv
