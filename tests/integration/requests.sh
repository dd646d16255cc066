# Nonblocking point-to-point calls linked to their completions (programs/requests.c):
# MpiIsend/MpiIsendComplete and MpiIrecvRequest/MpiIrecv carry the same request id,
# through Wait, Waitall (with statuses, with MPI_STATUSES_IGNORE, mixed with a
# nonblocking barrier), Waitany, Waitsome, Test, Testall, Testany and Testsome; a test
# that completes nothing shows MPI_REQUEST_TEST for the request, a cancelled receive
# MPI_REQUEST_CANCELLED; a wildcard receive shows the real sender and tag.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program requests) || exit 77
pz_record_ok requests 2 "$prog"
pz_trace requests

W='Communicator: "MPI_COMM_WORLD"'
B="MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0"

# phases 1 to 3, the same on both ranks but for the peer
common() {
    p=$1
    cat <<EOF
MPI_Init
MPI_Comm_rank
MPI_Comm_size
MPI_Irecv | MPI_IRECV_REQUEST Request: #1
MPI_Isend | MPI_ISEND Receiver: $p, $W, Tag: 1, Length: 8, Request: #2
MPI_Wait | MPI_IRECV Sender: $p, $W, Tag: 1, Length: 8, Request: #1
MPI_Wait | MPI_ISEND_COMPLETE Request: #2
MPI_Irecv | MPI_IRECV_REQUEST Request: #3
MPI_Irecv | MPI_IRECV_REQUEST Request: #4
$B
MPI_Irsend | MPI_ISEND Receiver: $p, $W, Tag: 2, Length: 12, Request: #5
MPI_Issend | MPI_ISEND Receiver: $p, $W, Tag: 3, Length: 4, Request: #6
MPI_Waitall | MPI_IRECV Sender: $p, $W, Tag: 2, Length: 12, Request: #3 | MPI_IRECV Sender: $p, $W, Tag: 3, Length: 4, Request: #4 | MPI_ISEND_COMPLETE Request: #5 | MPI_ISEND_COMPLETE Request: #6
MPI_Irecv | MPI_IRECV_REQUEST Request: #7
MPI_Isend | MPI_ISEND Receiver: $p, $W, Tag: 4, Length: 8, Request: #8
MPI_Ibarrier | NON_BLOCKING_COLLECTIVE_REQUEST Request: #9
MPI_Waitall | MPI_IRECV Sender: $p, $W, Tag: 4, Length: 8, Request: #7$PZ_ANY | MPI_ISEND_COMPLETE Request: #8 | NON_BLOCKING_COLLECTIVE_COMPLETE Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0, Request: #9
EOF
}

{
    common 1
    cat <<EOF
MPI_Irecv | MPI_IRECV_REQUEST Request: #10
MPI_Irecv | MPI_IRECV_REQUEST Request: #11
MPI_Waitany | MPI_IRECV Sender: 1, $W, Tag: 5, Length: 4, Request: #10
MPI_Send | MPI_SEND Receiver: 1, $W, Tag: 7, Length: 0
MPI_Waitany | MPI_IRECV Sender: 1, $W, Tag: 6, Length: 8, Request: #11
MPI_Irecv | MPI_IRECV_REQUEST Request: #12
MPI_Irecv | MPI_IRECV_REQUEST Request: #13
MPI_Waitsome | MPI_IRECV Sender: 1, $W, Tag: 8, Length: 12, Request: #12
MPI_Send | MPI_SEND Receiver: 1, $W, Tag: 10, Length: 0
MPI_Waitsome | MPI_IRECV Sender: 1, $W, Tag: 9, Length: 16, Request: #13
$B
MPI_Ssend | MPI_SEND Receiver: 1, $W, Tag: 11, Length: 4
$B
$B
MPI_Ssend | MPI_SEND Receiver: 1, $W, Tag: 12, Length: 8
MPI_Ssend | MPI_SEND Receiver: 1, $W, Tag: 13, Length: 12
$B
$B
MPI_Ssend | MPI_SEND Receiver: 1, $W, Tag: 14, Length: 16
$B
$B
MPI_Ssend | MPI_SEND Receiver: 1, $W, Tag: 15, Length: 20
$B
MPI_Irecv | MPI_IRECV_REQUEST Request: #14
MPI_Cancel
MPI_Wait | MPI_REQUEST_CANCELLED Request: #14
MPI_Finalize
EOF
} | pz_expect_calls requests 0

{
    common 0
    cat <<EOF
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 5, Length: 4
MPI_Recv | MPI_RECV Sender: 0, $W, Tag: 7, Length: 0
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 6, Length: 8
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 8, Length: 12
MPI_Recv | MPI_RECV Sender: 0, $W, Tag: 10, Length: 0
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 9, Length: 16
MPI_Irecv | MPI_IRECV_REQUEST Request: #10
MPI_Test | MPI_REQUEST_TEST Request: #10
MPI_Testall | MPI_REQUEST_TEST Request: #10
MPI_Testany | MPI_REQUEST_TEST Request: #10
MPI_Testsome | MPI_REQUEST_TEST Request: #10
$B
$B
MPI_Test | MPI_IRECV Sender: 0, $W, Tag: 11, Length: 4, Request: #10
MPI_Irecv | MPI_IRECV_REQUEST Request: #11
MPI_Irecv | MPI_IRECV_REQUEST Request: #12
$B
$B
MPI_Testall | MPI_IRECV Sender: 0, $W, Tag: 12, Length: 8, Request: #11 | MPI_IRECV Sender: 0, $W, Tag: 13, Length: 12, Request: #12
MPI_Irecv | MPI_IRECV_REQUEST Request: #13
$B
$B
MPI_Testany | MPI_IRECV Sender: 0, $W, Tag: 14, Length: 16, Request: #13
MPI_Irecv | MPI_IRECV_REQUEST Request: #14
$B
$B
MPI_Testsome | MPI_IRECV Sender: 0, $W, Tag: 15, Length: 20, Request: #14
MPI_Irecv | MPI_IRECV_REQUEST Request: #15
MPI_Cancel
MPI_Wait | MPI_REQUEST_CANCELLED Request: #15
MPI_Finalize
EOF
} | pz_expect_calls requests 1
