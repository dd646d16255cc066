# The recorder does not make a program hang in MPI_Finalize.  MPICH 4.0.2 over UCX's
# tcp transport hangs there when rank 0 reaches PMPI_Finalize after the others and the
# last message was one way, from them to it (bench/README.md, "The TCP transport"): what
# the recorder did when it ended on the reduction of its summary, rank 0 alone then
# printing it.  It ends in a barrier now.  programs/late_finalize.c, preloaded after the
# recorder, holds rank 0 back 200 ms before PMPI_Finalize, as a loaded machine may;
# programs/p2p is recorded RUNS times (PZ_FINALIZE_RUNS, 4) over UCX_TLS=tcp,self, and
# each must end within GRACE seconds (PZ_FINALIZE_GRACE, 20) of its summary line, with
# status 0 and its trace.  Ended on the summary line, the recorder hung 3 runs in 4 so.
# Skipped where the ranks do not reach each other over UCX's tcp (its log,
# UCX_LOG_LEVEL=info, names no tcp endpoint: another MPI, or no UCX).
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program p2p) || exit 77
test -n "${MPICC:-}" || pz_skip "MPICC is not set (run the tests through make check)"
runs=${PZ_FINALIZE_RUNS:-4}
grace=${PZ_FINALIZE_GRACE:-20}
late=$PZ_WORK/late_finalize.so
"$MPICC" -std=c11 -O2 -shared -fPIC -o "$late" "$PZ_TOP_SRCDIR/tests/programs/late_finalize.c" -ldl ||
    pz_fail "cannot build programs/late_finalize.c"

# record I: the Ith recording into $PZ_WORK/run-I, output in run-I.out and run-I.err;
# sets status: its exit status, or "hung" if it was still running $grace seconds after
# the recorder's summary line (it is then ended).
record() {
    rm -rf "$PZ_WORK/run-$1"
    timeout "$PZ_TIMEOUT" "$MPIEXEC" -n 2 env LD_PRELOAD="$PZ_LIB $late" \
        PROGNOZ_DIR="$PZ_WORK/run-$1" UCX_TLS=tcp,self UCX_LOG_LEVEL=info "$prog" \
        >"$PZ_WORK/run-$1.out" 2>"$PZ_WORK/run-$1.err" &
    _job=$! _after=0
    while kill -0 $_job 2>/dev/null; do
        sleep 1
        grep -qs '^prognoz: recorded' "$PZ_WORK/run-$1.err" && _after=$((_after + 1))
        if test $_after -gt "$grace"; then
            kill -TERM $_job
            wait $_job
            status=hung
            return
        fi
    done
    wait $_job
    status=$?
}

i=1
while test $i -le "$runs"; do
    record $i
    if test $i -eq 1 && ! grep -qs 'ep_cfg\[[0-9]*\]: tag(.*tcp/' "$PZ_WORK/run-1.out" "$PZ_WORK/run-1.err"; then
        pz_skip "the ranks did not connect over UCX's tcp transport (no tcp endpoint in UCX's log)"
    fi
    test "$status" = hung &&
        pz_fail "recording $i of $runs: still running ${grace}s after its summary line (a hang in MPI_Finalize)"
    if test "$status" -ne 0; then
        cat "$PZ_WORK/run-$i.err" >&2
        pz_fail "recording $i of $runs: exit status $status (above)"
    fi
    test -f "$PZ_WORK/run-$i/traces.otf2" || pz_fail "recording $i of $runs: no trace"
    i=$((i + 1))
done
exit 0
