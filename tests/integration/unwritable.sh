# A trace directory that cannot be written (programs/transparent.c on 2 ranks, with
# PROGNOZ_DIR a path under /proc, a regular file, and a path below a regular file):
# the program's stdout and exit status are those of a run without the recorder, and
# stderr holds exactly one warning, from rank 0, and nothing else but what mpiexec
# writes without the recorder too (Open MPI's reports a non-zero exit status).
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

prog=$(pz_program transparent) || exit 77

mask() {
    sed 's/code [1-9][0-9]*/code <nonzero>/; s/0x[0-9a-f]*/0x?/g' "$1"
}

pz_mpiexec -n 2 "$prog" >"$PZ_WORK/plain.out" 2>"$PZ_WORK/plain.err"
plain_rc=$?
pz_expect_eq "exit status without the recorder" 3 "$plain_rc"
mask "$PZ_WORK/plain.out" >"$PZ_WORK/plain.masked"

echo 'not a directory' >"$PZ_WORK/file"
for dir in /proc/prognoz-trace "$PZ_WORK/file" "$PZ_WORK/file/trace"; do
    pz_mpiexec -n 2 env LD_PRELOAD="$PZ_LIB" PROGNOZ_DIR="$dir" "$prog" \
        >"$PZ_WORK/run.out" 2>"$PZ_WORK/run.err"
    rc=$?
    pz_expect_eq "$dir: exit status" "$plain_rc" "$rc"
    mask "$PZ_WORK/run.out" >"$PZ_WORK/run.masked"
    diff -u "$PZ_WORK/plain.masked" "$PZ_WORK/run.masked" >&2 ||
        pz_fail "$dir: stdout differs from a run without the recorder (- without, + with)"
    cat "$PZ_WORK/run.err" >&2
    test "$(grep -c '^prognoz' "$PZ_WORK/run.err")" = 1 ||
        pz_fail "$dir: expected exactly one line of prognoz on stderr (above)"
    grep -q "^prognoz: warning: cannot write the trace to '$dir': " "$PZ_WORK/run.err" ||
        pz_fail "$dir: the line of prognoz on stderr is not the expected warning"
    grep -v '^prognoz' "$PZ_WORK/run.err" >"$PZ_WORK/run.rest"
    pz_launcher_err "$PZ_WORK/run.rest" >"$PZ_WORK/run.rest.masked"
    pz_launcher_err "$PZ_WORK/plain.err" | diff -u - "$PZ_WORK/run.rest.masked" >&2 ||
        pz_fail "$dir: stderr differs from a run without the recorder beyond the warning"
    test ! -e /proc/prognoz-trace || pz_fail "/proc/prognoz-trace exists"
    pz_expect_eq "$dir: the file in the way" 'not a directory' "$(cat "$PZ_WORK/file")"
done
