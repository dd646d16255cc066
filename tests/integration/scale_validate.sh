# The scaling harness, scripts/scale_validate.sh --reduced --reps 1, on the build tree's
# prognoz with Open MPI (its default): stencil and halo2d recorded at 2, 4 and 8
# processes, extrapolated by prognoz scale to 16 and 32 and recorded there too.  It must
# end with status 0, print a "whole run" row for each program at each count, and say
# that every process of the synthesized runs makes the real runs' calls and sends their
# messages and collective bytes.  Its accuracy figures are a benchmark (bench/README.md,
# "Scaling"), not checked here.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
test -n "${PZ_OPENMPI_LIB:-}" && test -r "$PZ_OPENMPI_LIB" ||
    pz_skip "configure found no Open MPI: libprognoz-openmpi.so is not built"
command -v mpicc.openmpi >/dev/null 2>&1 || pz_skip "no mpicc.openmpi to build the programs"
command -v otf2-print >/dev/null 2>&1 || pz_skip "no otf2-print to count the calls"
unset PROGNOZ_DIR PROGNOZ_LIB LD_PRELOAD
OMPI_MCA_orte_tmpdir_base=$PZ_WORK
export OMPI_MCA_orte_tmpdir_base

out=$PZ_WORK/scale_validate.out
PROGNOZ=$PZ_PROGNOZ PROGNOZ_LIBDIR=$(dirname "$PZ_OPENMPI_LIB") MPICC=mpicc.openmpi \
    PROGNOZ_MACHINES=$PZ_TOP_SRCDIR/share/machines MPIEXEC=${OPENMPI_MPIEXEC:-mpiexec.openmpi} \
    PYTHON=${PZ_PYTHON:-python3} VALIDATE_TIMEOUT=$PZ_TIMEOUT \
    timeout $((4 * PZ_TIMEOUT)) sh "$PZ_TOP_SRCDIR/scripts/scale_validate.sh" \
    --reduced --reps 1 --mpi openmpi --dir "$PZ_WORK/scale" >"$out" 2>&1
rc=$?
if test $rc -ne 0; then
    cat "$out" >&2
    test $rc -eq 124 && pz_fail "scripts/scale_validate.sh --reduced timed out after $((4 * PZ_TIMEOUT))s"
    pz_fail "scripts/scale_validate.sh --reduced: exit status $rc (above)"
fi
for p in stencil halo2d; do
    for n in 16 32; do
        grep -Eq "^$p +$n +whole run +[0-9.]+ +- +[0-9.]+ +[-+][0-9.]+ +same$" "$out" ||
            { cat "$out" >&2; pz_fail "no 'whole run' row of $p at $n with the same calls"; }
    done
done
grep -qx "calls and message sizes per process: the same in every case" "$out" ||
    { cat "$out" >&2; pz_fail "the synthesized runs differ from the real ones (above)"; }
grep -Eq "^whole run: median \|error\| [0-9.]+%, max \|error\| [0-9.]+% \(4 cases; goal: within 10%\)$" "$out" ||
    { cat "$out" >&2; pz_fail "no summary line for the whole run"; }
cat "$out"  # the figures, for the log
exit 0
