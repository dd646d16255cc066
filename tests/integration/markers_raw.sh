# Interval markers issued without include/prognoz.h (programs/markers_raw.c on 2 ranks,
# only under the recorder): MPI_Send + MPI_Recv to the rank itself on MPI_COMM_WORLD,
# MPI_Isend + MPI_Irecv completed by MPI_Waitall (also MPI_Irecv from MPI_ANY_SOURCE
# first), one MPI_Sendrecv to itself, also on a communicator where its rank is not its
# world rank, and a marker's MPI_Isend + MPI_Irecv completed by one MPI_Waitall with a
# real MPI_Irecv and MPI_Isend.  Each begin and end gives its interval, nested as
# issued, with the file and line of the begin marker; no marker call is an MPI call of
# the trace (the Waitalls are, with the events of the real requests only); every status
# the program gets for a marker is that of an empty message from itself (its rank in
# the communicator) with the marker's tag, not cancelled.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program markers_raw) || exit 77
src=$PZ_TOP_SRCDIR/tests/programs/markers_raw.c
SEND=$(pz_line "$src" '@blocking') || exit 1
ISEND=$(pz_line "$src" '@nonblocking') || exit 1
SENDRECV=$(pz_line "$src" '@sendrecv') || exit 1
MIXED=$(pz_line "$src" '@mixed') || exit 1

pz_record_ok markers_raw 2 "$prog"
sort "$PZ_WORK/markers_raw.out" >"$PZ_WORK/got"
for r in 0 1; do
    cat <<EOF
rank $r: 1 recv begin 5: source $r, tag 0xaa0005aa, count 0, cancelled 0
rank $r: 2 isend begin 258: source $r, tag 0xaa0102aa, count 0, cancelled 0
rank $r: 3 irecv begin 258: source $r, tag 0xaa0102aa, count 0, cancelled 0
rank $r: 4 irecv any end 258: source $r, tag 0xaa0102bb, count 0, cancelled 0
rank $r: 5 isend end 258: source $r, tag 0xaa0102bb, count 0, cancelled 0
rank $r: 6 sendrecv end 5: source $((1 - r)), tag 0xaa0005bb, count 0, cancelled 0
rank $r: 7 sendrecv begin 7: source $r, tag 0xaa0007aa, count 0, cancelled 0
rank $r: 8 irecv from the other rank: source $((1 - r)), tag 0x9, count 4, cancelled 0
rank $r: 9 isend begin 9: source $r, tag 0xaa0009aa, count 0, cancelled 0
rank $r: 10 irecv begin 9: source $r, tag 0xaa0009aa, count 0, cancelled 0
rank $r: rank $((1 - r)) in the reversed communicator, sum 2, got $((1 - r))
EOF
done | sort >"$PZ_WORK/expected"
diff -u "$PZ_WORK/expected" "$PZ_WORK/got" >&2 ||
    pz_fail "markers_raw's output differs (- expected, + printed): the statuses of the markers"
pz_trace markers_raw

pz_expect_eq "interval regions" 4 "$(pz_intervals markers_raw)"
pz_expect_interval markers_raw 5 "$src" "$SEND"
pz_expect_interval markers_raw 258 "$src" "$ISEND"
pz_expect_interval markers_raw 7 "$src" "$SENDRECV"
pz_expect_interval markers_raw 9 "$src" "$MIXED"

# The program's only point-to-point calls but the Irecv and Isend to the neighbour are
# markers.
if grep -E 'Region: "MPI_(Send|Recv|Sendrecv)"|^MPI_(SEND|RECV) ' "$PZ_WORK/markers_raw.events" >&2; then
    pz_fail "marker calls were recorded as MPI calls (above)"
fi
pz_expect_eq "MPI_Isend and MPI_Irecv calls" 4 \
    "$(grep -cE '^ENTER .*Region: "MPI_I(send|recv)"' "$PZ_WORK/markers_raw.events")"

I5="interval 5 at markers_raw.c:$SEND"
I258="interval 258 at markers_raw.c:$ISEND"
I7="interval 7 at markers_raw.c:$SENDRECV"
I9="interval 9 at markers_raw.c:$MIXED"
W='Communicator: "MPI_COMM_WORLD"'
# MPI_Comm_split: CREATE_HANDLE on its parent, with MPICH's context-id mask (256 bytes)
# and the (color, key) pairs of the 2 ranks (8 bytes each)
for r in 0 1; do
    pz_expect_calls markers_raw $r <<EOF
MPI_Init
MPI_Comm_rank
MPI_Comm_size
MPI_Comm_split | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: CREATE_HANDLE, $W, Root: NONE, Sent: 264, Received: 272
MPI_Comm_rank
> $I5
MPI_Get_count
> $I258
MPI_Waitall
MPI_Get_count
MPI_Get_count
MPI_Allreduce | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: ALLREDUCE, $W, Root: NONE, Sent: 4, Received: 4
< $I258
MPI_Waitall
MPI_Get_count
MPI_Get_count
< $I5
MPI_Get_count
> $I7
MPI_Get_count
MPI_Barrier | MPI_COLLECTIVE_BEGIN | MPI_COLLECTIVE_END Operation: BARRIER, $W, Root: NONE, Sent: 0, Received: 0
MPI_Irecv | MPI_IRECV_REQUEST Request: #1
> $I9
MPI_Isend | MPI_ISEND Receiver: $((1 - r)), $W, Tag: 9, Length: 4, Request: #2
MPI_Waitall | MPI_IRECV Sender: $((1 - r)), $W, Tag: 9, Length: 4, Request: #1 | MPI_ISEND_COMPLETE Request: #2
MPI_Get_count
MPI_Get_count
MPI_Get_count
< $I9
< $I7
MPI_Comm_free
MPI_Finalize
EOF
done
