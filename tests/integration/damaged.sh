# A damaged trace (programs/p2p.c on 2 ranks, then rank 1's event file removed, or cut
# to half its size): prognoz report, predict and export --simgrid each exit 1 with
# exactly one line on stderr, OTF2's own messages ("[OTF2] src/...") kept inside it,
# and no verdict on a run whose events are missing ("the run cannot complete").
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

test -x "${PZ_PROGNOZ:-}" || pz_skip "the prognoz command '${PZ_PROGNOZ:-}' is not built"
prog=$(pz_program p2p) || exit 77
pz_record_ok p2p 2 "$prog"

# expect_one_line WHAT CMD...: CMD exits 1 and says one line, and the right one.
expect_one_line() {
    what=$1
    shift
    timeout "$PZ_TIMEOUT" "$@" >"$PZ_WORK/out" 2>"$PZ_WORK/err"
    rc=$?
    cat "$PZ_WORK/err" >&2
    pz_expect_eq "$what: exit status" 1 "$rc"
    test "$(wc -l <"$PZ_WORK/err")" = 1 || pz_fail "$what: expected exactly one line on stderr (above)"
    if grep -q '\[OTF2\]' "$PZ_WORK/err"; then
        pz_fail "$what: OTF2's own messages on stderr"
    fi
    if grep -q 'cannot complete' "$PZ_WORK/err" "$PZ_WORK/out"; then
        pz_fail "$what: a deadlock verdict on a damaged trace"
    fi
}

# check_all NAME: every command on the damaged copy $PZ_WORK/NAME.
check_all() {
    t=$PZ_WORK/$1
    expect_one_line "$1: report" "$PZ_PROGNOZ" report "$t"
    expect_one_line "$1: predict" "$PZ_PROGNOZ" predict "$t" --machine gigabit-switch
    rm -rf "$PZ_WORK/simgrid"
    expect_one_line "$1: export" "$PZ_PROGNOZ" export "$t" --simgrid "$PZ_WORK/simgrid" \
        --machine gigabit-switch
}

cp -r "$PZ_WORK/p2p" "$PZ_WORK/removed"
rm "$PZ_WORK/removed/traces/1.evt"
check_all removed

cp -r "$PZ_WORK/p2p" "$PZ_WORK/truncated"
size=$(wc -c <"$PZ_WORK/truncated/traces/1.evt")
truncate -s $((size / 2)) "$PZ_WORK/truncated/traces/1.evt"
check_all truncated

# a local definitions file whose mapping of communicators is of no known type: OTF2
# would ignore it and read rank 1's events on other communicators.  The file begins
# with an 18-byte chunk header, then that mapping table (wrapper/localdefs.c writes it
# first): record type, record length, mapping type at byte 20.
cp -r "$PZ_WORK/p2p" "$PZ_WORK/mapping"
printf '\377' | dd of="$PZ_WORK/mapping/traces/1.def" bs=1 seek=20 conv=notrunc 2>/dev/null
check_all mapping
pz_expect_eq "mapping: the line of report" \
    "prognoz report: $PZ_WORK/mapping/traces/1.def: damaged local definitions: a mapping table of unknown type 255" \
    "$("$PZ_PROGNOZ" report "$PZ_WORK/mapping" 2>&1 >/dev/null)"
