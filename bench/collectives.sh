#!/bin/sh
# make bench, last part: the communication model on collectives alone, at 256 and 4096
# ranks, small and large blocks, counted as the point-to-point messages the algorithms
# generate (bench/README.md, "Collectives").
#
# Usage: collectives.sh BUILDDIR
set -eu
builddir=$1
bench=$builddir/bench/collectives
results=$builddir/bench-collectives.log
: > "$results"
for ranks in 256 4096; do
    for bytes in 8 65536; do
        instances=$((ranks == 256 ? 20 : 2))
        "$bench" --ranks "$ranks" --bytes "$bytes" --instances "$instances" | tee -a "$results"
        echo | tee -a "$results"
    done
done
echo "bench: collectives: results in $results"
