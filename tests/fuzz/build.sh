#!/bin/sh
# Builds the libFuzzer targets from the tree's sources with clang (the project itself
# builds with gcc): fuzz_machine (machine files) and fuzz_defs (a trace's traces.def).
#     build.sh SRCDIR BUILDDIR OUTDIR
# BUILDDIR is a configured and built tree: its generated sources (trace/calls_gen.c,
# model/comsys_version.h) are compiled in.  FUZZ_CC (default clang) must support
# -fsanitize=fuzzer.
set -e
src=$1 build=$2 out=$3
cc=${FUZZ_CC:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "build.sh: '$cc' not found: the fuzz targets need clang with libFuzzer" >&2
    exit 1
fi
mkdir -p "$out"
flags="-g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined
       -I$src/model -I$build/model -I$src/trace -I$build/trace -I$src/analyzer
       -I$src/tests/unit -I$src/tests/fuzz $(pkg-config --cflags otf2 2>/dev/null || true)"
model="machine.c machine_keys.c machine_write.c node_map.c units.c"
$cc $flags -o "$out/fuzz_machine" "$src/tests/fuzz/fuzz_machine.c" \
    $(for f in $model; do echo "$src/model/$f"; done) -lm
$cc $flags -o "$out/fuzz_defs" "$src/tests/fuzz/fuzz_defs.c" "$src/tests/fuzz/seed_trace.c" \
    "$src/tests/unit/trace_builder.c" "$src"/trace/*.c "$build/trace/calls_gen.c" \
    "$src"/analyzer/*.c -lopen-trace-format2 -lm
