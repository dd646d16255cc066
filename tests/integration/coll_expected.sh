# What programs/coll.c records on rank $1 of 4, when run blocking or nonblocking ($2):
# the bytes each collective sends to and receives from the other ranks, by hand from
# the operations' definitions (sourced by coll.sh and nbc.sh).

coll_expected() {
    _r=$1 _mode=$2 _req=0
    _w='Communicator: "MPI_COMM_WORLD"'
    echo MPI_Init
    echo MPI_Comm_rank
    echo MPI_Comm_size
    # _one NAME OPERATION ROOT SENT RECEIVED [SEND_BYTES RECV_BYTES]: the per-peer byte
    # lists of v and w collectives (docs/trace-format.md), '-' where there is none
    _one() {
        _name=$1 _op=$2 _root=$3 _sent=$4 _recv=$5 _attrs=
        if test $# -gt 5; then
            test "$6" = - || _attrs="(\"prognoz:send_bytes\"; STRING; \"$6\")"
            test "$7" = - || _attrs="${_attrs:+$_attrs, }(\"prognoz:recv_bytes\"; STRING; \"$7\")"
        fi
        _attrs=${_attrs:+ ADDITIONAL ATTRIBUTES: $_attrs}
        if test "$_mode" = blocking; then
            echo "MPI_$_name | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: $_op, $_w, Root: $_root, Sent: $_sent, Received: $_recv$_attrs"
        else
            _req=$((_req + 1))
            echo "MPI_I$(echo "$_name" | tr 'A-Z' 'a-z') | NON_BLOCKING_COLLECTIVE_REQUEST Request: #$_req"
            echo "MPI_Wait | NON_BLOCKING_COLLECTIVE_COMPLETE Operation: $_op, $_w, Root: $_root, Sent: $_sent, Received: $_recv, Request: #$_req$_attrs"
        fi
    }
    # _rooted NAME OP ROOT SENT RECEIVED (at the root) SENT RECEIVED (elsewhere)
    # [SEND_BYTES RECV_BYTES (at the root)]
    _rooted() {
        if test "$_r" = "$3"; then
            _one "$1" "$2" "$3" "$4" "$5" ${8:+"$8" "$9"}
        else
            _one "$1" "$2" "$3" "$6" "$7"
        fi
    }
    _one Barrier BARRIER NONE 0 0
    _rooted Bcast BCAST 2 $((3 * 12)) 0 0 12
    _rooted Gather GATHER 2 0 $((3 * 8)) 8 0
    # rank i gives i+1 ints to root 1: 1 + 3 + 4 ints from the others
    _rooted Gatherv GATHERV 1 0 $((4 * (1 + 3 + 4))) $((4 * (_r + 1))) 0 - 4,8,12,16
    _rooted Scatter SCATTER 3 $((3 * 16)) 0 0 16
    _rooted Scatterv SCATTERV 0 $((4 * (2 + 3 + 4))) 0 0 $((4 * (_r + 1))) 4,8,12,16 -
    _one Allgather ALLGATHER NONE $((3 * 4)) $((3 * 4))
    # rank i gives i+1 ints to each of the 3 others; 1+2+3+4 = 10 ints in all
    _one Allgatherv ALLGATHERV NONE $((3 * 4 * (_r + 1))) $((4 * (10 - (_r + 1)))) - 4,8,12,16
    _one Alltoall ALLTOALL NONE $((3 * 8)) $((3 * 8))
    # rank i sends j i+j+1 ints: sum over j != r of r+j+1 = 2r + 9
    _v="$((4 * (_r + 1))),$((4 * (_r + 2))),$((4 * (_r + 3))),$((4 * (_r + 4)))"
    _one Alltoallv ALLTOALLV NONE $((4 * (2 * _r + 9))) $((4 * (2 * _r + 9))) "$_v" "$_v"
    # rank i sends j j+1 shorts: to the others 2 * (10 - (r+1)), from them 3 * 2 * (r+1)
    _v=$((2 * (_r + 1)))
    _one Alltoallw ALLTOALLW NONE $((2 * (10 - (_r + 1)))) $((3 * 2 * (_r + 1))) 2,4,6,8 "$_v,$_v,$_v,$_v"
    _rooted Reduce REDUCE 1 0 $((3 * 16)) 16 0
    _one Allreduce ALLREDUCE NONE 12 12
    _one Allreduce ALLREDUCE NONE 20 20
    # rank i keeps i+1 ints: it sends the others' blocks, receives its own from each
    _one Reduce_scatter REDUCE_SCATTER NONE $((4 * (10 - (_r + 1)))) $((3 * 4 * (_r + 1))) - 4,8,12,16
    _one Reduce_scatter_block REDUCE_SCATTER_BLOCK NONE $((3 * 8)) $((3 * 8))
    _one Scan SCAN NONE $(test "$_r" -lt 3 && echo 4 || echo 0) $(test "$_r" -gt 0 && echo 4 || echo 0)
    _one Exscan EXSCAN NONE $(test "$_r" -lt 3 && echo 8 || echo 0) $(test "$_r" -gt 0 && echo 8 || echo 0)
    echo MPI_Finalize
}
