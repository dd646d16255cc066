# The processes leave MPI_Init at once in the trace, as they do without the recorder
# (MPICH's MPI_Init ends in its process manager's barrier), however long the
# recorder's own start takes on each (programs/cpu_time.c on 2 ranks, rank 1 with a
# 1 GiB buffer to fault in, rank 0 with 64 KiB: without the barrier at the end of the
# recorder's start rank 1 would leave a few hundred ms later).  Their MPI_Init Leaves
# are within 50 ms of each other.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program cpu_time) || exit 77
run='exec env LD_PRELOAD="$1" PROGNOZ_DIR="$2" PROGNOZ_BUFFER="$3" "$0"'
pz_mpiexec -n 1 sh -c "$run" "$prog" "$PZ_LIB" "$PZ_WORK/sync" 64K : \
    -n 1 sh -c "$run" "$prog" "$PZ_LIB" "$PZ_WORK/sync" 1G \
    >"$PZ_WORK/sync.out" 2>"$PZ_WORK/sync.err" ||
    { cat "$PZ_WORK/sync.err" >&2; pz_fail "the traced job failed"; }
pz_trace sync
awk '$1 == "LEAVE" && $5 == "\"MPI_Init\"" { t[$2] = $3; n++ }
     END {
         if (n != 2) { print "init_sync: " n + 0 " Leaves of MPI_Init, expected 2" > "/dev/stderr"; exit 1 }
         d = t[0] - t[1]; if (d < 0) d = -d
         printf "MPI_Init left %.3f ms apart\n", d / 1e6
         exit d >= 50e6
     }' "$PZ_WORK/sync.events" || pz_fail "the processes leave MPI_Init apart (above)"
