#!/bin/sh
# Each installed shared library exports exactly what its list in tests/symbols/ allows:
# a symbol not allowed is a leak of an internal function, an allowed one not exported is
# a lost API function (or a pattern that no longer matches).  Prints both and fails.
# Usage: symbols.sh [LIBRARY LIST]...: pairs of a shared library and its allow-list;
# without them, every library the build installs, from $PZ_TOP_BUILDDIR (make check).
set -f    # the lists' patterns are for case, not for file names
if [ $# -eq 0 ]; then
    set -- "$PZ_TOP_BUILDDIR/wrapper/.libs/libprognoz.so" "$PZ_TOP_SRCDIR/tests/symbols/libprognoz.txt" \
        "$PZ_TOP_BUILDDIR/model/.libs/libprognoz-comsys.so" \
        "$PZ_TOP_SRCDIR/tests/symbols/libprognoz-comsys.txt"
    # the recorder of Open MPI programs, built when configure found Open MPI
    ompi=$PZ_TOP_BUILDDIR/wrapper/.libs/libprognoz-openmpi.so
    [ ! -f "$ompi" ] || set -- "$@" "$ompi" "$PZ_TOP_SRCDIR/tests/symbols/libprognoz-openmpi.txt"
fi
status=0
while [ $# -ge 2 ]; do
    lib=$1 list=$2
    shift 2
    if [ ! -f "$lib" ]; then
        echo "FAIL: $lib: no such library"
        status=1
        continue
    fi
    exported=$(nm -D --defined-only "$lib" | awk '{ print $3 }' | sort)
    allowed=$(grep -v '^#' "$list" | grep -v '^$')
    extra= missing=
    for sym in $exported; do
        ok=
        for pattern in $allowed; do
            # shellcheck disable=SC2254 # the list's lines are patterns
            case $sym in $pattern) ok=1; break ;; esac
        done
        [ -n "$ok" ] || extra="$extra $sym"
    done
    for pattern in $allowed; do
        found=
        for sym in $exported; do
            # shellcheck disable=SC2254
            case $sym in $pattern) found=1; break ;; esac
        done
        [ -n "$found" ] || missing="$missing $pattern"
    done
    name=$(basename "$lib")
    if [ -n "$extra" ]; then
        echo "FAIL: $name exports what $list does not allow:$extra"
        status=1
    fi
    if [ -n "$missing" ]; then
        echo "FAIL: $name does not export what $list names:$missing"
        status=1
    fi
    [ -n "$extra$missing" ] || echo "PASS: $name exports $(echo "$exported" | wc -l) symbols, all allowed"
done
exit $status
