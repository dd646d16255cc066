# prognoz record end to end (programs/p2p.c on 2 ranks, PROGNOZ_LIB pointing at the
# built library): with -o DIR, with PROGNOZ_DIR, and with neither (./prognoz-trace);
# a trace already in DIR is replaced; usage errors exit 2; an ldd that does not answer
# (the command's programs not linked with MPI themselves) is given up after 10 s, said
# so, and the run recorded.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "prognoz is not built"
prog=$(pz_program p2p) || exit 77
export PROGNOZ_LIB="$PZ_LIB"
unset PROGNOZ_DIR LD_PRELOAD

# check NAME: the run left $PZ_WORK/NAME with a full trace of p2p
check() {
    test "$1" = 0 || { cat "$PZ_WORK/$2.err" >&2; pz_fail "$2: prognoz record exited with $1"; }
    test "$(grep -c . "$PZ_WORK/$2.err")" = 1 && grep -q "^prognoz: recorded [0-9]* events of 2 processes in $3/traces.otf2\$" "$PZ_WORK/$2.err" ||
        { cat "$PZ_WORK/$2.err" >&2; pz_fail "$2: expected only the summary line on stderr"; }
    pz_trace "$2"
    for r in 0 1; do
        test "$(pz_calls "$2" $r | head -1)" = MPI_Init && test "$(pz_calls "$2" $r | tail -1)" = MPI_Finalize ||
            pz_fail "$2: rank $r: the calls do not go from MPI_Init to MPI_Finalize"
        pz_expect_eq "$2: rank $r: number of calls" $((r == 0 ? 31 : 24)) "$(pz_calls "$2" $r | grep -c .)"
    done
}

timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" record -o "$PZ_WORK/byopt" -- "$MPIEXEC" -n 2 "$prog" \
    >"$PZ_WORK/byopt.out" 2>"$PZ_WORK/byopt.err"
check $? byopt "$PZ_WORK/byopt"

# again into the same directory: the new trace replaces the old one
timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" record -o "$PZ_WORK/byopt" -- "$MPIEXEC" -n 2 "$prog" \
    >"$PZ_WORK/byopt.out" 2>"$PZ_WORK/byopt.err"
check $? byopt "$PZ_WORK/byopt"
pz_expect_eq "files in the trace directory after two runs" \
    "traces traces.def traces.otf2" "$(ls "$PZ_WORK/byopt" | tr '\n' ' ' | sed 's/ $//')"

PROGNOZ_DIR="$PZ_WORK/byenv" timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" record -- "$MPIEXEC" -n 2 "$prog" \
    >"$PZ_WORK/byenv.out" 2>"$PZ_WORK/byenv.err"
check $? byenv "$PZ_WORK/byenv"

mkdir "$PZ_WORK/cwd"
(cd "$PZ_WORK/cwd" && timeout "$PZ_TIMEOUT" "$PZ_PROGNOZ" record -- "$MPIEXEC" -n 2 "$prog") \
    >"$PZ_WORK/cwd.out" 2>"$PZ_WORK/cwd.err"
rc=$?
mv "$PZ_WORK/cwd/prognoz-trace" "$PZ_WORK/default" || pz_fail "no ./prognoz-trace"
mv "$PZ_WORK/cwd.err" "$PZ_WORK/default.err"
check $rc default prognoz-trace

"$PZ_PROGNOZ" record --help >"$PZ_WORK/help" 2>&1 || pz_fail "prognoz record --help failed"
grep -q 'usage: prognoz record' "$PZ_WORK/help" || pz_fail "prognoz record --help printed no usage"
"$PZ_PROGNOZ" record -o "$PZ_WORK/x" >/dev/null 2>&1
pz_expect_eq "exit status of prognoz record without a command" 2 $?
PROGNOZ_LIB=$PZ_WORK/missing.so "$PZ_PROGNOZ" record -- true >/dev/null 2>&1
pz_expect_eq "exit status of prognoz record with a missing library" 1 $?

# An ldd that hangs: a shell runs the program, so that no word's own dependencies name
# MPI and record asks ldd; it answers nothing for 10 s, its child killed with it, once.
mkdir "$PZ_WORK/hung"
printf '#!/bin/sh\nsleep 3607 &\necho $! >>"%s"\nwait\n' "$PZ_WORK/hung/pids" >"$PZ_WORK/hung/ldd"
chmod +x "$PZ_WORK/hung/ldd"
PATH="$PZ_WORK/hung:$PATH" timeout 40 "$PZ_PROGNOZ" record -o "$PZ_WORK/hung_trace" -- \
    "$MPIEXEC" -n 2 sh -c "exec $prog" >"$PZ_WORK/hung.out" 2>"$PZ_WORK/hung.err"
rc=$?
# this fake ldd's sleeps still running (not another test run's), killed so that a
# failure leaves none behind
hung_sleeps() {
    while read -r pid; do
        test "$( { tr '\0' ' ' </proc/"$pid"/cmdline; } 2>/dev/null)" = "sleep 3607 " && echo "$pid"
    done <"$PZ_WORK/hung/pids"
}
test -s "$PZ_WORK/hung/pids" || pz_fail "record with a hung ldd did not run the fake ldd"
left=$(hung_sleeps)
test -z "$left" || kill $left 2>/dev/null
test "$rc" = 0 || { cat "$PZ_WORK/hung.err" >&2; pz_fail "record with a hung ldd exited with $rc"; }
test -z "$left" || pz_fail "record left the hung ldd's child running"
pz_expect_eq "record with a hung ldd: the line saying so" 1 \
    "$(grep -c "^prognoz: ldd did not list the libraries of '.*' within 10 s; no word's libraries are read from ldd\$" "$PZ_WORK/hung.err")"
pz_trace hung_trace
pz_expect_eq "record with a hung ldd: rank 0's calls" 31 "$(pz_calls hung_trace 0 | grep -c .)"
