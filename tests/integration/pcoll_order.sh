# Persistent collectives started in different orders (programs/pcoll_order.c on 2
# ranks, as MPICH's coll/p_order): each request has a communicator of its own in the
# trace, with the world's members, named after its init call, on which its starts
# are; so rank 0's Bcast and rank 1's Bcast meet although each rank starts the Barrier
# in between.  prognoz report reads the trace, prognoz predict completes it (a single
# context for both would have it wait forever), and its SimGrid export, where the
# world-like communicators are SMPI's own collectives, runs in smpirun if installed.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/reads.sh"

prog=$(pz_program pcoll_order) || exit 77
pz_record_ok order 2 "$prog"
pz_trace order

BC=$(pz_comm_named order MPI_Bcast_init "0 1")
BAR=$(pz_comm_named order MPI_Barrier_init "0 1")
test "$BC" != "$BAR" || pz_fail "order: both requests on one communicator"
NBC=NON_BLOCKING_COLLECTIVE
# Bcast of one int from rank 0: 4 bytes sent by the root, received by the other;
# request ids are given by the starts, the Waitall completes the array's order
bcast_0="Operation: BCAST, Communicator: \"$BC\", Root: 0, Sent: 4, Received: 0"
bcast_1="Operation: BCAST, Communicator: \"$BC\", Root: 0, Sent: 0, Received: 4"
barrier="Operation: BARRIER, Communicator: \"$BAR\", Root: NONE, Sent: 0, Received: 0"
# expect RANK WAITALL: rank RANK's calls, its MPI_Waitall completing as WAITALL says
expect() {
    cat <<EOT | pz_expect_calls order "$1"
MPI_Init
MPI_Comm_rank
MPI_Bcast_init
MPI_Barrier_init
MPI_Start | ${NBC}_REQUEST Request: #1
MPI_Start | ${NBC}_REQUEST Request: #2
MPI_Waitall | $2
MPI_Request_free
MPI_Request_free
MPI_Finalize
EOT
}
expect 0 "${NBC}_COMPLETE $bcast_0, Request: #1 | ${NBC}_COMPLETE $barrier, Request: #2"
expect 1 "${NBC}_COMPLETE $bcast_1, Request: #2 | ${NBC}_COMPLETE $barrier, Request: #1"
pz_reads_trace order
test -s "$PZ_WORK/order.predict.err" && pz_fail "order: predict: $(cat "$PZ_WORK/order.predict.err")"

# the export: SMPI's bcast and barrier, in each rank's order of the starts
out=$PZ_WORK/sg-order
"$PZ_PROGNOZ" export "$PZ_WORK/order" --simgrid "$out" --machine gigabit-switch \
    >/dev/null 2>"$PZ_WORK/export.err" || pz_fail "order: export: $(cat "$PZ_WORK/export.err")"
pz_expect_eq "rank 0's collectives" "bcast barrier" \
    "$(awk '$2 == "bcast" || $2 == "barrier" { printf "%s%s", s, $2; s = " " }' "$out/rank-0.txt")"
pz_expect_eq "rank 1's collectives" "barrier bcast" \
    "$(awk '$2 == "bcast" || $2 == "barrier" { printf "%s%s", s, $2; s = " " }' "$out/rank-1.txt")"
command -v smpirun >/dev/null 2>&1 || exit 0
(cd "$PZ_WORK" && timeout "$PZ_TIMEOUT" smpirun -np 2 -platform "$out/platform.xml" \
    -hostfile "$out/hostfile" -replay "$out/traces.txt" >"$out.log" 2>&1) ||
    pz_fail "order: smpirun: $(tail -n 5 "$out.log")"
exit 0
