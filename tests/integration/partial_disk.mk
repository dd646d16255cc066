# A full disk while the trace is written (integration/partial_disk.sh).
PZ_IT_TESTS += integration/partial_disk.sh
EXTRA_DIST += integration/partial_disk.sh
