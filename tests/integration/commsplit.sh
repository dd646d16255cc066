# Communicators from MPI_Comm_split and MPI_Comm_dup (programs/commsplit.c on 4 ranks):
# each is defined once for the whole run with the world ranks of its members in rank
# order (the COMM_GROUP groups of otf2-print -G), and the events on it name it and give
# peers and roots as ranks in it.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program commsplit) || exit 77
pz_record_ok commsplit 4 "$prog"
pz_trace commsplit

# every communicator, numbers taken out of the names
pz_comms commsplit | grep -v '^unknown communicator|' | sed 's/^Comm [0-9]* //' | sort >"$PZ_WORK/comms"
sort >"$PZ_WORK/comms.expected" <<'EOF'
MPI_COMM_WORLD|0 1 2 3
MPI_COMM_SELF|
(MPI_Comm_split)|2 0
(MPI_Comm_split)|3 1
(MPI_Comm_dup)|2 0
(MPI_Comm_dup)|3 1
(MPI_Comm_split)|0 1 2
EOF
diff -u "$PZ_WORK/comms.expected" "$PZ_WORK/comms" >&2 ||
    pz_fail "the communicators and their members differ (- expected, + recorded)"

EVEN=$(pz_comm_named commsplit MPI_Comm_split "2 0")
ODD=$(pz_comm_named commsplit MPI_Comm_split "3 1")
EVEN_DUP=$(pz_comm_named commsplit MPI_Comm_dup "2 0")
ODD_DUP=$(pz_comm_named commsplit MPI_Comm_dup "3 1")
TRIO=$(pz_comm_named commsplit MPI_Comm_split "0 1 2")
! grep -q 'unknown communicator' "$PZ_WORK/commsplit.events" ||
    pz_fail "an event is on the unknown communicator"

# a constructor is a collective CREATE_HANDLE on its parent with the bytes of MPICH's
# context-id Allreduce (a mask of 256 bytes each way) and, for a split, of the Allgather
# of (color, key) before it: 8 bytes sent, 8 from each of the 4 ranks received
split_on_world() {
    echo "MPI_Comm_split | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: CREATE_HANDLE, Communicator: \"MPI_COMM_WORLD\", Root: NONE, Sent: 264, Received: 288"
}

# expected WORLD_RANK HALF HALF_DUP: the calls of a world rank; ranks 2 and 3 are rank 0
# of their half and send first, rank 3 is not in TRIO
expected() {
    r=$1 half=$2 dup=$3
    printf '%s\n' MPI_Init MPI_Comm_rank MPI_Comm_size
    split_on_world
    printf '%s\n' MPI_Comm_rank MPI_Comm_size
    if test "$r" -ge 2; then
        echo "MPI_Send | MPI_SEND Receiver: 1, Communicator: \"$half\", Tag: 7, Length: $((4 * (r + 1)))"
        echo "MPI_Irecv | MPI_IRECV_REQUEST Request: #1"
        echo "MPI_Wait | MPI_IRECV Sender: 1, Communicator: \"$half\", Tag: 8, Length: 8, Request: #1$PZ_ANY"
        echo "MPI_Bcast | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BCAST, Communicator: \"$half\", Root: 1, Sent: 0, Received: 8"
    else
        echo "MPI_Recv | MPI_RECV Sender: 0, Communicator: \"$half\", Tag: 7, Length: $((4 * (r + 3)))"
        echo "MPI_Isend | MPI_ISEND Receiver: 0, Communicator: \"$half\", Tag: 8, Length: 8, Request: #1"
        echo "MPI_Wait | MPI_ISEND_COMPLETE Request: #1"
        echo "MPI_Bcast | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BCAST, Communicator: \"$half\", Root: 1, Sent: 8, Received: 0"
    fi
    echo "MPI_Comm_dup | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: CREATE_HANDLE, Communicator: \"$half\", Root: NONE, Sent: 256, Received: 256"
    echo "MPI_Allreduce | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: ALLREDUCE, Communicator: \"$dup\", Root: NONE, Sent: 12, Received: 12"
    split_on_world
    case $r in
    2) echo "MPI_Gather | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: GATHER, Communicator: \"$TRIO\", Root: 2, Sent: 0, Received: 8" ;;
    3) ;;
    *) echo "MPI_Gather | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: GATHER, Communicator: \"$TRIO\", Root: 2, Sent: 4, Received: 0" ;;
    esac
    test "$r" = 3 || echo MPI_Comm_free
    printf '%s\n' MPI_Comm_free MPI_Comm_free MPI_Finalize
}
expected 0 "$EVEN" "$EVEN_DUP" | pz_expect_calls commsplit 0
expected 1 "$ODD" "$ODD_DUP" | pz_expect_calls commsplit 1
expected 2 "$EVEN" "$EVEN_DUP" | pz_expect_calls commsplit 2
expected 3 "$ODD" "$ODD_DUP" | pz_expect_calls commsplit 3
