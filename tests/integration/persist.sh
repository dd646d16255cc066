# Persistent requests (programs/persist.c): every Start or Startall of a persistent
# send or receive posts a new request (MPI_ISEND / MPI_IRECV_REQUEST with a new id), the
# wait that completes it shows the same id; the init and free calls hold no event.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program persist) || exit 77
pz_record_ok persist 2 "$prog"
pz_trace persist

W='Communicator: "MPI_COMM_WORLD"'
for r in 0 1; do
    p=$((1 - r))
    {
        printf '%s\n' MPI_Init MPI_Comm_rank MPI_Comm_size MPI_Recv_init MPI_Send_init
        for i in 1 3 5; do
            echo "MPI_Startall | MPI_IRECV_REQUEST Request: #$i | MPI_ISEND Receiver: $p, $W, Tag: 1, Length: 8, Request: #$((i + 1))"
            echo "MPI_Waitall | MPI_IRECV Sender: $p, $W, Tag: 1, Length: 8, Request: #$i | MPI_ISEND_COMPLETE Request: #$((i + 1))"
        done
        cat <<EOF
MPI_Start | MPI_IRECV_REQUEST Request: #7
MPI_Start | MPI_ISEND Receiver: $p, $W, Tag: 1, Length: 8, Request: #8
MPI_Wait | MPI_IRECV Sender: $p, $W, Tag: 1, Length: 8, Request: #7
MPI_Wait | MPI_ISEND_COMPLETE Request: #8
MPI_Request_free
MPI_Request_free
MPI_Buffer_attach
MPI_Recv_init
MPI_Recv_init
MPI_Bsend_init
MPI_Ssend_init
MPI_Startall | MPI_IRECV_REQUEST Request: #9 | MPI_IRECV_REQUEST Request: #10 | MPI_ISEND Receiver: $p, $W, Tag: 2, Length: 12, Request: #11 | MPI_ISEND Receiver: $p, $W, Tag: 3, Length: 16, Request: #12
MPI_Waitall | MPI_IRECV Sender: $p, $W, Tag: 2, Length: 12, Request: #9 | MPI_IRECV Sender: $p, $W, Tag: 3, Length: 16, Request: #10 | MPI_ISEND_COMPLETE Request: #11 | MPI_ISEND_COMPLETE Request: #12
MPI_Request_free
MPI_Request_free
MPI_Request_free
MPI_Request_free
MPI_Buffer_detach
MPI_Recv_init
MPI_Rsend_init
MPI_Start | MPI_IRECV_REQUEST Request: #13
MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0
MPI_Start | MPI_ISEND Receiver: $p, $W, Tag: 4, Length: 4, Request: #14
MPI_Waitall | MPI_IRECV Sender: $p, $W, Tag: 4, Length: 4, Request: #13 | MPI_ISEND_COMPLETE Request: #14
MPI_Request_free
MPI_Request_free
MPI_Recv_init
MPI_Request_free
MPI_Finalize
EOF
    } | pz_expect_calls persist "$r"
done
