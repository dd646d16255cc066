# MPI-4 partitioned communication (programs/partitioned.c on 2 ranks): every call is
# recorded as its region, with no MPI event (OTF2 has none for it): the MPI_Start and
# the MPI_Wait of a partitioned request hold none either.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/reads.sh"

prog=$(pz_program partitioned) || exit 77
pz_record_ok partitioned 2 "$prog"
pz_trace partitioned

printf '%s\n' MPI_Init MPI_Comm_rank MPI_Psend_init MPI_Start MPI_Pready MPI_Pready_range \
    MPI_Pready_list MPI_Wait MPI_Request_free MPI_Finalize | pz_expect_calls partitioned 0
printf '%s\n' MPI_Init MPI_Comm_rank MPI_Precv_init MPI_Start MPI_Parrived MPI_Wait \
    MPI_Request_free MPI_Finalize | pz_expect_calls partitioned 1
pz_reads_trace partitioned
