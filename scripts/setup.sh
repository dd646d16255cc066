#!/bin/sh
# Sets prognoz up on a Debian machine: installs the Debian packages it needs when they
# are missing, then configures, builds and installs it into ./_install (build tree in
# ./_build).  Run from anywhere; safe to run again.
#   PREFIX=/usr/local scripts/setup.sh    installs elsewhere
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-$top/_install}
packages="build-essential autoconf automake libtool pkg-config python3 mpich libmpich-dev
gfortran libotf2-trace-dev otf2-tools libunwind-dev libdw-dev libcriterion-dev"

# Open MPI as well, for its recorder (libprognoz-openmpi.so) and tests/integration/openmpi.sh;
# Debian may then make its mpicc and mpiexec the default ones: prognoz names MPICH's
# (mpicc.mpich, mpiexec.mpich) where it means MPICH.
packages="$packages libopenmpi-dev openmpi-bin"
packages="$packages libsimgrid-dev"   # smpirun -replay: tests/integration/simgrid.sh, docs/simgrid.md
packages="$packages chromium"   # the HTML report in a browser: tests/browser/report.sh
command -v npm >/dev/null 2>&1 || packages="$packages nodejs npm"   # ... driven from node
packages="$packages firefox-esr"   # a second browser, optional there (tests/browser/lib.sh)
packages="$packages python3-jsonschema"   # the JSON schemas: tests/schema.sh
packages="$packages bsdutils"   # script(1), a terminal for tests/progress.sh
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
        || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing Debian packages:$missing"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
fi

# puppeteer-core, which drives chromium and firefox-esr in tests/browser/: the versions
# of its package-lock.json, installed now so that the tests download nothing.
(cd "$top/tests/browser" && npm ci --no-audit --no-fund --ignore-scripts)

cd "$top"
autoreconf -fi
mkdir -p _build
cd _build
"$top/configure" --prefix="$prefix" --enable-werror
make -j"$(nproc)"
make install
echo "setup: prognoz is installed in $prefix (add $prefix/bin to PATH)"
