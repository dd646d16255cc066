# How a new trace replaces the one in its directory (programs/p2p.c and
# programs/abort.c on 2 ranks): into an empty directory the run leaves exactly the
# trace; over an old trace whose traces/ also holds a file and a folder prognoz did not
# write, the new trace takes its place and one warning names the folder where those were
# kept; a run that aborts before MPI_Finalize leaves the old trace byte for byte.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

p2p=$(pz_program p2p) || exit 77
abort=$(pz_program abort) || exit 77

# listing DIR: the names in DIR, hidden ones included, on one line
listing() {
    ls -A "$1" | tr '\n' ' ' | sed 's/ $//'
}

# check_p2p NAME: NAME holds a full trace of p2p (31 calls on rank 0, 24 on rank 1)
check_p2p() {
    pz_trace "$1"
    for r in 0 1; do
        pz_expect_eq "$1: rank $r: number of calls" $((r == 0 ? 31 : 24)) "$(pz_calls "$1" $r | grep -c .)"
    done
}

# sums DIR: checksums of the anchor, global definitions and event files of DIR's trace
sums() {
    (cd "$1" && cksum traces.otf2 traces.def traces/*.evt)
}

pz_record_ok fresh 2 "$p2p"
check_p2p fresh
pz_expect_eq "fresh: files in the directory" "traces traces.def traces.otf2" "$(listing "$PZ_WORK/fresh")"

# an old trace with a file and a folder of the user's in traces/
cp -R "$PZ_WORK/fresh" "$PZ_WORK/mixed"
echo notes >"$PZ_WORK/mixed/traces/notes.txt"
mkdir "$PZ_WORK/mixed/traces/keep"
echo x >"$PZ_WORK/mixed/traces/keep/x"
pz_mpiexec -n 2 env LD_PRELOAD="$PZ_LIB" PROGNOZ_DIR="$PZ_WORK/mixed" "$p2p" \
    >"$PZ_WORK/mixed.out" 2>"$PZ_WORK/mixed.err"
pz_expect_eq "mixed: exit status" 0 $?
cat "$PZ_WORK/mixed.err" >&2
pz_expect_eq "mixed: lines on stderr" 2 "$(grep -c . "$PZ_WORK/mixed.err")"
warning=$(grep '^prognoz: warning: ' "$PZ_WORK/mixed.err")
kept=$(printf '%s\n' "$warning" | sed -n "s|^prognoz: warning: '$PZ_WORK/mixed/traces' held files prognoz does not write (.*): they are kept in '\\(.*\\)'\$|\\1|p")
test -n "$kept" || pz_fail "mixed: the warning does not say where the files were kept"
case $warning in
*"'notes.txt'"*"'keep'"* | *"'keep'"*"'notes.txt'"*) ;;
*) pz_fail "mixed: the warning does not name notes.txt and keep" ;;
esac
case $kept in
"$PZ_WORK/mixed/traces.kept-"??????) ;;
*) pz_fail "mixed: the files were kept in '$kept', not in a traces.kept-XXXXXX beside the trace" ;;
esac
pz_expect_eq "mixed: kept notes.txt" notes "$(cat "$kept/notes.txt")"
pz_expect_eq "mixed: kept keep/x" x "$(cat "$kept/keep/x")"
pz_expect_eq "mixed: what the kept folder holds" "keep notes.txt" "$(listing "$kept")"
pz_expect_eq "mixed: files in the directory" "traces traces.def ${kept##*/} traces.otf2" \
    "$(listing "$PZ_WORK/mixed")"
check_p2p mixed

# a run that aborts over an old trace
cp -R "$PZ_WORK/fresh" "$PZ_WORK/aborted"
sums "$PZ_WORK/aborted" >"$PZ_WORK/before.sums"
pz_mpiexec -n 2 env LD_PRELOAD="$PZ_LIB" PROGNOZ_DIR="$PZ_WORK/aborted" "$abort" \
    >"$PZ_WORK/abort.out" 2>"$PZ_WORK/abort.err"
rc=$?
test "$rc" != 0 && test "$rc" != 124 || pz_fail "abort: the aborted job exited with status $rc"
sums "$PZ_WORK/aborted" >"$PZ_WORK/after.sums"
diff -u "$PZ_WORK/before.sums" "$PZ_WORK/after.sums" >&2 ||
    pz_fail "abort: the previous trace changed (- before, + after)"
ls -d "$PZ_WORK/aborted"/.prognoz-new-?????? >/dev/null 2>&1 ||
    pz_fail "abort: no partial trace folder .prognoz-new-XXXXXX is left"
check_p2p aborted
