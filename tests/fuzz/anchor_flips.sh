#!/bin/sh
# Flips every bit of a trace's anchor file, one at a time, and runs a command of prognoz
# on each damaged copy.  A flip passes if the command ends within 5 s and either exits 1
# with one line on stderr and no raw "[OTF2]" error, or exits 0 with the output of the
# intact trace (a bit OTF2 does not use, such as the trace's identifier), or exits 0
# with another output when the flip turns a printable character into another one: a
# letter of the anchor's free text (a property's name or value) changed, which no check
# can tell from an intact text.  Anything else (a hang, a crash, several lines on
# stderr, exit 0 with another output) fails, and its byte and bit are printed; with
# VERBOSE=1, every refusal's line too.  Not part of `make check`: each flip starts a
# command, about 3 minutes for an anchor of 72 bytes (576 flips) on a loaded machine.
#     anchor_flips.sh PROGNOZ TRACE_DIR [COMMAND...]       (COMMAND: report by default)
# e.g. tests/fuzz/anchor_flips.sh build/tools/prognoz traces/p2p predict --machine
# share/machines/gigabit-switch.conf.  Exit status: 0 if every flip passed.
set -u
prognoz=$1 trace=$2
shift 2
[ $# -gt 0 ] || set -- report
work=$(mktemp -d "${TMPDIR:-/tmp}/anchor-flips.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cp -r "$trace" "$work/trace"
anchor=$work/trace/traces.otf2
cp "$anchor" "$work/intact"
"$prognoz" "$@" "$work/trace" >"$work/expected" 2>&1
size=$(wc -c <"$work/intact")

# Makes the anchor the intact one with bit $2 of byte $1 flipped.
flip() {
    cp "$work/intact" "$anchor"
    value=$(od -An -tu1 -j "$1" -N1 "$work/intact" | tr -d ' ')
    flipped=$((value ^ (1 << $2)))
    text=0
    if [ "$value" -ge 32 ] && [ "$value" -lt 127 ] && [ "$flipped" -ge 32 ] &&
        [ "$flipped" -lt 127 ]; then
        text=1
    fi
    value=$flipped
    printf "\\$(printf %o "$value")" |
        dd of="$anchor" bs=1 seek="$1" conv=notrunc status=none
}

tried=0 failed=0 refused=0 same=0 texts=0
byte=0
while [ "$byte" -lt "$size" ]; do
    bit=0
    while [ "$bit" -lt 8 ]; do
        flip "$byte" "$bit"
        timeout 5 "$prognoz" "$@" "$work/trace" >"$work/out" 2>"$work/err"
        rc=$?
        lines=$(wc -l <"$work/err")
        verdict=
        if [ "$rc" -eq 124 ]; then
            verdict="hangs"
        elif [ "$rc" -gt 1 ]; then
            verdict="exit status $rc"
        elif [ "$rc" -eq 1 ] && { [ "$lines" -ne 1 ] || grep -q '^\[OTF2\]' "$work/err"; }; then
            verdict="$lines lines on stderr"
        elif [ "$rc" -eq 0 ] && ! cat "$work/out" "$work/err" | cmp -s - "$work/expected"; then
            [ "$text" -eq 1 ] && verdict=text || verdict="exit 0 with another output"
        fi
        tried=$((tried + 1))
        if [ "$verdict" = text ]; then
            texts=$((texts + 1))
        elif [ -n "$verdict" ]; then
            failed=$((failed + 1))
            echo "byte $byte bit $bit: $verdict: $(head -c 300 "$work/err" | head -n 3)"
        elif [ "$rc" -eq 1 ]; then
            refused=$((refused + 1))
            [ "${VERBOSE:-0}" = 1 ] && echo "byte $byte bit $bit: $(cat "$work/err")"
        else
            same=$((same + 1))
        fi
        bit=$((bit + 1))
    done
    byte=$((byte + 1))
done
cp "$work/intact" "$anchor"
echo "$trace: $tried flips: $refused refused in one line, $same read as the intact trace," \
    "$texts changed a printable character of a text, $failed failed"
[ "$failed" -eq 0 ]
