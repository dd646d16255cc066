#!/bin/sh
# Every header compiles on its own: each header of the tree with the include paths and
# flags the build uses, and each installed header with nothing but the installed include
# directory (make install-data into a scratch DESTDIR).  A header that needs another
# one included before it fails here, named.
# The environment (make check, tests/headers.mk): PZ_TOP_SRCDIR, PZ_TOP_BUILDDIR, CC,
# PZ_HEADER_CFLAGS (the build's), MPI_CFLAGS, MAKE, PZ_INCLUDEDIR.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pz-headers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

# compiles_alone NAME HEADER FLAGS...: one translation unit including only HEADER.
compiles_alone() {
    name=$1 header=$2
    shift 2
    printf '#include "%s"\n' "$header" > "$tmp/alone.c"
    if ! $CC "$@" -fsyntax-only "$tmp/alone.c" > "$tmp/errors" 2>&1; then
        echo "FAIL: $name does not compile on its own:"
        sed 's/^/    /' "$tmp/errors"
        status=1
    fi
}

tree_flags="-I$PZ_TOP_BUILDDIR/trace"
for dir in include wrapper trace analyzer model replay export tools; do
    tree_flags="$tree_flags -I$PZ_TOP_SRCDIR/$dir"
done
count=0
for header in "$PZ_TOP_SRCDIR"/include/*.h "$PZ_TOP_SRCDIR"/wrapper/*.h \
    "$PZ_TOP_SRCDIR"/trace/*.h "$PZ_TOP_BUILDDIR"/trace/*.h "$PZ_TOP_SRCDIR"/analyzer/*.h \
    "$PZ_TOP_SRCDIR"/model/*.h "$PZ_TOP_BUILDDIR"/model/*.h "$PZ_TOP_SRCDIR"/replay/*.h \
    "$PZ_TOP_SRCDIR"/export/*.h "$PZ_TOP_SRCDIR"/tools/*.h; do
    [ -f "$header" ] || continue
    name=${header#"$PZ_TOP_SRCDIR"/}
    # shellcheck disable=SC2086 # the flags are words
    compiles_alone "${name#"$PZ_TOP_BUILDDIR"/}" "$header" $PZ_HEADER_CFLAGS $tree_flags
    count=$((count + 1))
done
echo "compiled $count headers of the tree on their own"

if ! $MAKE -C "$PZ_TOP_BUILDDIR" install-data DESTDIR="$tmp/inst" > "$tmp/install" 2>&1; then
    cat "$tmp/install"
    echo "FAIL: make install-data into a scratch directory"
    exit 1
fi
inc=$tmp/inst$PZ_INCLUDEDIR
count=0
for header in $(cd "$inc" && find . -name '*.h' | sort); do
    # As a program using them is built: pkg-config's -I of prognoz.pc (for prognoz.h)
    # and of prognoz-comsys.pc (prognoz/), and mpicc's flags.
    # shellcheck disable=SC2086
    compiles_alone "installed ${header#./}" "$inc/${header#./}" -std=c11 -Wall -Wextra -Werror \
        -I"$inc" -I"$inc/prognoz" $MPI_CFLAGS
    count=$((count + 1))
done
echo "compiled $count installed headers on their own"
[ "$count" -gt 0 ] || { echo "FAIL: no header installed in $inc"; status=1; }
exit $status
