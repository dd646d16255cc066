# prognoz export --perfetto on recorded and predicted runs (integration/perfetto.sh).
PZ_IT_TESTS += integration/perfetto.sh
EXTRA_DIST += integration/perfetto.sh
