#!/bin/sh
# The pkg-config files give what a program should build with: prognoz.pc the marker
# header's -I and nothing to link (the recorder is preloaded, never linked: a program
# linked with it would always record), prognoz-markers.pc the marker functions of
# Fortran.  A marked C program built with `pkg-config --cflags prognoz` alone runs
# without prognoz, and recorded, its interval is in the report; one calling the marker
# functions links with `pkg-config --libs prognoz-markers`.
# The build tree's .pc files name the install directories: includedir and libdir are
# pointed at the source and build trees with --define-variable.
# The environment (make check, tests/Makefile.am): PZ_TOP_SRCDIR, PZ_TOP_BUILDDIR,
# PZ_PROGNOZ, PZ_LIB, CC, MPI_CFLAGS, MPI_LIBS, MPIEXEC.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pz-pkgconfig.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
command -v pkg-config >/dev/null || { echo "SKIP: no pkg-config"; exit 77; }

fail() {
    echo "FAIL: $*"
    exit 1
}

pc() {
    PKG_CONFIG_PATH=$PZ_TOP_BUILDDIR pkg-config --define-variable=includedir="$PZ_TOP_SRCDIR/include" \
        --define-variable=libdir="$PZ_TOP_BUILDDIR/wrapper" "$@"
}

libs=$(pc --libs prognoz) || fail "pkg-config --libs prognoz"
test -z "$libs" || fail "pkg-config --libs prognoz gives '$libs': the markers need no library"
pc --libs prognoz-markers | grep -q -e '-lprognoz-markers\b' ||
    fail "pkg-config --libs prognoz-markers does not give -lprognoz-markers"
for p in prognoz prognoz-markers prognoz-comsys; do
    pc --libs "$p" | grep -q -e '-lprognoz\( \|$\)' && fail "$p.pc links the recorder -lprognoz"
done

cat > "$tmp/marked.c" <<'PROGRAM'
#include <prognoz.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    PROGNOZ_BEGIN(7);
    MPI_Barrier(MPI_COMM_WORLD);
    PROGNOZ_END(7);
    MPI_Finalize();
    return 0;
}
PROGRAM
# shellcheck disable=SC2046,SC2086
$CC -g $(pc --cflags prognoz) $MPI_CFLAGS -o "$tmp/marked" "$tmp/marked.c" $MPI_LIBS ||
    fail "a marked program does not build with pkg-config --cflags prognoz"
if readelf -d "$tmp/marked" | grep -q 'NEEDED.*libprognoz'; then
    fail "the marked program needs a prognoz library"
fi
"$MPIEXEC" -n 1 "$tmp/marked" || fail "the marked program fails without prognoz"
(cd "$tmp" && PROGNOZ_LIB=$PZ_LIB "$PZ_PROGNOZ" record -o "$tmp/trace" -- "$MPIEXEC" -n 1 ./marked) \
    >/dev/null 2>&1 || fail "prognoz record of the marked program"
"$PZ_PROGNOZ" report "$tmp/trace" | grep -q 'marked\.c' ||
    fail "the report of the marked program has no interval at marked.c"

cat > "$tmp/functions.c" <<'PROGRAM'
#include <mpi.h>

void prognoz_begin_f(int id);
void prognoz_end_f(int id);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    prognoz_begin_f(3);
    prognoz_end_f(3);
    MPI_Finalize();
    return 0;
}
PROGRAM
# shellcheck disable=SC2046,SC2086
$CC $(pc --cflags prognoz-markers) $MPI_CFLAGS -o "$tmp/functions" "$tmp/functions.c" \
    $(pc --libs prognoz-markers) $MPI_LIBS ||
    fail "the marker functions do not link with pkg-config --libs prognoz-markers"
"$MPIEXEC" -n 1 "$tmp/functions" || fail "the program of marker functions fails without prognoz"
echo "pkg-config: prognoz gives no library, prognoz-markers its library; both programs built and ran"
