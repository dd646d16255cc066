# Sourced by scripts/validate.sh and scripts/scale_validate.sh (which set top and die):
# the prognoz to run and what goes with it.  PROGNOZ if set (PROGNOZ_LIB then names
# libprognoz.so), else $PREFIX/bin/prognoz, else the build tree ${BUILDDIR:-./_build}
# if it is built (with its recorders, which `prognoz record` picks for the program's MPI
# from PROGNOZ_LIBDIR, its prognoz-calibrate and the source tree's machines), else
# ./_install.  Sets PROGNOZ and include (where prognoz.h is).
include=$top/include
if [ -n "${PROGNOZ:-}" ]; then
    :
elif [ -n "${PREFIX:-}" ]; then
    PROGNOZ=$PREFIX/bin/prognoz include=$PREFIX/include
elif [ -x "${BUILDDIR:-$top/_build}/tools/prognoz" ]; then
    build=${BUILDDIR:-$top/_build}
    PROGNOZ=$build/tools/prognoz
    PROGNOZ_LIBDIR=${PROGNOZ_LIBDIR:-$build/wrapper/.libs}
    PROGNOZ_MACHINES=${PROGNOZ_MACHINES:-$top/share/machines}
    export PROGNOZ_LIBDIR PROGNOZ_MACHINES
    if [ -z "${PROGNOZ_CALIBRATE:-}" ] && [ -x "$build/tools/prognoz-calibrate" ]; then
        PROGNOZ_CALIBRATE=$build/tools/prognoz-calibrate
        export PROGNOZ_CALIBRATE
    fi
else
    PROGNOZ=$top/_install/bin/prognoz include=$top/_install/include
fi
[ -x "$PROGNOZ" ] || die "no prognoz command at '$PROGNOZ' (run scripts/setup.sh, or set PROGNOZ)"
[ -r "$include/prognoz.h" ] || include=$top/include
