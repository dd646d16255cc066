# Neighborhood collectives (programs/nbrcoll.c on a 2x2 grid of 4 ranks, periodic along
# dimension 0, then on a weighted directed ring of a distributed graph): each is recorded as an Alltoallv of the grid whose per-peer byte lists
# give the bytes exchanged with each neighbour (0 for the others), blocking as
# MPI_COLLECTIVE_BEGIN/END, nonblocking and persistent (at its MPI_Start) as a
# NON_BLOCKING_COLLECTIVE_REQUEST completed by the wait, the persistent one on its
# request's own communicator (the grid's members).  prognoz report and predict read the
# trace.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/reads.sh"

prog=$(pz_program nbrcoll) || exit 77
pz_record_ok nbrcoll 4 "$prog"
pz_trace nbrcoll
GRID=$(pz_comm_named nbrcoll MPI_Cart_create "0 1 2 3")
RING=$(pz_comm_named nbrcoll MPI_Dist_graph_create_adjacent "0 1 2 3")
PGRID=$(pz_comm_named nbrcoll MPI_Neighbor_allgather_init "0 1 2 3")

# Rank r at (r / 2, r % 2) has as neighbours, in MPI's order: the rank of the other row
# twice (dimension 0, periodic, 2 wide), then along dimension 1 MPI_PROC_NULL and r + 1
# in column 0, r - 1 and MPI_PROC_NULL in column 1.
#   one int to each (allgather, alltoall): 4 bytes twice to the other row, 4 to the
#     neighbour in the row: 12 bytes;
#   alltoallv of 1, 1, 2, 2 ints: 4 + 4 to the other row, 8 to the row neighbour: 16.
row_list() {  # RANK ROW_BYTES COLUMN_BYTES: the per-peer list of rank RANK
    case $1 in
    0) echo "0,$3,$2,0" ;;
    1) echo "$3,0,0,$2" ;;
    2) echo "$2,0,0,$3" ;;
    3) echo "0,$2,$3,0" ;;
    esac
}
A2AV="Operation: ALLTOALLV, Communicator: \"$GRID\", Root: NONE"
PA2AV="Operation: ALLTOALLV, Communicator: \"$PGRID\", Root: NONE"
NBC=NON_BLOCKING_COLLECTIVE
for r in 0 1 2 3; do
    l12=$(row_list $r 8 4)
    l16=$(row_list $r 8 8)
    # the ring: 2 ints (8 bytes) to rank r + 1, from rank r - 1
    to=$(( (r + 1) % 4 )) from=$(( (r + 3) % 4 ))
    ls=$(for k in 0 1 2 3; do if test $k = $to; then echo 8; else echo 0; fi; done | paste -sd,)
    lr=$(for k in 0 1 2 3; do if test $k = $from; then echo 8; else echo 0; fi; done | paste -sd,)
    atring="ADDITIONAL ATTRIBUTES: (\"prognoz:send_bytes\"; STRING; \"$ls\"), (\"prognoz:recv_bytes\"; STRING; \"$lr\")"
    RINGOP="Operation: ALLTOALLV, Communicator: \"$RING\", Root: NONE, Sent: 8, Received: 8"
    # a constructor: CREATE_HANDLE on its parent with MPICH's context-id mask, 256 bytes
    HANDLE="MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: CREATE_HANDLE, Communicator: \"MPI_COMM_WORLD\", Root: NONE, Sent: 256, Received: 256"
    at12="ADDITIONAL ATTRIBUTES: (\"prognoz:send_bytes\"; STRING; \"$l12\"), (\"prognoz:recv_bytes\"; STRING; \"$l12\")"
    at16="ADDITIONAL ATTRIBUTES: (\"prognoz:send_bytes\"; STRING; \"$l16\"), (\"prognoz:recv_bytes\"; STRING; \"$l16\")"
    cat <<EOT | pz_expect_calls nbrcoll "$r"
MPI_Init
MPI_Cart_create | $HANDLE
MPI_Neighbor_allgather | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END $A2AV, Sent: 12, Received: 12 $at12
MPI_Neighbor_alltoallv | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END $A2AV, Sent: 16, Received: 16 $at16
MPI_Ineighbor_alltoall | ${NBC}_REQUEST Request: #1
MPI_Wait | ${NBC}_COMPLETE $A2AV, Sent: 12, Received: 12, Request: #1 $at12
MPI_Neighbor_allgather_init
MPI_Start | ${NBC}_REQUEST Request: #2
MPI_Wait | ${NBC}_COMPLETE $PA2AV, Sent: 12, Received: 12, Request: #2 $at12
MPI_Request_free
MPI_Comm_free
MPI_Comm_rank
MPI_Comm_size
MPI_Dist_graph_create_adjacent | $HANDLE
MPI_Neighbor_allgatherv | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END $RINGOP $atring
MPI_Neighbor_alltoallw | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END $RINGOP $atring
MPI_Comm_free
MPI_Finalize
EOT
done
pz_reads_trace nbrcoll
