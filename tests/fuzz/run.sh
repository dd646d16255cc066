#!/bin/sh
# Builds the fuzz targets (build.sh) and runs each for SECONDS on a copy of its committed
# seed corpus (corpus/machine, corpus/defs); inputs that crash, hang or leak are written
# to OUTDIR/artifacts.  Exits non-zero if a target failed.
#     run.sh SRCDIR BUILDDIR OUTDIR SECONDS
set -e
src=$1 build=$2 out=$3 seconds=$4
here=$src/tests/fuzz
"$here/build.sh" "$src" "$build" "$out"
mkdir -p "$out/artifacts"
# Allocation stacks two frames deep, so that lsan.supp matches only OTF2's own blocks;
# a malloc too large fails as it does outside ASan (OTF2 then reports an error: a huge
# array length in a record is no crash).
ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=2:allocator_may_return_null=1}
LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$here/lsan.supp}
export ASAN_OPTIONS LSAN_OPTIONS
status=0
for target in machine defs; do
    rm -rf "$out/corpus-$target"
    cp -r "$here/corpus/$target" "$out/corpus-$target"
    echo "fuzz_$target: $seconds s"
    if ! "$out/fuzz_$target" -max_total_time="$seconds" -timeout=10 \
            -artifact_prefix="$out/artifacts/$target-" "$out/corpus-$target" \
            >"$out/fuzz_$target.log" 2>&1; then
        echo "fuzz_$target: FAILED, see $out/fuzz_$target.log and $out/artifacts" >&2
        status=1
    fi
    grep '^#[0-9]*.*DONE\|^Done [0-9]* runs' "$out/fuzz_$target.log" || true
done
exit $status
