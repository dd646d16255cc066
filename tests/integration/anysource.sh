# Wildcard receives (programs/anysource.c on 3 ranks): a receive posted with
# MPI_ANY_SOURCE and MPI_ANY_TAG, whose status the program ignores, is recorded with
# the rank that actually sent the message, its tag and its length; the same for the
# senders' side.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program anysource) || exit 77
pz_record_ok anysource 3 "$prog"
pz_trace anysource

W='Communicator: "MPI_COMM_WORLD"'
pz_expect_calls anysource 0 <<EOF
MPI_Init
MPI_Comm_rank
MPI_Comm_size
MPI_Recv | MPI_RECV Sender: 2, $W, Tag: 12, Length: 12$PZ_ANY
MPI_Send | MPI_SEND Receiver: 1, $W, Tag: 1, Length: 0
MPI_Recv | MPI_RECV Sender: 1, $W, Tag: 11, Length: 8$PZ_ANY
MPI_Irecv | MPI_IRECV_REQUEST Request: #1
MPI_Irecv | MPI_IRECV_REQUEST Request: #2
MPI_Send | MPI_SEND Receiver: 2, $W, Tag: 4, Length: 0
MPI_Waitall | MPI_IRECV Sender: 2, $W, Tag: 22, Length: 16, Request: #1$PZ_ANY | MPI_IRECV Sender: 1, $W, Tag: 21, Length: 20, Request: #2$PZ_ANY
MPI_Irecv | MPI_IRECV_REQUEST Request: #3
MPI_Wait | MPI_IRECV Sender: 1, $W, Tag: 31, Length: 4, Request: #3$PZ_ANY
MPI_Send | MPI_SEND Receiver: 2, $W, Tag: 3, Length: 0
MPI_Mprobe
MPI_Mrecv | MPI_RECV Sender: 2, $W, Tag: 32, Length: 24$PZ_ANY
MPI_Sendrecv | MPI_SEND Receiver: 1, $W, Tag: 41, Length: 4 | MPI_RECV Sender: 2, $W, Tag: 42, Length: 28$PZ_ANY
MPI_Finalize
EOF

pz_expect_calls anysource 1 <<EOF
MPI_Init
MPI_Comm_rank
MPI_Comm_size
MPI_Recv | MPI_RECV Sender: 0, $W, Tag: 1, Length: 0
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 11, Length: 8
MPI_Recv | MPI_RECV Sender: 2, $W, Tag: 2, Length: 0
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 21, Length: 20
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 31, Length: 4
MPI_Recv | MPI_RECV Sender: 0, $W, Tag: 41, Length: 4
MPI_Finalize
EOF

pz_expect_calls anysource 2 <<EOF
MPI_Init
MPI_Comm_rank
MPI_Comm_size
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 12, Length: 12
MPI_Recv | MPI_RECV Sender: 0, $W, Tag: 4, Length: 0
MPI_Ssend | MPI_SEND Receiver: 0, $W, Tag: 22, Length: 16
MPI_Send | MPI_SEND Receiver: 1, $W, Tag: 2, Length: 0
MPI_Recv | MPI_RECV Sender: 0, $W, Tag: 3, Length: 0
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 32, Length: 24
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 42, Length: 28
MPI_Finalize
EOF
