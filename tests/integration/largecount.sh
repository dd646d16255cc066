# MPI-4's large-count forms (programs/largecount.c on 2 ranks): MPI_Send_c, MPI_Recv_c,
# MPI_Isend_c, MPI_Irecv_c, MPI_Bcast_c, MPI_Allreduce_c and MPI_Alltoallv_c are
# recorded with the events, peers and bytes of their int-count siblings, the per-peer
# byte lists of the alltoallv read from its MPI_Count arrays.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/reads.sh"

prog=$(pz_program largecount) || exit 77
pz_record_ok largecount 2 "$prog"
pz_trace largecount

W='Communicator: "MPI_COMM_WORLD"'
for r in 0 1; do
    p=$((1 - r))
    # 5 doubles (40 bytes) each way, rank 0 first
    if test $r = 0; then
        blocking="MPI_Send_c | MPI_SEND Receiver: 1, $W, Tag: 1, Length: 40
MPI_Recv_c | MPI_RECV Sender: 1, $W, Tag: 1, Length: 40"
    else
        blocking="MPI_Recv_c | MPI_RECV Sender: 0, $W, Tag: 1, Length: 40
MPI_Send_c | MPI_SEND Receiver: 0, $W, Tag: 1, Length: 40"
    fi
    # the broadcast of 4 doubles from root 0: 32 bytes to the one other rank
    if test $r = 0; then bsent=32 brecv=0; else bsent=0 brecv=32; fi
    # alltoallv: rank r sends rank j r+j+1 ints; to and from the other, r+p+1 = 2 ints
    # (8 bytes); the lists, 4(r+1) and 4(r+2) bytes, are the same both ways
    v="$((4 * (r + 1))),$((4 * (r + 2)))"
    cat <<EOT | pz_expect_calls largecount "$r"
MPI_Init
MPI_Comm_rank
$blocking
MPI_Irecv_c | MPI_IRECV_REQUEST Request: #1
MPI_Isend_c | MPI_ISEND Receiver: $p, $W, Tag: 2, Length: 12, Request: #2
MPI_Waitall | MPI_IRECV Sender: $p, $W, Tag: 2, Length: 12, Request: #1 | MPI_ISEND_COMPLETE Request: #2
MPI_Bcast_c | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BCAST, $W, Root: 0, Sent: $bsent, Received: $brecv
MPI_Allreduce_c | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: ALLREDUCE, $W, Root: NONE, Sent: 8, Received: 8
MPI_Alltoallv_c | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: ALLTOALLV, $W, Root: NONE, Sent: 8, Received: 8 ADDITIONAL ATTRIBUTES: ("prognoz:send_bytes"; STRING; "$v"), ("prognoz:recv_bytes"; STRING; "$v")
MPI_Finalize
EOT
done
pz_reads_trace largecount
