#!/bin/sh
# The manual pages: each renders without a warning (groff -ww, and man --warnings where
# man-db is installed); each option and environment variable a command's --help lists
# is in its page, every command is in prognoz(1), and each --help ends by naming its
# page, so that the pages and the --help texts cannot drift apart.  prognoz help.  Then
# make install-data into a scratch DESTDIR installs every page, every docs/*.md and the
# bash completion.
# The environment (make check, tests/Makefile.am): PZ_TOP_SRCDIR, PZ_TOP_BUILDDIR,
# PZ_PROGNOZ, MAKE, PZ_MANDIR, PZ_DOCDIR, PZ_BASHCOMPLETIONDIR.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pz-man.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
command -v groff >/dev/null || { echo "SKIP: groff is not installed"; exit 77; }
export LC_ALL=C.UTF-8
man=$PZ_TOP_SRCDIR/doc/man
status=0

fail() {
    echo "FAIL: $*"
    status=1
}

pages=0
for page in "$man"/*.[1-8]; do
    groff -man -ww -z "$page" > "$tmp/warnings" 2>&1
    if command -v man >/dev/null; then
        MANWIDTH=80 man --warnings -l "$page" 2>> "$tmp/warnings" >/dev/null
    fi
    if [ -s "$tmp/warnings" ]; then
        fail "${page##*/} renders with warnings:"
        sed 's/^/    /' "$tmp/warnings"
    fi
    pages=$((pages + 1))
done
echo "rendered $pages pages"

# help_of CMD: the --help of prognoz CMD (of prognoz itself for 'prognoz').
help_of() {
    case $1 in
    prognoz) "$PZ_PROGNOZ" --help ;;
    calibrate) PROGNOZ_CALIBRATE=$PZ_TOP_BUILDDIR/tools/prognoz-calibrate "$PZ_PROGNOZ" calibrate --help ;;
    *) "$PZ_PROGNOZ" "$1" --help ;;
    esac
}

# The options of a --help: the first word of each line that starts with blanks and a
# dash, and the options in the usage lines; its environment variables.
options_in() {
    sed -n 's/^ \{1,\}\(-[-a-zA-Z0-9]*\).*/\1/p' "$1"
    sed -n '/^usage:/,/^$/p' "$1" | grep -o -e '--[a-z][-a-z0-9]*' -e '\[-[a-zA-Z]\b'  | tr -d '['
}

for cmd in prognoz record report predict scale calibrate export; do
    case $cmd in prognoz) page=$man/prognoz.1 ;; *) page=$man/prognoz-$cmd.1 ;; esac
    [ -f "$page" ] || { fail "no manual page ${page##*/} for $cmd"; continue; }
    help_of "$cmd" > "$tmp/help" 2>&1 || { fail "$cmd --help fails"; continue; }
    groff -man -Tascii -P-cbou -rLL=250n "$page" 2>/dev/null > "$tmp/text"
    checked=0
    for opt in $(options_in "$tmp/help" | sort -u); do
        grep -q -e "\(^\|[^-a-zA-Z0-9]\)$opt\([^-a-zA-Z0-9]\|$\)" "$tmp/text" ||
            fail "${page##*/} does not describe $opt of $cmd --help"
        checked=$((checked + 1))
    done
    for var in $(sed -n 's/^ \{1,\}\(PROGNOZ_[A-Z_]*\)=.*/\1/p' "$tmp/help"); do
        grep -q -w "$var" "$tmp/text" || fail "${page##*/} does not describe $var of $cmd --help"
        checked=$((checked + 1))
    done
    [ "$checked" -gt 0 ] || fail "no option found in $cmd --help"
    if [ "$cmd" = prognoz ]; then
        for c in $(sed -n 's/^  \([a-z]\{1,\}\)  .*/\1/p' "$tmp/help") help; do
            grep -q "^ *$c " "$tmp/text" || fail "prognoz.1 does not describe the command $c"
            [ "$c" = help ] || [ -f "$man/prognoz-$c.1" ] || fail "no manual page prognoz-$c.1"
        done
    else
        last=$(tail -n 1 "$tmp/help")
        [ "$last" = "See prognoz-$cmd(1)." ] || fail "$cmd --help ends with '$last', not 'See prognoz-$cmd(1).'"
    fi
done
echo "checked the options of 7 --help texts against their pages"

# prognoz help: alone, prognoz --help; with a command, its page (when this prognoz's
# pages are installed) or its --help, both showing the synopsis; else one line, exit 2.
"$PZ_PROGNOZ" help > "$tmp/help" 2>&1 || fail "prognoz help: exit status $?"
"$PZ_PROGNOZ" --help | cmp -s - "$tmp/help" || fail "prognoz help differs from prognoz --help"
"$PZ_PROGNOZ" help report > "$tmp/help" 2>&1 || fail "prognoz help report: exit status $?"
grep -q "prognoz report DIR" "$tmp/help" || fail "prognoz help report shows no synopsis"
"$PZ_PROGNOZ" help frobnicate > "$tmp/help" 2>&1
rc=$?
[ "$rc" = 2 ] || fail "prognoz help frobnicate: exit status $rc, expected 2"
if [ "$(wc -l < "$tmp/help")" != 1 ] || ! grep -q "frobnicate.*record report predict" "$tmp/help"; then
    fail "prognoz help frobnicate: '$(cat "$tmp/help")' is not one line listing the commands"
fi

if ! $MAKE -C "$PZ_TOP_BUILDDIR" install-data DESTDIR="$tmp/inst" > "$tmp/install" 2>&1; then
    cat "$tmp/install"
    fail "make install-data into a scratch directory"
    exit 1
fi
for page in "$man"/*.[1-8]; do
    name=${page##*/}
    [ -f "$tmp/inst$PZ_MANDIR/man${name##*.}/$name" ] || fail "$name is not installed"
done
for doc in "$PZ_TOP_SRCDIR"/docs/*.md; do
    [ -f "$tmp/inst$PZ_DOCDIR/docs/${doc##*/}" ] || fail "docs/${doc##*/} is not installed"
done
[ -f "$tmp/inst$PZ_DOCDIR/README.md" ] || fail "README.md is not installed"
[ -f "$tmp/inst$PZ_BASHCOMPLETIONDIR/prognoz" ] || fail "the bash completion is not installed"
exit $status
