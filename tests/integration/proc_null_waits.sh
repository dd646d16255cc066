# Requests that share a handle complete in the order of the program's array
# (programs/proc_null_waits.c on 2 ranks).  MPICH gives the send to MPI_PROC_NULL,
# which the recorder does not record, the handle of the real send that completed at
# once: in the halo exchange at the grid's edge, Waitall over [Irecv and Isend with
# MPI_PROC_NULL, Irecv and Isend with the other rank], the receive from the other rank
# completes before its send, as in the array.  Handles copied into another array before
# the Waitall still complete every request, oldest first for one handle.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program proc_null_waits) || exit 77
pz_record_ok proc_null_waits 2 "$prog"
pz_trace proc_null_waits

W='Communicator: "MPI_COMM_WORLD"'
for r in 0 1; do
    p=$((1 - r))
    cat <<EOT | pz_expect_calls proc_null_waits "$r"
MPI_Init
MPI_Comm_rank
MPI_Irecv
MPI_Isend
MPI_Irecv | MPI_IRECV_REQUEST Request: #1
MPI_Isend | MPI_ISEND Receiver: $p, $W, Tag: 1, Length: 4, Request: #2
MPI_Waitall | MPI_IRECV Sender: $p, $W, Tag: 1, Length: 4, Request: #1 | MPI_ISEND_COMPLETE Request: #2
MPI_Irecv | MPI_IRECV_REQUEST Request: #3
MPI_Isend | MPI_ISEND Receiver: $p, $W, Tag: 2, Length: 4, Request: #4
MPI_Irecv | MPI_IRECV_REQUEST Request: #5
MPI_Isend | MPI_ISEND Receiver: $p, $W, Tag: 3, Length: 4, Request: #6
MPI_Waitall | MPI_IRECV Sender: $p, $W, Tag: 2, Length: 4, Request: #3 | MPI_ISEND_COMPLETE Request: #4 | MPI_IRECV Sender: $p, $W, Tag: 3, Length: 4, Request: #5 | MPI_ISEND_COMPLETE Request: #6
MPI_Finalize
EOT
done
