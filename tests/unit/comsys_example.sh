#!/bin/sh
# The communication model's example on the shipped Fast Ethernet machine: one line per
# size from 1 B to 4 MiB, and the smallest message costs the packet model's time for
# 1 B: 90 us + 1 x 10 ns + (1 + 78) B / 12.5 MB/s = 90 + 0.01 + 6.32 = 96.33 us; then
# the allreduce of 8 B on 8 processes by MPICH 1.2.5's recursive doubling: 3 rounds,
# each of 8 messages of 8 B (90.08 + 86/12.5 = 96.96 us each) one after the other on the
# hub, 3 x 8 x 96.96 = 2327.04 us.
out=$(./unit/comsys_example "$PZ_TOP_SRCDIR/share/machines/ethernet-100-hub.conf") || exit 1
echo "$out"
lines=$(echo "$out" | awk 'NR > 1 && !/allreduce/' | wc -l)
[ "$lines" -eq 12 ] || { echo "expected 12 sizes, got $lines"; exit 1; }
first=$(echo "$out" | awk 'NR == 2 { print $2 }')
[ "$first" = "96.330" ] || { echo "1 B: expected 96.330 us, got $first"; exit 1; }
all=$(echo "$out" | awk '/allreduce/ { print $(NF - 1) }')
[ "$all" = "2327.040" ] || { echo "allreduce: expected 2327.040 us, got $all"; exit 1; }
./unit/comsys_example /nonexistent.conf 2>/dev/null && { echo "a missing file must fail"; exit 1; }
exit 0
