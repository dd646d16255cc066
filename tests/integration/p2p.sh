# Blocking point-to-point calls (programs/p2p.c): every send mode, Recv, Sendrecv,
# Sendrecv_replace, the probes, Mprobe/Mrecv, Improbe/Imrecv, a derived datatype, a
# message on MPI_COMM_SELF and calls to MPI_PROC_NULL, each recorded with the right
# peer, tag, length and communicator.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program p2p) || exit 77
pz_record_ok p2p 2 "$prog"
pz_trace p2p

W='Communicator: "MPI_COMM_WORLD"'
S='Communicator: "MPI_COMM_SELF"'
pz_expect_calls p2p 0 <<EOF
MPI_Init
MPI_Comm_rank
MPI_Comm_size
MPI_Send | MPI_SEND Receiver: 1, $W, Tag: 1, Length: 12
MPI_Buffer_attach
MPI_Bsend | MPI_SEND Receiver: 1, $W, Tag: 2, Length: 16
MPI_Buffer_detach
MPI_Ssend | MPI_SEND Receiver: 1, $W, Tag: 3, Length: 5
MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0
MPI_Rsend | MPI_SEND Receiver: 1, $W, Tag: 4, Length: 4
MPI_Recv | MPI_RECV Sender: 1, $W, Tag: 11, Length: 16
MPI_Sendrecv | MPI_SEND Receiver: 1, $W, Tag: 21, Length: 8 | MPI_RECV Sender: 1, $W, Tag: 22, Length: 12
MPI_Sendrecv_replace | MPI_SEND Receiver: 1, $W, Tag: 31, Length: 8 | MPI_RECV Sender: 1, $W, Tag: 32, Length: 8
MPI_Probe
MPI_Iprobe
MPI_Recv | MPI_RECV Sender: 1, $W, Tag: 41, Length: 24
MPI_Mprobe
MPI_Mrecv | MPI_RECV Sender: 1, $W, Tag: 51, Length: 7$PZ_ANY
MPI_Probe
MPI_Improbe
MPI_Imrecv | MPI_IRECV_REQUEST Request: #1
MPI_Wait | MPI_IRECV Sender: 1, $W, Tag: 61, Length: 16, Request: #1
MPI_Send | MPI_SEND Receiver: 1, $W, Tag: 71, Length: 24
MPI_Recv | MPI_RECV Sender: 1, $W, Tag: 72, Length: 24
MPI_Sendrecv | MPI_SEND Receiver: 0, $S, Tag: 81, Length: 8 | MPI_RECV Sender: 0, $S, Tag: 81, Length: 8
MPI_Send
MPI_Recv
MPI_Sendrecv
MPI_Isend
MPI_Wait
MPI_Finalize
EOF

pz_expect_calls p2p 1 <<EOF
MPI_Init
MPI_Comm_rank
MPI_Comm_size
MPI_Recv | MPI_RECV Sender: 0, $W, Tag: 1, Length: 12
MPI_Recv | MPI_RECV Sender: 0, $W, Tag: 2, Length: 16
MPI_Recv | MPI_RECV Sender: 0, $W, Tag: 3, Length: 5$PZ_ANY
MPI_Irecv | MPI_IRECV_REQUEST Request: #1
MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0
MPI_Wait | MPI_IRECV Sender: 0, $W, Tag: 4, Length: 4, Request: #1
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 11, Length: 16
MPI_Sendrecv | MPI_SEND Receiver: 0, $W, Tag: 22, Length: 12 | MPI_RECV Sender: 0, $W, Tag: 21, Length: 8
MPI_Sendrecv_replace | MPI_SEND Receiver: 0, $W, Tag: 32, Length: 8 | MPI_RECV Sender: 0, $W, Tag: 31, Length: 8
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 41, Length: 24
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 51, Length: 7
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 61, Length: 16
MPI_Recv | MPI_RECV Sender: 0, $W, Tag: 71, Length: 24
MPI_Send | MPI_SEND Receiver: 0, $W, Tag: 72, Length: 24
MPI_Sendrecv | MPI_SEND Receiver: 0, $S, Tag: 81, Length: 8 | MPI_RECV Sender: 0, $S, Tag: 81, Length: 8
MPI_Send
MPI_Recv
MPI_Sendrecv
MPI_Isend
MPI_Wait
MPI_Finalize
EOF
