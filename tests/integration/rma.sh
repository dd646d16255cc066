# One-sided communication (programs/rma.c on 2 ranks): window creation, fence,
# passive-target (lock, lock_all, flushes) and post/start/complete/wait epochs and the
# RMA operations are each recorded as their region, with no MPI event yet; the calls
# the MPI library makes inside them are not recorded.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"
. "$PZ_TOP_SRCDIR/tests/integration/reads.sh"

prog=$(pz_program rma) || exit 77
pz_record_ok rma 2 "$prog"
pz_trace rma

for r in 0 1; do
    {
        printf '%s\n' MPI_Init MPI_Comm_rank MPI_Win_create MPI_Win_fence MPI_Put \
            MPI_Win_fence MPI_Get MPI_Win_fence
        test "$r" = 0 && printf '%s\n' MPI_Win_lock MPI_Accumulate MPI_Fetch_and_op \
            MPI_Compare_and_swap MPI_Win_flush MPI_Win_unlock
        printf '%s\n' MPI_Win_lock_all MPI_Rput MPI_Wait MPI_Win_flush_all MPI_Win_unlock_all \
            MPI_Win_free MPI_Win_allocate MPI_Comm_group MPI_Group_incl MPI_Win_post \
            MPI_Win_start MPI_Put MPI_Win_complete MPI_Win_wait MPI_Group_free MPI_Group_free \
            MPI_Win_free MPI_Finalize
    } | pz_expect_calls rma "$r"
done
pz_reads_trace rma
