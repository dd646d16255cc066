# prognoz scale refusing a count whose run cannot fit in memory (integration/scale_memory.sh).
PZ_IT_TESTS += integration/scale_memory.sh
EXTRA_DIST += integration/scale_memory.sh
